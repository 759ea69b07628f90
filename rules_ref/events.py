"""What an action caused: the events :meth:`GameState.apply` returns.

Events make the rare paths visible: a trick set aside, pending cards
collected, the extras taken or pending, cards left uncollected, a moon.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import MoonChoice
from .cards import Card


@dataclass(frozen=True, slots=True)
class DealStarted:
    deal_number: int
    dealer: int
    pass_offset: int | None  # seats to the left the passes go; None when nobody passes


@dataclass(frozen=True, slots=True)
class CardsPassed:
    seat: int
    to_seat: int


@dataclass(frozen=True, slots=True)
class PassesExchanged:
    deal_number: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class HeartsBroken:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    trick_number: int
    winner: int
    card: Card
    cancelled: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickSetAside:
    """A void trick: no uncancelled card of the led suit (``VOID.TRICK``)."""

    trick_number: int
    leader: int
    cancelled: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PendingCollected:
    """The trick's winner also took the pending pile (``VOID.COLLECT``)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ExtrasTaken:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ExtrasPending:
    """The first trick was void: the extras joined the pending pile."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PendingSettled:
    """Cards still pending when the deal ended (``VOID.LAST``).

    ``taken`` lists (seat, cards) under a variant that gives them out;
    ``uncollected`` holds the cards nobody collects.
    """

    taken: tuple[tuple[int, tuple[Card, ...]], ...]
    uncollected: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class MoonShot:
    seat: int


@dataclass(frozen=True, slots=True)
class MoonChosen:
    seat: int
    choice: MoonChoice | None  # None when the ruleset has a single moon option


@dataclass(frozen=True, slots=True)
class DealScored:
    deal_number: int
    card_points: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    totals: tuple[int, ...]
    winners: tuple[int, ...]


Event = (DealStarted | CardsPassed | PassesExchanged | CardPlayed | HeartsBroken | TrickWon
         | TrickSetAside | PendingCollected | ExtrasTaken | ExtrasPending | PendingSettled
         | MoonShot | MoonChosen | DealScored | GameOver)
