"""One finding, rendered everywhere: broken engines get the right class, switch and words.

Each broken adapter below has one fault; a run bounded by games (so what it
finds does not depend on the machine's speed) must report it as one finding
with the rule, the switch whose value decides it there, and its facets in
words, shrunk to the plainest game. The same run read as text, JSON,
Markdown, HTML and ``--merge`` carries the same words for every finding, and
an expectations file narrows to one facet.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_ref.actions import Action, Play
from rules_ref.cli import main
from rules_ref.cli.conform_report import render_report
from rules_ref.conform.shrink import common_players
from rules_ref.findings.classes import Findings, finding_lines
from rules_ref.findings.failure import Failure
from rules_ref.findings.words import moon_score_words, void_last_words
from rules_ref.registry import spec_toml
from rules_ref.reports.merge import merge_summaries
from rules_ref.reports.run_text import merge_lines
from rules_ref.ruleset import DEFAULT, LastTrickVoid, Moon
from rules_ref.state import GameState

from ..fakes import broken_adapters, broken_adapters_more, multi_fault_adapters


def _games(n: int, seed: int = 1) -> list[str]:
    return ["--examples", str(n), "--seed", str(seed), "--max-seconds", "600", "--timeout", "60"]


def _run(*args: str) -> tuple[int, str]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(["conform", *args])
    return code, buffer.getvalue()


def _summary(tmp_path: Path, command: list[str], *args: str) -> dict[str, Any]:
    code, out = _run("--json", *args, "--out", str(tmp_path / "out"), "--", *command)
    summary: dict[str, Any] = json.loads(out)
    assert code == {"disagreement": 1, "pass": 0, "nothing-tested": 4}[summary["verdict"]], \
        summary["verdict"]
    return summary


def _found(summary: dict[str, Any]) -> dict[str, tuple[str | None, list[str]]]:
    return {c["key"]: (c["switch"], [f["words"] for f in c["facets"]])
            for c in summary["classes"]}


#: Broken adapter -> its run's games, and the findings it must show: key -> (switch, facets).
CASES: dict[str, tuple[list[str], int, dict[str, tuple[str | None, list[str]]]]] = {
    # the switch that decides a refused 2♣ pass is pass_forbidden, not PASS.CARDS's first
    "pass-no-two-of-clubs": (broken_adapters_more.command("pass-no-two-of-clubs"), 15, {
        "PASS.CARDS: rejects a legal pass": ("pass_forbidden",
                                             ["rejects a pass that contains 2♣"])}),
    # a void last trick's pending cards scored: one finding (not a second one of card points)
    # under the reference's own value, nobody
    "last-void-to-leader": (broken_adapters.command("last-void-to-leader"), 60, {
        "VOID.LAST: differs on cards still pending at the end of a deal": (
            "last_trick_void",
            ["scores the cards a void last trick leaves pending, which nobody collects"])}),
    # a heart led and a Q♠ led that do not break hearts: two facets of one finding
    "lead-breaks-nothing": (broken_adapters_more.command("lead-breaks-nothing"), 15, {
        "HEARTS.BROKEN: differs on breaking hearts": (
            "hearts_broken_by", ["does not break hearts when Q♠ is led",
                                 "does not break hearts when a heart is led"])}),
}


@pytest.mark.untraced
@pytest.mark.parametrize("name", list(CASES))
def test_a_broken_engine_gets_its_rule_switch_and_words(name: str, tmp_path: Path) -> None:
    command, games, findings = CASES[name]
    summary = _summary(tmp_path, command, *_games(games))
    assert _found(summary) == findings
    for cls in summary["classes"]:
        assert sum(f["count"] for f in cls["facets"]) == cls["count"]
        assert all(f["example"]["rules"] for f in cls["facets"])


_FOLLOWER_TWO = ("FOLLOW.FIRST_TRICK: differs on hearts and Q♠ on the first trick", (
    "first_trick_two_of_clubs", ["allows only 2♣ on the first trick"]))


@pytest.mark.untraced
@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_a_forced_two_of_clubs_is_one_class_under_its_own_switch(tmp_path: Path) -> None:
    # a follower's forced 2♣ is first_trick_two_of_clubs's, whatever the opening lead (the
    # run draws 2♣ opening leads too): one class, never a facet of LEAD.OPENING_CARD's
    summary = _summary(tmp_path, broken_adapters_more.command("two-of-clubs-forced-followers"),
                       *_games(15))
    assert _found(summary) == dict([_FOLLOWER_TWO])
    assert {c["example"]["start"]["ruleset"]["opening_lead"] for c in summary["classes"]} == {
        "left-of-dealer"}


@pytest.mark.untraced
@pytest.mark.rule("FOLLOW.FIRST_TRICK", "LEAD.OPENING_CARD")
def test_a_two_of_clubs_forced_on_the_leader_too_is_a_second_switch(tmp_path: Path) -> None:
    # the opening lead is LEAD.OPENING_CARD's (spec/variants.toml: first_trick_two_of_clubs
    # governs the plays after the opening lead, opening_lead the lead itself): two switch
    # values, two classes, each behaviour in one of them
    summary = _summary(tmp_path, broken_adapters_more.command("two-of-clubs-forced"),
                       *_games(15))
    assert _found(summary) == dict([_FOLLOWER_TWO, (
        "LEAD.OPENING_CARD: differs on what the opening lead may be", (
            "opening_lead", ["allows only 2♣ to open the deal"]))])


@pytest.mark.untraced
@pytest.mark.rule("TRICK.LED_SUIT", "VOID.TRICK")
def test_a_game_that_diverged_is_not_started_again_from_a_position(tmp_path: Path) -> None:
    # the engine takes the first live card's suit as led: it reads a set-aside trick as won,
    # and would reject the reference's position with that pile waiting. A game is started
    # again from a position only where nothing diverged, so its one difference is one class
    summary = _summary(tmp_path, broken_adapters.command("led-suit-first-live"), *_games(20))
    assert [c["key"] for c in summary["classes"]] == ["TRICK.LED_SUIT: differs on the led suit"]
    # the games that did not diverge still checked the position capability
    assert summary["position_starts"] == 3


@pytest.mark.untraced
@pytest.mark.rule("PASS.CARDS")
def test_a_default_rules_bug_shrinks_to_the_default_ruleset_at_the_common_count(
        tmp_path: Path) -> None:
    # the adapter declares 5 to 11 players: its most common count is 8. Wherever the search
    # meets the bug (any table, any ruleset, totals of a game under way), the failing game
    # is rebuilt at 8 players under the default rules, in deal 1 at zero totals, and shrunk
    # to the position before the refused pass (the 2♣ among its cards)
    summary = _summary(tmp_path, broken_adapters_more.command("pass-no-two-of-clubs"),
                       *_games(30, seed=1))
    (cls,) = summary["classes"]
    start = cls["example"]["start"]
    assert (start["players"], start["ruleset"], start["position"]["deal_number"],
            start["position"]["totals"]) == (8, DEFAULT.to_dict(), 1, [0] * 8)
    assert (cls["shrunk"], cls["example"]["actions"]) == ("position", [
        {"type": "pass", "seat": 1, "cards": ["2C", "2C", "8H"]}])
    assert cls["setting"] == "8 players, default rules, deal 1"


@pytest.mark.untraced
@pytest.mark.rule("PLAYERS.COUNT")
def test_the_template_as_shipped_plays_no_game_and_its_example_is_the_plainest(
        tmp_path: Path) -> None:
    # it rejects every start: nothing was tested (never a pass), no rule decides it (not
    # PLAYERS.COUNT, whose count has nothing to do with it), and the example is the plainest
    # table (8 of the 6 to 11 players it declares, the default rules, a first deal from
    # seed 0), where the search's first rejection was at any table
    from rules_ref.deal import seeded_deal
    from rules_ref.jsonio.serialize import cards_to_json

    template = str(Path(__file__).resolve().parents[2] / "spec" / "adapter-template.py")
    summary = _summary(tmp_path, [sys.executable, template], *_games(5))
    assert summary["verdict"] == "nothing-tested" and summary["deals"] == 0
    (cls,) = summary["classes"]
    # 9 starts: each game's, and those of the later deals the games went on to (the
    # reference played them alone and offered each deal again as a start)
    assert (cls["key"], cls["rule"], cls["switch"], cls["count"]) == (
        "rejects every start: no game was played", None, None, 9)
    # why it rejects: nothing in the rules, and the implementation's own reason says so
    assert cls["words"] == ["rejects every start: no game was played",
                            "  rejected at 7, 8 and 11 players and under every ruleset drawn",
                            "    the implementation says: this adapter does not implement a "
                            "game yet"]
    deal = seeded_deal(0, 8, 1, 0)
    assert (cls["shrunk"], cls["example"]["actions"]) == ("start", [])
    assert cls["example"]["start"] == {
        "type": "start", "players": 8, "ruleset": DEFAULT.to_dict(), "deal_number": 1,
        "dealer": 0, "totals": [0] * 8, "hands": [cards_to_json(h) for h in deal.hands],
        "extras": cards_to_json(deal.extras)}


def test_the_most_common_count_is_the_declared_one_nearest_eight() -> None:
    assert common_players((8,)) == 8
    assert common_players((10,)) == 10
    assert common_players(tuple(range(6, 12))) == 8
    assert common_players((10, 11)) == 10
    assert common_players((6, 10)) == 6  # a tie goes to the smaller
    assert common_players(()) is None


def test_shrinking_starts_at_the_common_count_where_the_ruleset_is_as_plain() -> None:
    def at(players: int, actions: int, **switches: Any) -> Failure:
        ruleset = {**DEFAULT.to_dict(), **switches}
        return Failure("disagreement", ["PASS.CARDS"], "s", {"players": players,
                                                              "ruleset": ruleset},
                       [{"type": "play"}] * actions, None, {}, {}, {})

    found = Findings()
    for failure in (at(6, 1), at(8, 4), at(10, 0, target=50), at(8, 9)):
        found.record(failure, game=1, seconds=0.1)
    (cls,) = found.classes.values()
    assert {n: len(f.actions) for n, f in cls.by_players.items()} == {6: 1, 8: 4, 10: 0}
    assert cls.plainest(8) is cls.by_players[8]  # the default ruleset at the common count
    assert cls.plainest(None) is cls.by_players[6]  # else the fewest deals and actions
    assert cls.plainest(10) is cls.by_players[6]  # the ruleset first: target 50 is a change
    merged = Findings()
    merged.merge_json(found.to_json(), 0)
    assert {n: len(f.actions) for n, f in merged.classes[cls.key].by_players.items()} == {
        6: 1, 8: 4, 10: 0}


@pytest.mark.untraced
@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_an_expectation_matches_the_card_of_the_step_that_differs(tmp_path: Path) -> None:
    # the engine forbids Q♠ while following on trick 1: the observation after the play
    # before shows it, and the card an entry names is the Q♠ of the step that differs
    command = broken_adapters_more.command("first-trick-ban-following")
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"version": 1, "expected": [
        {"rule": "FOLLOW.FIRST_TRICK", "action": "play", "card": "QS"}]}))
    summary = _summary(tmp_path, command, *_games(20, seed=2), "--expect", str(expect))
    assert summary["verdict"] == "pass"
    (cls,) = summary["classes"]
    assert (cls["expected"], cls["switch"]) == (True, "first_trick_points")
    assert [(f["words"], f["step"], f["cards"]) for f in cls["facets"]] == [
        ("forbids Q♠ on the first trick while following suit", "play", ["QS"])]


def _text_of_markdown(text: str) -> str:
    return re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", text)


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_every_output_carries_the_same_words_for_every_finding(tmp_path: Path) -> None:
    command = multi_fault_adapters.command("pass-lead-suit")
    games = _games(10, seed=7)
    summary = _summary(tmp_path, command, *games)
    code, text = _run(*games, "--out", str(tmp_path / "text"), "--report",
                      str(tmp_path / "r.md"), "--", *command)
    assert code == 1
    outputs = {
        "text": text,
        "json": json.dumps(summary, ensure_ascii=False),
        "markdown": _text_of_markdown((tmp_path / "r.md").read_text()),
        "html": html.unescape(render_report(summary, "r.html")),
        "merge": "\n".join(merge_lines(merge_summaries([("a.json", summary)]))),
    }
    assert len(summary["classes"]) == 3
    for cls in summary["classes"]:
        words = [line.strip() for line in finding_lines(cls)]
        assert words[0] == cls["key"] and cls["what"] in words[0]
        assert cls["words"] == finding_lines(cls)  # the JSON carries the words it renders
        for name, out in outputs.items():
            for line in words:
                assert line in out, (name, line)
    # none says "its game differs from the reference's" in place of what differs
    assert not any("its game differs" in out for out in outputs.values())


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_a_run_whose_divergences_were_all_expected_says_so_with_the_count(
        tmp_path: Path) -> None:
    command = multi_fault_adapters.command("pass-lead-suit")
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"version": 1, "expected": [
        {"rule": r} for r in multi_fault_adapters.rules_of("pass-lead-suit")]}))
    games = [*_games(10, seed=7), "--expect", str(expect)]
    summary = _summary(tmp_path, command, *games)
    seen, classes = summary["divergences"], len(summary["classes"])
    assert seen > classes >= 3
    said = f"passed: {seen} divergences seen, all expected, in {classes} classes"
    code, text = _run(*games, "--out", str(tmp_path / "text"), "--", *command)
    assert code == 0
    assert text.rstrip().endswith(f"verdict: PASS: {said}")
    page = html.unescape(render_report(summary, "r.html"))
    assert f"Verdict: PASS: {said} (exit status 0)." in page
    assert "agreed with the reference on everything" not in page


def _values(switch: str) -> list[str]:
    (entry,) = [s for s in spec_toml("variants.toml")["switch"] if s["name"] == switch]
    return [str(v["value"]) for v in entry["value"]]


@pytest.mark.rule("VOID.LAST", "MOON.CHOICE")
def test_the_words_of_a_switch_follow_the_references_value() -> None:
    # every value of spec/variants.toml has its words, and they say what the reference does
    # under it (the implementation does otherwise): who takes a void last trick's cards,
    # what a moon scores
    assert sorted(_values("last_trick_void")) == sorted(v.value for v in LastTrickVoid)
    said = {v: void_last_words(v) for v in LastTrickVoid}
    assert said[LastTrickVoid.NOBODY].endswith("which nobody collects")
    assert said[LastTrickVoid.NOBODY].startswith("scores ")
    for value in (LastTrickVoid.LEADER, LastTrickVoid.SPLIT_HIGHEST_PAIR,
                  LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR):
        assert said[value].startswith("does not "), value
        assert "nobody" not in said[value]
    assert "leader" in said[LastTrickVoid.LEADER]
    assert "points" in said[LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR]
    assert len(set(said.values())) == len(said)
    assert sorted(_values("moon")) == sorted(v.value for v in Moon)
    for moon, words in ((Moon.CHOICE_26, "the shooter's choice"), (Moon.OTHERS_52, "52 points"),
                         (Moon.OTHERS_104, "104 points")):
        shown = moon_score_words(moon, pair=False)
        assert words in shown, (moon, shown)
        if moon is not Moon.CHOICE_26:  # no shooter chooses anything under these values
            assert "choice" not in shown
    assert _values("moon_pair") == ["none", "others-26"]
    assert "26 points" in moon_score_words(Moon.CHOICE_26, pair=True)


@pytest.mark.rule("MOON.CONDITION")
def test_a_two_seat_moon_actually_shot_is_a_condition() -> None:
    from rules_ref.exercise import catalogue as exercise
    from rules_ref.exercise import detect as exercise_detect
    from rules_ref.ruleset import MoonPair

    from ..rules.helpers import SHARED_END, no_pass, scripted_deal

    script = scripted_deal(8, 0, tail=SHARED_END)
    pair = "MOON.CONDITION: " + exercise.PAIR_MOON
    for value, shot in ((MoonPair.OTHERS_26, True), (MoonPair.NONE, False)):
        state = GameState.start(8, no_pass(moon_pair=value), 7)
        seen: list[str] = []
        actions: list[Action] = [script.deal]
        for action in actions:
            after, events = state.apply(action)
            seen += exercise_detect.step_conditions(state, action, after, events)
            state = after
            if len(actions) <= len(script.plays) and state.to_act is not None:
                actions.append(Play(state.to_act, script.plays[len(actions) - 1]))
        assert (pair in seen) is shot
        assert ("SCORE.DEAL: " + exercise.NO_MOON in seen) is not shot
        assert f"MOON.CONDITION: under moon_pair = {value}" in seen
    # in the catalogue only where the run plays moon_pair = others-26
    plays = exercise.Scope((8,), {"moon_pair": [MoonPair.OTHERS_26]})
    assert pair in exercise.catalogue(plays)
    assert pair in exercise.impossible(exercise.Scope((8,), {"moon_pair": [MoonPair.NONE]}))


def test_the_exercise_list_separates_the_impossible_from_the_not_reached() -> None:
    from rules_ref.exercise import catalogue as exercise
    from rules_ref.ruleset import Ruleset

    # a ruleset where nobody passes, at 5 to 8 players under min_players = 6
    held = Ruleset.from_dict({"pass_cycle": ["hold"]})
    scope = exercise.Scope((5, 6, 7, 8), exercise.ruleset_values(held))
    reachable, impossible = exercise.catalogue(scope), exercise.impossible(scope)
    assert not set(reachable) & set(impossible)
    assert "PLAYERS.COUNT: a game of 5 players" in impossible
    assert "PLAYERS.COUNT: a game of 6 players" in reachable
    assert "PASS.CARDS: " + exercise.PASS_POINTS in impossible
    assert "VIEW.SEAT: " + exercise.VIEW_PASSING in impossible
    assert "VIEW.SEAT: " + exercise.VIEW_PLAYING in reachable
    # every switch is counted at the moment its rule decides, each value in the catalogue,
    # but for those that change no game where nobody passes: neither asked nor missed
    for name in held.to_dict():
        condition = exercise.value_condition(name, getattr(held, name))
        moot = name in ("pass_count", "pass_forbidden")
        assert (condition in reachable) is not moot, name
        assert condition not in impossible, name
