"""The reference adapter, writing its ``changes`` answers in other ways the protocol allows, or not.

Run one as an adapter::

    python tests/fakes/changes_adapters.py whole-hands

``spec/protocol.md`` lets a ``changes`` answer hold more than what changed
and give ``hands`` whole; the runner judges the observation such an answer
stands for, as it judges its own adapter's. Leaving out a field that
changed is a difference in that field.
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
from tests.fakes.adapter_script import script_command, serve_chosen

Answer = dict[str, Any]


def _whole_hands(changes: Answer, observation: Answer) -> Answer:
    """``hands`` as the whole list, wherever a hand changed."""
    if "hands" in changes:
        changes["hands"] = observation["hands"]
    return changes


def _with_unchanged(changes: Answer, observation: Answer) -> Answer:
    """The phase, the totals and the trick in every answer, changed or not."""
    return {**changes, **{f: observation[f] for f in ("phase", "totals", "trick")}}


def _to_act_left_out(changes: Answer, observation: Answer) -> Answer:
    """The seat to act never said, though it changes at almost every play."""
    changes.pop("to_act", None)
    return changes


#: Every adapter: name -> how it writes a changes answer from the reference's.
ADAPTERS: dict[str, Callable[[Answer, Answer], Answer]] = {
    "whole-hands": _whole_hands,
    "with-unchanged": _with_unchanged,
    "to-act-left-out": _to_act_left_out,
}


class _Written(ReferenceAdapter):
    def __init__(self, write: Callable[[Answer, Answer], Answer]) -> None:
        super().__init__()
        self.write = write

    def changes(self, observation: Answer) -> Answer:
        changes = super().changes(observation)
        if changes.get("type") != "changes":
            return changes
        return self.write(changes, observation)


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return script_command(__file__, name)


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], ADAPTERS, __file__,
                          lambda name: _Written(ADAPTERS[name]),
                          lambda name: f"reference adapter, changes {name}"))
