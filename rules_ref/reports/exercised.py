"""The per-rule exercise summary of a conform run: its JSON keys and its lines of text.

The catalogue of conditions (:mod:`~rules_ref.exercise.catalogue`) depends on what the run
could draw: the player counts and switch values the adapter supports, or
the one ruleset asked for (:class:`~rules_ref.conform.choosers.RulesetDrawer`).
"""

from __future__ import annotations

import textwrap
from typing import Any

from ..conform.choosers import RulesetDrawer
from ..conform.illegal_kinds import KINDS
from ..conform.outcome import Config, Outcome
from ..deal import DEAL_CONSTRAINTS
from ..exercise import catalogue as exercise
from ..wording import counted


def reachable(outcome: Outcome, config: Config) -> tuple[str, ...]:
    """The conditions the run could exercise ("" when the adapter was never reached)."""
    supports = outcome.supports
    if supports is None:
        return ()
    players = (config.players,) if config.players else tuple(supports.players)
    return RulesetDrawer(supports).catalogue(players, config.ruleset)


def impossible(outcome: Outcome, config: Config) -> tuple[str, ...]:
    """The conditions the run's declared rules make impossible (not counted as missed)."""
    supports = outcome.supports
    if supports is None:
        return ()
    players = (config.players,) if config.players else tuple(supports.players)
    return exercise.impossible(RulesetDrawer(supports).scope(players, config.ruleset))


def exercised_count(outcome: Outcome, reach: tuple[str, ...]) -> int:
    """How many of the conditions ``reach`` the run exercised: from 0 to ``len(reach)``.

    Counted from the conditions themselves: ``never_exercised`` also names the
    rules with no condition the run could reach, so ``len(reach)`` less its
    length would fall below zero for a run that reaches few.
    """
    counts = outcome.stats.exercise
    return sum(1 for key in reach if counts.get(key))


def exercise_keys(outcome: Outcome, config: Config) -> dict[str, Any]:
    """The JSON keys ``exercise``, ``never_exercised``, ``impossible``, ``offers`` and
    ``deal_constraints``.

    The conditions aimed at with deals the adapter's deal constraints exclude
    and not met are not counted as missed: ``deal_constraints.not_tested``
    names them, beside the deals drawn and not sent.
    """
    s = outcome.stats
    table, never = exercise.summary(s.exercise, reachable(outcome, config))
    declared = outcome.supports.deal_constraints if outcome.supports else ()
    excluded = [k for k in exercise.constrained(declared) if k in never]
    offers = {kind: s.offers.get(kind, 0) for kind in KINDS}
    offers.update({k: v for k, v in s.offers.items() if k not in offers})
    return {"exercise": table, "never_exercised": [k for k in never if k not in excluded],
            "impossible": list(impossible(outcome, config)), "offers": offers,
            "deal_constraints": {"declared": list(declared),
                                 "deals_not_sent": {c: s.constrained.get(c, 0)
                                                    for c in declared},
                                 "not_tested": excluded}}


def constraint_words(block: object) -> str | None:
    """What the declared deal constraints left untested, in one line (``None``: none declared).

    ``block`` is a result's ``deal_constraints`` (:func:`exercise_keys`); the
    text and the Markdown and HTML reports print this line.
    """
    if not isinstance(block, dict) or not block.get("declared"):
        return None
    sent = block.get("deals_not_sent") or {}
    parts = []
    for cid in block["declared"]:
        known = DEAL_CONSTRAINTS.get(str(cid))
        what = known.excludes if known else str(cid)
        parts.append(f"{what} ({cid}: {counted(int(sent.get(cid, 0)), 'deal')} drawn and "
                     "changed to keep it)")
    line = "not tested because of the declared deal constraints: " + "; ".join(parts)
    conditions = block.get("not_tested") or []
    if conditions:
        line += "; conditions not met: " + "; ".join(map(str, conditions))
    return line


def exercise_lines(outcome: Outcome, config: Config) -> list[str]:
    """The text summary: rules and conditions exercised, those never exercised, the offers."""
    keys = exercise_keys(outcome, config)
    table: dict[str, dict[str, int]] = keys["exercise"]
    never: list[str] = keys["never_exercised"]
    reach = reachable(outcome, config)
    rules_done = sum(1 for c in table.values() if c and all(c.values()))
    lines = [f"  rules exercised: {rules_done} of {len(table)} in full; conditions exercised: "
             f"{exercised_count(outcome, reach)} of {len(reach)} in {outcome.seconds:.1f} s"]
    per_rule = ", ".join(f"{rule} {sum(c.values())}" for rule, c in table.items())
    lines.append(textwrap.fill(f"times each rule's conditions were exercised: {per_rule}", 100,
                               initial_indent="  ", subsequent_indent="    "))
    if never:
        lines.append(textwrap.fill("not reached: " + "; ".join(never), 100,
                                   initial_indent="  ", subsequent_indent="    "))
    if keys["impossible"]:
        lines.append(textwrap.fill(
            f"impossible under the declared rules ({len(keys['impossible'])} conditions, "
            "not counted): " + "; ".join(keys["impossible"]), 100,
            initial_indent="  ", subsequent_indent="    "))
    offered = ", ".join(f"{kind} {n}" for kind, n in keys["offers"].items() if n)
    if offered:
        lines.append(textwrap.fill(f"illegal actions offered, by kind: {offered}", 100,
                                   initial_indent="  ", subsequent_indent="    "))
    return lines
