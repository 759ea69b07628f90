"""An engine whose dealer makes only some deals, declared in its hello: the reference otherwise.

Its dealer puts both 2♣ in two different hands and gives every hand a card other than a
heart or Q♠ (the deal constraints ``two-of-clubs-apart``, ``two-of-clubs-dealt`` and
``no-hand-of-only-points`` of ``spec/deal.md``, section 8). It plays every rule as the
reference does, but refuses a ``start`` with a deal its dealer never makes, and crashes (the
process exits) on a ``deal`` action of such a deal. Run one as an adapter::

    python tests/fakes/constrained_dealer.py NAME

* ``constrained-dealer``: protocol version 2, every capability, 6 to 11 players;
* ``constrained-dealer-v1``: protocol version 1 (no position), 6 to 11 players;
* ``undeclared-dealer``: the same dealer, but its hello declares only
  ``two-of-clubs-dealt``, and it rejects (without crashing) a ``deal`` action it never
  makes: the deals it refuses beyond what it declares are a difference from the rules.
"""

from __future__ import annotations

import os
import sys
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.cards import parse_card
from rules_ref.deal import DEAL_CONSTRAINTS, broken_constraints, check_deal
from rules_ref.errors import RulesRefError
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.state_parts import Phase

#: What the dealer of this engine keeps: every constraint of the closed list.
KEPT = tuple(DEAL_CONSTRAINTS)
#: The exit status of the crash on a deal it never makes.
CRASH = 70


def _broken(hands: Any, extras: Any) -> tuple[str, ...]:
    """The constraints of :data:`KEPT` a deal (JSON form) breaks; () when it is no valid
    deal (the rules reject it, as the reference does)."""
    try:
        parsed = [[parse_card(c) for c in hand] for hand in hands]
        rest = [parse_card(c) for c in extras]
        check_deal(parsed, rest, len(parsed))
    except (TypeError, RulesRefError):
        return ()
    return broken_constraints(parsed, rest, KEPT)


class ConstrainedDealer(ReferenceAdapter):
    """The reference, whose dealer makes only the deals that keep :data:`KEPT`."""

    declared: tuple[str, ...] = KEPT
    #: Whether a ``deal`` action of a deal it never makes ends the process (else: rejected).
    crashes = True

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        return {**super().hello(request), "supports": {
            "players": list(range(6, 12)), "deal_constraints": list(self.declared)}}

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        broken = () if "position" in msg else _broken(msg.get("hands"), msg.get("extras"))
        if broken:
            return {"type": "rejected", "reason": f"this engine never deals that ({broken[0]})"}
        return super().start(msg)

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        action = msg.get("action")
        if (isinstance(action, dict) and action.get("type") == "deal"
                and self.state is not None and self.state.phase is Phase.DEALING
                and _broken(action.get("hands"), action.get("extras"))):
            if self.crashes:
                os._exit(CRASH)
            return {"type": "rejected", "reason": "this engine never deals that"}
        return super().act(msg)


class ConstrainedDealerV1(ConstrainedDealer):
    def __init__(self) -> None:
        super().__init__(1)


class UndeclaredDealer(ConstrainedDealer):
    declared = ("two-of-clubs-dealt",)
    crashes = False


ADAPTERS: dict[str, Any] = {
    "constrained-dealer": ConstrainedDealer,
    "constrained-dealer-v1": ConstrainedDealerV1,
    "undeclared-dealer": UndeclaredDealer,
}


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return [sys.executable, os.path.realpath(__file__), name]


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ADAPTERS:
        print(f"usage: constrained_dealer.py NAME; NAME is one of: {', '.join(ADAPTERS)}",
              file=sys.stderr)
        return 2
    adapter: ReferenceAdapter = ADAPTERS[argv[0]]()
    return adapter.serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
