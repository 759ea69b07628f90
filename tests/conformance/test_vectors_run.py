"""``rules-ref vectors run`` says honestly what it tested.

* A run in which no case applied exits 4 and says why; one that tested
  less than half of its cases exits 5 unless ``--allow-partial``.
* A skip names every value the adapter does not declare.
* A failure in a case's prefix is reported as such and blamed on the step
  that differed, as ``conform`` blames it.
* A case over its time bound fails as a timeout; the run goes on.
* ``--json`` and ``--junit FILE`` carry the same report; a fault prints no totals.

The adapters are small scripts (``vector_adapters.py``, ``broken_adapters.py``).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rules_ref import vectors
from rules_ref.cli import main
from rules_ref.vectors import running
from tests.conformance import broken_adapters, vector_adapters

ADAPTER = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
V1 = str(vectors.version_dir(1))


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


MOON_NEEDS = ("8 players (8 cases), opening_lead left-of-dealer (8 cases), 9 players (1 case), "
              "last_trick_void leader (1 case), last_trick_void split-highest-pair (1 case), "
              "moon others-104 (1 case), moon others-52 (1 case), opening_lead "
              "left-of-dealer-no-scoring (1 case), pass_count 2 (1 case), pass_cycle left "
              "(1 case), pass_cycle right (1 case), target 100 (1 case), "
              "ten_of_diamonds_points -10 (1 case)")


def test_nothing_tested_is_not_a_pass() -> None:
    code, out, err = cli("vectors", "run", "--quiet", "--dir", V1, "--kinds", "moon", "--",
                         *vector_adapters.command("declares-nothing"))
    assert (code, err) == (running.EXIT_NOTHING_TESTED, "")
    assert code == 4
    assert out.splitlines() == [
        "0 passed, 0 failed, 9 skipped; tested 0 of 9 cases (0%)",
        "nothing was tested: every case needs a switch value or player count the adapter "
        f"does not declare: {MOON_NEEDS}"]


@pytest.mark.untraced
def test_nothing_tested_over_every_vector_exits_4() -> None:
    code, out, _ = cli("vectors", "run", "--quiet", "--dir", V1, "--",
                       *vector_adapters.command("declares-nothing"))
    lines = out.splitlines()
    assert code == 4
    assert lines[0] == "0 passed, 0 failed, 125 skipped; tested 0 of 125 cases (0%)"
    assert lines[1].startswith("nothing was tested: every case needs a switch value or player "
                               "count the adapter does not declare: opening_lead "
                               "left-of-dealer (99 cases), 6 players (57 cases), ")
    assert len(lines) == 2


PARTIAL_NEEDS = ("9 players (1 case), last_trick_void leader (1 case), last_trick_void "
                 "split-highest-pair (1 case), moon others-104 (1 case), moon others-52 "
                 "(1 case), opening_lead left-of-dealer-no-scoring (1 case), pass_count 2 "
                 "(1 case), pass_cycle left (1 case), pass_cycle right (1 case), target 100 "
                 "(1 case), ten_of_diamonds_points -10 (1 case)")


def test_a_small_share_tested_exits_5_unless_allowed() -> None:
    adapter = vector_adapters.command("eight-players")
    code, out, _ = cli("vectors", "run", "--quiet", "--dir", V1, "--kinds", "moon", "--",
                       *adapter)
    assert code == running.EXIT_PARTIAL == 5
    assert out.splitlines() == [
        "3 passed, 0 failed, 6 skipped; tested 3 of 9 cases (33%)",
        "too little was tested: tested 3 of 9 cases (33%), below the 50% a run needs "
        f"(--allow-partial accepts it); the skipped cases need: {PARTIAL_NEEDS}"]
    code, out, _ = cli("vectors", "run", "--quiet", "--allow-partial", "--dir", V1, "--kinds",
                       "moon", "--", *adapter)
    assert code == 0
    assert out.splitlines() == [
        "3 passed, 0 failed, 6 skipped; tested 3 of 9 cases (33%)",
        f"partial run: tested 3 of 9 cases (33%) (allowed); the skipped cases need: "
        f"{PARTIAL_NEEDS}"]


def test_skip_lines_name_every_missing_value() -> None:
    code, out, _ = cli("vectors", "run", "--allow-partial", "--dir", V1, "--kinds", "moon", "--",
                       *vector_adapters.command("eight-players"))
    assert code == 0
    skips = [line for line in out.splitlines() if line.startswith("SKIP")]
    assert skips == [
        "SKIP moon/others-52-boardgamegeek-p8: not declared by the adapter: pass_count 2, "
        "pass_cycle left, moon others-52",
        "SKIP moon/others-104-p8: not declared by the adapter: moon others-104",
        "SKIP moon/subtract-with-10d-hubpages-p8: not declared by the adapter: pass_cycle "
        "right, opening_lead left-of-dealer-no-scoring, ten_of_diamonds_points -10, target 100",
        "SKIP moon/through-extras-p9: not declared by the adapter: 9 players",
        "SKIP moon/void-last-trick-leader-moon-wikipedia-p8: not declared by the adapter: "
        "last_trick_void leader",
        "SKIP moon/void-last-trick-split-no-moon-p8: not declared by the adapter: "
        "last_trick_void split-highest-pair"]


@pytest.mark.rule("LEAD.OPENING_LEADER")
def test_a_prefix_failure_is_blamed_on_the_first_step_that_differed() -> None:
    code, out, _ = cli("vectors", "run", "--quiet", "--dir", V1, "--kinds", "moon", "--",
                       *broken_adapters.command("dealer-leads"))
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == (
        "FAIL moon/choice-subtract-p8 [LEAD.OPENING_LEADER]: prefix action 9 (seat 1 plays AC) "
        "rejected: TURN.ORDER: it is seat 0's turn, not seat 1's; the game already differed "
        "from the reference after prefix action 8 (seat 0 passes KC AC AC): to_act: expected 1, "
        "got 0; leader: expected 1, got 0")
    # every case (prefix action 10 at 9 players: one more pass)
    assert [line.split(" (seat 1 plays AC) rejected: TURN.ORDER: ")[0].split(" [")[1]
            for line in lines[:9]] == ["LEAD.OPENING_LEADER]: prefix action 9"] * 5 + [
        "LEAD.OPENING_LEADER]: prefix action 10"] + ["LEAD.OPENING_LEADER]: prefix action 9"] * 3
    assert lines[9:] == ["0 passed, 9 failed, 0 skipped; tested 9 of 9 cases (100%)"]


@pytest.mark.rule("TRICK.CANCEL")
def test_a_rejected_prefix_action_is_blamed_on_its_own_rule() -> None:
    code, out, _ = cli("vectors", "run", "--quiet", "--dir", V1, "--kinds", "legal-plays", "--",
                       *broken_adapters.command("twin-refused"))
    assert code == 1
    # a card identical to one in the trick, refused: the rule that lets identical cards cancel
    assert out.splitlines()[0] == (
        "FAIL legal-plays/after-void-trick1-queen-only-p6 [TRICK.CANCEL]: prefix action 8 "
        "(seat 2 plays 5C) rejected: that card is already on the table")


def test_a_case_over_its_time_bound_fails_and_the_run_goes_on() -> None:
    # the adapter never answers the one 9-player start; 3 s is far more than any other
    # moon case needs, even on a much slower machine
    code, out, err = cli("vectors", "run", "--quiet", "--case-timeout", "3", "--dir", V1,
                         "--kinds", "moon", "--", *vector_adapters.command("hangs-at-nine"))
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "FAIL moon/through-extras-p9 [EXTRAS.FIRST_TRICK, MOON.CHOICE, MOON.CONDITION]: timed "
        "out: the case ran past its time bound of 3 s (--case-timeout); the run goes on with a "
        "fresh adapter",
        "8 passed, 1 failed, 0 skipped; tested 9 of 9 cases (100%)"]


def test_json_report() -> None:
    code, out, err = cli("vectors", "run", "--json", "--dir", V1, "--kinds", "moon", "--",
                         *vector_adapters.command("eight-players"))
    assert (code, err) == (5, "")
    report = json.loads(out)
    assert sorted(report) == ["adapter", "cases", "exit_status", "fault", "format",
                              "min_tested_share", "needs", "rules", "totals", "vectors",
                              "verdict"]
    assert (report["format"], report["verdict"], report["exit_status"], report["fault"]) == \
        ("cancellation-hearts-vectors-run", "partial", 5, None)
    assert report["totals"] == {"passed": 3, "failed": 0, "skipped": 6, "tested": 3,
                                "counted": 9, "cases": 9}
    assert report["vectors"]["contract_version"] == 1
    assert report["adapter"]["name"] == "rules-ref reference adapter"
    assert report["rules"]["MOON.CONDITION"] == {"passed": 3, "failed": 0, "skipped": 6}
    assert report["needs"]["9 players"] == 1
    assert report["cases"][5] == {
        "id": "moon/through-extras-p9", "kind": "moon", "status": "skip", "rules": [],
        "message": "not declared by the adapter: 9 players", "unsupported": ["9 players"]}


def test_junit_report(tmp_path: Path) -> None:
    target = tmp_path / "vectors.xml"
    code, _, _ = cli("vectors", "run", "--quiet", "--junit", str(target), "--dir", V1,
                     "--kinds", "moon,illegal-action", "--",
                     *broken_adapters.command("dealer-leads"))
    assert code == 1
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert [p.name for p in tmp_path.iterdir()] == ["vectors.xml"]  # no temporary file left
    assert (root.tag, root.get("tests"), root.get("errors")) == ("testsuites", "43", "0")
    suites = {s.get("name", ""): s for s in root.findall("testsuite")}
    assert sorted(suites) == ["illegal-action", "moon"]
    moon = suites["moon"]
    assert (moon.get("tests"), moon.get("failures"), moon.get("skipped")) == ("9", "9", "0")
    first = moon.findall("testcase")[0]
    assert (first.get("classname"), first.get("name")) == ("vectors.moon",
                                                          "moon/choice-subtract-p8")
    failure = first.find("failure")
    assert failure is not None
    assert failure.get("type") == "LEAD.OPENING_LEADER"
    assert failure.get("message", "").startswith("prefix action 9 (seat 1 plays AC) rejected: ")
    assert (failure.text or "").startswith("FAIL moon/choice-subtract-p8 [LEAD.OPENING_LEADER]")
    cases = [c.get("name") for s in suites.values() for c in s.findall("testcase")]
    assert len(cases) == len(set(cases)) == 43


def test_junit_path_is_checked_before_the_run(tmp_path: Path) -> None:
    code, out, err = cli("vectors", "run", "--junit", str(tmp_path / "no" / "x.xml"), "--",
                         str(tmp_path / "no-such-adapter"))
    assert (code, out) == (2, "")
    assert err == f"rules-ref vectors: error: {tmp_path / 'no' / 'x.xml'}: directory " \
                  f"{tmp_path / 'no'} does not exist\n"


def test_a_fault_prints_no_totals(tmp_path: Path) -> None:
    code, out, err = cli("vectors", "run", "--", str(tmp_path / "no-such-adapter"))
    assert (code, out) == (2, "")
    assert "adapter start: command not found" in err
    code, out, err = cli("vectors", "run", "--json", "--", str(tmp_path / "no-such-adapter"))
    report = json.loads(out)
    assert (code, report["verdict"], report["exit_status"]) == (2, "fault", 2)
    assert report["fault"]["kind"] == "start"
    assert report["cases"] == []


@pytest.mark.rule("LEAD.OPENING_LEADER", "MOON.CONDITION", "MOON.CHOICE")
def test_position_starts_reach_what_a_different_opening_lead_hides() -> None:
    # the engine's opening leader differs: every full replay fails in its prefix, and every
    # position-start form, which begins after the opening lead, runs and passes
    code, out, _ = cli("vectors", "run", "--kinds", "moon", "--",
                       *broken_adapters.command("dealer-leads"))
    lines = out.splitlines()
    assert code == 1
    replays = [c["id"] for _, c in vectors.iter_cases(vectors.load_dir(vectors.latest_dir()),
                                                      ["moon"]) if "position" not in c["start"]]
    assert len(replays) == 9
    assert [line.split(" [")[0] for line in lines[:18]] == [
        line for i in replays for line in (f"FAIL {i}", f"PASS {i}.position")]
    assert lines[-1] == "9 passed, 9 failed, 0 skipped; tested 18 of 18 cases (100%)"


def test_a_version_1_adapter_skips_the_position_starts_naming_the_capability() -> None:
    code, out, _ = cli("vectors", "run", "--kinds", "trick", "--", *ADAPTER, "--protocol", "1")
    lines = out.splitlines()
    assert code == 0
    assert lines[:2] == [
        "PASS trick/highest-wins-takes-extras-p6",
        "SKIP trick/highest-wins-takes-extras-p6.position: not declared by the adapter: "
        "capability position (a start from a position, protocol version 2)"]
    assert lines[-1] == "12 passed, 0 failed, 12 skipped; tested 12 of 12 cases (100%); 12 " \
        "position-start forms not counted: the adapter cannot start from a position, and " \
        "their full-replay cases ran"


def test_an_internal_failure_of_the_implementation_fails_the_case_saying_so() -> None:
    code, out, _ = cli("vectors", "run", "--quiet", "--kinds", "trick", "--",
                       *vector_adapters.command("fails-at-queen"))
    assert code == 1
    assert out.splitlines() == [
        "FAIL trick/collect-two-voids-p8 [SCORE.CARD_POINTS, TRICK.WINNER, VOID.COLLECT, "
        "VOID.LEADER, VOID.TRICK]: prefix action 29 (seat 5 plays QS): the implementation "
        "failed internally: RuntimeError: no rule for the queen of spades",
        "FAIL trick/cancelled-queens-score-p11 [SCORE.CARD_POINTS, TRICK.CANCEL, TRICK.WINNER]: "
        "prefix action 20 (seat 9 plays QS): the implementation failed internally: "
        "RuntimeError: no rule for the queen of spades",
        "FAIL trick/void-all-paired-p10 [EXTRAS.FIRST_TRICK, HEARTS.BROKEN, TRICK.CANCEL, "
        "VOID.TRICK]: prefix action 19 (seat 9 plays QS): the implementation failed "
        "internally: RuntimeError: no rule for the queen of spades",
        "FAIL trick/void-all-paired-p10.position [EXTRAS.FIRST_TRICK, HEARTS.BROKEN, "
        "TRICK.CANCEL, VOID.TRICK]: step 1 (seat 0 plays QS): the implementation failed "
        "internally: RuntimeError: no rule for the queen of spades",
        "20 passed, 4 failed, 0 skipped; tested 24 of 24 cases (100%)"]


def test_the_exit_statuses_are_documented_as_the_code_has_them() -> None:
    readme = (vectors.version_dir(1).parent / "README.md").read_text(encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as ended:
        main(["vectors", "run", "--help"])
    assert ended.value.code == 0
    help_text = " ".join(out.getvalue().split())
    for status, words in ((running.EXIT_PASS, "every case that ran passed"),
                          (running.EXIT_FAILED, "a case failed"),
                          (running.EXIT_FAULT, "an adapter fault"),
                          (running.EXIT_NOTHING_TESTED, "nothing was tested"),
                          (running.EXIT_PARTIAL, "too little was tested")):
        assert f"{status} {words}" in help_text, status
    assert "| 4 | nothing was tested |" in readme
    assert "| 5 | less than half of the cases ran, without `--allow-partial` |" in readme
    assert running.MIN_TESTED_SHARE == 0.5
    assert running.CASE_SECONDS == 60.0
    assert '"min_tested_share": 0.5' in readme
    assert "`--case-timeout S` (default\n60)" in readme
