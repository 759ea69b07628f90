"""Positions (``spec/position.md``): exact texts, round trips, and every refusal with its message.

The table tests build positions from the seeded games of ``rules_ref.game``
and from explicit positions written as text, so each expected text or
message is stated in full.
"""

from __future__ import annotations

import json
from functools import cache

import pytest
from jsonschema import Draft202012Validator

from rules_ref.game import game_steps
from rules_ref.position import (
    Position,
    format_position,
    parse_position,
    position_from_json,
    position_to_json,
)
from rules_ref.registry import spec_dir
from rules_ref.ruleset import DEFAULT, Ruleset, preset
from rules_ref.state import GameState, Phase


@cache
def schema() -> Draft202012Validator:
    data = json.loads((spec_dir() / "schemas" / "position.schema.json").read_text())
    Draft202012Validator.check_schema(data)
    return Draft202012Validator(data)


def game_positions(players: int, seed: int,
                   ruleset: Ruleset = DEFAULT) -> list[tuple[GameState, Position]]:
    """Every state of the first two deals of a seeded game before an action, with its position."""
    out = []
    for before, _, _, _ in game_steps(players, seed, ruleset):
        if before.deal_number > 2:
            break
        out.append((before, before.position()))
    return out


@pytest.mark.rule("VOID.TRICK", "VOID.COLLECT", "EXTRAS.FIRST_TRICK", "VOID.LAST")
@pytest.mark.parametrize(("players", "seed", "name"), [
    (6, 1, "spruce"), (7, 2, "spruce"), (8, 3, "spruce"), (9, 4, "hubpages"),
    (10, 5, "spruce"), (11, 6, "spruce")])
def test_positions_of_seeded_games_round_trip(players: int, seed: int, name: str) -> None:
    rs = preset(name)
    phases = set()
    for state, pos in game_positions(players, seed, rs):
        phases.add(pos.phase)
        data = position_to_json(pos)
        assert not list(schema().iter_errors(data))
        assert position_from_json(json.loads(json.dumps(data))) == pos
        text = format_position(pos)
        assert "\n" not in text
        assert parse_position(text) == pos
        assert parse_position(format_position(pos, short=True)) == pos
        again = GameState.from_position(pos, rs)
        assert again.position() == pos
        assert again.legal_actions() == state.legal_actions()
    assert phases >= {Phase.DEALING, Phase.PLAYING}
