"""A conform search depends on its seed alone.

Each game's seed is drawn from a generator of the run's seed, and every
decision of the game from a generator of its own: nothing the process drew
before (the global ``random`` state, another search) changes the games a seed
plays, and a run leaves nothing behind but the files it was asked for.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules_ref.cli import main

from ..fakes.broken_adapters import command

SEARCH = ["--json", "--seed", "11", "--examples", "30", "--max-seconds", "600", "--timeout",
          "60", "--shrink-seconds", "0.25"]


def _figures(summary: dict[str, object]) -> tuple[object, ...]:
    return (summary["games"], summary["deals"], summary["actions_compared"],
            summary["illegal_offered"], summary["rules"])


def test_the_same_seed_plays_the_same_games_whatever_the_process_drew_before(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    random.seed(99)
    random.random()  # the process's own draws
    monkeypatch.chdir(tmp_path)
    adapter = command("queen-ten")
    code = main(["conform", *SEARCH, "--out", str(tmp_path / "in"), "--", *adapter])
    here = json.loads(capsys.readouterr().out)
    fresh = subprocess.run([sys.executable, "-m", "rules_ref", "conform", *SEARCH, "--out",
                            str(tmp_path / "fresh"), "--", *adapter], cwd=tmp_path,
                           capture_output=True, text=True, check=False,
                           env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert (code, fresh.returncode) == (1, 1), fresh.stderr
    assert _figures(here) == _figures(json.loads(fresh.stdout))
    # nothing but the replay files the runs were asked for
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "in"]
