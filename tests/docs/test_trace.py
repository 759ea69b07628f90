"""The traceability scanners and the coverage check that fails the docs build."""

from __future__ import annotations

import json
from pathlib import Path

from . import chdocs

trace = chdocs("trace")

MARKED = '''
import pytest
from pytest import mark

pytestmark = pytest.mark.rule("DECK.CARDS")

@pytest.mark.rule("TRICK.CANCEL", "TRICK.WINNER")
def test_pair() -> None: ...

@mark.rule("VOID.TRICK")
def test_void() -> None: ...

@pytest.mark.parametrize("n", [pytest.param(6, marks=pytest.mark.rule("PLAYERS.COUNT"))])
def test_param(n: int) -> None: ...

def test_plain() -> None: ...

def helper_not_a_test() -> None: ...

@pytest.mark.rule("MOON.CHOICE")
class TestMoon:
    pytestmark = [pytest.mark.rule("MOON.CONDITION")]

    @pytest.mark.rule("SCORE.DEAL")
    def test_add(self) -> None: ...

    def helper(self) -> None: ...
'''


def test_markers_on_functions_classes_params_and_modules_are_found() -> None:
    problems: list[str] = []
    found = trace.scan_test_source(MARKED, "tests/x/test_m.py", problems)
    assert found == {
        "tests/x/test_m.py::test_pair": ["DECK.CARDS", "TRICK.CANCEL", "TRICK.WINNER"],
        "tests/x/test_m.py::test_void": ["DECK.CARDS", "VOID.TRICK"],
        "tests/x/test_m.py::test_param": ["DECK.CARDS", "PLAYERS.COUNT"],
        "tests/x/test_m.py::test_plain": ["DECK.CARDS"],
        "tests/x/test_m.py::TestMoon::test_add": ["DECK.CARDS", "MOON.CHOICE",
                                                  "MOON.CONDITION", "SCORE.DEAL"],
    }
    assert problems == []


def test_a_marker_without_literal_ids_and_an_unparsable_file_are_problems() -> None:
    problems: list[str] = []
    source = 'import pytest\nRULE = "X.Y"\n@pytest.mark.rule(RULE)\ndef test_a() -> None: ...\n'
    assert trace.scan_test_source(source, "tests/test_a.py", problems) == {}
    assert problems == ["tests/test_a.py: pytest.mark.rule takes rule IDs as string literals "
                        "(line 3)"]
    problems.clear()
    assert trace.scan_test_source("def test_(:\n", "tests/test_b.py", problems) == {}
    assert len(problems) == 1 and problems[0].startswith("tests/test_b.py: cannot be parsed")


def test_scan_tests_reads_only_test_files(tmp_path: Path) -> None:
    (tmp_path / "tests" / "sub").mkdir(parents=True)
    (tmp_path / "tests" / "sub" / "test_one.py").write_text(
        'import pytest\n@pytest.mark.rule("VOID.LAST")\ndef test_last() -> None: ...\n')
    (tmp_path / "tests" / "helpers.py").write_text(
        'import pytest\n@pytest.mark.rule("VOID.LEADER")\ndef test_not_collected() -> None: ...\n')
    by_rule, problems = trace.scan_tests(tmp_path)
    assert {rule: [r.label for r in refs] for rule, refs in by_rule.items()} == {
        "VOID.LAST": ["tests/sub/test_one.py::test_last"]}
    assert problems == []


def test_vector_cases_are_found_at_any_depth() -> None:
    data = {"kind": "trick", "cases": [
        {"id": "a", "rules": ["TRICK.CANCEL"], "steps": [{"id": "inner", "rules": ["VOID.TRICK"]}]},
        {"id": "b", "rules": "not a list"},
        {"group": {"id": "c", "rules": []}},
    ]}
    assert list(trace.vector_cases(data)) == [("a", ["TRICK.CANCEL"]), ("inner", ["VOID.TRICK"]),
                                              ("c", [])]


def test_scan_vectors_names_file_and_case_and_reports_bad_json(tmp_path: Path) -> None:
    base = tmp_path / "spec" / "vectors" / "v1"
    base.mkdir(parents=True)
    (base / "trick.json").write_text(json.dumps(
        {"cases": [{"id": "t1", "rules": ["TRICK.WINNER", "TRICK.WINNER"]}]}))
    (base / "broken.json").write_text("{")
    by_rule, problems = trace.scan_vectors(tmp_path)
    assert {rule: [r.label for r in refs] for rule, refs in by_rule.items()} == {
        "TRICK.WINNER": ["spec/vectors/v1/trick.json: t1"]}
    assert len(problems) == 1 and problems[0].startswith(
        "spec/vectors/v1/broken.json: cannot be read as JSON")


def _refs(*labels: str) -> list[object]:
    return [trace.Ref(label, label.split("::")[0]) for label in labels]


def test_complete_coverage_has_no_problems() -> None:
    ids = ["TRICK.CANCEL", "VOID.TRICK"]
    impls = {"TRICK.CANCEL": ["rules_ref.tricks.cancelled_cards"],
             "VOID.TRICK": ["rules_ref.tricks.winning_position"]}
    tests = {"TRICK.CANCEL": _refs("tests/t.py::test_a"), "VOID.TRICK": _refs("tests/t.py::test_b")}
    vectors = {"TRICK.CANCEL": _refs("v.json: 1"), "VOID.TRICK": _refs("v.json: 2")}
    assert trace.coverage_problems(ids, [], impls, tests, vectors) == []


def test_every_gap_and_every_unknown_id_is_a_problem() -> None:
    ids = ["TRICK.CANCEL", "VOID.TRICK", "OLD.RULE"]
    impls = {"TRICK.CANCEL": ["f"], "OLD.RULE": ["g"], "NO.SUCH": ["h"]}
    tests = {"TRICK.CANCEL": _refs("tests/t.py::test_a"), "TYPO.RULE": _refs("tests/t.py::test_c")}
    vectors = {"VOID.TRICK": _refs("v.json: 2")}
    assert trace.coverage_problems(ids, ["OLD.RULE"], impls, tests, vectors) == [
        "TRICK.CANCEL has no vector",
        "VOID.TRICK has no implementation and no test",
        "OLD.RULE is withdrawn but still implemented by g",
        "unknown rule ID 'NO.SUCH' implemented by h",
        "unknown rule ID 'TYPO.RULE' cited by a test tests/t.py::test_c",
    ]
