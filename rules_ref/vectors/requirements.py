"""What a case's outcome depends on: the switch values under which its expectations hold.

A case is generated under one ruleset, but most of what it checks does not
depend on every switch: how a trick resolves does not depend on
``pass_cycle`` or ``target``, and a game of 6 or more players is the same
under both values of ``min_players``. :func:`depends_on` proves it, switch
by switch: it replays the case through the reference under every other
value ``spec/variants.toml`` documents for the switch (the others at the
case's own values) and keeps, for each switch, the values under which some
expectation (an observation, a rejection and its rules, a perft count, or
the facts an end of deal or a pass states) no longer holds. A switch absent
from the result gives the same results under every documented value, so
the case does not require it; a value absent from a switch's list gives the
same results as the case's own.

:func:`holds` is the replay itself: the case's expectations checked on the
reference engine directly (not through the protocol), under a ruleset given.
The runner (:mod:`.running`) uses the same check before it sends a case with
values of an adapter's own in place of the case's (:func:`substitute`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from ..actions import DealCards
from ..errors import RulesRefError
from ..jsonio.serialize import action_from_json
from ..passing import pass_direction
from ..protocol.observation import observe
from ..protocol.start import requested_state
from ..registry import spec_toml
from ..state import GameState
from ..state_parts import Phase
from .endings import end_facts
from .files import Case
from .kinds.perft import perft
from .route import reroutable, rerouted

Json = Any

#: The kinds whose cases the analysis covers (the protocol kinds).
ANALYSED_KINDS = ("passing", "legal-plays", "trick", "scoring", "moon", "game-end",
                  "illegal-action", "perft", "transcript")
#: The field of a case that holds the analysis (``spec/vectors/README.md``).
FIELD = "depends_on"
#: The field that holds the analysis of a case whose route a runner rebuilds (:mod:`.route`).
REROUTED = "depends_on_rerouted"


@cache
def documented() -> dict[str, tuple[Json, ...]]:
    """Every switch of ``spec/variants.toml`` -> its documented values, in file order."""
    return {s["name"]: tuple(v["value"] for v in s["value"])
            for s in spec_toml("variants.toml")["switch"]}


def with_ruleset(case: Case, ruleset: Mapping[str, Json]) -> Case:
    """``case`` with ``ruleset`` in place of its own (in the case and in its ``start``)."""
    rs = dict(ruleset)
    return {**case, "ruleset": rs, "start": {**case["start"], "ruleset": rs}}


def end_of_prefix(case: Case) -> GameState | None:
    """The reference's game where ``case``'s steps begin (``None`` if it cannot get there)."""
    try:
        state = requested_state(case["start"])
        for action in case["prefix"]:
            state, _ = state.apply(action_from_json(action))
    except RulesRefError:
        return None
    return state


def rejected_rules(state: GameState, action: Json) -> list[str] | None:
    """The rules the reference cites rejecting ``action``; ``None`` when it accepts it."""
    try:
        state.apply(action_from_json(action))
    except RulesRefError as exc:
        ids = getattr(exc, "rule_ids", None)
        if ids:
            return list(ids)
        rule = getattr(exc, "rule_id", None)
        return [rule] if rule else ["DEAL.SOURCE"]
    return None


def _perft(state: GameState, depth: int) -> dict[str, int]:
    return perft(state, depth)[1] if state.phase is Phase.PLAYING else {}


def _facts_hold(kind: str, case: Case, state: GameState, before_end: GameState | None) -> bool:
    """Do the case's facts that a ruleset can change still hold in ``state``?

    ``state`` is where the case's steps end (before the next deal's ``deal``
    action, when a case goes on with one); ``before_end`` is the start of
    play of a passing case.
    """
    facts = case.get("facts")
    if not isinstance(facts, dict):
        return True
    if kind == "passing" and before_end is not None:
        offset = before_end.pass_offset
        targets = [None if offset is None else (s + offset) % before_end.players
                   for s in range(before_end.players)]
        return bool(facts.get("direction") == str(pass_direction(before_end.deal_number,
                                                                 before_end.ruleset))
                    and facts.get("targets") == targets)
    if kind in ("scoring", "moon", "game-end") and "uncollected" in facts:
        if state.phase not in (Phase.MOON_CHOICE, Phase.DEALING, Phase.GAME_OVER) \
                or (not state.deal_results and state.phase is not Phase.MOON_CHOICE):
            return True  # the case stops before the end of the deal
        return bool(end_facts(state) == facts)
    return True


def holds(case: Case, kind: str, ruleset: Mapping[str, Json] | None = None) -> bool:
    """Do ``case``'s expectations hold on the reference under ``ruleset`` (default its own)?"""
    if ruleset is not None:
        case = with_ruleset(case, ruleset)
    try:
        state = requested_state(case["start"])
        for action in case["prefix"]:
            state, _ = state.apply(action_from_json(action))
        if case.get("depth") is not None:
            return bool(_perft(state, int(case["depth"])) == case["expected"]["divide"])
        at_passing = state if kind == "passing" else None
        end: GameState | None = None
        for step in case["steps"]:
            action, expect = step["action"], step.get("expect")
            if expect is not None and "rejected" in expect:
                if rejected_rules(state, action) != expect["rejected"]["rules"]:
                    return False
                continue
            if action is not None:
                parsed = action_from_json(action)
                if end is None and isinstance(parsed, DealCards):
                    end = state  # the facts are those of the deal that ended
                state, _ = state.apply(parsed)
            if expect is not None:
                seen = observe(state)
                if any(seen.get(f) != v for f, v in expect["observation"].items()):
                    return False
    except RulesRefError:
        return False
    return _facts_hold(kind, case, end if end is not None else state, at_passing)


def depends_on(case: Case, kind: str) -> dict[str, list[Json]]:
    """Each switch -> the documented values (other than the case's) under which it differs.

    Switches under which every documented value gives the case's results are
    left out: the case does not require them.
    """
    own = case["ruleset"]
    out: dict[str, list[Json]] = {}
    for switch, values in documented().items():
        differs = [v for v in values if v != own.get(switch)
                   and not holds(case, kind, {**own, switch: v})]
        if differs:
            out[switch] = differs
    return out


def holds_rerouted(case: Case, kind: str, ruleset: Mapping[str, Json]) -> bool:
    """Do ``case``'s expectations hold under ``ruleset``, its route rebuilt for it
    (:func:`.route.rerouted`)?"""
    moved = rerouted(case, ruleset)
    return moved is not None and holds(moved, kind)


def depends_on_rerouted(case: Case, kind: str) -> dict[str, list[Json]]:
    """What :func:`depends_on` says, each other ruleset reached by its own route: what the
    case's moment and steps depend on, not how its deal was passed or who dealt it."""
    own = case["ruleset"]
    out: dict[str, list[Json]] = {}
    for switch, values in documented().items():
        differs = [v for v in values if v != own.get(switch)
                   and not holds_rerouted(case, kind, {**own, switch: v})]
        if differs:
            out[switch] = differs
    return out


def with_analysis(kind: str, cases: Sequence[Case]) -> list[Case]:
    """The cases of ``kind``, each with its :data:`FIELD` (protocol kinds only), and
    :data:`REROUTED` when it has a route a runner can rebuild."""
    if kind not in ANALYSED_KINDS:
        return list(cases)
    out = []
    for case in cases:
        assert holds(case, kind), f"{case['id']} does not hold on the reference"
        analysed = {**case, FIELD: depends_on(case, kind)}
        if reroutable(case):
            analysed[REROUTED] = depends_on_rerouted(case, kind)
        out.append(analysed)
    return out


def substitute(case: Case, allowed: Mapping[str, Json], field: str = FIELD,
               ) -> tuple[dict[str, Json], list[str]]:
    """The ruleset to send for ``case`` to an adapter allowing ``allowed``, and what is missing.

    ``allowed`` maps each switch to its declared values (a list, ``"any"``,
    or absent: the default only, given as a one-value list by the caller).
    A switch whose case value is declared keeps it. Otherwise, when the
    case was analysed (:data:`FIELD`), the first declared value under which
    the case is not known to differ is taken: a documented value missing
    from the switch's list, or, for a switch the case does not require, any
    declared value. What no declared value can stand in for is returned as
    missing (``"moon others-104"``). ``field`` names the analysis read (:data:`REROUTED`
    for a case whose route is rebuilt).
    """
    sent, lacking = _substitution(case, allowed, field)
    own = case["ruleset"]
    return sent, [f"{switch} {show(own[switch])}" for switch in lacking]


def adapters_own(case: Case, allowed: Mapping[str, Json], field: str = FIELD,
                 ) -> dict[str, Json]:
    """What :func:`substitute` sends, with each switch it finds missing at the first value
    declared for it: the ruleset of the adapter's own game for ``case``."""
    sent, lacking = _substitution(case, allowed, field)
    for switch in lacking:
        declared = allowed.get(switch)
        if isinstance(declared, list) and declared:
            sent[switch] = declared[0]
    return sent


def _substitution(case: Case, allowed: Mapping[str, Json], field: str,
                  ) -> tuple[dict[str, Json], list[str]]:
    """:func:`substitute`'s ruleset, and the switches no declared value stands in for."""
    own = case["ruleset"]
    analysed = case.get(field)
    sent = dict(own)
    missing: list[str] = []
    for switch in sorted(own, key=list(documented()).index):  # in switch order
        value, declared = own[switch], allowed.get(switch)
        if declared == "any" or (isinstance(declared, list) and value in declared):
            continue
        pick = None
        if isinstance(analysed, dict) and isinstance(declared, list):
            differs = analysed.get(switch)
            pick = next((v for v in declared if differs is None
                         or (v in documented().get(switch, ()) and v not in differs)), None)
        if pick is None:
            missing.append(switch)
        else:
            sent[switch] = pick
    return sent, missing


def show(value: object) -> str:
    """A switch value as a skip or coverage line names it (a cycle as ``left,right``)."""
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)
