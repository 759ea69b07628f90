"""Implementations with several rules broken at once, for divergence classes.

Each entry of :data:`MULTI` combines bugs of :mod:`tests.fakes.broken_adapters`
in one engine: ``rules-ref conform`` must report each broken rule as its own
divergence class in one run, with a minimal example each. Run one as an
adapter::

    python tests/fakes/multi_fault_adapters.py pass-lead-suit
"""

from __future__ import annotations

import os
import sys

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.protocol.reference_adapter import ReferenceAdapter
from tests.fakes.adapter_script import script_command, serve_chosen
from tests.fakes.broken_adapters import BREAK, BROKEN

#: Every multi-fault adapter: name -> the single-fault bugs it combines.
MULTI: dict[str, tuple[str, ...]] = {
    # one bug in passing, one in leading, one in reading a trick
    "pass-lead-suit": ("pass-always-left", "dealer-leads", "led-suit-first-live"),
}


def rules_of(name: str) -> list[str]:
    """The rule IDs adapter ``name`` breaks, in the order of its bugs."""
    return [BROKEN[bug] for bug in MULTI[name]]


def command(name: str) -> list[str]:
    """The command that runs multi-fault adapter ``name``."""
    return script_command(__file__, name)


def _adapter(name: str) -> ReferenceAdapter:
    for bug in MULTI[name]:
        BREAK[bug]()
    return ReferenceAdapter()


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], MULTI, __file__, _adapter,
                          lambda name: f"multi-fault adapter {name} ({', '.join(rules_of(name))})"))
