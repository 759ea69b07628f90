"""``rules-ref conform``'s text report: the progress line on a terminal, a fault's evidence."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from rules_ref.cli import main
from rules_ref.cli.conform import _Progress

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
FAULT_ADAPTER = [sys.executable,
                 str(Path(__file__).resolve().parent.parent / "hostile" / "fault_adapter.py")]


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


def test_a_fault_during_a_game_is_reported_with_its_evidence(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("FAULT_AT", "2")
    monkeypatch.delenv("FAULT_PIDS", raising=False)
    code = main(["conform", "--examples", "1", "--seed", "1", "--timeout", "60",
                 "--shrink-seconds", "1", "--max-seconds", "600", "--out", str(tmp_path),
                 "--", *FAULT_ADAPTER, "exit"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == "conform: FAULT: 1 class of difference (1 unexpected, 0 expected)"
    # the fault's example is drawn under its class, which names its replay file
    assert any(line.startswith("    ADAPTER FAULT during a game") for line in lines)
    assert "      exit status: 3" in lines
    assert lines[lines.index("      stderr (tail):") + 1] == \
        "        fault-adapter: exit at message 2"
    assert f"    replay file: {tmp_path}/replay-1-fault.json" in lines
    assert lines[-1] == "verdict: FAULT"
