"""Adversarial deals: deals that make the rare rules happen, from any source of choices.

Identical hands for partners (whole tricks cancel), a suit held only in
matched pairs, a leader with only point cards or mostly the cards the
opening rules single out, a leader forced to lead hearts, a follower
without the led suit, both 2♣ among the extras, and a seat that can take
every trick (shooting the moon).

Every builder takes its choices from a :class:`Choices`: the search passes
a seeded :class:`random.Random`, so that a game replays exactly; the
Hypothesis strategies of :mod:`.deals` pass a draw (:class:`.deals.Drawn`),
so that a failing deal shrinks. The vectors' moon deals give the shooter
:func:`moon_hand`. Nothing here needs Hypothesis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..actions import DealCards
from ..cards import (
    CARDS,
    QUEEN_OF_SPADES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    Card,
    Suit,
    card,
    full_deck,
    is_penalty,
)
from ..deal import extras_count, hand_size
from ..passing import pass_direction, pass_offset
from ..ruleset import OpeningLead, Ruleset

ACE_OF_CLUBS = card(14, Suit.C)


class Choices(Protocol):
    """Where a builder's choices come from; :class:`random.Random` is one."""

    def randrange(self, stop: int, /) -> int:
        """A whole number from 0 to ``stop - 1``."""

    def shuffle(self, x: list[Any], /) -> None:
        """Put ``x`` in an order chosen here, in place."""


def _dealt(hands: Sequence[Sequence[Card]], extras: Sequence[Card]) -> DealCards:
    return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))


def _fill(hands: list[list[Card]], rest: list[Card], size: int) -> DealCards:
    """Fill every hand up to ``size`` from ``rest`` in order; what is left is the extras."""
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    return _dealt(hands, rest)


def _by_seats(order: Sequence[int], pool: Sequence[Card], players: int) -> DealCards:
    """The seats of ``order`` take ``pool`` a hand at a time; what is left is the extras."""
    size = hand_size(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k, seat in enumerate(order):
        hands[seat] = list(pool[k * size:(k + 1) * size])
    return _dealt(hands, pool[players * size:])


def mirror_deal(choices: Choices, players: int, lone_suit: bool = False,
                turned: bool = False, points_aside: bool = False) -> DealCards:
    """Seats ``s`` and ``s + ⌊n/2⌋`` hold identical hands (an odd seat out holds the rest).

    With partners copying each other, whole tricks cancel (``TRICK.CANCEL``,
    ``VOID.TRICK``), the last one too (``VOID.LAST``). The pairs sit across
    the table, so passes left, right or across keep the hands identical when
    partners pass alike. With ``lone_suit``, the cards of one suit are dealt
    last, so that the odd seat out holds only that suit (both copies of the
    leftover cards; the rest are the extras) and a lead in another suit can
    still be void (``EXTRAS.FIRST_TRICK`` when it is trick 1). With
    ``turned``, the pairs are turned round the table by a chosen number of seats.
    With ``points_aside``, the cards left over after the pairs' hands (each twice: the
    extras, and the odd seat's hand) hold a heart or a Q♠: where the extras go when
    trick 1 is void (``VOID.COLLECT``, ``VOID.LAST``) then shows in the points.
    """
    size = hand_size(players)
    pairs = players // 2
    if lone_suit:
        lone = Suit(choices.randrange(4))
        head = [c for c in CARDS if c.suit != lone]
        tail = [c for c in CARDS if c.suit == lone]
        choices.shuffle(head)
        choices.shuffle(tail)
        distinct = head + tail
    else:
        distinct = list(CARDS)
        choices.shuffle(distinct)
    if points_aside and pairs * size < len(distinct) and not any(
            is_penalty(c) for c in distinct[pairs * size:]):
        first = next(i for i, c in enumerate(distinct) if is_penalty(c))  # in shuffled order
        distinct[first], distinct[-1] = distinct[-1], distinct[first]
    shift = choices.randrange(players) if turned else 0
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(pairs):
        part = distinct[k * size:(k + 1) * size]
        hands[(k + shift) % players] = list(part)
        hands[(k + pairs + shift) % players] = list(part)
    rest = distinct[pairs * size:] * 2
    choices.shuffle(rest)
    if players % 2:
        hands[(2 * pairs + shift) % players] = rest[:size]
        rest = rest[size:]
    return _dealt(hands, rest)


def swapped(choices: Choices, deal: DealCards, max_swaps: int) -> DealCards:
    """``deal`` with up to ``max_swaps`` cards exchanged between two hands.

    On a mirror deal, this breaks the symmetry a little (partial cancellation).
    """
    hands = [list(h) for h in deal.hands]
    n = len(hands)
    for _ in range(choices.randrange(max_swaps + 1)):
        a = choices.randrange(n)
        b = choices.randrange(n - 1)
        b = b + 1 if b >= a else b
        i = choices.randrange(len(hands[a]))
        j = choices.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return _dealt(hands, deal.extras)


def cancelling_suit_deal(choices: Choices, players: int) -> DealCards:
    """One suit held only as matched pairs: partners hold the same cards of it, nobody else any.

    So a lead of that suit can cancel out entirely (``VOID.TRICK``) when
    every partner plays the twin.
    """
    size = hand_size(players)
    suit = Suit(choices.randrange(4))
    least = -(-13 // size)
    count = least + choices.randrange(players // 2 - least + 1)
    seats = list(range(players))
    choices.shuffle(seats)
    ranks = [c for c in CARDS if c.suit == suit]
    choices.shuffle(ranks)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(count):
        group = ranks[k::count]
        hands[seats[2 * k]] = list(group)
        hands[seats[2 * k + 1]] = list(group)
    rest = [c for c in full_deck() if c.suit != suit]
    choices.shuffle(rest)
    return _fill(hands, rest, size)


def penalty_leader_deal(choices: Choices, players: int, leader: int) -> DealCards:
    """``leader`` holds only hearts and Q♠, its neighbours most of the rest of them.

    So the opening lead may be any card (``LEAD.OPENING_CARD``), a pass from
    a neighbour that gets rid of its point cards keeps it so, and a later
    lead while hearts are unbroken must be a Q♠ (``LEAD.HEARTS``).
    """
    penalty = [c for c in full_deck() if is_penalty(c)]
    others = [c for c in full_deck() if not is_penalty(c)]
    choices.shuffle(penalty)
    choices.shuffle(others)
    order = [leader, (leader - 1) % players, (leader + 1) % players]
    order += [s for s in range(players) if s not in order]
    return _by_seats(order, penalty + others, players)


def opening_lead_deal(choices: Choices, players: int, leader: int) -> DealCards:
    """``leader`` holds mostly the cards the opening-lead rules single out, and up to two others.

    Those are the hearts, the Q♠, the 10♦ (a scoring card when it counts)
    and the 2♣ (``LEAD.OPENING_CARD`` and the switch ``opening_lead``), so
    that every exception of every opening rule comes up.
    """
    size = hand_size(players)
    special = [c for c in full_deck() if is_penalty(c) or c in (TEN_OF_DIAMONDS, TWO_OF_CLUBS)]
    plain = [c for c in full_deck() if c not in special]
    others = choices.randrange(3)
    choices.shuffle(special)
    choices.shuffle(plain)
    hand = special[:size - others] + plain[:others]
    rest = special[size - others:] + plain[others:]
    choices.shuffle(rest)
    seats = [s for s in range(players) if s != leader]
    choices.shuffle(seats)
    return _by_seats([leader, *seats], hand + rest, players)


def forced_heart_deal(choices: Choices, players: int, leader: int,
                      queen: bool = False) -> DealCards:
    """``leader`` holds the A♣ (both, or one with the other among the extras) and hearts.

    It wins its club leads and is then left with only hearts, maybe while
    hearts are unbroken (``LEAD.HEARTS``). With ``queen`` it also holds a
    Q♠, which it must lead before any heart while hearts are unbroken.
    """
    size = hand_size(players)
    ace = ACE_OF_CLUBS
    aces = 1 if extras_count(players) else 2
    hearts = [c for c in full_deck() if c.suit == Suit.H]
    choices.shuffle(hearts)
    queens = [QUEEN_OF_SPADES] if queen else []
    hand = [ace] * aces + queens + hearts[:size - aces - len(queens)]
    rest = [c for c in full_deck() if c.suit != Suit.H and c != ace and c not in queens]
    rest += queens + hearts[size - aces - len(queens):]
    choices.shuffle(rest)
    if aces == 1:
        rest.append(ace)  # dealt last: among the extras
    seats = [s for s in range(players) if s != leader]
    return _by_seats([leader, *seats], hand + rest, players)


def penalty_follower_deal(choices: Choices, players: int, leader: int) -> DealCards:
    """The seat after ``leader`` holds only hearts and Q♠; ``leader`` holds none of them.

    So it cannot follow the opening lead and may discard a heart or a Q♠
    even where the first trick forbids them (``FOLLOW.FIRST_TRICK``).
    """
    size = hand_size(players)
    penalty = [c for c in full_deck() if is_penalty(c)]
    others = [c for c in full_deck() if not is_penalty(c)]
    choices.shuffle(penalty)
    choices.shuffle(others)
    follower = (leader + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    hands[follower] = penalty[:size]
    hands[leader] = others[:size]
    rest = penalty[size:] + others[size:]
    choices.shuffle(rest)
    return _fill(hands, rest, size)


def void_follower_deal(choices: Choices, players: int, leader: int) -> DealCards:
    """``leader`` holds only clubs; the seat after it no club, half of its hand hearts.

    So the follower cannot follow the opening club lead and holds hearts
    beside other cards: where the first trick forbids them, a heart is an
    illegal discard there (``FOLLOW.FIRST_TRICK``).
    """
    size = hand_size(players)
    clubs = [c for c in full_deck() if c.suit == Suit.C]
    hearts = [c for c in full_deck() if c.suit == Suit.H]
    others = [c for c in full_deck() if c.suit in (Suit.D, Suit.S)]
    for pile in (clubs, hearts, others):
        choices.shuffle(pile)
    follower = (leader + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    hands[leader] = clubs[:size]
    half = size // 2
    hands[follower] = hearts[:half] + others[:size - half]
    rest = clubs[size:] + hearts[half:] + others[size - half:]
    choices.shuffle(rest)
    return _fill(hands, rest, size)


def clubs_in_extras_deal(choices: Choices, players: int) -> DealCards:
    """Both 2♣ among the extras (at least 2 extras): no hand holds one (``LEAD.OPENING_LEADER``)."""
    rest = [c for c in full_deck() if c != TWO_OF_CLUBS]
    choices.shuffle(rest)
    size = hand_size(players)
    hands = [rest[k * size:(k + 1) * size] for k in range(players)]
    return _dealt(hands, [TWO_OF_CLUBS, TWO_OF_CLUBS, *rest[players * size:]])


def moon_hand(size: int) -> tuple[Card, ...]:
    """The hand of a shooter who can win every trick it leads: the top ``size`` clubs of two packs.

    Both copies of each club from the A♣ down (so nothing beats a lead, and
    a lead cancels only with a copy the shooter holds too), the last one
    single when ``size`` is odd.
    """
    return tuple(c for c in reversed(CARDS) if c.suit == Suit.C for _ in range(2))[:size]


def moon_deal(choices: Choices, players: int, dealer: int, deal_number: int,
              ruleset: Ruleset) -> tuple[DealCards, int, int | None] | None:
    """A deal in which the opening leader can take every trick: ``(deal, shooter, feeder)``.

    The shooter (left of the dealer) holds :func:`moon_hand`; the feeder, the
    seat that passes to the shooter, holds the lowest clubs, so that a pass
    of its lowest cards hands the shooter only clubs that nobody can beat
    once the others are out of clubs. The remaining clubs go to the extras
    first. ``None`` when the opening lead cannot be the shooter's (a 2♣
    opening with no room for both 2♣ among the extras).
    """
    n = players
    size = hand_size(n)
    room = extras_count(n)
    shooter = (dealer + 1) % n
    two_clubs = ruleset.opening_lead in (OpeningLead.TWO_OF_CLUBS, OpeningLead.TWO_OF_CLUBS_DEALT)
    if two_clubs and room < 2:
        return None
    offset = pass_offset(pass_direction(deal_number, ruleset), n)
    feeder = None if offset is None else (shooter - offset) % n
    clubs = list(moon_hand(26))
    hands: list[list[Card]] = [[] for _ in range(n)]
    extras: list[Card] = []
    hands[shooter] = clubs[:size]
    low = clubs[size:]
    if two_clubs:
        low = low[:-2]
        extras = list(clubs[-2:])
    if feeder is not None and feeder != shooter:
        take = low[-size:]
        hands[feeder] = list(take)
        low = low[:len(low) - len(take)]
    space = room - len(extras)
    extras.extend(low[:space])
    low = low[space:]
    avoid = {shooter, feeder}
    if feeder is not None and offset is not None:
        avoid.add((feeder - offset) % n)
    others = [s for s in range(n) if s not in avoid] or [s for s in range(n) if s != shooter]
    choices.shuffle(others)
    for i, c in enumerate(low):
        hands[others[i % len(others)]].append(c)
    rest = [c for c in full_deck() if c.suit != Suit.C]
    choices.shuffle(rest)
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    extras.extend(rest)
    return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras)), shooter, feeder
