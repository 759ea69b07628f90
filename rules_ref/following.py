"""Following: the duty to follow suit and the first-trick switch.

Rules ``FOLLOW.SUIT`` and ``FOLLOW.FIRST_TRICK``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Suit, is_penalty
from .registry import implements
from .ruleset import FirstTrickPoints, Ruleset


@implements("FOLLOW.SUIT")
def may_follow_with(card: Card, hand: Sequence[Card], led_suit: Suit) -> bool:
    """May ``card`` be played to a trick led in ``led_suit``? (``FOLLOW.SUIT``)

    A card of the led suit always; any other card only when the hand holds
    none of the led suit. The led suit is the first card's suit even when
    that card is cancelled (``TRICK.LED_SUIT``).

    >>> from rules_ref.cards import parse_cards as p, parse_card as c
    >>> may_follow_with(c("QS"), p("QS 3C"), Suit.C), may_follow_with(c("QS"), p("QS 3D"), Suit.C)
    (False, True)
    """
    return card.suit == led_suit or all(c.suit != led_suit for c in hand)


@implements("FOLLOW.FIRST_TRICK")
def may_discard_on_first_trick(card: Card, hand: Sequence[Card], led_suit: Suit,
                               trick_number: int, ruleset: Ruleset) -> bool:
    """May ``card`` be played on trick ``trick_number``? (``FOLLOW.FIRST_TRICK``)

    By default there is no restriction. Under ``first_trick_points =
    forbidden``, on trick 1 a player who cannot follow suit may not play a
    heart or a Q♠ unless every card they hold is one.

    >>> from rules_ref.cards import parse_cards as p, parse_card as c
    >>> strict = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN)
    >>> may_discard_on_first_trick(c("QS"), p("QS 3D"), Suit.C, 1, strict)
    False
    >>> may_discard_on_first_trick(c("QS"), p("QS 3D"), Suit.C, 1, Ruleset())
    True
    """
    if ruleset.first_trick_points is FirstTrickPoints.ALLOWED or trick_number != 1:
        return True
    if card.suit == led_suit or not is_penalty(card):
        return True
    return all(is_penalty(c) for c in hand)
