"""A divergence inside a batch: the runner resumes at the action that diverged.

``spec/protocol.md`` promises the same verdict with batches or without. The
same recorded game is played against an engine that refuses a card
identical to one already in the trick (a fault met at many actions, several
in one batch), once one action per request and once in batches: every
divergence is met at the same action both ways, and every action after a
divergence is judged. A whole search against an engine of three faults
finds the same classes, and counts the same, one action per request or in
batches.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.actions import Action
from rules_ref.conform.conversation import position_record
from rules_ref.conform.outcome import Config
from rules_ref.conform.rerun import play_game
from rules_ref.conform.runner import Runner
from rules_ref.conform.session import Session
from rules_ref.findings.failure import COUNTS, Failure, Stats
from rules_ref.players.game import game_steps
from rules_ref.protocol.client import AdapterProcess

from ..fakes import multi_fault_adapters
from ..fakes.broken_adapters import command
from ..protocol.protocol_messages import dealt_start

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


def _search(batch: int) -> tuple[dict[str, Any], dict[str, int]]:
    config = Config(command=multi_fault_adapters.command("pass-lead-suit"), examples=10,
                    max_seconds=600, seed=1, timeout=60, batch=batch)
    runner = Runner(config)
    try:
        runner.connect()
        outcome = runner.search()
    finally:
        runner.close()
    assert outcome.findings is not None
    counted = {f: getattr(outcome.stats, f) for f in COUNTS}
    tallies = {"exercise": dict(outcome.stats.exercise), "rare": dict(outcome.stats.rare),
               "offers": dict(outcome.stats.offers)}
    return {**counted, **tallies}, {k: c.count for k, c in outcome.findings.classes.items()}


@pytest.mark.untraced
@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER", "TRICK.LED_SUIT")
def test_a_search_finds_and_counts_the_same_with_batches_or_without() -> None:
    # batches of 64 go while others are unanswered, and a game's last ones are judged at
    # the next game's start; the conditions of the actions the implementation never
    # answered in step (played on by the reference alone after a divergence) are counted
    # off: so every count is the one of a search of one action per request
    alone = _search(batch=0)
    # some divergences left the implementation out of step (not restarted at once)
    assert len(alone[1]) == 3 and alone[0]["divergences"] > 10
    assert alone[0]["resyncs"] < alone[0]["divergences"]
    assert _search(batch=1) == alone
    assert _search(batch=64) == alone
