"""The opening lead against the model, under every opening rule, on hands built for it.

The leader's hand is mostly hearts, Q♠, 10♦ and 2♣ (the cards the opening
rules single out), so that the exceptions of every ``opening_lead`` value
and of the 10♦ switch come up far more often than in whole deals.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_ref.actions import DealCards, Play
from rules_ref.ruleset import OpeningLead, PassDirection
from rules_ref.state import GameState
from rules_ref.strategies import (
    dealers,
    explicit_deals,
    opening_lead_deals,
    player_counts,
    rulesets,
)

from . import examples
from . import invariants as inv
from .model import ModelDeal


@st.composite
def opening_positions(draw: st.DrawFn) -> tuple[GameState, DealCards]:
    players = draw(player_counts())
    rs = replace(draw(rulesets()), pass_cycle=(PassDirection.HOLD,),
                 opening_lead=draw(st.sampled_from(OpeningLead)),
                 ten_of_diamonds_points=draw(st.sampled_from((0, -10, 10))))
    state = GameState.start(players, rs, draw(dealers(players)))
    leader = (state.dealer_of_next_deal + 1) % players
    return state, draw(opening_lead_deals(players, leader) | explicit_deals(players))


@pytest.mark.untraced
@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD")
@settings(max_examples=examples(1.0))
@given(position=opening_positions())
def test_opening_leads_match_the_model(position: tuple[GameState, DealCards]) -> None:
    state, deal = position
    after, _ = state.apply(deal)
    model = ModelDeal.start(state.ruleset, state.players, 1, after.dealer, state.totals,
                            deal.hands, deal.extras)
    seat = model.to_act
    assert after.to_act == seat, f"seat {after.to_act} opens, the model says seat {seat}"
    allowed = model.legal(seat)
    assert set(after.legal_plays()) == allowed
    for card in sorted(set(after.hands[seat]) - allowed):
        inv.rejected(after, Play(seat, card), "LEAD.OPENING_CARD")
