"""Whole deals, adversarial and random, against the model and every invariant.

Each example sets up a game part-way (any ruleset, dealer, totals near the
target), deals one deal from the adversarial strategies and plays it to
its end with a drawn policy; the positions of ``crafted.py`` come first, so
every rare path is met whatever the profile's budget. After every action the engine must agree
with the model of ``model.py`` (hands, tricks, pending pile, collected and
uncollected cards, leader, legal plays, scores, totals, winners) and
satisfy every cheap invariant of ``invariants.py``; after every action,
one illegal action of each applicable kind must be rejected under the
right rule and change nothing.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings

from rules_ref.actions import Action
from rules_ref.events import Event
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.strategies import DealPosition, RarePathTally, deal_positions, play_out

from . import examples
from . import invariants as inv
from .crafted import unplayed, with_crafted_examples
from .model import ModelDeal


@pytest.mark.rule("DEAL.SOURCE", "DEAL.DEALER", "PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE",
                  "LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "LEAD.HEARTS", "HEARTS.BROKEN",
                  "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK", "TURN.ORDER", "TRICK.LED_SUIT",
                  "TRICK.CANCEL", "TRICK.WINNER", "TRICK.NEXT_LEADER", "VOID.TRICK",
                  "VOID.LEADER", "VOID.COLLECT", "VOID.LAST", "EXTRAS.FIRST_TRICK",
                  "SCORE.CARD_POINTS", "SCORE.DEAL", "MOON.CONDITION", "MOON.CHOICE",
                  "GAME.END", "GAME.WINNER")
@pytest.mark.untraced  # coverage stopped: see [tool.coverage.run] in pyproject.toml
@with_crafted_examples()
@settings(max_examples=examples(0.75))
@given(position=deal_positions())
def test_whole_deals_match_the_model(rare_path_tally: RarePathTally,
                                     rejection_tally: Counter[str],
                                     position: DealPosition) -> None:
    state, deal, policy = position.state, position.deal, unplayed(position.policy)
    model: ModelDeal | None = None
    rng = random.Random(policy.seed)

    def observe(before: GameState, action: Action, after: GameState,
                events: tuple[Event, ...]) -> None:
        nonlocal model
        model = inv.check_step(before, action, after, events, model)
        rare_path_tally.record(before, action, after, events)
        rejection_tally.update(inv.illegal_actions_rejected(after, model, rng))

    after, events = state.apply(deal)
    observe(state, deal, after, events)
    final = play_out(after, policy, observe)
    assert model is not None
    assert final.phase is (Phase.GAME_OVER if model.game_over else Phase.DEALING)
    assert final.deal_results[-1].scores == model.scores
    inv.round_trip(final)
    inv.replay_rebuilds(final)
    inv.record_round_trip(final)
