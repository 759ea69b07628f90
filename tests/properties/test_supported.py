"""One definition of "supported": the rulesets drawn for an adapter are the ones the runner allows.

:func:`rules_ref.strategies.rulesets` and :meth:`Supports.allows`
both use :func:`rules_ref.protocol.handshake.unsupported_switches`; a
listed switch is supported at the listed values only, even when the list
leaves out its default.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules_ref import strategies as S
from rules_ref.protocol.handshake import Supports, unsupported_switches
from rules_ref.ruleset import Moon, Ruleset, presets
from rules_ref.strategies.setups import _inside

#: Declarations whose lists leave out the switch's default (and one that keeps it).
DECLARATIONS: tuple[dict[str, Any], ...] = (
    {"moon": ["others-52"]},
    {"moon": ["others-52", "others-104"], "pass_count": [2]},
    {"target": [100], "ten_of_diamonds_points": [-10], "pass_cycle": [["hold"]]},
    {"opening_lead": "any", "first_trick_points": ["forbidden"], "last_trick_void": "any"},
    {"hearts_broken_by": ["heart"], "moon": ["choice-26", "others-52"]},
)


def _supports(switches: dict[str, Any]) -> Supports:
    return Supports("adapter", (8,), switches)


@given(data=st.data(), which=st.integers(0, len(DECLARATIONS) - 1))
def test_every_drawn_ruleset_is_allowed_by_the_runner(data: st.DataObject, which: int) -> None:
    switches = DECLARATIONS[which]
    rs = data.draw(S.rulesets(switches))
    assert _supports(switches).allows(rs) == []


def test_a_listed_switch_without_its_default_refuses_the_default() -> None:
    switches: dict[str, Any] = {"moon": ["others-52"]}
    default = Ruleset()
    assert default.moon is Moon.CHOICE_26
    assert unsupported_switches(default, switches) == ["moon=choice-26"]
    assert _supports(switches).allows(default) == ["moon=choice-26"]
    assert _inside(default, switches) is False
    others = Ruleset(moon=Moon.OTHERS_52)
    assert unsupported_switches(others, switches) == []
    assert _inside(others, switches) is True
    # a switch left out is supported at its default only
    assert unsupported_switches(Ruleset(moon=Moon.OTHERS_52, target=100), switches) == [
        "target=100"]


def test_presets_drawn_are_exactly_those_the_runner_allows() -> None:
    switches: dict[str, Any] = {"moon": ["others-52"], "pass_count": "any",
                                "pass_cycle": "any"}
    inside = sorted(name for name, rs in presets().items() if _inside(rs, switches))
    allowed = sorted(name for name, rs in presets().items()
                     if not _supports(switches).allows(rs))
    assert inside == allowed == ["boardgamegeek"]  # not spruce: its moon is choice-26
