"""``rules-ref plays``: the cards the seat to play may play, and the rule against the rest."""

from __future__ import annotations

import json

import pytest

from rules_ref.game import game_steps
from rules_ref.position import format_position
from rules_ref.ruleset import preset
from rules_ref.state import GameState, Phase

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
    code, out, err = run(["plays", format_position(state.position())], capsys)
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
    code, out, err = run(["plays", format_position(state.position()), "--json"], capsys)
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
