"""Points that differ by a card's value are not blamed on parcels that happen to add up.

Found by ``conform --first`` against an engine that scores a Q♠ 10 at the end
of each deal (``broken_adapters_more.py end-queen-ten``): in its first game
one seat, holding both Q♠, was 6 points short, and the trace named
TRICK.CANCEL because some of that seat's cancelled-card parcels added up to
6. A card scored at another value, every copy by every seat, now comes before
sums of parcels; one parcel that makes each seat's difference comes first of
all. The game is the shrunk replay file conform wrote
(``data/queen-scored-ten-at-deal-end.json``).
"""

from __future__ import annotations

import pytest

from rules_ref.cards import QUEEN_OF_SPADES
from rules_ref.causes import trace_points
from rules_ref.state_parts import Phase

from .replays import played_out


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_a_queen_scored_ten_is_the_card_points_rule() -> None:
    state = played_out("queen-scored-ten-at-deal-end.json")
    assert state.phase is Phase.GAME_OVER  # the deal, and the game (target 13), have ended
    queens = [list(got).count(QUEEN_OF_SPADES) for got in state.collected]
    diff = [-3 * q for q in queens]
    assert [d for d in diff if d] == [-6]  # one seat took both, 6 points short
    assert trace_points(state, diff) == ["SCORE.CARD_POINTS"]
