"""The reference adapter: the reference engine behind ``spec/protocol.md``.

Run it as ``python -m rules_ref.conformance.adapter``. It answers every
request from the reference engine, so ``rules-ref conform`` and
``rules-ref vectors run`` against it must pass; broken variants of it (in
the tests) show that they fail when a rule is broken.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import IO, Any

from ..actions import DealCards
from ..deal import MAX_PLAYERS, MIN_PLAYERS
from ..errors import IllegalAction, RulesRefError
from ..ruleset import Ruleset
from ..serialize import action_from_json, cards_from_json, ruleset_from_json
from ..state import GameState
from .observation import PROTOCOL_NAME, PROTOCOL_VERSION, observe

Observer = Callable[[GameState], dict[str, Any]]

#: The switches of ``spec/variants.toml``, as the ruleset names them.
SWITCHES = tuple(f.name for f in fields(Ruleset))


def start_state(msg: dict[str, Any]) -> GameState:
    """The state a ``start`` request describes, dealt and ready for its first action."""
    players = msg["players"]
    ruleset = ruleset_from_json(msg["ruleset"])
    deal_number = msg["deal_number"]
    first_dealer = (msg["dealer"] - (deal_number - 1)) % players
    state = GameState.start(players, ruleset, first_dealer, tuple(msg["totals"]), deal_number)
    hands = tuple(cards_from_json(h, f"hands[{i}]") for i, h in enumerate(msg["hands"]))
    state, _ = state.apply(DealCards(hands, cards_from_json(msg["extras"], "extras")))
    return state


class ReferenceAdapter:
    """Answers protocol requests; subclasses in the tests break one rule each."""

    name = "rules-ref reference adapter"

    def __init__(self) -> None:
        self.state: GameState | None = None

    def hello(self) -> dict[str, Any]:
        return {"type": "hello", "protocol": PROTOCOL_NAME, "version": PROTOCOL_VERSION,
                "name": self.name,
                "supports": {"players": list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                             "switches": dict.fromkeys(SWITCHES, "any")}}

    def observe(self, state: GameState) -> dict[str, Any]:
        return observe(state)

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        try:
            self.state = start_state(msg)
        except RulesRefError as exc:
            self.state = None
            return {"type": "rejected", "reason": f"cannot start this game: {exc}"}
        return {"type": "observation", **self.observe(self.state)}

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.state is None:
            return {"type": "rejected", "reason": "no game started"}
        action = action_from_json(msg["action"])
        try:
            self.state, _ = self.state.apply(action)
        except IllegalAction as exc:
            return {"type": "rejected", "rule": exc.rule_id, "reason": str(exc)}
        except RulesRefError as exc:
            rule = getattr(exc, "rule_id", None)
            return {"type": "rejected", **({"rule": rule} if rule else {}), "reason": str(exc)}
        return {"type": "observation", **self.observe(self.state)}

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg.get("type")
        if kind == "action":
            return self.act(msg)
        if kind == "start":
            return self.start(msg)
        if kind == "hello":
            return self.hello()
        if kind == "bye":
            return {"type": "bye"}
        raise RulesRefError(f"unknown request type {kind!r}")

    def serve(self, stdin: IO[str], stdout: IO[str]) -> int:
        dumps = json.JSONEncoder(separators=(",", ":")).encode
        for line in stdin:
            try:
                msg = json.loads(line)
                answer = {"id": msg.get("id"), **self.handle(msg)}
            except (ValueError, KeyError, TypeError, AttributeError, RulesRefError) as exc:
                print(f"adapter: cannot answer {line[:200]!r}: {exc}", file=sys.stderr)
                return 2
            stdout.write(dumps(answer) + "\n")
            stdout.flush()
            if answer["type"] == "bye":
                return 0
        return 0


def main() -> int:
    return ReferenceAdapter().serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
