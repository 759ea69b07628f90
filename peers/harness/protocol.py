"""The adapter protocol, version 2 (spec/protocol.md), over an engine harness.

An engine harness answers ``start``, ``action`` and ``observe`` with whole answers
(an observation's fields, or a rejection); this module does the rest the same way for every
engine: the handshake, the ``batch`` request, ``changes`` inside a batch, ``error`` answers for
a harness or engine that fails, and ``bye``. Standard output carries the protocol only.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any, Protocol, TextIO

PROTOCOL = "cancellation-hearts-adapter"
CAPABILITIES = ["position", "batch", "observe", "changes", "pipeline"]

Answer = dict[str, Any]


class Engine(Protocol):
    """What a harness gives the protocol loop."""

    name: str

    def supports(self) -> dict[str, Any]:
        """The ``supports`` of the hello: player counts and switch values."""

    def start(self, request: dict[str, Any]) -> Answer:
        """A game from a ``start`` (a deal's cards, or a ``position``)."""

    def act(self, action: dict[str, Any]) -> Answer:
        """One action applied, or rejected leaving the game unchanged."""

    def observe(self) -> Answer:
        """The observation of the game as it is."""


def rejected(reason: str, rule: str | None = None) -> Answer:
    """The answer to an action or a start the engine refuses."""
    answer: Answer = {"type": "rejected", "reason": reason}
    if rule is not None:
        answer["rule"] = rule
    return answer


def changes(previous: Answer, observation: Answer) -> Answer:
    """The fields of ``observation`` that differ from ``previous``; hands by seat."""
    answer: Answer = {"type": "changes"}
    for key, value in observation.items():
        if key == "type" or previous.get(key) == value:
            continue
        old = previous.get(key)
        if (
            key == "hands"
            and isinstance(value, list)
            and isinstance(old, list)
            and len(old) == len(value)
        ):
            answer[key] = {str(seat): hand for seat, hand in enumerate(value) if old[seat] != hand}
        else:
            answer[key] = value
    return answer


class Loop:
    """One conversation with the runner."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.version = 1
        self.previous: Answer | None = None

    def guarded(self, call: Any, *args: Any) -> Answer:
        try:
            answer: Answer = call(*args)
        except Exception as exc:  # the engine or its host failed: an `error` answer
            traceback.print_exc(file=sys.stderr)
            if self.version < 2:
                raise
            return {"type": "error", "message": f"{type(exc).__name__}: {exc}"}
        if answer.get("type") == "observation":
            self.previous = answer
        return answer

    def hello(self, request: dict[str, Any]) -> Answer:
        offered = [v for v in (1, 2) if v in request.get("versions", [])]
        if not offered:
            raise SystemExit(
                f"{self.engine.name}: the runner offers no protocol version this adapter speaks"
            )
        self.version = max(offered)
        answer: Answer = {
            "type": "hello",
            "protocol": PROTOCOL,
            "version": self.version,
            "name": self.engine.name,
            "supports": self.engine.supports(),
        }
        if self.version >= 2:
            answer["capabilities"] = CAPABILITIES
        return answer

    def batch(self, actions: list[dict[str, Any]]) -> Answer:
        answers = []
        for index, action in enumerate(actions):
            before = self.previous
            answer = self.guarded(self.engine.act, action)
            if answer["type"] == "observation" and before is not None:
                answer = changes(before, answer)
            answers.append({"index": index, **answer})
            if answer["type"] == "error":
                break
        return {"type": "batch", "answers": answers}

    def answer(self, request: dict[str, Any]) -> Answer | None:
        kind = request.get("type")
        if kind == "hello":
            return self.hello(request)
        if kind == "start":
            return self.guarded(self.engine.start, request)
        if kind == "action":
            return self.guarded(self.engine.act, request["action"])
        if kind == "batch" and self.version >= 2:
            return self.batch(request["actions"])
        if kind == "observe" and self.version >= 2:
            return self.guarded(self.engine.observe)
        if kind == "bye":
            return None
        raise SystemExit(f"{self.engine.name}: unknown request {kind!r}")

    def run(self, lines: TextIO, out: TextIO) -> int:
        for line in lines:
            request = json.loads(line)
            answer = self.answer(request)
            if answer is None:
                out.write(json.dumps({"id": request["id"], "type": "bye"}) + "\n")
                out.flush()
                return 0
            answer["id"] = request["id"]
            out.write(json.dumps(answer, separators=(",", ":")) + "\n")
            out.flush()
        return 0
