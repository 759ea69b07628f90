"""The replay files the regression tests read (``data/``), played on the reference."""

from __future__ import annotations

import json
from pathlib import Path

from rules_ref.actions import Action
from rules_ref.findings.replay import read_replay
from rules_ref.protocol.start import start_state
from rules_ref.state import GameState

DATA = Path(__file__).with_name("data")


def _replay(name: str) -> tuple[GameState, list[Action]]:
    path = DATA / name
    start, actions = read_replay(json.loads(path.read_text(encoding="utf-8")), str(path))
    return start_state(start), actions


def _played(state: GameState, actions: list[Action]) -> GameState:
    for action in actions:
        if not state.violations(action):  # an illegal action conform offered changes nothing
            state, _ = state.apply(action)
    return state


def played_out(name: str) -> GameState:
    """The reference's state after every action of the replay file ``data/NAME``; the
    illegal actions conform offered change nothing, so they are left out."""
    return _played(*_replay(name))


def last_step(name: str) -> tuple[GameState, Action, GameState]:
    """The replay's last action (legal) with the reference's states before and after it."""
    start, actions = _replay(name)
    before = _played(start, actions[:-1])
    after, _ = before.apply(actions[-1])
    return before, actions[-1], after
