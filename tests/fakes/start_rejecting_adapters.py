"""Implementations that reject some starts of games the rules allow, each for one cause.

Each is the reference adapter with a ``start`` that refuses the games it
cannot set up, as a real engine's set-up does (its answer ``rejected``, with
or without a rule):

* ``every-start``: every start, whatever the table (an engine not wired up yet);
* ``no-eleven``: a table of 11 players, citing ``PLAYERS.COUNT``;
* ``no-others-52``: a game under ``moon = others-52``, citing no rule;
* ``no-clubs-aside``: a deal whose two 2♣ both lie among the extras (the engine looks
  for the seat holding 2♣ while it sets the deal up), citing no rule.

Run one as::

    python tests/fakes/start_rejecting_adapters.py no-eleven
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


def _ruleset(msg: dict[str, Any]) -> dict[str, Any]:
    ruleset = msg.get("ruleset")
    return ruleset if isinstance(ruleset, dict) else {}


#: Every adapter: name -> (whether it rejects a start, the rule it cites, its reason).
REJECTS: dict[str, tuple[Callable[[dict[str, Any]], bool], str | None, str]] = {
    "every-start": (lambda msg: True, None, "this engine plays no game yet"),
    "no-eleven": (lambda msg: msg.get("players") == 11, "PLAYERS.COUNT",
                  "11 players are not supported"),
    "no-others-52": (lambda msg: _ruleset(msg).get("moon") == "others-52", None,
                     "unknown moon scoring"),
    "no-clubs-aside": (lambda msg: "position" not in msg
                       and list(msg.get("extras") or []).count("2C") == 2, None,
                       "no seat holds the 2C"),
}


class StartRejecting(ReferenceAdapter):
    """The reference adapter, rejecting the starts its ``rejects`` test picks."""

    def __init__(self, rejects: Callable[[dict[str, Any]], bool], rule: str | None,
                 reason: str) -> None:
        super().__init__()
        self.rejects, self.rule, self.reason = rejects, rule, reason

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.rejects(msg):
            self.state = None
            return {"type": "rejected", **({"rule": self.rule} if self.rule else {}),
                    "reason": self.reason}
        return super().start(msg)


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return script_command(__file__, name)


def _title(name: str) -> str:
    return f"start-rejecting adapter {name}"


def adapter(name: str) -> StartRejecting:
    """Adapter ``name`` itself, named as its command names it."""
    built = StartRejecting(*REJECTS[name])
    built.name = _title(name)
    return built


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], REJECTS, __file__, adapter, _title))
