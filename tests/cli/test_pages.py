"""``rules_ref.cli.pages``: what the site's pages call in the browser answers as the command line.

The browser itself is tested in ``tests/docs/test_ask_pages.py``; here the same
functions run in this process, against the commands run as a person runs them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import pages
from rules_ref.players.game import game_steps
from rules_ref.positions.convert import position_of
from rules_ref.positions.text import format_position
from rules_ref.records.record import record_from_state

from .helpers import run

DATA = Path(__file__).parent / "data"


def _record(players: int = 6, seed: int = 3) -> str:
    *_, (_, _, last, _) = game_steps(players=players, seed=seed)
    return json.dumps(record_from_state(last, seed=seed))


def _command(*argv: str) -> dict[str, object]:
    done: dict[str, object] = json.loads(pages.command(json.dumps(list(argv))))
    return done


@pytest.mark.rule("TRICK.WINNER", "TRICK.CANCEL")
def test_a_page_runs_the_command_and_gets_what_it_prints(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["trick", "10♠", "9♥", "9♥", "10♠", "K♠", "3♠", "--leader", "0", "--json"]
    done = _command(*argv)
    code, out, err = run(argv, capsys)
    assert done == {"code": code, "out": out, "err": err}
    assert (code, json.loads(out)["winner"]) == (0, 4)


@pytest.mark.parametrize("argv", [
    ["trick", "10S", "1H"], ["trick", "--leader", "x", "QS"], ["trick", "--json"],
    ["plays", "6 1 0 playing -"]])
def test_a_page_gets_the_error_line_of_the_command(argv: list[str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    done = _command(*argv)
    code, out, err = run(argv, capsys)
    assert done == {"code": 2, "out": "", "err": err}
    assert (code, out, err.count("\n")) == (2, "", 1)


@pytest.mark.parametrize("argv", ['["conform", "--", "x"]', '"trick"', "[]", '["trick", 3]'])
def test_a_page_runs_only_the_commands_it_needs(argv: str) -> None:
    with pytest.raises(ValueError, match="a page runs one of"):
        pages.command(argv)


def _shown(name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
           monkeypatch: pytest.MonkeyPatch, command: str = "show") -> tuple[int, str, str]:
    """``rules-ref COMMAND NAME`` on a file ``NAME`` holding ``text``, as a person runs it."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return run([command, name], capsys)


def _log(game: dict[str, object]) -> list[str]:
    """The lines of the viewer's log of the file."""
    log = game["log"]
    assert isinstance(log, list)
    return log


@pytest.mark.rule("GAME.END")
def test_the_viewer_steps_through_a_record_as_show_prints_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = _record()
    game = json.loads(pages.game(text, "game.json"))
    code, out, err = _shown("game.json", text, tmp_path, capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert _log(game) == out.splitlines()
    assert game["kind"] == "record"
    assert len(game["steps"]) == len(json.loads(text)["deals"]) + sum(
        len(d["passes"] or []) + len(d["tricks"]) * 6 + (d.get("moon_choice") is not None)
        for d in json.loads(text)["deals"])
    code, out, _ = _shown("game.json", text, tmp_path, capsys, monkeypatch, "validate")
    assert game["violations"] == {"code": code, "lines": out.splitlines(), "steps": []}
    assert out == f"ok: {len(json.loads(text)['deals'])} deals, no violation\n"


@pytest.mark.rule("TRICK.WINNER", "TRICK.CANCEL")
def test_the_viewer_draws_each_completed_trick_as_the_engine_resolved_it() -> None:
    game = json.loads(pages.game(_record(), "game.json"))
    tricks = [s["table"]["trick"] for s in game["steps"]
              if s["table"]["trick"] and s["table"]["trick"]["complete"]]
    first = next(s for s in game["steps"] if s["table"]["trick"])["table"]["trick"]
    assert (first["complete"], first["winner"], len(first["cards"])) == (False, None, 1)
    assert len(tricks) == sum(len(d["tricks"]) for d in json.loads(_record())["deals"])
    record_tricks = [t for d in json.loads(_record())["deals"] for t in d["tricks"]]
    assert [t["cards"] for t in tricks] == [t["cards"] for t in record_tricks]
    assert [None if t["winner"] is None else t["seats"][t["winner"]] for t in tricks] == [
        t["winner"] for t in record_tricks]


@pytest.mark.rule("FOLLOW.SUIT")
def test_the_viewer_stops_at_an_illegal_action_and_lists_the_violations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(_record())
    trick = data["deals"][0]["tricks"][2]["cards"]
    trick[1], trick[2] = trick[2], trick[1]  # two seats swap their cards
    text = json.dumps(data)
    game = json.loads(pages.game(text, "tampered.json"))
    code, out, _ = _shown("tampered.json", text, tmp_path, capsys, monkeypatch)
    assert code == 1
    assert _log(game) == out.splitlines()
    assert game["steps"][-1]["table"]["legal"] is False
    code, out, _ = _shown("tampered.json", text, tmp_path, capsys, monkeypatch, "validate")
    # the violation is at the step of the card the rules refuse: the last one replayed
    assert game["violations"] == {"code": 1, "lines": out.splitlines(),
                                  "steps": [len(game["steps"])]}
    assert code == 1 and "violation" in out.splitlines()[-1]
    assert game["steps"][-1]["at"] == [1, 3, 2]
    assert out.startswith("deal 1, trick 3, card 2 ")


@pytest.mark.rule("VOID.TRICK")
def test_the_viewer_reads_a_replay_file_with_its_void_trick(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = (DATA / "replay-void-trick.json").read_text(encoding="utf-8")
    game = json.loads(pages.game(text, "replay.json"))
    code, out, _ = _shown("replay.json", text, tmp_path, capsys, monkeypatch)
    assert code == 0
    assert _log(game) == out.splitlines()
    assert (game["kind"], game["violations"]) == ("replay", None)
    void = [s["table"]["trick"] for s in game["steps"] if s["table"]["trick"]
            and s["table"]["trick"]["complete"] and s["table"]["trick"]["winner"] is None]
    assert len(void) == 1 and void[0]["cancelled"]


def test_the_viewer_shows_a_position_as_its_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    *_, (before, _, _, _) = list(game_steps(players=7, seed=2))[:30]
    text = format_position(position_of(before))
    game = json.loads(pages.game(text, "position.txt"))
    code, out, _ = _shown("position.txt", text, tmp_path, capsys, monkeypatch)
    assert code == 0
    assert (game["kind"], game["steps"], game["start"]) == ("position", [], None)
    assert game["log"] == out.splitlines()


@pytest.mark.parametrize(("name", "text"), [("x.json", "{}"), ("x.txt", "6 1 0 playing -"),
                                            ("x.json", ""), ("x.json", "[1, 2")])
def test_the_viewer_gets_the_error_line_of_show(
        name: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = json.loads(pages.game(text, name))
    code, out, err = _shown(name, text, tmp_path, capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert game == {"error": err.rstrip("\n")}


def test_a_file_handed_over_is_named_by_its_last_part_and_has_a_size_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert pages.saved("x", "../../etc/game.json").name == "game.json"
    assert pages.saved("x", "").name == "pasted.json"
    monkeypatch.setattr(pages, "MAX_TEXT", 3)
    with pytest.raises(ValueError, match="larger than 3 bytes"):
        pages.saved("abcd", "x.json")


def test_the_viewer_draws_at_most_its_limit_of_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "MAX_STEPS", 3)
    game = json.loads(pages.game(_record(), "game.json"))
    assert [s["number"] for s in game["steps"]] == [1, 2, 3]


MID_DEAL = ["play", "--players", "6", "--seed", "3", "--at", "1.2"]


def _continued(position: str, *more: str, moves: tuple[str, ...] = ()) -> dict[str, Any]:
    done: dict[str, Any] = json.loads(pages.continued(
        json.dumps(["play", "--from", position, *more]), json.dumps(list(moves))))
    return done


@pytest.mark.rule("TURN.ORDER", "SCORE.DEAL")
@pytest.mark.parametrize("seed", ["1", "4", "9"])
def test_continued_plays_the_deal_on_as_play_from_prints_it(
        seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, position, _ = run(MID_DEAL, capsys)
    game = _continued(position.strip(), "--seed", seed)
    code, out, _ = run(["play", "--from", position.strip(), "--seed", seed], capsys)
    lines = game["head"] + [line for step in game["steps"] for line in step["lines"]]
    assert code == 0 and game["waiting"] is None
    assert out.splitlines()[:len(lines) + 2][-2:] == ["", "Deal 2: seat 1 deals 17 cards to "
                                                      "each player"]
    assert out.splitlines()[:len(lines)] == lines


@pytest.mark.rule("TURN.OWN_CARD")
def test_continued_waits_for_the_seat_and_refuses_a_move_the_rules_refuse(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, position, _ = run(MID_DEAL, capsys)
    position = position.strip()
    waiting = _continued(position, "--seat", "2")
    assert (waiting["steps"], waiting["waiting"]["seat"], waiting["waiting"]["phase"]) == (
        [], 2, "playing")
    assert "2H" in waiting["waiting"]["hand"] and "2H" not in waiting["waiting"]["legal"]
    one = _continued(position, "--seat", "2", moves=("3C",))
    lines = [line for step in one["steps"] for line in step["lines"]]
    assert lines[0] == "  Trick 2: seat 2 leads ♣ (TRICK.LED_SUIT)"
    assert one["steps"][0]["table"]["trick"]["cards"] == ["3C"]
    assert one["waiting"]["seat"] == 2
    assert _continued(position, "--seat", "2", moves=("QS",)) == {
        "error": "rules-ref play: error: move 1 (QS) of seat 2: not allowed: TURN.OWN_CARD: "
                 "seat 2 does not hold QS"}
    assert _continued(position, "--seat", "9") == {
        "error": "rules-ref play: error: --seat 9: the seats of 6 players are 0 to 5"}
    assert _continued("", "--seed", "1")["error"].startswith(
        "rules-ref play: error: --from: empty: expected a position")


def test_the_position_of_a_step_continues_the_file_from_there() -> None:
    record = _record()
    at = json.loads(pages.position_at(record, "game.json", 40))
    *_, (_, _, state, _) = list(game_steps(players=6, seed=3))[:40]
    assert at == {"position": format_position(position_of(state)),
                  "ruleset": state.ruleset.to_dict()}
