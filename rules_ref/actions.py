"""The actions of a game: deal, pass, play and moon choice.

A game is replayable from its list of actions (``GameState.actions``).
Actions name cards, never copies: the two copies of a card are the same
value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, format_cards


class MoonChoice(StrEnum):
    """The shooter's two options under the default moon rule (``MOON.CHOICE``)."""

    SUBTRACT = "subtract"  # the shooter scores -26, everyone else 0
    ADD = "add"  # the shooter scores 0, everyone else +26


@dataclass(frozen=True, slots=True)
class DealCards:
    """Start the next deal with these hands (by seat) and extras (``DEAL.SOURCE``)."""

    hands: tuple[tuple[Card, ...], ...]
    extras: tuple[Card, ...]

    def __str__(self) -> str:
        return "deal " + " | ".join(format_cards(h) for h in self.hands) + \
            f" | extras {format_cards(self.extras) or '-'}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Seat ``seat`` passes ``cards`` (``PASS.CARDS``)."""

    seat: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"seat {self.seat} passes {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """Seat ``seat`` plays ``card`` to the current trick."""

    seat: int
    card: Card

    def __init__(self, seat: int, card: Card) -> None:
        # Made for every card play: set the two slots directly, which is faster than
        # the frozen dataclass's generated __init__ (object.__setattr__ by name).
        _set_play_seat(self, seat)
        _set_play_card(self, card)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card}"


_set_play_seat = Play.__dict__["seat"].__set__
_set_play_card = Play.__dict__["card"].__set__


@dataclass(frozen=True, slots=True)
class ChooseMoon:
    """The shooter picks a moon option (``MOON.CHOICE``)."""

    seat: int
    choice: MoonChoice

    def __str__(self) -> str:
        return f"seat {self.seat} chooses moon option {self.choice}"


Action = DealCards | Pass | Play | ChooseMoon
