"""Faulty adapters: every fault ends the run in time, named, with its evidence, leaving nothing.

Each mode of :mod:`tests.hostile.fault_adapter` breaks the protocol in one
way at one message. ``rules-ref conform`` and ``rules-ref vectors run`` are
run against every mode (as separate processes, several at a time, started
with the test session so that they run beside the other tests); each run must

* end by itself, with exit status 2 (0 for the modes that are legal: an
  answer split across writes, a slow answer under the timeout, a flood of
  standard error, an adapter that lingers after ``bye``);
* name the fault (``adapter KIND``, :data:`rules_ref.protocol.client.FAULT_KINDS`)
  and show the evidence: what the adapter printed on standard output, the
  tail of its standard error, its exit status or the signal that killed it;
* leave no process behind (the adapter appends its pid and its grandchild's
  to a file; each must be gone afterwards) and no file but the replay file
  ``conform`` writes under ``--out``.

No outcome depends on the machine's speed. The modes whose fault is a
silence (:data:`SILENT`) run with a short ``--timeout``, long enough for
the adapter to start and answer the messages before its fault even on a
machine many times slower; every other mode runs with a timeout no answer
comes near, so that only its fault can end it. A slow answer comes at half
of :data:`TIMEOUT` (under the long timeout) or at twice the short one.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules_ref import vectors
from rules_ref.protocol.messages import FAULT_KINDS
from tests import forked
from tests.processes import ignores, wait_gone, wait_until

from .fault_adapter import HANDSHAKE_MODES, MODES

HERE = Path(__file__).resolve().parent
ADAPTER = [sys.executable, str(HERE / "fault_adapter.py")]
CLI = [sys.executable, "-m", "rules_ref"]
#: The runner's --timeout for the modes that fall silent (seconds); the adapter paces its
#: slow answers by it (``FAULT_TIMEOUT``).
TIMEOUT = 4.0
#: The modes whose fault is a silence: only the runner's timeout ends them.
SILENT = ("hang", "slow-over", "no-newline", "grandchild-hang")
#: The runner's --timeout for every other mode: far above any answer's time.
UNHURRIED = 120.0
#: A run that takes longer than this is killed: it hangs (a hang detector, not a speed test).
HARD_LIMIT = 300.0


@dataclass(frozen=True)
class Expect:
    kind: str | tuple[str, ...] | None  # None: a legal mode, the run passes; a tuple: any of
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
    # A line written at start arrives before or after the runner has sent the hello,
    # as the two processes happen to run: unsolicited output, or a wrong answer to it.
    "banner": Expect(("not-json", "unsolicited"), ("fault-adapter 1.0 ready",)),
    "early-message": Expect("unsolicited", (_MARK, "message 0 (hello)")),
    "second-hello": Expect("shape", ("a second hello",)),
    "bad-hello": Expect("handshake", ("player counts 5-11",)),
    "wrong-id": Expect("wrong-id", ("carries id",)),
    "rejected-shape": Expect("shape", ("reason is missing",)),
    "hang": Expect("timeout", (f"within {TIMEOUT:g} s",)),
    "slow-under": Expect(None),
    "slow-over": Expect("timeout", (f"within {TIMEOUT:g} s",)),
    "exit": Expect("exit", ("exit status: 3", "exited with status 3")),
    "signal": Expect("exit", ("killed by signal SIGUSR1",)),
    "close-stdout": Expect("exit", ("closed its standard output",)),
    "grandchild": Expect("exit", ("still holds its output open", "exit status: 0")),
    "grandchild-hang": Expect("timeout", (f"within {TIMEOUT:g} s",)),
    "linger": Expect(None),
}
COMMANDS = {
    "conform": ["conform", "--examples", "1", "--seed", "1", "--shrink-seconds", "1",
                "--max-seconds", "600"],
    # the frozen first directory's trick cases: a fixed dozen, whatever the newest holds
    "vectors": ["vectors", "run", "--quiet", "--dir", str(vectors.version_dir(1)), "--kinds",
                "trick"],
}


def _timeout(mode: str) -> list[str]:
    return ["--timeout", f"{TIMEOUT if mode in SILENT else UNHURRIED:g}"]


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    pids: list[int]
    cwd: Path
    out: Path


def _run(command: str, mode: str, root: Path, fork: bool) -> Run:
    base = root / f"{command}-{mode}"
    cwd, out = base / "cwd", base / "out"
    cwd.mkdir(parents=True)
    pids = base / "pids"
    args = [*COMMANDS[command], *_timeout(mode)]
    if command == "conform":
        args += ["--out", str(out)]
    env = {**os.environ, "FAULT_PIDS": str(pids), "FAULT_TIMEOUT": str(TIMEOUT),
           "FAULT_AT": "2", "PYTHONPATH": str(HERE.parent.parent)}
    done = forked.run([*args, "--", *ADAPTER, mode], cwd=cwd, env=env, timeout=HARD_LIMIT,
                      fresh=not fork)
    listed = pids.read_text().split() if pids.exists() else []
    return Run(done.returncode, done.stdout, done.stderr,
               [int(p) for p in listed if p != "0"], cwd, out)


#: The modes that spend most of their run waiting (a timeout, a pause, a lingering
#: adapter): each gets a thread of its own, so that they wait side by side.
WAITING = (*SILENT, "linger", "split", "slow-under")


class _Runs:
    """Every (command, mode) run, under way in threads: the waiting ones all at once.

    With ``fork``, each run is a program forked from this process
    (:mod:`tests.forked`), which saves each the start of a new interpreter: only
    while this process waits for them, since a fork taken while another thread
    runs tests could copy a lock that thread holds. Beside other tests, each is
    started afresh.
    """

    def __init__(self, root: Path, workers: int, fork: bool) -> None:
        jobs = [(c, m) for m in MODES for c in COMMANDS]
        waiting = [job for job in jobs if job[1] in WAITING]
        busy = [job for job in jobs if job[1] not in WAITING]
        self._idle = ThreadPoolExecutor(max_workers=len(waiting))
        self._pool = ThreadPoolExecutor(max_workers=workers)
        self.futures = {job: self._idle.submit(_run, *job, root, fork) for job in waiting}
        self.futures |= {job: self._pool.submit(_run, *job, root, fork) for job in busy}

    def results(self) -> dict[tuple[str, str], Run]:
        return {job: f.result() for job, f in self.futures.items()}

    def close(self) -> None:
        for pool in (self._idle, self._pool):
            pool.shutdown(wait=True, cancel_futures=True)


_STARTED: list[_Runs] = []


def start_in_background(config: pytest.Config, beside_other_tests: bool = False) -> None:
    """Start every run now (``tests/conftest.py`` calls this once the session is collected).

    The runs are processes: started at the beginning of the session they use the
    core that the other tests, run one at a time, leave idle, and are done when
    this file's tests come; beside other tests, one busy run at a time keeps to
    that one core, alone two. On a worker of a parallel run (``make test``) the
    other cores are busy with tests already: there the first test of this file
    starts them, two busy runs at a time.
    """
    if _STARTED:
        return
    root = Path(tempfile.mkdtemp(prefix="rules-ref-faults-"))
    runs = _Runs(root, workers=1 if beside_other_tests else 2, fork=not beside_other_tests)
    _STARTED.append(runs)

    def cleanup() -> None:
        runs.close()
        shutil.rmtree(root, ignore_errors=True)

    config.add_cleanup(cleanup)


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest) -> dict[tuple[str, str], Run]:
    """Every (command, mode) run, started with the session (or now)."""
    start_in_background(request.config)
    return _STARTED[0].results()


def test_every_mode_has_an_expectation() -> None:
    assert set(EXPECT) == set(MODES)
    kinds = {k for e in EXPECT.values() if e.kind is not None
             for k in ((e.kind,) if isinstance(e.kind, str) else e.kind)}
    assert kinds <= set(FAULT_KINDS)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_fault(command: str, mode: str, runs: dict[tuple[str, str], Run]) -> None:
    run = runs[command, mode]
    expect = EXPECT[mode]
    report = f"exit {run.code}\n--- stdout\n{run.stdout}\n--- stderr\n{run.stderr}"
    assert "Traceback" not in run.stderr, report
    # the adapter started (and, for conform, maybe restarted) and its processes are gone
    assert run.pids, report
    assert wait_gone(run.pids) == [], report
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
            assert run.stdout == "11 passed, 0 failed, 0 skipped; tested 11 of 11 cases " \
                "(100%)\n", report
        assert written == []
        return
    assert run.code == 2, report
    kinds = (expect.kind,) if isinstance(expect.kind, str) else expect.kind
    named = "|".join(re.escape(k) for k in kinds)
    assert re.search(rf"adapter (fault \()?({named})\)?: ", run.stderr), report
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
    args += ["--timeout", f"{UNHURRIED:g}"]  # only the signal ends it
    proc = subprocess.Popen([*CLI, *args, "--", *ADAPTER, "grandchild-hang"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert wait_until(lambda: pids.exists() and pids.read_text().endswith("\n"))
    started = [int(p) for p in pids.read_text().split() if p != "0"]
    assert len(started) == 2
    # The adapter ignores SIGTERM once it hangs at message 2: then, and not before, stop the run.
    assert wait_until(lambda: ignores(started[0], signal.SIGTERM))
    proc.terminate()
    out, err = proc.communicate(timeout=HARD_LIMIT)
    assert proc.returncode == 143, (out, err)
    assert err.endswith(f"rules-ref {command.split()[0]}: terminated\n"), err
    assert wait_gone(started) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pids"]
