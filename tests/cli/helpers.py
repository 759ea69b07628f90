"""Running the command line in a test: in this process, or as a program with its own streams."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from rules_ref.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, standard output, standard error)."""
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own errors and --version
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def program(args: list[str], stdin: str = "", env: dict[str, str] | None = None,
            encoding: str = "utf-8") -> subprocess.CompletedProcess[str]:
    """Run ``python -m rules_ref ARGS`` as a separate program with a piped standard input."""
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONIOENCODING", "NO_COLOR")}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "rules_ref", *args], input=stdin,
                          capture_output=True, text=True, encoding=encoding, timeout=120,
                          check=False, env=environment, cwd=ROOT)


def game_over(totals: Sequence[int], winners: Sequence[int]) -> list[str]:
    """The last lines of a game's log: the final totals by seat, then who won."""
    who = ", ".join(f"seat {s}" for s in winners)
    return ["Game over (GAME.END), the final totals:",
            "    seat: " + "".join(f"{s:>6}" for s in range(len(totals))),
            "    total:" + "".join(f"{t:>6}" for t in totals),
            (f"Winner: {who}" if len(winners) == 1 else f"Winners: {who} (tied for lowest)")
            + " (GAME.WINNER)"]
