"""``rules-ref conform [options] -- COMMAND…``: differential test of an implementation.

Starts the implementation's adapter (``spec/protocol.md``), checks the
handshake, then plays games drawn from the run's seed against it and the
reference side by side until the time budget (or ``--examples`` games),
comparing every observation and offering illegal actions that must be
rejected. Every divergence is recorded and the game goes on; at the end
each divergence class (the rule and what differs) is reported with its
count and a shrunk minimal example written as a replay file
(``--replay FILE`` plays it again). ``--expect FILE`` declares the
divergences the implementer knows of; ``--write-expect FILE`` writes one
from the classes seen.

Exit status: 0 no unexpected divergence, 1 an unexpected divergence (or,
with ``--strict``, an expectation not seen), 2 a usage error or an adapter
fault, 4 nothing tested, 6 the implementation reported an internal error
(protocol version 2, answer ``error``); 3 stays a bug of rules-ref.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from ..conform.budget import DEFAULT_MAX_SECONDS, SHRINK_SECONDS_MIN
from ..errors import InputError
from ..ruleset import presets
from . import conform_scale as scale
from .common import (
    adapter_command,
    bounded_int,
    fault_cause,
    players_arg,
    positive_int,
    positive_seconds,
    ruleset_from_args,
    seed_arg,
)

#: The bounds of --examples and --jobs (spec/limits.md).
MAX_EXAMPLES = 10**9
MAX_JOBS = 64


#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("conform -- ./my-adapter", "search for differences between your engine and the "
     "reference"),
    ("conform --preset wikipedia --players 7 -- ./my-adapter", "only one ruleset and one "
     "player count"),
    ("conform --replay conform-failures/FILE.json -- ./my-adapter", "play the game of a "
     "replay file again"),
    ("conform --shard 2/4 --seed 7 --json -- ./my-adapter", "one shard of a run spread "
     "over four machines"),
    ("conform --merge s1.json s2.json s3.json s4.json --report report.html",
     "the shards as one run, and a report to share"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.usage = "%(prog)s [options] -- COMMAND..."
    p.epilog = ("COMMAND is the adapter, run as an argument list (no shell), for example: "
                "rules-ref conform -- rules-ref adapter. "
                "exit status: 0 no unexpected divergence; 1 an unexpected divergence (a "
                "replay file for each class), or with --strict an expectation not seen; 2 an "
                "adapter fault or bad usage; 3 an internal error of rules-ref; 4 nothing "
                "was tested (no answer compared); 6 the implementation reported an internal "
                "error (protocol version 2).")
    p.add_argument("--examples", type=bounded_int(1, MAX_EXAMPLES), default=None,
                   help="play this many games, within --max-seconds "
                   "(default: as many as --max-seconds allows)")
    p.add_argument("--max-seconds", type=positive_seconds, default=DEFAULT_MAX_SECONDS,
                   help="time budget of the search: it plays games until then (default "
                   f"{DEFAULT_MAX_SECONDS:g})")
    p.add_argument("--shrink-seconds", type=positive_seconds, default=None,
                   help="time budget of shrinking the divergence classes to minimal games, "
                   "shared between them in turn (default: half of --max-seconds, at least "
                   f"{SHRINK_SECONDS_MIN:g}; every class gets its first check)")
    p.add_argument("--first", action="store_true",
                   help="end the search after the game of the first unexpected divergence "
                   "(a quick check while fixing one fault; the run says it stopped early)")
    p.add_argument("--expect", default=None, metavar="FILE",
                   help="declared deviations (JSON, spec/schemas/expect.schema.json): the "
                   "divergences they cover do not fail the run")
    p.add_argument("--strict", action="store_true",
                   help="with --expect: an expected divergence that never showed fails the run")
    p.add_argument("--baseline", default=None, metavar="OLD.json",
                   help="compare with an earlier run's --json summary: each class is new, "
                   "unchanged or fixed, and only a new one fails the run (the same --seed and "
                   "--examples play the same games)")
    p.add_argument("--write-expect", default=None, metavar="FILE",
                   help="write an expectations file covering the classes seen (a starting "
                   "point for --expect)")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="the run's seed (default: a fresh one, printed in the summary)")
    p.add_argument("--players", type=players_arg, default=None,
                   help="play only this player count (default: every count the adapter supports)")
    p.add_argument("--timeout", type=positive_seconds, default=10.0,
                   help="seconds to wait for each answer (default 10)")
    p.add_argument("--jobs", type=bounded_int(1, MAX_JOBS), default=1,
                   help="spread the search over N processes, each with its own adapter")
    p.add_argument("--protocol", type=int, choices=(1, 2), default=None,
                   help="offer only this protocol version in the hello (default: 1 and 2)")
    p.add_argument("--json", action="store_true", help="print a machine-readable summary")
    p.add_argument("--verbose", action="store_true",
                   help="also print what the run exercised: the rare situations played, the "
                   "conditions of each rule, the illegal actions offered by kind (the JSON "
                   "summary and --report always hold them)")
    p.add_argument("--out", default="conform-failures", metavar="DIR",
                   help="directory for replay files (default conform-failures/)")
    p.add_argument("--replay", default=None, metavar="FILE",
                   help="play the game of a replay file again instead of searching")
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="play only this named ruleset: " + ", ".join(presets())
                   + " (default: rulesets drawn within what the adapter supports)")
    p.add_argument("--ruleset", default=None, metavar="FILE",
                   help="play only the ruleset of this JSON file of switch values")
    p.add_argument("--target", type=positive_int, default=None,
                   help="play with this game-end target (switch `target`); alone: the default "
                   "ruleset with this target")
    p.add_argument("adapter_command", nargs=argparse.REMAINDER, metavar="-- COMMAND",
                   help="the adapter command and its arguments, after --")
    scale.add_scale_options(p)


class _Progress:
    """A single updating line on standard error (only on a terminal)."""

    def __init__(self) -> None:
        self.shown = False

    def __call__(self, stats: Any, seconds: float) -> None:
        per = stats.deals / seconds if seconds > 0 else 0.0
        line = (f"conform: {stats.games} games, {stats.deals} deals, {stats.actions} actions "
                f"compared, {stats.illegal} illegal offered, {per:.0f} deals/s, {seconds:.0f} s")
        sys.stderr.write("\r" + line[:150].ljust(100))
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()
            self.shown = False


def _command(args: argparse.Namespace) -> list[str]:
    return adapter_command(list(args.adapter_command), "conform")


def run(args: argparse.Namespace) -> int:
    from ..conform.jobs import run_jobs
    from ..conform.outcome import Config, env_seed
    from ..conform.rerun import run_replay
    from ..conform.runner import run_search
    from ..findings.replay import read_replay
    from ..protocol.observation import PROTOCOL_VERSIONS

    if args.merge is not None:
        return scale.run_merge(args)
    command = _command(args)
    explicit = args.preset is not None or args.ruleset is not None or args.target is not None
    expect: tuple[Any, ...] = ()
    if args.expect is not None:
        from ..findings.expect import read_expectations
        from ..jsonio.files import read_json_file

        expect = read_expectations(read_json_file(args.expect), args.expect)
    elif args.strict:
        raise InputError("--strict needs --expect FILE")
    baseline = None
    if args.baseline is not None:
        from ..jsonio.files import read_json_file
        from ..reports.baseline import conform_failures

        baseline = conform_failures(read_json_file(args.baseline), args.baseline)
    config = Config(
        command=command, examples=args.examples, max_seconds=args.max_seconds,
        seed=args.seed if args.seed is not None else env_seed(), players=args.players,
        timeout=args.timeout, jobs=args.jobs, shrink_seconds=args.shrink_seconds,
        ruleset=ruleset_from_args(args) if explicit else None,
        versions=(args.protocol,) if args.protocol else PROTOCOL_VERSIONS,
        expect=expect, strict=args.strict, first=args.first)
    config = scale.scale_config(config, args)
    progress = _Progress() if sys.stderr.isatty() and not args.json else None
    if args.replay is not None:
        from ..jsonio.files import read_json_file

        start, actions = read_replay(read_json_file(args.replay), args.replay)
        outcome = run_replay(config, start, actions)
        return _report(outcome, config, args, baseline, replay_of=args.replay)
    try:
        outcome = run_jobs(config, progress) if config.jobs > 1 else run_search(config, progress)
    finally:
        if progress is not None:
            progress.clear()
    return _report(outcome, config, args, baseline)


def _slug(cls: Any) -> str:
    """A file-name part from a class's rule (``PASS.CARDS`` -> ``pass-cards``) or kind."""
    import re

    tag: str = (cls.rule or cls.kind).lower().replace(".", "-").replace("_", "-")
    if not re.fullmatch(r"[a-z][a-z-]{0,39}", tag):
        tag = "failure"  # the file name never comes from what the adapter wrote
    return tag


def _write_replays(outcome: Any, config: Any, out: str) -> None:
    """One replay file for the example of every class: ``replay-SEED-RULE[-N].json``."""
    from ..conform.rerun import replay_document
    from ..jsonio.files import make_output_dir, write_text_atomic

    classes = outcome.findings.ordered() if outcome.findings is not None else []
    written = [c for c in classes if (c.example or c.first).start]
    if not written:
        return
    directory = make_output_dir(out)
    used: dict[str, int] = {}
    for cls in written:
        slug = _slug(cls)
        used[slug] = used.get(slug, 0) + 1
        name = f"replay-{config.seed}-{slug}" + (f"-{used[slug]}" if used[slug] > 1 else "")
        path = directory / f"{name}.json"
        document = replay_document(cls.example or cls.first, config, outcome.supports)
        write_text_atomic(str(path), json.dumps(document, indent=1) + "\n")
        cls.replay = str(path)


def _write_expect(outcome: Any, path: str) -> None:
    """An expectations file of narrow entries: one a facet of every finding (rule, what
    differs, facet), so that each covers that behaviour and nothing else."""
    from ..findings.expect import Expectation, expect_document
    from ..jsonio.files import write_text_atomic

    entries: list[Expectation] = []
    for cls in outcome.findings.ordered() if outcome.findings is not None else []:
        if cls.rule is None or cls.kind != "disagreement":
            continue  # faults and internal errors cannot be expected
        for facet in cls.facets.values():
            entry = Expectation(cls.rule, differs=cls.what, facet=facet.words)
            if entry not in entries:
                entries.append(entry)
    write_text_atomic(path, json.dumps(expect_document(entries), indent=1,
                                       ensure_ascii=False) + "\n")


def _report(outcome: Any, config: Any, args: argparse.Namespace,
            baseline: list[str] | None, replay_of: str | None = None) -> int:
    from ..reports.baseline import against_baseline, compare
    from ..reports.meta import meta_line, run_metadata
    from ..reports.result import EXIT, run_result
    from ..reports.run_text import run_text, shown_failures

    if replay_of is None:
        _write_replays(outcome, config, args.out)
        if args.write_expect is not None:
            _write_expect(outcome, args.write_expect)
    result = scale.scale_result(run_result(outcome, config, replay_of), config, args)
    comparison = None
    if baseline is not None:
        comparison = compare(args.baseline, baseline, [str(c["key"]) for c in result.classes
                                                       if not c.get("expected")])
        result = against_baseline(result, comparison)
    meta = run_metadata(args.argv, result.summary.get("adapter"), config.command, config.seed,
                        {"max_seconds": config.max_seconds, "examples": config.examples})
    result = result.with_keys({"meta": meta})
    scale.write_run_report(args, result)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return result.exit_status
    fault = outcome.fault
    if fault is not None and not shown_failures(outcome):
        command = shlex.join(config.command)
        print(f"rules-ref conform: adapter fault ({fault.kind}): {fault.detail}", file=sys.stderr)
        cause = fault_cause(fault.kind, fault.detail, fault.stderr)
        if cause is not None:
            print(f"  {cause}", file=sys.stderr)
        print(f"  command: {command}", file=sys.stderr)
        for line in fault.evidence().splitlines():
            print(f"  {line}", file=sys.stderr)
        return result.exit_status
    more = scale.scale_lines(args) + (comparison.lines("classes") if comparison else [])
    lines = run_text(result, outcome, config, replay_of, [*more, meta_line(meta)],
                     verbose=args.verbose)
    out = sys.stdout if result.exit_status != EXIT["fault"] else sys.stderr
    print("\n".join(lines), file=out)
    return result.exit_status
