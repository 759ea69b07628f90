"""Comparing an adapter's answers with what a vector expects, and naming the rules.

:func:`compare` checks the fields a step lists against an observation and
raises :class:`AnswerDiffers` saying where they differ; :func:`blame` names the
case's rules that govern the differing fields (:data:`FIELD_RULES`). A
failure whose rules are known otherwise (a rejected or accepted action, a
prefix that already differed: :class:`FirstDifference`) carries them itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..jsonio.serialize import describe_action_json

#: The rules a difference in each observation field can fall under; a failure
#: cites those of them that the case covers (all of the case's rules when none).
FIELD_RULES: dict[str, tuple[str, ...]] = {
    "phase": ("TURN.ORDER", "PASS.DIRECTION", "MOON.CONDITION", "MOON.CHOICE", "GAME.END"),
    "deal_number": ("DEAL.DEALER",),
    "dealer": ("DEAL.DEALER",),
    "to_act": ("TURN.ORDER", "LEAD.OPENING_LEADER", "TRICK.NEXT_LEADER", "TRICK.WINNER",
               "TRICK.CANCEL", "VOID.TRICK", "VOID.LEADER", "MOON.CONDITION", "MOON.CHOICE"),
    "waiting_for": ("PASS.EXCHANGE", "PASS.DIRECTION", "TURN.ORDER"),
    "legal": ("LEAD.OPENING_CARD", "LEAD.OPENING_LEADER", "LEAD.HEARTS", "HEARTS.BROKEN",
              "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK", "TRICK.LED_SUIT", "VOID.LEADER",
              "MOON.CHOICE"),
    "hands": ("PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE", "DEAL.SOURCE", "TURN.ORDER"),
    "trick_number": ("TURN.ORDER", "DEAL.SIZE"),
    "leader": ("LEAD.OPENING_LEADER", "TRICK.NEXT_LEADER", "TRICK.WINNER", "TRICK.CANCEL",
               "VOID.TRICK", "VOID.LEADER"),
    "trick": ("TURN.ORDER",),
    "hearts_broken": ("HEARTS.BROKEN",),
    "last_trick": ("TRICK.WINNER", "TRICK.CANCEL", "TRICK.LED_SUIT", "DECK.RANKING",
                   "VOID.TRICK"),
    "pending": ("VOID.TRICK", "VOID.COLLECT", "EXTRAS.FIRST_TRICK", "TRICK.CANCEL",
                "VOID.LAST"),
    "points": ("SCORE.CARD_POINTS", "EXTRAS.FIRST_TRICK", "VOID.COLLECT", "VOID.LAST",
               "TRICK.WINNER", "TRICK.CANCEL", "VOID.TRICK"),
    "deal_scores": ("SCORE.DEAL", "SCORE.CARD_POINTS", "MOON.CONDITION", "MOON.CHOICE",
                    "VOID.LAST"),
    "totals": ("SCORE.DEAL", "MOON.CHOICE"),
    "winners": ("GAME.END", "GAME.WINNER"),
}


class AnswerDiffers(Exception):
    """An answer of the adapter that differs from what the case expects.

    ``rules``, when given, are the rules it is blamed on; else ``fields`` say
    which of the case's rules it falls under (:func:`blame`).
    """

    def __init__(self, message: str, fields: Iterable[str] = (),
                 rules: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.fields = tuple(fields)
        self.rules = list(rules)


@dataclass(frozen=True)
class FirstDifference:
    """The first point of a case's prefix where the adapter's game left the reference's."""

    where: str
    rules: list[str]
    detail: str

    def text(self) -> str:
        return f"the game already differed from the reference after {self.where}: {self.detail}"


def clip(value: object, limit: int = 120) -> str:
    """A value as compact JSON, cut to ``limit`` characters."""
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + "…"


def differences(expected: object, got: object, path: str) -> list[str]:
    """Where ``got`` differs from ``expected``, as ``path: expected X, got Y`` lines."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in expected:
            if key not in got:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(differences(expected[key], got[key], f"{path}.{key}"))
        return out
    if expected != got:
        return [f"{path}: expected {clip(expected)}, got {clip(got)}"]
    return []


def compare(expected: dict[str, Any], obs: dict[str, Any]) -> None:
    diffs: list[str] = []
    fields = []
    for name, value in expected.items():
        found = differences(value, obs[name], name) if name in obs else [f"{name}: missing"]
        if found:
            fields.append(name)
            diffs.extend(found)
    if diffs:
        more = f" (and {len(diffs) - 3} more)" if len(diffs) > 3 else ""
        raise AnswerDiffers("; ".join(diffs[:3]) + more, fields)


def describe(action: dict[str, Any] | None) -> str:
    return "the current observation" if action is None else describe_action_json(action)


def blame(case: dict[str, Any], fields: Sequence[str]) -> list[str]:
    """The case's rules that the differing fields fall under (all of them when none do)."""
    rules = list(case["rules"])
    narrowed = sorted({r for f in fields for r in FIELD_RULES.get(f, ()) if r in rules})
    return narrowed or rules
