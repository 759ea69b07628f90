"""Small adapters for the tests of ``rules-ref vectors run``: the reference, changed a little.

Run one as an adapter::

    python tests/conformance/vector_adapters.py NAME

* ``declares-nothing``: declares 7 players and only the two-of-clubs opening
  lead, which no vector combines, so every case is skipped;
* ``eight-players``: declares 8 players at the default switch values only;
* ``hangs-at-nine``: never answers the start of a 9-player game;
* ``fails-at-queen``: its engine fails on every play of a QS, which protocol
  version 2 answers with an ``error``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.protocol.reference_adapter import ReferenceAdapter


class DeclaresNothing(ReferenceAdapter):
    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**super().hello(request), "supports": {"players": [7], "switches": {
            "opening_lead": ["two-of-clubs"]}}}


class EightPlayers(ReferenceAdapter):
    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**super().hello(request), "supports": {"players": [8]}}


class HangsAtNine(ReferenceAdapter):
    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("players") == 9:
            time.sleep(600)  # ended by the runner long before
        return super().start(msg)


class FailsAtQueen(ReferenceAdapter):
    def apply(self, action_json: object) -> dict[str, Any]:
        if isinstance(action_json, dict) and action_json.get("card") == "QS":
            raise RuntimeError("no rule for the queen of spades")
        return super().apply(action_json)


ADAPTERS: dict[str, type[ReferenceAdapter]] = {
    "declares-nothing": DeclaresNothing,
    "eight-players": EightPlayers,
    "hangs-at-nine": HangsAtNine,
    "fails-at-queen": FailsAtQueen,
}


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return [sys.executable, os.path.realpath(__file__), name]


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1 or argv[0] not in ADAPTERS:
        print(f"usage: vector_adapters.py NAME; NAME is one of: {', '.join(ADAPTERS)}",
              file=sys.stderr)
        return 2
    return ADAPTERS[argv[0]]().serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
