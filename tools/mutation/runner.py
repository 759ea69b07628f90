"""Running the tests against a mutant: a copy of the project and one process per mutant.

The work tree is never changed. :func:`make_copy` copies the package, the
tests, the spec and ``pyproject.toml`` into a temporary directory (one copy
per parallel job); a mutant is written into its job's copy, the tests run in
a child process forked from this one with the copy first on ``sys.path``
(and as the working directory), and the original file is put back when the
child ends.

The child is forked from a process that has imported pytest and Hypothesis
but never ``rules_ref``, so each child imports the (mutated) package afresh
and start-up costs little. A child checks, once the tests are collected,
that ``rules_ref`` came from its copy; if not it exits with
:data:`EXIT_WRONG_COPY` and the mutant is reported as an error, never as
killed or survived.

Test selection: a baseline run (the unmutated copy) traces, for every test,
which mutated-module functions it calls (:class:`TracePlugin`). A mutant then
runs only the tests that call its function: first those whose
``@pytest.mark.rule`` names a rule the function implements (``@implements``),
then the rest, each group fastest first, stopping at the first failure
(``-x``). A function no test calls cannot be killed by these tests: its
mutants are reported as survivors without a run ("no test calls it").

Time limits: each test gets ``PER_TEST_FACTOR`` times its traced baseline time
plus ``PER_TEST_MARGIN`` seconds (a SIGALRM in the child, which then exits
with :data:`EXIT_TIMEOUT`); the whole child gets the sum plus
``CHILD_MARGIN``, after which its process group is killed. Either way the
mutant is "killed by timeout", reported as such.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

POOL = ("tests/rules", "tests/properties", "tests/regressions")
COPIED = ("rules_ref", "tests", "spec", "pyproject.toml")
PROFILE = "ci"

EXIT_TIMEOUT = 75
EXIT_WRONG_COPY = 76
EXIT_CRASH = 77
PER_TEST_FACTOR = 10.0
PER_TEST_MARGIN = 10.0
CHILD_MARGIN = 60.0
PER_TEST_DEFAULT = 60.0
MEMORY_LIMIT = 2 * 1024 ** 3

#: Tests that judge the session as a whole (the rare-path report) are never selected.
SESSION_FIXTURES = ("rare_path_report",)


def make_copy(root: Path, dest: Path) -> Path:
    """Copy what the tests need from ``root`` into ``dest`` (no caches); return ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "_build")
    for name in COPIED:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, dest / name)
    return dest.resolve()


# --- the plugins the child loads ------------------------------------------------------------

class SelectPlugin:
    """Keeps only the selected tests, in the given order, and checks the package's origin."""

    def __init__(self, order: list[str], copy_root: str, per_test: dict[str, float],
                 record: str) -> None:
        self.order = order
        self.copy_root = copy_root
        self.per_test = per_test
        self.record = record

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        rank = {nid: i for i, nid in enumerate(self.order)}

        def place(item: Any) -> int:  # an entry naming a whole file keeps all its tests
            nodeid: str = item.nodeid
            return rank.get(nodeid, rank.get(nodeid.split("::")[0], -1))

        keep = sorted((i for i in items if place(i) >= 0), key=place)
        drop = [i for i in items if place(i) < 0]
        if drop:
            config.hook.pytest_deselected(items=drop)
        items[:] = keep

    def pytest_collection_finish(self, session: Any) -> None:
        package = sys.modules.get("rules_ref")
        origin = getattr(package, "__file__", None) or ""
        if not origin.startswith(self.copy_root + os.sep):
            os._exit(EXIT_WRONG_COPY)

    def pytest_runtest_setup(self, item: Any) -> None:
        limit = self.per_test.get(item.nodeid, PER_TEST_DEFAULT)

        def expire(signum: int, frame: FrameType | None) -> None:
            _write(self.record, {"timeout": item.nodeid})
            os._exit(EXIT_TIMEOUT)

        signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, limit)

    def pytest_runtest_logfinish(self, nodeid: str, location: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed and not os.path.exists(self.record):
            _write(self.record, {"killed_by": report.nodeid})


def _write(path: str, data: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)


_MISSING = object()


class TracePlugin:
    """Records, per test, its time, rule markers and the mutated-module functions it calls.

    Functions called outside every test (while the test modules are imported,
    say) are recorded apart: every test depends on them.
    """

    def __init__(self, lookup: Callable[[str, int], str | None]) -> None:
        self.lookup = lookup
        self.cache: dict[CodeType, str | None] = {}
        self.tests: dict[str, dict[str, Any]] = {}
        #: Functions called outside any test: at import (module-level tables) or collection.
        self.outside: set[str] = set()

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        drop = [i for i in items if any(f in getattr(i, "fixturenames", ()) for f in
                                        SESSION_FIXTURES)]
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = [i for i in items if i not in drop]

    def _profiler(self, seen: set[str]) -> Callable[[FrameType, str, object], None]:
        cache, lookup = self.cache, self.lookup

        def profile(frame: FrameType, event: str, arg: object) -> None:
            if event == "call":
                code = frame.f_code
                key = cache.get(code, _MISSING)
                if key is _MISSING:
                    key = cache[code] = lookup(code.co_filename, code.co_firstlineno)
                if key is not None:
                    seen.add(key)  # type: ignore[arg-type]

        return profile

    def start(self) -> None:
        """Start recording calls outside the tests: before pytest imports any conftest."""
        sys.setprofile(self._profiler(self.outside))

    def pytest_sessionfinish(self, session: Any) -> None:
        sys.setprofile(None)

    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Iterator[None]:
        seen: set[str] = set()
        start = time.perf_counter()
        sys.setprofile(self._profiler(seen))
        try:
            yield
        finally:
            sys.setprofile(self._profiler(self.outside))
        rules = sorted({str(a) for m in item.iter_markers("rule") for a in m.args})
        entry = self.tests.setdefault(item.nodeid, {"outcome": "passed"})
        entry.update(seconds=time.perf_counter() - start, calls=sorted(seen), rules=rules,
                     file=item.nodeid.split("::")[0])

    pytest_runtest_protocol.hookwrapper = True  # type: ignore[attr-defined]

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed:
            self.tests.setdefault(report.nodeid, {})["outcome"] = "failed"


# --- children -------------------------------------------------------------------------------

def _pytest_args(copy_root: str, files: list[str]) -> list[str]:
    return [*files, "-x", "-q", "--no-header", "-p", "no:cacheprovider", "--rootdir", copy_root,
            "-c", os.path.join(copy_root, "pyproject.toml")]


def _child(copy_root: str, log: str, body: Callable[[], int]) -> int:
    """Fork a child that runs ``body`` in ``copy_root``; return its pid."""
    pid = os.fork()
    if pid:
        return pid
    code = EXIT_CRASH
    try:
        os.setpgid(0, 0)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        except (ImportError, ValueError, OSError):
            pass
        os.chdir(copy_root)
        sys.path.insert(0, copy_root)
        sys.dont_write_bytecode = True
        os.environ["PYTHONPATH"] = copy_root
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        os.environ["RULES_REF_HYPOTHESIS_PROFILE"] = PROFILE
        code = body()
    except BaseException:  # the child must never return into the campaign
        import traceback
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _prepare() -> None:
    """Import pytest and Hypothesis here, once, so every child starts warm."""
    if "rules_ref" in sys.modules:
        raise RuntimeError("the campaign process must not import rules_ref: children would "
                           "inherit the unmutated package")
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401


def baseline(copy_root: Path, units: dict[str, list[tuple[int, int, str]]],
             out: Path) -> dict[str, Any]:
    """Run the pool unmutated with tracing: ``{"tests": {nodeid: record}, "outside": [...]}``."""
    _prepare()
    root = str(copy_root)
    index = {os.path.join(root, module): spans for module, spans in units.items()}

    def lookup(filename: str, line: int) -> str | None:
        spans = index.get(filename)
        if spans is None:
            return None
        for first, last, key in spans:
            if first <= line <= last:
                return key
        return None

    def body() -> int:
        import pytest
        plugin = TracePlugin(lookup)
        plugin.start()
        pool = [p for p in POOL if os.path.exists(os.path.join(root, p))]
        code = int(pytest.main([*pool, "-q", "--no-header", "-p", "no:cacheprovider",
                                "--rootdir", root, "-c", os.path.join(root, "pyproject.toml")],
                               plugins=[plugin]))
        _write(str(out), {"exit": code, "tests": plugin.tests,
                          "outside": sorted(plugin.outside)})
        return 0

    pid = _child(root, str(out) + ".log", body)
    _, status, usage = os.wait4(pid, 0)
    if not out.exists():
        raise RuntimeError(f"the baseline run failed (status {status}); see {out}.log")
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    data["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 1)
    return data


@dataclass
class Job:
    """One mutant to run: the file to change, its text, and the tests in order."""

    key: str
    module: str
    source: str
    order: list[str]
    per_test: dict[str, float]
    result: dict[str, Any] = field(default_factory=dict)


def run_jobs(jobs: list[Job], slots: list[Path], work: Path,
             progress: Callable[[Job], None], stop_at: float | None = None) -> None:
    """Run the jobs in order, ``len(slots)`` at a time; fill in each ``job.result``.

    After ``stop_at`` (a :func:`time.monotonic` time), or on SIGTERM or SIGINT, no
    new job starts and the running ones finish: the jobs run are a prefix of
    ``jobs``, and the others keep an empty ``result["status"]``.
    """
    _prepare()
    waiting = list(jobs)
    running: dict[int, tuple[Job, Path, float, float, bytes]] = {}
    free = list(slots)
    stopping = [False]

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping[0] = True

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        _loop(waiting, running, free, work, progress, stop_at, stopping)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _loop(waiting: list[Job], running: dict[int, tuple[Job, Path, float, float, bytes]],
          free: list[Path], work: Path, progress: Callable[[Job], None], stop_at: float | None,
          stopping: list[bool]) -> None:
    while waiting or running:
        if stopping[0] or (stop_at is not None and time.monotonic() > stop_at):
            waiting.clear()
        while waiting and free:
            job = waiting.pop(0)
            slot = free.pop(0)
            target = slot / job.module
            original = target.read_bytes()
            target.write_text(job.source, encoding="utf-8")
            record = work / (job.key.replace("/", "_").replace(":", "_") + ".json")
            if record.exists():
                record.unlink()
            files = sorted({nid.split("::")[0] for nid in job.order})
            root = str(slot)

            def body(job: Job = job, root: str = root, record: Path = record,
                     files: list[str] = files) -> int:
                import pytest
                plugin = SelectPlugin(job.order, root, job.per_test, str(record))
                return int(pytest.main(_pytest_args(root, files), plugins=[plugin]))

            limit = sum(job.per_test.values()) + CHILD_MARGIN
            pid = _child(root, str(record) + ".log", body)
            running[pid] = (job, slot, time.monotonic(), limit, original)
            job.result["record"] = str(record)
        if not running:
            break
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        if pid == 0:
            now = time.monotonic()
            for cpid, (job, _slot, started, limit, _o) in list(running.items()):
                if now - started > limit:
                    job.result["wall_timeout"] = True
                    _kill(cpid)
            time.sleep(0.05)
            continue
        job, slot, started, _limit, original = running.pop(pid)
        (slot / job.module).write_bytes(original)
        free.append(slot)
        job.result.update(_classify(job, status, time.monotonic() - started))
        job.result["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 2)
        progress(job)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def _classify(job: Job, status: int, seconds: float) -> dict[str, Any]:
    record = Path(job.result["record"])
    info: dict[str, Any] = {}
    if record.exists():
        info = json.loads(record.read_text(encoding="utf-8") or "{}")
    code = os.waitstatus_to_exitcode(status)
    out: dict[str, Any] = {"seconds": round(seconds, 2), "exit": code}
    if job.result.get("wall_timeout") or code == EXIT_TIMEOUT:
        out.update(status="timeout", killed_by=info.get("timeout"))
    elif code == 0:
        out.update(status="survived")
    elif code in (1, 2):  # tests failed, or the mutant broke collection (an import error)
        out.update(status="killed", killed_by=info.get("killed_by") or "collection error")
    elif code == 4 and "while loading conftest" in _tail(Path(str(record) + ".log"), 200):
        # the mutant breaks the import of rules_ref itself, which tests/conftest.py imports
        out.update(status="killed", killed_by="tests/conftest.py (import of rules_ref failed)")
    else:
        out.update(status="error", detail=_tail(Path(str(record) + ".log")))
    return out


def _tail(log: Path, lines: int = 8) -> str:
    try:
        return "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""
