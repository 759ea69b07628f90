"""Adversarial deals for the differential runner: deals that make the rare rules happen.

Identical hands for partners (whole tricks cancel), a suit held only in
matched pairs, a leader with only point cards, a leader forced to lead
hearts, and a seat that can take every trick (shooting the moon). Each is
built from a seed, so a game that uses one replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import DealCards
from ..cards import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, Suit, full_deck
from ..deal import extras_count, hand_size
from ..passing import pass_direction, pass_offset
from ..ruleset import (
    OpeningLead,
    Ruleset,
)


def _dealt(hands: Sequence[Sequence[Card]], extras: Sequence[Card]) -> DealCards:
    return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))


def _fill(hands: list[list[Card]], rest: list[Card], size: int) -> DealCards:
    """Fill every hand up to ``size`` from ``rest`` in order; what is left is the extras."""
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    return _dealt(hands, rest)


def mirror_deal(players: int, seed: int) -> DealCards:
    """Seats ``s`` and ``s + ⌊n/2⌋`` hold identical hands (an odd seat out holds the rest).

    With partners copying each other, whole tricks cancel (``TRICK.CANCEL``,
    ``VOID.TRICK``), the last one too (``VOID.LAST``).
    """
    size = hand_size(players)
    pairs = players // 2
    rng = random.Random(seed)
    distinct = list(CARDS)
    rng.shuffle(distinct)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(pairs):
        part = distinct[k * size:(k + 1) * size]
        hands[k] = list(part)
        hands[k + pairs] = list(part)
    rest = distinct[pairs * size:] * 2
    rng.shuffle(rest)
    if players % 2:
        hands[players - 1] = rest[:size]
        rest = rest[size:]
    return _dealt(hands, rest)


def cancelling_suit_deal(players: int, seed: int) -> DealCards:
    """One suit held only as matched pairs: partners hold the same cards of it, nobody else any."""
    size = hand_size(players)
    rng = random.Random(seed)
    suit = Suit(rng.randrange(4))
    count = rng.randint(-(-13 // size), players // 2)
    seats = list(range(players))
    rng.shuffle(seats)
    ranks = [c for c in CARDS if c.suit == suit]
    rng.shuffle(ranks)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(count):
        group = ranks[k::count]
        hands[seats[2 * k]] = list(group)
        hands[seats[2 * k + 1]] = list(group)
    rest = [c for c in full_deck() if c.suit != suit]
    rng.shuffle(rest)
    return _fill(hands, rest, size)


def penalty_leader_deal(players: int, leader: int, seed: int) -> DealCards:
    """``leader`` holds only hearts and Q♠, its neighbours most of the rest of them.

    So the opening lead may be any card (``LEAD.OPENING_CARD``), and a later
    lead while hearts are unbroken must be a Q♠ (``LEAD.HEARTS``).
    """
    size = hand_size(players)
    rng = random.Random(seed)
    penalty = [c for c in full_deck() if c.suit == Suit.H or c == QUEEN_OF_SPADES]
    others = [c for c in full_deck() if not (c.suit == Suit.H or c == QUEEN_OF_SPADES)]
    rng.shuffle(penalty)
    rng.shuffle(others)
    order = [leader, (leader - 1) % players, (leader + 1) % players]
    order += [s for s in range(players) if s not in order]
    pool = penalty + others
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k, seat in enumerate(order):
        hands[seat] = pool[k * size:(k + 1) * size]
    return _dealt(hands, pool[players * size:])


def forced_heart_deal(players: int, leader: int, seed: int, queen: bool = False) -> DealCards:
    """``leader`` holds the A♣ (both, or one with the other among the extras) and hearts.

    It wins its club leads and is then left with only hearts, maybe while
    hearts are unbroken (``LEAD.HEARTS``). With ``queen`` it also holds a
    Q♠, which it must lead before any heart while hearts are unbroken.
    """
    size = hand_size(players)
    rng = random.Random(seed)
    ace = CARDS[12]
    aces = 1 if extras_count(players) else 2
    hearts = [c for c in full_deck() if c.suit == Suit.H]
    rng.shuffle(hearts)
    queens = [QUEEN_OF_SPADES] if queen else []
    hand = [ace] * aces + queens + hearts[:size - aces - len(queens)]
    rest = [c for c in full_deck() if c.suit != Suit.H and c != ace and c not in queens]
    rest += queens + hearts[size - aces - len(queens):]
    rng.shuffle(rest)
    if aces == 1:
        rest.append(ace)  # dealt last: among the extras
    hands: list[list[Card]] = [[] for _ in range(players)]
    hands[leader] = hand
    seats = [s for s in range(players) if s != leader]
    for k, seat in enumerate(seats):
        hands[seat] = rest[k * size:(k + 1) * size]
    return _dealt(hands, rest[(players - 1) * size:])


def penalty_follower_deal(players: int, leader: int, seed: int) -> DealCards:
    """The seat after ``leader`` holds only hearts and Q♠; ``leader`` holds none of them.

    So it cannot follow the opening lead and may discard a heart or a Q♠
    even where the first trick forbids them (``FOLLOW.FIRST_TRICK``).
    """
    size = hand_size(players)
    rng = random.Random(seed)
    penalty = [c for c in full_deck() if c.suit == Suit.H or c == QUEEN_OF_SPADES]
    others = [c for c in full_deck() if not (c.suit == Suit.H or c == QUEEN_OF_SPADES)]
    rng.shuffle(penalty)
    rng.shuffle(others)
    follower = (leader + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    hands[follower] = penalty[:size]
    hands[leader] = others[:size]
    rest = penalty[size:] + others[size:]
    rng.shuffle(rest)
    return _fill(hands, rest, size)


def void_follower_deal(players: int, leader: int, seed: int) -> DealCards:
    """``leader`` holds only clubs; the seat after it no club, half of its hand hearts.

    So the follower cannot follow the opening club lead and holds hearts
    beside other cards: where the first trick forbids them, a heart is an
    illegal discard there (``FOLLOW.FIRST_TRICK``).
    """
    size = hand_size(players)
    rng = random.Random(seed)
    clubs = [c for c in full_deck() if c.suit == Suit.C]
    hearts = [c for c in full_deck() if c.suit == Suit.H]
    others = [c for c in full_deck() if c.suit in (Suit.D, Suit.S)]
    for pile in (clubs, hearts, others):
        rng.shuffle(pile)
    follower = (leader + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    hands[leader] = clubs[:size]
    half = size // 2
    hands[follower] = hearts[:half] + others[:size - half]
    rest = clubs[size:] + hearts[half:] + others[size - half:]
    rng.shuffle(rest)
    return _fill(hands, rest, size)


def clubs_in_extras_deal(players: int, seed: int) -> DealCards:
    """Both 2♣ among the extras (at least 2 extras): no hand holds one (``LEAD.OPENING_LEADER``)."""
    rng = random.Random(seed)
    two = TWO_OF_CLUBS
    rest = [c for c in full_deck() if c != two]
    rng.shuffle(rest)
    size = hand_size(players)
    hands = [rest[k * size:(k + 1) * size] for k in range(players)]
    return _dealt(hands, [two, two, *rest[players * size:]])


def moon_deal(players: int, dealer: int, deal_number: int, ruleset: Ruleset,
              seed: int) -> tuple[DealCards, int, int | None] | None:
    """A deal in which the opening leader can take every trick: ``(deal, shooter, feeder)``.

    The shooter (left of the dealer) holds the highest clubs, both copies of
    each; the feeder, the seat that passes to the shooter, holds the lowest
    clubs, so that a pass of its lowest cards hands the shooter only clubs
    that nobody can beat once the others are out of clubs. The remaining
    clubs go to the extras first. ``None`` when the opening lead cannot be
    the shooter's (a 2♣ opening with no room for both 2♣ among the extras).
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
    rng = random.Random(seed)
    clubs = [c for c in reversed(CARDS) if c.suit == Suit.C for _ in range(2)]
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
    rng.shuffle(others)
    for i, c in enumerate(low):
        hands[others[i % len(others)]].append(c)
    rest = [c for c in full_deck() if c.suit != Suit.C]
    rng.shuffle(rest)
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    extras.extend(rest)
    deal = DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))
    return deal, shooter, feeder
