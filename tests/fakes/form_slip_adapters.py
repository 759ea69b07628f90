"""Adapters that play every rule as the reference does and write an answer in another form.

Each changes one field of every observation it sends, the way an adapter written in
haste does (``spec/protocol.md``, "The observation", fixes the form):

* ``hands-own-order``: every hand in the engine's own order (spades first, high to low);
* ``legal-both-copies``: ``legal`` lists a card twice when the seat holds both copies;
* ``last-trick-cleared``: ``last_trick`` cleared as soon as a card is on the table;
* ``pending-own-order``: the pending pile in the order the engine keeps it (reversed).

``rules-ref conform`` and ``rules-ref vectors run`` must report each once, as an answer
not in the protocol's form (an adapter fault of kind ``form``), never as a rule. Run one as
an adapter::

    python tests/fakes/form_slip_adapters.py hands-own-order
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.state import GameState
from tests.fakes.adapter_script import script_command, serve_chosen


def _hands(obs: dict[str, Any]) -> dict[str, Any]:
    if obs.get("hands") is None:
        return obs
    return {**obs, "hands": [list(reversed(h)) for h in obs["hands"]]}


def _legal(obs: dict[str, Any]) -> dict[str, Any]:
    legal, hands, seat = obs.get("legal"), obs.get("hands"), obs.get("to_act")
    if obs.get("phase") != "playing" or not legal or hands is None or seat is None:
        return obs
    held = hands[seat]
    return {**obs, "legal": [c for card in legal for c in [card] * held.count(card)]}


def _last_trick(obs: dict[str, Any]) -> dict[str, Any]:
    return {**obs, "last_trick": None} if obs.get("trick") else obs


def _pending(obs: dict[str, Any]) -> dict[str, Any]:
    return {**obs, "pending": list(reversed(obs.get("pending") or []))}


#: Every adapter: name -> how it rewrites an observation.
SLIPS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "hands-own-order": _hands,
    "legal-both-copies": _legal,
    "last-trick-cleared": _last_trick,
    "pending-own-order": _pending,
}


class FormSlip(ReferenceAdapter):
    """The reference, sending each observation through one rewrite of its form."""

    def __init__(self, rewrite: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        super().__init__()
        self.rewrite = rewrite

    def observe(self, state: GameState) -> dict[str, Any]:
        return self.rewrite(super().observe(state))

    def observe_step(self, before: GameState, after: GameState) -> dict[str, Any]:
        return self.rewrite(super().observe_step(before, after))


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return script_command(__file__, name)


def main(argv: list[str]) -> int:
    return serve_chosen(argv, SLIPS, __file__, lambda name: FormSlip(SLIPS[name]),
                        lambda name: f"form slip: {name}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
