"""Hypothesis strategies for deals and tricks: uniform deals and adversarial ones.

:func:`explicit_deals` draws uniform random deals; the adversarial deals
make the rare situations of the rules common (identical hands, void tricks,
a suit held only in matched pairs, a leader with only point cards, a
leader left with only hearts, a seat able to take every card), and
:func:`any_deals` mixes them all. :func:`trick_cards` draws complete
tricks rich in identical cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import strategies as st

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
)
from ..deal import extras_count, hand_size
from ..errors import InputError

ACE_OF_CLUBS = card(14, Suit.C)


def is_penalty_card(c: Card) -> bool:
    """A heart or the Q♠."""
    return c.suit == Suit.H or c == QUEEN_OF_SPADES



def _deal_cards(hands: Sequence[Sequence[Card]], extras: Sequence[Card]) -> DealCards:
    return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))


def _split(cards: Sequence[Card], players: int) -> DealCards:
    size = hand_size(players)
    return _deal_cards([cards[i * size:(i + 1) * size] for i in range(players)],
                       cards[players * size:])


def explicit_deals(players: int) -> st.SearchStrategy[DealCards]:
    """Uniformly random deals: the deck shuffled, then cut into hands and extras."""
    return st.permutations(full_deck()).map(lambda deck: _split(deck, players))


@st.composite
def _perturbed(draw: st.DrawFn, deal: DealCards, max_swaps: int) -> DealCards:
    """``deal`` with up to ``max_swaps`` cards exchanged between two hands."""
    hands = [list(h) for h in deal.hands]
    n = len(hands)
    for _ in range(draw(st.integers(0, max_swaps))):
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(0, n - 2))
        b = b + 1 if b >= a else b
        i = draw(st.integers(0, len(hands[a]) - 1))
        j = draw(st.integers(0, len(hands[b]) - 1))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return _deal_cards(hands, deal.extras)


@st.composite
def mirrored_exact_deals(draw: st.DrawFn, players: int) -> DealCards:
    size = hand_size(players)
    pairs = players // 2
    lone_suit = draw(st.sampled_from(Suit))
    head = draw(st.permutations([c for c in CARDS if c.suit != lone_suit]))
    tail = draw(st.permutations([c for c in CARDS if c.suit == lone_suit]))
    distinct = list(head) + list(tail)
    shift = draw(st.integers(0, players - 1))
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(pairs):
        part = distinct[k * size:(k + 1) * size]
        hands[(k + shift) % players] = list(part)
        hands[(k + pairs + shift) % players] = list(part)
    left = distinct[pairs * size:]
    rest = draw(st.permutations(left + left))
    if players % 2:
        hands[(2 * pairs + shift) % players] = list(rest[:size])
        rest = rest[size:]
    return _deal_cards(hands, rest)


def mirrored_deals(players: int, max_swaps: int = 3) -> st.SearchStrategy[DealCards]:
    """Seats in pairs (seat s and s + ⌊n/2⌋, rotated) holding identical hands.

    Every card a paired seat holds has its twin in the partner's hand, so a
    policy that copies its partner cancels whole tricks (``TRICK.CANCEL``,
    ``VOID.TRICK``). The pairs sit across the table, so passes left, right or
    across keep the hands identical when partners pass alike. With an odd
    count, the unpaired seat holds only cards of one suit (both copies of
    the leftover cards; the rest are the extras), so a lead in another suit
    can still be void. Up to ``max_swaps`` exchanges between hands break
    the symmetry a little (partial cancellation).
    """
    return mirrored_exact_deals(players).flatmap(lambda d: _perturbed(d, max_swaps))


def void_first_trick_deals(players: int) -> st.SearchStrategy[DealCards]:
    """Mirrored deals with extras (6, 7, 9, 10, 11 players), for a void trick 1 with extras.

    The unpaired seat of an odd count holds a single suit, so a lead in any
    other suit that the pairs cancel is void and the extras join the
    pending pile (``EXTRAS.FIRST_TRICK``).
    """
    if extras_count(players) == 0:
        raise InputError(f"{players} players have no extras")
    return mirrored_exact_deals(players)


def void_last_trick_deals(players: int) -> st.SearchStrategy[DealCards]:
    """Exactly mirrored deals: with partners copying each other, the last trick is void too."""
    return mirrored_exact_deals(players)


@st.composite
def cancelling_suit_deals(draw: st.DrawFn, players: int) -> DealCards:
    """One suit held only as matched pairs: for each of its cards, two seats hold one copy each.

    Those seats are paired, and the partners hold the same cards of that
    suit and no other seat holds any of it, so a lead of that suit can
    cancel out entirely (``VOID.TRICK``) when every partner plays the twin.
    """
    size = hand_size(players)
    suit = draw(st.sampled_from(Suit))
    least = -(-13 // size)
    count = draw(st.integers(least, players // 2))
    seats = draw(st.permutations(range(players)))
    ranks = draw(st.permutations([c for c in CARDS if c.suit == suit]))
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(count):
        group = list(ranks[k::count])
        hands[seats[2 * k]] = list(group)
        hands[seats[2 * k + 1]] = list(group)
    rest = list(draw(st.permutations([c for c in full_deck() if c.suit != suit])))
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    return _deal_cards(hands, rest)


def _by_seats(order: Sequence[int], pool: Sequence[Card], players: int) -> DealCards:
    size = hand_size(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k, seat in enumerate(order):
        hands[seat] = list(pool[k * size:(k + 1) * size])
    return _deal_cards(hands, pool[players * size:])


@st.composite
def penalty_leader_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds only hearts and Q♠; its neighbours hold most of the rest of them.

    So the opening lead may be any card (``LEAD.OPENING_CARD``), and a pass
    from a neighbour that gets rid of its point cards keeps it so.
    """
    penalty = draw(st.permutations([c for c in full_deck() if is_penalty_card(c)]))
    others = draw(st.permutations([c for c in full_deck() if not is_penalty_card(c)]))
    rest = draw(st.permutations([s for s in range(players)
                                 if s not in (leader, (leader - 1) % players,
                                              (leader + 1) % players)]))
    order = [leader, (leader - 1) % players, (leader + 1) % players, *rest]
    return _by_seats(order, list(penalty) + list(others), players)


@st.composite
def opening_lead_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds mostly the cards the opening-lead rules single out, and up to two others.

    Those are the hearts, the Q♠, the 10♦ (a scoring card when it counts)
    and the 2♣ (``LEAD.OPENING_CARD`` and the switch ``opening_lead``), so
    that every exception of every opening rule comes up.
    """
    size = hand_size(players)
    special = [c for c in full_deck() if is_penalty_card(c) or c in (TEN_OF_DIAMONDS, TWO_OF_CLUBS)]
    plain = [c for c in full_deck() if c not in special]
    others = draw(st.integers(0, 2))
    first = list(draw(st.permutations(special)))
    second = list(draw(st.permutations(plain)))
    hand = first[:size - others] + second[:others]
    rest = list(draw(st.permutations(first[size - others:] + second[others:])))
    seats = draw(st.permutations([s for s in range(players) if s != leader]))
    return _by_seats([leader, *seats], hand + rest, players)


@st.composite
def forced_heart_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds the A♣ and otherwise only hearts.

    Both A♣ are the leader's, or one is among the extras, so the leader
    wins its club leads and is then left with only hearts while hearts may
    still be unbroken (``LEAD.HEARTS``).
    """
    size = hand_size(players)
    extras = extras_count(players)
    aces = 1 if extras else 2
    hearts = draw(st.permutations([c for c in full_deck() if c.suit == Suit.H]))
    hand = [ACE_OF_CLUBS] * aces + list(hearts[:size - aces])
    pool = Counter(full_deck())
    pool.subtract(hand)
    rest = list(draw(st.permutations(sorted(pool.elements()))))
    if aces == 1:
        rest.remove(ACE_OF_CLUBS)
        rest.append(ACE_OF_CLUBS)  # dealt last: into the extras
    seats = draw(st.permutations([s for s in range(players) if s != leader]))
    return _by_seats([leader, *seats], hand + rest, players)


@st.composite
def moon_deals(draw: st.DrawFn, players: int, shooter: int) -> DealCards:
    """``shooter`` holds both copies of the top clubs, so it can win every trick it leads.

    When it makes the opening lead and nothing is passed, it collects every
    card of the deal, all 26 hearts and both Q♠ included (``MOON.CONDITION``);
    every other card is dealt at random. With an odd hand, the last club is
    a single copy whose twin is among the extras when the deal has extras.
    """
    size = hand_size(players)
    clubs = [c for c in reversed(CARDS) if c.suit == Suit.C]  # A♣ first
    hand = [c for c in clubs[:size // 2] for _ in range(2)]
    single = clubs[size // 2] if size % 2 else None
    if single is not None:
        hand.append(single)
    pool = Counter(full_deck())
    pool.subtract(hand)
    rest = list(draw(st.permutations(sorted(pool.elements()))))
    if single is not None and extras_count(players):
        rest.remove(single)
        rest.append(single)
    seats = draw(st.permutations([s for s in range(players) if s != shooter]))
    return _by_seats([shooter, *seats], hand + rest, players)


def any_deals(players: int, leader: int) -> st.SearchStrategy[DealCards]:
    """A deal of any kind above; ``leader`` is the seat expected to make the opening lead."""
    return st.one_of(
        explicit_deals(players),
        mirrored_deals(players),
        mirrored_exact_deals(players),
        cancelling_suit_deals(players),
        penalty_leader_deals(players, leader),
        opening_lead_deals(players, leader),
        forced_heart_deals(players, leader),
        moon_deals(players, leader),
    )


# --- tricks --------------------------------------------------------------------------------


@st.composite
def trick_cards(draw: st.DrawFn, players: int) -> tuple[Card, ...]:
    """A complete trick of ``players`` cards: no card more than twice, many twice.

    Cards come from a small pool so that identical cards (``TRICK.CANCEL``)
    and a cancelled led suit (``VOID.TRICK``) are common.
    """
    distinct = draw(st.integers(max(1, (players + 1) // 2), players))
    pool = draw(st.lists(st.sampled_from(CARDS), min_size=distinct, max_size=distinct,
                         unique=True))
    doubled = draw(st.permutations(pool + pool))
    return tuple(doubled[:players])
