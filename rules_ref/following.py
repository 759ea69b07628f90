"""Following: the duty to follow suit and the first-trick switch.

Rules ``FOLLOW.SUIT`` and ``FOLLOW.FIRST_TRICK``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import TWO_OF_CLUBS, Card, Suit, cards_of_suit, is_penalty
from .registry import implements
from .ruleset import FirstTrickPoints, FirstTrickTwoOfClubs, Ruleset


@implements("FOLLOW.SUIT")
def follows(hand: tuple[Card, ...], led_suit: Suit) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick led in ``led_suit`` (``FOLLOW.SUIT``).

    The cards of the led suit, if the hand holds any; otherwise every card.
    ``hand`` is in canonical order, as the state keeps every hand.
    The led suit is the first card's suit even when that card is cancelled
    (``TRICK.LED_SUIT``).

    >>> from rules_ref.cards import parse_cards as p
    >>> [str(c) for c in follows(p("3C 9C QS"), Suit.C)], len(follows(p("3D QS"), Suit.C))
    (['3C', '9C'], 2)
    """
    return cards_of_suit(hand, led_suit) or hand


def may_follow_with(card: Card, hand: Sequence[Card], led_suit: Suit) -> bool:
    """May ``card`` be played to a trick led in ``led_suit``? See :func:`follows`.

    >>> from rules_ref.cards import parse_cards as p, parse_card as c
    >>> may_follow_with(c("QS"), p("QS 3C"), Suit.C), may_follow_with(c("QS"), p("QS 3D"), Suit.C)
    (False, True)
    """
    return card in follows(tuple(sorted(hand)), led_suit)


@implements("FOLLOW.FIRST_TRICK")
def first_trick_plays(allowed: tuple[Card, ...], hand: tuple[Card, ...], led_suit: Suit,
                      trick_number: int, ruleset: Ruleset) -> tuple[Card, ...]:
    """Narrow ``allowed`` (what ``FOLLOW.SUIT`` allows) on the first trick (``FOLLOW.FIRST_TRICK``).

    By default nothing changes. Under ``first_trick_points = forbidden``, on
    trick 1 a player who cannot follow suit may not play a heart or a Q♠
    unless every card they hold is one. Under ``forbidden-even-following`` the
    ban also holds for a player who follows suit: of the cards of the led suit
    they hold, a heart or a Q♠ may be played only when all of them are. Under
    ``first_trick_two_of_clubs =
    must-play``, a player holding a 2♣ must play it to trick 1, following
    suit or not (:func:`two_of_clubs_duty`). ``allowed`` is for a card played
    after the lead: the opening lead is governed by ``opening_lead``.

    >>> from rules_ref.cards import parse_cards as p
    >>> strict = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN)
    >>> [str(c) for c in first_trick_plays(p("QS 3D"), p("QS 3D"), Suit.C, 1, strict)]
    ['3D']
    >>> len(first_trick_plays(p("QS 3D"), p("QS 3D"), Suit.C, 1, Ruleset()))
    2
    >>> even = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING)
    >>> [str(c) for c in first_trick_plays(p("5S QS"), p("3D 5S QS"), Suit.S, 1, even)]
    ['5S']
    >>> [str(c) for c in first_trick_plays(p("QS"), p("3D QS"), Suit.S, 1, even)]
    ['QS']
    >>> len(first_trick_plays(p("5S QS"), p("3D 5S QS"), Suit.S, 1, strict))
    2
    """
    if trick_number != 1:  # both switches are about the first trick only
        return allowed
    duty = two_of_clubs_duty(hand, trick_number, ruleset)
    if duty:
        return duty
    if ruleset.first_trick_points is FirstTrickPoints.ALLOWED:
        return allowed
    if ruleset.first_trick_points is FirstTrickPoints.FORBIDDEN and cards_of_suit(hand, led_suit):
        return allowed
    return tuple(c for c in allowed if not is_penalty(c)) or allowed


@implements("FOLLOW.FIRST_TRICK")
def two_of_clubs_duty(hand: Sequence[Card], trick_number: int,
                      ruleset: Ruleset) -> tuple[Card, ...]:
    """The 2♣ a player must play to trick 1 (``FOLLOW.FIRST_TRICK``), or ``()`` if none.

    Only under ``first_trick_two_of_clubs = must-play``, on trick 1, for a
    hand that holds a 2♣: that card is then the only legal play, whatever the
    led suit (it overrides ``FOLLOW.SUIT``). A hand holding both 2♣ plays one;
    the other is an ordinary card afterwards.

    >>> from rules_ref.cards import parse_cards as p
    >>> must = Ruleset(first_trick_two_of_clubs=FirstTrickTwoOfClubs.MUST_PLAY)
    >>> [str(c) for c in two_of_clubs_duty(p("2C 5D 9D"), 1, must)]
    ['2C']
    >>> two_of_clubs_duty(p("2C 5D"), 2, must), two_of_clubs_duty(p("2C 5D"), 1, Ruleset())
    ((), ())
    """
    if (ruleset.first_trick_two_of_clubs is FirstTrickTwoOfClubs.MUST_PLAY and trick_number == 1
            and TWO_OF_CLUBS in hand):
        return (TWO_OF_CLUBS,)
    return ()


def may_discard_on_first_trick(card: Card, hand: Sequence[Card], led_suit: Suit,
                               trick_number: int, ruleset: Ruleset) -> bool:
    """May ``card`` be played on trick ``trick_number``? See :func:`first_trick_plays`."""
    ordered = tuple(sorted(hand))
    return card in first_trick_plays(follows(ordered, led_suit), ordered, led_suit,
                                     trick_number, ruleset)
