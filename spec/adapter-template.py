#!/usr/bin/env python3
"""A template adapter for the Cancellation Hearts adapter protocol, version 1.

The protocol is spec/protocol.md; the messages have JSON Schemas in
spec/schemas/protocol/. Copy this file next to your implementation and
replace each TODO with a call into it. It needs only the Python standard
library; an adapter in another language follows the same loop.

As it is, it speaks the protocol but plays no game: it answers `hello` and
`bye` and rejects every `start` and `action`. Try it with

    rules-ref conform -- python spec/adapter-template.py

which passes the handshake and then reports that the start of a game was
rejected. Rules are named by their IDs in spec/rules.toml.
"""

from __future__ import annotations

import json
import sys
from typing import Any

PROTOCOL = "cancellation-hearts-adapter"
VERSION = 1


def hello(request: dict[str, Any]) -> dict[str, Any]:
    """Say which protocol version you speak and what your implementation supports."""
    if VERSION not in request.get("versions", []):
        raise SystemExit(f"adapter: the runner does not speak protocol version {VERSION}")
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "version": VERSION,
        "name": "template adapter 0.1",  # TODO: your implementation's name and version
        "supports": {
            "players": [6, 7, 8, 9, 10, 11],  # TODO: the player counts you implement
            # TODO: the switch values you implement beyond the defaults, e.g.
            # {"pass_cycle": [["left", "right"], ["hold"]], "target": "any"}
            "switches": {},
        },
    }


def rejected(reason: str, rule: str | None = None) -> dict[str, Any]:
    """The answer to an action your implementation refuses (the game stays unchanged)."""
    answer: dict[str, Any] = {"type": "rejected", "reason": reason}
    if rule is not None:
        answer["rule"] = rule  # optional: the rule ID the action breaks, e.g. "FOLLOW.SUIT"
    return answer


class Adapter:
    def __init__(self) -> None:
        self.game: Any = None  # TODO: your implementation's game object

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        """Set up a game at the start of a deal, with the cards given."""
        # TODO: build your game from request["players"], request["ruleset"] (every switch),
        # request["deal_number"], request["dealer"], request["totals"], request["hands"]
        # and request["extras"] (cards in canonical notation such as "10H", "QS"),
        # then: return self.observe()
        return rejected("this adapter does not implement a game yet")

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one action: play, pass, moon or deal (spec/protocol.md, `action`)."""
        if self.game is None:
            return rejected("no game started")
        # TODO: apply the action; if your implementation finds it illegal, answer
        # rejected(reason, rule) and leave the game as it was; otherwise:
        # return self.observe()
        return rejected(f"{action.get('type')} actions are not implemented yet")

    def observe(self) -> dict[str, Any]:
        """Every field of the observation, from your game (spec/protocol.md, table)."""
        # TODO: fill in every field from self.game; the runner compares each one.
        return {
            "type": "observation",
            "phase": "playing",  # passing, playing, moon-choice, dealing, game-over
            "deal_number": 1,
            "dealer": 0,
            "to_act": None,  # the seat to play or choose a moon option, else None
            "waiting_for": [],  # while passing: seats yet to pass, from the dealer's left
            "legal": None,  # while playing: distinct legal cards, canonical order
            "hands": None,  # every hand, canonical order, during a deal
            "trick_number": None,
            "leader": None,
            "trick": [],
            "hearts_broken": False,
            "last_trick": None,  # {"number", "leader", "cards", "winner"}; winner None if void
            "pending": [],
            "points": None,
            "deal_scores": None,
            "totals": [],
            "winners": [],
        }


def main() -> int:
    adapter = Adapter()
    for line in sys.stdin:  # one request per line
        request = json.loads(line)
        kind = request.get("type")
        if kind == "hello":
            answer = hello(request)
        elif kind == "start":
            answer = adapter.start(request)
        elif kind == "action":
            answer = adapter.act(request["action"])
        elif kind == "bye":
            answer = {"type": "bye"}
        else:
            print(f"adapter: unknown request {kind!r}", file=sys.stderr)  # stderr is for logs
            return 2
        answer["id"] = request["id"]
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")  # one line per answer
        sys.stdout.flush()
        if kind == "bye":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
