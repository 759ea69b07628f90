"""The suite over a population of engines: rebuilt routes, correct engines of one ruleset, and
engines wrong about one card.

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
from rules_ref.vectors import shares
from rules_ref.vectors.card_faults import FAULTS, card_gaps, card_matrix, fails
from rules_ref.vectors.position_forms import POSITION_KINDS, position_form, prefix_state, settled
from rules_ref.vectors.requirements import REROUTED, end_of_prefix, holds
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
    assert sum(REROUTED in c for _, c in _cases()) == 449


# --- a correct engine of one ruleset ---------------------------------------------------------

#: A correct engine of each single non-default value, protocol 1 without positions: the
#: subjects it tests (of 505) and the exit status of its run.
SINGLES_PROTOCOL_1: dict[str, tuple[int, int]] = {
    "min_players 5": (371, 0), "pass_count 2": (351, 5), "pass_cycle hold": (352, 0),
    "pass_cycle right": (358, 0), "pass_cycle left": (366, 0),
    "pass_cycle left,right,across,hold": (374, 0), "pass_cycle left,right,across": (372, 0),
    "pass_cycle left,right,left-2,right-2,left-3,right-3,across,hold": (373, 0),
    "pass_cycle hold,left,left-2,right-2,right": (355, 0),
    "pass_forbidden two-of-clubs": (362, 0),
    "opening_lead left-of-dealer-no-scoring": (368, 0), "opening_lead two-of-clubs": (287, 5),
    "opening_lead two-of-clubs-dealt": (284, 5), "first_trick_points forbidden": (352, 5),
    "first_trick_points forbidden-even-following": (342, 5),
    "first_trick_two_of_clubs must-play": (299, 0), "hearts_broken_by heart": (413, 0),
    "hearts_broken_by heart-discard": (387, 0), "hearts_broken_by heart-not-led": (413, 0),
    "hearts_broken_by not-needed": (361, 0), "last_trick_void leader": (367, 0),
    "last_trick_void split-highest-pair": (368, 0),
    "last_trick_void split-points-highest-pair": (369, 0), "moon others-52": (365, 0),
    "moon others-104": (365, 0), "moon_pair others-26": (368, 0),
    "ten_of_diamonds_points -10": (264, 5), "target 100": (367, 0), "target 50": (364, 5),
    "target 200": (363, 0),
}


def test_a_correct_engine_of_each_single_value_gets_most_of_the_suite() -> None:
    cases = _cases()
    got = {shares._label(changes): shares.outcome(cases, changes, 1)[::2]
           for changes in shares.single_values()}
    assert got == SINGLES_PROTOCOL_1
    served = [label for label, (tested, status) in got.items()
              if tested >= shares.FLOOR * 505 and status == 0]
    assert len(served) == len(got) - len(UNSERVED)
    assert sorted(set(got) - set(served)) == sorted(UNSERVED)


#: The single values below the floor (60%) or whose run does not pass: cases of trick 1 led
#: by another card than the 2C, points counted with the 10D, and values the run calls
#: untested because the cases that test them need another value (spec/vectors/README.md).
UNSERVED = ["pass_count 2", "opening_lead two-of-clubs",
            "opening_lead two-of-clubs-dealt", "first_trick_points forbidden",
            "first_trick_points forbidden-even-following", "first_trick_two_of_clubs must-play",
            "ten_of_diamonds_points -10", "target 50"]


@pytest.mark.untraced
@pytest.mark.parametrize("changes", [{"pass_cycle": ["hold"]}, {"pass_count": 2},
                                     {"opening_lead": "two-of-clubs"}])
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
@pytest.mark.parametrize("card", ["10S", "2C", "3C", "AH"])
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
