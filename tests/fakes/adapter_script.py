"""The command line of the test adapters that run as scripts: how each is started and named.

Each file of broken adapters in this folder runs as ``python FILE NAME``; these functions
are its ``command``, the check of the name it was given, and its ``main``: the adapter of
that name served on the standard streams.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Sequence

from rules_ref.protocol.reference_adapter import ReferenceAdapter


def script_command(script: str, name: str) -> list[str]:
    """The command that runs adapter ``name`` of the adapter script at ``script``."""
    return [sys.executable, os.path.realpath(script), name]


def chosen_name(argv: Sequence[str], names: Collection[str], script: str) -> str | None:
    """The adapter named on the command line, or ``None`` after printing the usage."""
    if len(argv) == 1 and argv[0] in names:
        return argv[0]
    print(f"usage: {os.path.basename(script)} NAME; NAME is one of: {', '.join(names)}",
          file=sys.stderr)
    return None


def serve_chosen(argv: Sequence[str], names: Collection[str], script: str,
                 build: Callable[[str], ReferenceAdapter], title: Callable[[str], str]) -> int:
    """The ``main`` of an adapter script: the adapter ``build(name)`` for the name given on
    the command line, named ``title(name)``, served on the standard streams (2: no name)."""
    name = chosen_name(argv, names, script)
    if name is None:
        return 2
    adapter = build(name)
    adapter.name = title(name)
    return adapter.serve(sys.stdin, sys.stdout)
