"""Hypothesis strategies for deals and tricks: uniform deals and adversarial ones.

:func:`explicit_deals` draws uniform random deals; the adversarial deals
make the rare situations of the rules common (identical hands, void tricks,
a suit held only in matched pairs, a leader with only point cards, a
leader left with only hearts, a seat able to take every card), and
:func:`any_deals` mixes them all. They are the builders of :mod:`.crafted`
(the search's own) with their choices drawn by Hypothesis (:class:`Drawn`).
:func:`trick_cards` draws complete tricks rich in identical cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from ..actions import DealCards
from ..cards import CARDS, Card, full_deck
from ..deal import extras_count, hand_size
from ..errors import InputError
from ..ruleset import PassDirection, Ruleset
from . import crafted

#: The rules a deal of :func:`moon_deals` is built for: nothing passed, left of the dealer leads.
_UNPASSED = Ruleset(pass_cycle=(PassDirection.HOLD,))


class Drawn:
    """The choices of a Hypothesis draw, for the builders of :mod:`.crafted` (a ``Choices``).

    A number shrinks toward 0 and an order toward the one given.
    """

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def randrange(self, stop: int, /) -> int:
        return self.draw(st.integers(0, stop - 1))

    def shuffle(self, x: list[Any], /) -> None:
        x[:] = self.draw(st.permutations(x))


def _split(cards: Sequence[Card], players: int) -> DealCards:
    size = hand_size(players)
    return DealCards(tuple(tuple(sorted(cards[i * size:(i + 1) * size])) for i in range(players)),
                     tuple(cards[players * size:]))


def explicit_deals(players: int) -> st.SearchStrategy[DealCards]:
    """Uniformly random deals: the deck shuffled, then cut into hands and extras."""
    return st.permutations(full_deck()).map(lambda deck: _split(deck, players))


@st.composite
def mirrored_exact_deals(draw: st.DrawFn, players: int) -> DealCards:
    """Exact mirror deals (:func:`.crafted.mirror_deal`, a lone suit, the pairs turned)."""
    return crafted.mirror_deal(Drawn(draw), players, lone_suit=True, turned=True)


@st.composite
def mirrored_deals(draw: st.DrawFn, players: int, max_swaps: int = 3) -> DealCards:
    """Seats in pairs (seat s and s + ⌊n/2⌋, turned) holding identical hands.

    Every card a paired seat holds has its twin in the partner's hand, so a
    policy that copies its partner cancels whole tricks (``TRICK.CANCEL``,
    ``VOID.TRICK``). With an odd count, the unpaired seat holds only cards
    of one suit, so a lead in another suit can still be void
    (:func:`.crafted.mirror_deal`). Up to ``max_swaps`` exchanges between
    hands break the symmetry a little (:func:`.crafted.swapped`).
    """
    choices = Drawn(draw)
    deal = crafted.mirror_deal(choices, players, lone_suit=True, turned=True)
    return crafted.swapped(choices, deal, max_swaps)


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
    """One suit held only as matched pairs (:func:`.crafted.cancelling_suit_deal`)."""
    return crafted.cancelling_suit_deal(Drawn(draw), players)


@st.composite
def penalty_leader_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds only hearts and Q♠ (:func:`.crafted.penalty_leader_deal`)."""
    return crafted.penalty_leader_deal(Drawn(draw), players, leader)


@st.composite
def opening_lead_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds mostly the cards the opening rules single out.

    See :func:`.crafted.opening_lead_deal`.
    """
    return crafted.opening_lead_deal(Drawn(draw), players, leader)


@st.composite
def forced_heart_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds the A♣ and otherwise only hearts (:func:`.crafted.forced_heart_deal`)."""
    return crafted.forced_heart_deal(Drawn(draw), players, leader)


@st.composite
def moon_deals(draw: st.DrawFn, players: int, shooter: int) -> DealCards:
    """``shooter`` holds both copies of the top clubs, so it can win every trick it leads.

    When it makes the opening lead and nothing is passed, it collects every
    card of the deal, all 26 hearts and both Q♠ included (``MOON.CONDITION``):
    :func:`.crafted.moon_deal` with the seat on its right dealing.
    """
    made = crafted.moon_deal(Drawn(draw), players, (shooter - 1) % players, 1, _UNPASSED)
    assert made is not None  # the seat left of the dealer leads: nothing stops the shooter
    return made[0]


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
