"""A program forked from the test process (``tests/forked.py``) behaves as one started afresh."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from . import forked
from .processes import wait_gone, wait_until

TRICK = ["trick", "9C", "9C", "4C", "4C", "7H", "7H"]


@pytest.mark.parametrize("args", [TRICK, ["trick", "9C", "XX"], ["rules", "NO.SUCH_RULE"],
                                  ["rules", "--no-such-option"], ["--version"]])
def test_status_and_streams_are_a_fresh_programs(args: list[str]) -> None:
    fresh, fork = forked.run(args, fresh=True), forked.run(args)
    assert (fork.returncode, fork.stdout, fork.stderr) == (
        fresh.returncode, fresh.stdout, fresh.stderr)
    assert fork.args == ["rules-ref", *args]


def test_the_environment_and_the_directory_are_the_ones_given(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}  # an output without suit symbols
    fresh, fork = forked.run(TRICK, env=env, fresh=True), forked.run(TRICK, env=env)
    assert (fork.returncode, fork.stdout, fork.stderr) == (
        fresh.returncode, fresh.stdout, fresh.stderr)
    assert "♣" not in fork.stdout and "Cancelled: 4C pair" in fork.stdout
    assert os.environ.get("PYTHONIOENCODING") != "cp1252"  # this process's is untouched
    record = forked.run(["play", "--players", "6", "--seed", "1", "--json"])
    (tmp_path / "game.json").write_text(record.stdout, encoding="utf-8")
    done = forked.run(["validate", "game.json"], cwd=tmp_path)  # found in the given directory
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    assert json.loads(record.stdout)["players"] == 6


def _written(pid_file: Path) -> bool:
    """True once the adapter has written its pid to ``pid_file``."""
    return pid_file.exists() and pid_file.read_text().strip() != ""


def _hanging_adapter(pid_file: Path) -> list[str]:
    """An adapter that writes its pid and never answers."""
    return ["sh", "-c", f"echo $$ > {pid_file}; exec sleep 3600"]


def test_a_run_past_its_time_is_ended_with_its_adapter(tmp_path: Path) -> None:
    pid_file = tmp_path / "adapter.pid"
    started = forked.Forked(["vectors", "run", "--timeout", "3600", "--",
                             *_hanging_adapter(pid_file)])
    assert wait_until(functools.partial(_written, pid_file))
    with pytest.raises(subprocess.TimeoutExpired) as caught:
        started.wait(timeout=0.5)
    assert caught.value.cmd[:3] == ["rules-ref", "vectors", "run"]
    assert wait_gone([started.pid, int(pid_file.read_text())]) == []


def _pipes_of(pid: int) -> set[str]:
    """The pipes process ``pid`` holds open (``pipe:[inode]``)."""
    fds = Path(f"/proc/{pid}/fd")
    return {t for t in (os.readlink(fd) for fd in fds.iterdir()) if t.startswith("pipe:")}


def test_a_run_forked_beside_another_holds_none_of_its_pipes(tmp_path: Path) -> None:
    # the second fork starts with copies of every pipe end this process holds for the
    # first run: it closes them at once, or the first run's streams could not reach their
    # end while the second one lasts
    runs = []
    try:
        for name in ("first", "second"):
            pid_file = tmp_path / name
            runs.append(forked.Forked(["vectors", "run", "--timeout", "3600", "--",
                                       *_hanging_adapter(pid_file)]))
            assert wait_until(functools.partial(_written, pid_file))
            if name == "first":
                with forked._FORK_LOCK:
                    first_ends = {f"pipe:[{os.fstat(fd).st_ino}]" for fd in forked._LIVE}
        assert first_ends
        assert first_ends & _pipes_of(runs[1].pid) == set()
    finally:
        for run in runs:
            os.kill(run.pid, signal.SIGTERM)
            os.waitpid(run.pid, 0)
    adapters = [int((tmp_path / name).read_text()) for name in ("first", "second")]
    assert wait_gone(adapters) == []
