"""Extras: EXTRAS.FIRST_TRICK."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref.events import ExtrasPending, ExtrasTaken, TrickWon

from .helpers import card, cards, dealt, play

TRICK_1 = "2C 3C AC 4C 5C 6C"  # seat 1 leads, seat 3 wins with A♣


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "SCORE.CARD_POINTS")
def test_the_winner_of_trick_1_takes_the_extras() -> None:
    state = dealt(6, {1: "2C", 2: "3C", 3: "AC", 4: "4C", 5: "5C", 0: "6C"}, extras="QS 9H")
    assert state.extras == cards("QS 9H")
    state, events = play(state, TRICK_1)
    assert ExtrasTaken(3, cards("QS 9H")) in events
    assert state.extras_taken_by == 3
    assert Counter(state.collected[3]) == Counter(cards(TRICK_1 + " QS 9H"))
    assert state.current_points() == (0, 0, 0, 14, 0, 0)


@pytest.mark.rule("EXTRAS.FIRST_TRICK")
def test_the_extras_go_with_trick_1_only() -> None:
    state = dealt(6, {1: "2C 5D", 2: "3C 6D", 3: "AC 2D", 4: "4C AD", 5: "5C 3D", 0: "6C 4D"},
                  extras="QS 9H")
    state, _ = play(state, TRICK_1)
    state, events = play(state, "2D AD 3D 4D 5D 6D")
    assert TrickWon(2, 4, card("AD"), ()) in events
    assert not any(isinstance(e, ExtrasTaken | ExtrasPending) for e in events)
    assert Counter(state.collected[4]) == Counter(cards("2D AD 3D 4D 5D 6D"))
    assert state.extras_taken_by == 3


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "VOID.TRICK")
def test_a_void_trick_1_puts_the_extras_in_the_pending_pile_right_after_its_cards() -> None:
    state = dealt(6, {1: "5C", 2: "5C", 3: "9C", 4: "9C", 5: "3C", 0: "3C"}, extras="AH 7S")
    state, events = play(state, "5C 5C 9C 9C 3C 3C")
    assert ExtrasPending(cards("AH 7S")) in events
    assert state.pending == cards("5C 5C 9C 9C 3C 3C AH 7S")
    assert state.extras_taken_by is None


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "TRICK.CANCEL")
def test_the_extras_take_no_part_in_cancellation() -> None:
    # The other K♠ lies among the extras: the K♠ played is not cancelled and wins.
    state = dealt(6, {1: "10S", 2: "KS", 3: "3S", 4: "4S", 5: "5S", 0: "6S"}, extras="KS 2C")
    state, events = play(state, "10S KS 3S 4S 5S 6S")
    assert TrickWon(1, 2, card("KS"), ()) in events
    assert state.collected[2].count(card("KS")) == 2


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "DEAL.SIZE")
def test_with_eight_players_there_are_no_extras() -> None:
    state = dealt(8, {1: "2C", 2: "3C", 3: "AC", 4: "4C", 5: "5C", 6: "6C", 7: "7C", 0: "8C"})
    assert state.extras == ()
    state, events = play(state, "2C 3C AC 4C 5C 6C 7C 8C")
    assert not any(isinstance(e, ExtrasTaken) for e in events)
    assert Counter(state.collected[3]) == Counter(cards("2C 3C AC 4C 5C 6C 7C 8C"))
