"""A run compared with an earlier one (``--baseline OLD.json``): what is new, fixed, unchanged.

An implementation's CI keeps the ``--json`` report of a run it has accepted;
the next run, given it as its baseline, reports each failure as **new** (not
failing in the baseline), **unchanged** (failing in both) or **fixed**
(failing in the baseline, not now), and fails only on what is new. What is
compared: the failed cases of ``rules-ref vectors run`` (by case id), the
divergence classes of ``rules-ref conform`` (by class key). Everything else
(figures, times, the metadata of :mod:`.meta`) is not compared.

A conform run draws its games from its seed: a class of the baseline that a
run did not meet is reported as fixed *in this run*; with the same seed and
``--examples`` as the baseline, the same games are played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from .result import ConformResult, decide_verdict, grounds_of_json

#: The ``format`` of a ``vectors run --json`` report.
VECTORS_FORMAT = "cancellation-hearts-vectors-run"


@dataclass(frozen=True)
class Comparison:
    """The failures of a run sorted against a baseline's, each list in the run's order."""

    path: str
    new: tuple[str, ...]
    unchanged: tuple[str, ...]
    fixed: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path, "new": list(self.new), "unchanged": list(self.unchanged),
                "fixed": list(self.fixed)}

    def lines(self, noun: str, shown: int = 5) -> list[str]:
        """What the text report says of the comparison; ``noun``: what a failure is."""
        def listed(ids: Sequence[str]) -> str:
            more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
            return ": " + ", ".join(ids[:shown]) + more if ids else ""

        return [f"against the baseline {self.path}: {len(self.new)} new, "
                f"{len(self.unchanged)} unchanged, {len(self.fixed)} fixed {noun}"]\
            + [f"  {what}{listed(ids)}" for what, ids in (
                ("new", self.new), ("unchanged", self.unchanged), ("fixed", self.fixed)) if ids]


def compare(path: str, before: Iterable[str], now: Iterable[str]) -> Comparison:
    """Sort the failures ``now`` against those ``before``.

    >>> c = compare("old.json", ["a", "b"], ["b", "c"])
    >>> c.new, c.unchanged, c.fixed
    (('c',), ('b',), ('a',))
    """
    old, current = list(dict.fromkeys(before)), list(dict.fromkeys(now))
    return Comparison(path, tuple(k for k in current if k not in old),
                      tuple(k for k in current if k in old),
                      tuple(k for k in old if k not in current))


def vector_failures(report: Mapping[str, Any], where: str) -> list[str]:
    """The ids of the failed cases of a ``vectors run --json`` report."""
    cases = report.get("cases")
    if report.get("format") != VECTORS_FORMAT or not isinstance(cases, list) or not all(
            isinstance(c, dict) and isinstance(c.get("id"), str) for c in cases):
        raise InputError(f"{where}: not a vectors report (the JSON that rules-ref vectors run "
                         "--json prints)")
    return [c["id"] for c in cases if c.get("status") == "fail"]


def conform_failures(summary: object, where: str) -> list[str]:
    """The keys of the classes of a ``conform --json`` report that failed it (unexpected)."""
    result = ConformResult.from_json(summary, where)
    return [str(c["key"]) for c in result.classes if not c.get("expected")]


def against_baseline(result: ConformResult, comparison: Comparison) -> ConformResult:
    """A conform result in which a class the baseline already had does not fail the run.

    Such a class is marked expected and ``baseline``; the verdict is decided
    again (:func:`~.result.decide_verdict`).
    """
    known = set(comparison.unchanged)
    classes = [{**c, "expected": True, "baseline": True}
               if not c.get("expected") and c.get("key") in known else c
               for c in result.classes]
    summary = {**result.summary, "classes": classes, "baseline": comparison.to_json()}
    strict = bool(summary.get("strict"))
    return ConformResult({**summary,
                          "verdict": decide_verdict(grounds_of_json(summary), strict)})
