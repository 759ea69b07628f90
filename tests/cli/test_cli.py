"""The ``rules-ref`` command line: play, trick, rules, and its errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules_ref import registry
from rules_ref.players.game import play_game
from rules_ref.players.policy import choose_bold
from rules_ref.ruleset import preset, presets

from .helpers import game_over, run

PRESETS = list(presets())


@pytest.mark.untraced
@pytest.mark.rule("GAME.END", "GAME.WINNER")
@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [6, 7, 8, 9, 10, 11])
def test_play_completes_a_game(players: int, name: str,
                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--players", str(players), "--seed", "3", "--preset", name],
                         capsys)
    assert (code, err) == (0, "")
    lines = out.rstrip("\n").splitlines()
    assert lines[0].startswith(f"Cancellation Hearts: {players} players, seed 3")
    final = play_game(players, 3, preset(name), policy=choose_bold)
    assert lines[-4:] == game_over(final.totals, final.winners)


@pytest.mark.untraced
@pytest.mark.rule("GAME.WINNER")
@pytest.mark.parametrize(("players", "name"), [(6, "spruce"), (9, "hubpages"),
                                               (11, "boardgamegeek")])
def test_play_json_is_a_record_whose_winners_match(players: int, name: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--players", str(players), "--seed", "17", "--preset", name,
                          "--json"], capsys)
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert record["format"] == "cancellation-hearts-record"
    assert record["players"] == players
    assert record["seed"] == 17
    totals = record["deals"][-1]["totals"]
    low = min(totals)
    assert record["winners"] == [s for s, t in enumerate(totals) if t == low]
    final = play_game(players, 17, preset(name), policy=choose_bold)
    assert record["winners"] == list(final.winners)
    code, text, _ = run(["play", "--players", str(players), "--seed", "17", "--preset", name],
                        capsys)
    who = ", ".join(f"seat {s}" for s in record["winners"])
    assert f": {who} (GAME.WINNER)" in text.splitlines()[-1]


def test_the_entry_point_plays_a_game() -> None:
    script = Path(sys.executable).parent / "rules-ref"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "rules_ref"]
    done = subprocess.run([*command, "play", "--players", "7", "--seed", "11"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.rstrip("\n").splitlines()[-4] == "Game over (GAME.END), the final totals:"


@pytest.mark.rule("TRICK.WINNER", "TRICK.CANCEL")
def test_trick_names_the_winner_of_the_seed_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["trick", "10S", "9H", "9H", "10S", "KS", "3S"], capsys)
    assert (code, err) == (0, "")
    winner = [line for line in out.splitlines() if line.startswith("Who takes it:")]
    assert winner == ["Who takes it: seat 4 wins with K♠, the highest uncancelled ♠ "
                      "(TRICK.WINNER)"]
    assert "Cancelled: 9♥ pair, 10♠ pair (TRICK.CANCEL)" in out


@pytest.mark.rule("TRICK.WINNER", "TRICK.NEXT_LEADER", "SCORE.CARD_POINTS")
def test_trick_says_who_leads_next_and_the_points(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["trick", "10S", "9H", "9H", "10S", "KS", "3S"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == [
        "Then: seat 4, the winner, leads the next trick (TRICK.NEXT_LEADER)",
        "Points: 2, cancelled cards included, taken by seat 4 (SCORE.CARD_POINTS)"]
    code, out, err = run(["trick", "QS", "KS", "2H", "3C", "5S", "AS", "--leader", "3"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[-3:] == [
        "Who takes it: seat 2 wins with A♠, the highest uncancelled ♠ (TRICK.WINNER)",
        "Then: seat 2, the winner, leads the next trick (TRICK.NEXT_LEADER)",
        "Points: 14, cancelled cards included, taken by seat 2 (SCORE.CARD_POINTS)"]


@pytest.mark.rule("PLAYERS.COUNT", "DECK.CARDS")
@pytest.mark.parametrize(("args", "error"), [
    ([","], "no card: give the trick's cards in play order, the first one led"),
    (["QS"] * 12, "12 cards: a trick has one card per player, at most 11"),
    (["QS", "QS", "qs"], "DECK.CARDS: the deck holds two copies of each card; QS appears more "
                         "than twice"),
    (["QS", "--players", "12"], "12 players: the game is for 5 to 11 players (PLAYERS.COUNT)"),
    (["QS"] * 2 + ["KS"] * 2 + ["AS"] * 2 + ["2C", "--players", "6"],
     "7 cards at 6 players: a trick has one card per player"),
    (["QS", "--players", "6", "--leader", "6"], "leader 6 is not a seat (0 to 5)"),
])
def test_trick_refuses_a_trick_no_table_plays_in_one_line(
        args: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["trick", *args], capsys)
    assert (code, out, err) == (2, "", f"rules-ref trick: error: {error}\n")


@pytest.mark.rule("PLAYERS.COUNT")
def test_trick_at_a_table_larger_than_the_trick(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["trick", "QS", "KS", "--players", "9", "--leader", "8", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["seats"] == [8, 0]


@pytest.mark.rule("PLAYERS.COUNT")
def test_trick_counts_a_single_card_in_the_singular(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["trick", "KS"], capsys)
    assert code == 0
    assert out.splitlines()[-1] == ("Note: 1 card; a real trick has one card per player, "
                                    "6 to 11 (PLAYERS.COUNT)")


@pytest.mark.rule("TRICK.WINNER")
def test_trick_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["trick", "10S", "9H", "9H", "10S", "KS", "3S", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert (data["winner"], data["winning_card"], data["void"]) == (4, "KS", False)
    assert (data["next_leader"], data["points"], data["players"]) == (4, 2, 6)
    assert data["cancelled"] == ["9H", "10S"]
    assert data["rules"] == ["TRICK.LED_SUIT", "TRICK.CANCEL", "TRICK.WINNER",
                             "TRICK.NEXT_LEADER", "SCORE.CARD_POINTS"]
    assert [s["text"] for s in data["statements"]] == [
        "Led suit: ♠, the first card's suit (TRICK.LED_SUIT)",
        "Cancelled: 9♥ pair, 10♠ pair (TRICK.CANCEL)",
        "Who takes it: seat 4 wins with K♠, the highest uncancelled ♠ (TRICK.WINNER)",
        "Then: seat 4, the winner, leads the next trick (TRICK.NEXT_LEADER)",
        "Points: 2, cancelled cards included, taken by seat 4 (SCORE.CARD_POINTS)"]


@pytest.mark.rule("VOID.TRICK", "VOID.LEADER")
def test_trick_json_names_who_leads_after_a_void_trick(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["trick", "9H", "9H", "10H", "10H", "3C", "5D", "--leader", "2",
                        "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert (data["void"], data["winner"], data["next_leader"], data["points"]) == (
        True, None, 2, 4)
    assert data["seats"] == [2, 3, 4, 5, 0, 1]


@pytest.mark.rule("VOID.TRICK")
@pytest.mark.parametrize("trick", [["10S", "9H", "9H", "10S"],
                                   ["5D", "5D", "JD", "JD", "8D", "8D", "2C"]])
def test_trick_names_a_void_trick(trick: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["trick", *trick], capsys)
    assert (code, err) == (0, "")
    assert "VOID.TRICK" in out
    assert not any(line.startswith("Who takes it:") for line in out.splitlines())


def test_rules_prints_one_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "TRICK.CANCEL"], capsys)
    assert (code, err) == (0, "")
    title = registry.rule("TRICK.CANCEL").title
    assert out.splitlines()[0] == f"TRICK.CANCEL: {title}"


def test_rules_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules"], capsys)
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("  ")]
    assert listed == list(registry.rule_ids())


@pytest.mark.parametrize("args", [
    ["trick", "1X", "2C"],
    ["trick", "10S", "9H", "9H", "10S", "KS", "QX"],
    ["play", "--players", "12"],
    ["play", "--players", "5"],
    ["play", "--seed", "-1"],
    ["play", "--seed", str(2**64)],
    ["play", "--preset", "no-such-preset"],
    ["rules", "trick.no_such_rule"],
])
def test_bad_input_exits_2_with_one_line(args: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_bad_input_names_the_problem(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(["trick", "1X"], capsys)
    assert "'1X' is not a card" in err
    _, _, err = run(["play", "--players", "12"], capsys)
    assert "PLAYERS.COUNT" in err
    _, _, err = run(["play", "--preset", "no-such-preset"], capsys)
    assert "unknown preset 'no-such-preset'" in err
    _, _, err = run(["rules", "trick.no_such_rule"], capsys)
    assert "no rule 'trick.no_such_rule'" in err


@pytest.mark.rule("TRICK.LED_SUIT", "VOID.TRICK")
def test_a_console_without_suit_symbols_reads_suits_as_words() -> None:
    """On an output that cannot encode ♣, cards are plain notation and suits are words."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    done = subprocess.run([sys.executable, "-m", "rules_ref", "trick", "9C", "9C", "4C", "4C",
                           "7H", "7H"], capture_output=True, text=True, timeout=120,
                          check=False, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "seat 0: 9C  seat 1: 9C  seat 2: 4C  seat 3: 4C  seat 4: 7H  seat 5: 7H",
        "Led suit: clubs, the first card's suit (TRICK.LED_SUIT)",
        "Cancelled: 4C pair, 9C pair, 7H pair (TRICK.CANCEL)",
        "Void: no uncancelled club is left, so nobody wins: the trick is set aside (VOID.TRICK)",
        "Then: seat 0 leads again (VOID.LEADER)",
        "Points: 2, cancelled cards included; the set-aside cards go to the winner of the next "
        "trick, or to nobody after the deal's last trick (SCORE.CARD_POINTS, VOID.COLLECT, "
        "VOID.LAST)",
    ]


@pytest.mark.rule("PASS.CARDS")
def test_a_table_the_ruleset_cannot_seat_is_one_line_before_any_header(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = tmp_path / "rs.json"
    rules.write_text('{"pass_count": 8, "pass_forbidden": "two-of-clubs"}', encoding="utf-8")
    code, out, err = run(["play", "--ruleset", str(rules), "--players", "11"], capsys)
    assert (code, out) == (2, "")
    assert err == ("rules-ref play: error: PASS.CARDS: pass_count 8 cannot be passed at 11 "
                   "players under pass_forbidden = two-of-clubs: a hand of 9 cards may hold "
                   "both 2C, leaving 7 it may pass\n")
