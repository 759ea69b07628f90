"""``rules-ref vectors run`` says honestly what it tested.

* A run in which no case applied exits 4 and says why; one that left a
  declared value untested, although a vector tests it, exits 5 unless
  ``--allow-partial``; an engine of the default rules, or of a public
  engine's preset, passes.
* A case runs with the adapter's value of a switch it does not depend on;
  a case and its position-start form count once.
* Identical failures are printed once, with their count.
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
from rules_ref.vectors import running, shares
from rules_ref.vectors.kinds import played
from tests.fakes import broken_adapters, vector_adapters

ADAPTER = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
V1 = str(vectors.version_dir(1))


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def hand_built(tmp_path: Path) -> str:
    """``spec/vectors/v2`` without the cases taken from deals played under the presets
    (``rules_ref/vectors/kinds/played.py``) and the card-level tricks: the hand-built cases
    these tests name."""
    for f in vectors.load_dir(vectors.latest_dir()):
        kept = [c for c in f.cases if not played.from_a_played_deal(str(c["id"]))
                and not str(c["id"]).startswith("trick/card-")]
        (tmp_path / f.path.name).write_text(vectors.dumps({**f.data, "cases": kept}),
                                            encoding="utf-8")
    return str(tmp_path)


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


def test_a_declared_value_left_untested_exits_5_unless_allowed() -> None:
    # an engine that passes 2 cards and never the 2C declares pass_forbidden two-of-clubs,
    # which only passing cases of 3 cards test
    adapter = [sys.executable, "-m", "rules_ref.protocol.reference_adapter", "--protocol", "1",
               "--ruleset", '{"pass_count": 2, "pass_forbidden": "two-of-clubs"}']
    code, out, _ = cli("vectors", "run", "--quiet", "--", *adapter)
    lines = out.splitlines()
    assert code == running.EXIT_PARTIAL == 5
    assert lines[0].startswith("421 passed, 0 failed, ")
    assert lines[1].startswith("too little was tested: declared but not tested: pass_forbidden "
                               "two-of-clubs")
    assert lines[1].endswith("(--allow-partial accepts it)")
    code, out, _ = cli("vectors", "run", "--quiet", "--allow-partial", "--", *adapter)
    assert code == 0
    assert out.splitlines()[1].startswith(
        "partial run (allowed): declared but not tested: pass_forbidden two-of-clubs")


NOT_DECLARED = ["not declared, so not tested:", "  5 players", "  min_players 5",
                "  pass_count 2"]


@pytest.mark.untraced
@pytest.mark.parametrize("name", ["defaults", "defaults-no-position"])
def test_a_correct_engine_of_the_default_rules_passes(name: str) -> None:
    code, out, _ = cli("vectors", "run", "--quiet", "--", *vector_adapters.command(name))
    lines = out.splitlines()
    assert code == 0
    assert lines[0].endswith("; a case and its position-start form count once")
    assert lines[1:5] == ["declared, but no vector at the declared player counts tests it: "
                          "min_players 6", *NOT_DECLARED[:3]]
    # then one line per switch with values not declared (13 of them), after the players
    assert len(lines) == 3 + 1 + 13


def _share(name: str, low: int, high: int) -> tuple[int, int, int]:
    """A run of the adapter declaring preset ``name`` (from spec/variants.toml) at ``low`` to
    ``high`` players: exit status, subjects tested and subjects in all."""
    code, out, _ = cli("vectors", "run", "--json", "--", *vector_adapters.command(
        "preset", name, str(low), str(high)))
    totals = json.loads(out)["totals"]
    return code, totals["tested"], totals["counted"]


def _protocol_cases() -> list[tuple[str, vectors.Case]]:
    return [(f.kind, c) for f, c in vectors.iter_cases(vectors.load_dir(vectors.latest_dir()),
                                                       vectors.PROTOCOL_KINDS)]


@pytest.mark.untraced
def test_the_public_engines_presets_pass_and_test_what_their_share_says() -> None:
    # a run of the adapter declaring each public engine's preset (read from
    # spec/variants.toml) at its player counts passes, and tests exactly the share that
    # vectors.shares computes without a run
    cases = _protocol_cases()
    for name, players in shares.PUBLIC_ENGINES.items():
        code, tested, counted = _share(name, players[0], players[-1])
        assert (code, (tested, counted)) == (
            0, shares.share(cases, shares.declared(name, players))), name


def test_at_least_60_percent_of_the_suite_applies_to_each_public_engine() -> None:
    got = shares.public_shares(_protocol_cases())
    assert got == {"allanh": (337, 519), "crcowan": (446, 519)}
    assert shares.FLOOR == 0.6
    assert all(tested >= shares.FLOOR * total for tested, total in got.values())
    # the figures the runner contract states are these
    readme = (Path(V1).parent / "README.md").read_text(encoding="utf-8")
    for name, (tested, total) in got.items():
        assert f"| {tested} of {total} ({100 * tested / total:.1f}%) |" in readme, name
    assert shares.public_lines(_protocol_cases()) == [
        "share of the suite that applies to the public engines (their preset, their player "
        "counts, the capability position):",
        "  allanh (8 players): 337 of 519 cases (64.9%)",
        "  crcowan (5 to 11 players): 446 of 519 cases (85.9%)"]


def test_a_share_counts_a_case_and_its_position_start_form_once() -> None:
    # without the capability position only the full replays run: the 48 subjects whose
    # position-start form alone applies drop out, and the subjects are counted alike
    cases = _protocol_cases()
    with_position = shares.declared("allanh", [8])
    assert shares.share(cases, with_position) == (337, 519)
    assert shares.share(cases, {**with_position, "capabilities": []}) == (289, 519)


def test_a_switch_the_case_does_not_depend_on_takes_the_adapters_value(tmp_path: Path) -> None:
    # crcowan's min_players 5 and target 100: a trick of 6 players in deal 1 is the same
    code, out, _ = cli("vectors", "run", "--verbose", "--dir", hand_built(tmp_path), "--kinds",
                       "trick", "--", *vector_adapters.command("preset", "crcowan", "5", "11"))
    lines = out.splitlines()
    assert code == 5  # the trick cases of 9 to 11 players are on trick 1, or break hearts
    assert "too little was tested: declared but not tested: 9, 10, 11 players; the cases " \
        "that test them need: first_trick_points allowed, hearts_broken_by heart-or-queen " \
        "(--allow-partial accepts it)" in lines
    assert "PASS trick/void-trick1-extras-pending-p6" in lines
    assert "SKIP trick/seed-example-p6: not declared by the adapter: first_trick_points " \
        "allowed" in lines


def test_skip_lines_name_every_missing_value() -> None:
    code, out, _ = cli("vectors", "run", "--verbose", "--allow-partial", "--dir", V1, "--kinds",
                       "moon", "--",
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
        "last_trick_void leader"]
    # the split void last trick without a moon is the same game under last_trick_void
    # nobody: it runs, with the points the reference gives there (re-scored)
    assert "PASS moon/void-last-trick-split-no-moon-p8" in out.splitlines()


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
    # every case (prefix action 10 at 9 players: one more pass); the failures that repeat
    # one already printed are counted, not printed again
    assert [line.split(" (seat 1 plays AC) rejected: TURN.ORDER: ")[0].split(" [")[0]
            for line in lines[:4]] == [
        "FAIL moon/choice-subtract-p8", "FAIL moon/others-52-boardgamegeek-p8",
        "FAIL moon/subtract-with-10d-hubpages-p8", "FAIL moon/through-extras-p9"]
    assert lines[4].startswith("5 more cases failed the same way as moon/choice-subtract-p8 "
                               "(prefix action 9 (seat 1 plays AC) rejected: TURN.ORDER: ")
    assert lines[4].endswith("): moon/choice-add-p8, moon/others-104-p8, moon/void-last-trick-"
                             "no-moon-p8, moon/void-last-trick-leader-moon-wikipedia-p8, "
                             "moon/void-last-trick-split-no-moon-p8")
    assert lines[5:] == ["0 passed, 9 failed, 0 skipped; tested 9 of 9 cases (100%)"]


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
    code, out, err = cli("vectors", "run", "--json", "--kinds", "moon", "--",
                         *vector_adapters.command("ten-of-diamonds-v1"))
    assert (code, err) == (5, "")
    report = json.loads(out)
    assert sorted(report) == ["adapter", "cases", "coverage", "deal_constraints", "exit_status",
                              "fault", "format", "meta",
                              "needs", "rules", "totals", "vectors", "verdict"]
    assert report["deal_constraints"] == {"declared": [], "cases": {}, "values": []}
    assert (report["format"], report["verdict"], report["exit_status"], report["fault"]) == \
        ("cancellation-hearts-vectors-run", "partial", 5, None)
    assert report["totals"] == {"passed": 9, "failed": 0, "skipped": 19, "tested": 9,
                                "counted": 14, "cases": 28}
    assert report["coverage"]["untested"] == ["moon_pair none", "target 150"]
    assert report["coverage"]["not_in_vectors"] == [
        "min_players 6", "pass_forbidden none", "first_trick_two_of_clubs free",
        "hearts_broken_by heart-or-queen"]
    assert report["coverage"]["undeclared"][:3] == ["9 players", "min_players 5",
                                                    "pass_count 2"]
    assert report["vectors"]["contract_version"] == 2
    assert report["adapter"]["name"] == "rules-ref reference adapter"
    assert report["rules"]["MOON.CONDITION"] == {"passed": 9, "failed": 0, "skipped": 19}
    assert report["needs"]["9 players"] == 2
    assert report["cases"][10] == {
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
    code, out, _ = cli("vectors", "run", "--verbose", "--kinds", "moon", "--",
                       *broken_adapters.command("dealer-leads"))
    lines = out.splitlines()
    assert code == 1
    replays = [c["id"] for _, c in vectors.iter_cases(vectors.load_dir(vectors.latest_dir()),
                                                      ["moon"]) if "position" not in c["start"]]
    assert len(replays) == 14
    shown = [line.split(" [")[0] for line in lines if line.startswith(("FAIL", "PASS"))]
    assert [line for line in shown if line.startswith("PASS")] == [
        f"PASS {i}.position" for i in replays]
    # the full replays that fail the same way are counted, not printed again
    failed = [line for line in shown if line.startswith("FAIL")]
    assert failed[0] == f"FAIL {replays[0]}"
    repeats = [line for line in lines if " more cases failed the same way as " in line]
    assert len(failed) + sum(int(line.split()[0]) for line in repeats) == 14
    assert lines[-1] == "14 passed, 14 failed, 0 skipped; tested 14 of 14 cases (100%); a " \
        "case and its position-start form count once"


def test_a_version_1_adapter_skips_the_position_starts_naming_the_capability(
        tmp_path: Path) -> None:
    code, out, _ = cli("vectors", "run", "--verbose", "--dir", hand_built(tmp_path), "--kinds",
                       "trick", "--", *ADAPTER, "--protocol", "1")
    lines = out.splitlines()
    assert code == 0
    assert lines[:2] == [
        "PASS trick/highest-wins-takes-extras-p6",
        "SKIP trick/highest-wins-takes-extras-p6.position: not declared by the adapter: "
        "capability position (a start from a position, protocol version 2)"]
    assert lines[-1] == "13 passed, 0 failed, 11 skipped; tested 13 of 13 cases (100%); a " \
        "case and its position-start form count once"


def test_an_internal_failure_of_the_implementation_fails_the_case_saying_so(tmp_path: Path) -> None:
    code, out, _ = cli("vectors", "run", "--quiet", "--dir", hand_built(tmp_path), "--kinds",
                       "trick", "--", *vector_adapters.command("fails-at-queen"))
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
        "21 passed, 3 failed, 0 skipped; tested 13 of 13 cases (100%); a case and its "
        "position-start form count once"]


def test_the_exit_statuses_are_documented_as_the_code_has_them() -> None:
    readme = (vectors.version_dir(1).parent / "README.md").read_text(encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as ended:
        main(["vectors", "run", "--help"])
    assert ended.value.code == 0
    help_text = " ".join(out.getvalue().split())
    for status, words in ((running.EXIT_PASS, "every case that applied passed"),
                          (running.EXIT_FAILED, "a case failed"),
                          (running.EXIT_FAULT, "an adapter fault"),
                          (running.EXIT_NOTHING_TESTED, "nothing was tested"),
                          (running.EXIT_PARTIAL, "too little was tested")):
        assert f"{status} {words}" in help_text, status
    assert "| 4 | nothing was tested |" in readme
    assert "| 5 | too little was tested: a declared value went untested although the " \
        "vectors test it" in readme
    assert running.CASE_SECONDS == 60.0
    assert "`--case-timeout S` (default\n60)" in readme


def test_a_value_that_cannot_matter_is_neither_asked_for_nor_reported_missing() -> None:
    # the bicycle preset never passes: pass_count and pass_forbidden change none of its games
    code, out, _ = cli("vectors", "run", "--quiet", "--json", "--",
                       *vector_adapters.command("preset", "bicycle", "6", "11"))
    coverage = json.loads(out)["coverage"]
    assert code == 0
    listed = [v for entries in coverage.values() for v in entries]
    assert "pass_cycle left" in listed  # the lists are there, without the moot switches
    assert [v for v in listed if v.startswith(("pass_count", "pass_forbidden"))] == []


def test_an_engine_that_clears_last_trick_with_the_table_fails_naming_the_form() -> None:
    # right about every rule, it shows last_trick null once trick 2's first card is played:
    # the case that observes that moment fails it, as a slip in the answer's form (the
    # protocol keeps the last complete trick until the next one completes), not a rule
    code, out, err = cli("vectors", "run", "--kinds", "trick", "--",
                         *vector_adapters.command("last-trick-cleared"))
    assert (code, out) == (2, "")
    assert err.startswith("rules-ref vectors: adapter form: your answer is not in the "
                          "protocol's form: last_trick is null where the reference keeps the "
                          "last complete trick (the form: the most recent complete trick of the "
                          "deal, kept until the next one completes")
    assert "fix: keep the last complete trick when the table is cleared, until the next " \
           "trick completes during vector trick/last-trick-kept-p6\n" in err
