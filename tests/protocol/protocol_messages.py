"""The adapter protocol's messages as a conform search sends and receives them, and their schemas.

:func:`record` runs a search with every message recorded; :func:`errors` checks one
message against its JSON Schema (``spec/schemas/protocol``); :func:`dealt_start` is the
``start`` of a game at a state just dealt.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules_ref import conform as runner
from rules_ref.jsonio.serialize import cards_to_json
from rules_ref.protocol.client import AdapterProcess
from rules_ref.state import GameState

# A game count ends these runs, never the clock: the default time budget would cut a run
# short on a busy machine, and the figures compared would then depend on its speed.
UNBOUNDED = 600.0

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "spec" / "schemas" / "protocol"

Log = list[tuple[str, dict[str, Any]]]


def record(config: runner.Config) -> tuple[runner.Outcome, Log]:
    """A conform search, with every message sent (as written on the wire) and received
    (copies, before any check)."""
    log: Log = []
    write, receive = AdapterProcess._write, AdapterProcess.receive

    def recording_write(self: AdapterProcess, msg_id: int, kind: str, line: str) -> None:
        write(self, msg_id, kind, line)
        log.append(("request", json.loads(line)))

    def recording_receive(self: AdapterProcess, msg_id: int, what: str,
                          timeout: float | None = None) -> dict[str, Any]:
        answer = receive(self, msg_id, what, timeout)
        log.append(("answer", copy.deepcopy(answer)))
        return answer

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(AdapterProcess, "_write", recording_write)
        mp.setattr(AdapterProcess, "receive", recording_receive)
        outcome = runner.run_search(config)
    return outcome, log


@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMAS / f"{name}.schema.json").read_text()))


def errors(name: str, message: dict[str, Any]) -> list[str]:
    """What is wrong with ``message`` by the schema ``name`` (empty: it validates)."""
    return [e.message for e in validator(name).iter_errors(message)]


def dealt_start(state: GameState) -> dict[str, Any]:
    """The ``start`` message of a game at ``state``, just dealt: its table, deal number,
    dealer, totals and cards."""
    return {"type": "start", "players": state.players, "ruleset": state.ruleset.to_dict(),
            "deal_number": state.deal_number, "dealer": state.dealer,
            "totals": list(state.totals), "hands": [cards_to_json(h) for h in state.hands],
            "extras": cards_to_json(state.extras)}
