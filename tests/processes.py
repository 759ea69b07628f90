"""Process checks shared by the tests that start adapters."""

from __future__ import annotations

import os
from pathlib import Path


def gone(pid: int) -> bool:
    """True once process ``pid`` has ended (a zombie not yet reaped counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in status
