"""``rules-ref conform`` plays on after a divergence and reports every class it saw.

An implementation with three rules broken at once (one of them in passing,
:mod:`tests.fakes.multi_fault_adapters`) gets one run that reports
each broken rule as its own class, with a count, the game and time it was
first seen, and a minimal example in its own replay file that shows that
class again when replayed (and passes against the reference). The run is
bounded by games, not by time, so what it finds does not depend on the
machine's speed; every class gets its first shrinking check whatever
``--shrink-seconds`` allows.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.findings.classes import Findings, class_of
from rules_ref.findings.failure import Failure
from rules_ref.ruleset import Ruleset

from ..fakes.multi_fault_adapters import command, rules_of

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
NAME = "pass-lead-suit"
#: A run bounded by games: a time budget no machine reaches. This seed meets each of the
#: three faults within its first 3 games; 10 leave room to spare.
GAMES = ["--examples", "10", "--seed", "7", "--max-seconds", "600", "--timeout", "60"]


def conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--json", *args])
    out, _ = capsys.readouterr()
    return code, json.loads(out) if out.strip() else {}


@pytest.fixture(scope="module")
def multi_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], Path]:
    """One run against the three-fault adapter (shared by the tests of this file)."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("multi")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(["conform", "--json", *GAMES, "--out", str(out), "--", *command(NAME)])
    return code, json.loads(buffer.getvalue()), out


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_one_run_reports_every_broken_rule_as_a_class(
        multi_run: tuple[int, dict[str, Any], Path]) -> None:
    code, summary, out = multi_run
    assert code == 1
    assert summary["verdict"] == "disagreement"
    classes = summary["classes"]
    # each broken rule's differences in the game are one class, and nothing else: a game that
    # diverged is not started again from a position, which the led-suit engine, reading a
    # set-aside trick as won, would reject (that divergence again)
    assert sorted(c["key"] for c in classes) == [
        "LEAD.OPENING_LEADER: differs on who makes the opening lead",
        "PASS.DIRECTION: differs on passing direction by deal",
        "TRICK.LED_SUIT: differs on the led suit"]
    assert {c["rule"] for c in classes} == set(rules_of(NAME))
    for cls in classes:
        assert cls["kind"] == "disagreement"
        assert cls["expected"] is False and cls["expectation"] is None
        assert cls["count"] >= cls["games"] >= 1
        assert cls["first_seen"]["seconds"] >= 0
        assert cls["key"] == f"{cls['rule']}: {cls['what']}"
        assert cls["example"]["rules"][0] == cls["rule"]
        assert cls["facets"] and sum(f["count"] for f in cls["facets"]) == cls["count"]
        # minimal: the start alone, or the position before the divergent action and that action
        assert len(cls["example"]["actions"]) <= 1, cls["example"]["actions"]
        assert Path(cls["replay"]).parent == out
    assert summary["divergences"] == sum(c["count"] for c in classes)
    # game 0: first seen at a table offered before the games (the edge of the opening lead)
    assert {c["key"].split(":")[0]: c["first_seen"]["game"] for c in classes} == {
        "LEAD.OPENING_LEADER": 0, "PASS.DIRECTION": 2, "TRICK.LED_SUIT": 2}
    switches = {c["rule"]: c["switch"] for c in classes}
    # a switch only where one of its values gives the answer: passing to the left is a value
    # of pass_cycle, the dealer leading is no value of opening_lead
    assert switches["PASS.DIRECTION"] == "pass_cycle"
    assert switches["LEAD.OPENING_LEADER"] is None
    # the plainest game: the default ruleset where the difference shows under it
    (led,) = [c for c in classes if c["key"] == "TRICK.LED_SUIT: differs on the led suit"]
    assert led["example"]["start"]["ruleset"] == Ruleset().to_dict()
    assert summary["games"] == 10
    assert summary["expected_not_seen"] == []
    # the first unexpected class is the one-failure report of older summaries
    assert summary["failure"] == classes[0]["example"]
    assert summary["replay"] == classes[0]["replay"]


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT", "VOID.LAST")
def test_a_void_last_trick_won_under_another_led_suit_is_the_led_suit_class(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # seed 2 meets, within 20 games, a last trick whose led suit is all cancelled (its two
    # 3♣, no other club): the engine gives its points by another led suit, which shows only
    # in the deal's points. That is the led-suit fault again, in its class, not a fourth
    # class of VOID.LAST's
    games = ["--examples", "20", "--seed", "2", "--max-seconds", "600", "--timeout", "60"]
    code, summary = conform(capsys, *games, "--out", str(tmp_path), "--", *command(NAME))
    assert (code, summary["verdict"]) == (1, "disagreement")
    classes = summary["classes"]
    assert sorted(c["key"] for c in classes) == [
        "LEAD.OPENING_LEADER: differs on who makes the opening lead",
        "PASS.DIRECTION: differs on passing direction by deal",
        "TRICK.LED_SUIT: differs on the led suit"]
    assert sorted(c["rule"] for c in classes) == sorted(rules_of(NAME))
    (led,) = [c for c in classes if c["rule"] == "TRICK.LED_SUIT"]
    said = "gives a trick's points by another led suit"
    points = [f for f in led["facets"] if f["words"] == said]
    assert [(f["count"], f["cards"], f["example"]["rules"]) for f in points] == [
        (1, ["3C"], ["TRICK.LED_SUIT", "VOID.TRICK"])]


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_each_class_replay_file_shows_that_class_again(
        multi_run: tuple[int, dict[str, Any], Path], capsys: pytest.CaptureFixture[str]) -> None:
    _, summary, _ = multi_run
    for cls in summary["classes"]:
        code, again = conform(capsys, "--replay", cls["replay"], "--", *command(NAME))
        assert code == 1, again
        assert again["rules"][0] == cls["rule"]
        assert again["failure"]["actions"] == cls["example"]["actions"]
        code, reference = conform(capsys, "--replay", cls["replay"], "--", *REFERENCE)
        assert (code, reference["verdict"]) == (0, "pass"), reference


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION")
def test_the_text_report_lists_the_classes(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    code = main(["conform", *GAMES, "--out", str(tmp_path), "--", *command(NAME)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("conform: DISAGREEMENT: 3 classes of difference (3 unexpected, 0 "
                          "expected)\n")
    assert "] PASS.DIRECTION: differs on passing direction by deal\n" in out
    assert re.search(r"\n    decided by the switch pass_cycle \(here [a-z0-9,-]+\): "
                     r"rules-ref rules PASS.DIRECTION\n", out), out
    # the facet in a player's words
    assert "    passes to the left where the rules pass " in out
    assert "divergences played past: the implementation was restarted from" in out
    assert out.rstrip().endswith("verdict: DISAGREEMENT")
    assert len(list(tmp_path.glob("replay-7-*.json"))) == 3


@pytest.mark.untraced
def test_the_reference_passes_a_run_bounded_by_time(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    # a budget of time, as by default (--max-seconds 8): how many games it plays depends on
    # the machine, so only the verdict is asserted; 5 s lets a busy machine finish a game
    code, summary = conform(capsys, "--seed", "5", "--max-seconds", "5", "--out", str(tmp_path),
                            "--", *REFERENCE)
    assert (code, summary["verdict"]) == (0, "pass"), summary
    assert summary["classes"] == [] and summary["divergences"] == 0
    assert summary["games"] >= 1 and summary["examples"] is None
    assert list(tmp_path.iterdir()) == []


def _failure(**changes: Any) -> Failure:
    base: dict[str, Any] = {"kind": "disagreement", "rules": ["PASS.CARDS"], "summary": "s",
                            "start": {}, "actions": [], "failing": {"type": "pass", "seat": 1,
                                                                    "cards": ["2C", "3C", "4C"]},
                            "position": {}, "expected": {"type": "observation"},
                            "actual": {"type": "rejected"}}
    return Failure(**{**base, **changes})


def test_a_class_names_the_rule_and_the_kind_of_difference() -> None:
    assert class_of(_failure()) == ("PASS.CARDS", "rejects a legal pass")
    assert class_of(_failure(expected={"type": "rejected"}, actual={"type": "observation"},
                             failing={"type": "play", "seat": 0, "card": "QS"})) == (
        "PASS.CARDS", "accepts an illegal play")
    assert class_of(_failure(expected={"points": [1]}, actual={"points": [2]},
                             fields=["points"])) == ("PASS.CARDS", "differs on what is passed")
    assert class_of(_failure(kind="error", rules=[], expected={}, actual={})) == (
        None, "reports an internal error on a pass")
    assert class_of(_failure(kind="fault", rules=[], fault={"kind": "exit"})) == (
        None, "adapter fault (exit) on a pass")
    assert class_of(_failure(failing=None)) == (
        "PASS.CARDS", "rejects the start of a game the rules allow")


def test_classes_count_occurrences_and_games_and_merge_between_jobs() -> None:
    one, two = Findings(), Findings()
    one.record(_failure(), game=3, seconds=0.5)
    one.record(_failure(actions=[{"type": "pass"}] * 4), game=3, seconds=0.7)
    one.record(_failure(), game=5, seconds=0.9)
    two.record(_failure(), game=1, seconds=0.2, job=1)
    two.record(_failure(rules=["PASS.DIRECTION"], fields=["hands"], expected={}, actual={}),
               game=2, seconds=0.3, job=1)
    (cls,) = one.classes.values()
    assert (cls.count, len(cls.games), cls.first_game, cls.first_seconds) == (3, 2, 3, 0.5)
    assert cls.smallest is not None and cls.smallest.size == (1, 0)
    merged = Findings()
    merged.merge_json(one.to_json(), 0)
    merged.merge_json(two.to_json(), 1)
    counts = {c.key: (c.count, len(c.games), c.first_game) for c in merged.ordered()}
    assert counts == {"PASS.CARDS: rejects a legal pass": (4, 3, 1),
                      "PASS.DIRECTION: differs on passing direction by deal": (1, 1, 2)}


def test_jobs_merge_their_classes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 20 games, 10 a job: with this seed they meet all three faults, as 60 did
    code, summary = conform(capsys, *GAMES, "--examples", "20", "--jobs", "2", "--out",
                            str(tmp_path), "--", *command(NAME))
    assert code == 1
    assert summary["jobs"] == 2 and summary["games"] == 20
    rules = [c["rule"] for c in summary["classes"]]
    assert len(rules) >= 2 and set(rules) <= set(rules_of(NAME)), rules
    assert summary["divergences"] == sum(c["count"] for c in summary["classes"])
    assert all(Path(c["replay"]).is_file() for c in summary["classes"])


@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_without_positions_a_divergent_game_goes_on_at_the_next_deal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary = conform(capsys, *GAMES, "--protocol", "1", "--out", str(tmp_path), "--",
                            *command(NAME))
    assert code == 1
    assert summary["resyncs"] == 0
    assert summary["games"] == 10
    # no game ends at a divergence: the reference follows the implementation into the first
    # trick, or plays on alone and sends it the next deal as a start
    assert summary["games_cut_short"] == 0 and summary["divergences"] >= 1
    assert {c["rule"] for c in summary["classes"]} <= set(rules_of(NAME))
    for cls in summary["classes"]:
        assert cls["shrunk"] in ("start", "deal", "actions", "no smaller game shows it")
        assert "position" not in cls["example"]["start"]
        code, again = conform(capsys, "--replay", cls["replay"], "--protocol", "1", "--",
                              *command(NAME))
        assert (code, again["rules"][0]) == (1, cls["rule"])


@pytest.mark.rule("TRICK.CANCEL")
def test_without_positions_a_rejected_legal_play_is_stepped_back(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from ..fakes.broken_adapters import command as broken

    code, summary = conform(capsys, *GAMES, "--examples", "20", "--seed", "3", "--protocol", "1",
                            "--out", str(tmp_path), "--", *broken("twin-refused"))
    assert code == 1
    cls, *others = summary["classes"]
    assert cls["key"] == "TRICK.CANCEL: rejects a legal play"  # a twin refused
    assert [f["words"] for f in cls["facets"]] == [
        "rejects a card identical to one already in the trick"]
    # a point card's twin refused on trick 1 is blamed on the first trick's rule, which
    # decides that card there
    assert [(c["key"], [f["words"] for f in c["facets"]]) for c in others] in ([], *([(
        "FOLLOW.FIRST_TRICK: rejects a legal play",
        [f"rejects {card} on the first trick while following suit"])] for card in (
            "Q♠", "a heart")))
    # play went on after a rejection: more rejections than games
    assert cls["count"] > cls["games"]
    assert summary["games"] == 20
    assert cls["example"]["failing"]["type"] == "play"


@pytest.mark.rule("MOON.CHOICE")
def test_without_positions_the_reference_follows_the_scores_into_the_next_deal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from ..fakes.broken_adapters import command as broken

    # seed 4 meets a moon chosen with the game going on four times in 12 games
    code, summary = conform(capsys, *GAMES, "--examples", "12", "--seed", "4", "--protocol", "1",
                            "--shrink-seconds", "1", "--out", str(tmp_path), "--",
                            *broken("moon-swapped"))
    assert code == 1
    assert [c["rule"] for c in summary["classes"]] == ["MOON.CHOICE"]
    # some moons were chosen between deals with the game going on: play went on from there
    assert summary["scores_followed"] >= 1
    # each divergence was followed, ended its game early, or came as the game ended
    assert summary["divergences"] >= summary["scores_followed"] + summary["games_cut_short"]
