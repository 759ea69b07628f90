"""``rules-ref conform``'s options for spreading a run and sharing it: --shard, --merge, --report.

``--shard K/N`` plays one shard of a run (:mod:`rules_ref.conform.shard`);
``--merge A.json B.json …`` merges the JSON summaries of shards or runs into
one result (:mod:`rules_ref.reports.merge`) and reports it as a run would, with
the exit status a single run with that result would have; ``--report FILE``
writes the run (or the merged runs) as a Markdown or HTML file
(:mod:`.conform_report`). ``conform.py`` calls :func:`add_scale_options`,
:func:`scale_config`, :func:`run_merge`, :func:`scale_result`,
:func:`scale_lines` and :func:`write_run_report`; everything else about
the options lives here.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from ..errors import InputError
from ..reports.result import EXIT, ConformResult


def _shard_arg(text: str) -> Any:
    from ..conform.shard import parse_shard

    try:
        return parse_shard(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--shard ")) from None


def _report_arg(text: str) -> str:
    if not text.lower().endswith((".md", ".html")):
        raise argparse.ArgumentTypeError(f"{text[:60]!r}: the report file's name must end in "
                                         ".md (Markdown) or .html (HTML)")
    return text


def add_scale_options(p: argparse.ArgumentParser) -> None:
    """The options --shard, --merge and --report (``rules-ref conform``)."""
    p.add_argument("--shard", type=_shard_arg, default=None, metavar="K/N",
                   help="play shard K of N of the run (same --seed on every machine); merge "
                   "the shards' --json summaries with --merge")
    p.add_argument("--merge", nargs="+", default=None, metavar="SUMMARY",
                   help="merge JSON summaries (written with --json) of shards or runs into one "
                   "report, with the exit status one run with that result would have; no "
                   "adapter is run")
    p.add_argument("--report", type=_report_arg, default=None, metavar="FILE",
                   help="also write the run as a report to read and share: FILE.md (Markdown) "
                   "or FILE.html (HTML, self-contained)")


def scale_config(config: Any, args: argparse.Namespace) -> Any:
    """The configuration of this shard of the run (the run's own without --shard)."""
    from ..conform.shard import shard_config

    if args.shard is not None and args.replay is not None:
        raise InputError("--shard splits a search; --replay plays one game again: give one")
    if args.shard is not None and args.shard.count > 1 and args.seed is None:
        raise InputError(f"--shard {args.shard} needs --seed, the same on every machine, so "
                         "that the shards split one run")
    args.run_seed = config.seed
    args.run_examples = config.examples
    return shard_config(config, args.shard)


def rerun_command(args: argparse.Namespace, command: list[str]) -> str:
    """The command line that plays this run (this shard of it) again."""
    parts = ["rules-ref", "conform", "--seed", str(getattr(args, "run_seed", args.seed))]
    if args.shard is not None:
        parts += ["--shard", str(args.shard)]
    for option, name in (("--players", "players"), ("--preset", "preset"),
                         ("--ruleset", "ruleset"), ("--target", "target"),
                         ("--protocol", "protocol"), ("--expect", "expect")):
        value = getattr(args, name, None)
        if value is not None:
            parts += [option, str(value)]
    if getattr(args, "strict", False):
        parts.append("--strict")
    from ..conform.budget import DEFAULT_MAX_SECONDS

    examples = getattr(args, "run_examples", args.examples)
    if examples is not None:
        parts += ["--examples", str(examples)]
    if args.max_seconds != DEFAULT_MAX_SECONDS:
        parts += ["--max-seconds", f"{args.max_seconds:g}"]
    if args.jobs != 1:
        parts += ["--jobs", str(args.jobs)]
    return shlex.join(parts) + " -- " + shlex.join(command)


def scale_result(result: ConformResult, config: Any, args: argparse.Namespace
                 ) -> ConformResult:
    """``result`` with what merging and the report need: shard, run seed, rules version."""
    from ..reports.merge import rules_version

    keys: dict[str, Any] = {}
    if args.shard is not None:
        keys["seed"] = args.run_seed
        keys["shard"] = str(args.shard)
        keys["shard_seed"] = config.seed
    elif "shard" not in result.summary:
        keys["shard"] = None
    keys["rules_version"] = rules_version()
    keys["adapter_command"] = list(config.command)
    if args.replay is None:
        keys["rerun"] = rerun_command(args, list(config.command))
    if getattr(args, "strict", False):
        keys["strict"] = True
    return result.with_keys(keys)


def scale_lines(args: argparse.Namespace) -> list[str]:
    """The text summary's line about the shard, if the run is one."""
    if getattr(args, "shard", None) is None or args.replay is not None:
        return []
    return [f"  shard {args.shard} of the run with seed {args.run_seed} (the seed above is "
            "this shard's own); merge the shards' --json summaries with rules-ref conform "
            "--merge"]


def write_run_report(args: argparse.Namespace, result: ConformResult) -> None:
    """Write ``--report FILE`` for a result (a run's or a merge's), if it was asked for."""
    if args.report is None:
        return
    from .conform_report import write_report

    write_report(args.report, result)


def run_merge(args: argparse.Namespace) -> int:
    """``rules-ref conform --merge A.json B.json …``: one report of several summaries."""
    from ..jsonio.files import read_json_file, shown_path
    from ..reports.merge import merge_results
    from ..reports.run_text import merge_lines

    if args.adapter_command and args.adapter_command != ["--"]:
        raise InputError("--merge reads summaries and runs no adapter: give no command after --")
    for name in ("shard", "replay"):
        if getattr(args, name) is not None:
            raise InputError(f"--merge merges finished runs: it takes no --{name}")
    files = [(shown_path(path), read_json_file(path)) for path in args.merge]
    merged = merge_results(files, strict=bool(getattr(args, "strict", False)))
    write_run_report(args, merged)
    if args.json:
        print(json.dumps(merged.to_json(), indent=1, ensure_ascii=False))
        return merged.exit_status
    out = sys.stdout if merged.exit_status != EXIT["fault"] else sys.stderr
    print("\n".join(merge_lines(merged)), file=out)
    return merged.exit_status
