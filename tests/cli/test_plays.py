"""``rules-ref plays``: the cards the seat to play may play, and the rule against the rest."""

from __future__ import annotations

import json

import pytest

from rules_ref.players.game import game_steps
from rules_ref.positions.convert import position_of
from rules_ref.positions.text import format_position
from rules_ref.ruleset import preset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

from .helpers import run

#: At six players under hearts-template (first_trick_points = forbidden), seat 5 cannot follow
#: the clubs of trick 1 and holds hearts and other cards.
FIRST_TRICK = (
    "6 3 2 playing 4C5C9C10CAC6D7D8DJD2HAH4S6S6SQSKS/3C3C6CJC2D5D9DJDKD9HJHJH3S5S8SQS/"
    "2C6CKCKC3D4D4DQDQDAD6H7H8H8HKH2S/4C9C10CQC7D9D10D5H6H9H10HQHAH2S4S7S/"
    "5C7C7CAC10D2H7HKH5S7S9S10SJSJSKSAS/2D3D5D6D8DKDAD3H3H4H4H10HQH3S8S10SAS "
    "1@0:2CQC8CJC8C unbroken - 5H9S@face-down -/-/-/-/-/- 14,3,0,50,36,1")


def _first(players: int, seed: int, found: str) -> GameState:
    """The first state of the seeded game at the default rules that ``found`` describes."""
    for before, _, _, _ in game_steps(players=players, seed=seed):
        if before.phase is Phase.PLAYING and found == (
                f"{before.trick_number}.{len(before.trick)}.{before.hearts_broken}"):
            return before
    raise AssertionError(found)


@pytest.mark.rule("FOLLOW.SUIT")
def test_plays_names_the_rule_against_each_card_that_does_not_follow(
        capsys: pytest.CaptureFixture[str]) -> None:
    state = _first(6, 3, "2.2.True")
    code, out, err = run(["plays", format_position(position_of(state))], capsys)
    assert (code, err) == (0, "")
    refused = [f"May not play {c}: {c[:-1]}{'CDHS'['♣♦♥♠'.index(c[-1])]} does not follow S "
               "and the hand holds S (FOLLOW.SUIT)"
               for c in ("3♣", "5♣", "9♣", "10♣", "7♦", "9♦", "Q♦", "4♥", "6♥", "7♥", "10♥",
                         "A♥")]
    assert out.splitlines() == [
        "Turn: seat 4 to play to trick 2, led by seat 2: 2♠ Q♠ (TURN.ORDER)",
        "Hand: 3♣ 5♣ 9♣ 10♣ 10♣ 7♦ 9♦ Q♦ 4♥ 6♥ 7♥ 10♥ A♥ 3♠ 7♠ 9♠",
        "May play: 3♠ 7♠ 9♠ (FOLLOW.SUIT)",
        *refused]


@pytest.mark.rule("LEAD.HEARTS")
def test_plays_on_a_lead_before_hearts_are_broken(capsys: pytest.CaptureFixture[str]) -> None:
    state = _first(6, 3, "2.0.False")
    code, out, err = run(["plays", format_position(position_of(state)), "--json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["seat"], data["trick_number"], data["trick"], data["hearts_broken"]) == (
        2, 2, [], False)
    assert data["legal"] == ["3C", "7C", "9C", "KC", "4D", "5D", "6D", "KD", "AD", "2S", "8S",
                             "10S", "AS"]
    assert [(r["card"], r["rule"]) for r in data["refused"]] == [
        ("2H", "LEAD.HEARTS"), ("KH", "LEAD.HEARTS"), ("AH", "LEAD.HEARTS")]
    assert data["statements"][2]["text"] == (
        "May play: 3♣ 7♣ 9♣ K♣ 4♦ 5♦ 6♦ K♦ A♦ 2♠ 8♠ 10♠ A♠ (LEAD.HEARTS)")


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_plays_under_a_preset_that_forbids_points_on_the_first_trick(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["plays", FIRST_TRICK, "--preset", "hearts-template"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Turn: seat 5 to play to trick 1, led by seat 0: 2♣ Q♣ 8♣ J♣ 8♣ (TURN.ORDER)",
        "Hand: 2♦ 3♦ 5♦ 6♦ 8♦ K♦ A♦ 3♥ 3♥ 4♥ 4♥ 10♥ Q♥ 3♠ 8♠ 10♠ A♠",
        "May play: 2♦ 3♦ 5♦ 6♦ 8♦ K♦ A♦ 3♠ 8♠ 10♠ A♠ (FOLLOW.SUIT, FOLLOW.FIRST_TRICK)",
        *[f"May not play {c}♥: {c}H is a point card and may not be discarded on the first "
          "trick while the hand holds another card (FOLLOW.FIRST_TRICK)"
          for c in ("3", "4", "10", "Q")]]
    assert preset("hearts-template").first_trick_points.value == "forbidden"


@pytest.mark.rule("LEAD.OPENING_LEADER")
@pytest.mark.parametrize(("args", "error"), [
    ([FIRST_TRICK], "leader: seat 0 leads trick 1, but the opening lead belongs to seat 3 "
                    "(LEAD.OPENING_LEADER)"),
    (["6 1 0 dealing 0,0,0,0,0,0"], "the position is in the dealing phase, where no card is "
                                    "played: a legal play needs a position of the playing phase"),
    (["6 1 0 playing -"], "position: position text: 5 fields, but a playing position has 11: "
                          "PLAYERS DEAL DEALER PHASE HANDS TRICK HEARTS_BROKEN PENDING EXTRAS "
                          "COLLECTED TOTALS"),
    ([FIRST_TRICK, "--preset", "nope"], "unknown preset 'nope'"),
])
def test_plays_refuses_what_it_cannot_answer_in_one_line(
        args: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["plays", *args], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"rules-ref plays: error: {error}")
    assert err.count("\n") == 1


@pytest.mark.rule("FOLLOW.SUIT", "LEAD.HEARTS", "LEAD.OPENING_CARD", "FOLLOW.FIRST_TRICK")
@pytest.mark.parametrize(("players", "seed", "name"), [(6, 3, "spruce"), (7, 5, "hearts-template"),
                                                       (9, 2, "spruce")])
def test_a_built_position_allows_what_the_game_allowed(players: int, seed: int,
                                                       name: str) -> None:
    """Invariant: the hand, the trick, the trick number and hearts broken decide the legal
    plays, so a position built from them allows what the game itself allowed there."""
    from rules_ref.answers import build_position, plays_answer

    rs = preset(name)
    seen = 0
    for before, _, _, _ in game_steps(players=players, seed=seed, ruleset=rs):
        if before.deal_number > 1:
            break
        if before.phase is not Phase.PLAYING:
            continue
        seat = before.to_act
        assert seat is not None
        pos = build_position(players, before.hands[seat], before.trick, before.trick_number,
                             before.hearts_broken, rs)
        answer = plays_answer(pos, rs)
        assert (answer.hand, answer.legal) == (before.hands[seat], before.legal_plays())
        seen += 1
    assert seen == players * (104 // players)


BUILT = ["plays", "--hand", "2C 5C 9C 3D 4D 8D QD 2H 5H 9H KH AH 3S 7S 9S", "--trick",
         "KC 4C", "--trick-number", "3"]


def test_plays_builds_a_position_from_a_hand_and_prints_it_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(BUILT, capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("Position: 6 1 5 playing ")
    assert lines[1:4] == ["Turn: seat 2 to play to trick 3, led by seat 0: K♣ 4♣ (TURN.ORDER)",
                          "Hand: 2♣ 5♣ 9♣ 3♦ 4♦ 8♦ Q♦ 2♥ 5♥ 9♥ K♥ A♥ 3♠ 7♠ 9♠",
                          "May play: 2♣ 5♣ 9♣ (FOLLOW.SUIT)"]
    code, again, _ = run(["plays", lines[0].removeprefix("Position: ")], capsys)
    assert (code, again) == (0, "\n".join(lines[1:]) + "\n")
    code, out, _ = run([*BUILT, "--json"], capsys)
    assert json.loads(out)["position"] == lines[0].removeprefix("Position: ")


@pytest.mark.rule("TURN.ORDER", "DECK.CARDS", "HEARTS.BROKEN")
@pytest.mark.parametrize(("args", "error"), [
    (["--hand", "2C 5C", "--trick", "KC 4C"],
     "the hand holds 2 cards: at trick 2 of 6 players the seat to play holds 16 (TURN.ORDER)"),
    (["--hand", "QS QS", "--trick", "QS", "--trick-number", "16"],
     "DECK.CARDS: the deck holds two copies of each card; Q♠ is given more than twice"),
    (["--hand", "2C", "--trick", "3C 4C 5C 6C 7C 8C", "--trick-number", "17"],
     "6 cards in the trick: at 6 players a trick in progress has at most 5, the last one ends "
     "it"),
    (["--hand", "2C", "--trick-number", "18"], "trick 18: a deal of 6 players has tricks 1 to "
                                               "17"),
    (["--hand", "2C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D", "--trick-number", "1", "--players",
      "8", "--hearts-broken", "--trick", "3C"],
     "hearts_broken: true, but no heart or Q♠ has been played (HEARTS.BROKEN)"),
    (["--hand", "2C", "6 1 0 playing -"], "give a position or --hand, not both"),
    (["--hand", "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S", "--trick", "KC 2H 3H 4H 5H",
      "--hearts-broken"],
     "no game reaches this trick: seats 1, 2, 3, 4 did not follow ♣, so they hold none, and the "
     "other seats and the tricks before have no room for the A♣ and the other ♣ left "
     "(FOLLOW.SUIT)"),
    (["--hand", "2C", "--trick-number", "17"],
     "hearts_broken: false, but 5H has been played (HEARTS.BROKEN)"),
    (["--hand", "2C", "--players", "5"], "5 players: the game is for 6 to 11 players "
                                         "(PLAYERS.COUNT)"),
])
def test_plays_refuses_a_position_it_cannot_build(args: list[str], error: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["plays", *args], capsys)
    assert (code, out) == (2, "")
    assert err == f"rules-ref plays: error: {error}\n"
