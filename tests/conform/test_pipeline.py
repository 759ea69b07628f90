"""Requests sent before the answers before them, and a game's last answers judged later.

With an adapter that declares ``pipeline``, the runner sends a request
before it has read the answer to the one before (two at most): the
implementation answers one batch while the runner draws the next. Without
it, strictly one request at a time (``spec/protocol.md``, "Transport").
The adapters of :mod:`tests.fakes.pipeline_adapters` look, before each
answer, whether the next request has come already.

A conform game ends by sending its last batch, and the ``observe`` of the
check after its last illegal offer, without waiting for their answers
(``Session.send_all``): the next game judges them first, just before it
sends its ``start`` with its first batch (``Runner._settle``), so the runner
draws that game and its first actions while the implementation answers,
and the search's end judges the last game's. ``--first`` judges each
game at once. Whenever it is judged, a game's divergence or fault is that
game's: the same game number, start and actions as when judged at once. The
adapter of those tests is :mod:`tests.hostile.fault_adapter`, which breaks
the first ``observe`` at or after message ``FAULT_AT``: conform sends an
``observe`` only after a game's or a deal's last illegal offer, so the fault
is met in the answers a game leaves awaited.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.conform.session import Session
from rules_ref.findings.failure import Stats
from rules_ref.players.game import game_steps
from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.pipe import AdapterPipe

from ..fakes import changes_adapters
from ..fakes.pipeline_adapters import command
from ..protocol.protocol_messages import dealt_start

FAULT_ADAPTER = [sys.executable, os.path.join(os.path.dirname(os.path.dirname(__file__)),
                                              "hostile", "fault_adapter.py")]
#: A message late enough that the game breaking it is not the first one played.
FAULT_AT = "40"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--json", "--max-seconds", "600", "--timeout", "30", *args])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def _faulty(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
            tmp_path: Path, mode: str, games: int, *more: str) -> dict[str, Any]:
    """The summary (with its exit status) of ``games`` games against fault adapter ``mode``."""
    monkeypatch.setenv("FAULT_AT", FAULT_AT)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(sys.path))
    code, summary = _run(capsys, "--seed", "1", "--examples", str(games), "--shrink-seconds",
                         "0.5", "--out", str(tmp_path / "out"), *more, "--", *FAULT_ADAPTER,
                         mode)
    return {**summary, "code": code}


def _at_once_and_later(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                       tmp_path: Path, mode: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Twelve games against fault adapter ``mode``, each judged at once (``--first``), and
    with a game's last answers judged at the next game's start."""
    return (_faulty(capsys, monkeypatch, tmp_path / "first", mode, 12, "--first"),
            _faulty(capsys, monkeypatch, tmp_path / "later", mode, 12))


def _first_seen(summary: dict[str, Any]) -> tuple[str, int, dict[str, Any], int]:
    (cls,) = summary["classes"]
    return cls["key"], cls["first_seen"]["game"], cls["facets"][0]["example"]["start"], len(
        cls["facets"][0]["example"]["actions"])


@pytest.mark.untraced
@pytest.mark.rule("TURN.ORDER")
def test_a_divergence_in_a_games_last_answers_is_that_games(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    at_once, later = _at_once_and_later(capsys, monkeypatch, tmp_path, "observe-wrong")
    assert (at_once["code"], later["code"]) == (1, 1)
    key, game, start, actions = _first_seen(at_once)
    assert key.startswith("TURN.ORDER: ")
    assert game > 1  # met in a game after the first: judged at a later game's start
    assert _first_seen(later) == (key, game, start, actions)
    # the game that broke it is the search's last: judged at the search's end
    last = _faulty(capsys, monkeypatch, tmp_path / "last", "observe-wrong", game)
    assert last["games"] == game
    assert _first_seen(last) == (key, game, start, actions)


@pytest.mark.untraced
def test_a_fault_in_a_games_last_answers_is_that_games(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    at_once, later = _at_once_and_later(capsys, monkeypatch, tmp_path, "observe-rejected")
    assert (at_once["code"], later["code"]) == (2, 2)
    failure = at_once["failure"]
    assert failure["fault"]["kind"] == "capability"
    assert failure["actions"]  # the game's own actions, its last illegal offer last
    assert {k: later["failure"][k] for k in ("start", "actions", "failing", "fault")} == {
        k: failure[k] for k in ("start", "actions", "failing", "fault")}
    # the game drawn before the fault was judged never began: it is not counted
    assert later["games"] == at_once["games"]


def _unanswered_at_each_request(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                name: str) -> list[int]:
    """How many requests were unanswered as each request was written, in a search against
    ``name``: read from the runner's side, whatever the adapter's speed."""
    seen: list[int] = []
    write = AdapterPipe._write

    def counting(self: AdapterPipe, msg_id: int, kind: str, line: str) -> None:
        seen.append(self._awaiting)
        write(self, msg_id, kind, line)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(AdapterPipe, "_write", counting)
        code, summary = _run(capsys, "--seed", "3", "--examples", "40", "--out", str(tmp_path),
                             "--", *command(name))
    assert (code, summary["verdict"], summary["games"]) == (0, "pass", 40)
    assert summary["position_starts"] > 0 and summary["illegal_offered"] > 0
    return seen


@pytest.mark.untraced
def test_without_pipeline_one_request_at_a_time(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the adapter also exits at a request written before it answered the one before
    assert set(_unanswered_at_each_request(capsys, tmp_path, "one-at-a-time")) == {0}


@pytest.mark.untraced
def test_with_pipeline_requests_go_before_the_answers(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert set(_unanswered_at_each_request(capsys, tmp_path, "pipelined")) == {0, 1}


@pytest.mark.untraced
@pytest.mark.parametrize("name", ["whole-hands", "with-unchanged"])
def test_changes_written_otherwise_are_judged_as_the_observation_they_stand_for(
        name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary = _run(capsys, "--seed", "2", "--examples", "20", "--out", str(tmp_path),
                         "--", *changes_adapters.command(name))
    assert (code, summary["verdict"], summary["games"]) == (0, "pass", 20)


@pytest.mark.untraced
@pytest.mark.rule("TURN.ORDER")
def test_a_changed_field_left_out_of_the_changes_is_a_difference_in_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary = _run(capsys, "--seed", "2", "--examples", "3", "--out", str(tmp_path),
                         "--", *changes_adapters.command("to-act-left-out"))
    assert (code, summary["verdict"]) == (1, "disagreement")
    assert summary["failure"]["fields"][0] == "to_act"


@pytest.mark.untraced
@pytest.mark.parametrize("name", ["pipelined", "one-at-a-time"])
def test_a_games_start_goes_with_its_first_batch(name: str) -> None:
    # with pipeline, the game before is judged (before_start) and the start sent only once
    # the game's first batch is drawn, so the implementation answers the end of that game
    # while the runner plays this one's first actions; without, both come before any action
    steps = list(game_steps(6, 1))
    events: list[str] = []
    write = AdapterPipe._write

    def recording(self: AdapterPipe, msg_id: int, kind: str, line: str) -> None:
        events.append(json.loads(line)["type"])
        write(self, msg_id, kind, line)

    proc = AdapterProcess(command(name), 30)
    try:
        proc.hello((2,))
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(AdapterPipe, "_write", recording)
            session = Session(proc, Stats(), batch=4,
                              before_start=lambda: events.append(
                                  f"judged, {len(session.record.actions)} actions played"))
            session.start(dealt_start(steps[0][2]))
            for _, action, _, _ in steps[1:11]:
                assert session.act(action)
            session.flush()
    finally:
        proc.close()
    if name == "pipelined":
        assert events == ["judged, 4 actions played", "start", "batch", "batch", "batch"]
    else:
        assert events == ["judged, 0 actions played", "start", "batch", "batch", "batch"]
    assert session.stats.actions == 11  # the start and the ten actions, each judged
