"""``rules-ref position``, ``play --at``, ``validate --at`` and the position in replay files."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rules_ref.conform.conversation import position_record
from rules_ref.players.game import game_steps
from rules_ref.positions.convert import position_of, position_to_json
from rules_ref.positions.text import format_position, parse_position
from rules_ref.state_parts import Phase

from ..positions.test_position import EXTRAS_PENDING_6, MID_DEAL_8, PASSING_6, TRICK_4_6
from .helpers import run

TABLE_MID_DEAL = """\
8 players, deal 1, dealer seat 0, phase playing, trick 8 led by seat 7, seat 1 to play; \
hearts broken
seat  hand                   points  collected
   0  2♣ 5♣ 7♣ 5♦ 8♦              0  0 cards
   1  3♦ 4♦ 6♦ 9♦ Q♦ K♦           0  8 cards
   2  9♦ 2♥ 4♥ 5♥ 6♥ 7♥          13  8 cards
   3  4♣ 2♦ 2♦ Q♦ A♦ 7♥           0  0 cards
   4  J♣ J♣ K♣ 4♦ 6♦ 8♦           8  8 cards
   5  8♣ Q♣ 10♦ K♦ A♦ 2♥          0  0 cards
   6  10♣ 3♦ 7♦ 10♦ 10♥ 10♥       2  8 cards
   7  9♣ 10♣ 7♦ 6♥ 5♠            14  16 cards
Trick 8:       5♦ J♦
  seat          7  0
Pending:       8 cards, 1 set-aside trick led by seat 7 (VOID.TRICK)
  set aside 1: 4♠ J♦ 3♥ 8♥ 9♥ Q♥ 8♥ 4♠
  seat          7  0  1  2  3  4  5  6
Extras:        none
Totals:        0: 0  1: 0  2: 0  3: 0  4: 0  5: 0  6: 0  7: 0
"""


@pytest.mark.rule("VOID.TRICK")
def test_position_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["position", MID_DEAL_8], capsys)
    assert (code, err) == (0, "")
    assert out == TABLE_MID_DEAL + MID_DEAL_8 + "\n"


def test_the_table_shows_passes_and_extras(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["position", PASSING_6], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "6 players, deal 1, dealer seat 0, phase passing"
    assert lines[3].endswith("0  0 cards  (passed Q♥ K♥ Q♠)")
    assert lines[2].endswith("(to pass)")
    assert "Extras:        10♠ 3♥ (face down)" in lines
    code, out, _ = run(["position", EXTRAS_PENDING_6], capsys)
    assert "Extras:        A♣ A♣ (in the pending pile)" in out.splitlines()
    assert "  set aside 2: 7♥ 6♥ 5♥ 7♥ 6♥ 5♥" in out.splitlines()
    code, out, _ = run(["position", TRICK_4_6], capsys)
    assert "Extras:        10♠ 3♥ (taken by seat 2)" in out.splitlines()


def test_position_converts_between_the_forms(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["position", "--json", MID_DEAL_8], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data == position_to_json(parse_position(MID_DEAL_8))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(out.encode())))
    code, out, err = run(["position", "--text"], capsys)
    assert (code, out, err) == (0, MID_DEAL_8 + "\n", "")
    code, out, _ = run(["position", "--short", "--", *MID_DEAL_8.split()], capsys)
    assert (code, out) == (0, format_position(parse_position(MID_DEAL_8), short=True) + "\n")


def test_position_reads_a_file_of_either_form(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    text, js = tmp_path / "p.txt", tmp_path / "p.json"
    text.write_text(MID_DEAL_8 + "\n")
    js.write_text(json.dumps(position_to_json(parse_position(MID_DEAL_8)), indent=2))
    for path in (text, js):
        code, out, err = run(["position", "--text", str(path)], capsys)
        assert (code, out, err) == (0, MID_DEAL_8 + "\n", "")


#: What an empty position given as a word says: the forms a position takes.
EMPTY = ("position: empty: give a position (spec/position.md) as its one line of text or its "
         "JSON, a file holding one, or - for standard input")

BAD = [
    (["position", "8 1 0 dealing 0"],
     "position: totals: 1 totals for 8 players"),
    (["position", MID_DEAL_8.replace("8@7", "8@3")],
     "position: hands[0]: 5 cards, but at trick 8 seat 0 has not played to it yet and holds 6"),
    (["position", "/no/such/file"], "/no/such/file: no such file (give a position text in "
     "quotes, a file, or - for standard input)"),
    (["position", "{\"players\": 8"], "position: not valid JSON: Expecting ',' delimiter at "
     "line 1 column 14"),
    (["position", '{"a": "b\tc"}'], "position: not valid JSON: Invalid control character "
     "at line 1 column 9"),
    (["position", ""], EMPTY),
    (["position", "  "], EMPTY),
    (["position", "{}"], "position: missing players, deal_number, dealer, phase, hands, "
     "passes, trick_number, leader, trick, hearts_broken, pending, extras, collected, "
     "uncollected, moon_shooter, totals"),
    (["position", "--preset", "hubpages", "8 2 1 dealing 0,5,100,0,13,0,0,8"],
     "totals[2]: 100 reaches the target 100: the game would be over (GAME.END)"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_a_bad_position_is_one_error_line_and_status_2(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert (code, out, err) == (2, "", f"rules-ref position: error: {message}\n")


def test_plays_says_the_same_of_an_empty_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["plays", ""], capsys)
    assert (code, out, err) == (2, "", f"rules-ref plays: error: {EMPTY}\n")


def test_a_directory_and_a_two_line_text_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["position", str(tmp_path)], capsys)
    assert (code, err) == (2, f"rules-ref position: error: {tmp_path}: is a directory, not a "
                              "position file\n")
    two = tmp_path / "two.txt"
    two.write_text(MID_DEAL_8 + "\n" + MID_DEAL_8 + "\n")
    code, _, err = run(["position", str(two)], capsys)
    assert (code, err) == (2, f"rules-ref position: error: {two}: a position text is one line, "
                              "this is 2\n")


# --- --at D.T ----------------------------------------------------------------------------


def _at(players: int, seed: int, deal: int, trick: int) -> str:
    for before, _, _, _ in game_steps(players, seed):
        if (before.phase is Phase.PLAYING and before.deal_number == deal
                and before.trick_number == trick and not before.trick):
            return format_position(position_of(before))
    raise AssertionError("not reached")


def test_play_at_prints_the_position_at_the_start_of_a_trick(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--players", "7", "--seed", "3", "--at", "2.5"], capsys)
    assert (code, err) == (0, "")
    assert out == _at(7, 3, 2, 5) + "\n"
    pos = parse_position(out)
    assert (pos.deal_number, pos.trick_number, pos.trick) == (2, 5, ())
    code, out, err = run(["play", "--players", "7", "--seed", "3", "--at", "2.5", "--json"],
                         capsys)
    assert (code, err) == (0, "")
    assert json.loads(out) == position_to_json(pos)


def test_play_at_a_trick_never_reached(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--seed", "3", "--at", "99.5"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("rules-ref play: error: --at 99.5: the game never reaches the start "
                          "of trick 5 of deal 99; the game reached deal ")
    code, out, err = run(["play", "--at", "2.14"], capsys)
    assert err.startswith("rules-ref play: error: --at 2.14: the game never reaches the start "
                          "of trick 14 of deal 2; the game reached deal 3")
    code, _, err = run(["play", "--at", "2"], capsys)
    assert code == 2
    assert err.endswith("argument --at: '2' is not D.T, deal D and trick T (e.g. 3.5: deal 3, "
                        "trick 5; both from 1)\n")


def test_validate_at_prints_the_recorded_position(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--players", "9", "--seed", "4", "--json"], capsys)
    record = tmp_path / "game.json"
    record.write_text(out)
    code, out, err = run(["validate", str(record), "--at", "1.3"], capsys)
    assert (code, out, err) == (0, _at(9, 4, 1, 3) + "\n", "")
    code, out, err = run(["validate", str(record), "--at", "1.3", "--json"], capsys)
    assert json.loads(out) == position_to_json(parse_position(_at(9, 4, 1, 3)))
    data = json.loads(record.read_text())
    data["deals"][0]["tricks"][0]["cards"][1] = data["deals"][0]["tricks"][0]["cards"][0]
    record.write_text(json.dumps(data))
    code, out, err = run(["validate", str(record), "--at", "1.3"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"rules-ref validate: error: {record}: the record breaks the rules "
                          "at deal 1 before the position asked for (")


def test_a_replay_file_carries_the_position_text() -> None:
    states = [before for before, _, _, _ in game_steps(8, 2)]
    for state in states[::97]:
        shown = position_record(state)["position_text"]
        assert parse_position(shown) == position_of(state)
