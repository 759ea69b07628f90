"""The command line as a program of its own, forked from the test process instead of started anew.

Many tests run ``rules-ref conform`` or ``rules-ref vectors run`` as a separate
program: with its own process, streams, exit status and signals, and the
adapter it starts as its child. A new interpreter first spends about a quarter
of a second importing the package and Hypothesis; a fork of the test process,
which has imported them already, starts at once. :func:`run` returns what
:func:`subprocess.run` returns with ``capture_output=True, text=True``.

In the child, as in a program started afresh:

* standard input, output and error are pipes (the input holds ``input``);
  the environment and the working directory are the ones given;
* SIGTERM ends it, SIGINT raises :class:`KeyboardInterrupt`; :mod:`random` is
  seeded anew; Hypothesis has its ``default`` settings profile, not the suite's;
* coverage measurement is stopped (the fork would trace every line, and its
  data would never be saved: the adapters and programs that tests start are
  not traced either, ``pyproject.toml``);
* the objects it was forked with are left out of its garbage collection
  (:func:`gc.freeze`): walking them would copy the whole test process;
* it ends with :func:`os._exit` once its streams are flushed, so nothing of
  the test process runs at its exit.

Fork only while the other threads of the test process wait (for these runs, say):
a fork taken while another thread runs a test could copy a lock that thread
holds, and the child would wait for it forever (until the run's ``timeout``).
``tests/hostile/test_faults.py`` starts its runs afresh when they go on beside
other tests.

The tests of the program itself (its entry point, its start-up, the installed
script) still start it with :mod:`subprocess`.
"""

from __future__ import annotations

import contextlib
import gc
import os
import random
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path

from . import untraced

#: The interpreter's own status for an exception nobody caught.
UNCAUGHT = 1
#: How long a program past its time has, after SIGTERM, to end its adapter (seconds).
GRACE = 10.0


#: Serializes the forks, and guards :data:`_LIVE`.
_FORK_LOCK = threading.Lock()
#: The test process's ends of the pipes of every child still under way. A child forked
#: from one thread while another child runs inherits them: it closes them at once, or the
#: other child's streams would not reach their end until this one ends too.
_LIVE: set[int] = set()


def _release(fd: int) -> None:
    with _FORK_LOCK:
        _LIVE.discard(fd)
        os.close(fd)


def _reader(fd: int, into: list[bytes]) -> threading.Thread:
    def read() -> None:
        try:
            while chunk := os.read(fd, 65536):
                into.append(chunk)
        finally:
            _release(fd)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def _writer(fd: int, data: bytes) -> threading.Thread:
    def write() -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view):]
        except BrokenPipeError:  # the program ended without reading it all
            pass
        finally:
            _release(fd)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _exit_code(exc: SystemExit) -> int:
    """The status ``sys.exit(value)`` gives a program (as the interpreter computes it)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    print(exc.code, file=sys.stderr)
    return UNCAUGHT


def _child(args: Sequence[str], env: Mapping[str, str] | None,
           cwd: str | Path | None) -> int:  # pragma: no cover - runs in the child only
    untraced.stop_all()  # for good: the child's data is never saved
    gc.freeze()  # the test process's objects: never collected here, so never copied or walked
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    encoding, _, errors = os.environ.get("PYTHONIOENCODING", "utf-8").partition(":")
    sys.stdin = open(0, encoding=encoding, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding=encoding, errors=errors or "strict",  # noqa: SIM115
                      closefd=False)
    sys.stderr = open(2, "w", encoding=encoding, errors="backslashreplace",  # noqa: SIM115
                      buffering=1, closefd=False)
    sys.argv = ["rules-ref", *args]
    random.seed()
    from hypothesis import settings

    settings.load_profile("default")
    from rules_ref.cli import main

    try:
        code = main(list(args))
    except SystemExit as exc:
        code = _exit_code(exc)
    except KeyboardInterrupt:
        traceback.print_exc()
        code = 128 + signal.SIGINT
    except BaseException:
        traceback.print_exc()
        code = UNCAUGHT
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe, as at a program's exit
            stream.flush()
    return code


class Forked:
    """``rules-ref ARGS`` under way in a forked child; :meth:`wait` gives its outcome."""

    def __init__(self, args: Sequence[str], *, env: Mapping[str, str] | None = None,
                 cwd: str | Path | None = None, input: str = "") -> None:
        self.args = ["rules-ref", *args]
        sys.stdout.flush()
        sys.stderr.flush()
        with _FORK_LOCK:
            in_r, in_w = os.pipe()
            out_r, out_w = os.pipe()
            err_r, err_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child
                code = UNCAUGHT
                try:
                    for fd, target in ((in_r, 0), (out_w, 1), (err_w, 2)):
                        os.dup2(fd, target)
                    for fd in (in_r, in_w, out_r, out_w, err_r, err_w, *_LIVE):
                        os.close(fd)
                    code = _child(args, env, cwd)
                except BaseException:
                    traceback.print_exc(file=open(2, "w", closefd=False))  # noqa: SIM115
                finally:
                    os._exit(code)
            for fd in (in_r, out_w, err_w):
                os.close(fd)
            _LIVE.update((in_w, out_r, err_r))
        self.pid = pid
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._threads = [_writer(in_w, input.encode()), _reader(out_r, self._out),
                         _reader(err_r, self._err)]

    def wait(self, timeout: float) -> subprocess.CompletedProcess[str]:
        """Wait until the program has ended and closed its streams, at most ``timeout`` s.

        Past ``timeout`` (a hang detector, far above any run's time) the child
        is ended (:meth:`_end`) and :class:`subprocess.TimeoutExpired` raised.
        """
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                self._end()
                raise subprocess.TimeoutExpired(self.args, timeout, b"".join(self._out),
                                                b"".join(self._err))
        _, status = os.waitpid(self.pid, 0)
        return subprocess.CompletedProcess(
            self.args, os.waitstatus_to_exitcode(status),
            b"".join(self._out).decode("utf-8", "replace"),
            b"".join(self._err).decode("utf-8", "replace"))


    def _end(self) -> None:
        """SIGTERM (the program ends its adapter too), then SIGKILL if it outlives :data:`GRACE`."""
        os.kill(self.pid, signal.SIGTERM)
        deadline = time.monotonic() + GRACE
        while time.monotonic() < deadline:
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                return
            time.sleep(0.02)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)


def run(args: Sequence[str], *, env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None, input: str = "", timeout: float = 300.0,
        fresh: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``rules-ref ARGS`` as a program forked from this process, and wait for it.

    With ``fresh``, the program is started anew instead (``python -m rules_ref``), for a
    caller whose other threads may be running tests meanwhile (see the module's text).
    """
    if fresh:
        return subprocess.run([sys.executable, "-m", "rules_ref", *args], input=input,
                              capture_output=True, text=True, timeout=timeout, check=False,
                              env=None if env is None else dict(env), cwd=cwd)
    return Forked(args, env=env, cwd=cwd, input=input).wait(timeout)
