"""The default time budgets of ``rules-ref conform`` (searching, then shrinking).

Kept apart, without imports, so that the command line can show them in its
help without loading the conformance kit.
"""

from __future__ import annotations

#: The default time budget of the search (seconds): it plays games until then.
DEFAULT_MAX_SECONDS = 8.0
#: The least time a run spends shrinking its divergence classes (seconds), by default.
SHRINK_SECONDS_MIN = 5.0


def shrink_budget(max_seconds: float, shrink_seconds: float | None) -> float:
    """The shrinking budget: ``--shrink-seconds``, else half the search's, at least the least."""
    if shrink_seconds is not None:
        return shrink_seconds
    return max(SHRINK_SECONDS_MIN, max_seconds / 2)
