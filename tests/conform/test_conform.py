"""``rules-ref conform``: the reference passes, every broken implementation is caught.

Each broken adapter of :mod:`tests.fakes.broken_adapters` breaks one
rule; the runner must find a disagreement, name that rule, and write a
replay file that reproduces the failure. The searches use a fixed seed and
a budget of games rather than of time (``--max-seconds`` is generous), so
what they find does not depend on the machine's speed; only how far a
failure is shrunk does (``--shrink-seconds``): a test that reads the example
shown leaves shrinking a budget its checks never reach.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.errors import RulesRefError
from rules_ref.players.game import game_steps, play_game
from rules_ref.positions.text import parse_position
from rules_ref.protocol.handshake import Supports, parse_supports
from rules_ref.protocol.observation import (
    changes_between,
    changes_problems,
    changes_problems_of_equal,
    observation_problems,
    observe,
    problems_of_equal,
)
from rules_ref.ruleset import Ruleset, preset
from rules_ref.state_parts import Phase
from tests.processes import gone, wait_gone

from ..fakes.broken_adapters import BROKEN, command

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
#: The search of every broken-adapter test: games, not seconds; each ends after the game of its
#: first divergence (--first). Shrinking within the default budget (half of --max-seconds),
#: which its checks never reach: the example shown is the same on every machine (shrinking
#: ends when no check is left). For a test that reads the example shown.
SHRUNK = ["--examples", "400", "--seed", "11", "--max-seconds", "600", "--first"]
#: The same search, shrinking for a quarter of a second: for a test that reads only the class.
SEARCH = [*SHRUNK, "--shrink-seconds", "0.25"]
#: For the runs that must play all their games: a time budget no machine reaches, and an
#: answer timeout far above the time an answer takes.
UNHURRIED = ["--max-seconds", "600", "--timeout", "60"]


def conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    """Run ``rules-ref conform --json ARGS`` in this process: (status, summary, stderr)."""
    code = main(["conform", "--json", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else {}, err


@pytest.mark.untraced
def test_reference_adapter_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary, _ = conform(capsys, "--examples", "20", "--seed", "3", *UNHURRIED, "--out",
                               str(tmp_path), "--", *REFERENCE)
    assert code == 0, summary
    assert summary["verdict"] == "pass"
    assert summary["adapter"] == "rules-ref reference adapter"
    assert summary["games"] >= 20
    assert summary["actions_compared"] > 20 * 6
    assert summary["illegal_offered"] > 0
    assert summary["rule_citations_differing"] == 0
    assert summary["adapter_restarts"] == 0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "FOLLOW.SUIT", "GAME.END", "GAME.WINNER",
                  "HEARTS.BROKEN", "LEAD.HEARTS", "LEAD.OPENING_CARD", "LEAD.OPENING_LEADER",
                  "MOON.CHOICE", "PASS.DIRECTION", "SCORE.CARD_POINTS", "TRICK.CANCEL",
                  "TRICK.LED_SUIT", "TRICK.NEXT_LEADER", "VOID.COLLECT", "VOID.LAST",
                  "VOID.LEADER", "VOID.TRICK")
@pytest.mark.untraced
@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_adapter_is_caught(name: str, capsys: pytest.CaptureFixture[str],
                                  tmp_path: Path, request: pytest.FixtureRequest) -> None:
    marked = request.node.get_closest_marker("rule")
    assert marked is not None and BROKEN[name] in marked.args, "mark the rule this one breaks"
    rule = BROKEN[name]
    code, summary, _ = conform(capsys, *SEARCH, "--out", str(tmp_path), "--", *command(name))
    assert code == 1, summary
    assert summary["verdict"] == "disagreement"
    assert summary["stopped"] == "first"
    assert summary["games"] < 400
    assert rule in summary["rules"], (name, summary["rules"], summary["failure"]["summary"])
    failure = summary["failure"]
    assert failure["kind"] == "disagreement"
    assert failure["fields"] or failure["failing"] is not None
    replay = Path(summary["replay"])
    assert replay.parent == tmp_path and replay.is_file()
    assert summary["reproduce"].startswith(f"rules-ref conform --replay {replay} -- ")
    document = json.loads(replay.read_text())
    assert document["rules"] == summary["rules"]
    assert document["actions"] == failure["actions"]
    # the replay file reproduces the failure, and the reference passes it
    code, again, _ = conform(capsys, "--replay", str(replay), "--", *command(name))
    assert code == 1
    assert again["rules"] == summary["rules"]
    assert again["failure"]["actions"] == failure["actions"]
    code, reference, _ = conform(capsys, "--replay", str(replay), "--", *REFERENCE)
    assert code == 0, reference
    assert reference["verdict"] == "pass"


@pytest.mark.rule("TRICK.CANCEL")
def test_text_report_names_the_rule_and_the_command(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    code = main(["conform", *SHRUNK, "--out", str(tmp_path), "--", *command("cancel-ignored")])
    out, _ = capsys.readouterr()
    assert code == 1
    # the class met: a cancelled pair won a trick; shrunk, a trick whose cards all cancel,
    # taken by a winner
    assert "      rules: TRICK.CANCEL, VOID.TRICK   (see: rules-ref rules TRICK.CANCEL)\n" in out
    assert "      last_trick:\n        reference:" in out
    assert "reproduce: rules-ref conform --replay " in out
    assert out.rstrip().endswith("verdict: DISAGREEMENT")
    assert ("  --first: the search ended after game 1, the first with an unexpected "
            "divergence; the rest of its budget was not played\n") in out
    # the moment before the failing action, as a position anyone can paste and start from
    # (the example is drawn under its class, whose lines name its replay file)
    text = next(line for line in out.splitlines() if line.startswith("      position text: "))
    written = next(line for line in out.splitlines() if line.startswith("    replay file: "))
    replay = json.loads(Path(written.removeprefix("    replay file: ")).read_text())
    assert text == f"      position text: {replay['position']['position_text']}"
    pos = parse_position(text.removeprefix("      position text: "))
    assert (pos.phase, pos.players) == (Phase.PLAYING, replay["position"]["players"])


@pytest.mark.untraced
@pytest.mark.rule("SCORE.CARD_POINTS")
def test_jobs_spread_the_search_and_merge_the_report(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    code, summary, _ = conform(capsys, "--examples", "12", "--seed", "5", "--jobs", "2",
                               *UNHURRIED, "--out", str(tmp_path), "--", *REFERENCE)
    assert code == 0, summary
    assert summary["jobs"] == 2
    assert summary["games"] >= 12
    code, summary, _ = conform(capsys, *SHRUNK, "--jobs", "2", "--out", str(tmp_path), "--",
                               *command("queen-ten"))
    assert code == 1
    assert Path(summary["replay"]).is_file()
    # --first in one job ends the other one too
    assert summary["stopped"] == "first"
    assert summary["games"] < 400
    # Each job meets the fault in its first game; --first reports the one met first in
    # time, which the machine decides. Both are the fault's own rule (the second job's, a
    # Q♠ pair collected by the deal's last trick, is no longer blamed on an earlier parcel
    # of the same points: tests/regressions/test_card_value_before_an_earlier_parcel.py),
    # so the report does not depend on which.
    assert summary["rules"] == ["SCORE.CARD_POINTS"]
    _, played_on, _ = conform(capsys, "--examples", "8", "--seed", "11", "--jobs", "2",
                              *UNHURRIED, "--out", str(tmp_path),
                              "--", *command("queen-ten"))
    assert [c["rules"] for c in played_on["classes"]] == [["SCORE.CARD_POINTS"]]


@pytest.mark.untraced
def test_without_first_the_search_plays_its_whole_budget(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    budget = [a for a in SEARCH if a != "--first"]
    budget[budget.index("--examples") + 1] = "6"
    code, summary, _ = conform(capsys, *budget, "--out", str(tmp_path), "--",
                               *command("cancel-ignored"))
    assert code == 1
    assert summary["stopped"] is None
    assert summary["games"] == 6


# --- adapter faults -------------------------------------------------------------------------


def _script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "adapter.py"
    path.write_text(textwrap.dedent(body))
    return [sys.executable, str(path)]


def test_garbage_is_an_adapter_fault_and_nothing_is_left_running(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The adapter and its child would sleep for an hour: if the run returns and they are
    # gone, the runner ended them (it did not wait for them), whatever the machine's speed.
    pids = tmp_path / "pids"
    adapter = _script(tmp_path, f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{child.pid}}")
        sys.stdin.readline()  # the hello: garbage written before it would be unsolicited
        print("garbage", flush=True)
        time.sleep(3600)
        """)
    code = main(["conform", "--examples", "5", "--", *adapter])
    out, err = capsys.readouterr()
    assert code == 2
    assert "adapter fault (not-json)" in err
    assert "garbage" in err
    assert "verdict" not in out
    adapter_pid, child_pid = map(int, pids.read_text().split())
    assert gone(adapter_pid)  # the runner waited for the adapter it killed
    assert wait_gone([child_pid]) == []  # its child got the signal too (reaped by init)


def test_silence_is_a_timeout(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    adapter = _script(tmp_path, """
        import sys, time
        sys.stdin.readline()
        time.sleep(60)
        """)
    code, summary, _ = conform(capsys, "--timeout", "0.5", "--", *adapter)
    assert code == 2
    assert summary["verdict"] == "fault"
    assert summary["fault"]["kind"] == "timeout"


def test_wrong_protocol_version_is_a_handshake_fault(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    adapter = _script(tmp_path, """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            print(json.dumps({"id": msg["id"], "type": "hello",
                              "protocol": "cancellation-hearts-adapter", "version": 3,
                              "name": "x", "supports": {"players": [8]}}), flush=True)
        """)
    code, summary, _ = conform(capsys, "--", *adapter)
    assert code == 2
    assert summary["fault"]["kind"] == "handshake"
    assert "version 3" in summary["fault"]["message"]


def test_a_crash_during_a_game_is_a_fault_with_a_replay(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    adapter = _script(tmp_path, """
        import sys
        from rules_ref.protocol.reference_adapter import ReferenceAdapter

        class Crashing(ReferenceAdapter):
            def act(self, msg):
                if msg["action"]["type"] == "play":
                    raise SystemExit("adapter: crashed on a play")
                return super().act(msg)

        sys.exit(Crashing().serve(sys.stdin, sys.stdout))
        """)
    code, summary, _ = conform(capsys, "--examples", "10", "--seed", "1", "--shrink-seconds",
                               "5", *UNHURRIED, "--out", str(tmp_path / "out"), "--", *adapter)
    assert code == 2
    assert summary["verdict"] == "fault"
    failure = summary["failure"]
    assert failure["kind"] == "fault"
    assert failure["fault"]["kind"] == "exit"
    assert "crashed on a play" in failure["fault"]["stderr"]
    assert failure["failing"]["type"] == "play"
    assert Path(summary["replay"]).is_file()


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["conform", "--examples", "1"]) == 2
    assert "no adapter command" in capsys.readouterr().err
    adapter = _script(tmp_path, """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "bye":
                print(json.dumps({"id": msg["id"], "type": "bye"}), flush=True)
                break
            print(json.dumps({"id": msg["id"], "type": "hello",
                              "protocol": "cancellation-hearts-adapter", "version": 1,
                              "name": "eight only", "supports": {"players": [8]}}), flush=True)
        """)
    assert main(["conform", "--players", "6", "--", *adapter]) == 2
    assert "does not support 6 players" in capsys.readouterr().err
    assert main(["conform", "--preset", "hubpages", "--", *adapter]) == 2
    err = capsys.readouterr().err
    assert "does not support the ruleset" in err and "pass_cycle=right" in err


# --- pieces ---------------------------------------------------------------------------------


def test_observation_shape_checks() -> None:
    obs = observe(play_game(players=6, seed=4))
    assert observation_problems(obs) == []
    assert observation_problems({**obs, "extra": 1}) == ["unknown field(s) extra"]
    bad = {**obs, "hearts_broken": 1, "trick": ["1H"]}
    del bad["winners"]
    assert observation_problems(bad) == [
        "missing field(s) winners",
        'trick must be a list of cards in canonical notation, got ["1H"]',
        "hearts_broken must be true or false, got 1"]


def _kind_swaps(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any, Any]]:
    """Every place of an integer or a boolean in ``value``, with a value well formed there and
    one equal to it (==) of the other kind: 1 and true for an integer, true and 1 for true."""
    if type(value) is bool:
        return [(path, value, int(value))]
    if type(value) is int:
        return [(path, 1, True)]
    items = value.items() if type(value) is dict else enumerate(value) \
        if type(value) is list else ()
    return [swap for key, item in items for swap in _kind_swaps(item, (*path, key))]


def _with(obs: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(obs))
    place: Any = out
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return out


#: Every field of an observation holding an integer or true or false.
_KINDED_FIELDS = {"deal_number", "dealer", "to_act", "waiting_for", "trick_number", "leader",
                  "hearts_broken", "last_trick", "points", "deal_scores", "totals", "winners"}


def _swaps_found(answers: list[dict[str, Any]], problems: Callable[[dict[str, Any]], list[str]],
                 of_equal: Callable[[dict[str, Any]], list[str]]) -> set[str]:
    """Check ``of_equal`` against ``problems`` on ``answers`` and on each with one integer or
    true/false swapped for an equal value of the other kind; the fields swapped."""
    fields: set[str] = set()
    for answer in answers:
        answer = json.loads(json.dumps(answer))
        assert of_equal(answer) == problems(answer) == []
        for path, good, swapped in _kind_swaps(answer):
            well_formed, bad = _with(answer, path, good), _with(answer, path, swapped)
            assert bad == well_formed and problems(well_formed) == []
            assert problems(bad) != []
            assert of_equal(bad) == problems(bad)
            fields.add(path[0])
    return fields


def test_an_observation_equal_to_the_reference_is_checked_where_it_can_differ() -> None:
    # problems_of_equal looks only at the integers and true/false of an observation that
    # equals a well-formed one; here every such place of a game's observations holds a
    # value of the other kind, equal to a well-formed one, and its words are
    # observation_problems's.
    states = [state for _, _, state, _ in game_steps(players=6, seed=4)]
    observations = [observe(s) for s in states[::9] + states[-1:]]  # the last: game over
    assert _swaps_found(observations, observation_problems, problems_of_equal) \
        == _KINDED_FIELDS


def test_changes_equal_to_the_reference_are_checked_where_they_can_differ() -> None:
    # the same of changes_problems_of_equal, for a changes answer equal to the reference's
    steps = list(game_steps(players=6, seed=4))
    changes = [changes_between(observe(before), observe(after))
               for before, _, after, _ in steps[::5] + steps[-1:]]
    assert _swaps_found(changes, changes_problems, changes_problems_of_equal) \
        == _KINDED_FIELDS


def test_supports_are_checked() -> None:
    hello = {"name": "x", "supports": {"players": [6, 8], "switches": {
        "target": "any", "pass_cycle": [["hold"], ["left", "right"]]}}}
    supports = parse_supports(hello)
    assert supports == Supports("x", (6, 8), {"target": "any",
                                              "pass_cycle": [["hold"], ["left", "right"]]})
    assert supports.allows(preset("bicycle")) == []
    assert supports.allows(Ruleset(target=7)) == []
    assert supports.allows(preset("hubpages")) == [
        "pass_cycle=right", "opening_lead=left-of-dealer-no-scoring",
        "ten_of_diamonds_points=-10"]
    wrong: dict[str, Any]
    for wrong in ({"players": [4]}, {"players": []}, {"players": [8], "switches": {"x": "any"}},
                  {"players": [8], "switches": {"target": [0]}},
                  {"players": [8], "switches": {"moon": []}}):
        with pytest.raises(RulesRefError, match="handshake"):
            parse_supports({"name": "x", "supports": wrong})


@pytest.mark.rule("FOLLOW.SUIT", "LEAD.OPENING_CARD", "TRICK.LED_SUIT")
def test_rejections_fall_under_the_cited_or_the_governing_rule() -> None:
    from rules_ref.actions import Play
    from rules_ref.cards import parse_card
    from rules_ref.causes import play_situation_rule
    from rules_ref.errors import IllegalAction
    from rules_ref.findings.attribution import accepted_illegal_rules, rejected_legal_rules
    from rules_ref.state import GameState

    from ..rules.helpers import fill_deal, no_pass

    # seat 1 opens; seat 2 holds the twin of its 5C, seat 3 a club
    deal = fill_deal(6, {1: "5C 2H 3H", 2: "5C 9C 4D", 3: "KC 2D 3D"})
    state, _ = GameState.start(6, no_pass()).apply(deal)
    opening = Play(1, parse_card("5C"))
    assert rejected_legal_rules(state, opening, None) == ["LEAD.OPENING_CARD"]
    # the implementation's citation is evidence, not the verdict
    assert rejected_legal_rules(state, opening, "TRICK.CANCEL") == ["LEAD.OPENING_CARD"]
    assert rejected_legal_rules(state, opening, "NOT.A_RULE") == ["LEAD.OPENING_CARD"]
    with pytest.raises(IllegalAction) as caught:
        state.apply(Play(1, parse_card("2H")))
    assert accepted_illegal_rules(caught.value.violations) == ["LEAD.OPENING_CARD"]
    state, _ = state.apply(opening)
    assert play_situation_rule(state, parse_card("9C")) == ["FOLLOW.SUIT"]
    state, _ = state.apply(Play(2, parse_card("5C")))  # the led card is cancelled
    assert play_situation_rule(state, parse_card("KC")) == ["TRICK.LED_SUIT", "FOLLOW.SUIT"]


def test_attribution_examines_every_observation_field() -> None:
    from rules_ref.findings.attribution import CAUSAL_ORDER, END_ORDER
    from rules_ref.protocol.observation import FIELDS

    for order in (CAUSAL_ORDER, END_ORDER):
        examined = [name for group in order for name in group]
        assert sorted(examined) == sorted(FIELDS)
