"""Leading: who makes the opening lead, what may be led, and breaking hearts.

Rules ``LEAD.OPENING_LEADER``, ``LEAD.OPENING_CARD``, ``LEAD.HEARTS``,
``HEARTS.BROKEN``. The engine checks a lead in this order: the opening-lead
rule on the first lead of a deal, ``LEAD.HEARTS`` on every other lead.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import TEN_OF_DIAMONDS, TWO_OF_CLUBS, Card, Suit, is_penalty, without_suit
from .registry import implements
from .ruleset import HeartsBrokenBy, OpeningLead, Ruleset

#: The opening_lead values that look for a 2♣: its holder leads, and must lead it.
_TWO_OF_CLUBS = (OpeningLead.TWO_OF_CLUBS, OpeningLead.TWO_OF_CLUBS_DEALT)


@implements("LEAD.OPENING_LEADER")
def opening_leader(dealer: int, hands: Sequence[Sequence[Card]], ruleset: Ruleset,
                   dealt: Sequence[Sequence[Card]] | None = None) -> int:
    """The seat that makes the opening lead of a deal (``LEAD.OPENING_LEADER``).

    ``hands`` are the hands when play begins; ``dealt`` the hands as dealt,
    before any passing (the same as ``hands`` when nobody passed, the
    default). By default the player left of the dealer. Under
    ``opening_lead = two-of-clubs``, the first seat going left from the
    dealer's left (the dealer last) that holds a 2♣ in ``hands``; under
    ``two-of-clubs-dealt``, the first seat in the same order that holds a 2♣
    in ``dealt``. Under both, the dealer's left when no hand holds one.

    >>> from rules_ref.cards import parse_cards as p
    >>> hands = [p("3C"), p("4C"), p("2C"), p("5C")]
    >>> opening_leader(0, hands, Ruleset())
    1
    >>> opening_leader(3, [p("2C"), p("4C"), p("2C"), p("5C")],
    ...                Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS))
    0
    >>> opening_leader(1, hands, Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS_DEALT),
    ...                dealt=[p("3C"), p("2C"), p("4C"), p("5C")])
    1
    >>> opening_leader(1, hands, Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS_DEALT),
    ...                dealt=[p("2C"), p("3C"), p("4C"), p("2C")])
    3
    """
    n = len(hands)
    if ruleset.opening_lead in _TWO_OF_CLUBS:
        as_dealt = ruleset.opening_lead is OpeningLead.TWO_OF_CLUBS_DEALT and dealt is not None
        searched = dealt if as_dealt and dealt is not None else hands
        for step in range(1, n + 1):
            seat = (dealer + step) % n
            if TWO_OF_CLUBS in searched[seat]:
                return seat
    return (dealer + 1) % n


@implements("LEAD.OPENING_CARD", "LEAD.HEARTS")
def is_opening_lead(trick_number: int) -> bool:
    """Is a lead in trick ``trick_number`` (from 1) the deal's opening lead?

    The opening lead is restricted by ``LEAD.OPENING_CARD``, every other
    lead by ``LEAD.HEARTS``, including the lead of trick 2 after a void
    trick 1 (see ``spec/rules.toml``).

    >>> is_opening_lead(1), is_opening_lead(2)
    (True, False)
    """
    return trick_number == 1


def is_scoring(card: Card, ruleset: Ruleset) -> bool:
    """A card that scores under ``ruleset``: a heart, a Q♠, or a 10♦ when it counts."""
    return is_penalty(card) or (card == TEN_OF_DIAMONDS and ruleset.ten_of_diamonds_points != 0)


@implements("LEAD.OPENING_CARD")
def opening_leads(hand: Sequence[Card], ruleset: Ruleset) -> tuple[Card, ...]:
    """The cards that may make the opening lead of a deal from ``hand`` (``LEAD.OPENING_CARD``).

    Default: any card but a heart or a Q♠, unless the hand holds nothing
    else, in which case any card. ``left-of-dealer-no-scoring`` excludes
    every scoring card the same way; ``two-of-clubs`` and
    ``two-of-clubs-dealt`` allow only a 2♣ from a hand that holds one when it
    leads (under ``two-of-clubs-dealt``, whether it was dealt that 2♣ or
    received it in the pass), and otherwise restrict the lead as the default
    does.

    >>> from rules_ref.cards import parse_cards as p
    >>> [str(c) for c in opening_leads(p("2C QS 5H"), Ruleset())]
    ['2C']
    >>> [str(c) for c in opening_leads(p("5H QS"), Ruleset())]
    ['5H', 'QS']
    """
    if ruleset.opening_lead in _TWO_OF_CLUBS and TWO_OF_CLUBS in hand:
        return (TWO_OF_CLUBS,)
    if ruleset.opening_lead is OpeningLead.LEFT_OF_DEALER_NO_SCORING:
        allowed = tuple(c for c in hand if not is_scoring(c, ruleset))
    else:
        allowed = tuple(c for c in hand if not is_penalty(c))
    return allowed or tuple(hand)


def may_open_with(card: Card, hand: Sequence[Card], ruleset: Ruleset) -> bool:
    """May ``card`` open the deal from ``hand``? See :func:`opening_leads`.

    >>> from rules_ref.cards import parse_cards as p, parse_card as c
    >>> may_open_with(c("QS"), p("QS 2C"), Ruleset()), may_open_with(c("QS"), p("QS 2H"), Ruleset())
    (False, True)
    """
    return card in opening_leads(hand, ruleset)


@implements("LEAD.HEARTS")
def leads(hand: tuple[Card, ...], hearts_broken: bool, ruleset: Ruleset) -> tuple[Card, ...]:
    """The cards that may be led from ``hand``, other than on the opening lead (``LEAD.HEARTS``).

    Any card but a heart (a Q♠ included) may be led at any time; a heart only
    once hearts are broken, or when the hand holds nothing but hearts. Under
    ``hearts_broken_by = not-needed`` every card may be led. ``hand`` is in
    canonical order, as the state keeps every hand.

    >>> from rules_ref.cards import parse_cards as p
    >>> [str(c) for c in leads(p("2H QS"), False, Ruleset())]
    ['QS']
    >>> [str(c) for c in leads(p("2H 3H"), False, Ruleset())]
    ['2H', '3H']
    """
    if hearts_broken or ruleset.hearts_broken_by is HeartsBrokenBy.NOT_NEEDED:
        return hand
    return without_suit(hand, Suit.H) or hand


def may_lead(card: Card, hand: Sequence[Card], hearts_broken: bool, ruleset: Ruleset) -> bool:
    """May ``card`` be led from ``hand`` (not the opening lead)? See :func:`leads`.

    >>> from rules_ref.cards import parse_cards as p, parse_card as c
    >>> may_lead(c("2H"), p("2H QS"), False, Ruleset())
    False
    """
    return card in leads(tuple(sorted(hand)), hearts_broken, ruleset)


@implements("HEARTS.BROKEN")
def breaks_hearts(card: Card, led_suit: Suit | None, ruleset: Ruleset) -> bool:
    """Does playing ``card`` to a trick break hearts? (``HEARTS.BROKEN``)

    ``led_suit`` is ``None`` when the card is the lead. By default any heart
    or Q♠ played to a trick breaks hearts, cancelled or not; ``heart`` counts
    hearts only; ``heart-discard`` only a heart played to a trick led in
    another suit; ``heart-not-led`` a heart played to a trick other than as
    its lead (a follow to a heart lead or a discard). Under ``not-needed``
    breaking does not matter, but the default rule is still tracked for
    observers.

    >>> from rules_ref.cards import parse_card as c
    >>> breaks_hearts(c("QS"), Suit.C, Ruleset()), breaks_hearts(c("2H"), None, Ruleset())
    (True, True)
    >>> not_led = Ruleset(hearts_broken_by=HeartsBrokenBy.HEART_NOT_LED)
    >>> [breaks_hearts(c(t), s, not_led) for t, s in (("2H", None), ("2H", Suit.H), ("QS", Suit.C))]
    [False, True, False]
    """
    if not is_penalty(card):  # under every value only a heart or a Q♠ breaks hearts
        return False
    rule = ruleset.hearts_broken_by
    if rule is HeartsBrokenBy.HEART:
        return card.suit == Suit.H
    if rule is HeartsBrokenBy.HEART_DISCARD:
        return card.suit == Suit.H and led_suit is not None and led_suit != Suit.H
    if rule is HeartsBrokenBy.HEART_NOT_LED:
        return card.suit == Suit.H and led_suit is not None
    return True  # heart-or-queen, and not-needed: any heart or Q♠
