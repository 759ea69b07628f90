"""A conform run's result: one value, its JSON form described by a schema, one verdict, one exit
status.

Real ``--json`` outputs (a passing run, a failing run, shards and their
merge, a replay, an adapter fault) are valid under
``spec/schemas/conform-result.schema.json``; the verdict a run decides from its
outcome is the one its JSON form gives when read back (as ``--merge`` reads
it); every verdict has its exit status in one table; and the search
(:mod:`rules_ref.conform`) imports nothing of the reports.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import rules_ref
from rules_ref.cli import main
from rules_ref.reports.merge import merge_results
from rules_ref.reports.result import (
    EXIT,
    ConformResult,
    Grounds,
    decide_verdict,
    grounds_of_json,
)

from ..fakes import broken_adapters

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "spec" / "schemas" / "conform-result.schema.json").read_text())
REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
UNHURRIED = ["--max-seconds", "600", "--timeout", "60"]


def _valid(summary: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}"
              for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(summary)]
    assert errors == []


def _conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--json", *args])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def _read_back(summary: dict[str, Any]) -> str:
    """The verdict of ``summary`` decided again from its JSON form alone."""
    return decide_verdict(grounds_of_json(summary), bool(summary.get("strict")))


@pytest.mark.untraced
@pytest.mark.rule("TRICK.CANCEL")
def test_real_json_outputs_are_valid_under_the_schema(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    out = ["--out", str(tmp_path / "out")]
    code, passing = _conform(capsys, "--seed", "7", "--examples", "3", *UNHURRIED, *out,
                             "--", *REFERENCE)
    assert (code, passing["verdict"]) == (0, "pass")
    broken = broken_adapters.command("cancel-ignored")
    code, failing = _conform(capsys, "--seed", "7", "--examples", "8", *UNHURRIED, *out,
                             "--", *broken)
    assert (code, failing["verdict"]) == (1, "disagreement")
    assert failing["classes"] and failing["failure"] and failing["reproduce"]
    shards = []
    for k in (1, 2):
        code, shard = _conform(capsys, "--seed", "7", "--shard", f"{k}/2", "--examples", "8",
                               *UNHURRIED, *out, "--", *broken)
        path = tmp_path / f"shard-{k}.json"
        path.write_text(json.dumps(shard))
        shards.append(str(path))
    code, merged = _conform(capsys, "--merge", *shards)
    assert (code, merged["verdict"]) == (1, "disagreement")
    assert [m["shard"] for m in merged["merged"]] == ["1/2", "2/2"]
    code, replayed = _conform(capsys, "--replay", failing["replay"], "--", *broken)
    assert code == 1 and replayed["replay_of"] == failing["replay"]
    code, fault = _conform(capsys, "--seed", "1", "--examples", "1", "--", sys.executable,
                           "-c", "pass")
    assert (code, fault["verdict"]) == (2, "fault") and fault["fault"]["kind"]
    for summary in (passing, failing, merged, replayed, fault):
        _valid(summary)
        # the verdict a run decided from its outcome is the one its JSON form gives
        assert _read_back(summary) == summary["verdict"]
        result = ConformResult.from_json(summary, "summary")
        assert result.exit_status == EXIT[summary["verdict"]]
    # a result merged alone is the run's own, verdict and exit status included
    alone = merge_results([("a.json", failing)])
    assert (alone.verdict, alone.exit_status) == ("disagreement", 1)
    assert alone.classes == failing["classes"]


def test_the_schema_refuses_what_no_run_writes() -> None:
    summary = {"verdict": "pass", "adapter": "x", "seed": 1, "games": 1, "deals": 1,
               "actions_compared": 3, "illegal_offered": 0, "rule_citations_differing": 0,
               "adapter_restarts": 0, "seconds": 0.1, "deals_per_second": 10.0,
               "actions_per_second": 30.0, "examples": None, "players": [8],
               "ruleset": "drawn", "stopped": None, "notes": [], "shard": None}
    _valid(summary)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for change in ({"verdict": "passed"}, {"games": -1}, {"shard": "two"},
                   {"classes": [{"count": 1}]}, {"stopped": "tired"}):
        assert not validator.is_valid({**summary, **change}), change
    assert not validator.is_valid({k: v for k, v in summary.items() if k != "verdict"})


@pytest.mark.parametrize(("grounds", "strict", "verdict"), [
    (Grounds(frozenset({"disagreement"}), True, True, 0, True), True, "fault"),
    (Grounds(frozenset({"fault", "disagreement"}), False, False, 9, False), False, "fault"),
    (Grounds(frozenset({"disagreement"}), False, True, 9, False), False, "nothing-tested"),
    (Grounds(frozenset({"error", "disagreement"}), False, False, 9, False), False,
     "disagreement"),
    (Grounds(frozenset({"error"}), False, False, 9, True), True, "error"),
    (Grounds(frozenset(), False, False, 0, True), True, "nothing-tested"),
    (Grounds(frozenset(), False, False, 9, True), True, "expected-not-seen"),
    (Grounds(frozenset(), False, False, 9, True), False, "pass"),
])
def test_one_function_decides_the_verdict_in_one_order(grounds: Grounds, strict: bool,
                                                      verdict: str) -> None:
    assert decide_verdict(grounds, strict) == verdict
    assert verdict in EXIT


def test_every_verdict_the_schema_names_has_its_exit_status() -> None:
    assert set(SCHEMA["properties"]["verdict"]["enum"]) == set(EXIT)
    assert EXIT == {"pass": 0, "disagreement": 1, "expected-not-seen": 1, "fault": 2,
                    "nothing-tested": 4, "error": 6}


def test_the_search_imports_nothing_of_the_reports() -> None:
    package = Path(rules_ref.__file__).parent
    found = []
    for path in sorted((package / "conform").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [f"{'.' * node.level}{node.module or ''}"]
                     if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}: {n}" for n in names if "reports" in n]
    assert found == []
