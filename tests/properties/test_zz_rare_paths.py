"""Proof that the property tests ran the rare paths of the rules (runs last).

The tally is fed by every property test that plays games (the fixture
``rare_path_tally``) and reads each path from the engine's events and
states (``rules_ref.exercise.detect.rare_paths``), not from what
the strategies meant to produce. Illegal actions of every kind must
also have been tried. The counts are printed at the end of the test output.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref.actions import DealCards, MoonChoice
from rules_ref.deal import seeded_deal
from rules_ref.exercise.detect import (
    CANCELLED_LEAD,
    FORCED_HEART_LEAD,
    MOON_ADD,
    OPENING_EXCEPTION,
    PARTIAL_CANCEL,
    PENDING_COLLECTED,
    RARE_PATHS,
    TIE,
    VOID_FIRST_WITH_EXTRAS,
    VOID_LAST,
    VOID_TRICK,
    VOID_TWICE,
)
from rules_ref.ruleset import PassDirection, Ruleset
from rules_ref.state import GameState
from rules_ref.strategies import Policy, RarePathTally, play_out

from .crafted import CRAFTED, mirrored_seven, unplayed

#: Every rule that the property tests' illegal actions break first.
ILLEGAL_RULES = ("TURN.ORDER", "PASS.CARDS", "PASS.EXCHANGE", "LEAD.OPENING_CARD", "LEAD.HEARTS",
                 "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK", "MOON.CHOICE", "DEAL.SIZE", "DECK.CARDS")


@pytest.mark.rule("TRICK.CANCEL", "VOID.TRICK", "VOID.LEADER", "VOID.COLLECT", "VOID.LAST",
                  "EXTRAS.FIRST_TRICK", "LEAD.OPENING_CARD", "LEAD.HEARTS", "MOON.CHOICE",
                  "GAME.WINNER", "TURN.ORDER", "PASS.CARDS", "PASS.EXCHANGE", "FOLLOW.SUIT",
                  "FOLLOW.FIRST_TRICK", "DEAL.SIZE", "DECK.CARDS")
def test_every_rare_path_ran(
        rare_path_report: tuple[RarePathTally, Counter[str], dict[str, str]]) -> None:
    tally, rejections, producers = rare_path_report
    if not producers or any(outcome != "passed" for outcome in producers.values()):
        pytest.skip("the rare-path proof needs every game-playing property test to run and pass")
    assert tally.missing() == (), f"rare paths never exercised:\n{tally.table()}"
    assert [rule for rule in ILLEGAL_RULES if not rejections[rule]] == [], (
        f"illegal actions never tried: {dict(rejections)}")


@pytest.mark.rule("TRICK.CANCEL", "VOID.TRICK", "VOID.LEADER", "EXTRAS.FIRST_TRICK",
                  "VOID.LAST")
def test_rare_paths_are_read_from_the_game() -> None:
    """Partners copying each other void every trick the unpaired seat cannot follow."""
    state = GameState.start(7, Ruleset(pass_cycle=(PassDirection.HOLD,)), first_dealer=6)
    tally = RarePathTally()
    deal = mirrored_seven()
    after, events = state.apply(deal)
    tally.record(state, deal, after, events)
    final = play_out(after, Policy("cancelling", seed=3), tally.record)
    assert tally.counts[VOID_FIRST_WITH_EXTRAS] == 1
    assert tally.counts[VOID_TRICK] == len([t for t in final.tricks if t.winner is None])
    assert tally.counts[VOID_TRICK] >= 2
    assert tally.counts[CANCELLED_LEAD] >= tally.counts[VOID_TRICK]
    assert tally.counts[VOID_TWICE] >= 1
    assert tally.counts[VOID_LAST] == (final.tricks[-1].winner is None)
    assert tally.counts[OPENING_EXCEPTION] == tally.counts[FORCED_HEART_LEAD] == 0
    assert tally.counts[MOON_ADD] == tally.counts[TIE] == 0
    assert set(tally.counts) == set(RARE_PATHS)
    assert tally.actions == 1 + 7 * 14


@pytest.mark.rule("TRICK.CANCEL", "VOID.COLLECT")
def test_partial_cancels_and_collected_piles_are_counted_from_the_tricks() -> None:
    state = GameState.start(8)
    d = seeded_deal(seed=11, players=8, deal_number=1, dealer=0)
    tally = RarePathTally()
    after, events = state.apply(DealCards(d.hands, d.extras))
    tally.record(state, DealCards(d.hands, d.extras), after, events)
    final = play_out(after, Policy("reference", seed=1), tally.record)
    partial = len([t for t in final.tricks if t.cancelled and t.winner is not None])
    assert tally.counts[PARTIAL_CANCEL] == partial
    assert tally.counts[PENDING_COLLECTED] == len(
        [i for i, t in enumerate(final.tricks[1:], 1)
         if t.winner is not None and final.tricks[i - 1].winner is None])
    choices = [r.moon_choice for r in final.deal_results]
    assert tally.counts[MOON_ADD] == choices.count(MoonChoice.ADD)
    assert tally.actions == 1 + 8 + 8 * 13 + (final.deal_results[-1].moon_shooter is not None)


@pytest.mark.rule("MOON.CHOICE", "GAME.WINNER", "LEAD.OPENING_CARD", "LEAD.HEARTS",
                  "VOID.TRICK", "VOID.COLLECT", "VOID.LAST", "EXTRAS.FIRST_TRICK")
@pytest.mark.parametrize("name", list(CRAFTED))
def test_a_crafted_position_goes_through_its_rare_paths(name: str) -> None:
    position, paths = CRAFTED[name]
    tally = RarePathTally()
    after, events = position.state.apply(position.deal)
    tally.record(position.state, position.deal, after, events)
    play_out(after, unplayed(position.policy), tally.record)
    assert [p for p in paths if not tally.counts[p]] == []


def test_the_crafted_positions_go_through_every_rare_path_between_them() -> None:
    assert {p for _, paths in CRAFTED.values() for p in paths} == set(RARE_PATHS)
