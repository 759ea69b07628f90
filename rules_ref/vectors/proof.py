"""Each case proven to test what it claims: a fault of a rule it cites fails it.

A case cites the rules it covers (``rules``). It tests one of them only if an
engine that plays that rule otherwise fails it; a case that every such engine
passes says nothing about its rules (a form that starts from a position
already holding hearts broken passes an engine whose Q♠ never breaks hearts).
The faults of a rule are the alternatives an implementation plays in its place
(:mod:`rules_ref.findings.alternatives`), each applied to the reference:

* another value of a switch that changes the rule (``spec/variants.toml``):
  the engine plays it although it was sent the case's;
* a common slip of the rule (a pair that does not cancel, a trick nobody wins
  kept by its leader, …), made at one play of the case and the game then
  played on by the reference;
* a fault of one card (:mod:`.card_faults`: its copies do not cancel, it
  ranks one place lower, its points are off by one, a heart that does not
  break hearts), read from a trick case's last trick;
* the rule not enforced: the engine accepts every action that breaks this
  rule alone, and lists every card it alone forbids as legal.

A fault fails a case when the runner would fail the engine that has it: a
start or a prefix action rejected, a step accepted that the case expects
rejected (or the reverse), an observed field that differs, another perft
count. :func:`proof` names the first fault that does, rules in the case's
order (its :data:`FIELD`); ``rules-ref vectors generate`` writes it into every
protocol case, prints the count proven per kind (:func:`proof_lines`), and
publishes no position-start form without one (:func:`with_proofs`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..actions import Action, Play
from ..cards import parse_card
from ..errors import RulesRefError
from ..findings.alternatives import slips, switch_rules
from ..jsonio.serialize import action_from_json
from ..protocol.observation import observe
from ..protocol.start import requested_state
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from .card_faults import FAULTS, fails
from .files import Case
from .kinds.perft import perft
from .position_forms import POSITION_KINDS, SUFFIX, is_position_start, position_form, twin_id
from .requirements import ANALYSED_KINDS, documented, show, with_ruleset
from .rule_faults import Fault, faults_of

Json = Any

#: The field of a protocol case that records the fault that fails it (``spec/vectors/README.md``).
FIELD = "proven_by"
#: The rule each fault of one card plays otherwise (:data:`.card_faults.FAULTS`).
CARD_RULES = {"cancel": "TRICK.CANCEL", "rank": "DECK.RANKING", "points": "SCORE.CARD_POINTS",
              "breaks": "HEARTS.BROKEN"}
#: The name of each fault of one card, as a proof records it.
CARD_SLIPS = {"cancel": "card-not-cancelled", "rank": "card-ranked-lower",
              "points": "card-points-off", "breaks": "card-not-breaking"}

#: A point of a case's game: the actions of its prefix, then of its steps, each with what it
#: expects (``None`` in the prefix: accepted, nothing compared).
Entry = tuple[Json, Json]


def _entries(case: Case) -> list[Entry]:
    return ([(a, None) for a in case["prefix"]]
            + [(s["action"], s.get("expect") or {}) for s in case.get("steps", [])])


def _parsed(action: Json) -> Action:
    return action_from_json(action)


def _rejected(state: GameState, action: Json) -> bool:
    try:
        state.apply(_parsed(action))
    except RulesRefError:
        return True
    return False


def _differs(expected: Mapping[str, Json], seen: Mapping[str, Json]) -> bool:
    return any(seen.get(f) != v for f, v in expected.items())


def _perft_differs(case: Case, state: GameState) -> bool:
    if state.phase is not Phase.PLAYING:
        return True
    return bool(perft(state, int(case["depth"]))[1] != case["expected"]["divide"])


def _plays_on(case: Case, entries: Sequence[Entry], state: GameState) -> bool:
    """Does the reference, from ``state`` on, fail what ``entries`` expect (True: the case
    fails)?"""
    for action, expect in entries:
        if expect is not None and "rejected" in expect:
            if not _rejected(state, action):
                return True
            continue
        if action is not None:
            try:
                state, _ = state.apply(_parsed(action))
            except RulesRefError:
                return True
        if expect and _differs(expect["observation"], observe(state)):
            return True
    return case.get("depth") is not None and _perft_differs(case, state)


# --- the faults ------------------------------------------------------------------------------


def _value_state(case: Case, switch: str, value: Json) -> GameState | None:
    """Where an engine that plays ``value`` of ``switch`` starts ``case`` (None: nowhere).

    Given a position it takes the position as told and plays on by its own value; given a
    deal it deals it by its own rules, which may refuse it (a refusal proves nothing: an
    engine need not check a start as the reference does).
    """
    ruleset = {**case["ruleset"], switch: value}
    try:
        if is_position_start(case["start"]):
            return requested_state(case["start"])._with(ruleset=Ruleset.from_dict(ruleset))
        return requested_state(with_ruleset(case, ruleset)["start"])
    except RulesRefError:
        return None


def _value_fails(case: Case, switch: str, value: Json) -> bool:
    """Does an engine that plays ``value`` of ``switch`` where the case sends its own fail it?"""
    state = _value_state(case, switch, value)
    if state is None:
        return False
    try:
        return _plays_on(case, _entries(case), state)
    except (AssertionError, IndexError, ValueError):
        return False  # a value that decides a deal from its start met in its middle


def _walk(case: Case) -> Iterator[tuple[int, GameState, Json, GameState]]:
    """The reference's game through ``case``: each accepted action's index, the state before
    it, the action, the state after it."""
    state = requested_state(case["start"])
    for i, (action, expect) in enumerate(_entries(case)):
        if expect is not None and "rejected" in expect:
            continue
        if action is None:
            continue
        after, _ = state.apply(_parsed(action))
        yield i, state, action, after
        state = after


def _slip_fails(case: Case, rule: str) -> str | None:
    """The first common slip of ``rule`` that fails ``case``, made at one of its plays."""
    entries = _entries(case)
    for i, before, action, after in _walk(case):
        parsed = _parsed(action)
        for alt, slipped in slips(before, parsed, after):
            if alt.rule != rule or alt.slip is None:
                continue
            expect = entries[i][1]
            if isinstance(slipped, dict):  # a slip of what a seat may play next
                if expect and _differs(expect["observation"], {**observe(after), **slipped}):
                    return alt.slip
                continue
            if expect and _differs(expect["observation"], observe(slipped)):
                return alt.slip
            if _plays_on(case, entries[i + 1:], slipped):
                return alt.slip
    return None


def _accepts(fault: Fault, state: GameState, action: Json) -> bool:
    """Does the engine with ``fault`` accept ``action`` in ``state``?"""
    try:
        parsed = _parsed(action)
    except RulesRefError:
        return False
    if fault.accepts is not None:
        verdict = fault.accepts(state, action)
        if verdict is not None:
            return verdict
    if fault.legal is not None and isinstance(parsed, Play) and state.phase is Phase.PLAYING \
            and parsed.seat == state.to_act:
        legal = fault.legal(state)
        if legal is not None:
            return parsed.card in legal
    return not _rejected(state, action)


def _shown(fault: Fault, state: GameState) -> dict[str, Json]:
    seen = observe(state)
    if fault.legal is not None:
        legal = fault.legal(state)
        if legal is not None:
            seen["legal"] = [str(c) for c in legal]
    if fault.seen is not None:
        seen.update(fault.seen(state))
    return seen


def fault_fails(case: Case, fault: Fault) -> bool:
    """Does the engine with ``fault`` (the reference elsewhere) fail ``case``?"""
    state = requested_state(case["start"])
    for action, expect in _entries(case):
        if expect is not None and "rejected" in expect:
            if _accepts(fault, state, action):
                return True
            continue
        if action is not None:
            if not _accepts(fault, state, action):
                return True
            parsed = _parsed(action)
            after, _ = state.apply(parsed)
            state = after if fault.after is None else fault.after(state, parsed, after)
        if expect and _differs(expect["observation"], _shown(fault, state)):
            return True
    if case.get("depth") is None:
        return False
    if fault.legal is not None and fault.legal(state) not in (None, state.legal_plays()):
        return True
    return fault.after is not None and _perft_differs(case, state)


def _card_fault(case: Case, rule: str) -> tuple[str, str] | None:
    """The first fault of one card of ``rule`` that fails a trick case: (its name, the card)."""
    last = case.get("steps") or []
    seen = ((last[0].get("expect") or {}).get("observation") or {}) if len(last) == 1 else {}
    trick = seen.get("last_trick")
    if not isinstance(trick, dict):
        return None
    for fault in FAULTS:
        if CARD_RULES[fault] != rule:
            continue
        for text in dict.fromkeys(trick["cards"]):
            if fails(case, parse_card(text), fault):
                return CARD_SLIPS[fault], text
    return None


def faults_for(case: Case, rule: str) -> Iterator[Fault]:
    """The faults of ``rule`` that :mod:`.rule_faults` adds, for ``case`` (a fault about a
    card is about a card of the reference's game of the case)."""
    return faults_of(rule, lambda: ((b, _parsed(a), s) for _, b, a, s in _walk(case)))


def _rule_proof(case: Case, rule: str) -> dict[str, Json] | None:
    """The first fault of ``rule`` that fails ``case`` (values, then slips, then one card,
    then the rule not enforced), as :data:`FIELD` records it."""
    own = case["ruleset"]
    for switch, values in documented().items():
        if rule not in switch_rules(switch):
            continue
        for value in values:
            if value != own.get(switch) and _value_fails(case, switch, value):
                return {"rule": rule, "switch": switch, "value": value}
    slip = _slip_fails(case, rule)
    if slip is not None:
        return {"rule": rule, "slip": slip}
    card = _card_fault(case, rule)
    if card is not None:
        return {"rule": rule, "slip": card[0], "card": card[1]}
    for fault in faults_for(case, rule):
        if fault_fails(case, fault):
            return {"rule": rule, "slip": fault.slip,
                    **({} if fault.card is None else {"card": fault.card})}
    return None


def proof(case: Case) -> dict[str, Json] | None:
    """The first fault of a rule ``case`` cites that fails it, else ``None`` (unproven).

    >>> from rules_ref.vectors.files import load_dir, iter_cases, latest_dir
    >>> case = next(c for _, c in iter_cases(load_dir(latest_dir()), ["legal-plays"])
    ...             if c["id"] == "legal-plays/opening-no-points-p6")
    >>> proof(case)
    {'rule': 'LEAD.OPENING_CARD', 'switch': 'opening_lead', 'value': 'two-of-clubs'}
    """
    for rule in case["rules"]:
        try:
            found = _rule_proof(case, rule)
        except RulesRefError:
            continue
        if found is not None:
            return found
    return None


def fault_text(found: Mapping[str, Json]) -> str:
    """A proof as one line: ``hearts_broken_by heart-only``, ``slip pair-not-cancelled``."""
    if "switch" in found:
        return f"{found['switch']} {show(found['value'])}"
    card = f" ({found['card']})" if "card" in found else ""
    return f"{found['slip']}{card}"


def with_proofs(kind: str, cases: Sequence[Case]) -> list[Case]:
    """The cases of ``kind``, each protocol case with its :data:`FIELD` (the fault that fails
    it); a position-start form that no fault fails is left out (it could not tell an engine
    wrong about its rules), a full-replay case without one is kept without the field."""
    if kind not in ANALYSED_KINDS:
        return list(cases)
    out = []
    for case in cases:
        found = proof(case)
        if found is None and twin_id(str(case["id"])) is not None:
            continue
        out.append(case if found is None else {**case, FIELD: found})
    return out


def proof_counts(pairs: Sequence[tuple[str, Case]]) -> dict[str, tuple[int, int]]:
    """Each kind -> (cases proven, cases not), read from their :data:`FIELD`."""
    out: dict[str, tuple[int, int]] = {}
    for kind, case in pairs:
        proven, not_proven = out.get(kind, (0, 0))
        out[kind] = (proven + 1, not_proven) if FIELD in case else (proven, not_proven + 1)
    return out


def unproven(pairs: Sequence[tuple[str, Case]]) -> list[str]:
    """The ids of the protocol cases no fault of their rules fails."""
    return [str(c["id"]) for k, c in pairs if k in ANALYSED_KINDS and FIELD not in c]


def unproven_forms(pairs: Sequence[tuple[str, Case]]) -> list[str]:
    """The ids of the position-start forms left out for want of a proof: the form of a case
    that would have one (:func:`.position_forms.position_form`) but is not among ``pairs``."""
    ids = {str(c["id"]) for _, c in pairs}
    out = []
    for kind, case in pairs:
        cid = str(case["id"])
        if kind not in POSITION_KINDS or twin_id(cid) is not None or not case.get("prefix") \
                or cid + SUFFIX in ids:
            continue
        form = position_form(case)
        if form is not None:
            out.append(str(form["id"]))
    return out


def proof_problems(cases: Sequence[Case]) -> list[str]:
    """Each analysed case without a proof, or whose proof names a rule it does not cite."""
    out = []
    for case in cases:
        found = case.get(FIELD)
        if not isinstance(found, dict):
            out.append(f"{case['id']}: no fault of a rule it cites fails it ({FIELD} missing)")
        elif found.get("rule") not in case.get("rules", []):
            out.append(f"{case['id']}: {FIELD} names {found.get('rule')}, a rule it does not "
                       "cite")
    return out


def proof_lines(pairs: Sequence[tuple[str, Case]]) -> list[str]:
    """The proofs as text: per kind, how many cases a fault of their rules fails."""
    lines = ["proofs: for each kind, the cases a fault of a rule they cite fails"]
    counts = proof_counts([(k, c) for k, c in pairs if k in ANALYSED_KINDS])
    for kind in (k for k in ANALYSED_KINDS if k in counts):
        proven, not_proven = counts[kind]
        lines.append(f"  {kind}: {proven} of {proven + not_proven} proven")
    missing = unproven(pairs)
    lines.append(f"{len(missing)} unproven" + (": " + ", ".join(missing) if missing else ""))
    left = unproven_forms(pairs)
    lines.append(f"{len(left)} position-start form{'s' if len(left) != 1 else ''} left out, "
                 "no fault failing them" + (": " + ", ".join(left) if left else ""))
    return lines


__all__ = ["CARD_RULES", "CARD_SLIPS", "FIELD", "fault_fails", "fault_text", "faults_for",
           "proof", "proof_counts", "proof_lines", "proof_problems", "unproven",
           "unproven_forms", "with_proofs"]
