"""The mutation campaign: every mutant of the chosen modules against the selected tests.

``python -m tools.mutation mutate`` (``make mutate``) writes
``docs/reports/mutation.json`` and ``docs/reports/mutation.md``. Mutants are
run in a seeded random order; ``--limit N`` keeps the first N of that order
(a sample across every module), ``--modules`` narrows the modules.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from . import report
from .operators import Mutant, mutants, units
from .runner import (
    PER_TEST_FACTOR,
    PER_TEST_MARGIN,
    Job,
    baseline,
    make_copy,
    run_jobs,
)

RULE_MODULES = ("cards", "deal", "passing", "leading", "following", "tricks", "pending",
                "scoring", "game_end")
MUTATED_MODULES = (*RULE_MODULES, "state", "state_reading", "view")
#: The tests written for survivors: what ``--recheck`` runs each survivor against.
KILLS = "tests/rules/test_mutation_kills.py"
CACHE = Path(tempfile.gettempdir()) / "rules-ref-mutation-cache"


def module_path(name: str) -> str:
    return f"rules_ref/{name}.py"


def collect(root: Path, modules: tuple[str, ...]) -> list[Mutant]:
    """Every mutant of ``modules``, in source order, module by module."""
    out: list[Mutant] = []
    for name in modules:
        path = module_path(name)
        out.extend(mutants((root / path).read_text(encoding="utf-8"), path))
    return out


def unit_spans(root: Path, modules: tuple[str, ...]) -> dict[str, list[tuple[int, int, str]]]:
    """For each module, the line span and key (``module:qualname``) of each function."""
    import ast
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for name in modules:
        path = module_path(name)
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        spans[path] = [(u.first_line, u.last_line, f"{path}:{u.qualname}") for u, _ in units(tree)]
    return spans


def order(mutant_list: list[Mutant], seed: int) -> list[Mutant]:
    shuffled = list(mutant_list)
    random.Random(seed).shuffle(shuffled)
    return shuffled


def selection(m: Mutant, tests: dict[str, dict[str, Any]], outside: frozenset[str]) -> list[str]:
    """The tests that call ``m``'s function: those naming one of its rules first, fastest first.

    A function called outside the tests (at import) is needed by every test.
    """
    unit = f"{m.module}:{m.unit}"
    everyone = unit in outside
    calling = [(nid, t) for nid, t in tests.items()
               if t.get("outcome") == "passed" and (everyone or unit in t.get("calls", ()))]
    rules = set(m.rules)

    def rank(item: tuple[str, dict[str, Any]]) -> tuple[int, float, str]:
        nid, t = item
        return (0 if rules & set(t.get("rules", ())) else 1, float(t["seconds"]), nid)

    return [nid for nid, _ in sorted(calling, key=rank)]


def tree_hash(copy_root: Path) -> str:
    """A digest of every copied file: the baseline depends on nothing else."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(p for p in copy_root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(copy_root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def cached_baseline(copy_root: Path, spans: dict[str, list[tuple[int, int, str]]],
                    work: Path) -> dict[str, Any]:
    """The traced baseline, reused from an earlier run of exactly the same files."""
    key = hashlib.sha256(repr(sorted(spans.items())).encode() + tree_hash(copy_root).encode())
    cache = CACHE / f"{key.hexdigest()[:24]}.json"
    if cache.exists():
        print(f"mutate: baseline reused from {cache}", flush=True)
        data: dict[str, Any] = json.loads(cache.read_text(encoding="utf-8"))
        return data
    data = baseline(copy_root, spans, work / "baseline.json")
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(data), encoding="utf-8")
    return data


def _baseline(root: Path, modules: tuple[str, ...], copy: Path, work: Path,
              started: float) -> tuple[dict[str, dict[str, Any]], frozenset[str], float,
                                       float] | None:
    traced = cached_baseline(copy, unit_spans(root, modules), work)
    tests: dict[str, dict[str, Any]] = traced["tests"]
    outside = frozenset(traced.get("outside", ()))
    failed = sorted(nid for nid, t in tests.items() if t.get("outcome") != "passed")
    if failed:
        print(f"mutate: {len(failed)} test(s) fail without any mutant, e.g. {failed[0]}; "
              "fix them first", file=sys.stderr)
        return None
    base_seconds = time.monotonic() - started
    print(f"mutate: baseline {len(tests)} tests in {base_seconds:.0f} s", flush=True)
    return tests, outside, base_seconds, float(traced.get("cpu_seconds", 0.0))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modules", nargs="+", default=None, metavar="NAME",
                   help=f"modules to mutate (default: {' '.join(MUTATED_MODULES)})")
    p.add_argument("--limit", type=int, default=None,
                   help="run only the first N mutants of the seeded order (a sample)")
    p.add_argument("--seed", type=int, default=1, help="the order's seed (default 1)")
    p.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    p.add_argument("--max-minutes", type=float, default=None,
                   help="start no new mutant after this many minutes; the report then covers "
                   "the mutants run, a prefix of the order (a sample)")
    p.add_argument("--rerun-equivalent", action="store_true",
                   help="run the mutants explained as equivalent too (by default they are "
                   "reported without a run while their function is unchanged)")
    p.add_argument("--note", default=None,
                   help="a sentence for the report (how the run was made, measured costs)")
    p.add_argument("--recheck", default=None, metavar="REPORT.json",
                   help=f"run the survivors (and errors) of this report against {KILLS} only "
                   "(the tests written for them) and write the report with their new verdicts")
    p.add_argument("--out", default="docs/reports/mutation",
                   help="report path without extension (default docs/reports/mutation)")


def chosen_mutants(args: argparse.Namespace, root: Path, known: tuple[str, ...],
                   what: str) -> tuple[tuple[str, ...], list[Mutant], list[Mutant]] | None:
    """The modules asked for (``--modules``, else ``known``), their every mutant, and those
    the run plays, in the seed's order, ``--limit`` of them (None: an unknown module,
    reported on standard error as ``what``)."""
    modules = tuple(args.modules) if args.modules else known
    unknown = [m for m in modules if m not in known]
    if unknown:
        print(f"{what}(s) {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return None
    every = collect(root, modules)
    chosen = order(every, args.seed)
    return modules, every, chosen if args.limit is None else chosen[:args.limit]


def run(args: argparse.Namespace, root: Path) -> int:
    asked = chosen_mutants(args, root, MUTATED_MODULES, "mutate: unknown module")
    if asked is None:
        return 2
    modules, every, chosen = asked
    earlier: dict[str, Any] | None = None
    if args.recheck is not None:
        earlier = json.loads(Path(args.recheck).read_text(encoding="utf-8"))
        again = {e["key"]: e["mutation"] for e in earlier["mutants"]
                 if e["status"] in ("survived", "error")}
        chosen = [m for m in chosen if again.get(m.key) == m.description]
        print(f"mutate: rechecking the {len(chosen)} survivors of {args.recheck} against "
              f"{KILLS}", flush=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rules-ref-mutate-") as tmp:
        work = Path(tmp)
        slots = [make_copy(root, work / f"copy{i}") for i in range(max(1, args.jobs))]
        tests: dict[str, dict[str, Any]] = {}
        outside: frozenset[str] = frozenset()
        base_seconds = base_cpu = 0.0
        if earlier is None:
            print(f"mutate: {len(chosen)} of {len(every)} mutants; baseline run (traced) ...",
                  flush=True)
            got = _baseline(root, modules, slots[0], work, started)
            if got is None:
                return 2
            tests, outside, base_seconds, base_cpu = got
        jobs: list[Job] = []
        results: list[dict[str, Any]] = []
        known = report.load_explanations(root)
        for m in chosen:
            entry = report.mutant_entry(m)
            why = known.get(m.key, {})
            if (not args.rerun_equivalent and why.get("reason") == "equivalent"
                    and why.get("function_sha") == m.unit_sha):
                entry.update(status="survived", tests=0, seconds=0.0,
                             note="known equivalent, not run: the function is unchanged "
                             "since it was judged")
                results.append(entry)
                continue
            picked = [KILLS] if earlier is not None else selection(m, tests, outside)
            if not picked:
                entry.update(status="survived", tests=0, seconds=0.0,
                             note="no test calls this function")
                results.append(entry)
                continue
            per_test = {nid: PER_TEST_FACTOR * float(tests[nid]["seconds"]) + PER_TEST_MARGIN
                        for nid in picked if nid in tests}
            job = Job(m.key, m.module, m.source, picked, per_test)
            job.result["entry"] = entry
            jobs.append(job)
        done = [0]

        def progress(job: Job) -> None:
            done[0] += 1
            r = job.result
            print(f"[{done[0]}/{len(jobs)}] {r['status']:8} {r['seconds']:6.1f}s {job.key}",
                  flush=True)

        stop_at = None if args.max_minutes is None else started + 60 * args.max_minutes
        run_jobs(jobs, slots, work, progress, stop_at)
        unrun = [job.key for job in jobs if "status" not in job.result]
        if unrun:  # stopped early: keep the prefix of the order that was run
            first = next(i for i, m in enumerate(chosen) if m.key == unrun[0])
            kept = {m.key for m in chosen[:first]}
            print(f"mutate: stopped after {first} mutants of {len(chosen)}", flush=True)
            results = [e for e in results if e["key"] in kept]
            jobs = [job for job in jobs if job.key in kept]
        for job in jobs:
            entry = job.result["entry"]
            entry.update(tests=len(job.order),
                         **{k: v for k, v in job.result.items()
                            if k in ("status", "seconds", "cpu_seconds", "killed_by", "detail",
                                     "exit")})
            results.append(entry)
    seconds = time.monotonic() - started
    if earlier is not None:  # the earlier run, with its survivors' new verdicts
        fresh = {e["key"]: e for e in results}
        for e in fresh.values():
            e["rechecked"] = True
        # Only a kill changes a verdict: surviving the new tests alone proves nothing more.
        results = [fresh[e["key"]] if e["key"] in fresh and fresh[e["key"]]["status"] in (
            "killed", "timeout") else e for e in earlier["mutants"]]
        seconds += float(earlier["seconds"])
        base_seconds += float(earlier["baseline_seconds"])
        total_seen = int(earlier["total_mutants"])
        if len(fresh) < sum(1 for e in earlier["mutants"] if e["status"] in ("survived", "error")):
            print("mutate: the recheck did not run every survivor", file=sys.stderr)
            return 1
    else:
        total_seen = len(every)
    results.sort(key=lambda e: (e["module"], e["line"], e["key"]))
    summary = report.write_mutation(Path(args.out), results, total=total_seen,
                                    seed=args.seed, jobs=args.jobs,
                                    seconds=seconds,
                                    baseline_seconds=base_seconds, modules=modules,
                                    explanations=report.load_explanations(root),
                                    baseline_cpu=base_cpu, note=args.note)
    print(summary)
    errors = sum(1 for e in results if e["status"] == "error")
    return 1 if errors or not results else 0
