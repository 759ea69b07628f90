"""The result of a ``rules-ref conform`` run: one value, its verdict and its exit status.

A run (a search, a replay, or runs merged with ``--merge``) produces one
:class:`ConformResult`. Every report reads it: the text (:mod:`.run_text`),
the ``--json`` summary (its JSON form, :meth:`ConformResult.to_json`), the
Markdown and HTML file (:mod:`.document`) and ``--merge`` (:mod:`.merge`),
which reads the JSON forms of several runs back (:meth:`ConformResult.from_json`)
and makes one result of them. The JSON form is described by
``spec/schemas/conform-result.schema.json``.

The verdict is decided once, by :func:`decide_verdict`, from the
:class:`Grounds` of a result: read from a run's :class:`~rules_ref.conform.outcome.Outcome`
(:func:`grounds_of_outcome`) or from a result's JSON form (:func:`grounds_of_json`).
:data:`EXIT` is the exit status of each verdict.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..conform.outcome import Config, Outcome
from ..errors import InputError
from ..exercise.detect import RARE_PATHS
from ..findings.classes import Finding
from ..findings.failure import Failure
from ..findings.start_causes import EVERY_START
from .exercised import exercise_keys

#: The exit status of each verdict of ``rules-ref conform`` (spec/limits.md): 0 no unexpected
#: divergence, 1 an unexpected one (or, with ``--strict``, an expectation not seen), 2 an
#: adapter fault, 4 nothing tested, 6 an internal error the implementation reported.
EXIT = {"pass": 0, "disagreement": 1, "expected-not-seen": 1, "fault": 2, "nothing-tested": 4,
        "error": 6}

#: The counters every result carries: whole numbers, summed when results are merged.
COUNTERS = ("games", "deals", "actions_compared", "illegal_offered", "rule_citations_differing",
            "adapter_restarts")


@dataclass(frozen=True)
class Grounds:
    """What decides a run's verdict."""

    #: The kinds (``disagreement``, ``fault``, ``error``) of the findings no expectation covered.
    unexpected: frozenset[str]
    #: An adapter fault ended the run.
    fault: bool
    #: The implementation rejected every start it was offered: no game was played.
    every_start_rejected: bool
    #: The answers of the implementation compared with the reference's.
    compared: int
    #: Some expectation of ``--expect`` was never seen.
    not_seen: bool


def decide_verdict(grounds: Grounds, strict: bool = False) -> str:
    """``fault``, ``nothing-tested``, ``disagreement``, ``error``, ``expected-not-seen``, ``pass``.

    In this order: a fault; then every start rejected (nothing tested,
    whatever was expected); then an unexpected disagreement; then an internal
    error of the implementation; then no answer compared (nothing tested);
    then, with ``strict``, an expectation never seen. Only unexpected
    findings count.
    """
    if grounds.fault or "fault" in grounds.unexpected:
        return "fault"
    if grounds.every_start_rejected:
        return "nothing-tested"
    if "disagreement" in grounds.unexpected:
        return "disagreement"
    if "error" in grounds.unexpected:
        return "error"
    if grounds.compared == 0:
        return "nothing-tested"
    if strict and grounds.not_seen:
        return "expected-not-seen"
    return "pass"


def grounds_of_outcome(outcome: Outcome) -> Grounds:
    """The grounds of a search's or a replay's verdict (a replay: its one failure, if any)."""
    findings = outcome.findings
    if findings is None:
        kinds = frozenset() if outcome.failure is None else frozenset({outcome.failure.kind})
        return Grounds(kinds, outcome.fault is not None, False, outcome.stats.actions, False)
    return Grounds(frozenset(c.kind for c in findings.unexpected()), outcome.fault is not None,
                   outcome.stats.starts.all_rejected, outcome.stats.actions,
                   bool(findings.not_seen()))


def grounds_of_json(summary: Mapping[str, Any]) -> Grounds:
    """The grounds of the verdict of a result's JSON form (a merged one, say)."""
    classes = listed_classes(summary)
    unexpected = frozenset(
        str(c.get("kind")) if c.get("kind") in ("error", "fault") else "disagreement"
        for c in classes if not c.get("expected"))
    every_start = bool(summary.get("starts_offered") and summary.get("starts_played") == 0
                       and any(c.get("what") == EVERY_START for c in classes))
    compared = summary.get("actions_compared", 0)
    return Grounds(unexpected, summary.get("fault") is not None, every_start,
                   compared if isinstance(compared, int) else 0,
                   bool(summary.get("expected_not_seen")))


def legacy_classes(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The one finding of a result that has a ``failure`` but no ``classes`` (a replay's,
    or one written before findings existed), made from its failure."""
    failure = summary.get("failure")
    if not isinstance(failure, dict):
        return []
    rules = [str(r) for r in failure.get("rules") or []]
    what = str(failure.get("summary", ""))
    rule = rules[0] if rules else str(failure.get("kind", "failure"))
    return [{"key": f"{rule}: {what}", "rule": rule, "rules": rules, "what": what,
             "kind": str(failure.get("kind", "disagreement")), "switch": None,
             "expected": False, "expectation": None, "count": 1, "games": 1,
             "first_seen": None, "example": failure, "replay": summary.get("replay")}]


def listed_classes(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The findings of a result's JSON form (one made from its failure when it lists none)."""
    listed = summary.get("classes")
    return listed if isinstance(listed, list) else legacy_classes(summary)


@dataclass(frozen=True)
class ConformResult:
    """The result of a conform run, or of runs merged: what every report reads.

    It is held in its JSON form (``spec/schemas/conform-result.schema.json``), the
    form it has where it crosses a process or a file (``--json``, ``--merge``).
    """

    summary: dict[str, Any]

    @property
    def verdict(self) -> str:
        return str(self.summary.get("verdict"))

    @property
    def exit_status(self) -> int:
        """The exit status of the verdict (:data:`EXIT`)."""
        return EXIT.get(self.verdict, 1)

    @property
    def classes(self) -> list[dict[str, Any]]:
        """The findings, the unexpected first (:func:`listed_classes`)."""
        return listed_classes(self.summary)

    @property
    def compared(self) -> int:
        """The answers of the implementation compared with the reference's."""
        compared = self.summary.get("actions_compared")
        return compared if isinstance(compared, int) else 0

    def with_keys(self, keys: Mapping[str, Any]) -> ConformResult:
        """This result with ``keys`` set (those it has keep their place in its JSON form)."""
        return ConformResult({**self.summary, **keys})

    def to_json(self) -> dict[str, Any]:
        """The JSON form (``--json``)."""
        return self.summary

    @classmethod
    def from_json(cls, data: object, where: str) -> ConformResult:
        """A result read back from its JSON form; ``where`` names the file in a message.

        Only what merging needs is checked (:class:`~rules_ref.errors.InputError`): an
        object with a ``verdict``, whole-number counters and well-formed ``classes``.
        """
        if not isinstance(data, dict):
            raise InputError(f"{where}: not a conform summary (a JSON object written by "
                             "rules-ref conform --json)")
        if not isinstance(data.get("verdict"), str):
            raise InputError(f"{where}: not a conform summary (no \"verdict\"; write it with "
                             "rules-ref conform --json)")
        for name in COUNTERS:
            value = data.get(name)
            if type(value) is not int or value < 0:
                raise InputError(f"{where}: not a conform summary: {name!r} must be a whole "
                                 f"number 0 or more, not {json.dumps(value)[:40]}")
        classes = data.get("classes", None)
        if classes is not None and (not isinstance(classes, list) or not all(
                isinstance(c, dict) and isinstance(c.get("key"), str)
                and type(c.get("count")) is int and type(c.get("games", 0)) is int
                for c in classes)):
            raise InputError(f"{where}: \"classes\" must be a list of objects, each with a "
                             "\"key\" and a whole-number \"count\"")
        return cls(data)


# --- a run's result -----------------------------------------------------------------------

def rate(count: int, seconds: float) -> float:
    """``count`` per second."""
    return count / seconds if seconds > 0 else float("inf")


def primary_class(outcome: Outcome) -> Finding | None:
    """The class a one-failure report describes, the one that decides the verdict.

    A fault, else the first unexpected disagreement, else the first unexpected
    internal error, else the first class.
    """
    if outcome.findings is None:
        return None
    ordered = outcome.findings.ordered()
    rank = {"fault": 0, "disagreement": 1, "error": 2}
    first = sorted(ordered, key=lambda c: (c.expected, rank.get(c.kind, 3)))
    return first[0] if first else None


def primary_failure(outcome: Outcome) -> Failure | None:
    """The failure the report leads with (the primary class's example, or a replay's failure)."""
    cls = primary_class(outcome)
    if cls is not None:
        return cls.example or cls.smallest or cls.first
    return outcome.failure


def reproduce_command(config: Config, path: str | None) -> str | None:
    """The command line that plays the replay file ``path`` again."""
    return None if path is None else \
        f"rules-ref conform --replay {shlex.quote(path)} -- {shlex.join(config.command)}"


def run_result(outcome: Outcome, config: Config, replay_of: str | None = None
               ) -> ConformResult:
    """The result of a search, or of the replay of file ``replay_of``."""
    s = outcome.stats
    verdict = decide_verdict(grounds_of_outcome(outcome), config.strict)
    out: dict[str, Any] = {
        "verdict": verdict,
        "adapter": outcome.supports.name if outcome.supports else None,
        "seed": config.seed,
        "games": s.games, "deals": s.deals, "actions_compared": s.actions,
        "illegal_offered": s.illegal, "rule_citations_differing": s.citations,
        "refused_tables_offered": s.refused,
        "edge_tables_offered": s.edge,
        "position_starts": s.position_starts,
        "starts_offered": s.starts.starts, "starts_played": s.starts.played,
        "adapter_restarts": s.restarts,
        "seconds": round(outcome.seconds, 3),
        "deals_per_second": round(rate(s.deals, outcome.seconds), 1),
        "actions_per_second": round(rate(s.actions, outcome.seconds), 1),
        "examples": config.examples, "jobs": config.jobs,
        "players": [config.players] if config.players else (
            list(outcome.supports.players) if outcome.supports else []),
        "ruleset": config.ruleset.to_dict() if config.ruleset else "drawn",
        "stopped": outcome.stopped or None,
        "notes": outcome.notes,
        "rare_paths": {name: s.rare.get(name, 0) for name in RARE_PATHS},
        **exercise_keys(outcome, config),
        "divergences": s.divergences, "resyncs": s.resyncs, "games_cut_short": s.cut,
        "scores_followed": s.followed,
        "shard": None,
    }
    findings = outcome.findings
    if findings is not None:
        out["classes"] = [c.to_json() for c in findings.ordered()]
        out["expected_not_seen"] = [{**e.to_json(), "index": i}
                                    for i, e in findings.not_seen()]
    failure = primary_failure(outcome)
    if failure is not None:
        out["failure"] = failure.to_json()
        out["rules"] = failure.rules
    if outcome.fault is not None and failure is None:
        out["fault"] = outcome.fault.to_json()
    primary = primary_class(outcome)
    replay_path = primary.replay if primary is not None else None
    if replay_path is not None:
        out["replay"] = replay_path
    reproduce = reproduce_command(config, replay_path or replay_of)
    if failure is not None and reproduce:
        out["reproduce"] = reproduce
    if replay_of is not None:
        out["replay_of"] = replay_of
    return ConformResult(out)
