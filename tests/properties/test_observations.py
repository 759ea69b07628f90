"""An observation made from the one before equals the observation made whole.

The runner and the reference adapter make each step's observation
(``spec/protocol.md``) from the step before's, with the fields of the
``changes`` answer between them
(:func:`~rules_ref.protocol.observation.observe_change`), keeping what the
step leaves as it was. Over every step of random deals (any ruleset,
adversarial deals, the crafted positions first), chained from the deal's
first observation as the runner chains them, the observation equals
:func:`~rules_ref.protocol.observation.observe` of the same state, its changes
are :func:`~rules_ref.protocol.observation.changes_between` the two whole
observations and make the one of the other
(:func:`~rules_ref.protocol.messages.expand_changes`), and the observation it
was made from is left as it was (their lists are shared, read-only). The
runner's one observation, made the next one in place
(:func:`~rules_ref.protocol.observation.advance`), equals it too, with the
same changes.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings

from rules_ref.actions import Action
from rules_ref.events import Event
from rules_ref.protocol.messages import expand_changes
from rules_ref.protocol.observation import (
    advance,
    changes_between,
    observe,
    observe_change,
    owned_copy,
)
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.strategies import DealPosition, deal_positions, play_out

from . import examples
from .crafted import unplayed, with_crafted_examples


@pytest.mark.rule("VIEW.SEAT")
@pytest.mark.untraced  # coverage stopped: see [tool.coverage.run] in pyproject.toml
@with_crafted_examples()
@settings(max_examples=examples(0.5))
@given(position=deal_positions())
def test_an_observation_made_from_the_one_before_is_the_whole_one(
        position: DealPosition) -> None:
    state, _ = position.state.apply(position.deal)
    last: list[Any] = [state, observe(state)]
    # the runner's one observation, made the next one in place (advance)
    rolling = owned_copy(observe(state))
    made_from_before = {Phase.PASSING: 0, Phase.PLAYING: 0}
    trick_ends = [0]  # a trick ended, the deal played on: the fields the deal decides, too

    def check(before: GameState, action: Action, after: GameState,
              events: tuple[Event, ...]) -> None:
        assert last[0] is before
        previous = last[1]
        kept = copy.deepcopy(previous)
        obs, changes = observe_change(previous, before, after)
        whole = observe(after)
        assert obs == whole
        assert changes == changes_between(kept, whole)
        assert expand_changes(kept, changes, "") == {"type": "observation", **whole}
        assert previous == kept  # the observation before is left as it was
        assert advance(rolling, before, after) == changes and rolling == whole
        if after.deal is before.deal and after.phase is before.phase \
                and after.pending is before.pending and after.game is before.game:
            made_from_before[after.phase] += 1
        elif after.phase is before.phase is Phase.PLAYING and after.game is before.game:
            trick_ends[0] += 1
        last[:] = after, obs

    play_out(state, unplayed(position.policy), check)
    # every deal plays cards within a trick, which the observation before makes
    assert made_from_before[Phase.PLAYING] > 0
    # and ends a trick before the last
    assert trick_ends[0] > 0
