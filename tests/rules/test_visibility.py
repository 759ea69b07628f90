"""What a seat may see: VIEW.SEAT.

A view hides something exactly when two states that differ only in it give
the seat equal views.
"""

from __future__ import annotations

import pytest

from rules_ref import GameState, Pass, Phase, Ruleset, seat_view
from rules_ref.ruleset import LastTrickVoid

from .helpers import (
    NO_PASS,
    VOID_END,
    cards,
    dealt,
    eight_player_deal,
    fill_deal,
    no_pass,
    play,
    run_script,
    scripted_deal,
)

VOID_TRICK_1 = {1: "5C", 2: "5C", 3: "9C", 4: "9C", 5: "3C", 0: "3C"}


@pytest.mark.rule("VIEW.SEAT")
def test_a_seat_sees_its_own_hand_and_no_other() -> None:
    a = dealt(6, {1: "2C AS", 2: "KD"})
    b = dealt(6, {1: "2C KD", 2: "AS"})
    assert a.hands[1] != b.hands[1] and a.hands[2] != b.hands[2]
    assert a.hands[0] == b.hands[0]
    view = seat_view(a, 0)
    assert view.hand == a.hands[0]
    assert view.hand_sizes == (17,) * 6
    assert view == seat_view(b, 0)
    assert seat_view(a, 1) != seat_view(b, 1)
    a, _ = play(a, "2C")
    b, _ = play(b, "2C")
    assert seat_view(a, 0) == seat_view(b, 0)
    assert seat_view(a, 0).current_trick == cards("2C")
    assert seat_view(a, 0).hand_sizes == (17, 16, 17, 17, 17, 17)


@pytest.mark.rule("VIEW.SEAT", "PASS.EXCHANGE")
def test_a_seat_sees_its_own_pass_and_not_the_others() -> None:
    state = GameState.start(6, Ruleset())
    state, _ = state.apply(fill_deal(6))
    hand = state.hands[1]
    a, _ = state.apply(Pass(1, hand[:3]))
    b, _ = state.apply(Pass(1, hand[3:6]))
    assert seat_view(a, 0) == seat_view(b, 0)
    assert seat_view(a, 2) == seat_view(b, 2)  # the receiving seat sees nothing before
    view = seat_view(a, 1)
    assert (view.passed, view.passed_to) == (hand[:3], 2)
    assert view.hand == hand  # the cards move only at the exchange
    assert seat_view(a, 0).passed is None


@pytest.mark.rule("VIEW.SEAT", "EXTRAS.FIRST_TRICK")
def test_the_extras_stay_face_down_in_play_and_in_the_pending_pile() -> None:
    a = dealt(6, {**VOID_TRICK_1, 3: "9C AS KD 2D"}, extras="2H 3H")
    b = dealt(6, {**VOID_TRICK_1, 3: "9C 2H 3H 2D"}, extras="AS KD")
    assert seat_view(a, 0) == seat_view(b, 0)
    assert seat_view(a, 0).extras is None
    assert seat_view(a, 0).extras_count == 2
    a, _ = play(a, "5C 5C 9C 9C 3C 3C")
    b, _ = play(b, "5C 5C 9C 9C 3C 3C")
    view = seat_view(a, 0)
    assert view == seat_view(b, 0)
    assert view.pending_hidden == 2
    assert view.pending_cards_seen == cards("5C 5C 9C 9C 3C 3C")
    assert view.tricks[0].winner is None
    assert view.extras is None


@pytest.mark.rule("VIEW.SEAT", "EXTRAS.FIRST_TRICK")
def test_collected_extras_stay_face_down_until_the_deal_is_scored() -> None:
    script = scripted_deal(6, 1, tail=[(1, "2D AD 5H 3D 4D 6D")], extras="2C 3C")
    state, _ = run_script(script)
    assert state.phase is Phase.DEALING
    assert seat_view(state, 0).extras == cards("2C 3C")
    assert seat_view(state, 4).extras == cards("2C 3C")
    assert state.extras_taken_by == 1


@pytest.mark.rule("VIEW.SEAT")
def test_a_seat_sees_every_card_played_and_who_took_each_trick() -> None:
    state = dealt(6, {1: "2C", 2: "3C", 3: "AC", 4: "4C", 5: "5C", 0: "6C"})
    state, _ = play(state, "2C 3C AC 4C 5C 6C")
    for seat in range(6):
        view = seat_view(state, seat)
        assert [(t.number, t.leader, t.cards, t.winner) for t in view.tricks] == \
            [(1, 1, cards("2C 3C AC 4C 5C 6C"), 3)]
        assert view.totals == (0,) * 6
        assert view.to_act == 3


@pytest.mark.rule("VIEW.SEAT", "VOID.COLLECT")
def test_a_seat_sees_who_collected_a_void_trick_once_a_later_winner_takes_it() -> None:
    state = dealt(6, {1: "5C 2D", 2: "5C 3D", 3: "9C AD", 4: "9C 4D", 5: "3C 5D", 0: "3C 6D"})
    state, _ = play(state, "5C 5C 9C 9C 3C 3C")
    assert [(t.number, t.winner, t.collected_by) for t in seat_view(state, 0).tricks] == \
        [(1, None, None)]
    state, _ = play(state, "2D 3D AD 4D 5D 6D")
    for seat in range(6):
        assert [(t.number, t.leader, t.winner, t.collected_by)
                for t in seat_view(state, seat).tricks] == [(1, 1, None, (3,)), (2, 1, 3, (3,))]


@pytest.mark.rule("VIEW.SEAT", "VOID.LAST")
@pytest.mark.parametrize(("last_trick_void", "collected_by", "phase"), [
    (LastTrickVoid.NOBODY, (), Phase.DEALING),
    (LastTrickVoid.LEADER, (0,), Phase.MOON_CHOICE),  # seat 0 then holds every card
    (LastTrickVoid.SPLIT_HIGHEST_PAIR, (2, 5), Phase.DEALING),  # the two KC of trick 13
])
def test_a_seat_sees_who_collected_the_tricks_pending_at_the_end(
        last_trick_void: LastTrickVoid, collected_by: tuple[int, ...], phase: Phase) -> None:
    state, _ = eight_player_deal(VOID_END, ruleset=no_pass(last_trick_void=last_trick_void))
    assert state.phase is phase
    seen = [(t.number, t.winner, t.collected_by) for t in seat_view(state, 6).tricks]
    assert seen == [(n, 0, (0,)) for n in range(1, 12)] + [(12, None, collected_by),
                                                            (13, None, collected_by)]


@pytest.mark.rule("VIEW.SEAT")
def test_the_tricks_pending_before_the_last_card_show_no_collector() -> None:
    script = scripted_deal(8, 0, tail=VOID_END)
    state = GameState.start(8, NO_PASS, 7)
    state, _ = state.apply(script.deal)
    state, _ = play(state, script.plays[:-1])
    assert state.phase is Phase.PLAYING
    assert [(t.number, t.collected_by) for t in seat_view(state, 1).tricks][-2:] == \
        [(11, (0,)), (12, None)]
