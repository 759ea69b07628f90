"""Positions (``spec/position.md``) reached in random games, and mutated position texts.

* Every position a random deal passes through (any ruleset, adversarial
  deals included: void first tricks, pending extras, the moon, split piles;
  the crafted positions of ``crafted.py`` first)
  round-trips through its text (long and short form) and its JSON form, and
  through :func:`~rules_ref.positions.convert.state_from_position` and
  :func:`~rules_ref.positions.convert.position_of`.
* A game started from the position of a moment of another game, given the
  same remaining actions, goes on identically: the same position and the
  same observation (``spec/protocol.md``) after every action, except for
  what is history (the number of the last trick; the previous deal's
  results in the first ``dealing`` observation).
* A position text changed at random (characters edited, fields swapped,
  cards moved between places) reads as a position or is refused with the
  project's own :class:`InputError`, never another exception; what reads
  writes back to a text that reads as the same position.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from rules_ref.actions import Action
from rules_ref.errors import InputError
from rules_ref.events import Event
from rules_ref.positions.check import check_position
from rules_ref.positions.convert import (
    position_from_json,
    position_of,
    position_to_json,
    state_from_position,
)
from rules_ref.positions.text import format_position, parse_position
from rules_ref.protocol.observation import observe
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.strategies import DealPosition, deal_positions, play_out

from . import examples
from .crafted import unplayed, with_crafted_examples


def _steps(position: DealPosition) -> list[tuple[GameState, Action]]:
    """Every (state, action) of the drawn deal, the dealing state first, and the final state."""
    steps: list[tuple[GameState, Action]] = [(position.state, position.deal)]

    def keep(before: GameState, action: Action, after: GameState,
             events: tuple[Event, ...]) -> None:
        steps.append((before, action))

    after, _ = position.state.apply(position.deal)
    play_out(after, unplayed(position.policy), keep)
    return steps


def _comparable(obs: dict[str, Any], history: bool) -> dict[str, Any]:
    """An observation without what a game started from a position cannot know."""
    out = dict(obs)
    if out["last_trick"] is not None:
        out["last_trick"] = {k: v for k, v in out["last_trick"].items() if k != "number"}
    if history:
        for name in ("dealer", "hearts_broken", "points", "deal_scores", "last_trick"):
            out.pop(name)
    return out


@pytest.mark.rule("VOID.TRICK", "VOID.COLLECT", "VOID.LAST", "EXTRAS.FIRST_TRICK",
                  "MOON.CHOICE", "PASS.EXCHANGE")
@pytest.mark.untraced  # coverage stopped: see [tool.coverage.run] in pyproject.toml
@with_crafted_examples(start=50)
@settings(max_examples=examples(0.5))
@given(position=deal_positions(), start=st.integers(0, 10**6))
def test_positions_of_random_deals_round_trip_and_play_on_identically(
        position: DealPosition, start: int) -> None:
    steps = _steps(position)
    rs = position.state.ruleset
    phases = set()
    for state, _ in steps:
        pos = position_of(state)
        phases.add(pos.phase)
        assert parse_position(format_position(pos)) == pos
        assert parse_position(format_position(pos, short=True)) == pos
        assert position_from_json(position_to_json(pos)) == pos
        assert check_position(pos, rs) is pos
        assert position_of(state_from_position(pos, rs)) == pos
    assert Phase.DEALING in phases and Phase.PLAYING in phases
    k = start % len(steps)
    original = steps[k][0]
    copy = state_from_position(position_of(original), rs)
    seen_trick = bool(copy.tricks)
    for i, (state, action) in enumerate(steps[k:]):
        assert position_of(copy) == position_of(state)
        assert copy.legal_actions() == state.legal_actions()
        first = i == 0 and state.phase is Phase.DEALING
        mine, theirs = observe(copy), observe(state)
        if not seen_trick:
            mine["last_trick"] = theirs["last_trick"] = None
        assert _comparable(mine, first) == _comparable(theirs, first)
        copy, _ = copy.apply(action)
        seen_trick = seen_trick or bool(copy.tricks)
    final = steps[-1][0].apply(steps[-1][1])[0]
    assert copy.totals == final.totals and copy.phase is final.phase
    assert copy.winners == final.winners


# --- mutated texts ------------------------------------------------------------------------------

_ALPHABET = "0123456789TJQKACDHS-/@:, abcxyz♠♥\u00e9\n"


@st.composite
def mutated_texts(draw: st.DrawFn) -> str:
    position = draw(deal_positions())
    steps = _steps(position)
    state = steps[draw(st.integers(0, len(steps) - 1))][0]
    text = format_position(position_of(state), short=draw(st.booleans()))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(("edit", "insert", "delete", "swap fields", "move card")))
        words = text.split(" ")
        if kind == "swap fields" and len(words) > 1:
            i, j = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
            text = " ".join(words)
        elif kind == "move card":
            text = _move_card(draw, text)
        elif text:
            at = draw(st.integers(0, len(text) - 1))
            ch = draw(st.sampled_from(_ALPHABET))
            text = {"edit": text[:at] + ch + text[at + 1:], "insert": text[:at] + ch + text[at:],
                    "delete": text[:at] + text[at + 1:]}.get(kind, text)
    return text


def _move_card(draw: st.DrawFn, text: str) -> str:
    """Cut one card's text (rank and suit) out of the text and put it somewhere else."""
    spots = [i for i, ch in enumerate(text) if ch in "CDHS" and i > 0 and text[i - 1] in
             "23456789TJQKA0"]
    if not spots:
        return text
    end = draw(st.sampled_from(spots)) + 1
    begin = end - (3 if text[end - 3:end - 1] == "10" else 2)
    piece, rest = text[begin:end], text[:begin] + text[end:]
    at = draw(st.integers(0, len(rest)))
    return rest[:at] + piece + rest[at:]


@pytest.mark.untraced
@pytest.mark.rule("DECK.CARDS")
@settings(max_examples=examples(1))
@given(text=mutated_texts())
def test_a_mutated_position_text_reads_or_is_refused_with_an_input_error(text: str) -> None:
    try:
        pos = parse_position(text)
    except InputError as exc:
        message = str(exc)
        assert "\n" not in message
        event("refused: " + message.split(":", 1)[0])
        return
    event("read")
    again = format_position(pos)
    assert parse_position(again) == pos
    assert position_from_json(position_to_json(pos)) == pos
    try:
        state = state_from_position(pos)
    except InputError:
        return
    assert position_of(state) == pos


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 120) | st.sampled_from(
        ["", "QS", "10H", "1H", "face-down", "taken", "playing", "moon-choice", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["cards", "place", "seat", "x"]), inner, max_size=3),
    max_leaves=8)


@st.composite
def mutated_json(draw: st.DrawFn) -> Any:
    position = draw(deal_positions())
    steps = _steps(position)
    data: Any = position_to_json(position_of(steps[draw(st.integers(0, len(steps) - 1))][0]))
    for _ in range(draw(st.integers(1, 3))):
        node = data
        key: Any = draw(st.sampled_from(sorted(node)))
        while isinstance(node[key], list | dict) and node[key] and draw(st.booleans()):
            node = node[key]
            key = (draw(st.integers(0, len(node) - 1)) if isinstance(node, list)
                   else draw(st.sampled_from(sorted(node))))
        if draw(st.integers(0, 5)) == 0 and isinstance(node, dict):
            del node[key]
            break
        node[key] = draw(_JSON_VALUES)
    return data


@pytest.mark.rule("DECK.CARDS")
@settings(max_examples=examples(0.5))
@given(data=mutated_json())
def test_a_mutated_position_json_reads_or_is_refused_with_an_input_error(data: Any) -> None:
    try:
        pos = position_from_json(data)
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("position")
        event("refused")
        return
    event("read")
    assert position_from_json(position_to_json(pos)) == pos
    assert parse_position(format_position(pos)) == pos
