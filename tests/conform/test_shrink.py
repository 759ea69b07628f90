"""Shrinking aims at the plainest game, whatever game the search met a difference in.

The plainest game is the default ruleset (or as few changed switches as the
difference needs), at the adapter's most common player count, in the first
deal the difference can show in, in as few actions as it can. The search
meets differences at any count, under drawn rulesets, deep in a game; the
shrinking rebuilds the failing game at the plainer setting
(:mod:`rules_ref.conform.rebuild`) where editing the recorded one cannot
get there. Every run here is bounded by games and given a shrinking budget
its checks never reach, so what it reports does not depend on the machine's
speed; the search's own games and counts are those it plays without the
rebuilding.
"""

from __future__ import annotations

import contextlib
import copy
import html
import io
import json
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.cli.conform_report import render_report
from rules_ref.conform.choosers import RulesetDrawer
from rules_ref.conform.rebuild import Rebuild, redrawn
from rules_ref.conform.refused_tables import refused_starts
from rules_ref.conform.shrink import (
    REBUILD_GAMES,
    _plainer,
    _Plan,
    _played,
    _Rebuilding,
    _shrinker,
)
from rules_ref.deal import seeded_deal
from rules_ref.errors import SetupError
from rules_ref.findings.classes import Findings
from rules_ref.findings.failure import Failure
from rules_ref.jsonio.serialize import action_to_json, cards_to_json
from rules_ref.protocol.handshake import Supports
from rules_ref.protocol.messages import SWITCHES
from rules_ref.protocol.start import start_state
from rules_ref.reports.merge import merge_summaries
from rules_ref.reports.text import class_lines
from rules_ref.ruleset import DEFAULT, Ruleset

from ..fakes import broken_adapters_more, multi_fault_adapters

DEFAULT_RULES = DEFAULT.to_dict()


def _summary(tmp_path: Path, command: list[str], seed: int, games: int,
             *more: str) -> dict[str, Any]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(["conform", "--json", "--examples", str(games), "--seed", str(seed),
                     "--max-seconds", "600", "--timeout", "60", *more,
                     "--out", str(tmp_path / "out"), "--", *command])
    summary: dict[str, Any] = json.loads(buffer.getvalue())
    assert (code, summary["verdict"]) == (1, "disagreement")
    return summary


def _plainest(cls: dict[str, Any]) -> tuple[int, dict[str, Any], int, bool, int, str]:
    """A class's example: its players, ruleset, deal, zero totals, actions, how shrunk."""
    start = cls["example"]["start"]
    head = start.get("position", start)
    return (start["players"], start["ruleset"], head["deal_number"],
            not any(head["totals"]), len(cls["example"]["actions"]), cls["shrunk"])


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_each_class_of_the_three_fault_adapter_shrinks_to_the_default_rules_at_eight(
        tmp_path: Path) -> None:
    # seed 1 meets each fault wherever its games go (drawn rulesets, deals and totals): each
    # is rebuilt at 8 players (the most common of the 5 to 11 declared) under the default
    # rules, in the first deal it can show in: the wrong leader and the misread led suit in
    # deal 1, the pass always to the left in deal 2 (the default passes right there)
    summary = _summary(tmp_path, multi_fault_adapters.command("pass-lead-suit"), 1, 10)
    # the search is the one the run plays without rebuilding (a game no longer ends after
    # six refused positions: it shows the pass to the left once more, at a later deal)
    assert (summary["games"], summary["divergences"], summary["deals"],
            summary["actions_compared"]) == (10, 22, 15, 1661)
    classes = {c["rule"]: c for c in summary["classes"]}
    assert {r: (c["count"], c["games"]) for r, c in classes.items()} == {
        "LEAD.OPENING_LEADER": (13, 9), "PASS.DIRECTION": (5, 5), "TRICK.LED_SUIT": (4, 2)}
    assert {r: _plainest(c) for r, c in classes.items()} == {
        "LEAD.OPENING_LEADER": (8, DEFAULT_RULES, 1, True, 1, "position"),
        "PASS.DIRECTION": (8, DEFAULT_RULES, 2, True, 1, "position"),
        "TRICK.LED_SUIT": (8, DEFAULT_RULES, 1, True, 1, "position")}
    assert {r: c["example"]["failing"] for r, c in classes.items()} == {
        "LEAD.OPENING_LEADER": {"type": "pass", "seat": 2, "cards": ["8C", "9C", "QC"]},
        "PASS.DIRECTION": {"type": "pass", "seat": 2, "cards": ["10D", "JD", "2S"]},
        "TRICK.LED_SUIT": {"type": "play", "seat": 7, "card": "QS"}}
    # the report says the setting plainly, in the text and in the HTML alike
    assert {r: c["setting"] for r, c in classes.items()} == {
        "LEAD.OPENING_LEADER": "8 players, default rules, deal 1",
        "PASS.DIRECTION": "8 players, default rules, deal 2",
        "TRICK.LED_SUIT": "8 players, default rules, deal 1"}
    text = class_lines(3, classes["PASS.DIRECTION"])
    assert ("    minimal example: 8 players, default rules, deal 2: 1 action after the start "
            "(from the position before the divergent action)") in text
    page = html.unescape(render_report(summary, "r.html"))
    assert "The minimal example (8 players, default rules, deal 2) as the reference" in page


@pytest.mark.untraced
@pytest.mark.rule("PASS.CARDS")
def test_a_bug_of_one_switch_value_keeps_that_switch_alone(tmp_path: Path) -> None:
    # the engine takes no pass of other than 3 cards: it shows only where pass_count is not
    # 3. Wherever seed 4's games meet it, it is rebuilt at 8 players under pass_count alone
    # (= 4 here), in deal 1 at zero totals
    summary = _summary(tmp_path, broken_adapters_more.command("pass-three-always"), 4, 20)
    (cls,) = summary["classes"]
    assert _plainest(cls) == (8, {**DEFAULT_RULES, "pass_count": 4}, 1, True, 1, "position")
    assert cls["example"]["failing"] == {"type": "pass", "seat": 1,
                                         "cards": ["7C", "KC", "2D", "7D"]}
    assert cls["setting"] == "8 players, default rules except pass_count = 4, deal 1"
    # merged with a run whose example of the class is less plain (a second switch changed,
    # in fewer actions), the plainer example is kept, and the words of its own setting
    other = copy.deepcopy(summary)
    (less,) = other["classes"]
    less["example"]["start"]["ruleset"]["target"] = 50
    less["example"]["actions"] = []
    less["setting"] = "8 players, default rules except pass_count = 4, target = 50, deal 1"
    for first, second in ((summary, other), (other, summary)):
        (merged,) = merge_summaries([("a.json", first), ("b.json", second)])["classes"]
        assert (merged["example"], merged["setting"]) == (cls["example"], cls["setting"])


@pytest.mark.untraced
@pytest.mark.rule("PASS.CARDS")
def test_without_positions_the_recorded_deal_is_played_under_the_plainer_setting(
        tmp_path: Path) -> None:
    # protocol version 1: no start from a position. Wherever seed 1's games meet the bug
    # (under pass_count = 2 here), the example is the first deal at zero totals under that
    # switch alone, its first pass the one refused
    summary = _summary(tmp_path, broken_adapters_more.command("pass-three-always"), 1, 20,
                       "--protocol", "1")
    (cls,) = summary["classes"]
    assert _plainest(cls) == (8, {**DEFAULT_RULES, "pass_count": 2}, 1, True, 1,
                              "no smaller game shows it")
    assert cls["example"]["failing"] == {"type": "pass", "seat": 3, "cards": ["AC", "3H"]}


# --- the recorded actions, drawn again under plainer rules ------------------------------------


def _start(ruleset: dict[str, Any], players: int = 8) -> dict[str, Any]:
    deal = seeded_deal(3, players, 1, 0, 5)
    return {"type": "start", "players": players, "ruleset": ruleset, "deal_number": 1,
            "dealer": 0, "totals": [0] * players,
            "hands": [cards_to_json(h) for h in deal.hands],
            "extras": cards_to_json(deal.extras)}


def _first_actions(start: dict[str, Any], plays: int) -> list[dict[str, Any]]:
    """The passes of every seat (their first cards), then ``plays`` plays (the first legal)."""
    state = start_state(start)
    out: list[dict[str, Any]] = []
    while len([a for a in out if a["type"] == "play"]) < plays:
        action = state.legal_actions(state.waiting_for[0])[0]
        out.append(action_to_json(action))
        state, _ = state.apply(action)
    return out


def test_a_pass_of_four_cards_is_drawn_again_as_three_of_them() -> None:
    four = _start({**DEFAULT_RULES, "pass_count": 4})
    actions = _first_actions(four, plays=3)
    passes = [a for a in actions if a["type"] == "pass"]
    assert [len(a["cards"]) for a in passes] == [4] * 8
    again = redrawn(four, _start(DEFAULT_RULES), actions)
    assert again is not None
    # each seat passes the first 3 of the 4 cards it passed, in the same order of seats
    assert again[:8] == [{**a, "cards": a["cards"][:3]} for a in passes]
    # the plays after the passes are the same seats', each its card where it may play it
    assert [a["type"] for a in again] == [a["type"] for a in actions]
    assert [a["seat"] for a in again[8:]] == [a["seat"] for a in actions[8:]]


def test_a_hold_deal_drawn_again_under_a_passing_cycle_passes_first() -> None:
    hold = _start({**DEFAULT_RULES, "pass_cycle": ["hold"]})
    actions = _first_actions(hold, plays=2)
    assert [a["type"] for a in actions] == ["play", "play"]
    again = redrawn(hold, _start(DEFAULT_RULES), actions)
    assert again is not None
    # every seat passes 3 cards first (the passes the default rules ask for), then the plays
    assert [(a["type"], len(a.get("cards", []))) for a in again] == [("pass", 3)] * 8 + [
        ("play", 0)] * 2


def test_an_illegal_offer_is_kept_where_it_is_still_illegal_and_left_out_where_not() -> None:
    four = _start({**DEFAULT_RULES, "pass_count": 4})
    seat = 1
    hand = four["hands"][seat]
    three_cards = {"type": "pass", "seat": seat, "cards": hand[:3]}  # too few under 4
    not_held = {"type": "play", "seat": seat, "card": "XX"}
    # an offer of an illegal action that the default rules allow would change the game
    assert redrawn(four, _start(DEFAULT_RULES), [three_cards]) == []
    two_cards = {"type": "pass", "seat": seat, "cards": hand[:2]}  # too few under both
    assert redrawn(four, _start(DEFAULT_RULES), [two_cards]) == [two_cards]
    assert redrawn(four, _start(DEFAULT_RULES), [not_held]) is None  # no action of the rules


# --- which games the rebuilding asks for ----------------------------------------------------


#: An adapter of 5 to 11 players and every switch value.
_ANY = Supports("", tuple(range(5, 12)), dict.fromkeys(SWITCHES, "any"))


def _requests(failure: Failure, supports: Supports = _ANY, fixed: Ruleset | None = None
              ) -> list[Rebuild]:
    """The directed games the shrinking of ``failure``'s class asks for at 8 players, no
    check finding it (an adapter of ``supports``; a run of the ruleset ``fixed`` alone)."""
    found = Findings()
    found.record(failure, game=1, seconds=0.1)
    (cls,) = found.classes.values()
    plan = _Plan(True, 8, _played(fixed, supports), _Rebuilding(1, RulesetDrawer(supports)))
    shrinker = _shrinker(cls, plan)
    asked: list[Rebuild] = []
    with contextlib.suppress(StopIteration):
        check = next(shrinker)
        while True:
            if isinstance(check, Rebuild):
                asked.append(check)
            check = shrinker.send(None)
    return asked


def _failure(start: dict[str, Any], failing: dict[str, Any] | None) -> Failure:
    return Failure("disagreement", ["PASS.CARDS"], "s", start, [failing] if failing else [],
                   failing, {}, {"type": "observation"}, {"type": "rejected"}, [])


def test_a_game_met_at_another_count_is_rebuilt_at_the_common_one() -> None:
    six = {**_start({**DEFAULT_RULES, "target": 50}, players=6), "totals": [9] * 6}
    asked = _requests(_failure(six, {"type": "pass", "seat": 1,
                                     "cards": six["hands"][1][:3]}))
    # the default rules first, then the example's own switches, each at most REBUILD_GAMES
    # games from deal 1 (the adapter starts from positions: the games play on from there)
    assert [(r.players, r.ruleset.to_dict(), r.deal_number) for r in asked] == [
        (8, DEFAULT_RULES, 1)] * REBUILD_GAMES + [
        (8, {**DEFAULT_RULES, "target": 50}, 1)] * REBUILD_GAMES
    # aimed at no condition, then at each condition of the class's rule in turn; a
    # rejected legal pass offers no illegal action
    assert asked[0].focus is None and all(r.focus.startswith("PASS.CARDS: ")
                                          for r in asked[1:REBUILD_GAMES] if r.focus)
    assert not any(r.illegal for r in asked)
    assert len({r.seed for r in asked}) == len(asked)


def test_a_table_the_rules_refuse_is_not_rebuilt() -> None:
    # the table is the difference: no game at another count or under other rules shows it
    refused = refused_starts(_ANY, (8,), 1)[0]
    with pytest.raises(SetupError):
        start_state(refused)
    assert _requests(_failure(refused, None)) == []


def test_no_game_is_rebuilt_under_rules_the_run_does_not_play() -> None:
    hold = {**DEFAULT_RULES, "pass_cycle": ["hold"]}
    six = _start(hold, players=6)
    failure = _failure(six, {"type": "play", "seat": 1, "card": six["hands"][1][0]})
    # an adapter that plays the hold cycle alone: never the default one
    only_hold = Supports("", tuple(range(5, 12)), {
        **dict.fromkeys(SWITCHES, "any"), "pass_cycle": [["hold"]]})
    asked = _requests(failure, only_hold)
    assert [(r.players, r.ruleset.to_dict()) for r in asked] == [(8, hold)] * REBUILD_GAMES
    # a run of one ruleset (--preset, --ruleset) plays that one alone
    bicycle = Ruleset.from_dict({**DEFAULT_RULES, "target": 50})
    assert _requests(failure, _ANY, bicycle) == []
    assert {r.ruleset for r in _requests(_failure({**six, "ruleset": bicycle.to_dict()},
                                                  failure.failing), _ANY, bicycle)} == {bicycle}


def test_a_switch_is_set_back_only_to_a_value_the_run_plays() -> None:
    hold = {**DEFAULT_RULES, "pass_cycle": ["hold"], "target": 50}
    found = Findings()
    found.record(_failure(_start(hold), None), game=1, seconds=0.1)
    (cls,) = found.classes.values()
    cls.example = cls.first

    def tried(supports: Supports) -> list[dict[str, Any]]:
        gen = _plainer(cls, lambda failure, how: False, _Plan(True, 8, _played(None, supports)))
        starts: list[dict[str, Any]] = []
        with contextlib.suppress(StopIteration):
            check = next(gen)
            while True:
                assert not isinstance(check, Rebuild)
                starts.append(check[0]["ruleset"])
                check = gen.send(None)
        return starts

    assert tried(_ANY) == [{**hold, "pass_cycle": ["left", "right"]},
                           {**hold, "target": 150}]
    only_hold = Supports("", tuple(range(5, 12)), {
        **dict.fromkeys(SWITCHES, "any"), "pass_cycle": [["hold"]]})
    assert tried(only_hold) == [{**hold, "target": 150}]
