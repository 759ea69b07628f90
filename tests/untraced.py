"""Tests marked ``untraced`` run with coverage measurement stopped (``tests/conftest.py``).

Long runs that replay, thousands of times over, lines the rest of the suite
reaches too (random deals played step by step, every vector checked again,
fuzzing, whole conform runs, docs builds); traced, they took two or three
times as long. They were chosen by measuring each test's coverage on its
own (a coverage context per test): together they reach fewer than 40 of
the package's 16,800 arcs that no traced test reaches, so the figure the
suite reports is a lower bound of what it covers, within a quarter of a
percent. Coverage
keeps a stack of running measurements (in a worker of a parallel run there
are two, and ``pytest-cov``'s own ``no_cover`` stops only the top one, so
the one below resumes): every one is stopped for the test and started again
after it, in the order they were started, so nothing it measured before or
after is lost. Without coverage running, nothing changes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

MARKER = "untraced"


def measuring() -> bool:
    """Whether a coverage measurement is running in this process."""
    try:
        from coverage import Coverage
    except ImportError:  # pragma: no cover - coverage is a dev dependency
        return False
    return Coverage.current() is not None and sys.gettrace() is not None


def stop_all() -> list[Any]:
    """Stop every running coverage measurement; return them, the first stopped first."""
    try:
        from coverage import Coverage
    except ImportError:  # pragma: no cover - coverage is a dev dependency
        return []
    stopped: list[Any] = []
    while (current := Coverage.current()) is not None and sys.gettrace() is not None:
        current.stop()
        stopped.append(current)
    return stopped


@contextmanager
def untraced() -> Iterator[None]:
    """Stop every running coverage measurement for the duration of the block."""
    stopped = stop_all()
    try:
        yield
    finally:
        for cov in reversed(stopped):
            cov.start()
