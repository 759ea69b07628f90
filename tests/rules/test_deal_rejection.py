"""The portable shuffle's rejection step (``spec/deal.md``), on a state built to need it.

An output at or above the largest multiple of ``m`` below 2**64 is drawn
again; such outputs are about one in 10**17, so no seeded game meets one.
The state below is built by running SplitMix64's output function backwards
from the largest output, 2**64 - 1.
"""

from __future__ import annotations

import pytest

from rules_ref.deal import GOLDEN_GAMMA, MASK64, draw_below, splitmix64_step

_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _unshift(z: int, shift: int) -> int:
    """The inverse of ``z ^ (z >> shift)`` on 64 bits."""
    out = z
    for _ in range(64 // shift + 1):
        out = z ^ (out >> shift)
    return out & MASK64


def _state_before(output: int) -> int:
    """The state whose next SplitMix64 step outputs ``output``."""
    z = _unshift(output, 31)
    z = _unshift((z * pow(_M2, -1, 1 << 64)) & MASK64, 27)
    z = _unshift((z * pow(_M1, -1, 1 << 64)) & MASK64, 30)
    return (z - GOLDEN_GAMMA) & MASK64


@pytest.mark.rule("DEAL.SOURCE")
def test_an_output_past_the_last_whole_multiple_is_drawn_again() -> None:
    start = _state_before(MASK64)
    first_state, first = splitmix64_step(start)
    assert first == MASK64
    assert MASK64 >= (1 << 64) - (1 << 64) % 104  # past the last whole multiple of 104
    second_state, second = splitmix64_step(first_state)
    assert draw_below(start, 104) == (second_state, second % 104)
    assert draw_below(start, 64) == (first_state, MASK64 % 64)  # 64 divides 2**64: no rejection
