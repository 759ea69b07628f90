"""The harnesses on the real engines: only where the user supplied them.

Each test is skipped, saying why and how to supply the engine, when its checkout is not
given (``PEERS_ALLANH``, ``PEERS_CRCOWAN``: peers/README.md), as in CI.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from peers.harness.checkout import CheckoutError, Pin, read_files
from peers.known import ENGINES

ROOT = Path(__file__).resolve().parents[2]
NEEDS = {"allanh": ["node"], "crcowan": ["mcs", "mono"]}


def pin(engine: str) -> Pin:
    if engine == "allanh":
        from peers.allanh.engine import PIN
    else:
        from peers.crcowan.build import PIN
    return PIN


def supplied(engine: str) -> None:
    """Skip, with the reason, unless the engine and its tools are here."""
    try:
        read_files(pin(engine), None)
    except CheckoutError as exc:
        pytest.skip(str(exc))
    missing = [tool for tool in NEEDS[engine] if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{engine}: {', '.join(missing)} not installed")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_engine_under_its_preset_shows_only_its_known_bugs(engine: str, tmp_path: Path) -> None:
    supplied(engine)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rules_ref",
            "conform",
            "--json",
            "--seed",
            "3",
            "--examples",
            "25",
            "--max-seconds",
            "60",
            "--preset",
            engine,
            "--expect",
            f"peers/{engine}/expect.json",
            "--out",
            str(tmp_path),
            "--",
            sys.executable,
            "peers/adapter.py",
            engine,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    summary = json.loads(done.stdout)
    assert summary["verdict"] in ("pass", "expected-not-seen"), summary.get("classes")
    assert [c for c in summary["classes"] if not c["expected"]] == []
    assert summary["deals"] > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_wrong_checkout_is_one_line_and_exit_status_2(engine: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "peers/adapter.py", engine, "--checkout", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        input="",
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "is missing (not a checkout of" in done.stderr
