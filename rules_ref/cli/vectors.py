"""``rules-ref vectors``: regenerate, check or run the conformance vectors.

* ``rules-ref vectors generate [--out DIR [--version N]] [--population]`` writes
  every vector file from the reference: every frozen directory
  ``spec/vectors/vN``, or version N (default 1) into DIR; ``--population``
  also prints the shares of a population of correct engines.
* ``rules-ref vectors check [--dir DIR]`` self-checks them (default the newest
  directory): the schema, unique ids, rule and switch-value coverage,
  agreement with the reference.
* ``rules-ref vectors run [--kinds K …] [--dir DIR] -- COMMAND …`` replays the
  protocol kinds through an adapter: the verdict, the failures (the basic kinds
  first, each way of failing once, with what the case tests in a player's words),
  the totals and what was not tested, one line per switch (``--verbose``: a line
  per vector and a summary per rule; ``--json``; ``--junit FILE`` also writes
  JUnit XML). The exit statuses are in :data:`RUN_EPILOG`.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..errors import InputError
from ..reports.baseline import compare, vector_failures
from ..reports.meta import meta_line, run_metadata
from ..wording import counted
from ..wording.suggest import did_you_mean
from .common import adapter_command, fault_cause, positive_seconds
from .help import add_examples

#: The exit statuses of ``vectors run``, as its help shows them (spec/vectors/README.md).
RUN_EPILOG = (
    "exit status: 0 every case that applied passed, at least one ran, and every value the "
    "adapter declares that a vector tests was tested; 1 a case failed (a timeout included); "
    "2 an adapter fault, bad vector files or bad usage (no totals are printed); 3 an "
    "internal error of rules-ref; 4 nothing was tested (every case needs a player count or "
    "switch value the adapter does not declare); 5 too little was tested (a declared value "
    "went untested: the cases that test it need what the adapter does not declare; "
    "--allow-partial accepts it).")


#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("vectors run -- ./my-adapter", "replay the conformance vectors through your engine"),
    ("vectors check", "self-check the vector files"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    sub.required = True
    gen = sub.add_parser("generate", help="write the vector files from the reference",
                         description="Write every vector file from the reference engine.")
    gen.add_argument("--out", default=None, metavar="DIR",
                     help="output directory (default: every frozen directory, spec/vectors/vN)")
    gen.add_argument("--version", type=int, default=None, metavar="N",
                     help="with --out: the version to write (default 1; version 2 adds the "
                     "position-start forms)")
    gen.add_argument("--population", action="store_true",
                     help="also print, for a correct engine of each single non-default switch "
                     "value and of random combinations of 3 (declaring that ruleset alone, "
                     "protocol 1 and 2), the share of the suite that applies and its exit "
                     "status (takes a few minutes)")
    chk = sub.add_parser("check", help="self-check the vector files",
                         description="Check the vector files: schema (needs jsonschema), "
                         "unique ids, coverage of every rule and switch value, and agreement "
                         "with the reference.")
    chk.add_argument("--dir", default=None, metavar="DIR",
                     help="vectors directory (default: the newest, spec/vectors/v2)")
    add_examples(gen, (("vectors generate", "write every frozen vector directory again"),
                       ("vectors generate --population", "and print the share of the suite "
                        "each correct engine of one ruleset gets"),
                       ("vectors generate --out DIR --version 2",
                        "write the version 2 vectors to DIR")))
    add_examples(chk, (("vectors check", "check the newest vector directory"),
                       ("vectors check --dir spec/vectors/v1", "check the version 1 vectors")))
    run = sub.add_parser("run", help="replay the vectors through an adapter",
                         description="Replay the protocol vectors through an adapter "
                         "(spec/protocol.md) given after --.", epilog=RUN_EPILOG)
    run.add_argument("--kinds", nargs="+", default=None, metavar="KIND",
                     help="only these kinds (comma or space separated)")
    run.add_argument("--dir", default=None, metavar="DIR",
                     help="vectors directory (default: the newest, spec/vectors/v2; cases that "
                     "start from a position run only when the adapter declares the "
                     "capability position)")
    run.add_argument("--timeout", type=positive_seconds, default=10.0,
                     help="seconds to wait for each answer (default 10); an answer later than "
                     "that is an adapter fault")
    run.add_argument("--case-timeout", type=positive_seconds, default=None, metavar="S",
                     help="time bound of each case (default 60): a case still running after S "
                     "seconds fails as a timeout and the run goes on with a fresh adapter")
    run.add_argument("--allow-partial", action="store_true",
                     help="exit 0 although a declared value went untested (its cases need "
                     "what the adapter does not declare)")
    run.add_argument("--json", action="store_true",
                     help="print the whole report as JSON instead of text")
    run.add_argument("--baseline", default=None, metavar="OLD.json",
                     help="compare with an earlier run's --json report: each failure is new, "
                     "unchanged or fixed, and only a new one fails the run (exit 1)")
    run.add_argument("--junit", default=None, metavar="FILE",
                     help="also write the report as JUnit XML to FILE")
    shown = run.add_mutually_exclusive_group()
    shown.add_argument("--verbose", action="store_true",
                       help="print a line for every case as it runs (passed, failed, skipped), "
                       "the summary per rule, then the closing lines")
    shown.add_argument("--quiet", action="store_true",
                       help="print each failure as it runs, then the closing lines")
    run.add_argument("adapter", nargs=argparse.REMAINDER, metavar="-- COMMAND",
                     help="the adapter command and its arguments")
    add_examples(run, (
        ("vectors run -- ./my-adapter", "every vector your engine's hello allows"),
        ("vectors run --kinds trick,scoring -- ./my-adapter", "only two kinds of vectors"),
        ("vectors run --junit vectors.xml -- ./my-adapter", "also a JUnit report for CI"),
    ))


def run(args: argparse.Namespace) -> int:
    from .. import vectors

    if args.action == "generate":
        if args.out is None:
            if args.version is not None:
                raise InputError("--version goes with --out (without it every frozen "
                                 "directory is written)")
            for version in sorted(vectors.VERSIONS):
                out = vectors.version_dir(version)
                print(f"wrote {len(vectors.generate(out, version))} vector files to {out}")
            _print_matrix(vectors.latest_dir(), args.population)
            return 0
        out = Path(args.out)
        version = 1 if args.version is None else args.version
        if version not in vectors.VERSIONS:
            raise InputError(f"--version {version}: the versions are "
                             f"{', '.join(map(str, sorted(vectors.VERSIONS)))}")
        written = vectors.generate(out, version)
        print(f"wrote {len(written)} vector files to {out}")
        if version >= 2:
            _print_matrix(out, args.population)
        return 0
    directory = Path(args.dir) if args.dir is not None else vectors.latest_dir()
    if args.action == "check":
        report = vectors.check_dir(directory)
        for note in report.notes:
            print(f"note: {note}", file=sys.stderr)
        for problem in report.problems:
            print(problem)
        if report.problems:
            print(f"{counted(len(report.problems), 'problem')} in {report.files} files, "
                  f"{report.cases} vectors")
            return 1
        print(f"ok: {report.files} files, {report.cases} vectors")
        return 0
    return _run(args, directory)


def _run(args: argparse.Namespace, directory: Path) -> int:
    import json

    from .. import vectors
    from ..jsonio.files import write_text_atomic
    from ..vectors import results as report
    from ..vectors import running
    from ..vectors.case_replay import FAIL, CaseResult

    command = adapter_command(list(args.adapter), "vectors run")
    kinds = list(vectors.PROTOCOL_KINDS)
    if args.kinds:
        wanted = [k for item in args.kinds for k in item.split(",") if k]
        unknown = [k for k in wanted if k not in vectors.KINDS]
        if unknown:
            hint = did_you_mean(unknown[0], vectors.PROTOCOL_KINDS) if len(unknown) == 1 else ""
            raise InputError(f"unknown kind(s) {', '.join(unknown)[:200]} (protocol kinds: "
                             f"{', '.join(vectors.PROTOCOL_KINDS)}){hint}")
        not_protocol = [k for k in wanted if k in vectors.UNIT_KINDS]
        if not_protocol:
            raise InputError(f"{', '.join(not_protocol)}: not a protocol kind (for an "
                             "implementation's own unit tests; see spec/vectors/README.md)")
        kinds = wanted
    files = vectors.load_dir(directory)
    vectors.require_valid(files, kinds)
    cases = [(f.kind, c) for f, c in vectors.iter_cases(files, kinds)]
    if args.junit is not None:
        _check_output(args.junit)
    if not cases:
        raise InputError(f"{directory}: holds no cases of the kind(s) {', '.join(kinds)}")

    baseline = _read_baseline(args.baseline) if args.baseline is not None else None
    failures: dict[str, list[str]] = {}

    def show(o: CaseResult) -> None:
        first = report.first_of_its_kind(o, failures)
        streamed = args.verbose or (args.quiet and o.status == FAIL)
        if not args.json and first and streamed:
            print(o.line(), flush=True)

    seconds = args.case_timeout if args.case_timeout is not None else running.CASE_SECONDS
    result = running.run_vectors(command, cases, args.timeout, seconds, show)
    verdict, status = running.verdict(result, args.allow_partial)
    comparison = None
    if baseline is not None and result.fault is None:
        comparison = compare(args.baseline, baseline, [o.case_id for o in result.outcomes
                                                       if o.status == FAIL])
        verdict, status = report.verdict_against(result, comparison, args.allow_partial)
    meta = run_metadata(args.argv, result.adapter, command)
    if args.json:
        versions = {key: files[0].data.get(key) for key in ("contract_version",
                                                            "vectors_version")}
        document = report.json_report(result, verdict, status, command, str(directory),
                                      versions)
        document["meta"] = meta
        if comparison is not None:
            document["baseline"] = comparison.to_json()
        print(json.dumps(document, indent=1))
    if result.fault is not None:
        fault = result.fault
        during = f" during vector {fault.case_id}" if fault.case_id else ""
        cause = fault_cause(fault.kind, fault.detail, fault.stderr)
        print(f"rules-ref vectors: {fault}{during}\n"
              + (f"  {cause}\n" if cause is not None else "")
              + f"  command: {shlex.join(command)}\n{fault.evidence()}", file=sys.stderr)
        return status
    if args.junit is not None:
        write_text_atomic(args.junit, report.junit_xml(result))
    if args.json:
        return status
    against = comparison.lines("failed cases") if comparison is not None else []
    if args.verbose or args.quiet:
        lines = report.rule_lines(result) if args.verbose else []
        print("\n".join([*report.repeat_lines(failures), *lines,
                         *report.closing_lines(result, verdict), *against]))
    else:
        print("\n".join([report.headline(result, verdict),
                         *report.failure_lines(result, comparison),
                         *report.closing_lines(result, verdict), *against,
                         meta_line(meta)]))
    return status


def _print_matrix(directory: Path, population: bool = False) -> None:
    """The distinguishing matrix of the vectors just written, the single-card faults they
    catch, how many of each kind a fault of the rules they cite is proven to fail, and the
    share of them that applies to each public engine and to a population of
    correct engines of one ruleset when ``population`` (spec/vectors/README.md)."""
    from .. import vectors
    from ..vectors.card_faults import card_lines
    from ..vectors.matrix import matrix_lines
    from ..vectors.proof import proof_lines
    from ..vectors.requirements import ANALYSED_KINDS
    from ..vectors.shares import population_lines, public_lines

    pairs = [(f.kind, c) for f, c in vectors.iter_cases(vectors.load_dir(directory),
                                                        ANALYSED_KINDS)]
    cases = [c for _, c in pairs]
    print("\n".join([*matrix_lines(cases), *card_lines(cases), *proof_lines(pairs),
                     *public_lines(pairs)]),
          flush=True)
    if population:
        print("\n".join(population_lines(pairs)))


def _read_baseline(path: str) -> list[str]:
    """The failed cases of the baseline report ``path``, read before the run."""
    from ..jsonio.files import read_json_file

    return vector_failures(read_json_file(path), path)


def _check_output(path: str) -> None:
    """Refuse, before the run, an output file that could not be written after it."""
    from ..jsonio.files import is_dir, shown_path

    target = Path(path)
    if is_dir(target):
        raise InputError(f"{shown_path(path)}: is a directory")
    if not is_dir(target.parent if str(target.parent) else Path(".")):
        raise InputError(f"{shown_path(path)}: directory {shown_path(str(target.parent))} "
                         "does not exist")
