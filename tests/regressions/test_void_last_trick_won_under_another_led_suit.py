"""A void last trick the implementation's points show won is the led suit's rule.

Found by ``rules-ref conform`` against the three-fault adapter
(``tests/fakes/multi_fault_adapters.py pass-lead-suit``, seed 2): its
engine takes the first uncancelled card's suit as led once the led card is
cancelled. On a deal's last trick every card is forced, so the only thing
that shows is the deal's points: the reference sets the trick aside (8♥, 8♠,
J♠ and 7♥ each cancel their copy, the led suit has nothing live) and nobody
takes its 4 hearts, while the engine gives them to the seat of the one live
card, Q♣, as if clubs were led. The run reported a fourth class for it,
``VOID.LAST`` (or ``SCORE.CARD_POINTS`` in the shrunk example) beside
``TRICK.LED_SUIT``: one difference, two classes. The game is the shrunk replay
file conform wrote (``data/void-last-trick-won-under-another-led-suit.json``):
the position before the trick's last card, and that card.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.replay import read_replay
from rules_ref.protocol.start import position_state
from rules_ref.scoring import card_points
from rules_ref.state import GameState

REPLAY = Path(__file__).with_name("data") / "void-last-trick-won-under-another-led-suit.json"


def _game() -> tuple[dict[str, Any], GameState, GameState]:
    doc = json.loads(REPLAY.read_text(encoding="utf-8"))
    start, actions = read_replay(doc, str(REPLAY))
    before = position_state(start)
    assert (before.trick_number, len(before.trick), len(actions)) == (11, 8, 1)
    after, _ = before.apply(actions[0])
    return doc, before, after


@pytest.mark.rule("TRICK.LED_SUIT")
def test_a_void_last_trick_given_to_a_live_card_of_another_suit_is_the_led_suit() -> None:
    doc, before, after = _game()
    t = after.tricks[-1]
    live = [c for c in t.cards if c not in t.cancelled]
    assert t.winner is None and [str(c) for c in live] == ["QC"]
    assert after.ruleset.last_trick_void.value == "nobody"
    expected, actual = doc["expected"], doc["actual"]
    gained = [a - e for a, e in zip(actual["points"], expected["points"], strict=True)]
    # seat 8 played the Q♣ and took the trick's 4 hearts
    assert gained == [0] * 8 + [4] and card_points(t.cards, after.ruleset) == 4
    rules, fields, others = observation_rules(before, _action(doc), after, expected, actual)
    assert (rules, fields, others) == (
        ["TRICK.LED_SUIT", "VOID.TRICK"], ["points"], ["deal_scores", "totals"])


@pytest.mark.rule("TRICK.LED_SUIT", "VOID.LAST")
def test_the_pile_given_to_the_leader_is_still_void_last() -> None:
    # the Q♣'s seat collected nothing before (its cards moved to seat 0). A live card's seat
    # is no value of last_trick_void: the pile given to it is the led suit's rule; the
    # leader, whose led card is cancelled, is one of its values (VOID.LAST)
    doc, _, _ = _game()
    position = doc["start"]["position"]
    collected = [list(c) for c in position["collected"]]
    collected[0] += collected[8]
    collected[8] = []
    before = position_state({**doc["start"], "position": {**position, "collected": collected}})
    action = _action(doc)
    after, _ = before.apply(action)
    expected = {**doc["expected"], "points": list(after.current_points())}
    assert expected["points"][8] == 0 and after.tricks[-1].leader == 4

    def given(seat: int) -> dict[str, Any]:
        return {**doc["actual"], "points": [
            p + (4 if s == seat else 0) for s, p in enumerate(expected["points"])]}

    rules, fields, _ = observation_rules(before, action, after, expected, given(8))
    assert (rules, fields) == (["TRICK.LED_SUIT", "VOID.TRICK"], ["points"])
    rules, fields, _ = observation_rules(before, action, after, expected, given(4))
    assert (rules[0], fields) == ("VOID.LAST", ["points"])


def _action(doc: dict[str, Any]) -> Any:
    _, actions = read_replay(doc, str(REPLAY))
    return actions[0]
