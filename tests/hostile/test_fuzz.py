"""Fuzzing every parser: a value that round-trips, or the project's own error.

Each parser gets valid documents mutated by Hypothesis (keys deleted, types
changed, values swapped, huge numbers, deep nesting, long strings, NaN and
Infinity, unknown fields; for files, bytes that are not UTF-8 or not JSON)
and random input. The only outcomes allowed are a parsed value that
round-trips (serialized back, it compares equal) or a
:class:`~rules_ref.errors.RulesRefError`; on the command line, an exit
status of 0, 1 or 2 and, for 2, one line on standard error and no traceback.
The limits are in ``spec/limits.md``; failures found here are kept in
``test_regressions.py``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules_ref import vectors
from rules_ref.actions import Action, DealCards
from rules_ref.cards import CARDS, parse_card, parse_cards
from rules_ref.errors import CardNotationError, RulesRefError
from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.replay import read_replay
from rules_ref.jsonio.files import read_json_file
from rules_ref.jsonio.replay_file import REPLAY_FORMAT, REPLAY_VERSION
from rules_ref.jsonio.serialize import (
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from rules_ref.players.game import game_steps, play_game
from rules_ref.protocol.handshake import check_hello, parse_supports
from rules_ref.protocol.messages import (
    AdapterFault,
    answer_kind,
    check_rejection,
    decode_answer,
    rejection_problems,
)
from rules_ref.protocol.observation import observation_problems, observe
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.protocol.start import checked_start, start_state
from rules_ref.records.record import record_actions, record_from_state
from rules_ref.records.shape import check_shape
from rules_ref.records.validate import validate_record
from rules_ref.ruleset import Ruleset, preset, presets
from rules_ref.state import GameState
from rules_ref.vectors.case_replay import InProcess, run_case

from . import cli

Json = Any
COSTLY = dict(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def examples(fraction: float) -> int:
    """``fraction`` of the active profile's ``max_examples``, at least 1."""
    return max(1, round(settings().max_examples * fraction))


# --- documents and mutations -----------------------------------------------------------------


def _nested(depth: int) -> Json:
    value: Json = 0
    for _ in range(depth):
        value = [value]
    return value


#: Values that break parsers: wrong types, extremes, NaN, long and odd text, deep nesting.
HOSTILE: list[Json] = [
    None, True, False, 0, -1, 1, 2**63, -(2**63), 10**4000, -(10**4000), 1.5, -0.0,
    math.nan, math.inf, -math.inf, "", " ", "\x00", "QS", "qs", "10h", "x" * 100_000,
    "é" * 1000, "\ud800", [], {}, [None], {"": None}, _nested(150), ["QS"] * 200,
    list(range(1000)), {"type": "play"},
]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30), st.sampled_from(["QS", "10H", "th", " 2c ", "1H", "play", "pass",
                                           "deal", "moon", "start", "add", "subtract"]))
json_values = st.recursive(
    scalars, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                     st.dictionaries(st.text(max_size=12), inner, max_size=6)),
    max_leaves=20)
hostile = st.one_of(st.sampled_from(HOSTILE), json_values)


def _paths(doc: Json, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _get(doc: Json, path: tuple[Any, ...]) -> Json:
    for p in path:
        doc = doc[p]
    return doc


@st.composite
def mutated(draw: st.DrawFn, doc: Json, most: int = 3) -> Json:
    """``doc`` with one to ``most`` mutations at random places."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, most))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "delete", "insert", "swap", "duplicate"]))
        value = copy.deepcopy(draw(hostile))
        if not path:
            if op == "replace":
                doc = value
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        if op == "replace":
            parent[key] = value
        elif op == "delete":
            del parent[key]
        elif op == "insert":
            if isinstance(parent, dict):
                parent[draw(st.sampled_from(["extra", "id", "type", "seat", "x" * 50, ""]))] \
                    = value
            else:
                parent.insert(key, value)
        elif op == "swap":
            siblings = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
            other = draw(st.sampled_from(siblings))
            parent[key], parent[other] = parent[other], parent[key]
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return doc


@st.composite
def mutated_bytes(draw: st.DrawFn, data: bytes) -> bytes:
    """File bytes with one change: a byte that is not UTF-8, a cut, a stray character."""
    op = draw(st.sampled_from(["invalid", "cut", "insert", "flip", "bom", "nul", "random"]))
    at = draw(st.integers(0, len(data)))
    if op == "invalid":
        return data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"])) + data[at:]
    if op == "cut":
        return data[:at]
    if op == "insert":
        return data[:at] + draw(st.sampled_from([b"{", b"]", b",", b"NaN", b"1e999", b'"'])) \
            + data[at:]
    if op == "flip" and data:
        i = min(at, len(data) - 1)
        return data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1:]
    if op == "bom":
        return b"\xef\xbb\xbf" + data
    if op == "nul":
        return data[:at] + b"\x00" + data[at:]
    return draw(st.binary(max_size=200))


# --- the valid documents ------------------------------------------------------------------------


@cache
def short_game() -> GameState:
    """A whole game of two deals (target 30): passes, tricks, void tricks, a game end."""
    return play_game(6, 5, Ruleset(target=30))


@cache
def record() -> Json:
    return record_from_state(short_game(), 5)


@cache
def steps() -> list[tuple[GameState, Action, GameState]]:
    return [(b, a, s) for b, a, s, _ in game_steps(7, 3, Ruleset(target=40))]


@cache
def mid_state() -> GameState:
    before, _, _ = steps()[60]
    return before


@cache
def vector_cases() -> dict[str, list[Json]]:
    files = vectors.load_dir(vectors.default_dir())
    return {kind: [c for _, c in vectors.iter_cases(files, [kind])] for kind in vectors.KINDS}


def _start(state: GameState) -> Json:
    deal = next(a for a in state.actions if isinstance(a, DealCards))
    return {"type": "start", "players": state.players, "ruleset": state.ruleset.to_dict(),
            "deal_number": 1, "dealer": state.first_dealer,
            "totals": [0] * state.players,
            "hands": [[str(c) for c in h] for h in deal.hands],
            "extras": [str(c) for c in deal.extras]}


def replay_doc() -> Json:
    state = mid_state()
    return {"format": REPLAY_FORMAT, "version": REPLAY_VERSION, "kind": "disagreement",
            "start": _start(state),
            "actions": [action_to_json(a) for a in state.actions[1:20]]}


# --- cards -------------------------------------------------------------------------------


card_like = st.builds(
    lambda pre, rank, suit, post: pre + rank + suit + post,
    st.sampled_from(["", " ", "\t", "\n", "  "]),
    st.sampled_from(["2", "9", "10", "T", "t", "J", "q", "K", "a", "1", "11", "0", "", "10 "]),
    st.sampled_from(["C", "d", "H", "s", "♣", "♦", "♥", "♠", "♧", "♢", "♡", "♤", "X", ""]),
    st.sampled_from(["", " ", "\r\n", "x"]))


@pytest.mark.untraced
@given(st.one_of(card_like, st.text(max_size=20), st.sampled_from(HOSTILE)))
def test_parse_card(text: Any) -> None:
    try:
        c = parse_card(text)
    except CardNotationError as exc:
        assert str(exc) and "\n" not in str(exc) and len(str(exc)) < 200
        return
    assert c in CARDS
    assert parse_card(str(c)) == c and parse_card(str(c).lower()) == c
    assert parse_card(c.pretty) == c


@pytest.mark.untraced
@given(st.one_of(st.lists(card_like, max_size=12).map(" ,".join), st.text(max_size=60)))
def test_parse_cards(text: str) -> None:
    try:
        cards = parse_cards(text)
    except CardNotationError:
        return
    assert parse_cards(" ".join(str(c) for c in cards)) == cards


# --- rulesets --------------------------------------------------------------------------------


def _ruleset_ok(data: object) -> None:
    try:
        rs = Ruleset.from_dict(data)
    except RulesRefError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400, str(exc)[:500]
        return
    back = rs.to_dict()
    assert Ruleset.from_dict(back) == rs
    assert isinstance(data, dict)
    for name, value in data.items():
        assert back[name] == (list(value) if isinstance(value, tuple) else value)


@pytest.mark.untraced
@given(st.sampled_from(list(presets())).flatmap(
    lambda name: mutated(preset(name).to_dict())))
def test_ruleset_mutated(data: Json) -> None:
    _ruleset_ok(data)


@pytest.mark.untraced
@given(st.one_of(json_values, st.dictionaries(
    st.sampled_from([f for f in Ruleset().to_dict()] + ["nope"]), hostile, max_size=4)))
def test_ruleset_random(data: Json) -> None:
    _ruleset_ok(data)


@pytest.mark.untraced
@settings(max_examples=examples(0.15), **COSTLY)  # type: ignore[arg-type]
@given(st.one_of(
    st.just(json.dumps(preset("hubpages").to_dict()).encode()).flatmap(mutated_bytes),
    mutated(preset("mensa").to_dict()).map(lambda d: json.dumps(d).encode())))
def test_ruleset_file(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("ruleset") / "rules.json"
    path.write_bytes(data)
    code, _, err = cli("play", "--players", "6", "--target", "1", "--ruleset", str(path))
    assert code in (0, 2), err
    if code == 2:
        assert err.startswith(f"rules-ref play: error: {path}"), err


# --- actions and states -----------------------------------------------------------------------


def _action_ok(data: object) -> None:
    try:
        action = action_from_json(data)
    except RulesRefError:
        return
    again = action_to_json(action)
    assert action_from_json(again) == action
    assert isinstance(data, dict) and set(again) == set(data)


@pytest.mark.untraced
@given(st.sampled_from(range(0, 120, 7)).flatmap(
    lambda i: mutated(action_to_json(mid_state().actions[i % len(mid_state().actions)]))))
def test_action_mutated(data: Json) -> None:
    _action_ok(data)


@pytest.mark.untraced
@given(json_values)
def test_action_random(data: Json) -> None:
    _action_ok(data)


@settings(max_examples=examples(0.3))
@given(mutated(state_to_json(mid_state()), most=2))
def test_state(data: Json) -> None:
    try:
        state = state_from_json(data)
    except RulesRefError:
        return
    again = state_to_json(state)
    assert state_to_json(state_from_json(again)) == again
    assert again["actions"] == [action_to_json(action_from_json(a)) for a in data["actions"]]


# --- records -----------------------------------------------------------------------------------


def _record_ok(data: object) -> None:
    try:
        found = validate_record(data)
    except RulesRefError as exc:
        assert "\n" not in str(exc)
        return
    assert all(v.rule and v.path for v in found)
    if found:
        return
    # a record without a violation is well-formed: its actions replay it exactly
    shaped = check_shape(data)
    actions = record_actions(shaped)
    state = GameState.start(shaped["players"], Ruleset.from_dict(shaped["ruleset"]),
                            shaped["first_dealer"], tuple(shaped["initial_totals"]),
                            shaped["initial_deal"])
    for a in actions:
        state, _ = state.apply(action_from_json(a))
    again = record_from_state(state, shaped.get("seed"))
    assert _canonical(again) == _canonical({**shaped, "seed": shaped.get("seed")})


def _canonical(value: Json, key: str = "") -> Json:
    """Card texts in canonical notation, the uncollected cards sorted (compared as a set)."""
    if key == "ruleset":
        return Ruleset.from_dict(value).to_dict()
    if isinstance(value, dict):
        return {k: _canonical(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v) for v in value]
        return sorted(items, key=lambda c: parse_card(c)) if key == "uncollected" else items
    if isinstance(value, str):
        with contextlib.suppress(RulesRefError):
            return str(parse_card(value))
    return value


@settings(max_examples=examples(0.5), **COSTLY)  # type: ignore[arg-type]
@given(mutated(record()))
def test_record_mutated(data: Json) -> None:
    _record_ok(data)


@pytest.mark.untraced
@settings(max_examples=examples(0.25))
@given(json_values)
def test_record_random(data: Json) -> None:
    _record_ok(data)


@pytest.mark.untraced
@settings(max_examples=examples(0.1), **COSTLY)  # type: ignore[arg-type]
@given(st.one_of(st.just(json.dumps(record()).encode()).flatmap(mutated_bytes),
                 mutated(record()).map(lambda d: json.dumps(d).encode())))
def test_record_file(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("record") / "game.json"
    path.write_bytes(data)
    code, out, err = cli("validate", str(path))
    assert code in (0, 1, 2), err
    if code == 2:
        assert err.startswith(f"rules-ref validate: error: {path}") or \
            err.startswith("rules-ref validate: error: "), err
    else:
        assert out.splitlines()[-1].startswith("ok: " if code == 0 else ""), out


# --- vectors -----------------------------------------------------------------------------------


def _case_ok(kind: str, case: Json) -> None:
    try:
        vectors.check_case(kind, case, "case")
    except RulesRefError as exc:
        assert "\n" not in str(exc)
        return
    if kind not in vectors.PROTOCOL_KINDS or kind == "perft":
        with contextlib.suppress(RulesRefError):
            vectors.unit_expected(kind, case) if kind in vectors.UNIT_KINDS else None
        return
    try:
        outcome = run_case(InProcess(), case)
    except RulesRefError:
        return
    assert outcome.status in ("pass", "fail")


@settings(max_examples=examples(0.5), **COSTLY)  # type: ignore[arg-type]
@given(st.sampled_from(["trick", "legal-plays", "passing", "illegal-action", "perft",
                        "card-notation", "seeded-deal", "scoring"]).flatmap(
    lambda kind: st.tuples(st.just(kind), st.sampled_from(vector_cases()[kind][:6]).flatmap(
        mutated))))
def test_vector_case_mutated(kind_case: tuple[str, Json]) -> None:
    _case_ok(*kind_case)


@pytest.mark.untraced
@settings(max_examples=examples(0.1), **COSTLY)  # type: ignore[arg-type]
@given(st.one_of(
    st.just((vectors.default_dir() / "trick.json").read_bytes()).flatmap(mutated_bytes),
    st.just(json.loads((vectors.default_dir() / "trick.json").read_bytes())).flatmap(
        lambda d: mutated(d, most=2)).map(lambda d: json.dumps(d).encode())))
def test_vector_dir(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    directory = tmp_path_factory.mktemp("vectors")
    (directory / "trick.json").write_bytes(data)
    try:
        files = vectors.load_dir(directory)
        vectors.require_valid(files)
    except RulesRefError:
        pass
    code, _, err = cli("vectors", "check", "--dir", str(directory))
    assert code in (1, 2), err  # one file alone leaves rules uncovered: never 0
    if code == 2:
        assert len(err.splitlines()) == 1


# --- replays and start messages ------------------------------------------------------------


@pytest.mark.untraced
@settings(max_examples=examples(0.5))
@given(mutated(replay_doc()))
def test_replay(data: Json) -> None:
    try:
        start, actions = read_replay(data, "replay")
    except RulesRefError as exc:
        assert str(exc).startswith("replay"), str(exc)
        return
    assert start == checked_start(start)
    assert [action_from_json(action_to_json(a)) for a in actions] == actions


@pytest.mark.untraced
@settings(max_examples=examples(0.5))
@given(mutated(_start(mid_state())))
def test_start_message(data: Json) -> None:
    if isinstance(data, dict):
        data = {**data, "type": "start"}
    answer = ReferenceAdapter().handle({**data, "id": 1}) if isinstance(data, dict) else None
    try:
        state = start_state(data)
    except RulesRefError:
        assert answer is None or answer["type"] == "rejected"
        return
    assert answer == {"type": "observation", **observe(state)}
    assert state_to_json(start_state(checked_start(data))) == state_to_json(state)


# --- protocol messages ---------------------------------------------------------------------


def _answer_ok(raw: bytes) -> None:
    try:
        data = decode_answer(raw, 7, "action")
    except AdapterFault as exc:
        assert exc.kind in ("too-long", "not-json", "not-utf8", "shape", "wrong-id",
                            "unsolicited")
        assert "\n" not in exc.detail and len(exc.detail) < 400
        return
    assert data["id"] == 7
    assert decode_answer(json.dumps(data).encode() + b"\n", 7) == data
    try:
        kind = answer_kind(data, ("observation", "rejected"), "message 7")
    except AdapterFault as exc:
        assert exc.kind == "shape"
        return
    if kind == "rejected":
        problems = rejection_problems(data)
        try:
            check_rejection(data, "message 7")
        except AdapterFault:
            assert problems
        else:
            assert not problems
    else:
        assert isinstance(observation_problems(data), list)


def _observation_line() -> bytes:
    return json.dumps({"id": 7, "type": "observation", **observe(mid_state())}).encode()


@pytest.mark.untraced
@given(st.one_of(
    st.just(_observation_line()).flatmap(mutated_bytes),
    st.just(json.loads(_observation_line())).flatmap(mutated).map(
        lambda d: json.dumps(d).encode() + b"\n"),
    st.just({"id": 7, "type": "rejected", "rule": "FOLLOW.SUIT", "reason": "x"}).flatmap(
        mutated).map(lambda d: json.dumps(d).encode() + b"\n"),
    st.binary(max_size=300)))
def test_protocol_answer(raw: bytes) -> None:
    _answer_ok(raw)


@given(mutated({"id": 0, **ReferenceAdapter().hello()}))
def test_protocol_hello(data: Json) -> None:
    if not isinstance(data, dict):
        return
    try:
        check_hello(data)
        supports = parse_supports(data)
    except AdapterFault as exc:
        assert exc.kind == "handshake" and "\n" not in exc.detail
        return
    for rs in presets().values():
        assert isinstance(supports.allows(rs), list)


@settings(max_examples=examples(0.5), **COSTLY)  # type: ignore[arg-type]
@given(st.integers(0, 10_000), st.data())
def test_protocol_observation_attribution(index: int, data: st.DataObject) -> None:
    """A well-shaped but wrong observation is attributed to rules, never an exception."""
    before, action, after = steps()[index % len(steps())]
    expected = observe(after)
    answer = data.draw(mutated(expected))
    assume(isinstance(answer, dict) and not observation_problems(answer))
    rules, deciding, others = observation_rules(before, action, after, expected, answer)
    if answer == expected:
        assert (rules, deciding, others) == ([], [], [])
    else:
        assert rules and deciding
        assert all(isinstance(r, str) for r in rules)


# --- the command line ------------------------------------------------------------------------


def _cli_ok(args: list[str]) -> None:
    code, _, err = cli(*args)
    assert "Traceback" not in err
    assert code in (0, 1, 2), (args, code, err)
    if code == 2 and "adapter" not in err.splitlines()[0]:
        assert len(err.strip().splitlines()) == 1, (args, err)  # one line, but a fault report
    if code == 2:
        assert len(err.splitlines()[0]) < 400, (args, err)


argument = st.one_of(st.sampled_from(
    ["0", "-1", "5", "6", "11", "12", "1e3", "nan", "inf", "-inf", "0x10", "", " ", "QS",
     "10h", "1H", "x" * 1000, "\x00", "--", "--json", "18446744073709551616",
     "9" * 5000, "/nonexistent", "/", "/dev/null", "spruce", "NOPE", "TRICK.CANCEL"]),
    st.text(max_size=12).filter(lambda t: "\x00" not in t))


@settings(max_examples=examples(0.25), **COSTLY)  # type: ignore[arg-type]
@given(st.sampled_from(["--players", "--seed", "--first-dealer", "--target", "--preset",
                        "--ruleset"]), argument)
def test_cli_play(option: str, value: str) -> None:
    _cli_ok(["play", option, value, "--target", "1"] if option != "--target"
            else ["play", option, value, "--players", "6"])


@pytest.mark.untraced
@given(st.lists(st.one_of(card_like, argument), min_size=0, max_size=13),
       st.one_of(st.none(), argument))
def test_cli_trick(cards: list[str], leader: str | None) -> None:
    args = ["trick", *(["--leader", leader] if leader is not None else []), "--", *cards]
    _cli_ok(args)


@pytest.mark.untraced
@given(st.lists(argument, max_size=2))
def test_cli_rules(args: list[str]) -> None:
    _cli_ok(["rules", *args])


@pytest.mark.untraced
@settings(max_examples=examples(0.1), **COSTLY)  # type: ignore[arg-type]
@given(st.sampled_from(["--timeout", "--kinds", "--dir"]), argument)
def test_cli_vectors_run(option: str, value: str) -> None:
    # an adapter that is never reached: every bad option is refused before it starts
    _cli_ok(["vectors", "run", option, value, "--", "/nonexistent/adapter"])


@settings(max_examples=examples(0.1), **COSTLY)  # type: ignore[arg-type]
@given(st.sampled_from(["--timeout", "--examples", "--max-seconds", "--shrink-seconds",
                        "--seed", "--players", "--jobs", "--preset", "--target", "--replay",
                        "--ruleset"]), argument)
def test_cli_conform(option: str, value: str) -> None:
    _cli_ok(["conform", option, value, "--", "/nonexistent/adapter"])


def test_read_json_file_refuses_what_is_not_json(tmp_path: Path) -> None:
    cases: dict[str, bytes] = {
        "nan": b'{"x": NaN}', "inf": b"[Infinity]", "big": b"[" + b"9" * 5000 + b"]",
        "deep": b"[" * 100_000 + b"]" * 100_000, "bom": b"\xef\xbb\xbf{}",
        "latin1": b'{"x": "\xe9"}', "empty": b"", "nul": b"\x00",
    }
    expected: dict[str, str] = {
        "nan": "not valid JSON: NaN is not valid JSON",
        "inf": "not valid JSON: Infinity is not valid JSON",
        "big": "not valid JSON: Exceeds the limit (4300 digits)",
        "deep": "lists or objects nest more than 100 deep (the limit of a JSON input)",
        "bom": "not valid JSON: Unexpected UTF-8 BOM",
        "latin1": "not UTF-8 text (byte 7, line 1)",
        "empty": "the file is empty, where JSON was expected",
        "nul": "not valid JSON: Expecting value at line 1 column 1",
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        with pytest.raises(RulesRefError) as info:
            read_json_file(str(path))
        assert str(info.value).startswith(f"{path}: "), str(info.value)
        assert expected[name] in str(info.value), (name, str(info.value))

