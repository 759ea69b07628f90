"""Each engine's preset says what its harness declares the engine plays, value by value."""

from __future__ import annotations

from typing import Any

import pytest

from peers.allanh.engine import PLAYS as ALLANH
from peers.crcowan.engine import PLAYS as CRCOWAN
from peers.known import ENGINES, expect_path, expect_text
from peers.report import preset_values
from rules_ref.ruleset import DEFAULT, preset

PLAYS = {"allanh": ALLANH, "crcowan": CRCOWAN}


def declared(values: Any) -> list[Any]:
    return [list(v) if isinstance(v, (list, tuple)) else v for v in values]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_value_the_preset_sets_is_one_the_harness_declares(engine: str) -> None:
    for switch, value in preset_values(engine).items():
        assert value in declared(PLAYS[engine][switch]), (switch, value)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_switch_the_preset_leaves_at_its_default_is_declared_at_its_default_or_not_at_all(
    engine: str,
) -> None:
    mine, default = preset(engine).to_dict(), DEFAULT.to_dict()
    for switch, values in PLAYS[engine].items():
        if mine[switch] == default[switch]:
            assert default[switch] in declared(values), switch


def test_the_presets_say_what_the_engines_were_found_to_play() -> None:
    assert preset_values("crcowan") == {
        "min_players": 5,
        "pass_cycle": ["left", "right", "across", "hold"],
        "first_trick_points": "forbidden-even-following",
        "hearts_broken_by": "heart",
        "target": 100,
    }
    assert preset_values("allanh")["first_trick_points"] == "forbidden-even-following"
    assert CRCOWAN["target"] == [50, 100, 150, 200] and ALLANH["target"] == [100, 150, 200]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_committed_expectations_file_is_written_from_known_toml(engine: str) -> None:
    assert expect_path(engine).read_text(encoding="utf-8") == expect_text(engine)
