"""Implementations wrong only at the edge of what the rules allow (conform.edge_tables).

Each is the reference adapter with one boundary off by one, as a real
engine might have it; the games a conform run draws rarely reach either:

* ``pass-edge-refused``: under ``pass_forbidden = two-of-clubs`` refuses a
  ``pass_count`` of the hand size less 2, which the rules allow
  (``PASS.CARDS``);
* ``dealer-searched-first``: under ``opening_lead = two-of-clubs`` looks for
  the 2♣ at the dealer first, where the rules look there last
  (``LEAD.OPENING_LEADER``).

Run one as::

    python tests/fakes/edge_table_adapters.py pass-edge-refused
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.cards import TWO_OF_CLUBS, Card
from rules_ref.deal import hand_size
from rules_ref.errors import SetupError
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.ruleset import OpeningLead, PassForbidden, Ruleset
from tests.fakes.adapter_script import script_command, serve_chosen
from tests.fakes.broken_adapters import replace


def _pass_edge_refused() -> None:
    def check(ruleset: Ruleset, players: int) -> None:
        if ruleset.pass_forbidden is not PassForbidden.NONE and \
                ruleset.pass_count >= hand_size(players) - 2:
            raise SetupError(f"pass_count {ruleset.pass_count} is too many", "PASS.CARDS")
    replace("rules_ref.passing", "check_pass_forbidden", lambda _: check)


def _dealer_searched_first() -> None:
    def make(original: Callable[..., int]) -> Callable[..., int]:
        def leader(dealer: int, hands: Sequence[Sequence[Card]], ruleset: Ruleset,
                   dealt: Sequence[Sequence[Card]] | None = None) -> int:
            if ruleset.opening_lead is OpeningLead.TWO_OF_CLUBS and TWO_OF_CLUBS in hands[dealer]:
                return dealer
            return original(dealer, hands, ruleset, dealt)
        return leader
    replace("rules_ref.leading", "opening_leader", make)


#: Every adapter: name -> (the fault it brings in, the rule its divergence must name).
FAULTS: dict[str, tuple[Callable[[], None], str]] = {
    "pass-edge-refused": (_pass_edge_refused, "PASS.CARDS"),
    "dealer-searched-first": (_dealer_searched_first, "LEAD.OPENING_LEADER"),
}


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return script_command(__file__, name)


def _adapter(name: str) -> ReferenceAdapter:
    FAULTS[name][0]()
    return ReferenceAdapter()


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], FAULTS, __file__, _adapter,
                          lambda name: f"edge-table adapter {name} ({FAULTS[name][1]})"))
