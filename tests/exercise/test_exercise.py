"""The per-rule exercise summary: every rule has conditions, a run exercises every one.

The catalogue of conditions (rules_ref/exercise/catalogue.py) must name
every rule of spec/rules.toml; what a run can reach depends on what the
adapter supports; a run against the reference adapter exercises every
condition and every value of every switch it declares. The runs use a
budget of games, not of time, so what they reach does not depend on the
machine's speed.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from rules_ref import registry
from rules_ref.actions import Play
from rules_ref.cli import main
from rules_ref.conform.aims import aim_for, focus_weights
from rules_ref.conform.choosers import RulesetDrawer
from rules_ref.exercise import catalogue as ex
from rules_ref.exercise.detect import step_conditions
from rules_ref.protocol.handshake import Supports
from rules_ref.registry import rule_ids
from rules_ref.ruleset import Moon, PassDirection, Ruleset
from rules_ref.state import GameState
from rules_ref.strategies.crafted import mirror_deal

from ..conform.test_conform import REFERENCE, UNHURRIED

#: The rules whose conditions the catalogue adds per player count or direction.
PER_SCOPE = {"PLAYERS.COUNT", "DEAL.SIZE", "PASS.DIRECTION"}
#: What the reference adapter declares: 5 to 11 players (with min_players), every switch any value.
EVERY = Supports("reference", tuple(range(5, 12)), dict.fromkeys(Ruleset().to_dict(), "any"))


def test_every_rule_of_the_spec_has_a_condition() -> None:
    static = {c.rule for c in ex.CONDITIONS}
    assert static | PER_SCOPE == set(rule_ids())
    keys = [c.key for c in ex.CONDITIONS]
    assert len(keys) == len(set(keys))
    reachable = RulesetDrawer(EVERY).catalogue(EVERY.players, None)
    assert {k.split(": ", 1)[0] for k in reachable} == set(rule_ids())


def test_every_value_of_every_enum_switch_is_required_when_declared_any() -> None:
    drawer = RulesetDrawer(EVERY)
    default = Ruleset()
    for name in default.to_dict():
        base = getattr(default, name)
        if isinstance(base, Enum):
            assert drawer.required[name] == list(type(base)), name
    reachable = drawer.catalogue(EVERY.players, None)
    assert "MOON.CHOICE: under moon = others-104" in reachable
    assert "PASS.CARDS: under pass_count = 2" in reachable
    assert "GAME.END: under target = 100" in reachable
    assert "PASS.DIRECTION: a deal whose direction is across" in reachable


def test_the_catalogue_follows_what_the_adapter_supports() -> None:
    narrow = Supports("narrow", (8,), {"moon": ["others-52"], "opening_lead": ["two-of-clubs"]})
    keys = RulesetDrawer(narrow).catalogue((8,), None)
    assert "PLAYERS.COUNT: a game of 8 players" in keys
    assert "PLAYERS.COUNT: a game of 6 players" not in keys
    assert "MOON.CHOICE: under moon = others-52" in keys
    assert "MOON.CHOICE: under moon = choice-26" not in keys
    assert "MOON.CHOICE: the shooter chooses add" not in keys
    # 8 players deal no extras, so neither the extras' rules nor a 2C among them apply
    assert [k for k in keys if k.startswith("EXTRAS.")] == [
        "EXTRAS.FIRST_TRICK: a deal with no extras: trick 1 has none to carry"]
    assert "LEAD.OPENING_LEADER: no hand holds a 2♣: the seat left of the dealer leads" \
        not in keys
    assert "LEAD.OPENING_CARD: the opening leader leads a 2♣" in keys
    assert "LEAD.OPENING_CARD: an opening leader holding only hearts and Q♠ leads one of them" \
        not in keys
    fixed = RulesetDrawer(EVERY).catalogue((7,), Ruleset(moon=Moon.OTHERS_104))
    assert "MOON.CHOICE: under moon = others-104" in fixed
    assert "MOON.CHOICE: under moon = choice-26" not in fixed


def play_twins(state: GameState, plays: int | None = None) -> Counter[str]:
    """The conditions the steps went through when each seat plays a copy of a card already
    in the trick where it may (else its first legal card): ``plays`` plays, or to the end of
    the deal's play."""
    seen: Counter[str] = Counter()
    while state.phase.value == "playing" and (plays is None or plays > 0):
        seat = state.to_act
        assert seat is not None
        legal = state.legal_plays()
        play = Play(seat, next((c for c in legal if c in state.trick), legal[0]))
        after, events = state.apply(play)
        seen.update(step_conditions(state, play, after, events))
        state = after
        plays = None if plays is None else plays - 1
    return seen


@pytest.mark.rule("TRICK.CANCEL", "TRICK.LED_SUIT", "FOLLOW.SUIT", "VOID.TRICK")
def test_a_trick_is_read_for_its_conditions() -> None:
    rs = Ruleset(pass_cycle=(PassDirection.HOLD,))
    state = GameState.start(6, rs, 0, (0,) * 6, 1).apply(mirror_deal(random.Random(2), 6))[0]
    leader = state.to_act
    assert leader == 1
    seen = play_twins(state, 6)
    assert seen["FOLLOW.SUIT: a seat plays a card identical to one already in the trick"] >= 1
    assert seen["LEAD.OPENING_LEADER: the seat left of the dealer makes the opening lead"] == 1
    assert seen["TRICK.LED_SUIT: the led card is cancelled and another card of its suit wins"] \
        + seen["VOID.TRICK: a trick whose led-suit cards all cancel is void"] == 1
    assert seen["VIEW.SEAT: a seat's view while playing"] == 6


def test_the_summary_lists_every_rule_and_what_was_never_exercised() -> None:
    reachable = ("PASS.CARDS: a pass holds a heart or a Q♠", "GAME.END: under target = 100")
    table, never = ex.summary(Counter({"PASS.CARDS: a pass holds a heart or a Q♠": 3}),
                              reachable)
    assert sorted(table) == sorted(rule_ids())
    assert table["PASS.CARDS"] == {"a pass holds a heart or a Q♠": 3}
    assert table["GAME.END"] == {"under target = 100": 0}
    assert never[0] == "GAME.END: under target = 100"
    assert set(never[1:]) == set(rule_ids()) - {"PASS.CARDS", "GAME.END"}


def test_the_scheduler_favours_what_was_not_exercised() -> None:
    keys = ("A.B: one", "A.B: two", "C.D: three")
    weights = focus_weights(keys, Counter({"A.B: one": 4, "C.D: three": 1}))
    assert weights == {1: pytest.approx(0.9)}
    spread = focus_weights(keys, Counter(dict.fromkeys(keys, 1)))
    assert spread == {0: pytest.approx(0.2), 1: pytest.approx(0.2), 2: pytest.approx(0.2)}
    assert aim_for("VOID.LAST: under last_trick_void = leader").deal == "mirror"
    assert aim_for("PLAYERS.COUNT: a game of 9 players").players is not None


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str
         ) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--json", *args, *UNHURRIED, "--out", str(tmp_path), "--",
                 *REFERENCE])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


@pytest.mark.untraced
def test_a_run_of_100_games_exercises_every_rule_and_switch_value(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # seed 2; the text summary's test below runs seed 1 and checks it exercises everything too
    code, summary = _run(capsys, tmp_path, "--examples", "100", "--seed", "2")
    assert code == 0, summary.get("failure")
    assert summary["never_exercised"] == []
    assert sorted(summary["exercise"]) == sorted(rule_ids())
    assert all(summary["exercise"][rule] for rule in rule_ids())
    required = RulesetDrawer(EVERY).catalogue(EVERY.players, None)
    for key in required:
        rule, words = key.split(": ", 1)
        assert summary["exercise"][rule][words] > 0, key


@pytest.mark.untraced
def test_a_fixed_ruleset_is_exercised_in_full(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    code, summary = _run(capsys, tmp_path, "--examples", "60", "--seed", "4", "--preset",
                         "hubpages", "--players", "10")
    assert code == 0, summary.get("failure")
    assert summary["never_exercised"] == []
    players = summary["exercise"]["PLAYERS.COUNT"]
    assert set(players) == {"a game of 10 players", "under min_players = 6"}
    assert players["a game of 10 players"] == summary["games"]


@pytest.mark.untraced
def test_the_text_summary_says_how_much_was_exercised(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    code = main(["conform", "--verbose", "--examples", "100", "--seed", "1", *UNHURRIED, "--out",
                 str(tmp_path), "--", *REFERENCE])
    out, _ = capsys.readouterr()
    assert code == 0
    total = len(RulesetDrawer(EVERY).catalogue(EVERY.players, None))
    rules = len([r for r in registry.load().rules if r.status != "withdrawn"])
    assert re.search(rf"rules exercised: {rules} of {rules} in full; conditions exercised: "
                     rf"{total} of "
                     rf"{total} in \d+\.\d s", out), out
    assert "not reached" not in out
    assert "illegal actions offered, by kind: a card the seat holds but may not play" in out


NARROW = """
import json, sys
from rules_ref.protocol.reference_adapter import ReferenceAdapter


class Narrow(ReferenceAdapter):
    def hello(self, request=None):
        answer = super().hello(request)
        answer["supports"] = json.loads(sys.argv[1])
        return answer


sys.exit(Narrow().serve(sys.stdin, sys.stdout))
"""


@pytest.mark.untraced
def test_a_narrow_adapter_is_exercised_in_all_it_supports(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    script = tmp_path / "narrow.py"
    script.write_text(NARROW)
    supports = {"players": [8], "switches": {"moon": ["others-52"],
                                             "opening_lead": ["two-of-clubs"]}}
    # a moon of one seat under others-52 takes this seed 100 to 300 games
    code = main(["conform", "--json", "--examples", "300", "--seed", "3", *UNHURRIED, "--out",
                 str(tmp_path / "out"), "--", sys.executable, str(script), json.dumps(supports)])
    out, _ = capsys.readouterr()
    summary = json.loads(out)
    assert code == 0, summary.get("failure")
    assert summary["never_exercised"] == []
    moon = summary["exercise"]["MOON.CHOICE"]
    assert list(moon) == ["under moon = others-52"] and moon["under moon = others-52"] > 0
    extras = summary["exercise"]["EXTRAS.FIRST_TRICK"]
    assert list(extras) == ["a deal with no extras: trick 1 has none to carry"]
    assert extras["a deal with no extras: trick 1 has none to carry"] > 0
    assert "LEAD.OPENING_CARD: the opening leader leads a 2♣" not in summary["never_exercised"]
    assert summary["exercise"]["LEAD.OPENING_CARD"]["the opening leader leads a 2♣"] > 0


def test_where_nobody_passes_the_passing_switches_have_no_condition() -> None:
    never_passes = Supports("hold", (8,), {"pass_cycle": [["hold"]], "pass_count": [2, 3],
                                           "pass_forbidden": "any"})
    reach = RulesetDrawer(never_passes).catalogue((8,), None)
    assert [k for k in reach if "under pass_count" in k or "under pass_forbidden" in k] == []
    passes = Supports("left", (8,), {"pass_cycle": [["hold"], ["left"]], "pass_count": [2, 3]})
    assert [k for k in RulesetDrawer(passes).catalogue((8,), None) if "under pass_count" in k] \
        == ["PASS.CARDS: under pass_count = 2", "PASS.CARDS: under pass_count = 3"]
