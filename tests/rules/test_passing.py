"""Passing: PASS.CARDS, PASS.DIRECTION, PASS.EXCHANGE (default ruleset: 3 cards, left/right)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref import GameState, Pass, Phase, Play, Ruleset
from rules_ref.events import CardsPassed, DealStarted, Event, PassesExchanged
from rules_ref.passing import pass_target

from .helpers import assert_illegal, card, cards, fill_deal, snapshot

# Seat 0's pass target, deals 1-4, default ruleset: left, right, left, right.
TARGETS = {
    6: [1, 5, 1, 5],
    7: [1, 6, 1, 6],
    9: [1, 8, 1, 8],
    11: [1, 10, 1, 10],
}


def passing_state(players: int, next_deal: int = 1, ruleset: Ruleset | None = None,
                  **hands: str) -> GameState:
    """A game in the passing phase of deal ``next_deal``; hands given as ``s0="..."``."""
    given = {int(k[1:]): v for k, v in hands.items()}
    state = GameState.start(players, ruleset or Ruleset(), next_deal=next_deal)
    state, _ = state.apply(fill_deal(players, given))
    return state


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize("players", sorted(TARGETS))
def test_pass_targets_of_deals_1_to_4(players: int) -> None:
    got = [pass_target(0, k, players, Ruleset()) for k in (1, 2, 3, 4)]
    assert got == TARGETS[players]
    last = players - 1
    assert [pass_target(last, k, players, Ruleset()) for k in (1, 2, 3, 4)] == \
        [0, last - 1, 0, last - 1]


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize("players", sorted(TARGETS))
@pytest.mark.parametrize("deal", [1, 2, 3, 4])
def test_the_engine_passes_to_the_seat_of_the_deal_number(players: int, deal: int) -> None:
    state = GameState.start(players, next_deal=deal)
    state, events = state.apply(fill_deal(players))
    offset = 1 if deal % 2 else players - 1
    assert events == (DealStarted(deal, (deal - 1) % players, offset),)
    assert state.phase is Phase.PASSING
    state, events = state.apply(Pass(0, state.hands[0][:3]))
    assert events == (CardsPassed(0, TARGETS[players][deal - 1]),)


@pytest.mark.rule("PASS.EXCHANGE", "PASS.DIRECTION", "PASS.CARDS")
@pytest.mark.parametrize(("deal", "offset"), [(1, 1), (2, 5)])
def test_the_exchange_moves_every_pass_to_its_target(deal: int, offset: int) -> None:
    state = passing_state(6, next_deal=deal)
    original = state.hands
    passes = [h[-3:] for h in original]  # each seat passes its three highest cards
    events: list[Event] = []
    for seat in range(6):
        state, new = state.apply(Pass(seat, passes[seat]))
        events.extend(new)
    for seat in range(6):
        expected = Counter(original[seat]) - Counter(passes[seat]) + \
            Counter(passes[(seat - offset) % 6])
        assert Counter(state.hands[seat]) == expected
        assert len(state.hands[seat]) == 17
    assert isinstance(events[-1], PassesExchanged)
    assert state.phase is Phase.PLAYING
    assert state.hearts_broken is False  # passed cards never break hearts (HEARTS.BROKEN)


@pytest.mark.rule("PASS.EXCHANGE")
def test_cards_move_only_when_every_player_has_passed() -> None:
    state = passing_state(6)
    original = state.hands
    for seat in (3, 0, 5, 1, 4):  # any order
        state, events = state.apply(Pass(seat, original[seat][:3]))
        assert events == (CardsPassed(seat, (seat + 1) % 6),)
        assert state.hands == original
        assert state.phase is Phase.PASSING
    assert state.waiting_for == (2,)
    state, events = state.apply(Pass(2, original[2][:3]))
    assert state.hands != original
    assert state.phase is Phase.PLAYING


@pytest.mark.rule("PASS.EXCHANGE")
def test_the_order_of_passing_does_not_change_the_exchange() -> None:
    state = passing_state(7)
    a = b = state
    for seat in range(7):
        a, _ = a.apply(Pass(seat, state.hands[seat][:3]))
    for seat in (6, 2, 4, 0, 1, 5, 3):
        b, _ = b.apply(Pass(seat, state.hands[seat][:3]))
    assert a.hands == b.hands


@pytest.mark.rule("PASS.EXCHANGE")
@pytest.mark.parametrize("second", ["same cards", "other cards"])
def test_a_second_pass_by_the_same_seat_is_rejected(second: str) -> None:
    state = passing_state(6)
    state, _ = state.apply(Pass(2, state.hands[2][:3]))
    again = state.hands[2][:3] if second == "same cards" else state.hands[2][3:6]
    assert_illegal(state, Pass(2, again), "PASS.EXCHANGE")


@pytest.mark.rule("PASS.EXCHANGE", "TURN.ORDER")
def test_no_card_is_played_before_the_exchange() -> None:
    state = passing_state(6)
    assert_illegal(state, Play(1, state.hands[1][0]), "TURN.ORDER")


@pytest.mark.rule("PASS.CARDS")
@pytest.mark.parametrize("count", [0, 1, 2, 4])
def test_a_pass_is_exactly_three_cards(count: int) -> None:
    state = passing_state(6)
    err = assert_illegal(state, Pass(0, state.hands[0][:count]), "PASS.CARDS")
    assert f"a pass is 3 cards, not {count}" in str(err)


@pytest.mark.rule("PASS.CARDS")
def test_a_pass_must_come_from_the_own_hand() -> None:
    state = passing_state(6, s0="2C 3C 4C", s1="AS")
    assert card("AS") not in state.hands[0]
    err = assert_illegal(state, Pass(0, cards("2C 3C AS")), "PASS.CARDS")
    assert "AS is not in the hand" in str(err)


@pytest.mark.rule("PASS.CARDS")
def test_a_card_held_once_cannot_be_passed_twice() -> None:
    state = passing_state(6, s0="KD", s1="KD")
    assert state.hands[0].count(card("KD")) == 1
    assert_illegal(state, Pass(0, cards("KD KD 2C")), "PASS.CARDS")


@pytest.mark.rule("PASS.CARDS")
def test_both_copies_hearts_and_both_queens_may_be_passed() -> None:
    state = passing_state(6, s0="QS QS AH AH 5D 5D")
    state, _ = state.apply(Pass(0, cards("QS QS AH")))
    assert state.passes[0] == cards("AH QS QS")
    state = passing_state(6, s0="QS QS AH AH 5D 5D")
    state, _ = state.apply(Pass(0, cards("5D 5D AH")))
    assert state.passes[0] == cards("5D 5D AH")


@pytest.mark.rule("PASS.CARDS", "EXTRAS.FIRST_TRICK")
def test_the_extras_are_never_passed() -> None:
    deal = fill_deal(6, extras="AS AS")
    state, _ = GameState.start(6).apply(deal)
    assert card("AS") not in state.hands[0]
    assert_illegal(state, Pass(0, (*state.hands[0][:2], card("AS"))), "PASS.CARDS")


@pytest.mark.rule("PASS.CARDS", "PASS.EXCHANGE")
def test_a_rejected_pass_leaves_the_seat_free_to_pass() -> None:
    state = passing_state(6)
    before = snapshot(state)
    assert_illegal(state, Pass(4, state.hands[4][:2]), "PASS.CARDS")
    assert snapshot(state) == before
    assert 4 in state.waiting_for
    state, _ = state.apply(Pass(4, state.hands[4][:3]))
    assert 4 not in state.waiting_for
