"""``rules-ref conform`` on a terminal: one progress line, updated in place and cleared."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from rules_ref.cli import main
from rules_ref.cli.conform import _Progress

REFERENCE = [sys.executable, "-m", "rules_ref.conformance.adapter"]


def test_the_progress_line(capsys: pytest.CaptureFixture[str]) -> None:
    progress = _Progress()
    progress.clear()  # nothing shown yet: nothing to clear
    assert capsys.readouterr().err == ""
    stats = SimpleNamespace(games=3, deals=10, actions=500, illegal=40)
    progress(stats, 2.0)
    line = ("conform: 3 games, 10 deals, 500 actions compared, 40 illegal offered, "
            "5 deals/s, 2 s")
    assert capsys.readouterr().err == "\r" + line.ljust(100)
    progress(stats, 0.0)
    assert "0 deals/s, 0 s" in capsys.readouterr().err
    progress.clear()
    assert capsys.readouterr().err == "\r" + " " * 100 + "\r"


def test_a_search_on_a_terminal_clears_its_progress_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code = main(["conform", "--examples", "3", "--seed", "3", "--max-seconds", "600",
                 "--timeout", "60", "--", *REFERENCE])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.rstrip().endswith("verdict: PASS")
    assert err == "" or (err.startswith("\rconform: ") and err.endswith("\r" + " " * 100 + "\r"))
