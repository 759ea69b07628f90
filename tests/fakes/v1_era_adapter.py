"""An adapter written before the switches added since the protocol's first version.

It is the adapter template (``spec/adapter-template.py``, loaded from its file:
its code is the code first published, only its comments have grown) with its
TODOs filled in by the reference engine, as an implementation of that time
would fill them: its ``hello`` declares the nine switches of that time and
their values of that time, and its ``start`` refuses a ruleset that names any
other switch, as an engine that has never heard of the switch does. The
template's own loop, handshake and batch are used unchanged. Run it as an
adapter::

    python tests/fakes/v1_era_adapter.py
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.protocol.reference_adapter import ReferenceAdapter

#: The adapter template, where spec/implementing.md publishes it.
TEMPLATE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))), "spec", "adapter-template.py")


def _template() -> ModuleType:
    found = importlib.util.spec_from_file_location("adapter_template", TEMPLATE)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


#: Loaded from its file (its name is no module name), so its names are typed Any here.
template: Any = _template()
rejected: Callable[[str], dict[str, Any]] = template.rejected

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

template_hello: Callable[[dict[str, Any]], dict[str, Any]] = template.hello


def hello(request: dict[str, Any]) -> dict[str, Any]:
    """The template's hello, with the player counts and switch values filled in."""
    answer = template_hello(request)
    answer["name"] = "an adapter of the protocol's first switches"
    answer["supports"] = {"players": [6, 7, 8, 9, 10, 11], "switches": KNOWN}
    return answer


class FilledAdapter(template.Adapter):  # type: ignore[misc]
    """The template's Adapter, its game the reference engine's."""

    def __init__(self) -> None:
        super().__init__()
        self.engine = ReferenceAdapter()

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        if "position" in request:
            answer: dict[str, Any] = self.start_position(request)
            return answer
        ruleset = request.get("ruleset")
        unknown = sorted(set(ruleset) - set(KNOWN)) if isinstance(ruleset, dict) else []
        if unknown:
            return rejected(f"unknown switch(es): {', '.join(unknown)}")
        answer = self.engine.start(request)
        self.game = self.engine.state
        return answer

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        if self.game is None:
            return rejected("no game started")
        answer = self.engine.apply(action)
        self.game = self.engine.state
        return answer


def command() -> list[str]:
    """The command that runs the adapter."""
    return [sys.executable, os.path.realpath(__file__)]


def main() -> int:
    template.hello = hello
    template.Adapter = FilledAdapter
    code: int = template.main()
    return code


if __name__ == "__main__":
    sys.exit(main())
