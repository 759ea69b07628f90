"""``rules-ref show`` of a conform replay file: as written, and each way it breaks."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import rules_ref.cli as cli
from rules_ref.positions.convert import position_of

ROOT = Path(__file__).resolve().parents[2]
FAULTY = [sys.executable, str(ROOT / "tests" / "hostile" / "fault_adapter.py")]


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The replay file conform writes for an adapter that exits at the first action of a game.

    Message 0 is the hello, 1 to 4 the tables the rules refuse that conform offers
    before the games (rules_ref.conform.refused_tables), 5 to 8 the tables at the
    edge of what they allow (rules_ref.conform.edge_tables), 9 the game's start.
    """
    out = tmp_path_factory.mktemp("replay")
    mp = pytest.MonkeyPatch()
    mp.setenv("FAULT_AT", "10")
    mp.setenv("PYTHONPATH", str(ROOT))
    try:
        # seed 4: a game whose first action is a pass (an illegal offer first would end the
        # file at that action, which the rules refuse)
        code = cli.main(["conform", "--examples", "1", "--seed", "4", "--timeout", "120",
                         "--shrink-seconds", "1", "--out", str(out), "--", *FAULTY, "exit"])
    finally:
        mp.undo()
    assert code == 2
    data: dict[str, Any] = json.loads((out / "replay-4-fault.json").read_text())
    return data


def _show(tmp_path: Path, data: dict[str, Any], capsys: pytest.CaptureFixture[str]
          ) -> tuple[int, str, str]:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    code = cli.main(["show", "--ascii", str(path)])
    out, err = capsys.readouterr()
    return code, out, err.replace(str(path), "FILE")


def test_a_replay_is_shown_up_to_where_it_ends(tmp_path: Path, replay: dict[str, Any],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _show(tmp_path, replay, capsys)
    assert (code, err) == (0, "")
    start = replay["start"]
    number, dealer = start["deal_number"], start["dealer"]
    totals = ", ".join(f"seat {i} {t}" for i, t in enumerate(start["totals"]))
    assert f"Deal {number} as the replay starts it: dealer seat {dealer}, totals {totals}\n" in out
    assert "  extras: " in out
    assert out.endswith(f"\nThe file ends here: deal {number}, passing phase.\n")


@pytest.mark.rule("PASS.CARDS")
def test_an_action_that_breaks_a_rule_stops_the_replay(tmp_path: Path, replay: dict[str, Any],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    hand = replay["start"]["hands"][1]
    foreign = next(c for c in replay["start"]["hands"][0] if c not in hand)
    bad = {**replay, "actions": [{"type": "pass", "seat": 1, "cards": [foreign, *hand[:2]]}]}
    code, out, err = _show(tmp_path, bad, capsys)
    assert (code, err) == (1, "")
    assert "  action 1 of the file (" in out and ") breaks a rule: PASS.CARDS" in out
    assert out.endswith("  the replay stops here: the reference cannot play past an action the "
                        "rules refuse (`rules-ref conform --replay FILE -- ADAPTER` plays the file "
                        "against an implementation)\n")


@pytest.mark.parametrize(("change", "err"), [
    ({"version": 9}, "rules-ref show: error: FILE: replay version 9 is not 1\n"),
    ({"version": True}, "rules-ref show: error: FILE: replay version True is not 1\n"),
    ({"start": None}, "rules-ref show: error: FILE: missing start\n"),
    ({"actions": {}}, "rules-ref show: error: FILE.actions: expected a list of actions\n"),
])
def test_a_replay_that_cannot_be_shown(tmp_path: Path, replay: dict[str, Any],
                                       capsys: pytest.CaptureFixture[str],
                                       change: dict[str, Any], err: str) -> None:
    data = {k: v for k, v in {**replay, **change}.items() if v is not None}
    assert _show(tmp_path, data, capsys) == (2, "", err)


def test_too_many_actions(tmp_path: Path, replay: dict[str, Any],
                          capsys: pytest.CaptureFixture[str]) -> None:
    from rules_ref.jsonio.replay_file import MAX_REPLAY_ACTIONS as MAX_ACTIONS

    data = {**replay, "actions": replay["actions"] * (MAX_ACTIONS + 1)}
    assert _show(tmp_path, data, capsys) == (
        2, "", f"rules-ref show: error: FILE.actions: {MAX_ACTIONS + 1} actions, more than "
               f"{MAX_ACTIONS}\n")


def test_a_replay_that_starts_from_a_position_is_shown_from_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """conform writes a class's minimal example as a position and one action: show draws both."""
    from rules_ref.players.game import game_steps
    from rules_ref.positions.convert import position_to_json
    from rules_ref.ruleset import Ruleset
    from rules_ref.state_parts import Phase

    state = next(after for _, _, after, _ in game_steps(6, 3)
                 if after.phase is Phase.PLAYING and after.trick_number == 2 and not after.trick)
    seat = state.to_act
    card = state.legal_plays()[0]
    data = {"format": "cancellation-hearts-conform-replay", "version": 1,
            "start": {"type": "start", "players": 6, "ruleset": Ruleset().to_dict(),
                      "position": position_to_json(position_of(state))},
            "actions": [{"type": "play", "seat": seat, "card": str(card)}]}
    code, out, err = _show(tmp_path, data, capsys)
    assert (code, err) == (0, "")
    assert "The replay starts from a position: deal 1, phase playing" in out
    assert f"trick 2 led by seat {seat}, seat {seat} to lead" in out
    assert out.endswith("\nThe file ends here: deal 1, playing phase.\n")
