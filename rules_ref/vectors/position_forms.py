"""The position-start form of a case (vectors version 2, contract version 2).

A case of a kind whose subject is a position in a deal (:data:`POSITION_KINDS`)
reaches its position by replaying a prefix from the start of the deal, so an
implementation whose passing or opening lead differs never gets there. Its
position-start form carries the position itself (``spec/position.md``)
in a protocol-version-2 ``start`` message, with an empty prefix and the same
steps (or perft count): an adapter that declares the capability ``position``
runs it wherever its own passing and leads differ. The form's id is the
case's id with :data:`SUFFIX`; the full-replay case stays beside it.
"""

from __future__ import annotations

from ..errors import InputError
from ..jsonio.serialize import action_from_json
from ..positions.check import check_position
from ..positions.convert import position_of, position_to_json
from ..positions.model import POSITION_PHASES
from ..protocol.start import position_start_json, start_state
from ..state import GameState
from .files import Case

#: The kinds that also have position-start forms.
POSITION_KINDS = ("legal-plays", "trick", "scoring", "moon", "game-end", "illegal-action",
                  "perft")
#: What a position-start form adds to the id of its full-replay case.
SUFFIX = ".position"
#: What the description of a position-start form says after the case's own.
NOTE = "Started from its position (protocol version 2, capability position)."


def is_position_start(start: object) -> bool:
    """True for a ``start`` message that carries a position."""
    return isinstance(start, dict) and "position" in start


def twin_id(case_id: str) -> str | None:
    """The id of the full-replay case of a position-start form's id, else ``None``."""
    return case_id[:-len(SUFFIX)] if case_id.endswith(SUFFIX) else None


def prefix_state(case: Case) -> GameState:
    """The reference's game at the end of a full-replay case's prefix."""
    state = start_state(case["start"])
    for action in case["prefix"]:
        state, _ = state.apply(action_from_json(action))
    return state


#: The rules whose outcome a position carries: rule -> the observation field that shows it.
#: A form whose steps never change that field cannot test the rule.
SETTLED = {"HEARTS.BROKEN": "hearts_broken"}


def settled(case: Case, state: GameState) -> list[str]:
    """The rules ``case`` claims whose outcome its position already holds: the field that
    shows it is set at the position and stays so after every step, so an engine wrong
    about the rule, given the position, passes the form (a Q♠ that never breaks hearts
    passes a form that starts with hearts broken by one). A form that starts with hearts
    unbroken is kept: its steps still tell rules apart that a later heart would meet."""
    seen = [step["expect"]["observation"] for step in case.get("steps", [])
            if "observation" in (step.get("expect") or {})]
    at_start = {"hearts_broken": state.hearts_broken}
    return [rule for rule, name in SETTLED.items() if rule in case["rules"] and at_start[name]
            and all(obs.get(name, at_start[name]) == at_start[name] for obs in seen)]


def position_form(case: Case) -> Case | None:
    """The position-start form of ``case``, or ``None`` when it would say nothing new or
    cannot test what the case claims.

    A case without a prefix already starts where its subject is; one whose
    prefix ends the game has no position to start from, and neither has one
    whose ``start`` gives totals no game reaches (a total already at the
    target before the deal: ``rules_ref.positions.convert.check_position``),
    nor one whose position holds the outcome of a rule it claims (:func:`settled`).
    """
    if not case.get("prefix") or is_position_start(case["start"]):
        return None
    state = prefix_state(case)
    if state.phase not in POSITION_PHASES or settled(case, state):
        return None
    position = position_of(state)
    try:
        check_position(position, state.ruleset)
    except InputError:
        return None
    start = position_start_json(case["players"], case["ruleset"], position_to_json(position))
    return {**case, "id": case["id"] + SUFFIX,
            "description": f"{case['description']} {NOTE}", "start": start, "prefix": []}


def with_position_forms(kind: str, cases: list[Case]) -> list[Case]:
    """The cases of ``kind``, each followed by its position-start form when it has one."""
    if kind not in POSITION_KINDS:
        return list(cases)
    out: list[Case] = []
    for case in cases:
        out.append(case)
        form = position_form(case)
        if form is not None:
            out.append(form)
    return out
