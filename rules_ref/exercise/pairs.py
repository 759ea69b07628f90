"""Pairs of rare conditions: a rare situation of the rules met under one value of a switch.

A difference between an implementation and the reference may show only
where two rare things meet: a void last trick with the extras still pending
under ``last_trick_void = leader``, a moon shot by two seats under
``moon = others-52``. The catalogue (:mod:`.catalogue`) counts each
condition alone, so a run can exercise both halves of such a pair in
different games and never the pair. A *pair* is one rare condition of
:data:`PAIRED` met in a step whose ruleset has one value of a switch that
decides something in that situation or in the rest of its deal; its key is
the condition's key followed by the value (``VOID.LAST: the last trick is
void with the extras still pending, under last_trick_void = leader``).

:func:`pair_conditions` reads the pairs a step met from the conditions it
went through (:func:`~rules_ref.exercise.detect.step_conditions` adds them,
so the run's tally counts them beside the conditions); :func:`reachable_pairs` lists
those a run can reach, given what it may draw, for the search to aim at
(:mod:`rules_ref.conform.aims`). A pair is never a condition of the
catalogue: the report's conditions, and what it says was never exercised,
are the catalogue's alone.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from ..wording import switch_value
from . import catalogue as ex
from .catalogue import CONDITIONS, PAIR_JOIN, Scope, is_pair

#: The rare conditions paired with switch values, each with the switches whose value
#: decides something in that situation or later in its deal: for a trick set aside at the
#: deal's end, who takes the pile (``last_trick_void``) and what the deal then scores
#: (the moon switches, the 10♦); for trick 1, who leads it and what it may hold; for the
#: opening exception and the forced leads, what breaks hearts; for a moon, how it scores
#: and whether the opening or the pile could have taken it away; for the game's end, the
#: target and the moon scores that reach it. A switch that also names the condition's own
#: value (``VOID.LAST: under last_trick_void = ...``, counted at every void last trick)
#: is paired only where the condition is narrower than that value's.
PAIRED: dict[str, tuple[str, ...]] = {
    f"VOID.LAST: {ex.VOID_LAST}": ("moon_pair", "ten_of_diamonds_points"),
    f"VOID.LAST: {ex.VOID_LAST_EXTRAS}": ("last_trick_void",),
    f"EXTRAS.FIRST_TRICK: {ex.EXTRAS_PENDING}": ("opening_lead", "first_trick_points",
                                                   "last_trick_void"),
    f"VOID.COLLECT: {ex.COLLECT_EXTRAS}": ("ten_of_diamonds_points",),
    f"LEAD.OPENING_CARD: {ex.OPEN_ONLY_POINTS}": ("hearts_broken_by", "first_trick_points"),
    f"LEAD.HEARTS: {ex.HEART_LED_FORCED}": ("hearts_broken_by",),
    f"LEAD.HEARTS: {ex.QUEEN_LED_FORCED}": ("hearts_broken_by",),
    f"MOON.CONDITION: {ex.MOON}": ("moon_pair", "ten_of_diamonds_points", "last_trick_void",
                                   "opening_lead"),
    f"MOON.CONDITION: {ex.PAIR_MOON}": ("moon", "ten_of_diamonds_points"),
    f"GAME.WINNER: {ex.WINS_TIED}": ("moon", "target"),
}

#: The conditions :data:`PAIRED` names, for one test of a step's conditions.
_PAIRED_KEYS = frozenset(PAIRED)


def pair_key(condition: str, switch: str, value: object) -> str:
    """The key of ``condition`` met under ``switch = value``."""
    return f"{condition}{PAIR_JOIN}{switch} = {switch_value(value)}"


def parts(key: str) -> tuple[str, str, str] | None:
    """``(condition key, switch, shown value)`` of a pair's key, else ``None``."""
    condition, _, rest = key.rpartition(PAIR_JOIN)
    if not is_pair(key) or condition not in PAIRED:
        return None
    switch, _, value = rest.partition(" = ")
    return condition, switch, value


def pair_conditions(conditions: Collection[str], ruleset: object) -> list[str]:
    """The pairs met by a step that went through ``conditions`` under ``ruleset``."""
    if _PAIRED_KEYS.isdisjoint(conditions):
        return []  # most steps meet no paired condition: one test
    out: list[str] = []
    for key in conditions:  # a lookup per condition: the tally of every step runs this
        switches = PAIRED.get(key)
        if switches:
            out += [pair_key(key, s, getattr(ruleset, s)) for s in switches]
    return out


@cache
def _needs() -> dict[str, ex.Needs]:
    return {c.key: c.needs for c in CONDITIONS}


def reachable_pairs(scope: Scope) -> tuple[str, ...]:
    """Every pair a run of this scope can reach: each paired condition under each value the
    run draws of its switches, when it draws more than one and the condition can be met
    under that value."""
    needs = _needs()
    out: list[str] = []
    for condition, switches in PAIRED.items():
        if not needs[condition](scope):
            continue
        for switch in switches:
            values = list(scope.values.get(switch, ()))
            if len(values) < 2:
                continue
            for value in values:
                narrowed = Scope(scope.players, {**scope.values, switch: [value]})
                if needs[condition](narrowed):
                    out.append(pair_key(condition, switch, value))
    return tuple(out)
