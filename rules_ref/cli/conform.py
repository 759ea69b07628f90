"""``rules-ref conform [options] -- COMMAND…``: differential test of an implementation.

Starts the implementation's adapter (``spec/protocol.md``), checks the
handshake, then plays games that Hypothesis generates against it and the
reference side by side, comparing every observation and offering illegal
actions that must be rejected. The first disagreement is shrunk to a
minimal game, reported with the rule IDs it falls under, and written as a
replay file; ``--replay FILE`` plays that game again.

Exit status: 0 no disagreement, 1 a disagreement, 2 a usage error or an
adapter fault, 3 the implementation reported an internal error (protocol
version 2, answer ``error``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import textwrap
from typing import Any

from ..errors import InputError
from ..ruleset import presets
from . import conform_scale as scale
from .common import (
    bounded_int,
    players_arg,
    positive_int,
    positive_seconds,
    ruleset_from_args,
    seed_arg,
)

EXIT_OK = 0
EXIT_DISAGREEMENT = 1
EXIT_ERROR = 2
#: The implementation under test reported an internal error (an ``error`` answer, protocol
#: version 2); 3 stays the status of a bug in rules-ref itself (spec/limits.md).
EXIT_IMPLEMENTATION_ERROR = 6
#: The run compared no answer at all (as ``vectors run``'s 4): never a pass.
EXIT_NOTHING_TESTED = 4
#: The bounds of --examples and --jobs (spec/limits.md).
MAX_EXAMPLES = 10**9
MAX_JOBS = 64


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.usage = "%(prog)s [options] -- COMMAND..."
    p.epilog = ("COMMAND is the adapter, run as an argument list (no shell), for example: "
                "rules-ref conform -- python -m rules_ref.conformance.adapter. "
                "exit status: 0 every answer agreed; 1 a disagreement (replay file written); "
                "2 an adapter fault or bad usage; 3 an internal error of rules-ref; 4 nothing "
                "was tested (no answer compared); 6 the implementation reported an internal "
                "error (protocol version 2).")
    p.add_argument("--examples", type=bounded_int(1, MAX_EXAMPLES), default=100,
                   help="games to generate (Hypothesis examples; default 100)")
    p.add_argument("--max-seconds", type=positive_seconds, default=60.0,
                   help="time budget of the search (default 60)")
    p.add_argument("--shrink-seconds", type=positive_seconds, default=None,
                   help="time budget of shrinking a disagreement to a minimal game (default: half "
                   "of --max-seconds, at least 10)")
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
    command = list(args.adapter_command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise InputError("no adapter command: give it after --, for example "
                         "rules-ref conform -- python -m rules_ref.conformance.adapter")
    return command


def run(args: argparse.Namespace) -> int:
    from ..conformance.jobs import run_jobs
    from ..conformance.observation import PROTOCOL_VERSIONS
    from ..conformance.outcome import Config, env_seed
    from ..conformance.replay import read_replay, run_replay
    from ..conformance.search import run_search

    if args.merge is not None:
        return scale.run_merge(args)
    command = _command(args)
    explicit = args.preset is not None or args.ruleset is not None or args.target is not None
    config = Config(
        command=command, examples=args.examples, max_seconds=args.max_seconds,
        seed=args.seed if args.seed is not None else env_seed(), players=args.players,
        timeout=args.timeout, jobs=args.jobs, shrink_seconds=args.shrink_seconds,
        ruleset=ruleset_from_args(args) if explicit else None,
        versions=(args.protocol,) if args.protocol else PROTOCOL_VERSIONS)
    config = scale.scale_config(config, args)
    progress = _Progress() if sys.stderr.isatty() and not args.json else None
    if args.replay is not None:
        from .io import read_json_file

        start, actions = read_replay(read_json_file(args.replay), args.replay)
        outcome = run_replay(config, start, actions)
        return _report(outcome, config, args, replay_of=args.replay)
    try:
        outcome = run_jobs(config, progress) if config.jobs > 1 else run_search(config, progress)
    finally:
        if progress is not None:
            progress.clear()
    return _report(outcome, config, args)


def _write_replay(outcome: Any, config: Any, out: str) -> str:
    import re

    from ..conformance.replay import replay_document
    from .io import make_output_dir, write_text_atomic

    directory = make_output_dir(out)
    failure = outcome.failure
    tag = failure.rules[0] if failure.rules else failure.kind
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", tag) or tag.startswith("."):
        tag = "failure"  # the file name never comes from what the adapter wrote
    path = directory / f"replay-{config.seed}-{tag}.json"
    document = replay_document(failure, config, outcome.supports)
    write_text_atomic(str(path), json.dumps(document, indent=1) + "\n")
    return str(path)


def _report(outcome: Any, config: Any, args: argparse.Namespace,
            replay_of: str | None = None) -> int:
    from ..conformance import report
    from ..conformance.process import AdapterFault

    failure = outcome.failure
    fault = outcome.fault
    replay_path: str | None = None
    if failure is not None and replay_of is None and failure.start:
        replay_path = _write_replay(outcome, config, args.out)
    if failure is not None:
        verdict = failure.kind
        code = {"fault": EXIT_ERROR, "error": EXIT_IMPLEMENTATION_ERROR}.get(failure.kind,
                                                                       EXIT_DISAGREEMENT)
    elif fault is not None:
        verdict, code = "fault", EXIT_ERROR
    elif outcome.stats.actions == 0:
        verdict, code = "nothing-tested", EXIT_NOTHING_TESTED
    else:
        verdict, code = "pass", EXIT_OK
    command = shlex.join(config.command)
    reproduce = None
    if replay_path is not None or replay_of is not None:
        reproduce = f"rules-ref conform --replay {shlex.quote(replay_path or replay_of or '')} " \
                    f"-- {command}"
    if args.json or args.report:
        summary = report.summary_dict(outcome, config, verdict, replay_path)
        if reproduce and failure is not None:
            summary["reproduce"] = reproduce
        if replay_of is not None:
            summary["replay_of"] = replay_of
        scale.write_run_report(args, scale.scale_summary(summary, config, args))
    if args.json:
        print(json.dumps(summary, indent=1))
        return code
    lines: list[str] = []
    if failure is not None:
        lines.extend(report.format_failure(failure))
        if failure.kind == "fault" and failure.fault:
            f = failure.fault
            ev = AdapterFault(f["kind"], f["message"], f.get("stdout", []), f.get("stderr", ""),
                              f.get("exit_status"))
            lines.extend("  " + line for line in ev.evidence(lines=3).splitlines())
        if replay_path is not None:
            lines.append(f"  replay file: {replay_path}")
        if reproduce:
            lines.append(f"  reproduce: {reproduce}")
    elif fault is not None:
        print(f"rules-ref conform: adapter fault ({fault.kind}): {fault.detail}", file=sys.stderr)
        print(f"  command: {command}", file=sys.stderr)
        for line in fault.evidence().splitlines():
            print(f"  {line}", file=sys.stderr)
        return code
    s = outcome.stats
    seconds = outcome.seconds
    if replay_of is not None:
        what = f"replay of {replay_of}: {s.actions} answers compared"
        if failure is None:
            what += "; the implementation agrees with the reference on every step"
        lines.append(what)
    else:
        adapter = outcome.supports.name if outcome.supports else "?"
        players = (str(config.players) if config.players else
                   ",".join(map(str, outcome.supports.players)) if outcome.supports else "?")
        ruleset = config.ruleset.describe() if config.ruleset else "drawn within the adapter's"\
            " supports"
        lines.append(f"conform: {adapter!r}: {s.games} games, {s.deals} deals, {s.actions} "
                     f"actions compared, {s.illegal} illegal actions offered in {seconds:.1f} s "
                     f"({report.rate(s.deals, seconds):.1f} deals/s, "
                     f"{report.rate(s.actions, seconds):.0f} actions/s)")
        lines.append(f"  players {players}; ruleset {ruleset}; seed {config.seed}"
                     + (f"; {config.jobs} jobs" if config.jobs > 1 else "")
                     + (f"; {s.restarts} adapter restart(s)" if s.restarts else ""))
        if s.rare:
            seen = ", ".join(f"{name} {s.rare[name]}" for name in report.RARE_PATHS if s.rare[name])
            unseen = [name for name in report.RARE_PATHS if not s.rare[name]]
            lines.append(textwrap.fill(
                f"rare situations played: {seen}" + (f"; not played: {', '.join(unseen)}"
                                                      if unseen else ""),
                100, initial_indent="  ", subsequent_indent="    "))
        if outcome.stopped == "time":
            lines.append(f"  the time budget ({config.max_seconds:g} s) ended the search after "
                         f"{outcome.examples_run} of {config.examples} games")
    if s.citations:
        lines.append(f"  {s.citations} correct rejection(s) cited another rule than the "
                     "reference (not a failure):")
        lines.extend(f"    {note}" for note in outcome.notes)
    if code == EXIT_NOTHING_TESTED:
        lines.append("nothing was tested: no answer of the implementation was compared"
                     + (f" (the time budget of {config.max_seconds:g} s ended the search before "
                        "its first game)" if outcome.stopped == "time" else ""))
    lines.extend(scale.scale_lines(args))
    lines.append(f"verdict: {verdict.upper()}")
    out = sys.stdout if code != EXIT_ERROR else sys.stderr
    print("\n".join(lines), file=out)
    return code
