"""Small adapters for the tests of ``rules-ref vectors run``: the reference, changed a little.

Run one as an adapter::

    python tests/fakes/vector_adapters.py NAME

* ``declares-nothing``: declares 7 players and only the two-of-clubs opening
  lead, which no vector combines, so every case is skipped;
* ``eight-players``: declares 8 players at the default switch values only;
* ``defaults``: declares 6 to 11 players at the default switch values only
  (``defaults-no-position``: and not the capability ``position``, protocol
  version 1);
* ``ten-of-diamonds-v1``: 8 players, ``ten_of_diamonds_points`` 0 and -10,
  protocol version 1: the vectors that test -10 at 8 players start from a
  position or need other values, so -10 goes untested;
* ``preset NAME LOW HIGH``: declares exactly the values of preset ``NAME``
  (read from ``spec/variants.toml``) and the player counts ``LOW`` to ``HIGH``;
* ``hangs-at-nine``: never answers the start of a 9-player game;
* ``fails-at-queen``: its engine fails on every play of a QS, which protocol
  version 2 answers with an ``error``;
* ``uncancelled CARD``: right about every rule and every card but ``CARD``, whose two
  copies never cancel;
* ``last-trick-cleared``: right about every rule, but clears ``last_trick`` with the
  table: ``null`` once the next trick's first card is played, where the protocol keeps
  the last complete trick until the next one completes.
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


class Defaults(ReferenceAdapter):
    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**super().hello(request), "supports": {"players": list(range(6, 12))}}


class DefaultsNoPosition(Defaults):
    def __init__(self) -> None:
        super().__init__(1)


class TenOfDiamondsV1(ReferenceAdapter):
    def __init__(self) -> None:
        super().__init__(1)

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**super().hello(request), "supports": {"players": [8], "switches": {
            "ten_of_diamonds_points": [0, -10]}}}


class Preset(ReferenceAdapter):
    """The reference declaring exactly one preset's values and a range of player counts."""

    def __init__(self, name: str, low: str, high: str) -> None:
        super().__init__()
        from rules_ref.ruleset import preset

        self.values = {k: [v] for k, v in preset(name).to_dict().items()}
        self.players = list(range(int(low), int(high) + 1))

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**super().hello(request), "supports": {"players": self.players,
                                                       "switches": self.values}}


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


class Uncancelled(ReferenceAdapter):
    """The reference with one card whose two copies do not cancel (``TRICK.CANCEL``)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        from rules_ref import tricks
        from rules_ref.cards import Card, parse_card

        card = parse_card(text)
        right = tricks.cancelled_cards

        def cancelled(cards: Sequence[Card]) -> frozenset[Card]:
            return right(cards) - {card}

        tricks.cancelled_cards = cancelled


class LastTrickCleared(ReferenceAdapter):
    """The reference whose observations drop ``last_trick`` while a trick is on the table."""

    @staticmethod
    def cleared(obs: dict[str, Any]) -> dict[str, Any]:
        return {**obs, "last_trick": None} if obs.get("trick") else obs

    def observe(self, state: Any) -> dict[str, Any]:
        return self.cleared(super().observe(state))

    def observe_step(self, before: Any, after: Any) -> dict[str, Any]:
        return self.cleared(super().observe_step(before, after))


ADAPTERS: dict[str, Any] = {
    "declares-nothing": DeclaresNothing,
    "eight-players": EightPlayers,
    "defaults": Defaults,
    "defaults-no-position": DefaultsNoPosition,
    "ten-of-diamonds-v1": TenOfDiamondsV1,
    "preset": Preset,
    "hangs-at-nine": HangsAtNine,
    "fails-at-queen": FailsAtQueen,
    "uncancelled": Uncancelled,
    "last-trick-cleared": LastTrickCleared,
}


def command(name: str, *args: str) -> list[str]:
    """The command that runs adapter ``name`` (with its arguments)."""
    return [sys.executable, os.path.realpath(__file__), name, *args]


def main(argv: Sequence[str]) -> int:
    takes = {"preset": 4, "uncancelled": 2}
    if not argv or argv[0] not in ADAPTERS or len(argv) != takes.get(argv[0], 1):
        print(f"usage: vector_adapters.py NAME; NAME is one of: {', '.join(ADAPTERS)} "
              "(preset takes NAME LOW HIGH, uncancelled CARD)", file=sys.stderr)
        return 2
    adapter: ReferenceAdapter = ADAPTERS[argv[0]](*argv[1:])
    return adapter.serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
