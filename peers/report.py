"""The implementations report: per engine and per rule, what the kit found (``make peers``).

Built once, from the runs' summaries (``rules-ref vectors run --json``, ``rules-ref conform
--json``), the engines' ``known.toml`` and the spec; rendered as JSON
(``docs/reports/implementations.json``, which the site's page reads) and Markdown
(``docs/reports/implementations.md``). For each engine and rule the report says one of:

- ``agrees``: no run shows a difference under the rule;
- ``differs``: the default-declaration run shows one that a switch value of the engine's
  preset explains (the preset run, which declares that value, does not show it);
- ``bug``: a behaviour of ``known.toml``'s bugs, with the run's shrunk example and where in
  the engine its cause lies;
- ``not reachable``: what the harness cannot set the engine to (``known.toml``);
- ``unexplained``: a difference nothing above explains, which fails ``make peers``.
An engine not supplied is ``skipped``, with the reason and how to supply it; it counts as
nothing, never as a pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from peers.known import Known, known
from rules_ref.registry import load
from rules_ref.ruleset import DEFAULT, presets

ROOT = Path(__file__).resolve().parent.parent
STATUSES = ("bug", "unexplained", "differs", "not reachable", "agrees")
Json = dict[str, Any]


#: Switches that say what games the engine allows (its player counts, its targets), not how a
#: deal plays: the default run plays the default's counts and target, which the engine also
#: allows, so it cannot show them.
SETUP_SWITCHES = ("min_players", "target")


def unseen_switches(engine: str, found: list[Json]) -> list[str]:
    """The switches the preset sets that no difference of the default run was explained by.

    Each value a preset sets that changes how a deal plays must show in the default run (the
    engine plays it whatever the runner asks): one that does not is a claim of the preset the
    engine's play did not bear out, or a run too short to meet it.
    """
    seen = {s for f in found if f["run"] == "default" for s in f.get("switches", {})}
    return [s for s in preset_values(engine) if s not in SETUP_SWITCHES and s not in seen]


def unseen_words(unseen: list[str], deals: object) -> str | None:
    """The report's sentence on the preset values its default run did not show, if any."""
    if not unseen:
        return None
    return (
        "Set by the preset but not seen in the default run"
        + (f" ({deals} deals)" if deals is not None else "")
        + ": "
        + ", ".join(unseen)
        + ". Either the engine does not play them, and the preset is wrong, or the run's "
        "games did not meet them (a run of more games, --examples, may)."
    )


def preset_values(engine: str) -> dict[str, Any]:
    """The switches the engine's preset sets to something other than the default."""
    mine, default = presets()[engine].to_dict(), DEFAULT.to_dict()
    return {k: v for k, v in mine.items() if v != default[k]}


def classify(engine: str, run: str, cls: Json, entries: list[Known]) -> Json:
    """What one divergence class of a run is: a switch value, a known entry, or unexplained."""
    rules = load().by_id()
    switched = preset_values(engine)
    out: Json = {
        "rule": cls["rule"],
        # what the engine does, in the finding's own words: one per facet
        "words": "; ".join(f["words"] for f in cls.get("facets", [])) or cls["what"],
        "count": cls["count"],
        "games": cls["games"],
        "run": run,
    }
    entry = next((k for k in entries if k.matches(cls)), None)
    # the switches whose value decides the rule where the engine differs (the finding names
    # them, a facet each); the rule's switches where it names none
    deciding = {str(s) for s in [cls.get("switch"), *(f.get("switch") for f in
                                                      cls.get("facets", []))] if s}
    governing = [s for s in (sorted(deciding) or rules[cls["rule"]].switches) if s in switched]
    if run == "default" and governing:
        out["status"] = "differs"
        out["switches"] = {
            s: {"default": DEFAULT.to_dict()[s], "engine": switched[s]} for s in governing
        }
    elif entry is not None:
        out["status"] = "bug" if entry.kind == "bug" else "not reachable"
        out["known"] = entry.words
        out["id"] = entry.id
    else:
        out["status"] = "unexplained"
    return out


def _relative(path: str | None) -> str | None:
    """A replay file's path from the repository's root, where the report keeps it."""
    if path and Path(path).is_absolute() and Path(path).is_relative_to(ROOT):
        return str(Path(path).relative_to(ROOT))
    return path


def example(cls: Json) -> Json:
    """The shrunk example of a class, as the page draws it: the trick, the action, both answers."""
    ex = cls.get("example") or {}
    position = ex.get("position") or {}
    failing = ex.get("failing")
    out: Json = {
        "summary": ex.get("summary", ""),
        "action": failing,
        "expected": ex.get("expected"),
        "actual": ex.get("actual"),
        "fields": ex.get("fields", []),
        "replay": _relative(cls.get("replay")),
    }
    if position:
        out["position"] = {
            k: position.get(k)
            for k in (
                "players",
                "deal_number",
                "dealer",
                "phase",
                "leader",
                "trick_number",
                "to_act",
                "trick",
                "hands",
                "totals",
                "position_text",
            )
        }
    return out


def engine_report(engine: str, runs: dict[str, Json], meta: Json) -> Json:
    """One engine's part of the report, from its four runs."""
    entries = known(engine)
    rules = load()
    found: list[Json] = []
    for run in ("default", "preset"):
        summary = runs.get(f"conform-{run}") or {}
        for cls in summary.get("classes", []):
            item = classify(engine, run, cls, entries)
            if run == "preset" or item["status"] != "bug":
                if item["status"] in ("bug", "not reachable") and run == "preset":
                    item["example"] = example(cls)
                found.append(item)
    preset_run = runs.get("conform-preset") or {}
    vectors = vector_findings(engine, runs.get("vectors-preset") or {}, entries)
    bugs = []
    for entry in entries:
        if entry.kind != "bug":
            continue
        hits = [f for f in found if f["run"] == "preset" and f.get("id") == entry.id]
        bugs.append(
            {
                "id": entry.id,
                "rule": entry.rule,
                "rules": list(entry.rules),
                "words": entry.words,
                "why": entry.why,
                "file": entry.file,
                "function": entry.function,
                "seen": bool(hits),
                "count": sum(f["count"] for f in hits),
                "example": hits[0].get("example") if hits else None,
                "vectors": [v["case"] for v in vectors
                            if v.get("id") == entry.id and v["status"] == "bug"],
            }
        )
    unreachable = [
        {
            "id": e.id,
            "rule": e.rule,
            "words": e.words,
            "why": e.why,
            "vectors": [v["case"] for v in vectors
                        if v.get("id") == e.id and v["status"] == "not reachable"],
        }
        for e in entries
        if e.kind == "unreachable"
    ]
    matrix: dict[str, Json] = {}
    for rule in rules.rules:
        statuses = {f["status"] for f in found if f["rule"] == rule.id}
        statuses |= {
            "not reachable" for e in entries if e.kind == "unreachable" and e.rule == rule.id
        }
        # a known bug seen only in the preset run's vector cases still marks each rule it names
        in_vectors = [b for b in bugs if b["vectors"] and rule.id in b["rules"]
                      and not any(f["rule"] == rule.id and f.get("id") == b["id"] for f in found)]
        statuses |= {"bug" for _ in in_vectors}
        status = next((s for s in STATUSES if s in statuses), "agrees")
        notes = sorted(
            {
                (f"{f['status']}: " if len(statuses) > 1 else "") + (f.get("known") or f["words"])
                for f in found
                if f["rule"] == rule.id
            }
            | {
                ("bug: " if len(statuses) > 1 else "") + f"{b['words']} (the vector cases "
                + ", ".join(b["vectors"]) + ")"
                for b in in_vectors
            }
        )
        switches = sorted({s for f in found if f["rule"] == rule.id for s in f.get("switches", {})})
        matrix[rule.id] = {
            "group": rule.group,
            "status": status,
            "notes": notes,
            "switches": switches,
        }
    return {
        "engine": engine,
        "status": "checked",
        **meta,
        "preset": {"name": engine, "values": preset_values(engine), "note": _preset_note(engine)},
        "speed": {
            "deals_per_second": preset_run.get("deals_per_second"),
            "deals": preset_run.get("deals"),
            "seconds": preset_run.get("seconds"),
        },
        "runs": {name: _run_digest(summary) for name, summary in runs.items()},
        "found": found,
        "unseen_switches": (unseen := unseen_switches(engine, found)),
        "unseen_note": unseen_words(unseen, (runs.get("conform-default") or {}).get("deals")),
        "vectors": vectors,
        "bugs": bugs,
        "unreachable": unreachable,
        "matrix": matrix,
    }


def vector_findings(engine: str, run: Json, entries: list[Known]) -> list[Json]:
    """The preset run's vector cases against ``[vectors]`` of known.toml: each case that
    failed, with the entry that is its cause (``bug``, ``not reachable``) or ``unexplained``;
    and each case listed there that passed (``expected, not seen``), which fails the run as
    an expectation not seen does under ``--strict``."""
    by_case = {case: e for e in entries for case in e.vectors}
    failed = [c["id"] for c in run.get("cases", []) if c.get("status") == "fail"]
    out: list[Json] = []
    for case in failed:
        entry = by_case.get(case)
        if entry is None:
            out.append({"case": case, "status": "unexplained"})
        else:
            status = "bug" if entry.kind == "bug" else "not reachable"
            out.append({"case": case, "status": status, "id": entry.id})
    ran = {c["id"] for c in run.get("cases", []) if c.get("status") != "skip"}
    for case, entry in by_case.items():
        if case not in failed:
            # listed but passed or skipped: the list is out of date
            out.append(
                {"case": case, "status": "expected, not seen", "id": entry.id,
                 "ran": case in ran}
            )
    return out


def _preset_note(engine: str) -> str:
    import tomllib

    from rules_ref.registry import spec_dir

    data = tomllib.loads((spec_dir() / "variants.toml").read_text(encoding="utf-8"))
    return str(next(p["note"] for p in data["preset"] if p["name"] == engine))


def _run_digest(summary: Json) -> Json:
    keys = (
        "verdict",
        "exit_status",
        "totals",
        "games",
        "deals",
        "seconds",
        "deals_per_second",
        "seed",
        "expected_not_seen",
        "command",
    )
    digest = {k: summary[k] for k in keys if k in summary}
    if "cases" in summary:  # a vectors run: the cases that failed
        digest["failed"] = [c["id"] for c in summary["cases"] if c.get("status") == "fail"]
    return digest


def groups_matrix(engines: list[Json]) -> list[Json]:
    """Per rule group, per engine: how many rules have each status."""
    reg = load()
    out = []
    for group in reg.groups:
        row: Json = {
            "group": group.id,
            "title": group.title,
            "rules": [r.id for r in reg.rules if r.group == group.id],
            "engines": {},
        }
        for e in engines:
            if e["status"] != "checked":
                row["engines"][e["engine"]] = None
                continue
            counts: dict[str, int] = {}
            for rid in row["rules"]:
                s = e["matrix"][rid]["status"]
                counts[s] = counts.get(s, 0) + 1
            row["engines"][e["engine"]] = counts
        out.append(row)
    return out


def document(engines: list[Json]) -> Json:
    return {
        "format": "cancellation-hearts-implementations",
        "version": 1,
        "statuses": list(STATUSES),
        "engines": engines,
        "groups": groups_matrix(engines),
    }


def render_json(doc: Json) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def _cell(counts: dict[str, int] | None) -> str:
    if counts is None:
        return "skipped"
    return ", ".join(f"{n} {s}" for s in STATUSES if (n := counts.get(s, 0)))


def render_markdown(doc: Json) -> str:
    """The report as Markdown: the matrix, then each engine's findings, bugs and commands."""
    engines = doc["engines"]
    lines = [
        "# Implementations report",
        "",
        "Written by `make peers` from the runs of `rules-ref vectors run` and `rules-ref "
        "conform` on each public engine (peers/README.md). Per rule: agrees, differs by a "
        "declared switch value, an engine bug, or not reachable through the harness.",
        "",
        "## The matrix, by rule group",
        "",
        "| group | " + " | ".join(e["engine"] for e in engines) + " |",
        "|---|" + "---|" * len(engines),
    ]
    for row in doc["groups"]:
        lines.append(
            f"| {row['title']} | "
            + " | ".join(_cell(row["engines"][e["engine"]]) for e in engines)
            + " |"
        )
    for e in engines:
        lines += ["", f"## {e['engine']}", ""]
        if e["status"] != "checked":
            lines += [f"**Skipped**: {e['reason']}", "", f"To supply it: {e['how']}"]
            continue
        lines += [
            f"{e['repository']} at `{e['commit'][:7]}`; speed under its preset: "
            f"{e['speed']['deals_per_second']} deals/s ({e['speed']['deals']} deals in "
            f"{e['speed']['seconds']} s, on the machine that wrote this report).",
            "",
        ]
        for declare in ("default", "preset"):
            v = e["runs"].get(f"vectors-{declare}", {})
            t = v.get("totals") or {}
            lines.append(
                f"- vectors, {declare} declaration: {t.get('passed', 0)} passed, "
                f"{t.get('failed', 0)} failed, {t.get('skipped', 0)} skipped (for what the "
                "engine does not declare)"
                + (f"; failed: {', '.join(v['failed'])}" if v.get("failed") else "")
            )
            c = e["runs"].get(f"conform-{declare}", {})
            lines.append(
                f"- conform, {declare} declaration: {c.get('verdict')}, "
                f"{c.get('deals')} deals in {c.get('seconds')} s"
            )
        lines += ["", "| rule | status | what |", "|---|---|---|"]
        for rid, m in e["matrix"].items():
            if m["status"] != "agrees":
                what = "; ".join(m["notes"])
                if m["switches"]:
                    what += " (switch " + ", ".join(m["switches"]) + ")"
                lines.append(f"| {rid} | {m['status']} | {what} |")
        lines += ["", "Every other rule agrees."]
        if e["unseen_note"]:
            lines += ["", e["unseen_note"]]
        lines += ["", "### Bugs", ""]
        if not e["bugs"]:
            lines.append("None known.")
        for b in e["bugs"]:
            also = [r for r in b["rules"] if r != b["rule"]]
            lines.append(
                f"- **{b['rule']}** (`{b['id']}`): {b['words']}. Cause: `{b['file']}`, "
                f"{b['function']}: {b['why']}. Seen {b['count']} times in the preset run"
                + (f", also under {', '.join(also)}" if also else "")
                + "."
                + (
                    f" Vectors it fails: {', '.join(b['vectors'])}."
                    if b["vectors"]
                    else ""
                )
            )
            ex = b.get("example")
            if ex:
                lines.append(f"  Example: {ex['summary']}")
                pos = ex.get("position") or {}
                if pos.get("position_text"):
                    action = json.dumps(ex["action"])
                    lines.append(f"  Position: `{pos['position_text']}`; action: `{action}`")
                lines.append(
                    f"  Rules: `{json.dumps(ex['expected'])}`; engine: `{json.dumps(ex['actual'])}`"
                )
                if ex.get("replay"):
                    lines.append(
                        f"  Replay: `rules-ref conform --replay {ex['replay']} -- "
                        f"python3 peers/adapter.py {e['engine']}`"
                    )
        lines += ["", "### Not reachable through the harness", ""]
        lines += [
            f"- {u['words']} (`{u['id']}`): {u['why']}"
            + (f". Vectors it fails: {', '.join(u['vectors'])}." if u["vectors"] else "")
            for u in e["unreachable"]
        ] or ["Nothing."]
        odd = [v for v in e["vectors"] if v["status"] in ("unexplained", "expected, not seen")]
        if odd:
            lines += ["", "### Vectors not as known.toml lists them", ""]
            lines += [f"- {v['case']}: {v['status']}" for v in odd]
        lines += [
            "",
            "### Preset and expectations",
            "",
            f"Preset `{e['engine']}` sets: "
            f"`{json.dumps(e['preset']['values'], ensure_ascii=False)}`.",
            "",
            e["preset"]["note"],
            "",
            f"Expectations file: `peers/{e['engine']}/expect.json`.",
            "",
            "### Reproduce",
            "",
        ]
        lines += [f"    {c}" for c in e["reproduce"]]
    return "\n".join(lines) + "\n"
