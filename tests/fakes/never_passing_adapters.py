"""Implementations that never pass, declared as a first-time implementer declares them.

An engine written for a game without passing deals every hand straight into
the first trick: whatever the deal number, it plays every deal as a deal held
(``pass_cycle = ["hold"]``), while its ``hello`` declares nothing but its player
counts, so that the runner sends the default rules, which pass every deal. It
differs from the reference at the start of every deal, before anything else
can; a run must still play its games to the end and find what it does wrong
later in a deal. Each adapter here plays some switches at other values than
the ones it is sent (:data:`PLAYS`), and answers a start from a position in the
passing phase with a rejection (it has no passing phase to start in), or, those
of :data:`CRASHING`, with an internal error:

* ``never-passes``: only that;
* ``never-passes-void-moon``: a void last trick also goes to the seat that led it
  (``last_trick_void = leader``, ``VOID.LAST``), and a moon is scored without a
  choice, every other seat +52 (``moon = others-52``, ``MOON.CHOICE``);
* ``never-passes-crashing-void-moon``: the same, crashing where it rejected.

:func:`adapter` builds one speaking protocol version 2 (every capability) or 1.
They change nothing outside themselves, so a test can run them in its own
process. ``never-passes+BUG`` adds a bug of :mod:`tests.fakes.broken_adapters`,
which replaces an engine function: run only as a script, for measuring a
population of engines. Run one as::

    python tests/fakes/never_passing_adapters.py never-passes-void-moon
    python tests/fakes/never_passing_adapters.py never-passes+cancel-ignored --protocol 1
"""

from __future__ import annotations

import os
import sys
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.deal import FEWEST_PLAYERS, MAX_PLAYERS
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from tests.fakes.adapter_script import script_command

#: Every adapter: name -> the switch values it plays, whatever the ruleset it is sent.
PLAYS: dict[str, dict[str, Any]] = {
    "never-passes": {"pass_cycle": ["hold"]},
    "never-passes-void-moon": {"pass_cycle": ["hold"], "last_trick_void": "leader",
                               "moon": "others-52"},
    "never-passes-crashing-void-moon": {"pass_cycle": ["hold"], "last_trick_void": "leader",
                                        "moon": "others-52"},
}
#: The adapters that answer a start from a passing position with an internal error.
CRASHING = frozenset({"never-passes-crashing-void-moon"})

#: The divergence classes a run against each must report: (rule, what differs).
CLASSES: dict[str, list[tuple[str, str]]] = {
    "never-passes": [("PASS.DIRECTION", "differs on passing direction by deal")],
    "never-passes-void-moon": [("MOON.CHOICE", "differs on the shooter's choice"),
                               ("PASS.DIRECTION", "differs on passing direction by deal"),
                               ("VOID.LAST",
                                "differs on cards still pending at the end of a deal")],
}
CLASSES["never-passes-crashing-void-moon"] = CLASSES["never-passes-void-moon"]


class NeverPassing(ReferenceAdapter):
    """The reference adapter playing every deal without passing (and the switch values of
    ``plays``), declaring only its player counts."""

    def __init__(self, plays: dict[str, Any], protocol: int = 2, crashes: bool = False) -> None:
        super().__init__(protocol)
        self.plays = plays
        self.crashes = crashes

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = super().hello(request)
        answer["supports"] = {"players": list(range(FEWEST_PLAYERS + 1, MAX_PLAYERS + 1))}
        return answer

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        position = msg.get("position")
        if isinstance(position, dict) and position.get("phase") == "passing":
            self.state = None
            if self.crashes:
                return {"type": "error", "message": "internal error: no passing phase"}
            return {"type": "rejected", "reason": "this engine has no passing phase"}
        ruleset = msg.get("ruleset")
        if isinstance(ruleset, dict):
            msg = {**msg, "ruleset": {**ruleset, **self.plays}}
        return super().start(msg)


def adapter(name: str, protocol: int = 2) -> NeverPassing:
    """Adapter ``name`` itself, speaking at most protocol version ``protocol``."""
    built = NeverPassing(PLAYS[name], protocol, name in CRASHING)
    built.name = f"never-passing adapter {name}"
    return built


def command(name: str, protocol: int = 2) -> list[str]:
    """The command that runs adapter ``name`` (``never-passes+BUG`` too)."""
    return [*script_command(__file__, name), *(["--protocol", "1"] if protocol == 1 else [])]


def main(argv: list[str]) -> int:
    protocol = 2
    if argv[1:] == ["--protocol", "1"]:
        protocol, argv = 1, argv[:1]
    name = argv[0] if len(argv) == 1 else ""
    base, _, bug = name.partition("+")
    from tests.fakes.broken_adapters import BREAK

    if base not in PLAYS or (bug and bug not in BREAK):
        print(f"usage: {os.path.basename(__file__)} NAME[+BUG] [--protocol 1]; NAME is one "
              f"of: {', '.join(PLAYS)}; BUG one of tests/fakes/broken_adapters.py",
              file=sys.stderr)
        return 2
    if bug:
        BREAK[bug]()
    served = adapter(base, protocol)
    served.name = f"never-passing adapter {name}"
    return served.serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
