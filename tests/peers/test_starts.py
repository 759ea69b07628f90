"""The starts each harness refuses, before it asks the engine anything (no engine needed)."""

from __future__ import annotations

from typing import Any

from peers.allanh.engine import AllanhEngine
from peers.crcowan.engine import CrcowanEngine


def passing(passes: list[list[str] | None]) -> dict[str, Any]:
    return {"phase": "passing", "hands": [[] for _ in passes], "passes": passes}


def test_allanh_refuses_a_position_where_a_seat_has_passed_a_two_of_clubs() -> None:
    page = AllanhEngine.__new__(AllanhEngine)  # no page: the refusal comes first
    passes: list[list[str] | None] = [None] * 8
    passes[3] = ["2C", "8C", "KC"]
    assert page.start_position(passing(passes)) == {
        "type": "rejected",
        "reason": "the page refuses to pass the 2♣",
        "rule": "PASS.CARDS",
    }
    assert page.start_position({"phase": "moon-choice"})["rule"] == "MOON.CHOICE"


def test_crcowan_refuses_a_position_between_deals_or_at_a_moon_choice_and_nothing_else() -> None:
    assert CrcowanEngine.unreachable({"phase": "dealing"})["rule"] == "DEAL.DEALER"  # type: ignore[index]
    assert CrcowanEngine.unreachable({"phase": "moon-choice"})["rule"] == "MOON.CHOICE"  # type: ignore[index]
    assert CrcowanEngine.unreachable({"phase": "playing"}) is None
    assert CrcowanEngine.unreachable(None) is None  # a start from a deal


def test_a_refused_crcowan_start_leaves_the_game_before_as_it_was() -> None:
    engine = CrcowanEngine.__new__(CrcowanEngine)
    engine.declare, engine.n, engine.cycle = "preset", 8, ["hold"]
    request = {
        "players": 5,
        "ruleset": {"pass_cycle": ["left", "right", "across", "hold"], "target": 100},
        "position": {"phase": "dealing"},
    }
    assert engine.start(request)["rule"] == "DEAL.DEALER"
    assert (engine.n, engine.cycle) == (8, ["hold"])


def test_crcowan_hands_back_the_passes_of_the_hold_deals_the_engine_plays() -> None:
    # declaring the default, the engine is told left,right and plays its own cycle: its 4th
    # deal holds, and the harness must hand the passes it still waits for back there
    engine = CrcowanEngine.__new__(CrcowanEngine)
    engine.start_position = lambda position, opts: {"type": "observation"}  # type: ignore[method-assign]
    default = {"players": 8, "ruleset": {"pass_cycle": ["left", "right"]},
               "position": {"phase": "playing"}}
    for declare, ruleset, cycle in (
            ("default", {"pass_cycle": ["left", "right"]}, ["left", "right", "across", "hold"]),
            ("preset", {"pass_cycle": ["hold"], "target": 100}, ["hold"])):
        engine.declare = declare
        assert engine.start({**default, "ruleset": ruleset}) == {"type": "observation"}
        assert engine.cycle == cycle
