"""Serialized states and actions: every malformed part is named by its JSON path."""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.errors import InputError
from rules_ref.jsonio.serialize import (
    MAX_STATE_ACTIONS,
    action_from_json,
    describe_action_json,
    state_from_json,
    state_to_json,
)
from rules_ref.players.game import play_game
from rules_ref.wording import brief


class _Unprintable:
    def __repr__(self) -> str:
        raise RecursionError


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return state_to_json(play_game(6, seed=4))


def test_brief() -> None:
    assert brief(_Unprintable()) == "<_Unprintable>"
    assert brief("x" * 50) == repr("x" * 50)[:40] + "…"
    assert brief([1]) == "[1]"


@pytest.mark.rule("MOON.CHOICE")
def test_a_moon_choice_must_be_subtract_or_add() -> None:
    with pytest.raises(InputError, match=r"^action\.choice: 'double' is not one of subtract, add$"):
        action_from_json({"type": "moon", "seat": 0, "choice": "double"}, "action")


def test_a_state_document_is_checked_part_by_part(document: dict[str, Any]) -> None:
    assert state_to_json(state_from_json(document)) == document

    def broken(**changes: Any) -> str:
        with pytest.raises(InputError) as caught:
            state_from_json({**document, **changes})
        return str(caught.value)

    assert broken(initial_totals="0") == "state.initial_totals: expected a list of integers"
    assert broken(initial_totals=[0, 0, 0, 0, 0, True]) == (
        "state.initial_totals: expected a list of integers")
    assert broken(players=5).startswith("state: ")
    assert "PLAYERS.COUNT" in broken(players=5)
    assert broken(actions={}) == "state.actions: expected a list"
    assert broken(actions=[0] * (MAX_STATE_ACTIONS + 1)) == (
        f"state.actions: {MAX_STATE_ACTIONS + 1} actions, more than {MAX_STATE_ACTIONS}")
    summary = {**document["summary"], "deal_number": 99}
    assert broken(summary=summary) == (
        "state.summary: does not match the state its actions produce")


def test_describe_action_json() -> None:
    assert describe_action_json({"type": "deal"}) == "the next deal is dealt"
    assert describe_action_json({"type": "moon", "seat": 3, "choice": "add"}) == (
        "seat 3 chooses moon option add")
    assert describe_action_json({"type": "shuffle"}) == "{'type': 'shuffle'}"
