"""What the vectors prove about themselves: what each case depends on, the distinguishing
matrix, and facts that agree with the expectations.

* ``depends_on`` is what replaying the case under the other switch values gives: a trick
  started from its position does not depend on the passing, a game of 6 or more players
  not on ``min_players``; a 5-player game does.
* The matrix has no gap, and a missing distinguishing case is named.
* The facts agree with the expectations on every case, and a tampered one is caught.
* Under ``split-points-highest-pair`` the points are the card points, shares included.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules_ref import vectors
from rules_ref.protocol.observation import observe
from rules_ref.vectors.endings import SPLIT_POINTS, last_card, played
from rules_ref.vectors.facts import facts_problems
from rules_ref.vectors.matrix import gaps, matrix_lines
from rules_ref.vectors.requirements import (
    ANALYSED_KINDS,
    FIELD,
    depends_on,
    holds,
    substitute,
)
from rules_ref.vectors.running import allowed_values

V2 = vectors.latest_dir()


def _cases() -> dict[str, tuple[str, dict[str, Any]]]:
    return {c["id"]: (f.kind, c) for f, c in vectors.iter_cases(vectors.load_dir(V2))}


CASES = _cases()


def test_a_trick_from_its_position_does_not_depend_on_the_passing_or_the_target() -> None:
    kind, case = CASES["trick/void-trick1-extras-pending-p6.position"]
    # trick 1: its opening lead and its 2C still matter, nothing else
    assert case[FIELD] == {"first_trick_two_of_clubs": ["must-play"],
                           "opening_lead": ["two-of-clubs", "two-of-clubs-dealt"]}
    kind, full = CASES["trick/void-trick1-extras-pending-p6"]
    assert set(full[FIELD]) == {"first_trick_two_of_clubs", "opening_lead", "pass_count",
                                "pass_cycle"}
    assert full[FIELD]["pass_cycle"] == [["hold"], ["right"], ["hold", "left", "left-2",
                                                                "right-2", "right"]]
    assert depends_on(full, kind) == full[FIELD]


@pytest.mark.rule("PLAYERS.COUNT")
def test_min_players_matters_only_to_a_game_of_5() -> None:
    five = [c for k, c in CASES.values() if k in ANALYSED_KINDS and c["players"] == 5]
    more = [c for k, c in CASES.values() if k in ANALYSED_KINDS and c["players"] != 5]
    assert five and all(c[FIELD].get("min_players") == [6] for c in five)
    assert not any("min_players" in c[FIELD] for c in more)


def test_a_case_holds_only_under_the_values_it_does_not_depend_on() -> None:
    kind, case = CASES["scoring/last-trick-void-split-points-odd-p8"]
    assert case[FIELD]["last_trick_void"] == ["nobody", "leader", "split-highest-pair"]
    assert holds(case, kind)
    assert not holds(case, kind, {**case["ruleset"], "last_trick_void": "nobody"})
    assert holds(case, kind, {**case["ruleset"], "target": 100})


def test_substitution_takes_a_declared_value_only_where_the_case_does_not_depend_on_it() -> None:
    _, case = CASES["trick/void-trick1-extras-pending-p6"]
    declared = {"pass_cycle": [["left", "right", "across", "hold"]], "target": [100],
                "opening_lead": ["two-of-clubs"]}
    sent, missing = substitute(case, allowed_values({"switches": declared}))
    assert (sent["pass_cycle"], sent["target"]) == (["left", "right", "across", "hold"], 100)
    assert missing == ["opening_lead left-of-dealer"]  # the full replay depends on it
    # a switch the adapter leaves out stays at the case's value, here the default
    assert sent["moon"] == case["ruleset"]["moon"]


def test_the_matrix_is_complete_and_a_missing_case_is_named() -> None:
    analysed = [c for k, c in CASES.values() if k in ANALYSED_KINDS]
    assert gaps(analysed) == []
    lines = matrix_lines(analysed)
    assert lines[-1] == "0 gaps"
    assert "  boundary an odd number of points split (the odd point): 4" in lines
    odd = [c for c in analysed if "split-points-odd" not in c["id"]]
    assert "  boundary an odd number of pending cards dealt out: 2" in lines
    assert gaps(odd) == ["switch last_trick_void: no distinguishing vector at the boundary "
                         "an odd number of points split (the odd point) (for "
                         "split-points-highest-pair)"]
    no_pair = [c for c in analysed if "moon_pair" not in c[FIELD]]
    assert gaps(no_pair)[0] == "switch moon_pair: no vector distinguishes none from others-26"


@pytest.mark.parametrize("version", [1, 2])
def test_the_facts_of_every_case_agree_with_its_expectations(version: int) -> None:
    found = [p for f, c in vectors.iter_cases(vectors.load_dir(vectors.version_dir(version)))
             for p in facts_problems(f.kind, c)]
    assert found == []


@pytest.mark.rule("SCORE.CARD_POINTS", "SCORE.DEAL", "TRICK.WINNER", "PASS.DIRECTION")
def test_tampered_facts_are_caught() -> None:
    kind, case = CASES["scoring/last-trick-void-split-points-p8"]
    bad = copy.deepcopy(case)
    bad["facts"]["card_points"][1] -= 2  # the share left out, as the engine once counted it
    assert facts_problems(kind, bad) == [
        "scoring/last-trick-void-split-points-p8: facts.card_points [0, 1, 0, 34, 5, 0, 5, 5] "
        "but the scored observation's points are [0, 3, 0, 34, 5, 0, 5, 5] "
        "(SCORE.CARD_POINTS)",
        "scoring/last-trick-void-split-points-p8: no moon, but deal_scores [0, 3, 0, 34, 5, 0, "
        "5, 5] are not the card points [0, 1, 0, 34, 5, 0, 5, 5] (SCORE.DEAL)",
        "scoring/last-trick-void-split-points-p8: the card points add up to 50, but the deck "
        "less the uncollected cards holds 52 (SCORE.CARD_POINTS, VOID.LAST)"]
    kind, case = CASES["trick/three-pairs-p9"]
    bad = copy.deepcopy(case)
    bad["facts"]["winning_card"] = "2C"
    assert facts_problems(kind, bad)[0].startswith(
        "trick/three-pairs-p9: facts.winning_card 2C but seat ")
    kind, case = CASES["passing/default-deal1-left-p6"]
    bad = copy.deepcopy(case)
    bad["facts"]["direction"] = "right"
    assert facts_problems(kind, bad) == [
        "passing/default-deal1-left-p6: facts.targets [1, 2, 3, 4, 5, 0] do not follow "
        "direction right at 6 players, [5, 0, 1, 2, 3, 4] (PASS.DIRECTION)"]


def test_check_reports_tampered_facts_and_a_stale_analysis(tmp_path: Path) -> None:
    data = json.loads((V2 / "scoring.json").read_text(encoding="utf-8"))
    case = next(c for c in data["cases"] if c["id"] == "scoring/last-trick-void-split-points-p8")
    case["facts"]["card_points"][1] -= 2
    case[FIELD] = {}
    (tmp_path / "scoring.json").write_text(vectors.dumps(data), encoding="utf-8")
    text = "\n".join(vectors.check_dir(tmp_path).problems)
    assert "scoring.json: scoring/last-trick-void-split-points-p8: facts.card_points " in text
    assert "scoring.json: scoring/last-trick-void-split-points-p8: depends_on is not what " \
        "replaying the case under the other switch values gives: " in text


@pytest.mark.rule("VOID.LAST", "SCORE.CARD_POINTS")
def test_split_points_count_as_card_points_from_the_end_of_the_last_trick() -> None:
    sc = played(9, SPLIT_POINTS, 42)  # 5 uncollected points: 3 to seat 3, which played first
    state, _ = sc.state.apply(last_card(sc))
    result = state.deal_results[-1]
    collected = [sum(1 for c in cards if c.suit.name == "H") + 13 * sum(
        1 for c in cards if str(c) == "QS") for cards in state.collected]
    shares = [p - c for p, c in zip(result.card_points, collected, strict=True)]
    assert (shares[3], shares[2], sum(shares)) == (3, 2, 5)
    assert list(state.current_points()) == list(result.card_points) == observe(state)["points"]
