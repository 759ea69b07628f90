"""Implementations that play every game right and fail only when started from a position.

An engine that builds its set-aside pile, its extras and its moon choice
from the tricks it played itself may still get them wrong when a position
hands them over ready-made. No divergence ever leads a conform run to send
such an engine a position, so the run starts it again from positions by
itself (:mod:`rules_ref.conform.position_starts`). Each adapter here is
the reference adapter with one such fault:

* ``refuses-set-aside``: rejects a start from a position whose pending pile
  holds set-aside cards, with no rule (an engine that keeps no pile it did
  not build);
* ``moon-choice-crash``: fails with an internal error on a start from a
  position in the moon choice.

Run one as::

    python tests/fakes/position_adapters.py refuses-set-aside
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


def _refuses_set_aside(msg: dict[str, Any]) -> dict[str, Any] | None:
    if msg["position"].get("pending"):
        return {"type": "rejected", "reason": "a start with set-aside cards is not supported"}
    return None


def _moon_choice_crash(msg: dict[str, Any]) -> dict[str, Any] | None:
    if msg["position"].get("phase") == "moon-choice":
        return {"type": "error", "message": "KeyError: 'shooter'"}
    return None


#: Every adapter: name -> (its answer to a start from a position, or None to play it right;
#: the rule its divergence class must name; the words of that class).
FAULTS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any] | None], str, str]] = {
    "refuses-set-aside": (_refuses_set_aside, "VOID.TRICK", "rejects a position the rules reach"),
    "moon-choice-crash": (_moon_choice_crash, "MOON.CHOICE",
                          "reports an internal error on a start from a position"),
}


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return script_command(__file__, name)


class PositionFaultAdapter(ReferenceAdapter):
    """The reference adapter, answering some starts from a position its own way."""

    fault: Callable[[dict[str, Any]], dict[str, Any] | None] = staticmethod(
        lambda msg: None)

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        if "position" in msg and isinstance(msg["position"], dict):
            answer = self.fault(msg)
            if answer is not None:
                self.state = None
                return answer
        return super().start(msg)


def _title(name: str) -> str:
    return f"broken adapter {name} (starts from a position)"


def adapter(name: str) -> PositionFaultAdapter:
    """Adapter ``name`` itself, named as its command names it."""
    built = PositionFaultAdapter()
    built.fault = FAULTS[name][0]
    built.name = _title(name)
    return built


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], FAULTS, __file__, adapter, _title))
