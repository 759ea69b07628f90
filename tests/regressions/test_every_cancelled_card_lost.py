"""Points lost with every cancelled card are the cancelling rule's, not a card's value.

Found by ``conform --first`` against an engine that leaves the cancelled cards
out of the piles it scores at the end of a deal
(``broken_adapters_more.py end-cancelled-lost``), seed 11: one seat lost the
4 points of one trick's cancelled cards, another the 2 + 2 of two tricks'.
Each seat's loss was also the points of one trick it won, so the trace took
the tricks' points as lost and named SCORE.CARD_POINTS. A rule every one of
whose parcels each seat lost, and nothing else, now comes first. The game is
the replay file conform wrote (``data/cancelled-cards-lost-at-deal-end.json``).
"""

from __future__ import annotations

import pytest

from rules_ref.causes import parcels, trace_points
from rules_ref.state_parts import Phase

from .replays import played_out


@pytest.mark.rule("TRICK.CANCEL")
def test_every_cancelled_card_lost_is_the_cancelling_rule() -> None:
    state = played_out("cancelled-cards-lost-at-deal-end.json")
    assert state.phase is Phase.GAME_OVER
    found = parcels(state)
    assert found is not None
    diff = [0] * state.players
    for p in found:
        if p.rule == "TRICK.CANCEL" and p.seat is not None:
            diff[p.seat] -= p.points
    assert diff == [0, 0, -4, 0, 0, 0, 0, -4]  # one trick's 4 points; 2 + 2 of two tricks
    # each loss is also the points of one trick that seat won: not what the engine did
    won = {(p.seat, p.points) for p in found if p.rule == "TRICK.WINNER"}
    assert {(2, 4), (7, 4)} <= won
    assert trace_points(state, diff) == ["TRICK.CANCEL"]
