"""``rules-ref fit``: which ruleset does an implementation play?

The adapter is told one ruleset (the default) while the reference plays
others on the same games; the search (:mod:`.search`) keeps the switch
values under which fewer differences remain, trying for each difference the
values that might explain it (:mod:`.candidates`). What is left no value
explains: a bug. The result (:class:`.search.Fit`) is rendered by
``rules_ref.cli.fit`` as text and JSON (:mod:`.summary`).
"""

from __future__ import annotations

from .candidates import Difference, alternatives, switches_of
from .search import (
    DEFAULT_EXAMPLES,
    DEFAULT_TRIALS,
    Fit,
    Search,
    Trial,
    asked_ruleset,
    better,
    fit_ruleset,
)

__all__ = ["DEFAULT_EXAMPLES", "DEFAULT_TRIALS", "Difference", "Fit", "Search", "Trial",
           "alternatives", "asked_ruleset", "better", "fit_ruleset", "switches_of"]
