"""The ``untraced`` marker stops coverage for its test, and only for it (``tests/untraced.py``)."""

from __future__ import annotations

import sys

import pytest

from . import untraced


def _measuring() -> bool:
    try:
        from coverage import Coverage
    except ImportError:  # pragma: no cover - coverage is a dev dependency
        return False
    return Coverage.current() is not None


@pytest.mark.untraced
def test_an_untraced_test_runs_with_no_tracer() -> None:
    assert sys.gettrace() is None


def test_the_next_test_is_measured_again() -> None:
    # under `make test` coverage runs: its tracer is back; without coverage there is none
    assert (sys.gettrace() is not None) is _measuring()


def test_stop_all_stops_every_measurement_until_each_is_started_again() -> None:
    # what a program forked from a test (tests/forked.py) does first: it must run untraced
    measuring = _measuring()
    stopped = untraced.stop_all()
    try:
        assert sys.gettrace() is None
        assert bool(stopped) is measuring
    finally:
        for cov in reversed(stopped):
            cov.start()
    assert (sys.gettrace() is not None) is measuring
