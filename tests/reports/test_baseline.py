"""A run compared with an earlier one (``--baseline OLD.json``) and the metadata every run's
report carries.

* A failure is new, unchanged or fixed; only a new one fails the run.
* A conform class the baseline had is marked expected and ``baseline``; the verdict is
  decided again from the result alone.
* ``meta`` names the kit, the rules, the adapter, the seed, the budget, the date and the
  command line, and validates against ``spec/schemas/conform-result.schema.json``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rules_ref.cli import main
from rules_ref.errors import InputError
from rules_ref.reports.baseline import against_baseline, compare, conform_failures
from rules_ref.reports.result import ConformResult

from ..fakes import broken_adapters

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "spec" / "schemas" / "conform-result.schema.json").read_text())
RUN = ["--seed", "1", "--examples", "6", "--max-seconds", "600", "--timeout", "60"]


def _class(key: str, expected: bool = False) -> dict[str, Any]:
    return {"key": key, "rule": key.split(":")[0], "kind": "disagreement", "count": 1,
            "games": 1, "expected": expected}


def _summary(*classes: dict[str, Any]) -> dict[str, Any]:
    return {"verdict": "disagreement", "games": 3, "deals": 3, "actions_compared": 90,
            "illegal_offered": 0, "rule_citations_differing": 0, "adapter_restarts": 0,
            "classes": list(classes)}


def test_compare_sorts_failures_into_new_unchanged_fixed_in_the_runs_order() -> None:
    c = compare("old.json", ["b", "a", "x"], ["c", "a", "b", "c"])
    assert (c.new, c.unchanged, c.fixed) == (("c",), ("a", "b"), ("x",))
    assert c.to_json() == {"file": "old.json", "new": ["c"], "unchanged": ["a", "b"],
                           "fixed": ["x"]}
    assert c.lines("classes", shown=1) == [
        "against the baseline old.json: 1 new, 2 unchanged, 1 fixed classes",
        "  new: c", "  unchanged: a and 1 more", "  fixed: x"]


def test_a_class_the_baseline_had_does_not_fail_the_run() -> None:
    now = ConformResult(_summary(_class("VOID.TRICK: a"), _class("MOON.CHOICE: b", True)))
    same = against_baseline(now, compare("old.json", ["VOID.TRICK: a"], ["VOID.TRICK: a"]))
    assert same.verdict == "pass" and same.exit_status == 0
    assert same.classes[0] == {**_class("VOID.TRICK: a"), "expected": True, "baseline": True}
    assert same.classes[1] == _class("MOON.CHOICE: b", True)  # expected by --expect: untouched
    new = against_baseline(now, compare("old.json", [], ["VOID.TRICK: a"]))
    assert new.verdict == "disagreement" and new.exit_status == 1
    assert new.summary["baseline"] == {"file": "old.json", "new": ["VOID.TRICK: a"],
                                       "unchanged": [], "fixed": []}


def test_only_the_unexpected_classes_of_a_baseline_count_as_its_failures() -> None:
    summary = _summary(_class("A.B: x"), _class("C.D: y", expected=True))
    assert conform_failures(summary, "old.json") == ["A.B: x"]
    with pytest.raises(InputError, match=r"^old.json: not a conform summary"):
        conform_failures({"cases": []}, "old.json")


@pytest.mark.untraced
def test_conform_against_its_own_baseline_passes_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    adapter = broken_adapters.command("void-discarded")
    out_dir = ["--out", str(tmp_path / "replays")]
    code = main(["conform", "--json", *RUN, *out_dir, "--", *adapter])
    first = json.loads(capsys.readouterr().out)
    assert (code, first["verdict"]) == (1, "disagreement")
    errors = [e.message for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(first)]
    assert errors == []
    meta = first["meta"]
    assert meta["seed"] == 1 and meta["budget"] == {"max_seconds": 600, "examples": 6}
    assert meta["adapter"] == "broken adapter void-discarded (VOID.TRICK)"
    assert meta["adapter_command"] == adapter
    assert re.fullmatch(r"rules-ref \S+", meta["kit"])
    assert meta["command"].startswith("rules-ref conform --json --seed 1 --examples 6 ")
    old = tmp_path / "old.json"
    old.write_text(json.dumps(first))
    keys = [c["key"] for c in first["classes"] if not c["expected"]]
    code = main(["conform", "--baseline", str(old), *RUN, *out_dir, "--", *adapter])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert f"against the baseline {old}: 0 new, {len(keys)} unchanged, 0 fixed classes" in lines
    assert lines[-2].startswith("run: rules-ref ") and "seed 1, max_seconds 600, examples 6" \
        in lines[-2]
    assert lines[-1].startswith("verdict: PASS")
