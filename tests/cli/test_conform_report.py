"""``rules-ref conform``'s report in this process: progress line, time budget, several jobs."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

import rules_ref.cli as cli
from rules_ref.cli.conform import _Progress
from rules_ref.conform import runner as search

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]


class StepClock:
    """A clock for the search that moves one second at each reading: its time budget then
    ends after as many readings as the search makes, whatever the machine's speed."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def test_the_progress_line_is_drawn_then_cleared(capsys: pytest.CaptureFixture[str]) -> None:
    progress = _Progress()
    progress.clear()  # nothing shown yet: nothing to clear
    assert capsys.readouterr().err == ""
    progress(SimpleNamespace(games=2, deals=10, actions=300, illegal=7), 2.0)
    line = ("conform: 2 games, 10 deals, 300 actions compared, 7 illegal offered, 5 deals/s, "
            "2 s")
    assert capsys.readouterr().err == "\r" + line.ljust(100)
    progress(SimpleNamespace(games=0, deals=0, actions=0, illegal=0), 0.0)
    assert "0 deals/s, 0 s" in capsys.readouterr().err
    progress.clear()
    assert capsys.readouterr().err == "\r" + " " * 100 + "\r"
    progress.clear()
    assert capsys.readouterr().err == ""


def test_a_time_budget_ends_the_search(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "time", StepClock())
    assert cli.main(["conform", "--examples", "100000", "--seed", "3", "--players", "6",
                     "--max-seconds", "3", "--shrink-seconds", "1", "--",
                     *REFERENCE]) == 0
    out = capsys.readouterr().out
    assert "  the time budget (3 s) ended the search after " in out
    assert " of 100000 games\n" in out
    assert out.endswith("verdict: PASS\n")


def test_several_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["conform", "--examples", "2", "--seed", "5", "--jobs", "2",
                     "--max-seconds", "600", "--", *REFERENCE]) == 0
    out = capsys.readouterr().out
    assert "; seed 5; 2 jobs" in out
    assert out.endswith("verdict: PASS\n")
