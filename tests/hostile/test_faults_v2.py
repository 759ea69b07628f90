"""Faulty version-2 adapters: every way to get a new message wrong ends the run, named.

Each mode of :data:`tests.hostile.fault_adapter.V2_MODES` breaks one thing
protocol version 2 adds (a batch answered with the wrong number of answers
or out of order, a capability declared but not honoured, an internal error,
a malformed error). ``rules-ref conform`` is run against every mode (as
separate processes, several at a time); each run must end by itself with the
exit status of its kind (2 for a fault, 6 for an internal error the
implementation reported), name the problem in one line, print no traceback
and leave no process behind. No fault of these modes is a silence, so every
run has an answer timeout and a time budget that no answer and no run comes
near on any machine: only the fault can end it, whatever the machine's speed.
The capabilities conform does not use (a start from a position) are checked
through :class:`rules_ref.protocol.client.AdapterProcess` directly.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.messages import FAULT_KINDS, AdapterFault
from tests import forked
from tests.processes import gone, wait_gone

from .fault_adapter import HANDSHAKE_MODES, V2_MODES

HERE = Path(__file__).resolve().parent
ADAPTER = [sys.executable, str(HERE / "fault_adapter.py")]
#: The runner's --timeout: far above any answer's time (none of these faults is a silence).
TIMEOUT = 120.0
#: A run that takes longer than this is killed: it hangs (a hang detector, not a speed test).
HARD_LIMIT = 300.0
ENV = {**os.environ, "FAULT_TIMEOUT": str(TIMEOUT), "PYTHONPATH": str(HERE.parent.parent)}


@dataclass(frozen=True)
class Expect:
    code: int  # the exit status of conform
    kind: str  # a fault kind, "error" (an internal error) or "disagreement"
    evidence: tuple[str, ...] = ()


_MARK = "FAULT-MARK"
EXPECT: dict[str, Expect] = {
    "v2-internal-error": Expect(6, "error", (_MARK, "the engine crashed")),
    "v2-error-on-start": Expect(6, "error", (_MARK, "on start of the game")),
    "batch-item-error": Expect(6, "error", (_MARK, "crashed")),
    "batch-error-then-more": Expect(2, "batch", ("answer 2 is an error, yet",)),
    # message 2: the first game's first batch, of 64 actions
    "batch-short": Expect(2, "batch", ("63 answer(s) to 64 action(s)",)),
    "batch-long": Expect(2, "batch", ("65 answer(s) to 64 action(s)",)),
    "batch-order": Expect(2, "batch", ("answer 0 of message", "carries index 1")),
    "batch-no-index": Expect(2, "batch", ("carries no index",)),
    "batch-as-single": Expect(2, "capability", ('of type "observation", not a batch',
                                                "declared the capability batch")),
    "batch-rejected": Expect(2, "capability", ('of type "rejected", not a batch',)),
    "batch-wrong-shape": Expect(2, "shape", ("missing field(s)", _MARK)),
    "error-shape": Expect(2, "shape", ("message is missing", "unknown field(s) reason")),
    "observe-rejected": Expect(2, "capability", ("declared the capability observe", _MARK)),
    "observe-wrong": Expect(1, "disagreement", ("a rejected action must change nothing",
                                                "deal_number")),
    # conform starts one game in four again from a position where nothing diverged: of the
    # three games of seed 4 (_SEEDS), one whose trick 1 was set aside with the extras
    "position-rejected": Expect(1, "disagreement", ("rejected a position the rules reach",
                                                    _MARK, "rules: VOID.TRICK, ")),
    "bad-capability": Expect(2, "handshake", ('unknown capability "FAULT-MARK"',)),
    "v1-capabilities": Expect(2, "handshake", ("capabilities need protocol version 2",)),
}
#: The seed of a mode's run, where it is not 1.
_SEEDS = {"position-rejected": "4"}
#: The modes of an answer to a batch, which conform sends as message 2.
_AT = {mode: "1" if request == "start" else "2" for mode, (request, _) in V2_MODES.items()}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    pids: list[int]
    out: Path


def _conform(mode: str, root: Path) -> Run:
    base = root / mode
    base.mkdir()
    pids, out = base / "pids", base / "out"
    args = ["conform", "--examples", "3", "--seed", _SEEDS.get(mode, "1"), "--timeout",
            f"{TIMEOUT:g}",
            "--shrink-seconds", "1", "--max-seconds", "600", "--out", str(out)]
    env = {**ENV, "FAULT_PIDS": str(pids), "FAULT_AT": _AT[mode]}
    began = time.monotonic()
    done = forked.run([*args, "--", *ADAPTER, mode], cwd=base, env=env, timeout=HARD_LIMIT)
    listed = pids.read_text().split() if pids.exists() else []
    return Run(done.returncode, done.stdout, done.stderr, time.monotonic() - began,
               [int(p) for p in listed if p != "0"], out)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Run]]:
    root = tmp_path_factory.mktemp("faults-v2")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {mode: pool.submit(_conform, mode, root) for mode in V2_MODES}
        yield {mode: f.result() for mode, f in futures.items()}


def test_every_mode_has_an_expectation() -> None:
    assert set(EXPECT) == set(V2_MODES)
    assert {e.kind for e in EXPECT.values()} - {"error", "disagreement", "pass"} \
        <= set(FAULT_KINDS)
    assert {"batch", "capability"} <= set(FAULT_KINDS)


@pytest.mark.parametrize("mode", list(V2_MODES))
def test_v2_fault(mode: str, runs: dict[str, Run]) -> None:
    run = runs[mode]
    expect = EXPECT[mode]
    report = f"exit {run.code} in {run.seconds:.1f} s\n--- stdout\n{run.stdout}\n--- stderr\n" \
             f"{run.stderr}"
    assert run.code == expect.code, report
    assert "Traceback" not in run.stdout + run.stderr, report
    assert run.pids, report
    # no hang is proven by the run ending at all (its hard limit), not by its wall time
    assert wait_gone(run.pids) == [], report
    text = run.stdout + run.stderr
    for piece in expect.evidence:
        assert piece in text, (piece, report)
    written = sorted(p.name for p in run.out.iterdir()) if run.out.exists() else []
    if expect.kind == "pass":
        assert run.stdout.rstrip().endswith("verdict: PASS"), report
        assert written == []
        return
    if expect.kind == "error":
        # an internal error: its own kind, neither a disagreement nor a protocol fault
        assert "INTERNAL ERROR reported by the implementation" in run.stdout, report
        assert run.stdout.rstrip().endswith("verdict: ERROR"), report
        assert "ADAPTER FAULT" not in text and "DISAGREEMENT" not in text, report
        replay = json.loads((run.out / written[0]).read_text())
        assert replay["kind"] == "error" and replay["actual"]["type"] == "error", replay
        return
    if expect.kind == "disagreement":
        assert "DISAGREEMENT" in run.stdout, report
        return
    assert re.search(rf"adapter (fault \()?{re.escape(expect.kind)}\)?: ", run.stderr), report
    if mode not in HANDSHAKE_MODES:  # the adapter's standard error is among the evidence
        assert f"fault-adapter: {mode} at message" in run.stderr, report
    if mode in HANDSHAKE_MODES:
        assert written == [], report
    else:
        assert "ADAPTER FAULT during a game" in run.stderr, report
        assert [n for n in written if re.fullmatch(r"replay-1-fault\.json", n)], written


def test_internal_error_in_the_json_summary(tmp_path: Path) -> None:
    env = {**ENV, "FAULT_AT": "2"}
    done = forked.run(["conform", "--json", "--examples", "2", "--seed", "1",
                       "--shrink-seconds", "1", "--out", str(tmp_path), "--", *ADAPTER,
                       "batch-item-error"], env=env, timeout=HARD_LIMIT)
    assert done.returncode == 6, done.stderr
    summary = json.loads(done.stdout)
    assert summary["verdict"] == "error"
    assert summary["failure"]["kind"] == "error"
    assert summary["failure"]["actual"] == {"type": "error", "message": "FAULT-MARK: crashed"}
    # the third action of the first batch failed: the game is cut there
    assert len(summary["failure"]["actions"]) == 3


def test_position_capability_not_honoured_is_named() -> None:
    env = {**ENV, "FAULT_AT": "1"}
    with AdapterProcess([*ADAPTER, "position-rejected"], timeout=TIMEOUT,
                        env=env) as proc:
        proc.hello()
        assert proc.can("position")
        with pytest.raises(AdapterFault) as caught:
            proc.start_position(8, {}, {"players": 8})
        assert caught.value.kind == "capability"
        assert "declared the capability position but rejected the start" in str(caught.value)
        assert "FAULT-MARK" in str(caught.value)
        pid = proc.pid
    assert gone(pid)


def test_undeclared_capability_is_never_sent() -> None:
    """The runner asks only for what the adapter declared: a version-1 adapter gets no batch."""
    with AdapterProcess([sys.executable, "-m", "rules_ref.protocol.reference_adapter", "--protocol",
                         "1"], timeout=TIMEOUT) as proc:
        hello = proc.hello()
        assert hello["version"] == 1 and "capabilities" not in hello
        assert proc.capabilities == ()
        for call in (lambda: proc.batch([{"type": "play", "seat": 0, "card": "2C"}]),
                     proc.observe, lambda: proc.start_position(8, {}, {})):
            with pytest.raises(Exception) as caught:
                call()
            assert "does not declare the capability" in str(caught.value)
        assert proc.alive()
