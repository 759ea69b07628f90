"""Merging the results of conformance runs (``rules-ref conform --merge A.json B.json``).

Shards of a run (``--shard K/N``) or separate runs against the same adapter
write their results with ``--json``; :func:`merge_results` makes one
result of them (:func:`merge_summaries` on their JSON forms), as one long
run would have written it: the counters summed; the divergence classes
merged by their key (counts and games summed, the earliest first sighting,
the smallest example kept, with its replay file); an expectation reported
"expected, not seen" only if no run saw it; the rules exercised and the
illegal actions offered summed.
:func:`~.result.decide_verdict` decides its verdict, as for a single run
with that result, and so its exit status (:func:`merged_exit`).

Summaries of different runs cannot be merged: another adapter, another
ruleset or player counts, or another version of the rules
(:func:`rules_version`) is an :class:`~rules_ref.errors.InputError`.
A summary written before classes existed (only ``"failure"``) counts as
one class made from its failure.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from ..errors import InputError
from ..findings.classes import finding_lines, start_plainness
from .result import COUNTERS, ConformResult, decide_verdict, grounds_of_json, legacy_classes

#: Other whole-number counters a summary may carry (summed when present).
OPTIONAL_COUNTERS = ("games_cut_short", "divergences", "resyncs", "refused_tables_offered",
                     "edge_tables_offered", "position_starts", "starts_offered",
                     "starts_played")
#: What must be the same in every summary merged: the key and how a message names it.
SAME_RUN = (("adapter", "adapter"), ("ruleset", "ruleset"), ("players", "player counts"),
            ("rules_version", "rules version"))


@cache
def rules_version() -> str:
    """A short digest of the rules in force (IDs, statements, status) of ``spec/rules.toml``.

    Two runs with the same digest checked the same rules; merging runs with
    different digests is refused.
    """
    from ..registry import load

    text = json.dumps([[r.id, r.statement, r.status, list(r.switches)] for r in load().rules],
                      ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def example_plainness(example: dict[str, Any] | None) -> tuple[int, ...]:
    """How plain a class's example is (:func:`~rules_ref.findings.classes.start_plainness`);
    one that is not an example's JSON form is the least plain."""
    if not isinstance(example, dict):
        return (1 << 30,)
    start, actions = example.get("start"), example.get("actions")
    if not isinstance(start, dict) or not isinstance(actions, list):
        return (1 << 30,)
    return start_plainness(start, actions)


def _first_seen(a: Any, b: Any) -> Any:
    def when(x: Any) -> tuple[float, float]:
        if not isinstance(x, dict):
            return (float("inf"), float("inf"))
        seconds, game = x.get("seconds"), x.get("game")
        return (float(seconds) if isinstance(seconds, int | float) else float("inf"),
                float(game) if isinstance(game, int | float) else float("inf"))
    return b if when(b) < when(a) else a


def _merge_facets(into: dict[str, Any], other: dict[str, Any]) -> None:
    """The facets of two runs' findings, by their words, the counts summed."""
    facets = {f["words"]: dict(f) for f in into.get("facets") or [] if isinstance(f, dict)}
    for f in other.get("facets") or []:
        if not isinstance(f, dict) or "words" not in f:
            continue
        if f["words"] in facets:
            facets[f["words"]]["count"] = facets[f["words"]].get("count", 0) + f.get("count", 0)
        else:
            facets[f["words"]] = dict(f)
    into["facets"] = list(facets.values())


def _merge_class(into: dict[str, Any], other: dict[str, Any]) -> None:
    _merge_facets(into, other)
    into["count"] = into.get("count", 0) + other.get("count", 0)
    into["games"] = into.get("games", 0) + other.get("games", 0)
    into["first_seen"] = _first_seen(into.get("first_seen"), other.get("first_seen"))
    if type(into.get("expected_count")) is int and type(other.get("expected_count")) is int:
        into["expected_count"] += other["expected_count"]
    if example_plainness(other.get("example")) < example_plainness(into.get("example")):
        for key in ("example", "setting", "replay", "shrunk"):  # the example and its own
            if key in other:
                into[key] = other[key]
    if other.get("expected") and not into.get("expected"):
        into["expected"], into["expectation"] = True, other.get("expectation")


def _sum_nested(target: dict[str, Any], source: Any) -> None:
    """Add the counts of ``source`` (a dict of counts, or of dicts of counts) to ``target``."""
    if not isinstance(source, dict):
        return
    for key, value in source.items():
        if isinstance(value, dict):
            _sum_nested(target.setdefault(key, {}), value)
        elif type(value) is int:
            target[key] = target.get(key, 0) + value


def _same_run(summaries: Sequence[tuple[str, dict[str, Any]]]) -> None:
    first_where, first = summaries[0]
    for key, name in SAME_RUN:
        for where, s in summaries[1:]:
            if key not in first and key not in s:
                continue
            if json.dumps(first.get(key), sort_keys=True) != json.dumps(s.get(key),
                                                                        sort_keys=True):
                raise InputError(
                    f"cannot merge runs with different {name}: {first_where} has "
                    f"{json.dumps(first.get(key), ensure_ascii=False)[:80]}, {where} has "
                    f"{json.dumps(s.get(key), ensure_ascii=False)[:80]}")
    seen: dict[tuple[Any, Any], str] = {}
    for where, s in summaries:
        if s.get("shard") is None:
            continue
        run = (s.get("seed"), s.get("shard"))
        if run in seen:
            raise InputError(f"{where} is shard {s.get('shard')} of seed {s.get('seed')} "
                             f"again ({seen[run]} is the same shard): it would count twice")
        seen[run] = where


def _missing_shards(summaries: Sequence[dict[str, Any]]) -> list[str]:
    """Shards of a split run that were not merged (``["3/4"]``), when every summary is a shard
    of the same seed and count."""
    shards = [s.get("shard") for s in summaries]
    if any(not isinstance(x, str) or "/" not in x for x in shards):
        return []
    counts = {x.split("/")[1] for x in shards if isinstance(x, str)}
    seeds = {json.dumps(s.get("seed")) for s in summaries}
    if len(counts) != 1 or len(seeds) != 1:
        return []
    count = int(next(iter(counts)))
    have = {int(x.split("/")[0]) for x in shards if isinstance(x, str)}
    return [f"{k}/{count}" for k in range(1, count + 1) if k not in have][:50]


def merged_exit(summary: dict[str, Any]) -> int:
    """The exit status of a (merged) result's JSON form."""
    return ConformResult(summary).exit_status


def merge_results(summaries: Sequence[tuple[str, object]], strict: bool = False
                  ) -> ConformResult:
    """One result of the JSON forms ``(where, data)`` of runs' results."""
    return ConformResult(merge_summaries(summaries, strict))


def merge_summaries(summaries: Sequence[tuple[str, object]], strict: bool = False
                    ) -> dict[str, Any]:
    """One result's JSON form of the JSON forms ``(where, data)``: see the module's
    description."""
    if not summaries:
        raise InputError("--merge needs at least one JSON summary file")
    checked = [(where, ConformResult.from_json(data, where).summary) for where, data in summaries]
    _same_run(checked)
    docs = [s for _, s in checked]
    first = docs[0]
    out: dict[str, Any] = {"verdict": "", "adapter": first.get("adapter")}
    for key in ("players", "ruleset", "rules_version", "adapter_command"):
        if key in first:
            out[key] = first[key]
    seeds = sorted({int(s["seed"]) for s in docs if isinstance(s.get("seed"), int)})
    out["seed"] = seeds[0] if len(seeds) == 1 else None
    out["seeds"] = seeds
    for name in COUNTERS:
        out[name] = sum(int(s[name]) for s in docs)
    for name in OPTIONAL_COUNTERS:
        values = [s[name] for s in docs if type(s.get(name)) is int]
        if values:
            out[name] = sum(values)
    seconds = sum(float(s.get("seconds") or 0.0) for s in docs)
    out["seconds"] = round(seconds, 3)
    out["longest_seconds"] = round(max(float(s.get("seconds") or 0.0) for s in docs), 3)
    out["deals_per_second"] = round(out["deals"] / seconds, 1) if seconds > 0 else None
    out["actions_per_second"] = (round(out["actions_compared"] / seconds, 1) if seconds > 0
                                 else None)
    out["examples"] = sum(int(s.get("examples") or 0) for s in docs)
    out["stopped"] = None
    out["notes"] = [n for s in docs for n in (s.get("notes") or [])][:5]
    rare: Counter[str] = Counter()
    for s in docs:
        for name, value in (s.get("rare_paths") or {}).items():
            if type(value) is int:
                rare[name] += value
    if any("rare_paths" in s for s in docs):
        out["rare_paths"] = {name: rare[name] for name in (first.get("rare_paths") or rare)}
    classes: dict[str, dict[str, Any]] = {}
    for s in docs:
        listed = s.get("classes")
        for c in listed if isinstance(listed, list) else legacy_classes(s):
            if c["key"] in classes:
                _merge_class(classes[c["key"]], c)
            else:
                classes[c["key"]] = dict(c)
    for c in classes.values():  # the words again, from the merged counts
        c["words"] = finding_lines(c)
    out["classes"] = sorted(classes.values(), key=lambda c: (
        bool(c.get("expected")), -int(c.get("games", 0)), -int(c.get("count", 0)), c["key"]))
    if any("expected_not_seen" in s for s in docs):
        lists = [[json.dumps(e, sort_keys=True) for e in s.get("expected_not_seen") or []]
                 for s in docs]
        common = set(lists[0]).intersection(*lists[1:])
        out["expected_not_seen"] = [json.loads(e) for e in dict.fromkeys(lists[0]) if e in common]
    for key in ("exercise", "offers"):
        if any(key in s for s in docs):
            total: dict[str, Any] = {}
            for s in docs:
                _sum_nested(total, s.get(key))
            out[key] = total
    if any("never_exercised" in s for s in docs):
        names = [list(s.get("never_exercised") or []) for s in docs if "never_exercised" in s]
        never = set(names[0]).intersection(*names[1:])
        out["never_exercised"] = [n for n in names[0] if n in never]
    if any("impossible" in s for s in docs):  # impossible in every run merged
        lists = [list(s.get("impossible") or []) for s in docs]
        out["impossible"] = [n for n in lists[0] if all(n in x for x in lists[1:])]
    blocks = [s["deal_constraints"] for s in docs if isinstance(s.get("deal_constraints"), dict)]
    if blocks:  # the same adapter's: its constraints, the deals not sent summed
        not_sent: dict[str, Any] = {}
        for block in blocks:
            _sum_nested(not_sent, block.get("deals_not_sent"))
        untested = [list(b.get("not_tested") or []) for b in blocks]
        out["deal_constraints"] = {
            "declared": list(blocks[0].get("declared") or []), "deals_not_sent": not_sent,
            "not_tested": [n for n in untested[0] if all(n in x for x in untested[1:])]}
    faults = [s["fault"] for s in docs if s.get("fault") is not None]
    if faults:
        out["fault"] = faults[0]
    out["shard"] = None
    out["merged"] = [{"file": where, "shard": s.get("shard"), "seed": s.get("seed"),
                      "verdict": s.get("verdict"), "games": s.get("games"),
                      "rerun": s.get("rerun")}
                     for where, s in checked]
    out["missing_shards"] = _missing_shards(docs)
    listed = out["classes"]
    lead = next((c for c in listed if not c.get("expected")), listed[0] if listed else None)
    if lead is not None:
        if isinstance(lead.get("example"), dict):
            out["failure"] = lead["example"]
        out["rules"] = lead.get("rules") or [lead.get("rule")]
        out["replay"] = lead.get("replay")
    if any(s.get("verdict") == "fault" for s in docs) and "fault" not in out:
        out["fault"] = {"kind": "fault", "message": "a merged run ended with an adapter fault"}
    strict = strict or any(s.get("strict") is True for s in docs)
    out["strict"] = strict
    out["verdict"] = decide_verdict(grounds_of_json(out), strict)
    return out
