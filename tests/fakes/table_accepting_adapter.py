"""A broken implementation that sets up every table: the reference adapter without ``check_table``.

The reference engine refuses, before anything is dealt, a ``pass_count``
that a hand holding both 2♣ cannot pass under ``pass_forbidden =
two-of-clubs`` (``PASS.CARDS``) and a ``pass_cycle`` step ``left-k`` or
``right-k`` with k at least the player count (``PASS.DIRECTION``):
:func:`rules_ref.passing.check_table`. This adapter replaces that check
with one that lets everything through, so it accepts those tables and
plays every other game exactly as the reference does. Run it as::

    python tests/fakes/table_accepting_adapter.py

``rules-ref conform`` must catch it with the tables it offers before the
games (``rules_ref.conform.refused_tables``).
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
from rules_ref.ruleset import Ruleset
from tests.fakes.broken_adapters import replace

NAME = "broken adapter table-accepting (PASS.CARDS, PASS.DIRECTION)"


def command() -> list[str]:
    """The command that runs this adapter."""
    return [sys.executable, os.path.realpath(__file__)]


def accept_every_table() -> None:
    """Replace ``check_table`` wherever the engine has imported it by a check that passes."""
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def check_table(ruleset: Ruleset, players: int) -> None:
            return None
        return check_table
    replace("rules_ref.passing", "check_table", make)


def main() -> int:
    accept_every_table()
    adapter = ReferenceAdapter()
    adapter.name = NAME
    return adapter.serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
