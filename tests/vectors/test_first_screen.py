"""What ``rules-ref vectors run`` prints by default: a first screen read in a minute.

The verdict first; then each way of failing once, the basic kinds (trick, legal plays,
scoring) first, with what the case tests in a player's words and what differed; then the
totals, what was not tested one line per switch, and the run's metadata. ``--verbose``
prints a line per case and the summary per rule.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

from rules_ref.cli import main
from rules_ref.vectors.results import FIRST_KINDS
from tests.fakes import broken_adapters

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = [sys.executable, str(ROOT / "spec" / "adapter-template.py")]


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_template_as_shipped_fits_a_screen() -> None:
    code, out, err = cli("vectors", "run", "--", *TEMPLATE)
    lines = out.splitlines()
    assert (code, err) == (1, "")
    assert len(lines) <= 40
    assert lines[0] == ("vectors: FAIL: 438 cases failed; tested 438 of 519 cases (84%)")
    # the first failure shown is of the first basic kind, not the first file's
    assert lines[1].startswith("FAIL trick/")
    assert lines[2] == ("  the start message was rejected: this adapter does not implement a "
                        "game yet")
    assert lines[3] == "  and 437 more cases failed the same way"
    assert not [line for line in lines if line.startswith(("SKIP", "PASS"))]
    assert "not declared, so not tested:" in lines
    assert lines[-1].startswith("run: rules-ref ")
    assert lines[-1].endswith(f"rules-ref vectors run -- {' '.join(TEMPLATE)}")


def test_failures_come_basic_kinds_first_each_way_once() -> None:
    code, out, _ = cli("vectors", "run", "--kinds", "moon,scoring,trick", "--",
                       *broken_adapters.command("void-discarded"))
    lines = out.splitlines()
    assert code == 1
    shown = [line.split()[1] for line in lines if line.startswith("FAIL ")]
    kinds = [case.split("/")[0] for case in shown]
    rank = [FIRST_KINDS.index(k) if k in FIRST_KINDS else len(FIRST_KINDS) for k in kinds]
    assert rank == sorted(rank) and kinds[0] == "trick"
    # a way of failing is shown once: no two cases shown share a message
    messages = [lines[i + 1] for i, line in enumerate(lines) if line.startswith("FAIL ")]
    assert len(messages) == len(set(messages))
    # the words of the case, as a player reads them, follow its rules
    first = lines[1]
    assert first.startswith("FAIL trick/void-trick1-extras-pending-p6 [EXTRAS.FIRST_TRICK, "
                            "TRICK.CANCEL, VOID.TRICK]: Both 5C cancel")


def test_verbose_prints_every_case_and_the_rules() -> None:
    code, out, _ = cli("vectors", "run", "--verbose", "--kinds", "trick", "--",
                       *broken_adapters.command("void-discarded"))
    lines = out.splitlines()
    assert code == 1
    assert any(line.startswith("PASS trick/") for line in lines)
    assert "rule                passed  failed  skipped" in lines


def test_a_baseline_fails_only_on_what_is_new(tmp_path: Path) -> None:
    adapter = broken_adapters.command("void-discarded")
    code, out, _ = cli("vectors", "run", "--json", "--kinds", "trick,moon", "--", *adapter)
    assert code == 1
    old = tmp_path / "old.json"
    old.write_text(out)
    failed = [c["id"] for c in json.loads(out)["cases"] if c["status"] == "fail"]
    # the same engine: every failure unchanged, the run passes and says why
    code, out, _ = cli("vectors", "run", "--baseline", str(old), "--kinds", "trick,moon", "--",
                       *adapter)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == (f"vectors: KNOWN-FAILURES: no new failure: the {len(failed)} failed "
                        "cases failed in the baseline too; tested 329 of 329 cases (100%)")
    assert (f"against the baseline {old}: 0 new, {len(failed)} unchanged, 0 fixed failed "
            "cases") in lines
    # another engine: its failures are new, the baseline's are fixed
    code, out, _ = cli("vectors", "run", "--json", "--baseline", str(old), "--kinds",
                       "trick,moon", "--", *broken_adapters.command("moon-swapped"))
    report = json.loads(out)
    assert (code, report["verdict"], report["exit_status"]) == (1, "fail", 1)
    now = [c["id"] for c in report["cases"] if c["status"] == "fail"]
    assert report["baseline"] == {
        "file": str(old), "new": [i for i in now if i not in failed],
        "unchanged": [i for i in now if i in failed],
        "fixed": [i for i in failed if i not in now]}
    assert report["baseline"]["new"] and report["baseline"]["fixed"]


def test_a_baseline_that_is_not_a_vectors_report_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else", "cases": []}')
    code, out, err = cli("vectors", "run", "--baseline", str(bad), "--", "x")
    assert (code, out) == (2, "")
    assert err == (f"rules-ref vectors: error: {bad}: not a vectors report (the JSON that "
                   "rules-ref vectors run --json prints)\n")
