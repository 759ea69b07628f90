"""The command line of the test adapters that run as scripts: how each is started and named.

Each file of broken adapters in this folder runs as ``python FILE NAME``; these two functions
are its ``command`` and the check of the name it was given.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Collection, Sequence


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
