"""Every finding under every value of its deciding switches, its words read against the facts.

For every switch of ``spec/variants.toml`` and every ordered pair of its
documented values (``a``, ``b``), an implementation that plays ``b`` where the
reference plays ``a`` is played through a vector case that tells the two
apart (``depends_on``: the case holds under ``a``, not under ``b``). Both sides
are the reference engine, one under each value, so every fact the words are
read against is the reference's own. The first step where the two differ is
judged as a conform session judges it (the rules, the fields) and recorded as
a finding; its words (:func:`~rules_ref.findings.classes.finding_lines`, what
every report renders) must then say what the reference did there: the switch
that differs, with the reference's value; a card allowed or forbidden that
the reference forbids or allows; a direction, a void last trick's cards, a
moon's scores, the end of the game, as the reference has them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from rules_ref.cards import parse_card
from rules_ref.conform.position_starts import position_rules
from rules_ref.conform.refused_tables import rejected_start_rules
from rules_ref.errors import IllegalAction, RulesRefError, Violation
from rules_ref.findings.action_words import card_kind
from rules_ref.findings.attribution import (
    accepted_illegal_rules,
    observation_rules,
    rejected_legal_rules,
)
from rules_ref.findings.classes import Findings
from rules_ref.findings.failure import Failure
from rules_ref.findings.words import moon_score_words, void_last_words
from rules_ref.jsonio.serialize import action_from_json
from rules_ref.passing import pass_direction
from rules_ref.protocol.observation import observe
from rules_ref.protocol.start import position_state, start_state
from rules_ref.registry import rule as registry_rule
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.vectors.files import iter_cases, latest_dir, load_dir
from rules_ref.vectors.matrix import distinguishes, holds_under
from rules_ref.vectors.requirements import ANALYSED_KINDS, documented, show, with_ruleset
from rules_ref.wording import direction_words

Json = Any


def _state(start: dict[str, Any]) -> GameState:
    return position_state(start) if "position" in start else start_state(start)


def _failure(rules: Sequence[str], start: dict[str, Any], actions: Sequence[Json], failing: Json,
             expected: dict[str, Any], actual: dict[str, Any], fields: Sequence[str] = (),
             others: Sequence[str] = (), reference: dict[str, Any] | None = None) -> Failure:
    return Failure("disagreement", list(rules), "differs", start, list(actions), failing, {},
                   expected, actual, list(fields), list(others), reference=reference)


def _compared(before: GameState | None, action: Any, ref: GameState, impl: GameState,
              start: dict[str, Any], actions: list[Json], failing: Json) -> Failure | None:
    expected, actual = observe(ref), observe(impl)
    if expected == actual:
        return None
    rules, deciding, others = observation_rules(before, action, ref, expected, actual)
    differing = deciding + others
    # the reference's whole answer, as a run keeps it (the alternatives are tried on it)
    return _failure(rules, start, actions, failing, {f: expected[f] for f in differing},
                    {f: actual.get(f) for f in differing}, deciding, others,
                    {"type": "observation", **expected})


def first_difference(case: dict[str, Any], switch: str, a: Json, b: Json
                     ) -> tuple[Failure, GameState] | None:
    """The first divergence of an engine playing ``b`` where the reference plays ``a``, with
    the reference's state before it (``None``: the case's actions meet none)."""
    ref_case = with_ruleset(case, {**case["ruleset"], switch: a})
    impl_case = with_ruleset(case, {**case["ruleset"], switch: b})
    start = ref_case["start"]
    try:
        ref = _state(start)
    except RulesRefError:
        return None  # a table the rules under a refuse: no run sends it (see NOT_SHOWN)
    try:
        impl = _state(impl_case["start"])
    except RulesRefError as exc:  # as the session judges a rejected start
        cited = getattr(exc, "rule_id", None)
        rules = (position_rules(ref, cited) if "position" in start
                 else rejected_start_rules(ref.ruleset, cited))
        return _failure(rules, start, [], None, {"type": "observation"},
                        {"type": "rejected", "rule": cited}), ref
    found = _compared(None, None, ref, impl, start, [], None)
    if found is not None:
        return found, ref
    actions = [*case["prefix"], *(s["action"] for s in case["steps"] if s["action"])]
    for i, action_json in enumerate(actions):
        action = action_from_json(action_json)
        sent = actions[:i + 1]
        try:
            ref_after, _ = ref.apply(action)
        except RulesRefError as exc:
            try:
                impl_after, _ = impl.apply(action)
            except RulesRefError:
                continue  # both reject it
            refused = _violations(exc)
            rejection = {"type": "rejected", "rules": [v.rule_id for v in refused]}
            return _failure(accepted_illegal_rules(refused), start, sent, action_json,
                            rejection, {"type": "observation", **observe(impl_after)}), ref
        try:
            impl_after, _ = impl.apply(action)
        except RulesRefError as exc:
            cited = _violations(exc)[0].rule_id
            return _failure(rejected_legal_rules(ref, action, cited), start, sent, action_json,
                            {"type": "observation"}, {"type": "rejected", "rule": cited}), ref
        found = _compared(ref, action, ref_after, impl_after, start, sent, action_json)
        if found is not None:
            return found, ref
        ref, impl = ref_after, impl_after
    return None


def _violations(exc: RulesRefError) -> tuple[Violation, ...]:
    """What the engine cites for an action it rejects (as a conform session reads it)."""
    if isinstance(exc, IllegalAction) and exc.violations:
        return exc.violations
    return (Violation(getattr(exc, "rule_id", None) or "DEAL.SOURCE", str(exc)),)


def _pairs() -> list[tuple[str, Json, Json]]:
    values = documented()
    return [(s, a, b) for s, vs in values.items() for a in vs for b in vs if a != b]


@cache
def _cases() -> tuple[dict[str, Any], ...]:
    kinds = [k for k in ANALYSED_KINDS if k != "perft"]  # the games a case plays
    return tuple(case for _, case in iter_cases(load_dir(latest_dir()), kinds))


@cache
def rendered(switch: str, a_shown: str, b_shown: str) -> tuple[dict[str, Any], Failure,
                                                               GameState] | None:
    """The finding of an engine of ``b`` where the reference plays ``a`` (values shown)."""
    values = {show(v): v for v in documented()[switch]}
    a, b = values[a_shown], values[b_shown]
    # the cases that hold under a and not under b first, then those that hold under b only
    # (their actions may be ones the rules under a refuse: the engine of b accepts them),
    # then the others: every observation is compared here, the prefix's too, where a case
    # checks those of its steps
    cases = sorted(_cases(), key=lambda c: (not distinguishes(c, switch, a, b),
                                            not holds_under(c, switch, a)))
    for case in cases:
        found = first_difference(case, switch, a, b)
        if found is not None:
            failure, before = found
            findings = Findings()
            findings.record(failure, 1, 0.0)
            (finding,) = findings.classes.values()
            return finding.to_json(), failure, before
    return None


def _facts_problems(switch: str, a: Json, data: dict[str, Any], failure: Failure,
                    before: GameState) -> list[str]:
    """What the words of ``data`` say that the reference's facts do not bear out."""
    problems: list[str] = []
    ruleset = data["example"]["start"]["ruleset"]
    named = data["switch"]
    rule = data["rule"]
    if rule is not None and named is not None and named not in registry_rule(rule).switches:
        problems.append(f"{named} is not a switch of {rule}")
    if named is not None:
        line = f"decided by the switch {named} (here {show(ruleset[named])})"
        if not any(line in w for w in data["words"]):
            problems.append(f"no line {line!r}")
    if named != switch:
        problems.append(f"names the switch {named}, where {switch} differs")
    expected, actual = failure.expected, failure.actual
    ref_legal = set(expected.get("legal") or []) if isinstance(expected.get("legal"), list) \
        else set()
    impl_legal = set(actual.get("legal") or []) if isinstance(actual.get("legal"), list) \
        else set()
    for facet in data["facets"]:
        words = facet["words"]
        kinds = {card_kind(parse_card(c)) for c in ref_legal ^ impl_legal
                 if re.fullmatch(r"(10|[2-9JQKA])[CDHS]", c)}
        if words.startswith("allows only 2♣"):
            if impl_legal != {"2C"} or ref_legal == {"2C"}:
                problems.append(f"{words!r}: the engine allows {sorted(impl_legal)}")
        elif words.startswith("allows no card at all"):
            if impl_legal:
                problems.append(f"{words!r}: the engine allows {sorted(impl_legal)}")
        elif re.match(r"(allows|forbids) ", words) and "legal" in failure.fields:
            extra = {card_kind(parse_card(c)) for c in impl_legal - ref_legal}
            missing = {card_kind(parse_card(c)) for c in ref_legal - impl_legal}
            side = extra if words.startswith("allows") else missing
            if not any(k in words for k in side):
                problems.append(f"{words!r}: the cards that differ are {sorted(kinds)}")
        m = re.fullmatch(r"passes (.+) where the rules pass (.+)", words)
        if m and before.pass_offset is not None:
            said = direction_words(before.pass_offset, before.players)
            if m.group(2) != said:
                problems.append(f"{words!r}: the reference passes {said}")
        if rule == "VOID.LAST" and "pending" in words and "keeps" not in words:
            said = void_last_words(before.ruleset.last_trick_void)
            if words != said:
                problems.append(f"{words!r}: under {show(a)} the rules say {said!r}")
        if words.startswith(("scores the moon", "does not give every other seat")):
            after = before.apply(action_from_json(failure.failing))[0] if failure.failing \
                else before
            result = after.deal_results[-1] if after.deal_results else None
            said = moon_score_words(before.ruleset.moon, result is not None
                                    and result.moon_pair is not None)
            if words != said:
                problems.append(f"{words!r}: the rules say {said!r}")
        if words == "does not end the game when a total reaches the target" and \
                expected.get("phase") != "game-over":
            problems.append(f"{words!r}: the reference is in {expected.get('phase')}")
        if words == "ends the game before a total reaches the target" and \
                actual.get("phase") != "game-over":
            problems.append(f"{words!r}: the engine is in {actual.get('phase')}")
        if re.search(r"\bseat \d+\b(?! points)", words):
            problems.append(f"{words!r} names a seat")
    return problems


PAIRS = _pairs()
#: The pairs no conform run can show, and why.
NOT_SHOWN = {
    # every start names its ruleset, and a game of 5 players is always sent under
    # min_players = 5: an engine that plays 5 players where the rules play 6 is never asked
    ("min_players", "6", "5"): "a table of 5 players is always sent under min_players = 5",
}


@pytest.mark.parametrize(("switch", "a", "b"), [(s, show(a), show(b)) for s, a, b in PAIRS])
def test_the_words_of_every_finding_under_every_value(switch: str, a: str, b: str) -> None:
    found = rendered(switch, a, b)
    if (switch, a, b) in NOT_SHOWN:
        assert found is None
        return
    assert found is not None, f"no vector case shows {switch} = {b} where the rules play {a}"
    data, failure, before = found
    value = {show(v): v for v in documented()[switch]}[a]
    assert data["example"]["start"]["ruleset"][switch] == value
    assert _facts_problems(switch, value, data, failure, before) == [], data["words"]


def test_every_switch_value_is_the_references_in_some_finding() -> None:
    # every value of every switch, and every rule a switch changes, is rendered above
    values = documented()
    assert {(s, show(a)) for s, a, _ in PAIRS} == {
        (s, show(v)) for s, vs in values.items() for v in vs}
    rules = {r for s in values for r in _switch_rules(s)}
    shown = {f"{data['rule']}" for s, a, b in PAIRS
             if (found := rendered(s, show(a), show(b))) is not None
             for data in [found[0]]}
    # min_players also changes DEAL.SIZE (the 5-player deal), but what differs between its
    # values is whether 5 players play at all: PLAYERS.COUNT's
    assert rules - shown == {"DEAL.SIZE"}, sorted(shown)


def _switch_rules(switch: str) -> list[str]:
    from rules_ref.registry import spec_toml

    (entry,) = [s for s in spec_toml("variants.toml")["switch"] if s["name"] == switch]
    return list(entry["rules"])


def test_the_difference_of_a_pass_direction_reads_the_references_direction() -> None:
    # the facts the words are read against are the reference's own: its pass direction
    found = rendered("pass_cycle", "left", "right")
    assert found is not None
    data, failure, before = found
    assert before.phase is Phase.PASSING and failure.fields == ["hands"]
    assert pass_direction(before.deal_number, before.ruleset) == "left"
    assert data["facets"][0]["words"] == "passes to the right where the rules pass to the left"
