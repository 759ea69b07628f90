"""A last trick given to another seat is the cause, though the reference's deal is scored.

Found by ``conform`` against an engine with three faults at once
(``broken_adapters_more.py end-pending-lost+ace-low+totals-rotated``): at the
last card of a deal the engine ranked A♥ below Q♥, gave the trick to the Q♥
and with it every heart and both Q♠, and waited for a moon choice. The
reference's observation, the deal scored, no longer shows a last trick, so
the comparison went on to the points and named SCORE.CARD_POINTS. The trick
is now compared with the reference's own: the same cards with another
winner are DECK.RANKING's. The game is the shrunk replay file conform wrote
(``data/ace-low-last-trick-before-a-moon-choice.json``): a position and the
deal's last card.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.replay import read_replay
from rules_ref.protocol.start import position_state
from rules_ref.state_parts import Phase

REPLAY = Path(__file__).with_name("data") / "ace-low-last-trick-before-a-moon-choice.json"


@pytest.mark.rule("DECK.RANKING", "TRICK.WINNER")
def test_the_last_trick_to_another_seat_before_a_moon_choice_is_the_ranking() -> None:
    doc = json.loads(REPLAY.read_text(encoding="utf-8"))
    start, actions = read_replay(doc, str(REPLAY))
    before = position_state(start)
    assert len(actions) == 1 and len(before.trick) == before.players - 1
    after, _ = before.apply(actions[0])
    expected, actual = doc["expected"], doc["actual"]
    assert (after.phase, expected["phase"], actual["phase"]) == (
        Phase.DEALING, "dealing", "moon-choice")
    assert expected["last_trick"] is None and actual["last_trick"]["winner"] != \
        after.tricks[-1].winner
    rules, fields, _ = observation_rules(before, actions[0], after, expected, actual)
    assert (rules, fields) == (["DECK.RANKING"], ["last_trick"])
