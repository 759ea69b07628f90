#!/usr/bin/env python3
"""A template adapter for the Cancellation Hearts adapter protocol, version 2.

The protocol is spec/protocol.md; the messages have JSON Schemas in
spec/schemas/protocol/; spec/implementing.md explains how to put an engine
behind it. Copy this file next to your implementation and replace each TODO
with a call into it. It needs only the Python standard library; an adapter
in another language follows the same loop (spec/adapter-template.mjs is the
same template for Node.js).

As it is, it speaks the protocol but plays no game: it answers `hello`
(version 2, with the capabilities `batch` and `pipeline`) and `bye`, and rejects every
`start` and `action`. Try it with

    rules-ref conform -- ./spec/adapter-template.py

which passes the handshake and then reports that the start of a game was
rejected. Rules are named by their IDs in spec/rules.toml. The reference
engine's own adapter, `rules-ref adapter`, answers every message as a correct
engine does: send it the same lines to see the answer expected.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

PROTOCOL = "cancellation-hearts-adapter"
#: The protocol versions this adapter speaks; it answers with the newest the runner offers.
VERSIONS = (1, 2)
#: Version 2: the optional messages implemented. "batch" costs nothing (see batch() below),
#: nor does "pipeline" (main() reads one request per line and answers it before the next);
#: add "position" once start_position() works, "observe" once observe() does.
CAPABILITIES = ["batch", "pipeline"]


def hello(request: dict[str, Any]) -> dict[str, Any]:
    """Say which protocol version you speak and what your implementation supports."""
    offered = [v for v in VERSIONS if v in request.get("versions", [])]
    if not offered:
        raise SystemExit(f"adapter: the runner speaks none of the versions {VERSIONS}")
    answer: dict[str, Any] = {
        "type": "hello",
        "protocol": PROTOCOL,
        "version": max(offered),
        "name": "template adapter 0.2",  # TODO: your implementation's name and version
        "supports": {
            "players": [6, 7, 8, 9, 10, 11],  # TODO: the player counts you implement
            # TODO: the switch values you implement beyond the defaults, e.g.
            # {"pass_cycle": [["left", "right"], ["hold"]], "target": "any"}
            "switches": {},
        },
    }
    if answer["version"] >= 2:
        answer["capabilities"] = CAPABILITIES
    return answer


def rejected(reason: str, rule: str | None = None) -> dict[str, Any]:
    """The answer to an action your implementation refuses (the game stays unchanged)."""
    answer: dict[str, Any] = {"type": "rejected", "reason": reason}
    if rule is not None:
        answer["rule"] = rule  # optional: the rule ID the action breaks, e.g. "FOLLOW.SUIT"
    return answer


class Adapter:
    def __init__(self) -> None:
        self.game: Any = None  # TODO: your implementation's game object
        self.version = 1

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        """Set up a game at the start of a deal, with the cards given."""
        if "position" in request:
            return self.start_position(request)
        # TODO: build your game from request["players"], request["ruleset"] (a switch it
        # leaves out is at its default: spec/protocol.md, start), request["deal_number"],
        # request["dealer"], request["totals"], request["hands"]
        # and request["extras"] (cards in canonical notation such as "10H", "QS"),
        # then: return self.observe()
        return rejected("this adapter does not implement a game yet")

    def start_position(self, request: dict[str, Any]) -> dict[str, Any]:
        """Version 2, capability "position": set up a game at request["position"]."""
        # TODO: build your game from the position (spec/position.md) and request["ruleset"],
        # add "position" to CAPABILITIES, then: return self.observe()
        return rejected("this adapter cannot start from a position")

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one action: play, pass, moon or deal (spec/protocol.md, `action`)."""
        if self.game is None:
            return rejected("no game started")
        # TODO: apply the action; if your implementation finds it illegal, answer
        # rejected(reason, rule) and leave the game as it was; otherwise:
        # return self.observe()
        return rejected(f"{action.get('type')} actions are not implemented yet")

    def batch(self, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Version 2: every action in order, each exactly as a separate `action` request.

        A rejected action leaves the game unchanged and the next one applies to
        it; an error ends the batch.
        """
        answers = []
        for index, action in enumerate(actions):
            answer = guarded(self.version, self.act, action)
            answers.append({"index": index, **answer})
            if answer["type"] == "error":
                break
        return {"type": "batch", "answers": answers}

    def observe(self) -> dict[str, Any]:
        """Every field of the observation, from your game (spec/protocol.md, tables)."""
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


def guarded(version: int, answer: Any, *args: Any) -> dict[str, Any]:
    """``answer(*args)``; in version 2 a failure of your code becomes an `error` answer."""
    if version < 2:
        result: dict[str, Any] = answer(*args)
        return result
    try:
        result = answer(*args)
        return result
    except Exception as exc:  # your engine failed: say so (the runner reports it), go on
        traceback.print_exc(file=sys.stderr)  # standard error is for logs
        return {"type": "error", "message": f"{type(exc).__name__}: {exc}"}


def main() -> int:
    adapter = Adapter()
    for line in sys.stdin:  # one request per line
        request = json.loads(line)
        kind = request.get("type")
        if kind == "hello":
            answer = hello(request)
            adapter.version = answer["version"]
        elif kind == "start":
            answer = guarded(adapter.version, adapter.start, request)
        elif kind == "action":
            answer = guarded(adapter.version, adapter.act, request["action"])
        elif kind == "batch" and adapter.version >= 2:
            answer = adapter.batch(request["actions"])
        elif kind == "bye":
            answer = {"type": "bye"}
        else:
            print(f"adapter: unknown request {kind!r}", file=sys.stderr)
            return 2
        answer["id"] = request["id"]
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")  # one line per answer
        sys.stdout.flush()
        if kind == "bye":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
