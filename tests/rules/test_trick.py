"""Tricks: TURN.ORDER, TRICK.LED_SUIT, TRICK.CANCEL, TRICK.WINNER, TRICK.NEXT_LEADER."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref import ChooseMoon, GameState, MoonChoice, Pass, Phase, Play
from rules_ref.cards import Suit
from rules_ref.events import CardPlayed, Event, TrickWon
from rules_ref.tricks import resolve_trick

from .helpers import assert_illegal, card, cards, dealt, fill_deal, play

# The seed's example at a legal player count: first dealer 5, so seat 0 leads.
SEED_TRICK = "10S 9H 9H 10S KS 3S"


def seed_example() -> tuple[GameState, GameState, tuple[Event, ...]]:
    state = dealt(6, {0: "10S", 1: "9H", 2: "9H", 3: "10S", 4: "KS", 5: "3S"}, extras="2D 3D",
                  voids={1: "S", 2: "S"}, first_dealer=5)
    after, events = play(state, SEED_TRICK)
    return state, after, events


@pytest.mark.rule("TURN.ORDER")
def test_play_goes_to_the_left_from_the_leader() -> None:
    state = dealt(6, {5: "2D"}, first_dealer=4)  # seat 5 leads
    seats = []
    for _ in range(6):
        seat = state.to_act
        assert seat is not None
        seats.append(seat)
        follow = [c for c in state.legal_plays() if c.suit == Suit.D] or state.legal_plays()
        state, events = state.apply(Play(seat, follow[0]))
        assert events[0] == CardPlayed(seat, follow[0])
    assert seats == [5, 0, 1, 2, 3, 4]


@pytest.mark.rule("TURN.ORDER")
def test_a_play_out_of_turn_is_rejected_and_changes_nothing() -> None:
    state = dealt(6, {1: "2C", 2: "3C", 3: "4C"})
    state, _ = play(state, "2C")
    assert state.to_act == 2
    err = assert_illegal(state, Play(3, card("4C")), "TURN.ORDER")
    assert "it is seat 2's turn" in str(err)


@pytest.mark.rule("TURN.OWN_CARD")
def test_a_card_not_in_the_hand_is_rejected() -> None:
    state = dealt(6, {1: "2C", 2: "AS AS"})
    assert card("AS") not in state.hands[1]
    assert_illegal(state, Play(1, card("AS")), "TURN.OWN_CARD")


@pytest.mark.rule("TURN.ORDER")
def test_a_seat_that_does_not_exist_is_rejected() -> None:
    state = dealt(6)
    assert_illegal(state, Play(6, state.hands[0][0]), "TURN.ORDER")
    assert_illegal(state, Play(-1, state.hands[0][0]), "TURN.ORDER")


@pytest.mark.rule("TURN.ORDER")
def test_only_an_action_of_the_current_phase_is_accepted() -> None:
    state = dealt(6)
    hand = state.hands[1]
    assert_illegal(state, Pass(1, hand[:3]), "TURN.ORDER")
    assert_illegal(state, ChooseMoon(1, MoonChoice.ADD), "TURN.ORDER")
    assert_illegal(state, fill_deal(6), "TURN.ORDER")
    assert state.violations("not an action")[0].rule_id == "TURN.ORDER"


@pytest.mark.rule("TURN.ORDER", "DEAL.SOURCE")
def test_no_card_is_played_before_the_deal() -> None:
    state = GameState.start(6)
    assert state.phase is Phase.DEALING
    assert state.legal_actions() == ()
    assert_illegal(state, Play(1, card("2C")), "TURN.ORDER")


@pytest.mark.rule("TRICK.LED_SUIT", "TRICK.WINNER")
def test_the_led_suit_is_the_suit_of_the_first_card() -> None:
    state = dealt(6, {1: "3D", 2: "AS", 3: "AH", 4: "2D", 5: "KC", 0: "QH"},
                  voids={2: "D", 3: "D", 5: "D", 0: "D"})
    state, _ = play(state, "3D AS AH 2D KC QH")
    t = state.tricks[-1]
    assert t.led_suit.name == "D"
    assert (t.winner, t.winning_card) == (1, card("3D"))


@pytest.mark.rule("TRICK.LED_SUIT", "TRICK.CANCEL", "TRICK.WINNER", "FOLLOW.SUIT")
def test_a_cancelled_led_card_leaves_the_led_suit_and_the_highest_other_spade_wins() -> None:
    state = dealt(6, {0: "10S", 1: "10S", 2: "4S 9H", 3: "9S", 4: "9H", 5: "2S"},
                  voids={4: "S"}, first_dealer=5)
    state, _ = play(state, "10S 10S")
    assert_illegal(state, Play(2, card("9H")), "FOLLOW.SUIT")
    state, _ = play(state, "4S 9S 9H 2S")
    t = state.tricks[-1]
    assert t.led_suit.name == "S"
    assert t.cancelled == cards("10S")
    assert (t.winner, t.winning_card) == (3, card("9S"))


@pytest.mark.rule("TRICK.CANCEL", "TRICK.WINNER", "EXTRAS.FIRST_TRICK", "SCORE.CARD_POINTS")
def test_the_seed_example_at_six_players_is_won_by_the_king() -> None:
    _, state, events = seed_example()
    won = [e for e in events if isinstance(e, TrickWon)]
    assert won == [TrickWon(1, 4, card("KS"), cards("9H 10S"))]
    t = state.tricks[-1]
    assert (t.winner, t.winning_card, t.cancelled) == (4, card("KS"), cards("9H 10S"))
    collected = state.collected[4]
    assert Counter(collected) == Counter(cards(SEED_TRICK + " 2D 3D"))
    assert state.current_points() == (0, 0, 0, 0, 2, 0)


@pytest.mark.rule("TRICK.CANCEL", "TRICK.WINNER")
def test_partial_cancellation_leaves_the_highest_uncancelled_card_to_win() -> None:
    # The two aces cancel although other seats played between them; the led king wins.
    state = dealt(6, {1: "KC", 2: "3C", 3: "AC", 4: "7C", 5: "AC", 0: "2C"})
    state, events = play(state, "KC 3C AC 7C AC 2C")
    assert TrickWon(1, 1, card("KC"), cards("AC")) in events


@pytest.mark.rule("TRICK.CANCEL")
def test_cards_of_the_same_rank_and_another_suit_do_not_cancel() -> None:
    state = dealt(6, {1: "9S", 2: "9H", 3: "2S", 4: "3S", 5: "4S", 0: "5S"}, voids={2: "S"})
    state, events = play(state, "9S 9H 2S 3S 4S 5S")
    assert TrickWon(1, 1, card("9S"), ()) in events


@pytest.mark.rule("TRICK.CANCEL")
@pytest.mark.parametrize(("trick", "cancelled", "winner"), [
    ("10S 9H 9H 10S KS 3S", "9H 10S", 4),
    ("AD KD QD AD KD 2D", "KD AD", 2),
    ("QS QS AS AS KS KS 2S", "QS KS AS", 6),
    ("2H 3H 2H 3H 4H 5H 6H 4H", "2H 3H 4H", 6),
])
def test_every_identical_pair_cancels(trick: str, cancelled: str, winner: int) -> None:
    played = cards(trick)
    t = resolve_trick(played, leader=0, players=len(played))
    assert t.cancelled == cards(cancelled)
    assert t.winner == winner


@pytest.mark.rule("TRICK.WINNER")
def test_the_winner_collects_the_cards_of_the_trick() -> None:
    state = dealt(8, {1: "2C", 2: "3C", 3: "4C", 4: "AC", 5: "6C", 6: "7C", 7: "8C", 0: "9C"})
    state, _ = play(state, "2C 3C 4C AC 6C 7C 8C 9C")
    assert state.collected == ((), (), (), (), cards("2C 3C 4C AC 6C 7C 8C 9C"), (), (), ())
    assert state.pending == ()


@pytest.mark.rule("TRICK.NEXT_LEADER")
def test_the_winner_leads_the_next_trick() -> None:
    _, state, _ = seed_example()
    assert state.to_act == 4
    assert state.leader == 4
    assert state.trick_number == 2
    assert state.trick == ()


@pytest.mark.rule("TRICK.NEXT_LEADER", "TURN.ORDER")
def test_after_the_trick_only_the_winner_may_lead() -> None:
    _, state, _ = seed_example()
    other = state.hands[0][0]
    assert_illegal(state, Play(0, other), "TURN.ORDER")

