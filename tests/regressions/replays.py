"""The replay files the regression tests read (``data/``), played on the reference."""

from __future__ import annotations

import json
from pathlib import Path

from rules_ref.findings.replay import read_replay
from rules_ref.protocol.reference_adapter import start_state
from rules_ref.state import GameState

DATA = Path(__file__).with_name("data")


def played_out(name: str) -> GameState:
    """The reference's state after every action of the replay file ``data/NAME``; the
    illegal actions conform offered change nothing, so they are left out."""
    path = DATA / name
    start, actions = read_replay(json.loads(path.read_text(encoding="utf-8")), str(path))
    state = start_state(start)
    for action in actions:
        if not state.violations(action):
            state, _ = state.apply(action)
    return state
