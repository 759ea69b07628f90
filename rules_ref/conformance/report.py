"""The reports of a conformance run: a failure as lines of text, the JSON summary, rates."""

from __future__ import annotations

import json
import math
from typing import Any

from .exercise_report import exercise_keys
from .outcome import Config, Outcome
from .session import Failure, describe_action

RARE_PATHS: tuple[str, ...]
try:
    from .strategies import RARE_PATHS
except ImportError:  # pragma: no cover - the module ships with the package
    RARE_PATHS = ()


def json_line(value: object) -> str:
    """``value`` as compact JSON on one line."""
    return json.dumps(value, separators=(",", ":"))


def format_failure(failure: Failure) -> list[str]:
    """The report of a failure, as lines of text."""
    lines = []
    deals, actions = failure.size
    what = {"fault": "ADAPTER FAULT during a game",
            "error": "INTERNAL ERROR reported by the implementation"}.get(failure.kind,
                                                                          "DISAGREEMENT")
    lines.append(f"{what} (the game: {deals} deal(s), {actions} action(s) after the start)")
    if failure.rules:
        lines.append(f"  rule(s): {', '.join(failure.rules)}   (see: rules-ref rules "
                     f"{failure.rules[0]})")
    lines.append(f"  {failure.summary}")
    pos = failure.position
    if pos:
        where = (f"  position: {pos.get('players')} players, ruleset {pos.get('ruleset')}, "
                 f"deal {pos.get('deal_number')} (dealer {pos.get('dealer')}), "
                 f"phase {pos.get('phase')}")
        if pos.get("trick_number") is not None:
            where += f", trick {pos['trick_number']}"
        if pos.get("to_act") is not None:
            where += f", seat {pos['to_act']} to act"
        lines.append(where)
        if pos.get("hands"):
            lines.append("  hands:")
            for seat, hand in enumerate(pos["hands"]):
                lines.append(f"    seat {seat}: {' '.join(hand) or '-'}")
        if pos.get("phase") == "playing":
            lines.append(f"  trick so far (led by seat {pos.get('leader')}): "
                         f"{' '.join(pos.get('trick', [])) or '-'}")
        if pos.get("pending"):
            lines.append(f"  pending: {' '.join(pos['pending'])}")
        lines.append(f"  totals: {pos.get('totals')}")
        if pos.get("position_text"):
            # spec/position.md: paste it into a bug report, or draw it with `rules-ref position`
            lines.append(f"  position text: {pos['position_text']}")
    lines.append(f"  action: {describe_action(failure.failing)}"
                 + (f"   {json_line(failure.failing)}" if failure.failing else ""))
    if failure.kind == "fault" and failure.fault:
        f = failure.fault
        lines.append(f"  fault: {f.get('kind')}: {f.get('message')}")
    elif failure.fields or failure.others:
        for name in failure.fields + failure.others:
            tag = "" if name in failure.fields else " (consequence)"
            lines.append(f"  {name}{tag}:")
            lines.append(f"    reference:      {json_line(failure.expected.get(name))}")
            lines.append(f"    implementation: {json_line(failure.actual.get(name))}")
    else:
        lines.append(f"  reference:      {json_line(failure.expected)}")
        lines.append(f"  implementation: {json_line(failure.actual)}")
    if failure.note:
        lines.append(f"  note: {failure.note}")
    return lines


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else math.inf


def summary_dict(outcome: Outcome, config: Config, verdict: str,
                 replay_path: str | None = None) -> dict[str, Any]:
    s = outcome.stats
    out: dict[str, Any] = {
        "verdict": verdict,
        "adapter": outcome.supports.name if outcome.supports else None,
        "seed": config.seed,
        "games": s.games, "deals": s.deals, "actions_compared": s.actions,
        "illegal_offered": s.illegal, "rule_citations_differing": s.citations,
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
    }
    if outcome.failure is not None:
        out["failure"] = outcome.failure.to_json()
        out["rules"] = outcome.failure.rules
    if outcome.fault is not None and outcome.failure is None:
        out["fault"] = outcome.fault.to_json()
    if replay_path is not None:
        out["replay"] = replay_path
    return out
