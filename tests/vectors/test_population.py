"""The suite over a population of engines: rebuilt routes, re-scored figures, the cases built
for a value, correct engines of one ruleset, and engines wrong about one card.

The population's figures are computed from the case metadata (which cases a
run sends, :func:`rules_ref.vectors.shares.correct_run`): running the whole
matrix of engines through a process would be slow; the real adapter runs on
a sample (``rules-ref adapter --ruleset``) and must report what the metadata
says.
"""

from __future__ import annotations

import json
import sys

import pytest

from rules_ref import vectors
from rules_ref.cards import CARDS, parse_card
from rules_ref.protocol.reference_adapter import engine_supports
from rules_ref.ruleset import Ruleset
from rules_ref.vectors import served, shares
from rules_ref.vectors.card_faults import FAULTS, card_gaps, card_matrix, fails
from rules_ref.vectors.position_forms import POSITION_KINDS, position_form, prefix_state, settled
from rules_ref.vectors.requirements import REROUTED, depends_on, end_of_prefix, holds
from rules_ref.vectors.rescore import rescored
from rules_ref.vectors.route import reroutable, rerouted
from tests.fakes import vector_adapters
from tests.vectors.test_run import cli


def _cases() -> list[tuple[str, vectors.Case]]:
    return [(f.kind, c) for f, c in vectors.iter_cases(vectors.load_dir(vectors.latest_dir()),
                                                       vectors.PROTOCOL_KINDS)]


def _case(case_id: str) -> tuple[str, vectors.Case]:
    return next((k, c) for k, c in _cases() if c["id"] == case_id)


# --- rebuilt routes -------------------------------------------------------------------------


def test_with_no_passing_the_hands_after_the_passes_are_dealt_directly() -> None:
    kind, case = _case("trick/highest-wins-takes-extras-p6")
    assert [a["type"] for a in case["prefix"][:6]] == ["pass"] * 6
    hold = {**case["ruleset"], "pass_cycle": ["hold"]}
    assert not holds(case, kind, hold)  # its own route passes: refused under hold
    moved = rerouted(case, hold)
    assert moved is not None and holds(moved, kind)
    assert moved["prefix"] == case["prefix"][6:]  # the plays alone
    assert moved["start"]["ruleset"] == hold and moved["ruleset"] == hold
    # the hands dealt are the hands the case's passes made
    passed = end_of_prefix({**case, "prefix": case["prefix"][:6]})
    assert passed is not None
    assert moved["start"]["hands"] == [[str(c) for c in h] for h in passed.hands]
    assert moved["start"]["hands"][1] != case["start"]["hands"][1]


def test_two_cards_passed_right_reach_the_same_moment() -> None:
    kind, case = _case("trick/highest-wins-takes-extras-p6")
    other = {**case["ruleset"], "pass_cycle": ["right"], "pass_count": 2}
    moved = rerouted(case, other)
    assert moved is not None and holds(moved, kind)
    passes = [a for a in moved["prefix"] if a["type"] == "pass"]
    assert [(a["seat"], len(a["cards"])) for a in passes] == [(s, 2) for s in (1, 2, 3, 4, 5, 0)]
    assert all("2C" not in a["cards"] for a in passes)  # a 2C never moves


def test_another_opening_lead_is_reached_by_another_dealer() -> None:
    kind, case = _case("trick/card-rank-5d-p8")
    clubs = {**case["ruleset"], "opening_lead": "two-of-clubs", "pass_cycle": ["hold"]}
    moved = rerouted(case, clubs)
    assert moved is not None and holds(moved, kind)
    assert (case["start"]["dealer"], moved["start"]["dealer"]) == (0, 0)
    last = {**case["ruleset"], "opening_lead": "left-of-dealer", "pass_cycle": ["left"]}
    assert rerouted(case, last) is not None


def test_passing_cases_and_position_forms_have_no_route_to_rebuild() -> None:
    cases = dict((c["id"], c) for _, c in _cases())
    assert not reroutable(cases["trick/highest-wins-takes-extras-p6.position"])
    assert not any(reroutable(c) for k, c in _cases() if k == "passing"
                   and any(s["action"] and s["action"]["type"] == "pass" for s in c["steps"]))
    assert all((REROUTED in c) == reroutable(c) for _, c in _cases())
    assert sum(REROUTED in c for _, c in _cases()) == 462


# --- re-scored figures ------------------------------------------------------------------------


def test_a_case_whose_game_stays_the_same_is_sent_with_the_figures_of_the_values_sent() -> None:
    kind, case = _case("scoring/last-trick-void-nobody-p8")
    minus = {**case["ruleset"], "ten_of_diamonds_points": -10}
    assert not holds(case, kind, minus)  # seat 5 collected a 10D: its figures differ
    scored = rescored(case, minus)
    assert scored is not None and holds(scored, kind)
    [step] = scored["steps"]
    seen = step["expect"]["observation"]
    assert case["steps"][0]["expect"]["observation"]["points"] == [0, 1, 0, 34, 3, 0, 5, 5]
    assert seen["points"] == seen["deal_scores"] == seen["totals"] == [0, 1, 0, 24, 3, -10, 5, 5]
    assert scored["start"]["ruleset"] == scored["ruleset"] == minus
    assert scored["prefix"] is case["prefix"] and "facts" not in scored
    # the value it was re-scored under is what it tests: the case's own value gives other results
    assert not holds(scored, kind, case["ruleset"])


def test_a_case_whose_game_changes_or_does_not_is_not_re_scored() -> None:
    kind, case = _case("legal-plays/broken-by-queen-p6")
    # under hearts_broken_by heart the QS breaks nothing: hearts_broken, a figure, changes, but
    # so does the legal list, which is the game
    assert rescored(case, {**case["ruleset"], "hearts_broken_by": "heart"}) is None
    kind, case = _case("trick/highest-wins-takes-extras-p6")
    assert holds(case, kind, {**case["ruleset"], "target": 100})
    assert rescored(case, {**case["ruleset"], "target": 100}) is None  # nothing to re-score
    _, perft_case = _case("perft/trick2-end-p11")
    assert rescored(perft_case, {**perft_case["ruleset"], "ten_of_diamonds_points": -10}) is None


def test_a_run_re_scores_only_what_no_substitute_or_route_sends() -> None:
    cases = _cases()
    result = shares.correct_run(cases, shares.engine(Ruleset.from_dict(
        {"ten_of_diamonds_points": -10}), 1))
    assert "scoring/last-trick-void-nobody-p8" in result.rescored
    sent = result.rescored["scoring/last-trick-void-nobody-p8"]
    assert sent["ruleset"]["ten_of_diamonds_points"] == -10
    # a case that holds under the engine's values is sent as it is
    assert "trick/highest-wins-takes-extras-p6" not in result.rescored
    assert all(result.sent[i]["ten_of_diamonds_points"] == -10 for i in result.rescored)
    assert len(result.rescored) == RESCORED_TEN


#: How many cases a correct engine of ten_of_diamonds_points -10 (protocol 1) is sent re-scored.
RESCORED_TEN = 172


# --- cases built for a value ----------------------------------------------------------------


@pytest.mark.parametrize(("switch", "value", "changes"), [
    ("moon", "choice-26", {"opening_lead": "two-of-clubs"}),
    ("moon_pair", "none", {"target": 50}),
    ("pass_forbidden", "none", {"pass_count": 2}),
])
def test_a_case_built_for_a_value_tests_it_under_the_engines_ruleset(
        switch: str, value: object, changes: dict[str, object]) -> None:
    built = served.build(switch, value, changes)
    assert built is not None
    kind, case = built
    assert case["ruleset"] == Ruleset.from_dict(changes).to_dict()
    assert holds(case, kind)
    differs = depends_on(case, kind)
    assert differs.get(switch) and value not in differs[switch]
    assert served.slug(changes) in case["id"]


def test_the_frozen_files_hold_the_cases_built_for_each_value() -> None:
    tags = [served.slug(changes) for changes in shares.single_values()]
    ids = {c["id"] for _, c in _cases() if not c["id"].endswith(".position")}
    assert sorted(i for i in ids if any(f"-for-{tag}-p" in i for tag in tags)) == BUILT


#: The cases built for what a correct engine of one value would leave untested.
BUILT = [
    "moon/choice-subtract-for-first-trick-points-forbidden-even-following-p8",
    "moon/choice-subtract-for-first-trick-points-forbidden-p8",
    "moon/choice-subtract-for-opening-lead-two-of-clubs-dealt-p8",
    "moon/choice-subtract-for-opening-lead-two-of-clubs-p8",
    "passing/two-of-clubs-for-pass-count-2-p6",
    "scoring/ordinary-for-first-trick-points-forbidden-even-following-p10",
    "scoring/ordinary-for-first-trick-points-forbidden-p10",
    "scoring/ordinary-for-opening-lead-two-of-clubs-dealt-p11",
    "scoring/ordinary-for-opening-lead-two-of-clubs-p11",
    "scoring/two-seats-all-points-for-first-trick-points-forbidden-even-following-p8",
    "scoring/two-seats-all-points-for-first-trick-points-forbidden-p8",
    "scoring/two-seats-all-points-for-opening-lead-two-of-clubs-dealt-p8",
    "scoring/two-seats-all-points-for-opening-lead-two-of-clubs-p8",
    "scoring/two-seats-all-points-for-target-50-p8",
]


# --- a correct engine of one ruleset ---------------------------------------------------------

#: A correct engine of each single non-default value, protocol 1 without positions: the
#: subjects it tests (of 519) and the exit status of its run.
SINGLES_PROTOCOL_1: dict[str, tuple[int, int]] = {
    "min_players 5": (441, 0), "pass_count 2": (422, 0), "pass_cycle hold": (422, 0),
    "pass_cycle right": (428, 0), "pass_cycle left": (436, 0),
    "pass_cycle left,right,across,hold": (444, 0), "pass_cycle left,right,across": (442, 0),
    "pass_cycle left,right,left-2,right-2,left-3,right-3,across,hold": (443, 0),
    "pass_cycle hold,left,left-2,right-2,right": (425, 0),
    "pass_forbidden two-of-clubs": (432, 0),
    "opening_lead left-of-dealer-no-scoring": (438, 0), "opening_lead two-of-clubs": (338, 0),
    "opening_lead two-of-clubs-dealt": (335, 0), "first_trick_points forbidden": (416, 0),
    "first_trick_points forbidden-even-following": (402, 0),
    "first_trick_two_of_clubs must-play": (357, 0), "hearts_broken_by heart": (438, 0),
    "hearts_broken_by heart-discard": (437, 0), "hearts_broken_by heart-not-led": (438, 0),
    "hearts_broken_by not-needed": (431, 0), "last_trick_void leader": (434, 0),
    "last_trick_void split-highest-pair": (436, 0),
    "last_trick_void split-points-highest-pair": (437, 0), "moon others-52": (431, 0),
    "moon others-104": (431, 0), "moon_pair others-26": (438, 0),
    "ten_of_diamonds_points -10": (436, 0), "target 100": (438, 0), "target 50": (430, 0),
    "target 200": (433, 0),
}


def test_a_correct_engine_of_each_single_value_gets_most_of_the_suite() -> None:
    cases = _cases()
    got = {shares.label(changes): shares.outcome(cases, changes, 1)[::2]
           for changes in shares.single_values()}
    assert got == SINGLES_PROTOCOL_1
    # every one passes, and at least 60% of the suite applies to it
    assert all(tested >= shares.FLOOR * 519 and status == 0 for tested, status in got.values())


@pytest.mark.untraced
@pytest.mark.parametrize("changes", [{"pass_count": 2}, {"opening_lead": "two-of-clubs"},
                                     {"ten_of_diamonds_points": -10}])
def test_the_reference_adapter_as_an_engine_of_one_ruleset_reports_what_the_metadata_says(
        changes: dict[str, object]) -> None:
    code, out, _ = cli("vectors", "run", "--json", "--", sys.executable, "-m",
                       "rules_ref.protocol.reference_adapter", "--protocol", "1", "--ruleset",
                       json.dumps(changes))
    report = json.loads(out)
    tested, total, status = shares.outcome(_cases(), changes, 1)
    assert (code, report["totals"]["tested"], report["totals"]["counted"]) == \
        (status, tested, total)
    assert report["totals"]["failed"] == 0


def test_an_engine_of_one_ruleset_declares_it_at_the_counts_it_plays() -> None:
    assert engine_supports(Ruleset.from_dict({"min_players": 5, "target": 100})) == {
        "players": [5, 6, 7, 8, 9, 10, 11],
        "switches": {"min_players": [5], "target": [100]}}
    assert engine_supports(Ruleset.from_dict({"pass_cycle": ["left-4"]}))["players"] == \
        [6, 7, 8, 9, 10, 11]
    assert engine_supports(Ruleset.from_dict({"pass_cycle": ["left-6"]}))["players"] == \
        [7, 8, 9, 10, 11]


def test_the_random_combinations_are_drawn_alike_each_time() -> None:
    drawn = shares.combinations()
    assert drawn == shares.combinations()
    assert len(drawn) == shares.COMBINATIONS
    assert all(len(c) == shares.COMBINED for c in drawn)


# --- engines wrong about one card ----------------------------------------------------------


def test_every_fault_of_every_card_fails_some_trick_vector() -> None:
    cases = [c for _, c in _cases()]
    assert card_gaps(cases) == []
    matrix = card_matrix(cases)
    assert {fault: len(counts) for fault, counts in matrix.items()} == {
        "cancel": 52, "rank": 52, "points": 52, "breaks": 13}
    assert all(n > 0 for counts in matrix.values() for n in counts.values())
    assert tuple(matrix) == FAULTS


def test_without_the_card_cases_most_single_card_faults_go_unseen() -> None:
    # the mechanism, not a given case: the cases of the played deals and the hand-built tricks
    # catch a cancellation fault of fewer than half the cards
    cases = [c for _, c in _cases() if "/card-" not in c["id"]]
    caught = sum(1 for n in card_matrix(cases)["cancel"].values() if n)
    assert caught == 24


@pytest.mark.untraced
@pytest.mark.parametrize("card", ["10S", "2C"])
def test_an_engine_whose_two_copies_of_a_card_do_not_cancel_fails_the_vectors(
        card: str) -> None:
    code, out, _ = cli("vectors", "run", "--kinds", "trick", "--json", "--",
                       *vector_adapters.command("uncancelled", card))
    failed = {c["id"] for c in json.loads(out)["cases"] if c["status"] == "fail"}
    expected = {c["id"] for k, c in _cases() if k == "trick"
                and fails(c, parse_card(card), "cancel")}
    assert code == 1
    # the model reads each case's last trick (a form's from its position), and finds no
    # failure the engine does not have; the engine also fails cases whose prefix holds such
    # a pair (another winner earlier in the deal)
    assert expected and expected <= failed
    assert any(f"/card-cancel-{card.lower()}-" in i for i in failed)


def test_the_fault_model_reads_each_card_case_as_its_id_says() -> None:
    by_id = {c["id"]: c for _, c in _cases() if not c["id"].endswith(".position")}
    for card in CARDS:
        text = str(card).lower()
        cancel = [c for i, c in by_id.items() if i.startswith(f"trick/card-cancel-{text}-")]
        assert len(cancel) == 1 and fails(cancel[0], card, "cancel"), text
        if card.rank > 2:
            rank = [c for i, c in by_id.items() if i.startswith(f"trick/card-rank-{text}-")]
            assert len(rank) == 1 and fails(rank[0], card, "rank"), text


# --- forms that cannot test what the case claims ---------------------------------------------


def test_a_form_whose_position_holds_the_claimed_outcome_is_withdrawn() -> None:
    ids = {c["id"] for _, c in _cases()}
    _, case = _case("legal-plays/broken-by-queen-p6")
    state = prefix_state(case)
    # the Q-spades of the prefix broke hearts: a form would start with hearts broken, so an
    # engine whose Q-spades never breaks hearts would pass it
    assert state.hearts_broken and settled(case, state) == ["HEARTS.BROKEN"]
    assert position_form(case) is None
    assert "legal-plays/broken-by-queen-p6.position" not in ids
    # a trick whose last card breaks hearts keeps its form: the step shows the change
    _, kept = _case("trick/card-cancel-10s-p8")
    assert settled(kept, prefix_state(kept)) == []
    assert "trick/card-cancel-10s-p8.position" in ids
    withdrawn = [c["id"] for k, c in _cases() if k in POSITION_KINDS and not
                 c["id"].endswith(".position") and c["prefix"] and f"{c['id']}.position"
                 not in ids and settled(c, prefix_state(c))]
    assert len(withdrawn) == 7
