"""Tricks: turn order, the led suit, cancellation and the winner.

Rules ``TURN.ORDER``, ``TURN.OWN_CARD``, ``TRICK.LED_SUIT``, ``TRICK.CANCEL``,
``TRICK.WINNER``, ``TRICK.NEXT_LEADER``, ``VOID.TRICK``, ``VOID.LEADER``.
:func:`resolve_trick` applies them in that order.

The seed's example, at six players (``spec/rules.toml``, ``TRICK.WINNER``):

>>> from rules_ref.cards import parse_cards
>>> t = resolve_trick(parse_cards("10S 9H 9H 10S KS 3S"), leader=0, players=6)
>>> t.winner, str(t.winning_card), [str(c) for c in t.cancelled]
(4, 'KS', ['9H', '10S'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import Card, Suit
from .registry import implements


@implements("TURN.ORDER")
def seat_at(leader: int, position: int, players: int) -> int:
    """The seat that plays a trick's ``position``-th card (0-based) (``TURN.ORDER``).

    Play goes to the left, one seat at a time.

    >>> [seat_at(5, i, 6) for i in range(6)]
    [5, 0, 1, 2, 3, 4]
    """
    return (leader + position) % players


@implements("TRICK.LED_SUIT")
def led_suit(cards: Sequence[Card]) -> Suit:
    """The led suit: the suit of the trick's first card, cancelled or not (``TRICK.LED_SUIT``).

    >>> from rules_ref.cards import parse_cards
    >>> led_suit(parse_cards("10S 10S 4H")).name
    'S'
    """
    return cards[0].suit


@implements("TRICK.CANCEL")
def cancelled_cards(cards: Sequence[Card]) -> frozenset[Card]:
    """The cards played twice to the trick: each identical pair cancels (``TRICK.CANCEL``).

    Only identical cards (same rank and suit) cancel, whatever their suit
    and whoever played them.

    >>> from rules_ref.cards import parse_cards
    >>> sorted(str(c) for c in cancelled_cards(parse_cards("9H 9S 9H 2C")))
    ['9H']
    """
    seen: set[Card] = set()
    twice: set[Card] = set()
    for c in cards:
        (twice if c in seen else seen).add(c)
    return frozenset(twice)


@implements("TRICK.WINNER", "VOID.TRICK")
def winning_position(cards: Sequence[Card],
                     cancelled: frozenset[Card] | None = None) -> int | None:
    """The position (0-based) of the highest uncancelled led-suit card (``TRICK.WINNER``).

    ``None`` when no uncancelled card of the led suit exists: the trick is
    void (``VOID.TRICK``). The winner is always unique, since an identical
    card would have cancelled it. ``cancelled`` may pass in
    :func:`cancelled_cards` when the caller has it already.

    >>> from rules_ref.cards import parse_cards
    >>> winning_position(parse_cards("5D 5D JD JD 8D 8D 2C")) is None
    True
    """
    suit = led_suit(cards)
    gone = cancelled_cards(cards) if cancelled is None else cancelled
    best: int | None = None
    for i, c in enumerate(cards):
        if c.suit == suit and c not in gone and (best is None or c.rank > cards[best].rank):
            best = i
    return best


@implements("TRICK.NEXT_LEADER", "VOID.LEADER")
def next_leader(leader: int, winner: int | None) -> int:
    """Who leads next: the winner (``TRICK.NEXT_LEADER``).

    After a void trick, its own leader leads again (``VOID.LEADER``).

    >>> next_leader(2, 5), next_leader(2, None)
    (5, 2)
    """
    return leader if winner is None else winner


class TrickOutcome(NamedTuple):
    """A resolved trick: led suit, cancelled cards, winner (``None`` if void)."""

    leader: int
    cards: tuple[Card, ...]
    led_suit: Suit
    cancelled: tuple[Card, ...]
    winner: int | None
    winning_card: Card | None

    @property
    def void(self) -> bool:
        return self.winner is None


def resolve_trick(cards: Sequence[Card], leader: int, players: int) -> TrickOutcome:
    """Resolve a complete trick (cards in play order, first card led by ``leader``)."""
    gone = cancelled_cards(cards)
    pos = winning_position(cards, gone)
    if pos is None:  # void (VOID.TRICK)
        return TrickOutcome(leader, tuple(cards), led_suit(cards), tuple(sorted(gone)), None, None)
    return TrickOutcome(leader, tuple(cards), led_suit(cards), tuple(sorted(gone)),
                        seat_at(leader, pos, players), cards[pos])


@implements("TURN.OWN_CARD")
def holds(hand: Sequence[Card], card: Card) -> bool:
    """May a seat whose hand is ``hand`` play ``card``, as far as holding it goes?

    A seat plays only a card of its own hand (``TURN.OWN_CARD``): one it holds
    (either copy, when it holds both).

    >>> from rules_ref.cards import parse_card, parse_cards
    >>> holds(parse_cards("QS 2H"), parse_card("QS")), holds(parse_cards("2H"), parse_card("QS"))
    (True, False)
    """
    return card in hand


@implements("TURN.ORDER")
def may_act(seat: int, waiting_for: tuple[int, ...]) -> bool:
    """May ``seat`` act now, when ``waiting_for`` are the seats whose turn it is?

    Only the seat whose turn it is may act (``TURN.ORDER`` in
    ``spec/rules.toml``): while passing any seat yet to pass, while playing
    the next seat to the left, in the moon choice the shooter
    (:attr:`rules_ref.state.GameState.waiting_for`).

    >>> may_act(2, (2,)), may_act(3, (2,))
    (True, False)
    """
    return seat in waiting_for
