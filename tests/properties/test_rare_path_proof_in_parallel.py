"""The rare-path proof in a parallel run: it reads the tallies of every test that feeds them.

A small suite is run with two workers (``pytest -n 2``): two modules feed the
tallies, each with half of the rare paths and of the illegal actions, and
several other modules keep both workers busy. The proof is
:func:`tests.properties.test_zz_rare_paths.test_every_rare_path_ran` itself,
with this suite's configuration (``tests/conftest.py``, ``tests/parallel.py``).
It passes only if it runs where both halves were counted; with one rare path
left out it fails and names it; in another distribution mode it refuses to run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from rules_ref.exercise.detect import RARE_PATHS

from .test_zz_rare_paths import ILLEGAL_RULES

ROOT = Path(__file__).resolve().parents[2]

FEEDER = '''
import os

PATHS = {paths!r}
RULES = {rules!r}


def test_feeds_{name}(rare_path_tally, rejection_tally):
    for path in PATHS:
        if path != os.environ.get("LEAVE_OUT"):
            rare_path_tally.counts[path] += 1
    rare_path_tally.actions += 1
    rejection_tally.update(RULES)
'''
OTHER = '''
import pytest


@pytest.mark.parametrize("n", range(3))
def test_other(n):
    assert n in range(3)
'''


def _suite(root: Path) -> None:
    half_paths, half_rules = len(RARE_PATHS) // 2, len(ILLEGAL_RULES) // 2
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "conftest.py").write_text("from tests.conftest import *  # noqa: F403\n")
    (root / "test_feed_a.py").write_text(FEEDER.format(
        paths=RARE_PATHS[:half_paths], rules=ILLEGAL_RULES[:half_rules], name="a"))
    for n in range(4):
        (root / f"test_other_{n}.py").write_text(OTHER)
    (root / "test_feed_b.py").write_text(FEEDER.format(
        paths=RARE_PATHS[half_paths:], rules=ILLEGAL_RULES[half_rules:], name="b"))
    (root / "test_proof.py").write_text(
        "from tests.properties.test_zz_rare_paths import test_every_rare_path_ran  # noqa: F401\n")


def _run(root: Path, *args: str, leave_out: str = "") -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "COV_CORE_", "COVERAGE_"))}
    env |= {"PYTHONPATH": str(ROOT), "LEAVE_OUT": leave_out}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v",
                           "-n", "2", *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    return done.returncode, done.stdout + done.stderr


#: A line of ``pytest -v -n 2``: the worker, the outcome and the test.
LINE = re.compile(r"^\[(gw\d+)\] \[ *\d+%\] ([A-Z]+) (\S+)", re.MULTILINE)
PROOF = "test_proof.py::test_every_rare_path_ran"


def _outcomes(output: str) -> dict[str, tuple[str, str]]:
    """The worker that ran each test and its outcome, by node ID."""
    return {m[3]: (m[1], m[2]) for m in LINE.finditer(output)}


def test_the_proof_reads_the_tallies_of_every_worker_it_needs(tmp_path: Path) -> None:
    _suite(tmp_path)
    code, output = _run(tmp_path, "--dist", "loadfile")
    assert code == 0, output
    ran = _outcomes(output)
    assert len(ran) == 15, output
    assert ran[PROOF] == ran["test_feed_a.py::test_feeds_a"] == ran[
        "test_feed_b.py::test_feeds_b"], output
    assert ran[PROOF][1] == "PASSED", output
    assert {worker for worker, _ in ran.values()} == {"gw0", "gw1"}, output


def test_a_rare_path_never_reached_fails_the_proof(tmp_path: Path) -> None:
    _suite(tmp_path)
    code, output = _run(tmp_path, "--dist", "loadfile", leave_out=RARE_PATHS[-1])
    assert code == 1, output
    ran = _outcomes(output)
    assert ran[PROOF][1] == "FAILED", output
    assert [test for test, (_, outcome) in ran.items() if outcome != "PASSED"] == [PROOF]
    assert "rare paths never exercised" in output, output
    assert f"'{RARE_PATHS[-1]}'" in output, output


def test_another_distribution_is_refused_by_the_proof(tmp_path: Path) -> None:
    _suite(tmp_path)
    code, output = _run(tmp_path, "--dist", "load")
    assert code == 1, output
    assert _outcomes(output)[PROOF][1] == "ERROR", output
    assert "the rare-path proof needs every test that feeds it on its worker, and this " \
           "parallel run does not keep them on one worker: run with --dist loadfile" in output
