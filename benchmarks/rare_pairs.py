"""Time to first sight of the differences that need two rare things together.

    .venv/bin/python benchmarks/rare_pairs.py [--seeds 1-5] [--cap 60] [--json]
        [--adapter NAME ...] [--source DIR]

Runs ``rules-ref conform --first`` against each broken adapter of
``tests/fakes/rare_pair_adapters.py``, with the rulesets drawn by
``conform`` itself, once per seed, and reads from its report when the
finding of the adapter's rule and switch was first seen (seconds and
games). Prints, per adapter, the median over the seeds, the spread, and
how many seeds found it within the default budget (``DEFAULT_MAX_SECONDS``)
and within ``--cap``; a seed that did not find it within the cap counts as
the cap (the median is then a lower bound, shown with ``>``). The load
average before and after the runs is printed beside them: the figures are
seconds of this machine, read and compared, never asserted.

``--source DIR`` runs the kit of another checkout (its ``rules_ref``), such
as the code before a change, with these adapters.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_ref.conform.budget import DEFAULT_MAX_SECONDS  # noqa: E402
from tests.fakes.rare_pair_adapters import BROKEN, NEEDS  # noqa: E402


def seeds(text: str) -> list[int]:
    """``1-5`` or ``1,4,9``."""
    if "-" in text:
        low, high = text.split("-", 1)
        return list(range(int(low), int(high) + 1))
    return [int(s) for s in text.split(",")]


def first_sight(name: str, seed: int, cap: float, source: Path) -> dict[str, Any]:
    """One run: when the finding of ``name``'s rule and switch was first seen (or not)."""
    rule, switch = BROKEN[name]
    script = Path("tests", "fakes", "rare_pair_adapters.py")
    # the adapter's own engine is the source's too (the script puts its checkout first)
    adapter = [sys.executable, str(source / script if (source / script).is_file()
                                   else ROOT / script), name]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(source), str(ROOT))))
    with tempfile.TemporaryDirectory() as out:
        proc = subprocess.run(
            [sys.executable, "-m", "rules_ref", "conform", "--json", "--first", "--seed",
             str(seed), "--max-seconds", str(cap), "--shrink-seconds", "0.1", "--timeout",
             "60", "--out", out, "--", *adapter],
            capture_output=True, text=True, env=env, cwd=str(source), check=False)
    try:
        summary = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"seed": seed, "error": (proc.stderr or proc.stdout)[-300:]}
    found = [c for c in summary.get("classes", []) if c.get("rule") == rule
             and c.get("switch") == switch]
    others = [c["key"] for c in summary.get("classes", []) if c not in found]
    row: dict[str, Any] = {"seed": seed, "games_played": summary.get("games"),
                           "seconds_played": summary.get("seconds"), "others": others}
    if found:
        seen = found[0]["first_seen"]
        row.update(seconds=seen["seconds"], game=seen["game"])
    return row


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - no load average on this system
        return "n/a"


def summarise(rows: list[dict[str, Any]], cap: float) -> dict[str, Any]:
    times = [r.get("seconds", cap) for r in rows if "error" not in r]
    games = [r["game"] for r in rows if "game" in r]
    missed = sum(1 for r in rows if "seconds" not in r)
    return {
        "median_seconds": statistics.median(times) if times else None,
        "lower_bound": missed * 2 >= len(rows),
        "min_seconds": min(times) if times else None,
        "max_seconds": max(times) if times else None,
        "median_game": statistics.median(games) if games else None,
        "within_default": sum(1 for r in rows if r.get("seconds", cap + 1)
                              <= DEFAULT_MAX_SECONDS),
        "within_cap": len(rows) - missed, "seeds_run": len(rows),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=seeds, default=seeds("1-5"))
    parser.add_argument("--cap", type=float, default=60.0,
                        help="the longest a run searches (seconds; default 60)")
    parser.add_argument("--adapter", action="append", choices=list(BROKEN))
    parser.add_argument("--source", type=Path, default=ROOT,
                        help="the checkout whose kit runs (default: this one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = args.adapter or list(BROKEN)
    report: dict[str, Any] = {"source": str(args.source), "cap": args.cap,
                              "default_budget": DEFAULT_MAX_SECONDS, "seeds": args.seeds,
                              "load_before": load(), "adapters": {}}
    for name in names:
        rows = [first_sight(name, s, args.cap, args.source.resolve()) for s in args.seeds]
        report["adapters"][name] = {"rule": BROKEN[name][0], "switch": BROKEN[name][1],
                                    "needs": NEEDS[name], "runs": rows,
                                    **summarise(rows, args.cap)}
        if not args.json:
            s = report["adapters"][name]
            bound = ">" if s["lower_bound"] else ""
            print(f"{name:26} median {bound}{s['median_seconds']:.1f} s "
                  f"({s['min_seconds']:.1f}-{s['max_seconds']:.1f}), median game "
                  f"{s['median_game']}, within {DEFAULT_MAX_SECONDS:g} s: "
                  f"{s['within_default']}/{s['seeds_run']}, within {args.cap:g} s: "
                  f"{s['within_cap']}/{s['seeds_run']}", flush=True)
    report["load_after"] = load()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"load average before {report['load_before']}, after {report['load_after']}; "
              f"source {args.source}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
