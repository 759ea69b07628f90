"""Extras given again with a later trick are the extras' rule, not the points' in general.

Found by the kit-power campaign: a reference engine whose extras went with
every trick but the first (``extras_join_trick`` inverted). Conform first
saw the first trick's winner without them (``EXTRAS.FIRST_TRICK``), started
the engine again from the reference's position, and then saw the winner of
trick 8 gain 3 points too many: exactly the extras' points, the extras'
cards given with that trick as well. Attribution named SCORE.CARD_POINTS,
since the extras are not part of trick 8. The game is the shrunk replay
file conform wrote (``data/extras-again-with-a-later-trick.json``): the
position before the trick's last card, and that card.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.replay import read_replay
from rules_ref.protocol.start import position_state
from rules_ref.scoring import card_points

REPLAY = Path(__file__).with_name("data") / "extras-again-with-a-later-trick.json"


@pytest.mark.rule("EXTRAS.FIRST_TRICK")
def test_the_extras_points_gained_on_a_later_trick_are_the_extras_rule() -> None:
    doc = json.loads(REPLAY.read_text(encoding="utf-8"))
    start, actions = read_replay(doc, str(REPLAY))
    before = position_state(start)
    assert (before.trick_number, len(before.trick), len(actions)) == (8, 10, 1)
    after, _ = before.apply(actions[0])
    winner = after.tricks[-1].winner
    expected, actual = doc["expected"], doc["actual"]
    gained = [a - e for a, e in zip(actual["points"], expected["points"], strict=True)]
    assert winner == 10 and gained == [0] * 10 + [3]
    assert card_points(before.extras, before.ruleset) == 3
    rules, fields, _ = observation_rules(before, actions[0], after, expected, actual)
    assert (rules, fields) == (["EXTRAS.FIRST_TRICK"], ["points"])
