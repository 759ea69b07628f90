"""The reference adapter given requests it cannot answer: a rejection naming the field."""

from __future__ import annotations

import io
from typing import Any

import pytest

from rules_ref.errors import RulesRefError
from rules_ref.players.game import game_steps
from rules_ref.positions.convert import position_of, position_to_json
from rules_ref.protocol.reference_adapter import PROTOCOL_ENV, ReferenceAdapter, main, protocol_from
from rules_ref.ruleset import DEFAULT

RULESET = DEFAULT.to_dict()


def _v2() -> ReferenceAdapter:
    adapter = ReferenceAdapter()
    assert adapter.hello({"versions": [1, 2]})["version"] == 2
    return adapter


def _position() -> dict[str, Any]:
    state = [after for _, _, after, _ in game_steps(players=8, seed=1)][30]
    return position_to_json(position_of(state))


@pytest.mark.parametrize(("change", "reason"), [
    ({"type": "begin"}, "start.type: expected 'start', got 'begin'"),
    ({"players": 5}, "start.players: "),
    ({"players": 9}, "start.position.players: 8 players, but the start is for 9"),
])
def test_a_start_from_a_position_that_does_not_fit(change: dict[str, Any], reason: str) -> None:
    msg = {"type": "start", "players": 8, "ruleset": RULESET, "position": _position(), **change}
    answer = _v2().start(msg)
    assert answer["type"] == "rejected"
    assert reason in answer["reason"]


def test_a_batch_without_a_list_of_actions() -> None:
    with pytest.raises(RulesRefError, match=r"^batch\.actions must be a list$"):
        _v2().batch({"type": "batch", "actions": {}})


def test_observe_before_any_start() -> None:
    assert _v2().handle({"type": "observe"}) == {
        "type": "error", "message": "observe before any start: no game to observe"}


def test_an_unknown_request_type() -> None:
    with pytest.raises(RulesRefError, match=r"^unknown request type 'dance'$"):
        ReferenceAdapter().handle({"type": "dance"})
    with pytest.raises(RulesRefError, match=r"^unknown request type 'batch'$"):
        ReferenceAdapter().handle({"type": "batch", "actions": []})  # version 1: no batch


def test_serve_stops_at_a_line_it_cannot_answer(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert ReferenceAdapter().serve(io.StringIO('{"id": 0, "type": "dance"}\n'), out) == 2
    assert out.getvalue() == ""
    assert capsys.readouterr().err == (
        "adapter: cannot answer '{\"id\": 0, \"type\": \"dance\"}\\n': "
        "unknown request type 'dance'\n")


def test_serve_refuses_a_request_nested_deeper_than_the_protocol_allows(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    line = '{"id": 0, "type": "start", "x": ' + "[" * 5000 + "]" * 5000 + "}\n"
    assert ReferenceAdapter().serve(io.StringIO(line), out) == 2
    assert out.getvalue() == ""
    assert capsys.readouterr().err == (
        f"adapter: cannot answer {line[:200]!r}: lists or objects nest more than 32 deep\n")


def test_serve_ends_at_the_end_of_input() -> None:
    out = io.StringIO()
    assert ReferenceAdapter().serve(io.StringIO(""), out) == 0
    assert out.getvalue() == ""


def test_the_protocol_version_from_arguments_or_environment() -> None:
    assert protocol_from(["--protocol", "1"], {}) == 1
    assert protocol_from([], {PROTOCOL_ENV: "1"}) == 1
    with pytest.raises(SystemExit, match=r"^usage: rules-ref adapter "
                                         r"\[--protocol 1\|2\] \[--ruleset JSON\]$"):
        protocol_from(["--fast"], {})
    with pytest.raises(SystemExit, match=r"^adapter: protocol version '3' is not one of 1, 2$"):
        protocol_from([], {PROTOCOL_ENV: "3"})


def test_main_serves_standard_input(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"id": 4, "type": "bye"}\n'))
    assert main(["--protocol", "2"]) == 0
    assert capsys.readouterr().out == '{"id":4,"type":"bye"}\n'
