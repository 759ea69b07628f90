"""Starts from a position where nothing diverged: checking the ``position`` capability.

An adapter that declares ``position`` (protocol version 2) says that its
implementation can start from any position the rules reach, knowing nothing
of the tricks before it (``spec/position.md``). Resynchronisation
(:mod:`.resync`) uses that only after a divergence, so without this module a
run against an implementation that agrees everywhere would never check it,
nor the parts of an engine that only a position hands it ready-made: a
set-aside pile it did not build itself, extras lying in that pile, a moon
choice it did not reach by playing.

So in one game in :data:`EVERY` (chosen from the game's own seed:
:func:`starts_again`), the runner starts the implementation again, once,
from the reference's position at the first of these moments the game meets
(:func:`is_moment`) while nothing in it has diverged (after a divergence
the implementation's own rules may read the position otherwise: its
rejection would be that divergence again, not a difference of its own): a
trick about to be led while a set-aside pile waits (``VOID.TRICK``), the
shooter's moon choice (``MOON.CHOICE``), a deal scored with the game going
on (between deals). :meth:`.session.Session.start_again` sends that
``start``; its answer must be the reference's observation of the position,
and the game goes on from there on both sides. A rejection or an internal
error is a divergence under the rules the position rests on
(:func:`position_rules`), another observation one under the rules of the
fields that differ. As after any divergence at a start, the implementation
is then offered the position once more, and then the game's next moments
(:mod:`.resync`) when that does not bring it back in step: it cannot be
followed from a position it does not take.
"""

from __future__ import annotations

from typing import Protocol

from ..registry import rule_ids
from ..state import GameState
from ..state_parts import Phase

#: One game in this many is started again from a position (when the adapter can).
EVERY = 4


class Capable(Protocol):
    """What declares capabilities: an adapter process, or the supports of its ``hello``."""

    def can(self, capability: str) -> bool: ...


def starts_again(game_seed: int, proc: Capable) -> bool:
    """True if the game of ``game_seed`` is started again from a position once."""
    return game_seed % EVERY == 0 and proc.can("position")


def is_moment(state: GameState) -> bool:
    """True at a moment a game is started again from its position (see the module)."""
    if state.phase is Phase.PLAYING:
        return bool(state.pending) and not state.trick
    return state.phase is Phase.MOON_CHOICE or (
        state.phase is Phase.DEALING and bool(state.deal_results))


def position_rules(state: GameState, cited: object = None) -> list[str]:
    """The rules a position rests on, the most particular first.

    The set-aside pile's (``VOID.TRICK``, ``VOID.COLLECT``) when one waits,
    the extras' (``EXTRAS.FIRST_TRICK``) while they are still to be taken,
    the moon's in the moon choice, the next deal's (``DEAL.DEALER``,
    ``GAME.END``) between deals, the exchange's while passing, and turn
    order last. A rule of the game that the implementation ``cited`` in
    its rejection goes first: the reference reaches the position, so the
    cited rule is the one the implementation judges it by differently.
    """
    rules: list[str] = []
    if state.pending:
        rules += ["VOID.TRICK", "VOID.COLLECT"]
    if state.pending_has_extras or (state.phase is Phase.PLAYING and state.extras
                                    and state.trick_number == 1):
        rules.append("EXTRAS.FIRST_TRICK")
    if state.phase is Phase.MOON_CHOICE:
        rules += ["MOON.CHOICE", "MOON.CONDITION"]
    elif state.phase is Phase.DEALING:
        rules += ["DEAL.DEALER", "GAME.END"]
    elif state.phase is Phase.PASSING:
        rules.append("PASS.EXCHANGE")
    rules.append("TURN.ORDER")
    if isinstance(cited, str) and cited in rule_ids():
        rules = [cited, *(r for r in rules if r != cited)]
    return rules
