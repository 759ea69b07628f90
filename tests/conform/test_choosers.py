"""How a conformance game draws its plays: the candidates' order and the chooser's draws.

A seed plays the same games whatever the chooser's code: these tests pin
the order the candidates of a play are offered in
(:func:`rules_ref.conform.conversation._eventful_first`) and the draws of
:class:`~rules_ref.conform.choosers.Chooser` for a first candidate
preferred, which must be those of the general weighted pick.
"""

from __future__ import annotations

import random

import pytest

from rules_ref.cards import CARDS, QUEEN_OF_SPADES, Suit, parse_cards
from rules_ref.conform.choosers import Chooser, _below
from rules_ref.conform.conversation import _eventful_first


def _order(legal: str, trick: str) -> str:
    return " ".join(str(c) for c in _eventful_first(parse_cards(legal), parse_cards(trick)))


def test_a_card_that_cancels_comes_first_then_points_highest_first_then_the_rest() -> None:
    assert _order("4H 9H QH 8S QS", "9H 2H") == "9H QS QH 4H 8S"  # canonical order: QS high
    assert _order("3D 7D JD", "7D 5D") == "7D 3D JD"  # a copy, and no point card


def test_without_a_copy_or_a_point_card_the_legal_plays_keep_their_order() -> None:
    assert _order("2C 5C KC", "9C") == "2C 5C KC"
    assert _order("2C 5C KC", "") == "2C 5C KC"
    assert _order("2C 3H QS", "") == "QS 3H 2C"  # a lead: no copy to look for


def test_the_order_is_the_one_stated_for_any_legal_plays_and_trick() -> None:
    # copies first (canonical order), then the Q♠ and the hearts from the highest in
    # canonical order, then the rest in canonical order: a sort by that key, over legal
    # plays of every suit mix, with and without the Q♠, hearts and a copy in the trick
    points = {c for c in CARDS if c.suit == Suit.H or c == QUEEN_OF_SPADES}
    draw = random.Random(31)
    met = set()
    for _ in range(3000):
        legal = tuple(sorted(draw.sample(CARDS, draw.randint(1, 13))))
        trick = tuple(draw.sample(CARDS, draw.randint(0, 10)))
        expected = sorted(legal, key=lambda c: (0, c) if c in trick else (1, -c)
                          if c in points else (2, c))
        assert list(_eventful_first(legal, trick)) == expected
        met.add((bool(set(trick) & set(legal)), QUEEN_OF_SPADES in legal,
                 any(c.suit == Suit.H for c in legal)))
    assert len(met) == 8  # every branch: a copy or not, the Q♠ or not, hearts or not


def test_the_chooser_draws_what_it_always_drew_for_a_seed() -> None:
    """The draws of seed 2026, as the chooser has made them (a seed's games depend on them)."""
    ch = Chooser(2026)
    sizes = [1, 2, 5, 13, 3, 8, 2, 6, 4, 11, 2, 7]
    assert [ch.below(n) for n in sizes] == [0, 0, 2, 8, 2, 1, 0, 4, 3, 9, 1, 6]
    assert [ch.below(n, 0.6) for n in sizes] == [0, 1, 0, 2, 0, 0, 0, 4, 1, 0, 0, 3]
    assert [ch.below(n, 0.9) for n in sizes] == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    # weights of candidates; of no candidate (9, -1) or none (0.0), which are left out;
    # and of every candidate, short of 1, where a draw past them takes the first
    assert [ch.pick(4, {0: 0.5, 3: 0.25}) for _ in range(8)] == [0, 0, 0, 2, 2, 3, 2, 0]
    assert [ch.pick(4, {2: 0.5, 0: 0.0, 9: 0.3, -1: 0.2}) for _ in range(8)] == [
        1, 1, 0, 0, 3, 3, 2, 1]
    assert [ch.pick(2, {0: 0.3, 1: 0.3}) for _ in range(20)] == [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    assert [ch.flag(0.3) for _ in range(12)] == [
        False, True, True, False, False, False, False, True, True, True, False, True]


@pytest.mark.parametrize("prefer", [0.3, 0.9, 0.99, 0.998, 1.0])
def test_a_preferred_first_candidate_draws_as_the_weighted_pick_does(prefer: float) -> None:
    sizes = random.Random(7).choices(range(1, 14), k=400)
    fast, general = Chooser(11), Chooser(11)
    drawn = [fast.below(n, prefer) for n in sizes]
    assert drawn == [general.pick(n, {0: prefer}) if n > 1 else 0 for n in sizes]
    assert 0 in drawn and (any(d > 0 for d in drawn) or prefer == 1.0)  # both paths taken
    assert fast._rng.getstate() == general._rng.getstate()


def test_a_draw_below_n_is_randranges_own() -> None:
    sizes = random.Random(3).choices([*range(1, 70), 1 << 32, (1 << 32) + 5], k=600)
    mine, theirs = random.Random(5), random.Random(5)
    assert [_below(mine, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert mine.getstate() == theirs.getstate()
