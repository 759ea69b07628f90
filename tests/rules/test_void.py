"""Void tricks and the pending pile: VOID.TRICK, VOID.LEADER, VOID.COLLECT, VOID.LAST."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref import Phase, Play
from rules_ref.cards import full_deck
from rules_ref.events import (
    DealScored,
    ExtrasPending,
    PendingCollected,
    PendingSettled,
    TrickSetAside,
    TrickWon,
)
from rules_ref.tricks import resolve_trick

from .helpers import VOID_END, assert_illegal, card, cards, dealt, eight_player_deal, play


@pytest.mark.rule("VOID.TRICK", "TRICK.CANCEL")
def test_the_seed_four_card_example_is_void_when_resolved_as_a_trick() -> None:
    t = resolve_trick(cards("10S 9H 9H 10S"), leader=0, players=4)
    assert t.void
    assert (t.winner, t.winning_card) == (None, None)
    assert t.cancelled == cards("9H 10S")


@pytest.mark.rule("VOID.TRICK")
def test_a_trick_with_every_led_suit_card_cancelled_is_set_aside() -> None:
    state = dealt(6, {1: "5C", 2: "5C", 3: "9C", 4: "9C", 5: "3C", 0: "3C"}, extras="KH QS")
    state, events = play(state, "5C 5C 9C 9C 3C 3C")
    assert TrickSetAside(1, 1, cards("3C 5C 9C")) in events
    assert not any(isinstance(e, TrickWon) for e in events)
    assert state.tricks[-1].winner is None
    assert state.pending == cards("5C 5C 9C 9C 3C 3C KH QS")
    assert state.collected == ((),) * 6


@pytest.mark.rule("VOID.TRICK")
def test_a_trick_is_void_with_an_odd_player_count_and_an_uncancelled_off_suit_card() -> None:
    state = dealt(7, {0: "5D", 1: "5D", 2: "JD", 3: "JD", 4: "8D", 5: "8D", 6: "2C"},
                  voids={6: "D"}, first_dealer=6)
    state, events = play(state, "5D 5D JD JD 8D 8D 2C")
    assert TrickSetAside(1, 0, cards("5D 8D JD")) in events
    assert state.pending[:7] == cards("5D 5D JD JD 8D 8D 2C")


@pytest.mark.rule("VOID.LEADER")
def test_the_leader_of_a_void_trick_leads_again() -> None:
    state = dealt(6, {1: "5C", 2: "5C", 3: "9C", 4: "9C", 5: "3C", 0: "3C"}, first_dealer=0)
    state, _ = play(state, "5C 5C 9C 9C 3C 3C")
    assert (state.to_act, state.leader, state.trick_number) == (1, 1, 2)
    assert_illegal(state, Play(2, state.hands[2][0]), "TURN.ORDER")


@pytest.mark.rule("VOID.LEADER", "LEAD.HEARTS", "LEAD.OPENING_CARD")
def test_the_lead_after_a_void_first_trick_follows_lead_hearts() -> None:
    state = dealt(6, {1: "5C QS 2H 4D", 2: "5C", 3: "9C", 4: "9C", 5: "3C", 0: "3C"})
    assert_illegal(state, Play(1, card("QS")), "LEAD.OPENING_CARD")
    state, _ = play(state, "5C 5C 9C 9C 3C 3C")
    assert state.hearts_broken is False
    assert_illegal(state, Play(1, card("2H")), "LEAD.HEARTS")
    state, _ = play(state, "QS")  # forbidden on the opening lead, allowed now
    assert state.trick == cards("QS")


@pytest.mark.rule("VOID.COLLECT", "VOID.TRICK", "EXTRAS.FIRST_TRICK")
def test_two_void_tricks_in_a_row_go_to_the_next_winner() -> None:
    state = dealt(6, {1: "5C 7D 2S", 2: "5C 7D 3S", 3: "9C 8D AS", 4: "9C 8D 4S",
                      5: "3C JD 5S", 0: "3C JD 6S"}, extras="KH QS")
    state, _ = play(state, "5C 5C 9C 9C 3C 3C")
    state, events = play(state, "7D 7D 8D 8D JD JD")
    assert TrickSetAside(2, 1, cards("7D 8D JD")) in events
    pile = cards("5C 5C 9C 9C 3C 3C KH QS 7D 7D 8D 8D JD JD")
    assert state.pending == pile
    state, events = play(state, "2S 3S AS 4S 5S 6S")
    assert TrickWon(3, 3, card("AS"), ()) in events
    assert PendingCollected(3, pile) in events
    assert state.pending == ()
    assert Counter(state.collected[3]) == Counter(pile + cards("2S 3S AS 4S 5S 6S"))
    assert state.current_points() == (0, 0, 0, 14, 0, 0)
    assert state.to_act == 3


@pytest.mark.rule("VOID.COLLECT", "EXTRAS.FIRST_TRICK")
def test_a_void_first_trick_at_seven_players_takes_the_extras_into_the_pending_pile() -> None:
    extras = "QS AH KH 10D 4C 4C"
    state = dealt(7, {0: "5C AD", 1: "5C 2D", 2: "9C 3D", 3: "9C 4D", 4: "3C 5D", 5: "3C 6D",
                      6: "2H 7D"}, extras=extras, voids={6: "C"}, first_dealer=6)
    state, events = play(state, "5C 5C 9C 9C 3C 3C 2H")
    assert ExtrasPending(cards(extras)) in events
    trick_1 = cards("5C 5C 9C 9C 3C 3C 2H")
    assert state.pending == trick_1 + cards(extras)
    state, events = play(state, "AD 2D 3D 4D 5D 6D 7D")
    assert TrickWon(2, 0, card("AD"), ()) in events
    assert PendingCollected(0, trick_1 + cards(extras)) in events
    assert Counter(state.collected[0]) == \
        Counter(trick_1 + cards(extras) + cards("AD 2D 3D 4D 5D 6D 7D"))
    assert state.extras_taken_by == 0
    assert state.current_points() == (16, 0, 0, 0, 0, 0, 0)


@pytest.mark.rule("VOID.LAST", "SCORE.DEAL", "MOON.CONDITION")
def test_a_void_last_trick_is_collected_by_nobody() -> None:
    state, events = eight_player_deal(VOID_END)
    pile = cards("9D 9D 4D 4D 8S 8S 6D 6D QC 5H KC QC 2H KC 2D 7H")
    assert PendingSettled((), pile) in events
    result = state.deal_results[-1]
    assert result.uncollected == pile
    assert result.card_points == (49, 0, 0, 0, 0, 0, 0, 0)
    assert sum(result.card_points) == 49 < 52
    assert result.moon_shooter is None
    assert DealScored(1, (49, 0, 0, 0, 0, 0, 0, 0), (49, 0, 0, 0, 0, 0, 0, 0),
                      (49, 0, 0, 0, 0, 0, 0, 0)) in events
    assert state.phase is Phase.DEALING
    collected = Counter(c for seat in state.collected for c in seat)
    assert collected + Counter(pile) == Counter(full_deck())
    assert state.collected[1:] == ((),) * 7
