"""The worked deals of the rules site really show what their pages say.

Each scenario is played through the engine (``chdocs.scenarios.play``); the
assertions here restate the page's claims with exact values, independently of
the ``Claims`` the build checks.
"""

from __future__ import annotations

import dataclasses

import pytest

from rules_ref import MoonChoice, parse_cards
from rules_ref.scoring import penalty_points

from . import chdocs

scenarios = chdocs("scenarios")


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_every_scenario_is_a_legal_deal_that_matches_its_claims(name: str) -> None:
    story = scenarios.play(scenarios.SCENARIOS[name])
    assert scenarios.check(story) == []
    assert len(story.steps) == len(scenarios.SCENARIOS[name].tricks)


@pytest.mark.rule("VOID.TRICK", "VOID.LEADER", "VOID.COLLECT")
def test_two_void_tricks_wait_for_the_next_winner() -> None:
    story = scenarios.play(scenarios.SCENARIOS["two-void-tricks"])
    five, six, seven = story.steps[4:7]
    assert (five.void, six.void, seven.void) == (True, True, False)
    assert (five.leader, six.leader, seven.leader) == (0, 0, 0)
    assert len(six.pending_after) == 12 and penalty_points(six.pending_after) == 32
    assert seven.winner == 2 and seven.collected == five.cards + six.cards
    assert seven.pending_after == ()
    assert sum(story.card_points) == 52


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "VOID.COLLECT")
def test_a_void_first_trick_puts_the_extras_in_the_pending_pile() -> None:
    story = scenarios.play(scenarios.SCENARIOS["void-first-trick"])
    first, second = story.steps[:2]
    extras = parse_cards("QS 10H 4H KD 3D 6C")
    assert first.void and first.extras_pending == extras and first.extras_in_pile
    assert first.pending_after == first.cards + extras
    assert second.leader == first.leader == 1
    assert second.winner == 4 and second.collected == first.cards + extras
    assert second.collected_extras and story.extras_to == 4
    assert story.card_points[4] == 15


@pytest.mark.rule("VOID.LAST", "SCORE.DEAL", "MOON.CONDITION")
def test_a_void_last_trick_ends_the_deal_with_uncollected_cards() -> None:
    story = scenarios.play(scenarios.SCENARIOS["void-last-trick"])
    last = story.steps[-1]
    assert last.void and last.number == 9
    assert story.uncollected == last.cards
    assert len(story.uncollected) == 11 and penalty_points(story.uncollected) == 16
    assert sum(story.card_points) == 52 - 16
    assert story.moon_shooter is None


@pytest.mark.rule("MOON.CONDITION", "MOON.CHOICE", "TRICK.CANCEL")
def test_the_moon_deal_is_a_moon_with_the_choice_made() -> None:
    story = scenarios.play(scenarios.SCENARIOS["moon"])
    queens = story.steps[2]
    assert queens.cancelled == parse_cards("QS") and queens.winner == 1
    assert story.card_points == (0, 52, 0, 0, 0, 0, 0, 0)
    assert story.moon_shooter == 1 and story.moon_choice is MoonChoice.ADD
    assert story.scores == (26, 0, 26, 26, 26, 26, 26, 26)


def test_a_claim_the_engine_does_not_bear_out_is_reported() -> None:
    scenario = scenarios.SCENARIOS["void-last-trick"]
    wrong = dataclasses.replace(scenario, claims=dataclasses.replace(
        scenario.claims, void_tricks=(8, 9), uncollected=0))
    assert scenarios.check(scenarios.play(wrong)) == [
        "void tricks are (9,), the page says (8, 9)",
        "11 cards are left uncollected, the page says 0",
    ]


def test_an_illegal_scenario_is_an_error_naming_the_trick_and_the_rule() -> None:
    scenario = scenarios.SCENARIOS["two-void-tricks"]
    tricks = list(scenario.tricks)
    tricks[0] = "QS 8C QC 5C 10C 6C"  # an opening lead of a queen of spades
    tricks[4] = "3C QS 9S 9S 4S 4S"
    bad = dataclasses.replace(scenario, tricks=tuple(tricks))
    with pytest.raises(scenarios.ScenarioError,
                       match=r"trick 1, card 1 \(seat 1 plays QS\): LEAD.OPENING_CARD"):
        scenarios.play(bad)
