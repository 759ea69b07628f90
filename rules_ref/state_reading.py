"""What a :class:`~rules_ref.state.GameState` reads from its shared parts: its properties.

A state shares two parts by reference (:mod:`rules_ref.state_parts`): the
game as a whole (:class:`~rules_ref.state_parts.GamePart`) and the deal so
far (:class:`~rules_ref.state_parts.DealPart`). :class:`PartReadings`, the
base of :class:`~rules_ref.state.GameState`, shows their fields as read-only
properties of the state itself (``state.totals``, ``state.trick_number``),
so that no caller needs to know which part holds what.

>>> from rules_ref.state import GameState
>>> s = GameState.start(players=8, totals=(5,) * 8, next_deal=3)
>>> s.players, s.totals[0], s.initial_deal, s.deal_number, s.deal_results
(8, 5, 3, 2, ())
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Card
from .ruleset import Ruleset
from .state_parts import DealPart, DealResult, GamePart
from .tricks import TrickOutcome


class PartReadings:
    """The fields of a state's game part and deal part, read through the state."""

    __slots__ = ()

    if TYPE_CHECKING:
        game: GamePart
        deal: DealPart

    # --- the game as a whole (GamePart) -----------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self.game.ruleset

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def first_dealer(self) -> int:
        return self.game.first_dealer

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total after the deals scored so far."""
        return self.game.totals

    @property
    def initial_totals(self) -> tuple[int, ...]:
        """The totals the game started from (:meth:`~rules_ref.state.GameState.start`)."""
        return self.game.initial_totals

    @property
    def initial_deal(self) -> int:
        """The number of the game's first deal (:meth:`~rules_ref.state.GameState.start`)."""
        return self.game.initial_deal

    @property
    def deal_results(self) -> tuple[DealResult, ...]:
        return self.game.deal_results

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the lowest total once the game is over; empty before."""
        return self.game.winners

    # --- the deal so far (DealPart) -------------------------------------------------------

    @property
    def deal_number(self) -> int:
        return self.deal.deal_number

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def trick_number(self) -> int:
        """The trick being played, from 1; 0 before the first."""
        return self.deal.trick_number

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self.deal.leader

    @property
    def hearts_broken(self) -> bool:
        return self.deal.hearts_broken

    @property
    def tricks(self) -> tuple[TrickOutcome, ...]:
        """The tricks of this deal resolved so far, in order."""
        return self.deal.tricks

    @property
    def collected(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat has collected this deal."""
        return self.deal.collected

    @property
    def pending_has_extras(self) -> bool:
        """The extras lie in the pending pile (the first trick was void)."""
        return self.deal.pending_has_extras

    @property
    def extras_taken_by(self) -> int | None:
        """The seat that took the extras this deal; ``None`` while they wait, and
        when they went uncollected or were split (``VOID.LAST``)."""
        return self.deal.extras_taken_by

    @property
    def uncollected(self) -> tuple[Card, ...]:
        """The cards nobody collected at the end of the deal (``VOID.LAST``)."""
        return self.deal.uncollected

    @property
    def moon_shooter(self) -> int | None:
        return self.deal.moon_shooter
