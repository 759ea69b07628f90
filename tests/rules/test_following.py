"""Following: FOLLOW.SUIT and FOLLOW.FIRST_TRICK (default ruleset)."""

from __future__ import annotations

import pytest

from rules_ref import Play
from rules_ref.cards import Suit

from .helpers import assert_illegal, assert_illegal_cards, card, cards, dealt, play


@pytest.mark.rule("FOLLOW.SUIT")
def test_a_player_holding_the_led_suit_must_follow_it() -> None:
    state = dealt(6, {1: "5D", 2: "2C 9D JD QS AH"})
    state, _ = play(state, "5D")
    diamonds = tuple(c for c in dict.fromkeys(state.hands[2]) if c.suit == Suit.D)
    assert state.legal_plays() == diamonds
    assert card("9D") in diamonds and card("JD") in diamonds
    assert_illegal_cards(state, 2, "AH QS 2C", "FOLLOW.SUIT")
    state, _ = play(state, "9D")
    assert state.trick == cards("5D 9D")


@pytest.mark.rule("FOLLOW.SUIT")
def test_a_player_without_the_led_suit_may_play_any_card() -> None:
    hand = "2C 3C 4C 5C 6C 7C 8C 9C 10C 2H 3H 4H 5H QS QS KS AS"
    state = dealt(6, {1: "5D", 2: hand})
    state, _ = play(state, "5D")
    assert state.legal_plays() == tuple(dict.fromkeys(cards(hand)))
    state, _ = play(state, "QS")
    assert state.trick == cards("5D QS")


@pytest.mark.rule("FOLLOW.SUIT", "TRICK.CANCEL")
def test_playing_a_card_identical_to_one_in_the_trick_is_legal() -> None:
    state = dealt(6, {1: "JD", 2: "JD 3D"})
    state, _ = play(state, "JD")
    assert card("JD") in state.legal_plays()
    state, _ = play(state, "JD")
    assert state.trick == cards("JD JD")


@pytest.mark.rule("FOLLOW.SUIT", "TRICK.LED_SUIT")
def test_the_duty_to_follow_holds_after_the_led_card_is_cancelled() -> None:
    state = dealt(6, {1: "10S", 2: "10S", 3: "4S 9H"})
    state, _ = play(state, "10S 10S")
    assert_illegal(state, Play(3, card("9H")), "FOLLOW.SUIT")


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_point_cards_may_be_discarded_on_the_first_trick() -> None:
    state = dealt(6, {1: "2C", 2: "QS 3D", 3: "AH 4D"}, voids={2: "C", 3: "C"})
    assert state.trick_number == 1
    state, _ = play(state, "2C")
    assert card("QS") in state.legal_plays()
    state, _ = play(state, "QS")
    assert card("AH") in state.legal_plays()
    state, _ = play(state, "AH")
    assert state.trick == cards("2C QS AH")
