"""The strategies themselves: valid deals, every switch value and preset, clear errors."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import fields
from enum import Enum

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules_ref import strategies as S
from rules_ref.actions import DealCards
from rules_ref.cards import Suit, card, full_deck
from rules_ref.deal import check_deal, extras_count, hand_size
from rules_ref.errors import InputError
from rules_ref.ruleset import (
    Moon,
    OpeningLead,
    PassDirection,
    PassForbidden,
    Ruleset,
    presets,
)
from rules_ref.state import GameState
from rules_ref.strategies import crafted
from rules_ref.strategies.deals import Drawn
from rules_ref.strategies.setups import fits_every_count

from . import examples

DEAL_STRATEGIES: dict[str, Callable[[int, int], st.SearchStrategy[DealCards]]] = {
    "explicit": lambda n, leader: S.explicit_deals(n),
    "mirrored": lambda n, leader: S.mirrored_deals(n),
    "void first trick": lambda n, leader: S.void_first_trick_deals(n),
    "void last trick": lambda n, leader: S.void_last_trick_deals(n),
    "cancelling suit": lambda n, leader: S.cancelling_suit_deals(n),
    "penalty leader": S.penalty_leader_deals,
    "opening lead": S.opening_lead_deals,
    "forced heart": S.forced_heart_deals,
    "moon": S.moon_deals,
    "any": S.any_deals,
}


@st.composite
def deals_of_every_kind(draw: st.DrawFn) -> tuple[str, int, int, DealCards]:
    kind = draw(st.sampled_from(sorted(DEAL_STRATEGIES)))
    players = draw(S.player_counts().filter(
        lambda n: kind != "void first trick" or extras_count(n) > 0))
    leader = draw(st.integers(0, players - 1))
    return kind, players, leader, draw(DEAL_STRATEGIES[kind](players, leader))


@pytest.mark.rule("DEAL.SOURCE", "DEAL.SIZE", "DECK.CARDS")
@settings(max_examples=examples(0.5))
@given(deal=deals_of_every_kind())
def test_every_deal_strategy_makes_up_the_deck(deal: tuple[str, int, int, DealCards]) -> None:
    kind, players, leader, cards = deal
    assert len(cards.hands) == players
    assert all(len(h) == hand_size(players) for h in cards.hands)
    assert len(cards.extras) == extras_count(players)
    every = Counter(c for h in cards.hands for c in h) + Counter(cards.extras)
    assert every == Counter(full_deck())
    check_deal(cards.hands, cards.extras, players)
    hand = cards.hands[leader]
    if kind == "penalty leader":
        assert all(c.suit == Suit.H or (c.rank, c.suit) == (12, Suit.S) for c in hand)
    elif kind == "opening lead":
        singled_out = [c for c in hand if c.suit == Suit.H or (c.rank, c.suit) in (
            (12, Suit.S), (10, Suit.D), (2, Suit.C))]
        assert len(hand) - len(singled_out) <= 2
    elif kind == "forced heart":
        assert {c for c in hand if c.suit != Suit.H} == {S.ACE_OF_CLUBS}
    elif kind == "moon":
        assert all(c.suit == Suit.C for c in hand)
        assert all(hand.count(c) == 2 for c in hand if c.rank > hand[0].rank)
    elif kind in ("void last trick", "void first trick"):
        hands = cards.hands
        paired = [s for s in range(players)
                  if any(t != s and hands[t] == hands[s] for t in range(players))]
        assert len(paired) >= 2 * (players // 2)
        if players % 2:
            (lone,) = set(range(players)) - set(paired)
            assert len({c.suit for c in hands[lone]}) == 1


@pytest.mark.rule("DEAL.SIZE")
@pytest.mark.parametrize("players", [6, 8])
@settings(max_examples=examples(0.05))
@given(data=st.data())
def test_forced_heart_deals_give_the_leader_both_aces_of_clubs_or_one_and_the_extras_the_other(
        players: int, data: st.DataObject) -> None:
    # 8 players have no extras: the leader holds both A♣; 6 players have two, and the
    # second A♣ is among them
    cards = data.draw(S.forced_heart_deals(players, 1))
    aces = 2 if extras_count(players) == 0 else 1
    assert cards.hands[1].count(S.ACE_OF_CLUBS) == aces
    assert cards.extras.count(S.ACE_OF_CLUBS) == 2 - aces


@settings(max_examples=examples(0.05))
@given(pair=S.deals_with_policies(7, 0))
def test_deals_with_policies_draw_a_kind_and_a_policy_that_suits_it(
        pair: tuple[DealCards, S.Policy]) -> None:
    cards, policy = pair
    assert Counter(c for h in cards.hands for c in h) + Counter(cards.extras) == Counter(
        full_deck())
    assert policy.style in {s for styles in S.DEAL_KINDS.values() for s in styles}


def _switch_values() -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    for f in fields(Ruleset):
        default = getattr(Ruleset(), f.name)
        if isinstance(default, Enum):
            out += [(f.name, v) for v in type(default)]
    out += [("pass_cycle", (d,)) for d in PassDirection]
    out += [("pass_count", k) for k in range(1, 10)]
    out += [("ten_of_diamonds_points", -10), ("target", 100), ("target", 1)]
    return out


def test_every_switch_has_values_to_draw() -> None:
    for f in fields(Ruleset):
        S.switch_values(f.name)  # raises InputError for a switch the strategies do not know


@pytest.mark.untraced  # coverage stopped: see [tool.coverage.run] in pyproject.toml
def test_rulesets_draw_every_preset_and_switch_value() -> None:
    seen: set[Ruleset] = set()
    wanted = _switch_values()

    @settings(max_examples=300, derandomize=True, database=None)
    @given(rs=S.rulesets())
    def collect(rs: Ruleset) -> None:
        seen.add(rs)

    collect()
    assert [name for name, rs in presets().items() if rs not in seen] == []
    assert [(name, value) for name, value in wanted
            if not any(getattr(rs, name) == value for rs in seen)] == []


@pytest.mark.rule("PASS.CARDS")
def test_a_ruleset_is_drawn_only_if_every_player_count_it_plays_can_be_seated() -> None:
    # 11 players hold 9 cards: with both 2♣ among them, 7 are left to pass
    assert fits_every_count(Ruleset(pass_count=7, pass_forbidden=PassForbidden.TWO_OF_CLUBS))
    assert not fits_every_count(Ruleset(pass_count=8,
                                        pass_forbidden=PassForbidden.TWO_OF_CLUBS))
    assert fits_every_count(Ruleset(pass_count=9))


@settings(max_examples=examples(0.25))
@given(rs=S.rulesets({"moon": ["others-52"], "pass_count": "any"}))
def test_rulesets_stay_inside_declared_support(rs: Ruleset) -> None:
    default = Ruleset()
    assert rs.moon in (Moon.CHOICE_26, Moon.OTHERS_52)
    for f in fields(Ruleset):
        if f.name not in ("moon", "pass_count"):
            assert getattr(rs, f.name) == getattr(default, f.name)


@settings(max_examples=examples(0.25))
@given(position=S.deal_positions())
def test_deal_positions_are_ready_to_deal(position: S.DealPosition) -> None:
    state = position.state
    assert state.phase.value == "dealing"
    assert position.kind in S.DEAL_KINDS
    assert position.policy.style in S.DEAL_KINDS[position.kind]
    after, _ = state.apply(position.deal)
    assert after.deal_number == state.deal_number + 1


def test_bad_strategy_arguments_are_clear_errors() -> None:
    with pytest.raises(InputError, match="unknown switch 'colour'"):
        S.switch_values("colour")
    with pytest.raises(InputError, match="switch moon: expected"):
        S.switch_values("moon", 3)
    with pytest.raises(InputError, match="unknown policy style 'greedy'"):
        S.Policy("greedy")
    with pytest.raises(InputError, match="8 players have no extras"):
        S.void_first_trick_deals(8)
    with pytest.raises(InputError, match=r"no deal is in progress \(phase dealing\)"):
        S.play_out(GameState.start(6), S.Policy())
    with pytest.raises(InputError, match="unknown deal kind 'easy'"):
        S.deals_with_policies(6, 1, "easy")


#: The builders the search plays that no strategy wraps, and the seat each singles out.
_SEARCH_ONLY = ("penalty follower", "void follower", "clubs in extras", "moon")


@st.composite
def search_deals(draw: st.DrawFn) -> tuple[str, int, int, Ruleset, DealCards]:
    """A deal of a builder only the search plays, its choices from a draw or a seeded generator."""
    kind = draw(st.sampled_from(_SEARCH_ONLY))
    players = draw(S.player_counts().filter(
        lambda n: kind != "clubs in extras" or extras_count(n) >= 2))
    leader = draw(st.integers(0, players - 1))
    rs = draw(S.rulesets())
    choices: crafted.Choices = (Drawn(draw) if draw(st.booleans())
                                else random.Random(draw(st.integers(0, 2**32 - 1))))
    if kind == "penalty follower":
        return kind, players, leader, rs, crafted.penalty_follower_deal(choices, players, leader)
    if kind == "void follower":
        return kind, players, leader, rs, crafted.void_follower_deal(choices, players, leader)
    if kind == "clubs in extras":
        return kind, players, leader, rs, crafted.clubs_in_extras_deal(choices, players)
    made = crafted.moon_deal(choices, players, (leader - 1) % players, 1, rs)
    assume(made is not None)
    assert made is not None
    return kind, players, leader, rs, made[0]


@pytest.mark.rule("DEAL.SOURCE", "DEAL.SIZE", "DECK.CARDS")
@settings(max_examples=examples(0.25))
@given(deal=search_deals())
def test_the_search_s_deals_make_up_the_deck_from_either_source_of_choices(
        deal: tuple[str, int, int, Ruleset, DealCards]) -> None:
    kind, players, leader, rs, cards = deal
    every = Counter(c for h in cards.hands for c in h) + Counter(cards.extras)
    assert every == Counter(full_deck())
    check_deal(cards.hands, cards.extras, players)
    follower = cards.hands[(leader + 1) % players]
    if kind == "penalty follower":
        assert all(c.suit == Suit.H or (c.rank, c.suit) == (12, Suit.S) for c in follower)
    elif kind == "void follower":
        assert all(c.suit == Suit.C for c in cards.hands[leader])
        assert not any(c.suit == Suit.C for c in follower)
    elif kind == "clubs in extras":
        assert cards.extras.count(card(2, Suit.C)) == 2
    else:
        assert cards.hands[leader] == tuple(sorted(crafted.moon_hand(hand_size(players))))
        if rs.opening_lead in (OpeningLead.TWO_OF_CLUBS, OpeningLead.TWO_OF_CLUBS_DEALT):
            # no 2♣ in a hand, so the seat left of the dealer, the shooter, leads
            assert cards.extras.count(card(2, Suit.C)) == 2
