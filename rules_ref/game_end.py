"""The end of the game and its winners: rules ``GAME.END`` and ``GAME.WINNER``."""

from __future__ import annotations

from collections.abc import Sequence

from .registry import implements
from .ruleset import Ruleset


@implements("GAME.END")
def is_game_over(totals: Sequence[int], ruleset: Ruleset) -> bool:
    """After a deal is scored, the game ends if some total is at least the target (``GAME.END``).

    >>> is_game_over([149, 20], Ruleset()), is_game_over([150, 20], Ruleset())
    (False, True)
    """
    return max(totals) >= ruleset.target


@implements("GAME.END", "GAME.WINNER")
def game_winners(totals: Sequence[int], ruleset: Ruleset) -> tuple[int, ...]:
    """The winners once a deal has been scored; empty while the game goes on.

    The end is checked only after a deal is scored, with the ``totals`` that
    deal left (``GAME.END`` in ``spec/rules.toml``); then every seat with the
    lowest total wins (``GAME.WINNER``).

    >>> game_winners([149, 20], Ruleset()), game_winners([150, 20, 20], Ruleset())
    ((), (1, 2))
    """
    return winners(totals) if is_game_over(totals, ruleset) else ()


@implements("GAME.WINNER")
def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """Every seat with the lowest total: players tied for lowest all win (``GAME.WINNER``).

    >>> winners([40, 12, 151, 12])
    (1, 3)
    """
    low = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == low)
