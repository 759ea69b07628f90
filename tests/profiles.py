"""The test profile, chosen by the environment variable ``RULES_REF_HYPOTHESIS_PROFILE``:
``ci`` (the default: fast and repeatable) or ``thorough`` (for hunting bugs: more examples,
and the checks that CI runs on a fixed sample run on everything). :mod:`tests.conftest`
loads the Hypothesis profile of the same name.
"""

from __future__ import annotations

import os

VARIABLE = "RULES_REF_HYPOTHESIS_PROFILE"
NAMES = ("ci", "thorough")


def chosen() -> str:
    """The profile this run uses."""
    return os.environ.get(VARIABLE, "ci")


def thorough() -> bool:
    """Whether this run checks everything, not a fixed sample."""
    return chosen() == "thorough"
