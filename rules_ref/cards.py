"""Cards, suits, ranks and the card notation of ``spec/notation.md``.

A card is a rank and a suit (rules ``DECK.CARDS``, ``DECK.RANKING``). The two
copies of a card are indistinguishable, so a :class:`Card` is a value: there
are exactly 52 of them, and a hand is a sorted tuple of cards that may hold a
card twice.

>>> c = parse_card("q♠")
>>> c, c.rank, c.suit.name, str(c)
(Card('QS'), 12, 'S', 'QS')
>>> sorted(parse_cards("AS 2C 10H"))
[Card('2C'), Card('10H'), Card('AS')]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from enum import IntEnum

from .errors import CardNotationError
from .registry import implements


class Suit(IntEnum):
    """The four suits in canonical order (clubs, diamonds, hearts, spades)."""

    C = 0
    D = 1
    H = 2
    S = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]


RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
             11: "J", 12: "Q", 13: "K", 14: "A"}
RANKS = tuple(RANK_TEXT)
MAX_CARD_TEXT = 8


class Card(int):
    """One of the 52 cards; its integer value is its canonical index.

    The index is ``suit * 13 + (rank - 2)``, so comparing cards compares
    their canonical order (suit first, then rank), which is how hands are
    sorted. Rank comparison within a suit is ``rank`` (A = 14 high).
    """

    rank: int
    suit: Suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + self.suit.name

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, for people: ``Q♠``."""
        return RANK_TEXT[self.rank] + self.suit.symbol


def _make(index: int) -> Card:
    card = int.__new__(Card, index)
    card.rank = index % 13 + 2
    card.suit = Suit(index // 13)
    return card


#: The 52 cards in canonical order; ``CARDS[i]`` has index ``i``.
CARDS: tuple[Card, ...] = tuple(_make(i) for i in range(52))


def card(rank: int, suit: Suit) -> Card:
    """The card of this rank (2 … 14) and suit."""
    return CARDS[suit * 13 + rank - 2]


@implements("DECK.CARDS")
def full_deck() -> tuple[Card, ...]:
    """The deck: two copies of each of the 52 cards, 104 in all (``DECK.CARDS``).

    Returned in the canonical deck order of ``spec/deal.md``: the 52 cards
    in canonical order, then the 52 again.

    >>> deck = full_deck()
    >>> len(deck), deck.count(parse_card("QS")), str(deck[0]), str(deck[52])
    (104, 2, '2C', '2C')
    """
    return CARDS + CARDS


@implements("DECK.RANKING")
def outranks(a: Card, b: Card) -> bool:
    """True if ``a`` beats ``b`` within one suit: A high … 2 low (``DECK.RANKING``).

    Cards of different suits never outrank each other: there are no trumps.

    >>> outranks(parse_card("AH"), parse_card("KH")), outranks(parse_card("2S"), parse_card("AH"))
    (True, False)
    """
    return a.suit == b.suit and a.rank > b.rank


QUEEN_OF_SPADES = card(12, Suit.S)
TEN_OF_DIAMONDS = card(10, Suit.D)
TWO_OF_CLUBS = card(2, Suit.C)


def cards_of_suit(hand: tuple[Card, ...], suit: Suit) -> tuple[Card, ...]:
    """The cards of ``suit`` in a sorted hand.

    Hands are kept in canonical order, suit first, so a suit is one
    contiguous run, found by binary search.

    >>> cards_of_suit(parse_cards("2C 5D 9D QS"), Suit.D)
    (Card('5D'), Card('9D'))
    """
    return hand[bisect_left(hand, suit * 13):bisect_left(hand, suit * 13 + 13)]


def without_suit(hand: tuple[Card, ...], suit: Suit) -> tuple[Card, ...]:
    """The cards of a sorted hand that are not of ``suit``.

    >>> without_suit(parse_cards("2C 5H 9H QS"), Suit.H)
    (Card('2C'), Card('QS'))
    """
    return hand[:bisect_left(hand, suit * 13)] + hand[bisect_left(hand, suit * 13 + 13):]


def is_heart(c: Card) -> bool:
    return c.suit == Suit.H


def is_black_maria(c: Card) -> bool:
    """True for a queen of spades (either copy is a Black Maria)."""
    return c == QUEEN_OF_SPADES


#: Each card's penalty points, by canonical index: 1 for a heart, 13 for a Q♠, 0 for the rest.
PENALTY_OF: tuple[int, ...] = tuple(13 if c == QUEEN_OF_SPADES else int(c.suit == Suit.H)
                                    for c in CARDS)

#: The penalty cards, those of :data:`PENALTY_OF` worth points: the 13 hearts and the Q♠.
#: The rules test cards against them on every opening lead (each card of the hand) and
#: play: one set lookup.
PENALTY_CARDS = frozenset(c for c in CARDS if PENALTY_OF[c])


def is_penalty(c: Card) -> bool:
    """A heart or a Q♠: the cards the default rules restrict and score."""
    return c in PENALTY_CARDS


def penalty_points(cards: Iterable[Card]) -> int:
    """Hearts and queens of spades only: 1 per heart, 13 per Q♠.

    >>> penalty_points(parse_cards("QS 2H 3H 10D")), penalty_points(())
    (15, 0)
    """
    return sum(map(PENALTY_OF.__getitem__, cards))


_SUIT_INPUT = {"C": Suit.C, "D": Suit.D, "H": Suit.H, "S": Suit.S,
               "♣": Suit.C, "♦": Suit.D, "♥": Suit.H, "♠": Suit.S,
               "♧": Suit.C, "♢": Suit.D, "♡": Suit.H, "♤": Suit.S}
_RANK_INPUT = {text: rank for rank, text in RANK_TEXT.items()} | {"T": 10}
_PARSED: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Read one card in the notation of ``spec/notation.md``.

    Accepts ``QS``, ``10h``, ``th``, ``Q♠`` (case-insensitive, surrounding
    white space ignored); anything else raises :class:`CardNotationError`
    naming the text.

    >>> parse_card(" 10h ")
    Card('10H')
    >>> parse_card("1H")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules_ref.errors.CardNotationError: '1H' is not a card: rank '1' is not one of 2-10, ...
    """
    if not isinstance(text, str):
        try:
            shown = repr(text)
        except (RecursionError, ValueError):
            shown = f"<{type(text).__name__}>"
        if len(shown) > 20:
            shown = shown[:20] + "…"
        raise CardNotationError(f"{shown} is not a card: expected text such as 'QS' or '10H'")
    hit = _PARSED.get(text)
    if hit is not None:
        return hit
    stripped = text.strip()
    shown = stripped if len(stripped) <= 20 else stripped[:20] + "…"
    if not stripped:
        raise CardNotationError("empty text is not a card: expected text such as 'QS' or '10H'")
    if len(stripped) > MAX_CARD_TEXT:
        raise CardNotationError(f"{shown!r} is not a card: longer than {MAX_CARD_TEXT} characters")
    upper = stripped.upper()
    suit = _SUIT_INPUT.get(upper[-1])
    rank = _RANK_INPUT.get(upper[:-1])
    if suit is None:
        raise CardNotationError(
            f"{shown!r} is not a card: suit {stripped[-1]!r} is not one of C, D, H, S (or ♣♦♥♠)")
    if rank is None:
        raise CardNotationError(
            f"{shown!r} is not a card: rank {stripped[:-1]!r} is not one of "
            "2-10, J, Q, K, A (or T)")
    result = card(rank, suit)
    if len(_PARSED) < 4096:
        _PARSED[text] = result
    return result


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read several cards, separated by white space or commas, or given as a list."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(item) for item in items)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, separated by spaces."""
    return " ".join(str(c) for c in cards)
