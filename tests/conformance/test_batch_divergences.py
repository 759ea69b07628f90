"""A divergence inside a batch: the runner resumes at the action that diverged.

``spec/protocol.md`` promises the same verdict with batches or without. The
same recorded game is played against an engine that refuses a card
identical to one already in the trick (a fault met at many actions, several
in one batch), once one action per request and once in batches: every
divergence is met at the same action both ways, and every action after a
divergence is judged.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.actions import Action
from rules_ref.conform.conversation import position_record
from rules_ref.conform.rerun import play_game
from rules_ref.conform.session import Session
from rules_ref.findings.failure import Failure, Stats
from rules_ref.game import game_steps
from rules_ref.protocol.client import AdapterProcess

from .broken_adapters import command
from .protocol_messages import dealt_start

#: Two deals of a seeded game at 6 players (201 actions); the fault shows 19 times in them.
SEED, PLAYERS, ACTIONS = 1, 6, 2 * (6 + 6 * 16) - 2


def _game() -> tuple[dict[str, Any], list[Action]]:
    steps = list(game_steps(PLAYERS, SEED))
    dealt = steps[0][2]
    return dealt_start(dealt), [a for _, a, _, _ in steps[1:ACTIONS]]


def _divergences(batch: int) -> tuple[list[Failure], Stats]:
    start, actions = _game()
    seen: list[Failure] = []
    stats = Stats()
    proc = AdapterProcess(command("twin-refused"), 60)
    try:
        proc.hello((2,))
        assert proc.can("batch") and proc.can("position")
        session = Session(proc, stats, check_every=1,
                          position=position_record, batch=batch, on_divergence=seen.append)
        play_game(session, start, actions)
    finally:
        proc.close()
    return seen, stats


@pytest.mark.untraced
@pytest.mark.rule("TRICK.CANCEL")
def test_every_action_after_a_divergence_in_a_batch_is_judged() -> None:
    alone, alone_stats = _divergences(batch=0)
    batched, batched_stats = _divergences(batch=64)
    where = [(f.failing, f.rules) for f in alone]
    assert len(where) == 19
    assert {tuple(f.rules) for f in alone} == {("TRICK.CANCEL",)}
    assert [(f.failing, f.rules) for f in batched] == where
    # every action is judged: as many answers compared as one action per request compares
    assert batched_stats.actions == alone_stats.actions == 1 + len(_game()[1])
    assert batched_stats.divergences == alone_stats.divergences == 19
