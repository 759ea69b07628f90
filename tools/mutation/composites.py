"""The kit's power against many faults at once: composites of k faults behind one adapter.

``python -m tools.mutation composites`` (``make kit-power-composites``) draws,
seeded, ``--count`` composites for each ``k`` of ``--k`` (default 1, 2, 3 and
5): each is ``k`` faults of :mod:`tools.mutation.faults` with pairwise
different rules, each fault's kind drawn at random among operator, switch,
card and phase. The composite engine is the reference adapter with the k
faults applied (:mod:`tools.mutation.fault_adapter`; an operator fault's
mutated module in a copy of the package). Each composite is run by
``rules-ref conform --json`` twice, from an empty directory with this
checkout's ``rules-ref``: in the default budget (``--max-seconds`` as by
default), and with a fixed ``--examples`` (a budget that does not depend on
the machine's speed); both with the composite's own ``--seed`` and
``--shrink-seconds`` at its least, since a class's rule is fixed when it is
first seen.

Scored from conform's JSON (:func:`score`), counting its classes that no
``--expect`` covered:

* recall: the faults named, a fault being named when a class names one of
  its rules;
* precision: the classes whose rule is one of an injected fault's rules (a
  class a fault caused but named for its consequence is wrong);
* all named: the composites with every fault named.

Written to ``docs/reports/kit-power-composites.json`` and as a section of
``docs/reports/kit-power.md`` (:func:`tools.mutation.report.composites_section`).
A benchmark: it prints figures, it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .faults import KINDS, Fault, catalogue, draw, operator_faults
from .kit_power import _env_without_pythonpath

#: The budgets each composite is measured in: conform's default, and a fixed number of games.
BUDGETS = ("default", "examples")
DEFAULT_K = (1, 2, 3, 5)
DEFAULT_COUNT = 20
DEFAULT_EXAMPLES = 40
QUICK_COUNT = 2
#: Where the report is written; a focused look (``--kinds``, one budget) is written only
#: to another ``--out``.
DEFAULT_OUT = "docs/reports/kit-power"
SHRINK_SECONDS = 0.01


def score(faults: Sequence[Fault], result: Mapping[str, Any]) -> dict[str, Any]:
    """What conform's ``result`` (its ``--json``) found of ``faults``.

    ``named``: per fault, whether a class names one of its rules; ``classes``
    and ``right``: the classes counted and those whose rule is an injected
    fault's; ``wrong``: the rule of each other class (``None`` when it names none).

    >>> f = Fault("card", "card:no-cancel:10S", ("TRICK.CANCEL",), "")
    >>> s = score([f], {"classes": [{"rule": "TRICK.CANCEL"}, {"rule": "TRICK.WINNER"}]})
    >>> s["named"], s["classes"], s["right"], s["wrong"]
    ([True], 2, 1, ['TRICK.WINNER'])
    """
    classes = [c for c in result.get("classes") or [] if not c.get("expected")]
    truth = {r for f in faults for r in f.rules}
    rules = [c.get("rule") for c in classes]
    return {"named": [any(r in f.rules for r in rules) for f in faults],
            "classes": len(classes), "right": sum(r in truth for r in rules),
            "wrong": [r for r in rules if r not in truth]}


def _share(part: int, whole: int) -> float | None:
    return round(100.0 * part / whole, 1) if whole else None


def summarize(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Recall, precision and the all-named share of ``runs`` (each a composite's ``faults``
    (as JSON) and one budget's ``score``)."""
    faults = sum(len(r["faults"]) for r in runs)
    named = sum(sum(r["score"]["named"]) for r in runs)
    classes = sum(r["score"]["classes"] for r in runs)
    right = sum(r["score"]["right"] for r in runs)
    complete = sum(all(r["score"]["named"]) for r in runs)
    games = sorted(int(r.get("games") or 0) for r in runs)
    return {"composites": len(runs), "games_median": games[len(games) // 2] if games else None,
            "faults": faults, "named": named,
            "recall": _share(named, faults), "classes": classes, "right": right,
            "precision": _share(right, classes), "all_named": complete,
            "all_named_share": _share(complete, len(runs))}


def by_kind(runs: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per fault kind: its faults, how many were named (recall), and, among the composites of
    one fault of that kind alone, the precision of their classes."""
    out: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        total = named = classes = right = 0
        for r in runs:
            for fault, hit in zip(r["faults"], r["score"]["named"], strict=True):
                if fault["kind"] == kind:
                    total += 1
                    named += bool(hit)
            if len(r["faults"]) == 1 and r["faults"][0]["kind"] == kind:
                classes += r["score"]["classes"]
                right += r["score"]["right"]
        out[kind] = {"faults": total, "named": named, "recall": _share(named, total),
                     "alone_classes": classes, "alone_precision": _share(right, classes)}
    return out


def misattributions(runs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rules named instead, most frequent first: for each class whose rule no injected
    fault has, the family of each fault of its composite that no class named (of every
    fault when all were named: the class then is a consequence or a stray)."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for r in runs:
        missed = [f for f, hit in zip(r["faults"], r["score"]["named"], strict=True) if not hit]
        blamed = missed or list(r["faults"])
        how = "unnamed" if missed else "named"
        for rule in r["score"]["wrong"]:
            for f in blamed:
                counts[(_family(f), str(rule), how)] += 1
    return [{"fault": f, "rule": rule, "fault_was": how, "count": n}
            for (f, rule, how), n in counts.most_common()]


def _family(f: Mapping[str, Any]) -> str:
    return Fault.from_json(f).family


def draw_composites(population: Mapping[str, Sequence[Fault]], ks: Sequence[int], count: int,
                    seed: int, kinds: Sequence[str] = KINDS
                    ) -> list[tuple[int, list[Fault], int]]:
    """``count`` composites per k: ``(k, faults, conform seed)``, the same for the same seed;
    each fault's kind drawn among ``kinds``."""
    rng = random.Random(seed)
    out = []
    for k in ks:
        for _ in range(count):
            out.append((k, draw(population, k, rng, kinds), rng.randrange(1, 2 ** 31)))
    return out


def adapter_command(faults: Sequence[Fault], root: Path, work: Path) -> list[str]:
    """The composite's adapter command; writes its faults (and, for operator faults, a copy
    of the package with the mutated modules) under ``work``."""
    work.mkdir(parents=True, exist_ok=True)
    spec = work / "faults.json"
    spec.write_text(json.dumps([f.to_json() for f in faults]), encoding="utf-8")
    path = str(root)
    operators = [f for f in faults if f.kind == "operator"]
    if operators:
        copy = work / "pkg"
        shutil.copytree(root / "rules_ref", copy / "rules_ref",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(root / "spec", copy / "spec")
        for f in operators:
            (copy / f.module).write_text(f.source, encoding="utf-8")
        path = f"{copy}:{root}"
    return ["env", f"PYTHONPATH={path}", sys.executable, "-m", "tools.mutation.fault_adapter",
            str(spec)]


def run_conform(adapter: list[str], neutral: Path, seed: int, extra: list[str],
                limit: float) -> dict[str, Any]:
    """``rules-ref conform --json`` against ``adapter``: its JSON (empty when it printed none),
    exit status and wall time."""
    import subprocess
    cmd = [str(Path(sys.executable).with_name("rules-ref")), "conform", "--json", "--seed",
           str(seed), "--shrink-seconds", str(SHRINK_SECONDS), *extra, "--", *adapter]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=neutral, capture_output=True, text=True,
                              env=_env_without_pythonpath(), timeout=limit)
    except subprocess.TimeoutExpired:
        return {"result": {}, "exit": None, "seconds": round(limit, 1)}
    try:
        result = json.loads(proc.stdout)
    except ValueError:
        result = {}
    return {"result": result, "exit": proc.returncode,
            "seconds": round(time.monotonic() - start, 2)}


def budget_args(budget: str, examples: int) -> list[str]:
    if budget == "default":
        return []
    return ["--examples", str(examples), "--max-seconds", "600"]


def _one(index: int, k: int, faults: list[Fault], seed: int, root: Path, work: Path,
         budgets: Sequence[str], examples: int) -> list[dict[str, Any]]:
    here = work / f"c{index}"
    adapter = adapter_command(faults, root, here)
    neutral = here / "cwd"
    neutral.mkdir()
    out = []
    for budget in budgets:
        ran = run_conform(adapter, neutral, seed, budget_args(budget, examples), 900.0)
        result = ran["result"]
        out.append({"index": index, "k": k, "budget": budget, "seed": seed,
                    "faults": [{**f.to_json(), "source": ""} for f in faults],
                    "score": score(faults, result), "verdict": result.get("verdict"),
                    "exit": ran["exit"], "seconds": ran["seconds"],
                    "games": result.get("games"), "deals": result.get("deals"),
                    "classes": [{"rule": c.get("rule"), "kind": c.get("kind"),
                                 "switch": c.get("switch"), "what": c.get("what")}
                                for c in result.get("classes") or [] if not c.get("expected")]})
    shutil.rmtree(here, ignore_errors=True)
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--k", type=int, nargs="+", default=list(DEFAULT_K), metavar="K",
                   help="faults per composite (default: 1 2 3 5)")
    p.add_argument("--count", type=int, default=None,
                   help=f"composites per k (default {DEFAULT_COUNT}; {QUICK_COUNT} with --quick)")
    p.add_argument("--quick", action="store_true",
                   help=f"a quick look: {QUICK_COUNT} composites per k, the default budget "
                   "only; the report is not written")
    p.add_argument("--seed", type=int, default=1, help="the draw's seed (default 1)")
    p.add_argument("--kinds", nargs="+", default=None, metavar="KIND",
                   help="draw only faults of these kinds (operator, switch, card, phase) or "
                   "families (card:points, phase:no-passing, operator:rules_ref/leading.py, "
                   "switch:moon): a focused look, written only to another --out")
    p.add_argument("--budgets", nargs="+", choices=BUDGETS, default=None, metavar="BUDGET",
                   help="run only these budgets (default, examples; default: both, the "
                   "default budget only with --quick); with one, written only to another --out")
    p.add_argument("--jobs", type=int, default=2, help="composites run at once (default 2)")
    p.add_argument("--examples", type=int, default=DEFAULT_EXAMPLES,
                   help=f"the games of the fixed budget (default {DEFAULT_EXAMPLES})")
    p.add_argument("--kit-power-json", default="docs/reports/kit-power.json",
                   help="the single-mutant campaign's report: the operator faults are the "
                   "mutants it saw conform catch")
    p.add_argument("--out", default=DEFAULT_OUT,
                   help="report path without extension (default docs/reports/kit-power): "
                   "writes OUT-composites.json and the section of OUT.md")
    p.add_argument("--render", default=None, metavar="COMPOSITES.json",
                   help="run nothing: score the runs of this report again and write it")


def assemble(runs: list[dict[str, Any]], head: dict[str, Any]) -> dict[str, Any]:
    """The report's document: ``head`` (how the campaign ran), the figures, and ``runs``."""
    budgets, ks = head["budgets"], head["k"]
    return {**head,
            "table": {budget: {str(k): summarize([r for r in runs if r["k"] == k
                                                  and r["budget"] == budget]) for k in ks}
                      for budget in budgets},
            "kinds": {budget: by_kind([r for r in runs if r["budget"] == budget])
                      for budget in budgets},
            "misattributions": {budget: misattributions([r for r in runs
                                                         if r["budget"] == budget])
                                for budget in budgets},
            "runs": runs}


def population(root: Path, kit_power_json: Path) -> dict[str, list[Fault]]:
    """Every fault a composite is drawn from, by kind."""
    return {"operator": operator_faults(root, kit_power_json), **catalogue(root)}


def focused(faults: Mapping[str, Sequence[Fault]], only: Sequence[str]
            ) -> dict[str, list[Fault]]:
    """The faults of ``faults`` of a kind or a family (:attr:`Fault.family`) of ``only``.

    >>> a = Fault("card", "card:points:5D", ("SCORE.CARD_POINTS",), "", patch="points", card="5D")
    >>> b = Fault("card", "card:no-cancel:5D", ("TRICK.CANCEL",), "", patch="no-cancel", card="5D")
    >>> [f.name for f in focused({"card": [a, b]}, ["card:points"])["card"]]
    ['card:points:5D']
    """
    return {kind: [f for f in fs if kind in only or f.family in only]
            for kind, fs in faults.items()}


def render(args: argparse.Namespace) -> int:
    """Score the runs of an earlier campaign's JSON again and write its report."""
    from .report import composites_text, write_composites
    doc = json.loads(Path(args.render).read_text(encoding="utf-8"))
    runs = doc.pop("runs")
    for r in runs:
        faults = [Fault.from_json(f) for f in r["faults"]]
        r["score"] = score(faults, {"classes": r["classes"]})
    head = {k: v for k, v in doc.items() if k not in ("table", "kinds", "misattributions")}
    doc = assemble(runs, head)
    print(composites_text(doc))
    write_composites(Path(args.out), doc)
    return 0


def run(args: argparse.Namespace, root: Path) -> int:
    if args.render is not None:
        return render(args)
    if any(k < 1 for k in args.k) or (args.count is not None and args.count < 1):
        print("composites: --k and --count must be at least 1", file=sys.stderr)
        return 2
    count = args.count if args.count is not None else (
        QUICK_COUNT if args.quick else DEFAULT_COUNT)
    budgets = tuple(args.budgets or (("default",) if args.quick else BUDGETS))
    faults = population(root, Path(args.kit_power_json))
    if args.kinds:
        faults = focused(faults, args.kinds)
    sizes = ", ".join(f"{len(v)} {kind}" for kind, v in faults.items())
    try:
        drawn = draw_composites(faults, args.k, count, args.seed)
    except ValueError as exc:
        print(f"composites: {exc}", file=sys.stderr)
        return 2
    print(f"composites: {len(drawn)} composites ({count} per k, k = "
          f"{' '.join(map(str, args.k))}), each run in {len(budgets)} budget(s): "
          f"{len(drawn) * len(budgets)} conform runs, {args.jobs} at a time; faults drawn "
          f"from {sizes}", flush=True)
    started = time.monotonic()
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="rules-ref-composites-") as tmp, \
            ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(_one, i, k, fs, seed, root, Path(tmp), budgets, args.examples)
                   for i, (k, fs, seed) in enumerate(drawn)]
        for i, future in enumerate(futures, 1):
            done = future.result()
            runs.extend(done)
            for r in done:
                print(f"[{i}/{len(drawn)}] k={r['k']} {r['budget']:8} named "
                      f"{sum(r['score']['named'])}/{r['k']} classes {r['score']['right']}/"
                      f"{r['score']['classes']} right  "
                      f"{' '.join(f['name'] for f in r['faults'])}", flush=True)
    doc = assemble(runs, {"kind": "kit-power-composites", "seed": args.seed, "count": count,
                          "k": args.k, "budgets": list(budgets), "examples": args.examples,
                          "jobs": args.jobs, "seconds": round(time.monotonic() - started, 1),
                          "population": {kind: len(v) for kind, v in faults.items()}})
    from .report import composites_text, write_composites
    print(composites_text(doc))
    partial = bool(args.kinds) or set(budgets) != set(BUDGETS)
    if not args.quick and (not partial or args.out != DEFAULT_OUT):
        write_composites(Path(args.out), doc)
    return 0
