"""The reports: ``docs/reports/mutation.{json,md}`` and ``docs/reports/kit-power.{json,md}``.

Every survivor is listed with its place, its change and its reason, taken
from ``tools/mutation/explanations.toml`` by the mutant's key
(``module:function:operator:number``): ``equivalent`` (no input can tell the
mutant from the original; the explanation says why, and ``function_sha`` is
the digest of the function it was judged in: while the function is unchanged,
a campaign reports the mutant as a known equivalent without running it) or
``needs a test``
(with the test that now kills it, or why none is written). A survivor with no
entry is reported as ``unexplained``.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from .operators import Mutant

EXPLANATIONS = "tools/mutation/explanations.toml"


def mutant_entry(m: Mutant) -> dict[str, Any]:
    return {"key": m.key, "module": m.module, "function": m.unit, "line": m.line, "op": m.op,
            "mutation": m.description, "rules": list(m.rules), "function_sha": m.unit_sha}


def load_explanations(root: Path) -> dict[str, dict[str, str]]:
    path = root / EXPLANATIONS
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.items()}


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _campaign(kind: str, results: list[dict[str, Any]], total: int, modules: tuple[str, ...],
              seed: int, jobs: int, seconds: float) -> tuple[str, dict[str, Any]]:
    """How many mutants a campaign ran, in words ("SAMPLE of 20 mutants (of 312)"), and the
    facts of its run every report document opens with."""
    sample = len(results) < total
    size = f"{'SAMPLE of ' if sample else ''}{len(results)} mutants" + (
        f" (of {total})" if sample else "")
    return size, {"kind": kind, "sample": sample, "size": len(results), "total_mutants": total,
                  "modules": list(modules), "seed": seed, "jobs": jobs,
                  "seconds": round(seconds, 1)}


def _written_head(out: Path, doc: dict[str, Any], title: str, made: list[str], headline: str,
                  sample: str) -> list[str]:
    """Write a campaign's JSON document beside ``out``; the head of its Markdown report: the
    title, how it is made, the headline and, for a sample, what it is a sample of."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    return [f"# {title}", "", *made, "", f"**{headline}.**", "",
            *([sample, ""] if sample else [])]


def write_mutation(out: Path, results: list[dict[str, Any]], *, total: int, seed: int, jobs: int,
                   seconds: float, baseline_seconds: float, modules: tuple[str, ...],
                   explanations: dict[str, dict[str, str]], baseline_cpu: float = 0.0,
                   note: str | None = None) -> str:
    """Write the JSON and Markdown mutation report; return the headline line."""
    counts = Counter(e["status"] for e in results)
    for e in results:
        if e["status"] == "survived":
            why = explanations.get(e["key"], {})
            e["reason"] = why.get("reason", "unexplained")
            e["why"] = why.get("why", "")
    killed = counts["killed"] + counts["timeout"]
    judged = len(results) - counts["error"]
    score = killed / judged if judged else 0.0
    sample = len(results) < total
    cpu = [float(e["cpu_seconds"]) for e in results
           if e.get("cpu_seconds") is not None and not e.get("rechecked")]
    survivors = [e for e in results if e["status"] == "survived"]
    reasons = Counter(e["reason"] for e in survivors)
    equivalent = reasons["equivalent"]
    size, facts = _campaign("mutation", results, total, modules, seed, jobs, seconds)
    headline = (f"{size}: {killed} killed ({counts['timeout']} by timeout), "
                f"{len(survivors)} survived, {counts['error']} errors; score {score:.1%}")
    doc: dict[str, Any] = {
        **facts, "baseline_seconds": round(baseline_seconds, 1),
        "per_mutant_seconds": round((seconds - baseline_seconds) * jobs / max(1, len(results)), 2),
        "counts": {"killed": counts["killed"], "timeout": counts["timeout"],
                   "survived": len(survivors), "error": counts["error"]},
        "cpu_seconds_per_mutant": round(sum(cpu) / len(cpu), 2) if cpu else None,
        "estimated_full_minutes_on_two_idle_cores":
            round((sum(cpu) / len(cpu) * total / 2 + baseline_cpu) / 60, 1) if cpu else None,
        "score": round(score, 4),
        "score_without_equivalent": round(killed / (judged - equivalent), 4)
        if judged > equivalent else 0.0,
        "note": note,
        "survivor_reasons": dict(reasons),
        "score_before_new_tests": round(
            (killed - sum(1 for e in results if e.get("rechecked")
                          and e["status"] in ("killed", "timeout"))) / judged, 4)
        if judged else 0.0,
        "by_module": _by_module(results), "mutants": results,
    }
    lines = _written_head(out, doc, "Mutation testing of the reference engine", [
        "Generated by `make mutate` (`python -m tools.mutation mutate`); do not edit by hand:",
        "survivor reasons come from `tools/mutation/explanations.toml`."], headline,
        f"This is a **sample** of {len(results)} of the {total} mutants (the first "
        f"{len(results)} of the order seeded {seed}); the full campaign is `make mutate`."
        if sample else "")
    lines += [
        f"Modules: {', '.join(modules)}. Wall time {seconds:.0f} s with {jobs} job(s), of which "
        f"the traced baseline run took {baseline_seconds:.0f} s; about "
        f"{doc['per_mutant_seconds']} s of one core per mutant"
        + (f" ({doc['cpu_seconds_per_mutant']} s of CPU; the whole campaign on two idle "
           f"cores: about {doc['estimated_full_minutes_on_two_idle_cores']} min)."
           if cpu else "."), "",
        *([note, ""] if note else []),
        "Score: mutants killed (a test failed, or a test ran past its time limit) over "
        "mutants run; without equivalent mutants: "
        f"{doc['score_without_equivalent']:.1%}.", "",
        "| module | mutants | killed | timeout | survived |", "|---|---:|---:|---:|---:|",
    ]
    for module, c in doc["by_module"].items():
        lines.append(f"| {module} | {c['mutants']} | {c['killed']} | {c['timeout']} | "
                     f"{c['survived']} |")
    lines += ["", "## Survivors", ""]
    if not survivors:
        lines.append("None.")
    else:
        lines += ["| place | function | mutation | reason | why |", "|---|---|---|---|---|"]
        for e in survivors:
            lines.append(f"| `{e['module']}:{e['line']}` | `{e['function']}` | "
                         f"`{_md_cell(e['mutation'])}` | {e['reason']} | {_md_cell(e['why'])}"
                         + (f" ({e['note']})" if e.get("note") else "") + " |")
    new_kills = [e for e in results if e.get("rechecked") and e["status"] in ("killed", "timeout")]
    if new_kills:
        these, each, them = ((f"These {len(new_kills)} mutants", "each is", "them")
                             if len(new_kills) > 1 else ("This mutant", "it is", "it"))
        lines += ["", "## Killed by the tests written for them", "",
                  f"{these} survived the suite as it was; {each} now killed by a test of "
                  f"`tests/rules/test_mutation_kills.py` (`make mutate MUTATE_ARGS=--recheck ...` "
                  f"ran {them} against that file). Before those tests the score "
                  f"was {doc['score_before_new_tests']:.1%}.", "",
                  "| place | function | mutation | killed by |", "|---|---|---|---|"]
        lines += [f"| `{e['module']}:{e['line']}` | `{e['function']}` | "
                  f"`{_md_cell(e['mutation'])}` | `{e.get('killed_by')}` |" for e in new_kills]
    timeouts = [e for e in results if e["status"] == "timeout"]
    if timeouts:
        lines += ["", "## Killed by timeout", ""]
        lines += [f"- `{e['module']}:{e['line']}` `{e['function']}`: `{_md_cell(e['mutation'])}`"
                  for e in timeouts]
    errors = [e for e in results if e["status"] == "error"]
    if errors:
        lines += ["", "## Errors (neither killed nor survived)", ""]
        lines += [f"- `{e['key']}`: exit {e.get('exit')}" for e in errors]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return headline


def _by_module(results: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for e in results:
        row = table.setdefault(e["module"], {"mutants": 0, "killed": 0, "timeout": 0,
                                             "survived": 0, "error": 0})
        row["mutants"] += 1
        row[e["status"]] += 1
    return dict(sorted(table.items()))


def _median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    return round(ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2, 2)


def write_kit_power(out: Path, results: list[dict[str, Any]], *, total: int, seed: int,
                    seconds: float, jobs: int, modules: tuple[str, ...],
                    long_seconds: float, cpu_seconds: float | None = None) -> str:
    """Write the JSON and Markdown kit-power report; return the headline line."""
    uncounted = ("equivalent at the adapter", "not reached by the adapter", "message words only",
                 "another rule cited, reported", "same answers at the adapter")
    counted = [e for e in results if e["class"] not in uncounted]
    equivalent = len(results) - len(counted)
    n = len(counted)
    share = {kit: (sum(1 for e in counted if e[kit]["caught"]) / n if n else 0.0)
             for kit in ("conform", "vectors")}
    either = [e for e in counted if e["class"] == "caught"]
    judged = [e for e in either if e["expected_rules"]]
    right = [e for e in judged if e["named"]["right"]]
    per_kit = {kit: [e[kit]["right_rule"] for e in judged if e[kit]["caught"]]
               for kit in ("conform", "vectors")}
    right_share = len(right) / len(judged) if judged else 0.0
    first = {kit: [float(e[kit]["first_catch_seconds"]) for e in counted
                   if e[kit]["caught"] and e[kit].get("first_catch_seconds") is not None]
             for kit in ("conform", "vectors")}
    sample = len(results) < total
    import resource  # the CPU of every process this campaign ran, the tracing runs included
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime if cpu_seconds is None else cpu_seconds
    size, facts = _campaign("kit-power", results, total, modules, seed, jobs, seconds)
    headline = (f"{size}, {equivalent} not counted (not reached, equivalent or the same "
                "answers at the adapter, message words only, another rule cited): "
                f"conform caught {share['conform']:.1%}, vectors {share['vectors']:.1%}, "
                f"right rule named {right_share:.1%}")
    doc: dict[str, Any] = {
        **facts, "per_mutant_seconds": round(seconds * jobs / max(1, len(results)), 1),
        "cpu_seconds": round(cpu, 1),
        "estimated_full_minutes_on_two_idle_cores": round(cpu / max(1, len(results)) * total
                                                          / 2 / 60, 1),
        "equivalent_at_adapter": equivalent, "counted": n,
        "conform_share": round(share["conform"], 4), "vectors_share": round(share["vectors"], 4),
        "either_share": round(len(either) / n, 4) if n else 0.0,
        "right_rule_share": round(right_share, 4), "right_rule_judged": len(judged),
        "right_rule_by_command": {kit: round(sum(v) / len(v), 4) if v else None
                                  for kit, v in per_kit.items()},
        "first_catch_seconds": {kit: {"median": _median(v), "max": max(v) if v else None}
                                for kit, v in first.items()},
        "per_switch_value": per_switch_value(counted),
        "mutants": results,
    }
    fc = doc["first_catch_seconds"]
    lines = _written_head(out, doc, "The conformance kit's power against engine mutants", [
        "Generated by `make kit-power` (`python -m tools.mutation kit-power`); do not edit by "
        "hand."], headline,
        f"This is a **sample** of {len(results)} of the {total} mutants of the rule modules "
        f"(the first {len(results)} of the order seeded {seed}); the full campaign is "
        "`make kit-power`." if sample else "")
    lines += [
        "Each mutant of a rule module is put behind the reference adapter only (the runner's "
        "reference is the unmutated package) and checked by `rules-ref vectors run` and "
        "`rules-ref conform` with default settings (a fixed `--seed`) and `--first`: the run "
        "ends after the game of its first divergence, and until then plays what a default "
        "run plays, so whether and when a mutant is caught is what a default run finds "
        "(shrinking is cut to its first check: the rule named is fixed when a divergence is "
        "first seen). Any "
        "failing exit status is a catch: an adapter fault or an internal error the adapter "
        "reports names no rule.", "",
        f"Modules: {', '.join(modules)}. Wall time {seconds:.0f} s with {jobs} job(s), "
        f"{doc['per_mutant_seconds']} s per mutant; {doc['cpu_seconds']} s of CPU in all, so "
        f"the whole campaign on two idle cores (`--jobs 2`): about "
        f"{doc['estimated_full_minutes_on_two_idle_cores']} min.", "",
        "| | conform | vectors |", "|---|---:|---:|",
        f"| caught | {share['conform']:.1%} | {share['vectors']:.1%} |",
        f"| time to first catch, median (s) | {fc['conform']['median']} | "
        f"{fc['vectors']['median']} |",
        f"| time to first catch, max (s) | {fc['conform']['max']} | {fc['vectors']['max']} |",
        "",
        f"Right rule named, among {len(judged)} caught mutants whose function has a rule: "
        f"{right_share:.1%} (conform's rule when conform caught it, else the rule most failing "
        f"vectors cite); conform alone {_pct(doc['right_rule_by_command']['conform'])}, "
        f"vectors alone {_pct(doc['right_rule_by_command']['vectors'])}. Conform's rule is "
        "that of the first divergence it met. Conform's time is when that divergence was "
        "first seen; the vectors' is when the first failing vector was printed.", "",
        "Equivalent at the adapter: neither command catches the mutant, a long conform run "
        f"({long_seconds:.0f} s) finds nothing, and the mutation campaign shows no test kills "
        "it. Message words only: the mutant changes only the words of an error message "
        "(read from the source: the text it replaces ends up only in a raised message), "
        "which the protocol does not compare (a rejection is compared by the rule it cites); "
        "the suite's exact-message tests kill it. Another rule cited, reported: the mutant "
        "changes only the rule a rejection cites; conform reports each such rejection "
        "(`rule_citations_differing`, the action and both rules) and, as the protocol says, "
        "does not fail the run on it. Same answers at the adapter: every answer the adapter "
        "gives is unchanged, for the reason `tools/mutation/adapter_explanations.toml` gives "
        "(listed below); the suite's exact-message tests kill it. Not reached by the adapter: "
        "the mutant changes lines the reference adapter never runs in these commands. Such "
        "mutants are listed, not counted as misses.", "",
        *_per_value_lines(doc["per_switch_value"]),
        "| mutant | mutation | conform | vectors | rules named / expected | class |",
        "|---|---|---|---|---|---|",
    ]
    same = [e for e in results if e["class"] == "same answers at the adapter"]
    if same:
        lines[-2:-2] = ["Same answers at the adapter, and why:", "",
                        *(f"- `{e['key']}` (`{_md_cell(e['mutation'])}`): {e.get('why', '')}"
                          for e in same), ""]
    for e in results:
        named = e["named"]["rules"] if e["class"] == "caught" else []
        lines.append(
            f"| `{e['module']}:{e['line']}` `{e['function']}` | `{_md_cell(e['mutation'])}` | "
            f"{_verdict(e['conform'])} | {_verdict(e['vectors'])} | "
            f"{', '.join(named) or '-'} / {', '.join(e['expected_rules']) or '-'} | "
            f"{e['class']} |")
    text = "\n".join(lines) + "\n"
    kept = out.with_name(out.name + "-composites.json")
    if kept.exists():  # the composites' section, from their own campaign
        text = with_composites(text, composites_text(json.loads(kept.read_text(encoding="utf-8"))))
    out.with_suffix(".md").write_text(text, encoding="utf-8")
    return headline


def per_switch_value(counted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each documented switch value: how many faults the vectors played under it catch.

    The faults are the counted mutants of the rules the switch changes (``spec/variants.toml``:
    a mutant whose function's rules meet the switch's); the vectors under a value are the
    cases of ``spec/vectors/v2`` that play it and whose outcome depends on the switch
    (``depends_on``). A mutant a campaign ran before it kept the failed vectors' ids
    (``failed_cases``) counts for no value.
    """
    from rules_ref.registry import spec_toml
    from rules_ref.vectors import iter_cases, latest_dir, load_dir
    from rules_ref.vectors.requirements import FIELD, show

    cases = {str(c["id"]): c for _, c in iter_cases(load_dir(latest_dir()))}
    rows = []
    for switch in spec_toml("variants.toml")["switch"]:
        name, rules = switch["name"], set(switch["rules"])
        faults = [e for e in counted if rules & set(e["expected_rules"])
                  and "failed_cases" in e["vectors"]]
        for v in switch["value"]:
            value = v["value"]
            under = {i for i, c in cases.items() if c.get("ruleset", {}).get(name) == value
                     and name in c.get(FIELD, {})}
            caught = [e for e in faults if under & set(e["vectors"]["failed_cases"])]
            rows.append({"switch": name, "value": show(value), "vectors": len(under),
                         "faults": len(faults), "caught": len(caught),
                         "share": round(len(caught) / len(faults), 4) if faults else None})
    return rows


def _per_value_lines(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    return [
        "Per switch value: of the counted mutants of the rules a switch changes (its `rules` "
        "in `spec/variants.toml`), how many a vector played under the value catches (the "
        "vectors of `spec/vectors/v2` that play the value and whose outcome depends on the "
        "switch, `depends_on`). A value's own code is often a small part of its switch's "
        "rules, so the shares compare the values of one switch, not the switches.", "",
        "| switch | value | vectors | mutants of its rules | caught under the value |",
        "|---|---|---:|---:|---:|",
        *(f"| `{r['switch']}` | `{r['value']}` | {r['vectors']} | {r['faults']} | "
          f"{r['caught']} ({_pct(r['share'])}) |" for r in rows), ""]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _verdict(run: dict[str, Any]) -> str:
    if not run["caught"]:
        return "missed"
    mark = "" if run.get("right_rule") else " (other rule)"
    return f"caught {run.get('first_catch_seconds')} s{mark}"


# --- composites: many faults at once ---------------------------------------------------------

#: The marks around the composites' section of ``kit-power.md``.
COMPOSITES_BEGIN = "<!-- composites -->"
COMPOSITES_END = "<!-- /composites -->"
_BUDGET_WORDS = {"default": "default budget", "examples": "fixed --examples"}


def _pc(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}%"


def composites_text(doc: dict[str, Any]) -> str:
    """The composites' section of ``kit-power.md``, from ``kit-power-composites.json``."""
    pop = doc["population"]
    lines = [
        COMPOSITES_BEGIN, "", "## Many faults at once", "",
        "Generated by `make kit-power-composites` (`python -m tools.mutation composites`).", "",
        f"{sum(len(doc['table'][b]) for b in doc['budgets'][:1]) * doc['count']} composites "
        f"({doc['count']} per k, seed {doc['seed']}) of k faults with pairwise different "
        "rules, each fault's kind drawn at random among the mutation operators (mutants of "
        "the rule modules conform caught alone above), switch-value swaps (the engine "
        "declares a switch's default and plays another published value), card faults (a "
        "pair of one card that does not cancel, one card ranked above the ace or below the "
        "2, scoring a point wrong, not breaking hearts) and phase faults (no passing, every "
        "pass refused, a moon scored without a choice, an internal error at a given moment: "
        "a 2♣ or both among the extras, a void trick, a void last trick, a moon, the two Q♠ "
        "cancelling). Population: " + ", ".join(f"{n} {kind}" for kind, n in pop.items())
        + " faults (`tools/mutation/faults.py`). The engine is the reference adapter with the "
        "k faults applied; each composite is run by `rules-ref conform --json` with its own "
        "seed, in the default budget and with `--examples "
        f"{doc['examples']}` (`--shrink-seconds` at its least: a class's rule is fixed when "
        "it is first seen).", "",
        "The default budget is a time (8 s of search): the games it plays, and so what it "
        "finds, depend on the machine and its load; the games per run are given beside "
        "each figure. The fixed --examples budget plays the same games on any machine.", "",
        "Recall: faults named (a class names one of the fault's rules). Precision: classes "
        "whose rule is one of an injected fault's rules (a class a fault caused but named for "
        "a consequence is wrong). All named: composites with every fault named. "
        f"Wall time {doc['seconds']:.0f} s with {doc['jobs']} job(s).", ""]
    for budget in doc["budgets"]:
        lines += [f"### {_BUDGET_WORDS.get(budget, budget)}", "",
                  "| k | composites | games per run, median | recall | precision | all named |",
                  "|---:|---:|---:|---:|---:|---:|"]
        for k, s in doc["table"][budget].items():
            lines.append(f"| {k} | {s['composites']} | {s.get('games_median', '-')} | "
                         f"{_pc(s['recall'])} ({s['named']}/"
                         f"{s['faults']}) | {_pc(s['precision'])} ({s['right']}/{s['classes']}) "
                         f"| {_pc(s['all_named_share'])} ({s['all_named']}/{s['composites']}) |")
        lines += ["", "| fault kind | faults | recall | precision, the kind alone (k = 1) |",
                  "|---|---:|---:|---:|"]
        for kind, s in doc["kinds"][budget].items():
            lines.append(f"| {kind} | {s['faults']} | {_pc(s['recall'])} ({s['named']}/"
                         f"{s['faults']}) | {_pc(s['alone_precision'])} ({s['alone_classes']} "
                         "classes) |")
        wrong = doc["misattributions"][budget][:15]
        if wrong:
            lines += ["", "Most frequent misattributions: the rule a class named that no "
                      "injected fault has, beside the fault family it is charged to (a fault "
                      "of the composite no class named; every fault of it when all were "
                      "named).", "",
                      "| fault | rule named instead | that fault was | classes |",
                      "|---|---|---|---:|",
                      *(f"| `{w['fault']}` | `{w['rule']}` | {w['fault_was']} | {w['count']} |"
                        for w in wrong)]
        lines.append("")
    lines.append(COMPOSITES_END)
    return "\n".join(lines)


def with_composites(text: str, section: str) -> str:
    """``text`` (``kit-power.md``) with its composites' section replaced by ``section``, or
    ``section`` put after the headline when it has none."""
    if COMPOSITES_BEGIN in text and COMPOSITES_END in text:
        head, rest = text.split(COMPOSITES_BEGIN, 1)
        return head + section + rest.split(COMPOSITES_END, 1)[1]
    lines = text.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("**")), len(lines))
    return "\n".join([*lines[:at], "", section, *lines[at:]])


def write_composites(out: Path, doc: dict[str, Any]) -> None:
    """``OUT-composites.json``, and the section of ``OUT.md``."""
    out.with_name(out.name + "-composites.json").write_text(
        json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    md = out.with_suffix(".md")
    text = md.read_text(encoding="utf-8") if md.exists() else ""
    md.write_text(with_composites(text, composites_text(doc)), encoding="utf-8")
