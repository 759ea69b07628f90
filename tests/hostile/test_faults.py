"""Faulty adapters: every fault ends the run in time, named, with its evidence, leaving nothing.

Each mode of :mod:`tests.hostile.fault_adapter` breaks the protocol in one
way at one message. ``rules-ref conform`` and ``rules-ref vectors run`` are
run against every mode (as separate processes, several at a time, so the
whole file takes a few seconds) with a short ``--timeout``; each run must

* end within its time bound (the timeout plus a margin), with exit status 2
  (0 for the modes that are legal: an answer split across writes, a slow
  answer under the timeout, a flood of standard error, an adapter that
  lingers after ``bye``);
* name the fault (``adapter KIND``, :data:`rules_ref.conformance.process.FAULT_KINDS`)
  and show the evidence: what the adapter printed on standard output, the
  tail of its standard error, its exit status or the signal that killed it;
* leave no process behind (the adapter appends its pid and its grandchild's
  to a file; each must be gone afterwards) and no file but the replay file
  ``conform`` writes under ``--out``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules_ref.conformance.process import FAULT_KINDS
from tests.processes import gone

from .fault_adapter import HANDSHAKE_MODES, MODES

HERE = Path(__file__).resolve().parent
ADAPTER = [sys.executable, str(HERE / "fault_adapter.py")]
CLI = [sys.executable, "-m", "rules_ref"]
#: The runner's --timeout in every run (seconds).
TIMEOUT = 1.5
#: How long a run may take beyond its timeout: starting two Python processes, shrinking a
#: fault for at most --shrink-seconds 1, ending a lingering adapter, and the runs of this
#: file sharing the machine.
MARGIN = 9.0
#: A run that takes longer than this is killed: it hangs.
HARD_LIMIT = 60.0


@dataclass(frozen=True)
class Expect:
    kind: str | None  # None: a legal mode, the run passes
    evidence: tuple[str, ...] = ()  # found in the report (standard error)


_MARK = "FAULT-MARK"
EXPECT: dict[str, Expect] = {
    "invalid-json": Expect("not-json", (_MARK,)),
    "not-object": Expect("shape", (_MARK, "not a JSON object but a list")),
    "wrong-shape": Expect("shape", (_MARK, "missing field(s)")),
    "wrong-type": Expect("shape", (_MARK,)),
    "unknown-field": Expect("shape", (_MARK, "colour")),
    "float": Expect("shape", ("is not an integer",)),
    "huge-number": Expect("shape", ("4300",)),
    "deep-nesting": Expect("shape", ("nests lists or objects more than",)),
    "nan": Expect("not-json", ("NaN is not JSON", _MARK)),
    "empty-line": Expect("not-json", ("an empty line",)),
    "long-line": Expect("too-long", (_MARK, "longer than 1048576 bytes")),
    "invalid-utf8": Expect("not-utf8", (_MARK, "\\xff")),
    "split": Expect(None),
    "no-newline": Expect("timeout", ("no end of line",)),
    "flood": Expect("too-long", (_MARK, "no end of line")),
    "flood-lines": Expect("unsolicited", ("nobody asked for",)),
    "stderr-flood": Expect(None),
    "unsolicited": Expect("unsolicited", (_MARK, "nobody asked for")),
    "banner": Expect("not-json", ("fault-adapter 1.0 ready",)),
    "early-message": Expect("unsolicited", (_MARK, "a message without an id instead of the "
                                                   "answer to message 0 (hello)")),
    "second-hello": Expect("shape", ("a second hello",)),
    "bad-hello": Expect("handshake", ("player counts 6-11",)),
    "wrong-id": Expect("wrong-id", ("carries id",)),
    "rejected-shape": Expect("shape", ("reason is missing",)),
    "hang": Expect("timeout", ("within 1.5 s",)),
    "slow-under": Expect(None),
    "slow-over": Expect("timeout", ("within 1.5 s",)),
    "exit": Expect("exit", ("exit status: 3", "exited with status 3")),
    "signal": Expect("exit", ("killed by signal SIGUSR1",)),
    "close-stdout": Expect("exit", ("closed its standard output",)),
    "grandchild": Expect("exit", ("still holds its output open", "exit status: 0")),
    "grandchild-hang": Expect("timeout", ("within 1.5 s",)),
    "linger": Expect(None),
}
COMMANDS = {
    "conform": ["conform", "--examples", "1", "--seed", "1", "--timeout", str(TIMEOUT),
                "--shrink-seconds", "1", "--max-seconds", "20"],
    "vectors": ["vectors", "run", "--quiet", "--kinds", "trick", "--timeout", str(TIMEOUT)],
}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    pids: list[int]
    cwd: Path
    out: Path


def _run(command: str, mode: str, root: Path) -> Run:
    base = root / f"{command}-{mode}"
    cwd, out = base / "cwd", base / "out"
    cwd.mkdir(parents=True)
    pids = base / "pids"
    args = [*COMMANDS[command]]
    if command == "conform":
        args += ["--out", str(out)]
    env = {**os.environ, "FAULT_PIDS": str(pids), "FAULT_TIMEOUT": str(TIMEOUT),
           "FAULT_AT": "2", "PYTHONPATH": str(HERE.parent.parent)}
    began = time.monotonic()
    done = subprocess.run([*CLI, *args, "--", *ADAPTER, mode], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=HARD_LIMIT, check=False)
    seconds = time.monotonic() - began
    listed = pids.read_text().split() if pids.exists() else []
    return Run(done.returncode, done.stdout, done.stderr, seconds,
               [int(p) for p in listed if p != "0"], cwd, out)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[tuple[str, str], Run]]:
    """Every (command, mode) run, four at a time."""
    root = tmp_path_factory.mktemp("faults")
    jobs = [(c, m) for m in MODES for c in COMMANDS]
    # The slowest first, so that the pool ends together.
    jobs.sort(key=lambda job: job[1] not in ("hang", "slow-over", "no-newline", "linger",
                                             "grandchild-hang"))
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {job: pool.submit(_run, job[0], job[1], root) for job in jobs}
        yield {job: f.result() for job, f in futures.items()}


def test_every_mode_has_an_expectation() -> None:
    assert set(EXPECT) == set(MODES)
    assert {e.kind for e in EXPECT.values()} - {None} <= set(FAULT_KINDS)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_fault(command: str, mode: str, runs: dict[tuple[str, str], Run]) -> None:
    run = runs[command, mode]
    expect = EXPECT[mode]
    report = f"exit {run.code} in {run.seconds:.1f} s\n--- stdout\n{run.stdout}\n--- stderr\n" \
             f"{run.stderr}"
    assert run.seconds < TIMEOUT + MARGIN, report
    assert "Traceback" not in run.stderr, report
    # the adapter started (and, for conform, maybe restarted) and its processes are gone
    assert run.pids, report
    deadline = time.monotonic() + 5
    while not all(gone(p) for p in run.pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in run.pids if not gone(p)] == [], report
    if mode.startswith("grandchild"):
        assert len(run.pids) >= 2, report  # a grandchild was started, and is gone too
    # nothing written but the replay file, and never a temporary file
    assert list(run.cwd.iterdir()) == [], report
    written = sorted(p.name for p in run.out.iterdir()) if run.out.exists() else []
    assert all(re.fullmatch(r"replay-1-[a-z-]+\.json", n) for n in written), written
    if expect.kind is None:
        assert run.code == 0, report
        if command == "conform":
            assert run.stdout.rstrip().endswith("verdict: PASS"), report
        else:
            assert run.stdout == "11 passed, 0 failed, 11 skipped; tested 11 of 11 cases " \
                "(100%); 11 position-start forms not counted: the adapter cannot start from a " \
                "position, and their full-replay cases ran\n", report
        assert written == []
        return
    assert run.code == 2, report
    assert re.search(rf"adapter (fault \()?{re.escape(expect.kind)}\)?: ", run.stderr), report
    for text in expect.evidence:
        assert text in run.stderr, (text, report)
    if mode not in HANDSHAKE_MODES:
        assert f"fault-adapter: {mode} at message 2" in run.stderr, report  # stderr evidence
    if mode in HANDSHAKE_MODES:
        assert written == [], report  # a handshake fault: no game, no replay file
        assert "during vector" not in run.stderr
    elif command == "vectors":
        assert "during vector trick/" in run.stderr, report
        assert run.stdout == "", report  # no totals before an error that stopped the run
    else:
        assert written, report  # a fault during a game is written as a replay file
        assert "ADAPTER FAULT during a game" in run.stderr, report


@pytest.mark.parametrize("command", list(COMMANDS))
def test_sigterm_ends_the_adapter_too(command: str, tmp_path: Path) -> None:
    """``kill RULES_REF`` while the adapter hangs: exit 143, the adapter group is gone."""
    pids = tmp_path / "pids"
    args = [*COMMANDS[command]] + (["--out", str(tmp_path / "out")] if command == "conform"
                                   else [])
    env = {**os.environ, "FAULT_PIDS": str(pids), "FAULT_AT": "2",
           "PYTHONPATH": str(HERE.parent.parent)}
    args = [a if a != str(TIMEOUT) else "60" for a in args]  # only the signal ends it
    proc = subprocess.Popen([*CLI, *args, "--", *ADAPTER, "grandchild-hang"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while not (pids.exists() and pids.read_text().endswith("\n")) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the adapter is at message 2 by now, hanging
    proc.terminate()
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, (out, err)
    assert err.endswith(f"rules-ref {command.split()[0]}: terminated\n"), err
    started = [int(p) for p in pids.read_text().split() if p != "0"]
    assert len(started) == 2
    deadline = time.monotonic() + 5
    while not all(gone(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in started if not gone(p)] == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pids"]
