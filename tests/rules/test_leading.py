"""Leading: LEAD.OPENING_LEADER, LEAD.OPENING_CARD, LEAD.HEARTS, HEARTS.BROKEN (default ruleset)."""

from __future__ import annotations

import pytest

from rules_ref import GameState, Pass, Phase, Play, Ruleset
from rules_ref.events import HeartsBroken

from .helpers import assert_illegal, assert_illegal_cards, card, cards, dealt, fill_deal, play

ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


@pytest.mark.rule("LEAD.OPENING_LEADER")
@pytest.mark.parametrize(("players", "first_dealer", "leader"), [
    (6, 0, 1), (6, 3, 4), (6, 5, 0), (11, 10, 0), (8, 7, 0),
])
def test_the_seat_left_of_the_dealer_makes_the_opening_lead(
        players: int, first_dealer: int, leader: int) -> None:
    state = dealt(players, first_dealer=first_dealer)
    assert state.phase is Phase.PLAYING
    assert state.to_act == leader
    assert state.waiting_for == (leader,)


@pytest.mark.rule("LEAD.OPENING_LEADER")
def test_the_opening_leader_of_a_later_deal_follows_the_dealer() -> None:
    state = dealt(7, first_dealer=2, next_deal=3)  # deal 3: dealer 4
    assert (state.dealer, state.to_act) == (4, 5)


@pytest.mark.rule("LEAD.OPENING_LEADER", "TURN.ORDER")
def test_nobody_else_may_make_the_opening_lead() -> None:
    state = dealt(6, {2: "3C"})
    assert_illegal(state, Play(2, card("3C")), "TURN.ORDER")


@pytest.mark.rule("LEAD.OPENING_LEADER", "PASS.EXCHANGE")
def test_after_passing_the_left_of_the_dealer_leads() -> None:
    state = GameState.start(6, Ruleset(), first_dealer=2)
    state, _ = state.apply(fill_deal(6))
    for seat in range(6):
        state, _ = state.apply(Pass(seat, state.hands[seat][:3]))
    assert state.to_act == 3


MIXED = "2C 3C 4D 5D 6S 7S 8S 9S 10S JS KS AS QS 2H 3H 4H 5H"


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_no_heart_or_queen_of_spades_on_the_opening_lead() -> None:
    state = dealt(6, {1: MIXED})
    assert state.legal_plays() == cards("2C 3C 4D 5D 6S 7S 8S 9S 10S JS KS AS")
    assert_illegal_cards(state, 1, "2H QS", "LEAD.OPENING_CARD")
    state, _ = play(state, "6S")
    assert state.trick == cards("6S")


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_a_leader_with_only_hearts_and_queens_may_open_with_anything() -> None:
    state = dealt(6, {1: ALL_HEARTS + " 2H 3H QS QS"})
    assert state.legal_plays() == cards(ALL_HEARTS + " QS")
    state, events = play(state, "5H")
    assert state.trick == cards("5H")
    assert HeartsBroken(1, card("5H")) in events


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_a_leader_with_only_hearts_and_queens_may_open_with_a_queen() -> None:
    state = dealt(6, {1: ALL_HEARTS + " 2H 3H QS QS"})
    state, _ = play(state, "QS")
    assert state.trick == cards("QS")


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_a_leader_with_only_hearts_may_open_with_a_heart() -> None:
    state = dealt(6, {1: ALL_HEARTS + " 2H 3H 4H 5H"})
    assert state.legal_plays() == cards(ALL_HEARTS)


def won_by_seat_3(hand_3: str) -> GameState:
    """Trick 1 (leader seat 1): 2C 3C AC 4C 5C 6C; seat 3 wins with its only club.

    No heart or Q♠ is played, so hearts stay unbroken for seat 3's lead.
    """
    state = dealt(6, {1: "2C", 2: "3C", 3: hand_3, 4: "4C", 5: "5C", 0: "6C"})
    state, _ = play(state, "2C 3C AC 4C 5C 6C")
    assert state.tricks[-1].winner == 3
    assert state.hearts_broken is False
    return state


@pytest.mark.rule("LEAD.HEARTS", "LEAD.OPENING_CARD")
def test_a_later_leader_with_only_hearts_and_queens_must_lead_a_queen() -> None:
    state = won_by_seat_3("AC " + ALL_HEARTS + " 2H QS QS")
    assert state.to_act == 3
    assert state.legal_plays() == cards("QS")
    assert_illegal(state, Play(3, card("2H")), "LEAD.HEARTS")
    state, _ = play(state, "QS")
    assert state.trick == cards("QS")


@pytest.mark.rule("LEAD.HEARTS")
def test_a_leader_with_only_hearts_may_lead_a_heart_before_hearts_are_broken() -> None:
    state = won_by_seat_3("AC " + ALL_HEARTS + " 2H 3H 4H")
    assert state.legal_plays() == cards(ALL_HEARTS)
    state, _ = play(state, "4H")
    assert state.trick == cards("4H")


@pytest.mark.rule("LEAD.HEARTS")
def test_a_heart_may_not_be_led_before_hearts_are_broken() -> None:
    state = won_by_seat_3("AC 2H 3H 4D 5D KS")
    assert state.legal_plays() == cards("4D 5D KS")
    assert_illegal(state, Play(3, card("2H")), "LEAD.HEARTS")


@pytest.mark.rule("LEAD.HEARTS")
def test_a_queen_of_spades_may_be_led_at_any_time() -> None:
    state = won_by_seat_3("AC QS 2H 4D")
    assert card("QS") in state.legal_plays()
    state, _ = play(state, "QS")
    assert state.trick == cards("QS")


@pytest.mark.rule("LEAD.HEARTS", "HEARTS.BROKEN")
def test_a_heart_may_be_led_once_hearts_are_broken() -> None:
    # Seat 0, void in clubs, discards a heart on trick 1; seat 3 then leads a heart.
    state = dealt(6, {1: "2C", 2: "3C", 3: "AC 2H 4D", 4: "4C", 5: "5C", 0: "9H"}, voids={0: "C"})
    state, events = play(state, "2C 3C AC 4C 5C 9H")
    assert HeartsBroken(0, card("9H")) in events
    assert state.hearts_broken is True
    assert card("2H") in state.legal_plays()
    state, _ = play(state, "2H")
    assert state.trick == cards("2H")


@pytest.mark.rule("HEARTS.BROKEN")
def test_hearts_are_broken_from_the_moment_the_card_is_played() -> None:
    state = dealt(6, {1: "2C", 2: "QS"}, voids={2: "C"})
    assert state.hearts_broken is False
    state, events = play(state, "2C QS")
    assert events[-1] == HeartsBroken(2, card("QS"))
    assert state.hearts_broken is True
    assert len(state.trick) == 2


@pytest.mark.rule("HEARTS.BROKEN", "TRICK.CANCEL")
def test_hearts_are_broken_by_a_cancelled_queen_of_spades_discard() -> None:
    state = dealt(6, {1: "2C", 2: "QS", 3: "AC 2H 4D", 4: "QS", 5: "5C", 0: "6C"},
                  voids={2: "C", 4: "C"})
    state, _ = play(state, "2C QS AC QS 5C 6C")
    assert state.tricks[-1].cancelled == cards("QS")
    assert state.tricks[-1].winner == 3
    assert state.hearts_broken is True
    assert card("2H") in state.legal_plays()


@pytest.mark.rule("HEARTS.BROKEN", "VOID.TRICK")
def test_a_heart_in_a_void_trick_breaks_hearts() -> None:
    state = dealt(6, {1: "7D", 2: "7D", 3: "9D", 4: "9D", 5: "8H", 0: "8H"},
                  voids={5: "D", 0: "D"})
    state, _ = play(state, "7D 7D 9D 9D 8H 8H")
    assert state.tricks[-1].winner is None
    assert state.hearts_broken is True


@pytest.mark.rule("HEARTS.BROKEN", "EXTRAS.FIRST_TRICK")
def test_hearts_in_the_extras_do_not_break_hearts() -> None:
    state = dealt(6, {1: "2C", 2: "3C", 3: "AC 2H 4D", 4: "4C", 5: "5C", 0: "6C"},
                  extras="AH AH")
    state, _ = play(state, "2C 3C AC 4C 5C 6C")
    assert state.collected[3].count(card("AH")) == 2
    assert state.hearts_broken is False
    assert_illegal(state, Play(3, card("2H")), "LEAD.HEARTS")


@pytest.mark.rule("HEARTS.BROKEN")
def test_hearts_are_unbroken_at_the_start_of_every_deal() -> None:
    from .helpers import run_script, scripted_deal

    script = scripted_deal(8, 0, tail=[(0, "2C 5H 6H AC 7H 8H 9H 2D")])
    state, _ = run_script(script, first_dealer=7)
    assert state.phase is Phase.DEALING
    assert state.hearts_broken is True  # the deal just scored broke them
    state, _ = state.apply(fill_deal(8))
    assert state.hearts_broken is False
