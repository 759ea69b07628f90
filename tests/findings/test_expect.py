"""``conform --expect FILE``: declared deviations, and the verdict that follows from them.

Against the three-fault adapter of :mod:`tests.fakes.multi_fault_adapters`:
naming two of its broken rules leaves only the third unexpected (exit 1);
naming all three passes (exit 0); an entry for a rule that never diverges is
reported "expected, not seen", and fails the run only with ``--strict``.
``--write-expect`` writes a file that makes the same run pass. A bad file is
one error line and exit 2. The runs are bounded by games, not by time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.errors import InputError
from rules_ref.findings.expect import Expectation, matching_entry, read_expectations
from rules_ref.findings.words import Facet

from ..fakes.multi_fault_adapters import command, rules_of

NAME = "pass-lead-suit"
#: Seed 7 shows the three classes in the first five games; ten leave room to spare.
GAMES = ["--examples", "10", "--seed", "7", "--max-seconds", "600", "--timeout", "60"]
SCHEMA = Path(__file__).resolve().parents[2] / "spec" / "schemas" / "expect.schema.json"


def _file(tmp_path: Path, entries: list[dict[str, Any]], name: str = "expect.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"version": 1, "expected": entries}))
    return str(path)


def conform(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str
            ) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--json", *GAMES, "--out", str(tmp_path / "out"), *args, "--",
                 *command(NAME)])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_two_expected_leave_the_third_unexpected(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    first, second, third = rules_of(NAME)
    expect = _file(tmp_path, [{"rule": first, "action": "pass", "note": "known"},
                              {"rule": second}])
    code, summary = conform(capsys, tmp_path, "--expect", expect)
    assert code == 1
    assert summary["verdict"] == "disagreement"
    unexpected = [c["rule"] for c in summary["classes"] if not c["expected"]]
    assert unexpected == [third]
    expected = {c["rule"]: c["expectation"] for c in summary["classes"] if c["expected"]}
    assert expected == {first: 0, second: 1}
    assert summary["rules"][0] == third  # the one-failure report is the unexpected class
    assert summary["expected_not_seen"] == []


@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_all_expected_pass_and_an_unseen_one_fails_only_when_strict(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    entries: list[dict[str, Any]] = [{"rule": r} for r in rules_of(NAME)]
    code, summary = conform(capsys, tmp_path, "--expect", _file(tmp_path, entries))
    assert (code, summary["verdict"]) == (0, "pass")
    assert all(c["expected"] for c in summary["classes"])
    assert len(summary["classes"]) == 3
    fourth = [*entries, {"rule": "GAME.WINNER", "note": "ties"}]
    path = _file(tmp_path, fourth, "fourth.json")
    code, summary = conform(capsys, tmp_path, "--expect", path)
    assert (code, summary["verdict"]) == (0, "pass")
    assert summary["expected_not_seen"] == [{"rule": "GAME.WINNER", "note": "ties",
                                             "index": 3}]
    code, summary = conform(capsys, tmp_path, "--expect", path, "--strict")
    assert (code, summary["verdict"]) == (1, "expected-not-seen")
    code = main(["conform", *GAMES, "--out", str(tmp_path / "out"), "--expect", path, "--",
                 *command(NAME)])
    out = capsys.readouterr().out
    assert code == 0
    assert "expected, not seen: entry 3 (GAME.WINNER: ties)" in out
    assert out.startswith("conform: PASS: 3 classes of difference (0 unexpected, 3 expected)\n")
    seen = sum(c["count"] for c in summary["classes"])
    assert f"verdict: PASS: passed: {seen} divergences seen, all expected, in 3 classes" in out


@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_write_expect_makes_the_same_run_pass(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    written = tmp_path / "written.json"
    code, _ = conform(capsys, tmp_path, "--write-expect", str(written))
    assert code == 1
    document = json.loads(written.read_text())
    assert document["version"] == 1
    assert sorted({e["rule"] for e in document["expected"]}) == sorted(rules_of(NAME))
    _schema_valid(document)
    code, summary = conform(capsys, tmp_path, "--expect", str(written))
    assert (code, summary["verdict"]) == (0, "pass"), summary["classes"]
    # narrow entries: one a facet, each naming the rule, what differs and the facet
    facets = [(c["rule"], c["what"], f["words"]) for c in summary["classes"]
              for f in c["facets"]]
    assert sorted((e["rule"], e["differs"], e["facet"]) for e in document["expected"]) == \
        sorted(facets)
    # an entry left out flags exactly the class of its facet
    for dropped in (0, len(document["expected"]) - 1):
        entry = document["expected"][dropped]
        edited = tmp_path / f"edited-{dropped}.json"
        edited.write_text(json.dumps({**document, "expected": [
            e for i, e in enumerate(document["expected"]) if i != dropped]}))
        code, summary = conform(capsys, tmp_path, "--expect", str(edited))
        assert (code, summary["verdict"]) == (1, "disagreement")
        flagged = [c["key"] for c in summary["classes"] if not c["expected"]]
        assert flagged == [f"{entry['rule']}: {entry['differs']}"], (flagged, entry)


def _schema_valid(document: Any) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(document)


@pytest.mark.parametrize(("content", "message"), [
    ("{", "expect.json: not valid JSON"),
    ("[]", 'expect.json: expected a JSON object with "version": 1'),
    ('{"version": 2, "expected": []}', "expect.json.version: expected 1, got 2"),
    ('{"version": 1}', "expect.json.expected: expected a list of entries"),
    ('{"version": 1, "expected": [{"rule": "NO.SUCH"}]}',
     "expect.json.expected[0].rule: unknown rule ID 'NO.SUCH'"),
    ('{"version": 1, "expected": [{"rule": "PASS.CARDS", "action": "jump"}]}',
     "expect.json.expected[0].action: expected one of pass, play, moon, deal"),
    ('{"version": 1, "expected": [{"rule": "PASS.CARDS", "card": "1H"}]}',
     "expect.json.expected[0].card: '1H' is not a card"),
    ('{"version": 1, "expected": [{"rule": "PASS.CARDS", "field": "x"}]}',
     "expect.json.expected[0].field: 'x' is not an observation field"),
    ('{"version": 1, "expected": [{"rule": "PASS.CARDS", "seat": 1}]}',
     "expect.json.expected[0]: unknown field(s) seat"),
    ('{"version": 1, "expected": [{"note": "x"}]}', "expect.json.expected[0]: missing rule"),
])
def test_a_bad_expectations_file_is_one_error_line(content: str, message: str,
                                                   capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("expect.json").write_text(content)
    code = main(["conform", "--expect", "expect.json", "--", "/nonexistent/adapter"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert message in err, err


def test_strict_needs_an_expectations_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--strict", "--", "/nonexistent/adapter"]) == 2
    assert "--strict needs --expect FILE" in capsys.readouterr().err


def test_an_entry_covers_a_divergence_when_every_narrowing_holds() -> None:
    entries = read_expectations({"version": 1, "expected": [
        {"rule": "PASS.CARDS", "action": "pass", "card": "2c"},
        {"rule": "FOLLOW.SUIT", "field": "legal"}]}, "f")
    assert entries == (Expectation("PASS.CARDS", "pass", "2C"),
                       Expectation("FOLLOW.SUIT", field="legal"))
    def facet(step: str, cards: list[str]) -> Facet:
        return Facet("rejects a pass that contains 2♣", "", "PASS.CARDS", None, step,
                     tuple(cards))

    what = "rejects a legal pass"
    assert matching_entry(entries, "PASS.CARDS", what, facet("pass", ["2C", "3C"]), []) == 0
    assert matching_entry(entries, "PASS.CARDS", what, facet("pass", ["3C"]), []) is None
    assert matching_entry(entries, "PASS.CARDS", what, facet("play", ["2C"]), []) is None
    assert matching_entry(entries, "FOLLOW.SUIT", what, facet("play", ["QS"]),
                          ["legal", "hands"]) == 1
    assert matching_entry(entries, "FOLLOW.SUIT", what, facet("play", ["QS"]),
                          ["hands"]) is None
    assert matching_entry(entries, None, what, facet("play", []), []) is None
    narrow = read_expectations({"version": 1, "expected": [
        {"rule": "PASS.CARDS", "differs": what, "facet": "rejects a pass that contains 2♣"}]},
        "f")
    assert matching_entry(narrow, "PASS.CARDS", what, facet("pass", []), []) == 0
    assert matching_entry(narrow, "PASS.CARDS", "accepts an illegal pass", facet("pass", []),
                          []) is None
    with pytest.raises(InputError, match="unknown rule ID"):
        read_expectations({"version": 1, "expected": [{"rule": "X.Y"}]}, "f")
