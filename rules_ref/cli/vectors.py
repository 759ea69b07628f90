"""``rules-ref vectors``: regenerate, check or run the conformance vectors.

* ``rules-ref vectors generate [--out DIR]`` writes every vector file from
  the reference (default ``spec/vectors/v1``).
* ``rules-ref vectors check [--dir DIR]`` self-checks them: the schema,
  unique ids, rule and switch-value coverage, agreement with the reference.
* ``rules-ref vectors run [--kinds K …] [--dir DIR] -- COMMAND …`` replays the
  protocol kinds through an adapter: one line per vector and a total line;
  exit 0 when all pass, 1 when any fails, 2 on an adapter fault or bad usage.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..errors import InputError
from .common import positive_seconds


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    sub.required = True
    gen = sub.add_parser("generate", help="write the vector files from the reference",
                         description="Write every vector file from the reference engine.")
    gen.add_argument("--out", default=None, metavar="DIR",
                     help="output directory (default: spec/vectors/v1)")
    chk = sub.add_parser("check", help="self-check the vector files",
                         description="Check the vector files: schema (needs jsonschema), "
                         "unique ids, coverage of every rule and switch value, and agreement "
                         "with the reference.")
    chk.add_argument("--dir", default=None, metavar="DIR",
                     help="vectors directory (default: spec/vectors/v1)")
    run = sub.add_parser("run", help="replay the vectors through an adapter",
                         description="Replay the protocol vectors through an adapter "
                         "(spec/protocol.md) given after --.")
    run.add_argument("--kinds", nargs="+", default=None, metavar="KIND",
                     help="only these kinds (comma or space separated)")
    run.add_argument("--dir", default=None, metavar="DIR",
                     help="vectors directory (default: spec/vectors/v1)")
    run.add_argument("--timeout", type=positive_seconds, default=10.0,
                     help="seconds to wait for each answer (default 10)")
    run.add_argument("--quiet", action="store_true", help="print failures and the total only")
    run.add_argument("adapter", nargs=argparse.REMAINDER, metavar="-- COMMAND",
                     help="the adapter command and its arguments")


def run(args: argparse.Namespace) -> int:
    from ..conformance import vectors

    if args.action == "generate":
        out = Path(args.out) if args.out is not None else vectors.default_dir()
        written = vectors.generate(out)
        print(f"wrote {len(written)} vector files to {out}")
        return 0
    directory = Path(args.dir) if args.dir is not None else vectors.default_dir()
    if args.action == "check":
        report = vectors.check_dir(directory)
        for note in report.notes:
            print(f"note: {note}", file=sys.stderr)
        for problem in report.problems:
            print(problem)
        if report.problems:
            print(f"{len(report.problems)} problem(s) in {report.files} files, "
                  f"{report.cases} vectors")
            return 1
        print(f"ok: {report.files} files, {report.cases} vectors")
        return 0
    return _run(args, directory)


def _run(args: argparse.Namespace, directory: Path) -> int:
    from ..conformance import vectors
    from ..conformance.process import AdapterFault, AdapterProcess, parse_supports
    from ..conformance.vector_runner import FAIL, Outcome, run_all, totals_line

    command = list(args.adapter)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise InputError("no adapter command: put it after --, e.g. "
                         "rules-ref vectors run -- python -m rules_ref.conformance.adapter")
    kinds = list(vectors.PROTOCOL_KINDS)
    if args.kinds:
        wanted = [k for item in args.kinds for k in item.split(",") if k]
        unknown = [k for k in wanted if k not in vectors.KINDS]
        if unknown:
            raise InputError(f"unknown kind(s) {', '.join(unknown)[:200]}; protocol kinds: "
                             f"{', '.join(vectors.PROTOCOL_KINDS)}")
        not_protocol = [k for k in wanted if k in vectors.UNIT_KINDS]
        if not_protocol:
            raise InputError(f"{', '.join(not_protocol)}: not a protocol kind (for an "
                             "implementation's own unit tests; see spec/vectors/README.md)")
        kinds = wanted
    files = vectors.load_dir(directory)
    vectors.require_valid(files, kinds)
    cases = [c for _, c in vectors.iter_cases(files, kinds)]

    def report(o: Outcome) -> None:
        outcomes.append(o)
        if not args.quiet or o.status == FAIL:
            print(o.line(), flush=True)

    outcomes: list[Outcome] = []
    adapter = None
    try:
        adapter = AdapterProcess(command, timeout=args.timeout)
        try:
            supports = parse_supports(adapter.hello())
        except AdapterFault as fault:
            raise adapter.fault(fault.kind, fault.detail) from None
        run_all(adapter, cases, {"players": list(supports.players),
                                 "switches": supports.switches}, report)
    except AdapterFault as exc:
        print(totals_line(outcomes))
        during = f" during vector {exc.case_id}" if exc.case_id else ""
        print(f"rules-ref vectors: {exc}{during}\n  command: {shlex.join(command)}\n"
              f"{exc.evidence()}", file=sys.stderr)
        return 2
    finally:
        if adapter is not None:
            adapter.close()
    print(totals_line(outcomes))
    return 1 if any(o.status == FAIL for o in outcomes) else 0
