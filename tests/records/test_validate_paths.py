"""``validate_record``: each kind of malformed or wrong record, with its exact report.

The record is a whole 7-player game of the engine's built-in player, seed 3
(11 deals, passing left and right); each case edits one thing.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.errors import InputError
from rules_ref.players.game import play_game
from rules_ref.records.record import record_from_state
from rules_ref.records.validate import RecordViolation, validate_record
from rules_ref.ruleset import DEFAULT, Moon, Ruleset
from rules_ref.vectors import last_card, moon_deal

Record = dict[str, Any]
Edit = Callable[[Record], object]


@pytest.fixture(scope="module")
def record() -> Record:
    """The engine's own game (its built-in player), as ``rules-ref play --json`` records it."""
    data = record_from_state(play_game(7, seed=3))
    assert len(data["deals"]) == 11 and data["winners"] == [6]
    return data


def _edited(record: Record, edit: Edit) -> Record:
    rec = copy.deepcopy(record)
    edit(rec)
    return rec


def _deal0(**changes: object) -> Edit:
    return lambda r: r["deals"][0].update(changes)


SHAPES: dict[str, tuple[Edit, str]] = {
    "format": (lambda r: r.update(format="x"),
               "format: not a game record (its format is 'x'; a record has format "
               "'cancellation-hearts-record'; `rules-ref show` reads replay files and positions)"),
    "version": (lambda r: r.update(version=2), "version: this validator reads version 1, got 2"),
    "unknown field": (lambda r: r.update(colour=1), "record: unknown field(s) 'colour'"),
    "seed": (lambda r: r.update(seed=True), "seed: expected an integer or null, got a boolean"),
    "totals for the players": (lambda r: r.update(initial_totals=[0] * 6),
                               "initial_totals: 6 totals for 7 players"),
    "deals not a list": (lambda r: r.update(deals={}), "deals: expected a list, got an object"),
    "too many deals": (lambda r: r.update(deals=[{}] * 1001), "deals: 1001 deals, more than 1000"),
    "card not text": (lambda r: r["deals"][0]["tricks"][0]["cards"].__setitem__(0, 5),
                      "deals[0].tricks[0].cards[0]: expected a card such as 'QS', got an integer"),
    "list too long": (_deal0(extras=["QS"] * 105), "deals[0].extras: 105 entries, more than 104"),
    "moon choice": (_deal0(moon={"shooter": 1, "choice": "x"}),
                    "deals[0].moon.choice: expected 'subtract', 'add' or null, got 'x'"),
    "uncollected card": (_deal0(uncollected=["1H"]), "deals[0].uncollected[0]: '1H' is not a "
                                                     "card: rank '1' is not one of 2-10, J, Q, "
                                                     "K, A (or T)"),
}


@pytest.mark.parametrize("case", list(SHAPES))
def test_a_malformed_record_is_named_by_its_path(record: Record, case: str) -> None:
    edit, message = SHAPES[case]
    with pytest.raises(InputError) as caught:
        validate_record(_edited(record, edit))
    assert str(caught.value) == message


def _last_trick_long(r: Record) -> None:
    r["deals"][0]["tricks"][-1]["cards"].append("2C")


def _cut_last_deal(r: Record) -> None:
    last = r["deals"][-1]
    last["tricks"] = last["tricks"][:5]
    r["winners"] = []


def _short_last_trick(r: Record) -> None:
    """The game stops three cards into the last trick of its last deal."""
    last = r["deals"][-1]
    last["tricks"][-1]["cards"] = last["tricks"][-1]["cards"][:3]
    for key in ("card_points", "scores", "totals", "uncollected"):
        del last[key]
    r["winners"] = []


def _moon_in_unfinished_deal(r: Record) -> None:
    _cut_last_deal(r)
    r["deals"][-1]["moon"] = {"shooter": 1, "choice": None}


RULES: dict[str, tuple[Edit, list[tuple[str, str, str]]]] = {
    "too few players": (
        lambda r: r.update(players=5, initial_totals=[0] * 5),
        [("PLAYERS.COUNT", "players", "5 players: the game is for 6 to 11 players (5 players "
                                      "need min_players = 5)")]),
    "too few players, their totals left as they were": (
        lambda r: r.update(players=5),
        [("PLAYERS.COUNT", "players", "5 players: the game is for 6 to 11 players (5 players "
                                      "need min_players = 5)")]),
    "no passes": (
        _deal0(passes=None),
        [("PASS.CARDS", "deals[0].passes", "every seat passes on deal 1, but no passes are "
                                           "recorded")]),
    "too few passes": (
        lambda r: r["deals"][0].update(passes=r["deals"][0]["passes"][:3]),
        [("PASS.CARDS", "deals[0].passes", "every seat passes on deal 1, but 3 passes are "
                                           "recorded")]),
    "a seat that did not pass": (
        lambda r: r["deals"][0]["passes"].__setitem__(2, None),
        [("PASS.CARDS", "deals[0].passes[2]", "seat 2 did not pass")]),
    "a trick too many": (
        lambda r: r["deals"][0]["tricks"].append(copy.deepcopy(r["deals"][0]["tricks"][-1])),
        [("DEAL.SIZE", "deals[0].tricks[14]", "deal 1 has 14 tricks; trick 15 is one too many")]),
    "a card after the deal's last trick": (
        _last_trick_long,
        [("TURN.ORDER", "deals[0].tricks[13].cards[7]", "trick 14 has more cards than players")]),
    "a short trick with more to come": (
        lambda r: r["deals"][0]["tricks"][0]["cards"].pop(),
        [("TURN.ORDER", "deals[0].tricks[0].cards", "trick 1 has 6 cards, not 7, and more "
                                                    "tricks follow")]),
    "an unfinished deal followed by another": (
        lambda r: r["deals"][0].update(tricks=r["deals"][0]["tricks"][:5]),
        [("TURN.ORDER", "deals[0].tricks", "deal 1 is not finished (5 tricks of 14), but deal 2 "
                                           "follows it")]),
    "scores not recorded": (
        lambda r: r["deals"][0].pop("scores"),
        [("SCORE.DEAL", "deals[0]", "deal 1 is finished, but its scores are not recorded")]),
    "scores for too few seats": (
        _deal0(scores=[0]),
        [("SCORE.DEAL", "deals[0].scores", "scores has 1 entries for 7 players")]),
    "uncollected cards that were collected": (
        _deal0(uncollected=["QS"]),
        [("VOID.LAST", "deals[0].uncollected", "uncollected cards recorded as QS, but the rules "
                                               "leave none")]),
    "a deal after the end": (
        lambda r: r["deals"].append(copy.deepcopy(r["deals"][-1])),
        [("GAME.END", "deals[11]", "the game ended after deal 11; deal 12 should not have been "
                                   "played")]),
    "scores of an unfinished last deal": (
        _cut_last_deal,
        [("SCORE.DEAL", "deals[10].card_points", "card_points, scores, totals, uncollected "
                                                 "recorded for deal 11, which is not finished")]),
    "a moon in an unfinished deal": (
        _moon_in_unfinished_deal,
        [("MOON.CONDITION", "deals[10].moon", "a moon is recorded for an unfinished deal"),
         ("SCORE.DEAL", "deals[10].card_points", "card_points, scores, totals, uncollected "
                                                 "recorded for deal 11, which is not finished")]),
    "a deal numbered wrong": (
        lambda r: r["deals"][1].update(deal_number=5),
        [("DEAL.DEALER", "deals[1].deal_number", "recorded as deal 5, but it is deal 2 of the "
                                                 "game")]),
    "a pass of a card not held": (
        lambda r: r["deals"][0]["passes"][0].__setitem__(0, "3C"),  # seat 1 holds it
        [("PASS.CARDS", "deals[0].passes[0]", "3C is not in the hand")]),
    "a winner of an unfinished trick": (
        _short_last_trick,
        [("TRICK.WINNER", "deals[10].tricks[13].winner", "trick 14 is not finished, but a "
                                                         "winner is recorded")]),
    "a won trick recorded as void": (
        lambda r: r["deals"][0]["tricks"][0].update(winner=None),
        [("VOID.TRICK", "deals[0].tricks[0].winner", "winner recorded as void, but seat 1 wins "
                                                     "it")]),
    "no uncollected cards recorded (they are optional)": (
        lambda r: [d.pop("uncollected") for d in r["deals"]], []),
    "a moon nobody shot": (
        _deal0(moon={"shooter": 4, "choice": "add"}),
        [("MOON.CONDITION", "deals[0].moon", "moon recorded for seat 4, but the shooter is "
                                             "nobody")]),
}


@pytest.mark.rule("PLAYERS.COUNT", "PASS.CARDS", "DEAL.SIZE", "TURN.ORDER", "SCORE.DEAL",
                  "VOID.LAST", "GAME.END", "MOON.CONDITION", "DEAL.DEALER", "TRICK.WINNER",
                  "VOID.TRICK")
@pytest.mark.parametrize("case", list(RULES))
def test_a_wrong_record_is_reported_under_the_rule(record: Record, case: str) -> None:
    edit, expected = RULES[case]
    found = validate_record(_edited(record, edit))
    assert [(v.rule, v.path, v.message) for v in found] == expected


@pytest.mark.rule("PASS.DIRECTION")
def test_passes_under_a_ruleset_without_passing(record: Record) -> None:
    rec = _edited(record, lambda r: r.update(ruleset={**r["ruleset"], "pass_cycle": ["hold"]}))
    found = validate_record(rec)
    assert found[0] == RecordViolation(
        "PASS.DIRECTION", "deal 1 has no passing under pass_cycle hold, but passes are recorded",
        "deals[0].passes", deal=1)
    # the cards passed are then not where the tricks say; each deal goes on from the recorded
    # totals, which end the game with the recorded winners
    assert {v.rule for v in found} == {"PASS.DIRECTION", "TURN.OWN_CARD"}


def test_a_violation_says_where() -> None:
    v = RecordViolation("TURN.ORDER", "late", "deals[0]", deal=1, trick=2, card=3, seat=4)
    assert v.where() == "deal 1, trick 2, card 3 (seat 4)"
    assert str(v) == "deal 1, trick 2, card 3 (seat 4): TURN.ORDER: late (at deals[0])"
    bare = RecordViolation("GAME.WINNER", "wrong", "winners")
    assert bare.where() == "game"
    assert bare.to_json() == {"rule": "GAME.WINNER", "message": "wrong", "path": "winners",
                              "deal": None, "trick": None, "card": None, "seat": None}


@pytest.mark.rule("DECK.CARDS", "SCORE.DEAL")
def test_after_a_deal_that_is_not_the_deck_the_check_goes_on_from_the_totals(
        record: Record) -> None:
    def edit(r: Record) -> None:
        hands = r["deals"][0]["hands"]
        hands[0][0] = hands[1][0]  # a 3C for the 2C: three 3C, one 2C
        del r["deals"][0]["totals"]  # nothing to go on from: the totals before the deal

    found = validate_record(_edited(record, edit))
    assert (found[0].rule, found[0].path, found[0].message) == (
        "DECK.CARDS", "deals[0].hands", "the deal does not make up the deck: bad deal: the deal "
        "must hold every card exactly twice; wrong counts: 2C x1, 3C x3")
    # deal 2 is checked from totals of 0: its recorded totals include deal 1's scores, one
    # difference reported once
    assert found[1:] == [
        RecordViolation("SCORE.DEAL", "totals recorded as [16, 34, 20, 0, 8, 23, 3], but the "
                        "rules give [3, 16, 20, 0, 8, 5, 0] (the recorded totals before the deal "
                        "plus its recorded scores)", "deals[1].totals", deal=2)]


@pytest.mark.rule("PASS.DIRECTION")
def test_a_game_without_passing_is_valid(tmp_path: Path) -> None:
    hold = tmp_path / "hold.json"
    hold.write_text('{"pass_cycle": ["hold"]}')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", "--json", "--players", "7", "--seed", "3", "--ruleset",
                     str(hold)]) == 0
    rec = json.loads(out.getvalue())
    assert {d["passes"] is None for d in rec["deals"]} == {True}
    assert validate_record(rec) == []


@pytest.mark.rule("MOON.CHOICE")
def test_a_game_stopped_while_the_shooter_chooses_is_valid() -> None:
    sc = moon_deal(DEFAULT)
    choosing, _ = sc.state.apply(last_card(sc))
    assert validate_record(record_from_state(choosing)) == []


@pytest.mark.rule("MOON.CHOICE")
def test_a_moon_choice_where_the_ruleset_offers_none() -> None:
    sc = moon_deal(Ruleset(moon=Moon.OTHERS_52))
    scored, _ = sc.state.apply(last_card(sc))
    rec = record_from_state(scored)
    assert rec["deals"][0]["moon"] == {"shooter": 1, "choice": None}
    rec["deals"][0]["moon"]["choice"] = "add"
    assert validate_record(rec) == [RecordViolation(
        "MOON.CHOICE", "a moon choice is recorded, but moon others-52 offers none",
        "deals[0].moon.choice", deal=1)]
