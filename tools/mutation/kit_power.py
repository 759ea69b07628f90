"""The conformance kit's own power: engine mutants behind the reference adapter.

``python -m tools.mutation kit-power`` (``make kit-power``) takes every mutant
of the rule modules, writes it into a temporary copy of the package, and runs
``rules-ref vectors run`` and ``rules-ref conform --json --first`` (default
settings otherwise, a fixed ``--seed`` so a run can be repeated) against the
adapter command ``env PYTHONPATH=COPY PYTHON -m rules_ref.protocol.reference_adapter``.
``--first`` ends conform's run after the game of its first divergence: up to
that game it plays what a default run plays, so whether and when a mutant is
caught is what the default run finds, and a caught mutant costs a few
seconds instead of the whole budget; ``--shrink-seconds`` is the least
(:data:`SHRINK_SECONDS`), since the rule named is fixed when a divergence is
first seen. Both commands run from an empty
directory with the installed ``rules-ref`` of this checkout, so only the
adapter process imports the mutant: the runner's reference stays unmutated
(checked once per campaign, :func:`check_origins`).

Per mutant it records whether each command caught it (any exit status but
0: a disagreement or a failed vector; an adapter fault, an internal error the
adapter reports, or a run that tested nothing count as caught too, with the
rules they name, if any), the time to the first catch (vectors: when the
first ``FAIL`` line was printed; conform: when its first divergence class
was first seen), and whether a named rule is one of the mutated function's
rules (its ``@implements``; for a helper without one, the rules of the rule
functions that call it). The rule a command names: conform's, for the first
divergence it met; for the vectors, the rule cited by the most failing
vectors. The report's "right rule" is conform's when conform caught the
mutant, else the vectors'.

A mutant of lines the reference adapter never runs (traced once, over a
vectors run and a conform run of the unmutated package with the same seed,
:mod:`tools.mutation.traced_adapter`) cannot change what the adapter answers
in those runs, which replay the same games until an answer differs: it is
classified *not reached by the adapter* without a run. A mutant neither
command catches and that changes only the words of an error message
(:mod:`tools.mutation.message_only`, read from the source) is *message words
only*: the protocol compares a rejection's rule, not its words, so no adapter
run can see it. Any other mutant neither command catches is a miss, unless
the mutation campaign's report (``docs/reports/mutation.json``) shows that no
test kills it either: then a long conform search (``--long-examples``,
``--long-seconds``) is run, and the mutant is *equivalent at the adapter* when
it also finds nothing. Neither of these two classes is counted as a miss.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .campaign import CACHE, RULE_MODULES, chosen_mutants, module_path
from .message_only import message_only
from .operators import Mutant, units

CONFORM_SEED = 20261201
#: conform's shrinking budget per mutant: every class still gets its first check, and the
#: class (so the rule named) is fixed when it is first seen; shrinking it further would
#: only cost time.
SHRINK_SECONDS = 0.01


def helper_rules(root: Path) -> dict[str, tuple[str, ...]]:
    """``module:function`` -> rules: its own ``@implements``, else those of the functions that
    call it (a helper only used outside functions, such as ``card`` making the named cards,
    has none)."""
    own: dict[str, tuple[str, ...]] = {}
    bodies: dict[str, ast.AST] = {}
    for name in (*RULE_MODULES, "state", "state_reading"):
        path = module_path(name)
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        for unit, fn in units(tree):
            own[f"{path}:{unit.qualname}"] = unit.rules
            bodies[f"{path}:{unit.qualname}"] = fn
    # A function is used where it is called (``card(...)``, ``step.play_card(...)``): a
    # parameter, a variable or an attribute of the same name (``card``, ``action.card``) is
    # not a use of it. A method or a property is used wherever its attribute is read.
    called: dict[str, set[str]] = {}
    read: dict[str, set[str]] = {}
    for key, body in bodies.items():
        for node in ast.walk(body):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name):
                    called.setdefault(func.id, set()).add(key)
                elif isinstance(func, ast.Attribute):
                    called.setdefault(func.attr, set()).add(key)
            elif isinstance(node, ast.Attribute):
                read.setdefault(node.attr, set()).add(key)
    out: dict[str, tuple[str, ...]] = {}
    for key, rules in own.items():
        if rules:
            out[key] = rules
            continue
        qualname = key.rsplit(":", 1)[1]
        simple = qualname.rsplit(".", 1)[-1]
        member = "." in qualname
        callers = ((read.get(simple, set()) | called.get(simple, set())) if member
                   else called.get(simple, set())) - {key}
        out[key] = tuple(sorted({r for c in callers for r in own[c]}))
    return out


def adapter_reach(root: Path, work: Path) -> set[tuple[str, int]]:
    """The lines of the rule modules the reference adapter runs in a vectors and a conform run.

    Both commands run once on the unmutated package through
    :mod:`tools.mutation.traced_adapter`: the vectors as by default, conform
    with the campaign's seed and default examples but a time budget long
    enough for the slower traced adapter to play every example.
    Returned as ``(module path, line)`` pairs, e.g. ``("rules_ref/cards.py", 80)``.
    """
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted([*(root / "rules_ref").rglob("*.py"), *(root / "spec").rglob("*"),
                        Path(__file__).with_name("traced_adapter.py")]):
        if path.is_file():
            digest.update(str(path).encode() + b"\0" + path.read_bytes())
    cache = CACHE / f"reach-{digest.hexdigest()[:24]}.json"
    if cache.exists():
        print(f"kit-power: the adapter's lines reused from {cache}", flush=True)
        return {(str(a), int(b)) for a, b in json.loads(cache.read_text(encoding="utf-8"))}
    out = work / "reach.jsonl"
    neutral = work / "cwd"
    neutral.mkdir(exist_ok=True)
    tracer = Path(__file__).with_name("traced_adapter.py")
    files = [str(root / module_path(name)) for name in RULE_MODULES]
    adapter = ["env", f"PYTHONPATH={root}", sys.executable, str(tracer), str(out), *files]
    rules_ref_cmd = str(Path(sys.executable).with_name("rules-ref"))
    vectors = run_vectors(rules_ref_cmd, adapter, neutral, 1800.0)
    conform = run_conform(rules_ref_cmd, adapter, neutral, 1800.0,
                          ["--max-seconds", "900", "--examples", "100"])
    if vectors["caught"] or conform["caught"] or not out.exists():
        raise RuntimeError("the traced reference adapter did not pass the vectors and conform: "
                           f"vectors exit {vectors['exit']}, conform {conform.get('verdict')}")
    prefix = str(root) + os.sep
    reached: set[tuple[str, int]] = set()
    for line in out.read_text(encoding="utf-8").splitlines():
        for filename, number in json.loads(line):
            if filename.startswith(prefix):
                reached.add((filename[len(prefix):], int(number)))
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(sorted(reached)), encoding="utf-8")
    return reached


def reaches(m: Mutant, reached: set[tuple[str, int]]) -> bool:
    """Did the adapter run any line of the text this mutant replaces?"""
    return any((m.module, n) in reached for n in range(m.line, max(m.line, m.end_line) + 1))


def check_origins(python: str, neutral: Path, copy: Path) -> None:
    """Fail unless the runner imports the work tree's package and the adapter the copy's."""
    runner = subprocess.run([python, "-c", "import rules_ref; print(rules_ref.__file__)"],
                            cwd=neutral, capture_output=True, text=True, check=True,
                            env=_env_without_pythonpath())
    adapter = subprocess.run(["env", f"PYTHONPATH={copy}", python, "-c",
                              "import rules_ref; print(rules_ref.__file__)"],
                             cwd=neutral, capture_output=True, text=True, check=True,
                             env=_env_without_pythonpath())
    if runner.stdout.strip().startswith(str(copy)) or not adapter.stdout.strip().startswith(
            str(copy)):
        raise RuntimeError(f"import origins are wrong: runner {runner.stdout.strip()}, "
                           f"adapter {adapter.stdout.strip()}")


def _env_without_pythonpath() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_vectors(rules_ref_cmd: str, adapter: list[str], neutral: Path,
                limit: float, junit: Path | None = None) -> dict[str, Any]:
    """``rules-ref vectors run`` against ``adapter``; caught, rules named, time to first FAIL.

    With ``junit`` (a path to write the run's JUnit report to), the ids of the failed
    vectors are kept too (``failed_cases``): the report counts, per switch value, the
    mutants a vector played under that value caught.
    """
    start = time.monotonic()
    report = ["--junit", str(junit)] if junit is not None else []
    proc = subprocess.Popen([rules_ref_cmd, "vectors", "run", *report, "--", *adapter],
                            cwd=neutral,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env_without_pythonpath(), start_new_session=True)
    first: float | None = None
    cited: Counter[str] = Counter()
    failed = 0
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("FAIL "):
            failed += 1
            if first is None:
                first = time.monotonic() - start
            if "[" in line and "]" in line:
                inside = line.split("[", 1)[1].split("]", 1)[0]
                cited.update({r.strip() for r in inside.split(",") if r.strip()})
        if time.monotonic() - start > limit:
            os.killpg(proc.pid, 9)
            break
    try:
        code = proc.wait(timeout=max(1.0, limit - (time.monotonic() - start)))
        stderr = proc.stderr.read() if proc.stderr else ""
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        code, stderr = proc.wait(), "timed out"
    seconds = time.monotonic() - start
    caught = code != 0  # any failing status: a failed vector, a fault, nothing tested
    if caught and first is None:
        first = seconds
    top = max(cited.values(), default=0)
    failed_cases = _failed_cases(junit) if junit is not None else []
    return {"caught": caught, "exit": code, "failed_cases": failed_cases,
            "rules": sorted(r for r, n in cited.items() if n == top),
            "cited": dict(sorted(cited.items())), "failed": failed,
            "first_catch_seconds": None if first is None else round(first, 2),
            "seconds": round(seconds, 2), "fault": code == 2,
            "detail": stderr.strip().splitlines()[0] if code == 2 and stderr.strip() else None}


def _failed_cases(junit: Path) -> list[str]:
    """The ids of the failed vectors in a JUnit report (none when it was not written)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError):
        return []
    return sorted(str(case.get("name")) for case in root.iter("testcase")
                  if case.find("failure") is not None)


def run_conform(rules_ref_cmd: str, adapter: list[str], neutral: Path, limit: float,
                extra: list[str]) -> dict[str, Any]:
    """``rules-ref conform --json`` against ``adapter``; caught, rules named, wall time."""
    start = time.monotonic()
    try:
        proc = subprocess.run([rules_ref_cmd, "conform", "--json", "--seed", str(CONFORM_SEED),
                               *extra, "--", *adapter], cwd=neutral, capture_output=True,
                              text=True, env=_env_without_pythonpath(), timeout=limit)
    except subprocess.TimeoutExpired:
        return {"caught": False, "exit": None, "rules": [], "seconds": round(limit, 1),
                "verdict": "runner timed out"}
    seconds = time.monotonic() - start
    try:
        summary = json.loads(proc.stdout)
    except ValueError:
        summary = {}
    verdict = summary.get("verdict")
    # any failing status: a disagreement, an adapter fault, an internal error the adapter
    # reported (exit 6), nothing tested (exit 4)
    caught = proc.returncode != 0
    # when the first divergence was seen (its class's first sighting), else the run's end
    seen = [float(c["first_seen"]["seconds"]) for c in summary.get("classes") or []
            if not c.get("expected") and c.get("first_seen")]
    first = min(seen) if seen else seconds
    return {"caught": caught, "exit": proc.returncode, "verdict": verdict,
            "rules": list(summary.get("rules") or []), "seconds": round(seconds, 2),
            "first_catch_seconds": round(first, 2) if caught else None,
            "games": summary.get("games"), "stopped": summary.get("stopped"),
            "citations": int(summary.get("rule_citations_differing") or 0)}


def _not_run() -> dict[str, Any]:
    return {"caught": False, "exit": None, "rules": [], "seconds": 0.0, "right_rule": None,
            "first_catch_seconds": None}


#: The class of a mutant that changes only the words of an error message, which the
#: protocol does not compare (:mod:`tools.mutation.message_only`).
MESSAGE_ONLY = "message words only"


def _killed_by_tests(key: str, tested: dict[str, dict[str, Any]]) -> bool:
    return tested.get(key, {}).get("status") in ("killed", "timeout")


#: The class of a mutant that changes only the rule a rejection cites: conform reports it
#: (``rule_citations_differing``, with the action and both rules) and, as the protocol says,
#: does not fail the run on it.
CITATION_ONLY = "another rule cited, reported"
#: The class of a mutant that :data:`ADAPTER_EXPLANATIONS` shows gives every adapter answer
#: unchanged, though the suite's exact-message tests kill it.
SAME_ANSWER = "same answers at the adapter"
#: Why some mutants cannot change what the adapter answers: key -> {mutation, why}. An
#: entry holds only while its mutation text is the mutant's (a changed function is judged
#: again).
ADAPTER_EXPLANATIONS = Path(__file__).with_name("adapter_explanations.toml")


def adapter_explanations() -> dict[str, dict[str, str]]:
    import tomllib
    data = tomllib.loads(ADAPTER_EXPLANATIONS.read_text(encoding="utf-8"))
    return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in data.items()}


def _classify(entry: dict[str, Any], tested: dict[str, dict[str, Any]],
              explained: dict[str, dict[str, str]] | None = None) -> None:
    if entry.get("class") == "not reached by the adapter":
        return
    if entry["vectors"]["caught"] or entry["conform"]["caught"]:
        entry["class"] = "caught"
        return
    long = entry.get("long_conform")
    long_caught = bool(long and long["caught"])
    test = tested.get(entry["key"], {})
    killed_by_tests = _killed_by_tests(entry["key"], tested)
    why = (adapter_explanations() if explained is None else explained).get(entry["key"], {})
    if entry.get("message_only") and not long_caught:
        entry["class"] = MESSAGE_ONLY
    elif entry["conform"].get("citations") and not long_caught:
        entry["class"] = CITATION_ONLY
    elif why and why.get("mutation") == entry.get("mutation") and not long_caught:
        entry["class"] = SAME_ANSWER
        entry["why"] = why.get("why", "")
    elif long is not None and not long_caught and test and not killed_by_tests:
        entry["class"] = "equivalent at the adapter"
    else:
        entry["class"] = "miss"
    entry["killed_by_tests"] = test.get("killed_by") if killed_by_tests else None
    entry["tests_verdict"] = test.get("status")


def _reclassify(args: argparse.Namespace, root: Path, tested: dict[str, dict[str, Any]],
                every: list[Mutant]) -> int:
    """Classify the misses of an earlier kit-power report again.

    With a newer mutation report, and with the lines the adapter runs traced
    again (a miss on lines it never runs is *not reached by the adapter*).
    """
    from .report import write_kit_power
    doc = json.loads(Path(args.reclassify).read_text(encoding="utf-8"))
    results: list[dict[str, Any]] = doc["mutants"]
    by_key = {m.key: m for m in every}
    with tempfile.TemporaryDirectory(prefix="rules-ref-kit-power-") as tmp:
        reach = adapter_reach(root.resolve(), Path(tmp))
    for entry in results:
        caught = entry["vectors"]["caught"] or entry["conform"]["caught"]
        m = by_key.get(entry["key"])
        if m is not None and m.description == entry["mutation"]:
            entry["message_only"] = message_only(m, (root / m.module).read_text(encoding="utf-8"))
        if not caught and m is not None and m.description == entry["mutation"] and not reaches(
                m, reach):
            entry["class"] = "not reached by the adapter"
        _classify(entry, tested)
    print(write_kit_power(Path(args.out), results, total=int(doc["total_mutants"]),
                          seed=int(doc["seed"]), seconds=float(doc["seconds"]),
                          jobs=int(doc["jobs"]), modules=tuple(doc["modules"]),
                          long_seconds=args.long_seconds,
                          cpu_seconds=float(doc.get("cpu_seconds", 0.0))))
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--modules", nargs="+", default=None, metavar="NAME",
                   help=f"rule modules to mutate (default: {' '.join(RULE_MODULES)})")
    p.add_argument("--limit", type=int, default=None,
                   help="run only the first N mutants of the seeded order (a sample)")
    p.add_argument("--keys", nargs="+", default=None, metavar="KEY",
                   help="run only these mutants, by key (module:function:operator:number, "
                   "as the report lists them), e.g. to see again what one mutant's run names")
    p.add_argument("--seed", type=int, default=1, help="the order's seed (default 1)")
    p.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    p.add_argument("--long-examples", type=int, default=1000,
                   help="examples of the long conform run of a mutant nothing caught")
    p.add_argument("--long-seconds", type=float, default=60.0,
                   help="time budget of that long run (default 60)")
    p.add_argument("--mutation-report", default="docs/reports/mutation.json",
                   help="the mutation campaign's JSON (for which mutants no test kills)")
    p.add_argument("--reclassify", default=None, metavar="KIT.json",
                   help="run nothing: classify the misses of this kit-power report again "
                   "against --mutation-report, and write it")
    p.add_argument("--out", default="docs/reports/kit-power",
                   help="report path without extension (default docs/reports/kit-power)")


def _one(m: Mutant, root: Path, work: Path, expected: tuple[str, ...], args: argparse.Namespace,
         tested: dict[str, dict[str, Any]]) -> dict[str, Any]:
    python = sys.executable
    rules_ref_cmd = str(Path(python).with_name("rules-ref"))
    copy = work / ("m-" + m.key.replace("/", "_").replace(":", "_"))
    shutil.copytree(root / "rules_ref", copy / "rules_ref",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(root / "spec", copy / "spec")
    (copy / m.module).write_text(m.source, encoding="utf-8")
    neutral = work / "cwd"
    neutral.mkdir(exist_ok=True)
    adapter = ["env", f"PYTHONPATH={copy}", python, "-m", "rules_ref.protocol.reference_adapter"]
    entry: dict[str, Any] = {"key": m.key, "module": m.module, "function": m.unit,
                             "line": m.line, "op": m.op, "mutation": m.description,
                             "expected_rules": list(expected), "message_only": False}
    entry["vectors"] = run_vectors(rules_ref_cmd, adapter, neutral, 600.0,
                                   copy / "vectors-run.xml")
    entry["conform"] = run_conform(rules_ref_cmd, adapter, neutral, 600.0,
                                   ["--first", "--shrink-seconds", str(SHRINK_SECONDS)])
    for kit in ("vectors", "conform"):
        named = entry[kit]["rules"]
        entry[kit]["right_rule"] = bool(set(named) & set(expected)) if entry[kit]["caught"] \
            else None
    # The diagnosis a user reads first: conform's rule when it caught the mutant, else the
    # rule the most failing vectors cite.
    kit = "conform" if entry["conform"]["caught"] else "vectors"
    entry["named"] = {"by": kit, "rules": entry[kit]["rules"],
                      "right": entry[kit]["right_rule"]}
    if not entry["vectors"]["caught"] and not entry["conform"]["caught"]:
        entry["message_only"] = message_only(m, (root / m.module).read_text(encoding="utf-8"))
    if (not entry["vectors"]["caught"] and not entry["conform"]["caught"]
            and not entry["message_only"] and not _killed_by_tests(m.key, tested)):
        # only a mutant no test kills may be equivalent: the long search decides
        long = run_conform(rules_ref_cmd, adapter, neutral, args.long_seconds + 120.0,
                           ["--examples", str(args.long_examples),
                            "--max-seconds", str(args.long_seconds)])
        entry["long_conform"] = long
    _classify(entry, tested)
    shutil.rmtree(copy, ignore_errors=True)
    return entry


def run(args: argparse.Namespace, root: Path) -> int:
    asked = chosen_mutants(args, root, RULE_MODULES, "kit-power: unknown rule module")
    if asked is None:
        return 2
    modules, every, chosen = asked
    if args.keys:
        missing = sorted(set(args.keys) - {m.key for m in chosen})
        if missing:
            print(f"kit-power: no such mutant: {', '.join(missing)}", file=sys.stderr)
            return 2
        chosen = [m for m in chosen if m.key in set(args.keys)]
    expected = helper_rules(root)
    tested: dict[str, dict[str, Any]] = {}
    report_path = Path(args.mutation_report)
    if report_path.exists():
        tested = {e["key"]: e for e in json.loads(report_path.read_text(encoding="utf-8"))
                  ["mutants"]}
    from .report import load_explanations
    for key, why in load_explanations(root).items():  # judged equivalent: no test can kill it
        if why.get("reason") == "equivalent" and key not in tested:
            tested[key] = {"key": key, "status": "survived", "reason": "equivalent"}
    if args.reclassify is not None:
        return _reclassify(args, root, tested, every)
    started = time.monotonic()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="rules-ref-kit-power-") as tmp:
        work = Path(tmp)
        probe = work / "probe"
        shutil.copytree(root / "rules_ref", probe / "rules_ref",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (work / "cwd").mkdir()
        check_origins(sys.executable, work / "cwd", probe)
        shutil.rmtree(probe)
        print(f"kit-power: {len(chosen)} of {len(every)} mutants; tracing the reference "
              "adapter ...", flush=True)
        reach = adapter_reach(root.resolve(), work)
        unreached = [m for m in chosen if not reaches(m, reach)]
        for m in unreached:
            results.append({"key": m.key, "module": m.module, "function": m.unit,
                            "line": m.line, "op": m.op, "mutation": m.description,
                            "expected_rules": list(expected.get(f"{m.module}:{m.unit}", ())),
                            "class": "not reached by the adapter",
                            "vectors": _not_run(), "conform": _not_run(),
                            "named": {"by": None, "rules": [], "right": None}})
        chosen = [m for m in chosen if reaches(m, reach)]
        print(f"kit-power: {len(unreached)} mutants change lines the adapter never runs; "
              f"running {len(chosen)}", flush=True)
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(_one, m, root, work, expected.get(f"{m.module}:{m.unit}", ()),
                                   args, tested) for m in chosen]
            for i, f in enumerate(futures, 1):
                e = f.result()
                results.append(e)
                print(f"[{i}/{len(chosen)}] {e['class']:26} vectors "
                      f"{'caught' if e['vectors']['caught'] else 'missed'} conform "
                      f"{'caught' if e['conform']['caught'] else 'missed'} {e['key']}",
                      flush=True)
    from .report import write_kit_power
    headline = write_kit_power(Path(args.out), results, total=len(every), seed=args.seed,
                               seconds=time.monotonic() - started, jobs=args.jobs,
                               modules=modules, long_seconds=args.long_seconds)
    print(headline)
    return 0 if results else 1

