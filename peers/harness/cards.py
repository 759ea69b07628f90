"""Cards as the protocol writes them (spec/notation.md) and their canonical order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TWO_OF_CLUBS = "2C"
PACKS: Counter[str] = Counter({rank + suit: 2 for suit in SUITS for rank in RANKS})  # the two packs


def card_key(card: str) -> tuple[int, int]:
    """The canonical order: clubs, diamonds, hearts, spades; 2 to A within a suit."""
    return SUITS.index(card[-1]), RANKS.index(card[:-1])


def canonical(cards: Iterable[str]) -> list[str]:
    """The cards in canonical order."""
    return sorted(cards, key=card_key)


def distinct(cards: Iterable[str]) -> list[str]:
    """Each card once, in canonical order."""
    return canonical(set(cards))


def holds(hand: Iterable[str], cards: Iterable[str]) -> bool:
    """Whether the hand holds every card named, as often as it is named."""
    return not Counter(cards) - Counter(hand)

