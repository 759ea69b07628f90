"""``rules-ref play --from POSITION``: the rest of a game, played on from a position."""

from __future__ import annotations

import json

import pytest

from rules_ref.cli import pages
from rules_ref.records import validate_record
from tests.cli.helpers import program, run

#: ``rules-ref play --seed 3 --at 2.5``: deal 2, seat 0 to lead trick 5.
AT_2_5 = ("8 2 1 playing 6D7DKDKH4S6SJSQSAS/ACKD3H4H5H7H7H8H9H/6C5D9DADJHAH8S9S10S/"
          "5C6C8CJCAC7D8DJHQH/4C8C10C3D6D10H10H5S7S/2D9D10D2H5H8H9H3S6S/QDAD3HKHAH3S8S9SKS/"
          "9C4D4D2H4H6H6H2S4S 5@0:- broken - - 2C2C3C3C4C5C7C7C9C10CJCQCQCKCKCAS/-/-/"
          "2D3D5D8D10DJDJDQD/QH2S5S7S10SJSQSKS/-/-/- 0,0,1,0,17,0,25,9")
#: Deal 1 of seed 3, three seats having passed.
PASSING = ("8 1 0 passing 3C7C9C9DKD2H5HQH2S2S3S9SQS/6C7C7D9DAD6H4S9SJSJS/2CJCKC5D6D6D10D2H7S8S/"
           "2C2D10D3H8H10H3S5S6S7S/3C8C10CQCKC5D7DKDAD4H7H10HQH/4C4C8C2D4D3H6H9HJHAH6S8SKS/"
           "5C9C10CACAC4DJDJDQD4H5H10S10S/5C6CJCQC3D3D8D8DQDKH4S5SQS "
           "-/7H8HAS/9HJHKH/AHKSAS/-/-/-/- - 0,0,0,0,0,0,0,0")
#: Deal 2 of seed 3, three cards played to trick 4.
MID_TRICK = ("8 2 1 playing KC6D7DKDKH4S6SJSQSAS/7CACKD3H4H5H7H7H8H9H/6CJC5D9DADJHAH8S9S10S/"
             "5C6C8CJCQCAC7D8DJHQH/4C8C10C3D6D10H10H5S7S/2D9D10D2H5H8H9H3S6S/QDAD3HKHAH3S8S9SKS/"
             "9C10C4D4D2H4H6H6H2S4S 4@4:2CAS7C broken - - 2C3C3C4C5C9CQCKC/-/-/"
             "2D3D5D8D10DJDJDQD/QH2S5S7S10SJSQSKS/-/-/- 0,0,1,0,17,0,25,9")
#: Deal 2 of seed 3, the last trick about to be led.
LAST_TRICK = ("8 2 1 playing KD/AC/6C/5C/4C/9D/KH/9C 13@0:- broken - - "
              "2C2C3C3C4C5C6C7C7C8C9C10CJCJCQCQCKCKCAD2H2H3H3H4H6H7H9H10HJHQHKH2S3S3S5S8S9SJSASAS/"
              "-/9HJH4S4S6S7S9S10S/2D3D5D8D10DJDJDQD/AC6H8H8H10HQHAHAH2S5S7S10SJSQSQSKS/-/"
              "8C10C2D3D4D4D5D6D6D7D7D8D9D10DQDKDAD4H5H5H7H6S8SKS/- 0,0,1,0,17,0,25,9")
#: Deal 5 of seed 9: seat 3 took every card and chooses how the moon scores.
MOON = ("8 5 4 moon-choice broken - -/-/-/"
        + "".join(f"{r}{s}{r}{s}" for s in "CDHS"
                  for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
        + "/-/-/-/- - 3 36,31,14,23,13,24,15,52")

HEAD = [
    "Cancellation Hearts: 8 players, seed 3, ruleset spruce (the default), target 150",
    "Seats 0 to 7; play goes to the left, from seat 0 to seat 1 (TURN.ORDER).",
    "In a trick: [9C] a cancelled card (TRICK.CANCEL), AC* the winner (TRICK.WINNER).",
]


def play_from(position: str, capsys: pytest.CaptureFixture[str], *more: str,
              ) -> tuple[int, list[str], str]:
    code, out, err = run(["play", "--from", position, "--seed", "3", "--ascii", *more], capsys)
    return code, out.splitlines(), err


def test_the_at_position_plays_on_to_the_end_of_the_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, at, _ = run(["play", "--seed", "3", "--at", "2.5"], capsys)
    assert code == 0 and at.strip() == AT_2_5
    code, lines, err = play_from(AT_2_5, capsys)
    assert (code, err) == (0, "")
    assert lines[:11] == [
        *HEAD,
        "From a position in deal 2, seat 1 deals, trick 5: seat 0 to lead; hearts broken.",
        "Totals so far: 0: 0  1: 0  2: 1  3: 0  4: 17  5: 0  6: 25  7: 9",
        "  Trick 5: seat 0 leads spades (TRICK.LED_SUIT)",
        "    seat:     0     1     2     3     4     5     6     7",
        "    card:  [4S]    9H  10S*    QH    7S    6S    9S  [4S]",
        "    cancelled: 4S pair (TRICK.CANCEL)",
        "    seat 2 wins with 10S, the highest uncancelled spade (TRICK.WINNER): 2 points",
        "  Trick 6: seat 2 leads diamonds (TRICK.LED_SUIT)",
    ]
    assert lines[-4:] == [
        "Game over (GAME.END), the final totals:",
        "    seat:      0     1     2     3     4     5     6     7",
        "    total:    65    29    40    87   151    22    48   104",
        "Winner: seat 5 (GAME.WINNER)"]
    assert play_from(AT_2_5, capsys)[1] == lines  # the same position and seed: the same cards
    assert play_from(AT_2_5, capsys, "--seed", "4")[1] != lines


def test_a_position_between_deals_gives_the_original_deals_and_a_valid_record(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--seed", "3", "--json"], capsys)
    original = json.loads(out)
    deal_2 = original["deals"][1]
    start = f"8 3 {(deal_2['dealer'] + 1) % 8} dealing {','.join(map(str, deal_2['totals']))}"
    assert start == "8 3 2 dealing 13,0,3,0,50,0,29,9"
    code, out, err = run(["play", "--from", start, "--seed", "3", "--json"], capsys)
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert validate_record(record) == []
    assert (record["initial_deal"], record["initial_totals"]) == (3, deal_2["totals"])
    assert [d["hands"] for d in record["deals"][:1]] == [original["deals"][2]["hands"]]
    assert (len(record["deals"]), record["winners"]) == (8, [2, 5])
    code, again, _ = run(["play", "--from", start, "--seed", "3", "--json"], capsys)
    assert again == out


def test_the_deal_limit_counts_the_deals_played_from_the_position(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--from", "8 1000000000 0 dealing 0,0,0,0,0,0,0,0", "--json"],
                         capsys)
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert validate_record(record) == []
    assert (record["initial_deal"], len(record["deals"]), record["winners"]) == (
        1000000000, 16, [3])


@pytest.mark.parametrize(("position", "summary", "after", "last"), [
    (PASSING, ["From a position in deal 1, seat 0 deals, passing: seats 0, 4, 5, 6 and 7 still",
               "    to pass.",
               "Totals so far: 0: 0  1: 0  2: 0  3: 0  4: 0  5: 0  6: 0  7: 0"],
     "  seat 4 passes 3 cards to the left, to seat 5: 7H 10H QH",
     "Winners: seat 5, seat 6 (tied for lowest) (GAME.WINNER)"),
    (MID_TRICK, ["From a position in deal 2, seat 1 deals, trick 4: 2C (seat 4), AS (seat 5), "
                 "7C",
                 "    (seat 6), seat 7 to play; hearts broken.",
                 "Totals so far: 0: 0  1: 0  2: 1  3: 0  4: 17  5: 0  6: 25  7: 9"],
     "  Trick 4: seat 4 leads clubs (TRICK.LED_SUIT)",
     "Winner: seat 5 (GAME.WINNER)"),
    (LAST_TRICK, ["From a position in deal 2, seat 1 deals, trick 13: seat 0 to lead; hearts",
                  "    broken.",
                  "Totals so far: 0: 0  1: 0  2: 1  3: 0  4: 17  5: 0  6: 25  7: 9"],
     "  Trick 13: seat 0 leads diamonds (TRICK.LED_SUIT)",
     "Winner: seat 3 (GAME.WINNER)"),
    (MOON, ["From a position at the end of deal 5, seat 4 deals: seat 3 shot the moon and",
            "    chooses (MOON.CHOICE).",
            "Totals so far: 0: 36  1: 31  2: 14  3: 23  4: 13  5: 24  6: 15  7: 52"],
     "  seat 3 chooses 26 off their own score (MOON.CHOICE)",
     "Winner: seat 3 (GAME.WINNER)"),
], ids=["passing", "mid-trick", "last-trick", "moon-choice"])
def test_a_position_in_each_phase(position: str, summary: list[str], after: str, last: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = play_from(position, capsys)
    assert (code, err) == (0, "")
    assert lines[:len(HEAD) + len(summary) + 1] == HEAD + summary + [after]
    assert lines[-1] == last
    assert play_from(position, capsys)[1] == lines


def test_a_position_as_json_or_from_standard_input(capsys: pytest.CaptureFixture[str]) -> None:
    _, text_lines, _ = play_from(MID_TRICK, capsys)
    _, as_json, _ = run(["position", MID_TRICK, "--json"], capsys)
    assert play_from(as_json.strip(), capsys)[1] == text_lines
    done = program(["play", "--from", "-", "--seed", "3", "--ascii"], stdin=MID_TRICK + "\n")
    assert (done.returncode, done.stdout.splitlines()) == (0, text_lines)


def test_the_page_runs_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    _, lines, _ = play_from(LAST_TRICK, capsys)
    answer = json.loads(pages.command(json.dumps(
        ["play", "--from", LAST_TRICK, "--seed", "3", "--ascii"])))
    assert (answer["code"], answer["out"].splitlines()) == (0, lines)


def test_a_person_plays_a_seat_from_standard_input() -> None:
    done = program(["play", "--from", AT_2_5, "--seat", "0", "--seed", "3", "--ascii"],
                   stdin="zz\n4S\n")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[3:16] == [
        "From a position in deal 2, seat 1 deals, trick 5: seat 0 to lead; hearts broken.",
        "Totals so far: 0: 0  1: 0  2: 1  3: 0  4: 17  5: 0  6: 25  7: 9",
        "  trick 5: you lead",
        "  your hand: 6D 7D KD KH 4S 6S JS QS AS",
        "  you may play: 6D 7D KD KH 4S 6S JS QS AS",
        "  your card: zz",
        "  'zz' is not a card: suit 'z' is not one of C, D, H, S (or ♣♦♥♠)",
        "  your card: 4S",
        "  Trick 5: seat 0 leads spades (TRICK.LED_SUIT)",
        "    seat:     0     1     2     3     4     5     6     7",
        "    card:  [4S]    9H  10S*    QH    7S    6S    9S  [4S]",
        "    cancelled: 4S pair (TRICK.CANCEL)",
        "    seat 2 wins with 10S, the highest uncancelled spade (TRICK.WINNER): 2 points",
    ]
    assert lines[-3:] == ["  your hand: 6D 7D KD KH 6S JS QS AS", "  you may play: 6D 7D KD",
                          "  your card: "]
    assert done.stderr == "rules-ref play: end of input: the game stops in deal 2, trick 6\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--from", ""], "--from: empty: expected a position (spec/position.md), as its one line "
                     "of text, as JSON, a file holding one, or - for standard input"),
    (["--from", "8 2 1 playing"], "--from: position: position text: 4 fields, but a playing "
                                  "position has 11: PLAYERS DEAL DEALER PHASE HANDS TRICK "
                                  "HEARTS_BROKEN PENDING EXTRAS COLLECTED TOTALS"),
    (["--from", "no-such-position.txt"], "--from: no-such-position.txt: no such file (give a "
                                         "position text in quotes, a file, or - for standard "
                                         "input)"),
    (["--from", "8 3 2 game-over 0,0,0,0,0,0,0,150"],
     "--from: position: phase: 'game-over' is not one of dealing, passing, playing, "
     "moon-choice"),
    (["--from", "8 3 2 dealing 0,0,0,0,0,0,0,150"],
     "--from: totals[7]: 150 reaches the target 150: the game would be over (GAME.END)"),
    (["--from", AT_2_5, "--seat", "8"], "--seat 8: the seats of 8 players are 0 to 7"),
    (["--from", AT_2_5, "--players", "8"],
     "give --from or --players, not both: the position says how many play"),
    (["--from", AT_2_5, "--first-dealer", "1"],
     "give --from or --first-dealer, not both: the position names the dealer"),
    (["--from", AT_2_5, "--at", "2.5"],
     "give --from or --at, not both: --at finds a position in a game from its start"),
    (["--from", AT_2_5, "--json"],
     "--json: a game record starts between deals, and this position is within deal 2 "
     "(playing): give a position in the dealing phase, or leave out --json for the log"),
    (["--from", AT_2_5, "--seat", "0", "--json"],
     "give --seat or --json, not both: a person's game prints its log"),
], ids=["empty", "malformed", "no-file", "game-over-phase", "finished", "seat", "players",
        "first-dealer", "at", "json-within-a-deal", "seat-and-json"])
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", *args], capsys)
    assert (code, out, err) == (2, "", f"rules-ref play: error: {message}\n")
