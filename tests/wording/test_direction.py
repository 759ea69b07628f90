"""A pass direction in the same words wherever it is said.

``rules-ref validate`` names the direction a recorded game's passes went and the one the
rules give; a conform finding names the direction an implementation passed in and the
rules' one; the play log names the direction of each deal and of each pass. At every
player count (5 to 11) and every offset (1 to n − 1 seats to the left), each is driven
through its own code path (the command line, the judging of an observation and the
findings' words, the log of ``rules-ref play``), and all three must say it alike.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules_ref.actions import Pass
from rules_ref.cli import main
from rules_ref.deal import seeded_deal
from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.classes import Findings
from rules_ref.findings.failure import Failure
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.protocol.observation import observe
from rules_ref.protocol.start import dealt_start, start_state
from rules_ref.ruleset import Ruleset

COUNTS = range(5, 12)


def step(offset: int, players: int) -> str:
    """The ``pass_cycle`` step that passes ``offset`` seats to the left."""
    return {1: "left", players - 1: "right"}.get(offset, f"left-{offset}")


def other(offset: int, players: int) -> int:
    """Another offset than ``offset``: the next one round, so each offset is both."""
    return offset % (players - 1) + 1


def switches(offset: int, players: int) -> dict[str, Any]:
    return {"min_players": 5, "pass_cycle": [step(offset, players)], "target": 1}


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(args)
    return capsys.readouterr().out


def log_words(offset: int, players: int, tmp_path: Path,
              capsys: pytest.CaptureFixture[str]) -> str:
    """The direction the play log gives a deal passing ``offset`` seats to the left."""
    rules = tmp_path / f"log-{players}-{offset}.json"
    rules.write_text(json.dumps(switches(offset, players)), encoding="utf-8")
    out = _run(["play", "--players", str(players), "--ruleset", str(rules), "--ascii"], capsys)
    deal: list[str] = re.findall(r"each player passes 3 cards (.+) \(PASS\.DIRECTION\)", out)
    each = set(re.findall(r"seat \d+ passes 3 cards (.+), to seat \d+:", out))
    assert len(deal) >= 1 and each == {deal[0]}, out[:2000]
    return deal[0]


def validate_words(offset: int, went: int, players: int, tmp_path: Path,
                   capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """What ``rules-ref validate`` says of a record whose passes went ``went`` seats to the
    left where its rules pass ``offset``: (where they went, where the rules pass)."""
    rules = tmp_path / f"rec-{players}-{went}.json"
    rules.write_text(json.dumps(switches(went, players)), encoding="utf-8")
    record = json.loads(_run(["play", "--players", str(players), "--ruleset", str(rules),
                              "--json"], capsys))
    record["ruleset"]["pass_cycle"] = [step(offset, players)]
    path = tmp_path / f"validate-{players}-{offset}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    report = json.loads(_run(["validate", "--json", str(path)], capsys))
    (said,) = [v["message"] for v in report["violations"] if v["rule"] == "PASS.DIRECTION"]
    m = re.fullmatch(r"the cards played show that the passes of deal 1 went (.+), but deal 1 "
                     r"passes (.+)", said)
    assert m is not None, said
    return m.group(1), m.group(2)


def finding_words(offset: int, went: int, players: int) -> tuple[str, str]:
    """The words of the finding of an implementation that passes ``went`` seats to the left
    where the rules pass ``offset``: (where it passes, where the rules pass)."""
    dealt = seeded_deal(3, players, 1, 0, min_players=5)
    ruleset = Ruleset.from_dict(switches(offset, players))
    start = dealt_start(ruleset, dealt.hands, dealt.extras)
    ref = start_state(start)
    impl = start_state({**start, "ruleset": switches(went, players)})
    sent: list[dict[str, Any]] = []
    for seat in list(ref.waiting_for):
        action = Pass(seat, ref.hands[seat][:3])
        sent.append(action_to_json(action))
        (ref_after, _), (impl_after, _) = ref.apply(action), impl.apply(action)
        expected, actual = observe(ref_after), observe(impl_after)
        if expected != actual:
            rules, deciding, others = observation_rules(ref, action, ref_after, expected,
                                                        actual)
            differing = deciding + others
            failure = Failure("disagreement", rules, "differs", start, sent, sent[-1], {},
                              {f: expected[f] for f in differing},
                              {f: actual.get(f) for f in differing}, deciding, others)
            findings = Findings()
            findings.record(failure, 1, 0.0)
            (finding,) = findings.classes.values()
            words = finding.to_json()["facets"][0]["words"]
            m = re.fullmatch(r"passes (.+) where the rules pass (.+)", words)
            assert m is not None, words
            return m.group(1), m.group(2)
        ref, impl = ref_after, impl_after
    raise AssertionError("the passes never differ")


def _log_table(players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
               ) -> dict[int, str]:
    return {k: log_words(k, players, tmp_path, capsys) for k in range(1, players)}


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize("players", COUNTS)
def test_validate_the_findings_and_the_play_log_say_each_direction_alike(
        players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = _log_table(players, tmp_path, capsys)
    assert len(set(said.values())) == players - 1, said  # no two offsets said alike
    for offset in range(1, players):
        went = other(offset, players)
        expected = (said[went], said[offset])
        assert validate_words(offset, went, players, tmp_path, capsys) == expected
        assert finding_words(offset, went, players) == expected


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize(("players", "said"), [
    (8, ["to the left", "2 seats to the left", "3 seats to the left", "across",
         "3 seats to the right", "2 seats to the right", "to the right"]),
    (7, ["to the left", "2 seats to the left", "across (3 seats to the left)",
         "3 seats to the right", "2 seats to the right", "to the right"]),
    (5, ["to the left", "across (2 seats to the left)", "2 seats to the right",
         "to the right"]),
])
def test_a_direction_is_said_the_shorter_way_round_or_by_its_name(
        players: int, said: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert list(_log_table(players, tmp_path, capsys).values()) == said
