"""A difference first seen at a trick is not blamed on a parcel collected before it.

Found by ``conform --examples 8 --seed 11 --jobs 2`` against an engine that
scores a Q♠ 10 (``broken_adapters.py queen-ten``): the deal's last trick
collects a pending pile holding both Q♠ (they cancelled each other in a trick
set aside), and its winner is 6 points short. The trace named TRICK.CANCEL,
because the same seat had collected, tricks earlier, cancelled cards worth
exactly 6, although the points had agreed after that trick. Where the points
agreed until the trick just completed, the parcels it collected and a card's
value now come before the parcels of earlier tricks. The game is the replay
file conform wrote (``data/queen-scored-ten-in-a-pile-collected-last.json``),
which still names the old class.
"""

from __future__ import annotations

import pytest

from rules_ref.cards import QUEEN_OF_SPADES
from rules_ref.causes import parcels, trace_points
from rules_ref.findings.attribution import observation_rules
from rules_ref.protocol.observation import observe
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

from .replays import last_step

NAME = "queen-scored-ten-in-a-pile-collected-last.json"


def _queen_diff(state: GameState) -> list[int]:
    return [-3 * list(got).count(QUEEN_OF_SPADES) for got in state.collected]


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_the_game_has_the_coincidence() -> None:
    """The situation itself: both Q♠ collected by the last trick, and an earlier parcel of
    cancelled cards of the same seat worth the same 6 points."""
    before, _, after = last_step(NAME)
    assert after.phase is Phase.DEALING  # the deal has ended
    diff = _queen_diff(after)
    assert diff == [0, 0, 0, -6, 0, 0, 0, 0, 0, 0]
    assert _queen_diff(before) == [0] * 10  # no Q♠ collected before the last trick
    last = len(after.tricks)
    earlier = [(p.rule, p.trick) for p in parcels(after) or ()
               if p.seat == 3 and p.points == 6 and p.trick < last]
    assert earlier == [("TRICK.CANCEL", 5)]
    # without knowing when the points agreed (a record's scores), that parcel is the
    # plainest cause: one parcel of one rule makes the difference
    assert trace_points(after, diff) == ["TRICK.CANCEL"]


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_a_queen_scored_ten_in_the_last_pile_is_the_card_points_rule() -> None:
    before, action, after = last_step(NAME)
    diff = _queen_diff(after)
    assert trace_points(after, diff, len(after.tricks)) == ["SCORE.CARD_POINTS"]
    expected = observe(after)
    actual = {**expected, "points": [e + d for e, d in zip(expected["points"], diff,
                                                           strict=True)]}
    rules, fields, _ = observation_rules(before, action, after, expected, actual)
    assert (rules, fields) == (["SCORE.CARD_POINTS"], ["points"])
