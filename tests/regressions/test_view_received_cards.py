"""A seat sees the cards it received and where from, and nothing of other passes.

Found by the game machine's ``seat_views_hide`` invariant: once the view
showed a seat the cards it received (``VIEW.SEAT``), a twin state that
redrew every other seat's pass changed the view. The giver's pass is what
the seat received, so it is public to that seat; every other pass stays
hidden.
"""

from __future__ import annotations

import random

import pytest

from rules_ref.actions import DealCards, Pass
from rules_ref.deal import seeded_deal
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.view import seat_view

from ..properties import invariants as inv


def _exchanged() -> GameState:
    state = GameState.start(7)
    d = seeded_deal(seed=5, players=7, deal_number=1, dealer=0)
    state, _ = state.apply(DealCards(d.hands, d.extras))
    for seat in range(7):
        state, _ = state.apply(Pass(seat, state.hands[seat][:3]))
    return state


@pytest.mark.rule("VIEW.SEAT", "PASS.EXCHANGE")
def test_a_seat_sees_what_it_received_and_from_whom() -> None:
    state = _exchanged()
    assert state.phase is Phase.PLAYING
    view = seat_view(state, 3)
    assert view.received_from == 2  # deal 1 passes left
    assert view.received == state.passes[2]
    assert view.passed == state.passes[3]
    assert view.passed_to == 4


@pytest.mark.rule("VIEW.SEAT")
def test_other_passes_stay_hidden_after_the_exchange() -> None:
    state = _exchanged()
    for seat in range(7):
        twin = inv.hidden_twin(state, seat, random.Random(seat))
        giver = (seat - 1) % 7
        assert twin.passes[giver] == state.passes[giver]
        assert any(twin.passes[s] != state.passes[s] for s in range(7) if s not in (seat, giver))
        assert seat_view(twin, seat) == seat_view(state, seat)
