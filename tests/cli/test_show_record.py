"""``rules-ref show RECORD``: what a tampered record says, each disagreement marked with its rule.

A record's claims (trick winners, deal scores and totals, the game's
winners) are what ``show`` prints; where the rules give something else the
line after says so, in the words of ``rules-ref validate``. An illegal play
is shown as recorded and the game goes on.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cards import parse_card
from rules_ref.players.game import play_game
from rules_ref.players.policy import choose_bold
from rules_ref.records.record import record_from_state
from rules_ref.records.validate import validate_record
from rules_ref.tricks import resolve_trick, seat_at

from .helpers import game_over, run

Record = dict[str, Any]


@cache
def honest() -> str:
    return json.dumps(record_from_state(play_game(8, 1, policy=choose_bold), 1))


def record() -> Record:
    data: Record = json.loads(honest())
    return data


def show(data: Record, tmp_path: Path,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """The exit status and the lines of ``show``, each line the log broke at 80 columns whole."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["show", "--ascii", str(path)], capsys)
    assert err == ""
    assert not [x for x in out.splitlines()[1:] if len(x) > 80]  # after the file's name
    return code, unbroken(out.splitlines())


def unbroken(lines: list[str]) -> list[str]:
    """``lines`` with each line that goes on under a deeper indent joined to the one it ends."""
    out: list[str] = []
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if out and line.strip() and indent == len(out[-1]) - len(out[-1].lstrip(" ")) + 4 \
                and not line.lstrip().startswith(("seat:", "card:", "this deal:", "total:")):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def flags(data: Record) -> list[str]:
    """The marks ``show`` prints: ``validate``'s violations, in its words and order."""
    return [f"! {v.rule}: {v.message} (at {v.path})" for v in validate_record(data)]


def a_won_trick(data: Record) -> tuple[int, Record]:
    """A trick of deal 1 (its index) in which no card is cancelled and a seat wins."""
    for i, trick in enumerate(data["deals"][0]["tricks"]):
        outcome = resolve_trick([parse_card(c) for c in trick["cards"]], trick["leader"], 8)
        if outcome.winner is not None and not outcome.cancelled:
            return i, trick
    raise AssertionError("deal 1 has no such trick")


@pytest.mark.rule("TRICK.WINNER")
def test_a_tampered_winner_is_shown_as_recorded_and_marked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record()
    i, trick = a_won_trick(data)
    true = trick["winner"]
    claimed = seat_at(trick["leader"], 0, 8) if true != trick["leader"] else (true + 1) % 8
    trick["winner"] = claimed
    code, lines = show(data, tmp_path, capsys)
    assert code == 1
    start = next(n for n, x in enumerate(lines) if x.startswith(f"  Trick {i + 1}: "))
    said = lines[start + 3:start + 5]
    assert said == [f"    the record says: seat {claimed} wins the trick",
                    f"    {flags(data)[0]}"]
    assert flags(data)[0].startswith(f"! TRICK.WINNER: winner recorded as seat {claimed}, but "
                                     f"seat {true} wins it with ")
    assert not any(x.startswith(f"    seat {true} wins with ") for x in lines[start:start + 5])
    assert lines[-1] == ("The record breaks the rules in 1 place (each marked !; "
                         "`rules-ref validate` lists them alone).")


@pytest.mark.rule("SCORE.DEAL", "GAME.WINNER")
def test_tampered_scores_totals_and_winners_are_shown_as_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record()
    deal = data["deals"][1]
    deal["scores"][0] += 10
    for later in data["deals"][1:]:
        later["totals"][0] += 10
    true_winners = data["winners"]
    data["winners"] = [s for s in range(8) if s not in true_winners][:1]
    code, lines = show(data, tmp_path, capsys)
    assert code == 1
    start = lines.index("  Deal 2 scores (SCORE.DEAL):")
    assert lines[start + 2] == "    this deal:" + "".join(f"{v:>6}" for v in deal["scores"])
    assert lines[start + 3] == "    total:    " + "".join(f"{v:>6}" for v in deal["totals"])
    assert lines[start + 4] == f"  {flags(data)[0]}"
    assert flags(data)[0] == (f"! SCORE.DEAL: scores recorded as {deal['scores'][0]}, but the "
                              f"rules give {deal['scores'][0] - 10} (at deals[1].scores[0])")
    final = data["deals"][-1]["totals"]
    over = next(i for i, x in enumerate(lines) if x.startswith("Game over"))
    assert lines[over:over + 4] == game_over(final, data["winners"])
    assert lines[over + 4] == f"  {flags(data)[-1]}"
    assert flags(data)[-1].startswith(f"! GAME.WINNER: winners recorded as seat "
                                      f"{data['winners'][0]}, but ")


def _swap_to_an_illegal_play(data: Record) -> tuple[int, int]:
    """Swap two cards of a seat's hand between tricks so that it fails to follow suit."""
    deal = data["deals"][0]
    tricks = deal["tricks"]
    for a in range(1, len(tricks)):
        led = tricks[a]["cards"][0][-1]
        for pos in range(1, 8):
            seat = seat_at(tricks[a]["leader"], pos, 8)
            mine = tricks[a]["cards"][pos]
            if mine[-1] != led:
                continue
            for b in range(a + 1, len(tricks)):
                other = (seat - tricks[b]["leader"]) % 8
                theirs = tricks[b]["cards"][other]
                if theirs[-1] != led and other != 0:
                    tricks[a]["cards"][pos], tricks[b]["cards"][other] = theirs, mine
                    return a, pos
    raise AssertionError("no swap found")


@pytest.mark.rule("FOLLOW.SUIT")
def test_an_illegal_play_is_marked_and_the_game_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record()
    a, pos = _swap_to_an_illegal_play(data)
    found = flags(data)
    assert any(f.startswith("! FOLLOW.SUIT: ") and f"cards[{pos}])" in f for f in found), found
    code, lines = show(data, tmp_path, capsys)
    assert code == 1
    shown = [x.strip() for x in lines if x.strip().startswith("! ")]
    assert shown == found
    trick = next(i for i, x in enumerate(lines) if x.startswith(f"  Trick {a + 1}: "))
    first = next(i for i, x in enumerate(lines) if x.strip() == found[0])
    assert trick < first  # marked after the trick it is in is drawn
    assert any(x.startswith("Game over (GAME.END)") for x in lines)


@pytest.mark.rule("TURN.OWN_CARD")
def test_a_card_not_held_ends_the_deal_and_the_next_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record()
    trick = data["deals"][0]["tricks"][0]
    seat = seat_at(trick["leader"], 1, 8)
    hand = [parse_card(c) for c in data["deals"][0]["hands"][seat]]
    received = data["deals"][0]["passes"][(seat - 1) % 8]
    absent = next(c for c in ("AS", "AH", "KS", "QS", "2D")
                  if parse_card(c) not in hand and c not in received)
    trick["cards"][1] = absent
    code, lines = show(data, tmp_path, capsys)
    assert code == 1
    assert flags(data)[0] == (f"! TURN.OWN_CARD: seat {seat} does not hold {absent} "
                              "(at deals[0].tricks[0].cards[1])")
    at = lines.index(f"    {flags(data)[0]}")
    assert lines[at - 1].startswith(f"  Trick 1, as far as it was replayed: seat "
                                    f"{trick['leader']}: ")
    assert lines[at + 1] == ("  deal 1 cannot be replayed past here; deal 2 starts from the "
                             "totals the record claims")
    assert lines[at + 3].startswith("Deal 2: ")


Edit = Callable[[Record], None]


@pytest.mark.parametrize("edit", [
    lambda r: r["deals"][2]["tricks"][4].update(winner=None),
    lambda r: r["deals"][0].update(card_points=[0] * 8),
    lambda r: r["deals"][3].update(moon={"shooter": 2, "choice": None}),
    lambda r: r.update(winners=[]),
    lambda r: r["deals"].pop(),
], ids=["void-claimed", "card-points", "moon", "no-winners", "cut-short"])
def test_every_violation_is_marked_once_in_the_order_of_the_game(
        edit: Edit, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = record()
    edit(data)
    code, lines = show(data, tmp_path, capsys)
    expected = flags(data)
    assert expected, "the edit breaks a rule"
    assert code == 1
    assert [x.strip() for x in lines if x.strip().startswith("! ")] == expected


def test_an_honest_record_has_no_marks(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = show(copy.deepcopy(record()), tmp_path, capsys)
    assert code == 0
    assert not any(x.strip().startswith("! ") for x in lines)
