"""Process checks shared by the tests that start adapters.

None of them measures time: :func:`wait_gone` and :func:`wait_until` poll
with a bound meant only to stop a test that would otherwise hang, generous
enough for a machine ten times slower than any the suite has run on.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterable
from pathlib import Path

#: How long a wait may last before the test gives up (seconds): a hang detector, not a
#: speed requirement.
PATIENCE = 60.0


def _status(pid: int) -> str | None:
    """The text of ``/proc/PID/status``, or None once the process is gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    try:
        return Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None


def gone(pid: int) -> bool:
    """True once process ``pid`` has ended (a zombie not yet reaped counts as ended)."""
    status = _status(pid)
    return status is None or "\nState:\tZ" in status


def ignores(pid: int, signum: signal.Signals) -> bool:
    """True if process ``pid`` is running and has set ``signum`` to be ignored."""
    status = _status(pid)
    if status is None or "\nState:\tZ" in status:
        return False
    for line in status.splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def wait_until(condition: Callable[[], bool], patience: float = PATIENCE) -> bool:
    """Poll ``condition`` until it holds (True) or ``patience`` seconds have passed (False)."""
    deadline = time.monotonic() + patience
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def wait_gone(pids: Iterable[int], patience: float = PATIENCE) -> list[int]:
    """Wait for every process of ``pids`` to end; return those still running (normally [])."""
    pids = list(pids)
    wait_until(lambda: all(gone(p) for p in pids), patience)
    return [p for p in pids if not gone(p)]
