"""The protocol loop the harnesses share (peers/harness/protocol.py), over an engine of our own."""

from __future__ import annotations

import io
import json
from typing import Any

from peers.harness.protocol import Answer, Loop, changes, rejected


class Counter:
    """A toy engine: one number per seat; a play adds 1 to its seat, a play of seat 9 is refused."""

    name = "counter"

    def __init__(self) -> None:
        self.hands = [[0], [0]]

    def supports(self) -> dict[str, Any]:
        return {"players": [6]}

    def start(self, request: dict[str, Any]) -> Answer:
        self.hands = [[0], [0]]
        return self.observe()

    def act(self, action: dict[str, Any]) -> Answer:
        if action["seat"] == 9:
            return rejected("no such seat", "TURN.ORDER")
        if action["seat"] == 7:
            raise ValueError("broken")
        self.hands[action["seat"]] = [self.hands[action["seat"]][0] + 1]
        return self.observe()

    def observe(self) -> Answer:
        return {
            "type": "observation",
            "phase": "playing",
            "hands": [list(h) for h in self.hands],
            "to_act": 0,
        }


def talk(*requests: dict[str, Any]) -> list[dict[str, Any]]:
    out = io.StringIO()
    lines = io.StringIO("".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(requests)))
    Loop(Counter()).run(lines, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_changes_names_only_what_differs_and_hands_by_seat() -> None:
    before = {"type": "observation", "phase": "playing", "hands": [[1], [2]], "to_act": 0}
    after = {"type": "observation", "phase": "playing", "hands": [[1], [3]], "to_act": 1}
    assert changes(before, after) == {"type": "changes", "hands": {"1": [3]}, "to_act": 1}


def test_a_batch_answers_each_action_and_a_rejection_changes_nothing() -> None:
    hello, start, batch, bye = talk(
        {"type": "hello", "protocol": "cancellation-hearts-adapter", "versions": [1, 2]},
        {"type": "start"},
        {"type": "batch", "actions": [{"seat": 1}, {"seat": 9}, {"seat": 0}]},
        {"type": "bye"},
    )
    assert hello["version"] == 2 and hello["capabilities"] == [
        "position",
        "batch",
        "observe",
        "changes",
        "pipeline",
    ]
    assert start["hands"] == [[0], [0]]
    assert batch["answers"] == [
        {"index": 0, "type": "changes", "hands": {"1": [1]}},
        {"index": 1, "type": "rejected", "reason": "no such seat", "rule": "TURN.ORDER"},
        {"index": 2, "type": "changes", "hands": {"0": [1]}},
    ]
    assert bye == {"id": 3, "type": "bye"}


def test_an_engine_failure_is_an_error_answer_that_ends_the_batch() -> None:
    _, _, batch, observed, _ = talk(
        {"type": "hello", "protocol": "cancellation-hearts-adapter", "versions": [2]},
        {"type": "start"},
        {"type": "batch", "actions": [{"seat": 0}, {"seat": 7}, {"seat": 1}]},
        {"type": "observe"},
        {"type": "bye"},
    )
    assert batch["answers"][1] == {"index": 1, "type": "error", "message": "ValueError: broken"}
    assert len(batch["answers"]) == 2
    assert observed["hands"] == [[1], [0]]
