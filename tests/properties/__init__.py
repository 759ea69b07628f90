"""Property-based and stateful tests of the engine's invariants (Hypothesis).

Costly properties take a fraction of the active profile's ``max_examples``
(profiles: ``tests/conftest.py``).
"""

from __future__ import annotations

from hypothesis import settings


def examples(fraction: float) -> int:
    """``fraction`` of the active profile's ``max_examples``, at least 1."""
    return max(1, round(settings().max_examples * fraction))
