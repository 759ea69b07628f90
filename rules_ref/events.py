"""What an action caused: the events :meth:`GameState.apply` returns.

Events make the rare paths visible: a trick set aside, pending cards
collected, the extras taken or pending, cards left uncollected, a moon.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import MoonChoice
from .cards import CARDS, Card
from .deal import MAX_PLAYERS


class DealStarted(NamedTuple):
    deal_number: int
    dealer: int
    pass_offset: int | None  # seats to the left the passes go; None when nobody passes


class CardsPassed(NamedTuple):
    seat: int
    to_seat: int


class PassesExchanged(NamedTuple):
    deal_number: int


class CardPlayed(NamedTuple):
    seat: int
    card: Card


class HeartsBroken(NamedTuple):
    seat: int
    card: Card


class TrickWon(NamedTuple):
    trick_number: int
    winner: int
    card: Card
    cancelled: tuple[Card, ...]


class TrickSetAside(NamedTuple):
    """A void trick: no uncancelled card of the led suit (``VOID.TRICK``)."""

    trick_number: int
    leader: int
    cancelled: tuple[Card, ...]


class PendingCollected(NamedTuple):
    """The trick's winner also took the pending pile (``VOID.COLLECT``)."""

    seat: int
    cards: tuple[Card, ...]


class ExtrasTaken(NamedTuple):
    seat: int
    cards: tuple[Card, ...]


class ExtrasPending(NamedTuple):
    """The first trick was void: the extras joined the pending pile."""

    cards: tuple[Card, ...]


class PendingSettled(NamedTuple):
    """Cards still pending when the deal ended (``VOID.LAST``).

    ``taken`` lists (seat, cards) under a variant that gives them out;
    ``uncollected`` holds the cards nobody collects.
    """

    taken: tuple[tuple[int, tuple[Card, ...]], ...]
    uncollected: tuple[Card, ...]


class MoonShot(NamedTuple):
    seat: int


class MoonChosen(NamedTuple):
    seat: int
    choice: MoonChoice | None  # None when the ruleset has a single moon option


class DealScored(NamedTuple):
    deal_number: int
    card_points: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


class GameOver(NamedTuple):
    totals: tuple[int, ...]
    winners: tuple[int, ...]


#: Events are named tuples: cheap to make, since a card play makes at least one.
Event = (DealStarted | CardsPassed | PassesExchanged | CardPlayed | HeartsBroken | TrickWon
         | TrickSetAside | PendingCollected | ExtrasTaken | ExtrasPending | PendingSettled
         | MoonShot | MoonChosen | DealScored | GameOver)


#: The events of a card play that neither breaks hearts nor ends a trick, by seat and
#: card: ``PLAYED_ALONE[seat][card] == (CardPlayed(seat, card),)``. Events are values, so
#: every such play shares one tuple made here instead of building its own.
PLAYED_ALONE: tuple[tuple[tuple[CardPlayed], ...], ...] = tuple(
    tuple((CardPlayed(seat, card),) for card in CARDS) for seat in range(MAX_PLAYERS))
