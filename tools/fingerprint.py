"""The kit's fingerprint: 34 ``rules-ref conform`` runs, each summarised without its times.

The runs are the reference adapter (protocol 1 and 2, 6 and 8 players), every fake of
``tests/fakes/broken_adapters.py`` (three of them again under protocol 1, without
batches), every rare-pair fake and the three-fault fake, each with a fixed seed and a fixed
number of games. A run's ``--json`` result is kept whole but for what depends on the
machine (its seconds and rates) or the checkout (replay paths, commands). The same code
gives the same file, so a change meant to leave the search alone (a new layout, a faster
state) must leave it identical; a change of words or of classes shows, run by run.

usage::

    python tools/fingerprint.py OUT.json              # write the fingerprint
    python tools/fingerprint.py OUT.json --against OLD.json   # and compare: exit 1 if it differs
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FAKES = ROOT / "tests" / "fakes"
SEED = "7"
#: What a run's result holds that depends on the machine, the checkout or the clock, not on
#: the search (``meta``: the versions, the date and the command line of the run).
MACHINE = frozenset(("seconds", "deals_per_second", "actions_per_second", "replay", "reproduce",
                     "rerun", "adapter_command", "meta"))
BROKEN = ("cancel-ignored", "void-discarded", "void-leader-highest", "extras-lost",
          "queen-no-break", "opening-hearts", "lead-hearts-unbroken", "no-follow-suit",
          "pass-always-left", "moon-swapped", "game-end-strict", "single-winner",
          "last-void-to-leader", "pending-kept", "led-suit-first-live", "led-cancelled-void",
          "winner-left-leads", "dealer-leads", "queen-ten")
#: The broken fakes run again under protocol 1: one answer at a time, no batches.
UNBATCHED = ("cancel-ignored", "void-leader-highest", "pass-always-left")
RARE = ("split-points-to-earlier", "leader-leaves-extras", "lone-moon-unseen",
        "opening-lead-breaks", "extras-to-earlier", "pair-moon-as-lone", "forced-queen-breaks")

Run = tuple[str, list[str], list[str]]


def runs(python: str) -> list[Run]:
    """Every run of the fingerprint: (name, conform options, adapter command)."""
    found: list[Run] = []
    reference = [python, "-m", "rules_ref", "adapter"]
    for protocol in ("1", "2"):
        for players in ("6", "8"):
            found.append((f"reference p{protocol} {players}p",
                          ["--protocol", protocol, "--players", players, "--examples", "25"],
                          reference))
    broken = [python, str(FAKES / "broken_adapters.py")]
    found += [(f"broken {name}", ["--examples", "30"], [*broken, name]) for name in BROKEN]
    found += [(f"broken {name} p1", ["--protocol", "1", "--examples", "30"], [*broken, name])
              for name in UNBATCHED]
    rare = [python, str(FAKES / "rare_pair_adapters.py")]
    found += [(f"rare {name}", ["--examples", "60"], [*rare, name]) for name in RARE]
    found.append(("multi pass-lead-suit", ["--examples", "30"],
                  [python, str(FAKES / "multi_fault_adapters.py"), "pass-lead-suit"]))
    return found


def scrubbed(value: Any) -> Any:
    """``value`` without what depends on the machine or the checkout."""
    if isinstance(value, dict):
        return {k: scrubbed(v) for k, v in value.items() if k not in MACHINE}
    if isinstance(value, list):
        return [scrubbed(v) for v in value]
    if isinstance(value, str):
        return value.replace(str(ROOT), "ROOT")
    return value


def one(python: str, run: Run, out: Path) -> tuple[str, dict[str, Any]]:
    """A run's exit status and its result, scrubbed (or what it printed, if not JSON)."""
    name, options, command = run
    done = subprocess.run(
        [python, "-m", "rules_ref", "conform", "--seed", SEED, "--json", "--max-seconds", "600",
         "--out", str(out / name.replace(" ", "-")), *options, "--", *command],
        capture_output=True, text=True, cwd=ROOT, check=False)
    try:
        summary = scrubbed(json.loads(done.stdout))
    except ValueError:
        summary = {"stdout": done.stdout[-2000:], "stderr": done.stderr[-2000:]}
    return name, {"status": done.returncode, "summary": summary}


def line(name: str, result: dict[str, Any]) -> str:
    """One run in a line: its status, verdict, games and the rules of its classes."""
    summary = result["summary"]
    rules = [c.get("rule") for c in summary.get("classes") or []]
    return (f"{name:34} {result['status']} {summary.get('verdict')} "
            f"{summary.get('games')} {rules}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="where to write the fingerprint (JSON)")
    parser.add_argument("--against", help="a fingerprint to compare with: exit 1 if it differs")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    args = parser.parse_args(argv)
    with TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
        results = dict(pool.map(lambda run: one(sys.executable, run, Path(tmp)),
                                runs(sys.executable)))
    Path(args.out).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n",
                              encoding="utf-8")
    for name, result in results.items():
        print(line(name, result))
    if args.against is None:
        return 0
    old = json.loads(Path(args.against).read_text(encoding="utf-8"))
    differing = sorted(n for n in set(old) | set(results) if old.get(n) != results.get(n))
    print(f"{len(results) - len(differing)} of {len(results)} runs identical to {args.against}"
          + (f"; differing: {', '.join(differing)}" if differing else ""))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
