"""Rulesets built in code (not read from JSON) are checked as strictly as those read."""

from __future__ import annotations

import pytest

from rules_ref.errors import InputError
from rules_ref.ruleset import PassDirection, Ruleset


class _Unprintable:
    def __repr__(self) -> str:
        raise ValueError("no text")


@pytest.mark.rule("PASS.DIRECTION")
def test_a_custom_ruleset_is_described_by_what_differs() -> None:
    rs = Ruleset(pass_cycle=(PassDirection.LEFT, PassDirection.HOLD), target=99)
    assert rs.describe() == "custom: pass_cycle=left,hold, target=99"


CYCLE_PROBLEM = ("pass_cycle must be 1 to 16 of left, right, across, hold, or left-k or right-k "
                 "(k seats away, k from 2 to 10)")


@pytest.mark.parametrize(("switches", "problem"), [
    ({"pass_cycle": ("hold",)}, CYCLE_PROBLEM),
    ({"pass_cycle": ()}, CYCLE_PROBLEM),
    ({"opening_lead": "x"}, "opening_lead must be one of left-of-dealer, "
                            "left-of-dealer-no-scoring, two-of-clubs, "
                                "two-of-clubs-dealt"),
    ({"ten_of_diamonds_points": True}, "ten_of_diamonds_points must be an integer from "
                                       "-1000 to 1000"),
    ({"ten_of_diamonds_points": 1001}, "ten_of_diamonds_points must be an integer from "
                                       "-1000 to 1000"),
    ({"pass_count": _Unprintable()}, "pass_count must be an integer from 1 to 9, got "
                                     "<_Unprintable>"),
])
def test_a_bad_switch_is_named(switches: dict[str, object], problem: str) -> None:
    with pytest.raises(InputError) as caught:
        Ruleset(**switches)  # type: ignore[arg-type]
    assert str(caught.value) == f"bad ruleset: {problem}"
