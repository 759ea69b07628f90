"""An adapter written before the switches added since the protocol's first version.

It is the adapter template as first published (``adapter_template_v1.py``, a
verbatim copy of that version of ``spec/adapter-template.py``) with its TODOs
filled in by the reference engine, as an implementation of that time would
fill them: its ``hello`` declares the nine switches of that time and their
values of that time, and its ``start`` refuses a ruleset that names any other
switch, as an engine that has never heard of the switch does. The template's
own loop, handshake and batch are used unchanged. Run it as an adapter::

    python tests/conformance/v1_era_adapter.py
"""

from __future__ import annotations

import os
import sys
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.protocol.reference_adapter import ReferenceAdapter
from tests.conformance import adapter_template_v1 as template

#: The switches and values the adapter knows: those of the protocol's first version.
KNOWN: dict[str, Any] = {
    "pass_count": "any",
    "pass_cycle": [["left", "right"], ["hold"], ["right"], ["left"],
                   ["left", "right", "across", "hold"], ["across"]],
    "opening_lead": ["left-of-dealer", "left-of-dealer-no-scoring", "two-of-clubs"],
    "first_trick_points": ["allowed", "forbidden"],
    "hearts_broken_by": ["heart-or-queen", "heart", "heart-discard", "not-needed"],
    "last_trick_void": ["nobody", "leader", "split-highest-pair"],
    "moon": ["choice-26", "others-52", "others-104"],
    "ten_of_diamonds_points": "any",
    "target": "any",
}

template_hello = template.hello


def hello(request: dict[str, Any]) -> dict[str, Any]:
    """The template's hello, with the player counts and switch values filled in."""
    answer = template_hello(request)
    answer["name"] = "an adapter of the protocol's first switches"
    answer["supports"] = {"players": [6, 7, 8, 9, 10, 11], "switches": KNOWN}
    return answer


class FilledAdapter(template.Adapter):
    """The template's Adapter, its game the reference engine's."""

    def __init__(self) -> None:
        super().__init__()
        self.engine = ReferenceAdapter()

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        if "position" in request:
            return self.start_position(request)
        ruleset = request.get("ruleset")
        unknown = sorted(set(ruleset) - set(KNOWN)) if isinstance(ruleset, dict) else []
        if unknown:
            return template.rejected(f"unknown switch(es): {', '.join(unknown)}")
        answer = self.engine.start(request)
        self.game = self.engine.state
        return answer

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if self.game is None:
            return template.rejected("no game started")
        answer = self.engine.apply(action)
        self.game = self.engine.state
        return answer


def command() -> list[str]:
    """The command that runs the adapter."""
    return [sys.executable, os.path.realpath(__file__)]


def main() -> int:
    template.hello = hello
    template.Adapter = FilledAdapter  # type: ignore[misc]
    return template.main()


if __name__ == "__main__":
    sys.exit(main())
