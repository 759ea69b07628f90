#!/usr/bin/env python3
"""``make peers``: the kit run on each public engine supplied, and the implementations report.

For each engine of peers/ whose checkout is supplied (``PEERS_ALLANH``, ``PEERS_CRCOWAN``, or
``--allanh DIR`` / ``--crcowan DIR``), the conformance vectors and ``rules-ref conform`` run
twice: under the project's default declaration (the adapter declares no switch, as a naive
implementer's would) and under the engine's preset, with its committed expectations file and
``--strict``. The report goes to docs/reports/implementations.json and .md (report.py).

Exit status: 0 every engine supplied behaves as its preset and expectations say; 1 a run
found something they do not (an unexplained difference, an unexpected class, an expectation
not seen, a vector case failing under the preset that known.toml's ``[vectors]`` does not
list, or one it lists passing, a switch value of the preset the default run did not show),
or failed; 4 no engine was supplied (nothing was tested, never a pass). An engine not
supplied is reported as skipped, with the reason and how to supply it.
``--write-expect`` writes each engine's expect.json from its known.toml and exits.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from peers import report  # noqa: E402
from peers.harness.checkout import CheckoutError, Pin, read_files  # noqa: E402
from peers.known import ENGINES, expect_path, expect_text  # noqa: E402

#: The runs' fixed seeds and numbers of games: the same games, the same classes and the same
#: examples on every machine, so the committed report changes only when an engine or the kit
#: does. The seconds are guards far beyond what the games and the shrinking take (a run they
#: cut short says so), never the budget.
SEED = 11
GUARDS = ["--max-seconds", "1800", "--shrink-seconds", "900"]
CONFORM = {
    "default": ["--seed", str(SEED), "--examples", "150", *GUARDS],
    "preset": ["--seed", str(SEED), "--examples", "300", *GUARDS],
}


def pin(engine: str) -> Pin:
    if engine == "allanh":
        from peers.allanh.engine import PIN
    else:
        from peers.crcowan.build import PIN
    return PIN


def rules_ref() -> list[str]:
    here = ROOT / ".venv" / "bin" / "rules-ref"
    return [str(here)] if here.exists() else [sys.executable, "-m", "rules_ref"]


def adapter(engine: str, declare: str) -> list[str]:
    return [sys.executable, "peers/adapter.py", engine, "--declare", declare]


def run_json(args: list[str], engine: str, declare: str, env: dict[str, str]) -> dict[str, Any]:
    """A ``--json`` run of rules-ref on one harness; its summary, exit status and command.

    ``command`` is the run as a user types it (``rules-ref ARGS -- python3 peers/adapter.py
    ENGINE --declare D``), without this machine's paths or scratch folders.
    """
    argv = [*rules_ref(), *args, "--", *adapter(engine, declare)]
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    try:
        summary: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        summary = {"verdict": "fault", "stderr": done.stderr[-2000:]}
    summary["exit_status"] = done.returncode
    shown = [a for i, a in enumerate(args) if a != "--out" and (i == 0 or args[i - 1] != "--out")]
    summary["command"] = shlex.join(
        ["rules-ref", *shown, "--", "python3", "peers/adapter.py", engine, "--declare", declare]
    )
    return summary


def check(
    engine: str, source: str | None, replays: Path, scratch: Path
) -> tuple[dict[str, Any], bool]:
    """One engine's four runs and its part of the report; whether it is as expected.

    The preset run's replay files go to ``replays`` (kept with the report, which names them);
    the default run's, which the report does not draw, to ``scratch``.
    """
    p = pin(engine)
    try:
        read_files(p, source)
    except CheckoutError as exc:
        return {
            "engine": engine,
            "status": "skipped",
            "repository": p.repository,
            "commit": p.commit,
            "reason": str(exc).split(":", 1)[0] if "not supplied" in str(exc) else str(exc),
            "how": p.how_to_supply(),
        }, True
    env = dict(os.environ)
    if source:
        env[p.env] = source
    runs: dict[str, dict[str, Any]] = {}
    for declare in ("default", "preset"):
        runs[f"vectors-{declare}"] = run_json(
            ["vectors", "run", "--json", "--allow-partial"], engine, declare, env
        )
        extra = (
            ["--preset", engine, "--expect", f"peers/{engine}/expect.json", "--strict"]
            if declare == "preset"
            else []
        )
        runs[f"conform-{declare}"] = run_json(
            [
                "conform",
                "--json",
                *CONFORM[declare],
                *extra,
                "--out",
                str((replays if declare == "preset" else scratch) / f"{engine}-{declare}"),
            ],
            engine,
            declare,
            env,
        )
    meta = {
        "repository": p.repository,
        "commit": p.commit,
        "env": p.env,
        "reproduce": [
            f"export {p.env}=DIR  # {p.how_to_supply()}",
            "make peers",
            *(r["command"] for r in runs.values()),
        ],
    }
    part = report.engine_report(engine, runs, meta)
    ok = (
        runs["conform-preset"]["exit_status"] == 0
        and all(f["status"] != "unexplained" for f in part["found"])
        and all(v["status"] in ("bug", "not reachable") for v in part["vectors"])
        and not part["unseen_switches"]
        and all(r.get("exit_status") in (0, 1) for k, r in runs.items() if k.startswith("vectors"))
        and runs["conform-default"].get("verdict") in ("pass", "disagreement")
    )
    part["as_expected"] = ok
    for name, summary in runs.items():
        if summary.get("verdict") == "fault":
            why = (summary.get("stderr") or "").strip().splitlines()[-1:] or ["no output"]
            print(f"peers: {engine}: {name} failed: {why[0]}", file=sys.stderr)
    return part, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="peers/run.py", description=__doc__.splitlines()[0])
    for engine in ENGINES:
        parser.add_argument(f"--{engine}", metavar="DIR", help=f"the {engine} checkout")
    parser.add_argument("--write-expect", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "docs" / "reports"))
    args = parser.parse_args(argv)
    if args.write_expect:
        for engine in ENGINES:
            expect_path(engine).write_text(expect_text(engine), encoding="utf-8")
        return 0
    parts, ok = [], True
    out = Path(args.out)
    replays = out / "implementations"  # the preset runs' replay files, which the report names
    shutil.rmtree(replays, ignore_errors=True)
    replays.mkdir(parents=True)
    for engine in ENGINES:
        with tempfile.TemporaryDirectory(prefix="rules-ref-peers-") as scratch:
            part, good = check(engine, getattr(args, engine), replays, Path(scratch))
        parts.append(part)
        ok &= good
        print(
            f"peers: {engine}: "
            + (
                part["status"]
                if part["status"] == "skipped"
                else ("as its preset and expectations say" if good else "NOT as expected")
            ),
            file=sys.stderr,
        )
    doc = report.document(parts)
    (out / "implementations.json").write_text(report.render_json(doc), encoding="utf-8")
    (out / "implementations.md").write_text(report.render_markdown(doc), encoding="utf-8")
    checked = [p for p in parts if p["status"] == "checked"]
    print(
        f"peers: {len(checked)} engine(s) checked, {len(parts) - len(checked)} skipped; "
        f"report in {out}/implementations.md",
        file=sys.stderr,
    )
    if not checked:
        return 4
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
