"""``rules-ref validate``: recorded games are checked against the rules.

A record written by ``rules-ref play --json`` is valid; records edited to
break one rule are rejected with that rule's ID at the right place, several
edits are all reported, and unreadable input exits with status 2.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules_ref.actions import ChooseMoon, MoonChoice, Play
from rules_ref.cards import parse_card
from rules_ref.cli import main
from rules_ref.players.game import game_steps, play_game
from rules_ref.records.record import record_from_state
from rules_ref.records.validate import RecordViolation, validate_record
from rules_ref.ruleset import DEFAULT, PassDirection, Ruleset
from rules_ref.tricks import seat_at
from rules_ref.vectors import last_card, moon_deal

Record = dict[str, Any]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Record:
    """A whole 7-player game from ``rules-ref play --json`` (seed 3)."""
    out = tmp_path_factory.mktemp("play") / "game.json"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["play", "--json", "--players", "7", "--seed", "3"]) == 0
    out.write_text(buf.getvalue())
    data: Record = json.loads(buf.getvalue())
    return data


def write(tmp_path: Path, data: object, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def found(data: Record) -> list[RecordViolation]:
    return validate_record(data)


def follow_suit_swap(rec: Record) -> tuple[int, int, int, int]:
    """A swap of two cards of one seat in deal 1 that makes it discard while holding the led suit.

    Returns (trick index, position, later trick index, later position).
    """
    deal = rec["deals"][0]
    n = rec["players"]
    tricks = deal["tricks"]
    for ti, trick in enumerate(tricks):
        led = parse_card(trick["cards"][0]).suit
        for pos in range(1, n):
            card = parse_card(trick["cards"][pos])
            if card.suit != led:
                continue
            seat = seat_at(trick["leader"], pos, n)
            for tj in range(ti + 1, len(tricks)):
                later = tricks[tj]
                lpos = (seat - later["leader"]) % n
                other = parse_card(later["cards"][lpos])
                if other.suit != led and lpos != 0:
                    return ti, pos, tj, lpos
    raise AssertionError("no swap found")


def test_played_record_is_valid(record: Record, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", write(tmp_path, record)]) == 0
    assert capsys.readouterr().out == f"ok: {len(record['deals'])} deals, no violation\n"


@pytest.mark.rule("FOLLOW.SUIT")
def test_swapped_card_breaks_follow_suit(record: Record, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    rec = copy.deepcopy(record)
    ti, pos, tj, lpos = follow_suit_swap(rec)
    tricks = rec["deals"][0]["tricks"]
    a, b = tricks[ti]["cards"][pos], tricks[tj]["cards"][lpos]
    tricks[ti]["cards"][pos], tricks[tj]["cards"][lpos] = b, a
    seat = seat_at(tricks[ti]["leader"], pos, rec["players"])
    hits = [v for v in found(rec) if v.rule == "FOLLOW.SUIT"
            and v.path == f"deals[0].tricks[{ti}].cards[{pos}]"]
    assert len(hits) == 1
    assert (hits[0].deal, hits[0].trick, hits[0].card, hits[0].seat) == (1, ti + 1, pos + 1, seat)
    assert main(["validate", write(tmp_path, rec)]) == 1
    out = capsys.readouterr().out
    assert f"deal 1, trick {ti + 1}, card {pos + 1} (seat {seat}): FOLLOW.SUIT: " in out


def winner_edit(rec: Record, cancelled: bool) -> tuple[int, int, int]:
    """(deal index, trick index, wrong seat): a seat whose card is cancelled, or uncancelled."""
    n = rec["players"]
    for di, deal in enumerate(rec["deals"]):
        for ti, trick in enumerate(deal["tricks"]):
            if trick["winner"] is None:
                continue
            cards = trick["cards"]
            for pos, c in enumerate(cards):
                seat = seat_at(trick["leader"], pos, n)
                if seat == trick["winner"]:
                    continue
                if (cards.count(c) == 2) == cancelled:
                    return di, ti, seat
    raise AssertionError("no trick found")


@pytest.mark.rule("TRICK.WINNER")
def test_changed_winner_is_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    di, ti, seat = winner_edit(rec, cancelled=False)
    rec["deals"][di]["tricks"][ti]["winner"] = seat
    assert [(v.rule, v.path, v.deal, v.trick) for v in found(rec)] == [
        ("TRICK.WINNER", f"deals[{di}].tricks[{ti}].winner", di + 1, ti + 1)]


@pytest.mark.rule("TRICK.CANCEL")
def test_winner_with_cancelled_card_is_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    di, ti, seat = winner_edit(rec, cancelled=True)
    rec["deals"][di]["tricks"][ti]["winner"] = seat
    assert [(v.rule, v.path) for v in found(rec)] == [
        ("TRICK.CANCEL", f"deals[{di}].tricks[{ti}].winner")]


@pytest.mark.rule("TRICK.NEXT_LEADER", "LEAD.OPENING_LEADER")
def test_changed_leader_is_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    n = rec["players"]
    tricks = rec["deals"][1]["tricks"]
    ti = next(i for i, t in enumerate(tricks) if i > 0 and tricks[i - 1]["winner"] is not None)
    tricks[ti]["leader"] = (tricks[ti]["leader"] + 1) % n
    tricks[0]["leader"] = (tricks[0]["leader"] + 2) % n
    assert [(v.rule, v.path) for v in found(rec)] == [
        ("LEAD.OPENING_LEADER", "deals[1].tricks[0].leader"),
        ("TRICK.NEXT_LEADER", f"deals[1].tricks[{ti}].leader")]


@pytest.mark.rule("SCORE.DEAL")
def test_changed_totals_are_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    rec["deals"][1]["totals"][4] += 5
    got = found(rec)
    assert [(v.rule, v.path, v.deal, v.seat) for v in got] == [
        ("SCORE.DEAL", "deals[1].totals[4]", 2, 4)]
    assert "recorded as" in got[0].message


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_changed_card_points_are_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    rec["deals"][0]["card_points"][2] += 1
    assert [(v.rule, v.path) for v in found(rec)] == [
        ("SCORE.CARD_POINTS", "deals[0].card_points[2]")]


@pytest.mark.rule("GAME.WINNER")
def test_changed_winners_are_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    loser = max(range(rec["players"]), key=lambda s: rec["deals"][-1]["totals"][s])
    rec["winners"] = [loser]
    assert [(v.rule, v.path) for v in found(rec)] == [("GAME.WINNER", "winners")]


@pytest.mark.rule("GAME.END")
def test_winners_of_an_unfinished_game_are_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    rec["deals"] = rec["deals"][:2]
    assert [(v.rule, v.path) for v in found(rec)] == [("GAME.END", "winners")]


@pytest.mark.rule("DEAL.DEALER")
def test_wrong_dealer_is_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    rec["deals"][2]["dealer"] = (rec["deals"][2]["dealer"] + 1) % rec["players"]
    assert [(v.rule, v.path, v.deal) for v in found(rec)] == [
        ("DEAL.DEALER", "deals[2].dealer", 3)]


@pytest.mark.rule("DECK.CARDS")
def test_deal_that_does_not_make_up_the_deck_is_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    hands = rec["deals"][1]["hands"]
    hands[0][0] = hands[1][0] if hands[1][0] != hands[0][0] else hands[1][1]
    got = found(rec)
    assert [(v.rule, v.path) for v in got] == [("DECK.CARDS", "deals[1].hands")]


@pytest.mark.rule("PASS.CARDS")
def test_pass_of_the_wrong_size_is_reported(record: Record) -> None:
    rec = copy.deepcopy(record)
    deal = rec["deals"][0]
    seat = (deal["dealer"] + 1) % rec["players"]
    deal["passes"][seat] = deal["passes"][seat][:2]
    got = found(rec)
    assert ("PASS.CARDS", f"deals[0].passes[{seat}]", 1, seat) in [
        (v.rule, v.path, v.deal, v.seat) for v in got]


@pytest.mark.rule("TURN.OWN_CARD")
def test_card_not_held_skips_the_rest_of_the_deal(record: Record) -> None:
    rec = copy.deepcopy(record)
    trick = rec["deals"][0]["tricks"][0]
    hand_cards = {c for h in rec["deals"][0]["hands"] for c in h}
    trick["cards"][1] = next(c for c in ("2C", "3C", "4C", "5C", "6C") if c in hand_cards)
    rec["deals"][2]["totals"][0] += 1
    got = [(v.rule, v.path) for v in found(rec)]
    assert got[0] == ("TURN.OWN_CARD", "deals[0].tricks[0].cards[1]")
    assert got[-1] == ("SCORE.DEAL", "deals[2].totals[0]")
    assert all(p.startswith("deals[0].tricks[0]") or p.startswith("deals[2]") for _, p in got)


@pytest.mark.rule("FOLLOW.SUIT", "SCORE.DEAL", "GAME.WINNER", "TRICK.WINNER")
def test_several_edits_are_all_reported(record: Record, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    rec = copy.deepcopy(record)
    ti, pos, tj, lpos = follow_suit_swap(rec)
    tricks = rec["deals"][0]["tricks"]
    tricks[ti]["cards"][pos], tricks[tj]["cards"][lpos] = \
        tricks[tj]["cards"][lpos], tricks[ti]["cards"][pos]
    di, wi, seat = winner_edit(rec, cancelled=False)
    if di == 0:
        di, wi, seat = 1, *winner_edit({**rec, "deals": rec["deals"][1:]}, False)[1:]
    rec["deals"][di]["tricks"][wi]["winner"] = seat
    rec["deals"][3]["totals"][1] -= 2
    rec["winners"] = [(rec["winners"][0] + 1) % rec["players"]]
    rules = {(v.rule, v.path) for v in found(rec)}
    assert ("FOLLOW.SUIT", f"deals[0].tricks[{ti}].cards[{pos}]") in rules
    assert any(r in ("TRICK.WINNER", "TRICK.CANCEL")
               and p == f"deals[{di}].tricks[{wi}].winner" for r, p in rules)
    assert ("SCORE.DEAL", "deals[3].totals[1]") in rules
    assert ("GAME.WINNER", "winners") in rules
    assert main(["validate", "--json", write(tmp_path, rec)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is False
    assert {(v["rule"], v["path"]) for v in report["violations"]} == rules


@pytest.mark.rule("MOON.CHOICE", "MOON.CONDITION")
def test_moon_record_and_edits() -> None:
    sc = moon_deal(DEFAULT)
    state, _ = sc.state.apply(last_card(sc))
    state, _ = state.apply(ChooseMoon(1, MoonChoice.ADD))
    rec = record_from_state(state)
    assert found(rec) == []
    wrong = copy.deepcopy(rec)
    wrong["deals"][0]["scores"] = [0] * 8
    assert {v.rule for v in found(wrong)} == {"MOON.CHOICE"}
    # one difference, one report
    assert [v.path for v in found(wrong)] == ["deals[0].scores"]
    missing = copy.deepcopy(rec)
    missing["deals"][0]["moon"] = None
    missing["winners"] = []
    assert [(v.rule, v.path) for v in found(missing)] == [("MOON.CHOICE", "deals[0].moon")]
    other = copy.deepcopy(rec)
    other["deals"][0]["moon"]["shooter"] = 3
    assert [(v.rule, v.path) for v in found(other)] == [
        ("MOON.CONDITION", "deals[0].moon.shooter")]


@pytest.mark.untraced
def test_records_match_the_record_schema(record: Record) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="the record schema check needs the "
                                     "dev extra (jsonschema)")
    from rules_ref.registry import spec_dir

    schema = json.loads((spec_dir() / "schemas" / "record.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert list(validator.iter_errors(record)) == []
    broken = copy.deepcopy(record)
    broken["deals"][0]["tricks"][0]["cards"][0] = "1H"
    assert [list(e.absolute_path) for e in validator.iter_errors(broken)] == [
        ["deals", 0, "tricks", 0, "cards", 0]]


def test_malformed_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", write(tmp_path, '{"format": ')]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_wrong_shape_names_the_json_path(record: Record, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    rec = copy.deepcopy(record)
    rec["deals"][1]["tricks"][2]["cards"][0] = "1H"
    path = write(tmp_path, rec)
    assert main(["validate", path]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rules-ref validate: error: {path}: deals[1].tricks[2].cards[0]: '1H' "
                          "is not")
    assert err.count("\n") == 1
    rec = copy.deepcopy(record)
    del rec["deals"][0]["tricks"][0]["winner"]
    assert main(["validate", write(tmp_path, rec)]) == 2
    assert capsys.readouterr().err == \
        f"rules-ref validate: error: {path}: deals[0].tricks[0]: missing winner\n"
    assert main(["validate", write(tmp_path, [1, 2])]) == 2
    assert "record: expected an object, got a list" in capsys.readouterr().err


# --- causes, not consequences ---------------------------------------------------------------


@pytest.mark.rule("PASS.DIRECTION")
def test_passes_gone_the_wrong_way_are_pass_direction(record: Record) -> None:
    # the rules now pass right first, left second: the recorded game passed the other way
    rec = copy.deepcopy(record)
    rec["ruleset"] = {**rec["ruleset"], "pass_cycle": ["right", "left"]}
    got = found(rec)
    assert [(v.rule, v.path) for v in got] == [
        ("PASS.DIRECTION", f"deals[{i}].passes") for i in range(len(rec["deals"]))]
    assert got[0].message == ("the cards played show that the passes of deal 1 went to the "
                              "left, but deal 1 passes to the right")
    assert got[1].message == ("the cards played show that the passes of deal 2 went to the "
                              "right, but deal 2 passes to the left")


@pytest.mark.rule("PASS.DIRECTION")
def test_a_deal_played_without_its_passing_is_named_so() -> None:
    hold = Ruleset(pass_cycle=(PassDirection.HOLD,))
    rec = record_from_state(play_game(7, 5, hold))
    assert found(rec) == []
    rec["ruleset"] = {**rec["ruleset"], "pass_cycle": ["left", "right"]}
    got = found(rec)
    assert [(v.rule, v.path) for v in got] == [
        ("PASS.DIRECTION", f"deals[{i}].passes") for i in range(len(rec["deals"]))]
    assert got[1].message == ("deal 2 passes to the right under pass_cycle left,right, but no "
                              "passes are recorded: the deal was played without passing")


def _shift(rec: Record, di: int, seat: int, points: int) -> None:
    """Add ``points`` to a seat's card points of deal ``di``, and to its score and totals after."""
    rec["deals"][di]["card_points"][seat] += points
    rec["deals"][di]["scores"][seat] += points
    for deal in rec["deals"][di:]:
        deal["totals"][seat] += points
    totals = rec["deals"][-1]["totals"]
    rec["winners"] = [s for s, t in enumerate(totals) if t == min(totals)]


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_one_score_difference_is_one_report(record: Record) -> None:
    rec = copy.deepcopy(record)
    assert rec["deals"][1]["uncollected"] == []  # nothing nobody took: no parcel of 5 points
    final = rec["deals"][-1]["totals"]
    seat = min(range(rec["players"]), key=lambda s: final[s])  # far from the target
    _shift(rec, 1, seat, 5)  # the engine counted 5 points too many, and carried them on
    got = found(rec)
    assert [(v.rule, v.path, v.deal, v.seat) for v in got] == [
        ("SCORE.CARD_POINTS", f"deals[1].card_points[{seat}]", 2, seat)]
    assert got[0].message == (f"card_points recorded as "
                              f"{rec['deals'][1]['card_points'][seat]}, but the rules give "
                              f"{record['deals'][1]['card_points'][seat]}")


def _pending_pile(deal: dict[str, Any], players: int) -> tuple[int, int]:
    """(winner, points) of the first pending pile a trick after trick 1 collects with points."""
    pile: list[str] = []
    for ti, trick in enumerate(deal["tricks"]):
        if trick["winner"] is None:
            pile += trick["cards"] if ti else []
            if ti == 0:
                return -1, 0  # the extras are in this pile: another rule's cards
            continue
        points = sum(1 for c in pile if c.endswith("H")) + 13 * pile.count("QS")
        if points:
            return trick["winner"], points
        pile = []
    return -1, 0


@pytest.mark.rule("VOID.COLLECT")
def test_points_lost_with_the_pending_pile_are_traced_to_it() -> None:
    for seed in range(40):
        rec = record_from_state(play_game(7, seed))
        for di, deal in enumerate(rec["deals"]):  # noqa: B007 - di is used after the loop
            winner, points = _pending_pile(deal, 7)
            if points:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no pending pile with points in 40 games")
    _shift(rec, di, winner, -points)  # an engine that scores the tricks won, not the piles
    got = found(rec)
    assert [(v.rule, v.path) for v in got] == [
        ("VOID.COLLECT", f"deals[{di}].card_points[{winner}]")]
    assert got[0].message.endswith(": the points of the pending pile a trick's winner collects "
                                   "are counted elsewhere")


@pytest.mark.rule("GAME.END", "SCORE.DEAL")
def test_totals_past_the_target_end_the_game_as_recorded(record: Record) -> None:
    # a total recorded at the target two deals before the end: the last deal is one too many
    rec = copy.deepcopy(record)
    k = len(rec["deals"]) - 2
    rec["deals"][k]["totals"][0] = rec["ruleset"].get("target", 150)
    got = found(rec)
    assert [(v.rule, v.path) for v in got] == [("SCORE.DEAL", f"deals[{k}].totals[0]"),
                                               ("GAME.END", f"deals[{k + 1}]")]
    assert got[1].message == (f"the game ended after deal {k + 1} (the recorded totals reach "
                              f"the target, 150); deal {k + 2} should not have been played")
    # recorded as the last deal, with the winners its totals give: no "not over"
    cut = copy.deepcopy(rec)
    cut["deals"] = cut["deals"][:k + 1]
    totals = cut["deals"][-1]["totals"]
    cut["winners"] = [s for s, t in enumerate(totals) if t == min(totals)]
    assert [(v.rule, v.path) for v in found(cut)] == [("SCORE.DEAL", f"deals[{k}].totals[0]")]


def _with_legal(players: int, seed: int) -> Record:
    """A game record whose tricks carry the legal cards offered at each decision."""
    offered = [[str(c) for c in before.legal_plays()]
               for before, action, _, _ in game_steps(players, seed)
               if isinstance(action, Play)]
    rec = record_from_state(play_game(players, seed))
    it = iter(offered)
    for deal in rec["deals"]:
        for trick in deal["tricks"]:
            trick["legal"] = [next(it) for _ in trick["cards"]]
    return rec


@pytest.mark.rule("FOLLOW.SUIT", "LEAD.OPENING_CARD")
def test_an_engine_stricter_than_the_rules_shows_in_the_offered_cards() -> None:
    rec = _with_legal(7, 5)
    assert found(rec) == []
    stricter = copy.deepcopy(rec)
    trick = stricter["deals"][0]["tricks"][0]
    ci = next(i for i, legal in enumerate(trick["legal"]) if i and len(legal) > 1
              and trick["cards"][i] != legal[-1])
    dropped = trick["legal"][ci].pop()  # a card the rules allow, not offered
    got = found(stricter)
    assert [(v.rule, v.path, v.card) for v in got] == [
        (_first_trick_rule(dropped), f"deals[0].tricks[0].legal[{ci}]", ci + 1)]
    assert f"was not offered {parse_card(dropped).pretty}, which the rules allow here" in \
        got[0].message
    looser = copy.deepcopy(rec)
    opening = looser["deals"][0]["tricks"][0]["legal"][0]
    hand = looser["deals"][0]["hands"]
    heart = next(c for h in hand for c in h if c.endswith("H") and c not in opening)
    opening.append(heart)
    assert ("LEAD.OPENING_CARD", "deals[0].tricks[0].legal[0]") in [
        (v.rule, v.path) for v in found(looser)]


def _first_trick_rule(card: str) -> str:
    return "FOLLOW.FIRST_TRICK" if card.endswith("H") or card == "QS" else "FOLLOW.SUIT"


@pytest.mark.untraced
def test_offered_cards_match_the_record_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="the record schema check needs the "
                                     "dev extra (jsonschema)")
    from rules_ref.registry import spec_dir

    schema = json.loads((spec_dir() / "schemas" / "record.schema.json").read_text())
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(_with_legal(7, 5))) == []


def test_counts_are_worded_in_the_right_number(record: Record, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    rec = copy.deepcopy(record)
    rec["deals"] = rec["deals"][:1]
    rec["winners"] = []
    assert main(["validate", write(tmp_path, rec)]) == 0
    assert capsys.readouterr().out == "ok: 1 deal, no violation\n"
    rec["deals"][0]["dealer"] += 1
    assert main(["validate", write(tmp_path, rec)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "1 violation in 1 deal"
