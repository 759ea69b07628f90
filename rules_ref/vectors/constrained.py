"""The cases a deal constraint keeps from an adapter (``spec/deal.md``, section 8).

An adapter may declare that its engine never makes some deals
(``hello.supports.deal_constraints``). A case whose deal breaks one of them (its
``start``, a ``deal`` action of its prefix or steps, or, for a position-start
form, the deal of the case it is the form of) is skipped, and the run says what
the constraints left untested: the cases, and the declared values only such cases test.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..cards import Card, parse_card
from ..deal import DEAL_CONSTRAINTS, broken_constraints, check_deal
from ..errors import RulesRefError
from .case_replay import SKIP, CaseResult
from .files import Case
from .position_forms import is_position_start, twin_id

#: How a skipped case names a deal constraint it lacks, before the constraint's ID.
NEED = "deal constraint "


def _dealt(hands: object, extras: object) -> tuple[list[list[Card]], list[Card]] | None:
    """A deal in JSON form as cards, when it is one the rules deal (else ``None``)."""
    if not isinstance(hands, list) or not isinstance(extras, list):
        return None
    try:
        parsed = [[parse_card(c) for c in hand] for hand in hands]
        rest = [parse_card(c) for c in extras]
        check_deal(parsed, rest, len(parsed))
    except (TypeError, RulesRefError):
        return None
    return parsed, rest


def case_deals(case: Case) -> Iterator[tuple[list[list[Card]], list[Card]]]:
    """Every deal ``case`` sends: its ``start``'s, then each ``deal`` action's, in order."""
    start = case.get("start")
    if isinstance(start, dict) and "hands" in start:
        dealt = _dealt(start["hands"], start.get("extras", []))
        if dealt is not None:
            yield dealt
    actions: list[Any] = list(case.get("prefix") or [])
    actions += [s.get("action") for s in case.get("steps") or [] if isinstance(s, dict)]
    for action in actions:
        if isinstance(action, dict) and action.get("type") == "deal":
            dealt = _dealt(action.get("hands"), action.get("extras", []))
            if dealt is not None:
                yield dealt


def broken_by(case: Case, constraints: Sequence[str],
              cases: Mapping[str, Case]) -> tuple[str, ...]:
    """The declared ``constraints`` that a deal of ``case`` breaks (none: it may be sent).

    A position-start form carries no deal: it is judged by the deal of its
    full-replay case, found in ``cases`` (by id).
    """
    if not constraints:
        return ()
    source = case
    twin = twin_id(str(case["id"]))
    if is_position_start(case.get("start")) and twin is not None and twin in cases:
        source = cases[twin]
    broken: dict[str, None] = {}
    for hands, extras in case_deals(source):
        broken.update(dict.fromkeys(broken_constraints(hands, extras, constraints)))
    return tuple(broken)


def excluded(case: Case, broken: Sequence[str]) -> CaseResult:
    """The outcome of a case skipped because its deal breaks the constraints ``broken``."""
    words = "; ".join(f"{DEAL_CONSTRAINTS[c].excludes} ({c})" for c in broken)
    return CaseResult(str(case["id"]), SKIP, [],
                      f"its deal is one the adapter never makes: {words}",
                      [NEED + c for c in broken])


def is_constraint(need: str) -> bool:
    """True for what a skipped case lacks because of a deal constraint (not a declaration)."""
    return need.startswith(NEED)


def untested_words(declared: Sequence[str], cases: Mapping[str, Sequence[str]],
                   values: Sequence[str]) -> str | None:
    """What the declared deal constraints left untested, in one line (``None``: none declared).

    ``cases``: case id -> the constraints its deal breaks; ``values``: the
    declared values left untested because such cases were skipped (``moon_pair none``).
    """
    if not declared:
        return None
    per = {c: sum(c in broken for broken in cases.values()) for c in declared}
    parts = [f"{DEAL_CONSTRAINTS[c].excludes} ({c}): {per[c]} case{'s' if per[c] != 1 else ''}"
             for c in declared]
    line = ("not tested because of the declared deal constraints: " + "; ".join(parts)
            + f" ({len(cases)} case{'s' if len(cases) != 1 else ''} skipped)")
    if values:
        line += f"; declared values they left untested: {', '.join(values)}"
    return line
