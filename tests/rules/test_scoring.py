"""Scoring: SCORE.CARD_POINTS and SCORE.DEAL (default ruleset)."""

from __future__ import annotations

import pytest

from rules_ref import GameState, Ruleset
from rules_ref.events import DealScored
from rules_ref.scoring import card_points

from .helpers import SHARED_END, VOID_END, cards, eight_player_deal

ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"


@pytest.mark.rule("SCORE.CARD_POINTS")
@pytest.mark.parametrize(("collected", "points"), [
    ("", 0),
    ("2H", 1),
    ("AH AH", 2),
    ("QS", 13),
    ("QS QS", 26),
    ("QS 2H 3H AC KS", 15),
    ("10D 10D JD QD KC QC JS AS", 0),
    (ALL_HEARTS, 13),
    (ALL_HEARTS + " " + ALL_HEARTS + " QS QS", 52),
])
def test_card_points(collected: str, points: int) -> None:
    assert card_points(cards(collected), Ruleset()) == points


@pytest.mark.rule("SCORE.DEAL")
def test_totals_start_at_zero() -> None:
    assert GameState.start(7).totals == (0,) * 7


@pytest.mark.rule("SCORE.DEAL", "SCORE.CARD_POINTS")
def test_deal_scores_are_the_card_points_added_to_the_totals() -> None:
    start = (3, 1, 4, 1, 5, 9, 2, 6)
    state, events = eight_player_deal(SHARED_END, totals=start)
    points = (47, 0, 0, 5, 0, 0, 0, 0)
    assert DealScored(1, points, points, (50, 1, 4, 6, 5, 9, 2, 6)) in events
    assert state.totals == (50, 1, 4, 6, 5, 9, 2, 6)
    result = state.deal_results[-1]
    assert (result.card_points, result.scores) == (points, points)
    assert sum(result.card_points) == 52
    assert result.uncollected == ()


@pytest.mark.rule("SCORE.DEAL", "VOID.LAST")
def test_points_sum_to_52_less_the_uncollected_points() -> None:
    state, _ = eight_player_deal(VOID_END)
    result = state.deal_results[-1]
    uncollected = card_points(result.uncollected, Ruleset())
    assert uncollected == 3
    assert sum(result.card_points) == 52 - uncollected
