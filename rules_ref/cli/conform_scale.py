"""``rules-ref conform``'s options for spreading a run and sharing it: --shard, --merge, --report.

``--shard K/N`` plays one shard of a run (:mod:`rules_ref.conform.shard`);
``--merge A.json B.json …`` merges the JSON summaries of shards or runs into
one (:mod:`rules_ref.conform.merge`) and reports it as a run would, with
the exit status a single run with that result would have; ``--report FILE``
writes the run (or the merged runs) as a Markdown or HTML file
(:mod:`~rules_ref.cli.conform_document`). ``conform.py`` calls :func:`add_scale_options`,
:func:`scale_config`, :func:`run_merge`, :func:`scale_summary`,
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
from ..wording import counted, plural


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


def scale_summary(summary: dict[str, Any], config: Any, args: argparse.Namespace
                  ) -> dict[str, Any]:
    """``summary`` with what merging and the report need: shard, run seed, rules version."""
    from ..conform.merge import rules_version

    if args.shard is not None:
        summary["seed"] = args.run_seed
        summary["shard"] = str(args.shard)
        summary["shard_seed"] = config.seed
    else:
        summary.setdefault("shard", None)
    summary["rules_version"] = rules_version()
    summary["adapter_command"] = list(config.command)
    if args.replay is None:
        summary["rerun"] = rerun_command(args, list(config.command))
    if getattr(args, "strict", False):
        summary["strict"] = True
    return summary


def scale_lines(args: argparse.Namespace) -> list[str]:
    """The text summary's line about the shard, if the run is one."""
    if getattr(args, "shard", None) is None or args.replay is not None:
        return []
    return [f"  shard {args.shard} of the run with seed {args.run_seed} (the seed above is "
            "this shard's own); merge the shards' --json summaries with rules-ref conform "
            "--merge"]


def write_run_report(args: argparse.Namespace, summary: dict[str, Any]) -> None:
    """Write ``--report FILE`` for a summary (a run's or a merge's), if it was asked for."""
    if args.report is None:
        return
    from .conform_document import write_report

    write_report(args.report, summary)


def run_merge(args: argparse.Namespace) -> int:
    """``rules-ref conform --merge A.json B.json …``: one report of several summaries."""
    from ..conform.merge import merge_summaries, merged_exit
    from ..jsonio.files import read_json_file, shown_path

    if args.adapter_command and args.adapter_command != ["--"]:
        raise InputError("--merge reads summaries and runs no adapter: give no command after --")
    for name in ("shard", "replay"):
        if getattr(args, name) is not None:
            raise InputError(f"--merge merges finished runs: it takes no --{name}")
    files = [(shown_path(path), read_json_file(path)) for path in args.merge]
    merged = merge_summaries(files, strict=bool(getattr(args, "strict", False)))
    code = merged_exit(merged)
    write_run_report(args, merged)
    if args.json:
        print(json.dumps(merged, indent=1, ensure_ascii=False))
        return code
    out = sys.stdout if code != 2 else sys.stderr
    print("\n".join(merge_lines(merged)), file=out)
    return code


def merge_lines(merged: dict[str, Any]) -> list[str]:
    """The text report of a merged summary."""
    from ..findings.classes import finding_lines
    from ..reports.text import VERDICT_WORDS, verdict_words

    runs = merged.get("merged") or []
    shards = [str(r["shard"]) for r in runs if r.get("shard")]
    lines = [f"conform --merge: {len(runs)} summaries"
             + (f" (shards {', '.join(shards)})" if shards else "")
             + f", adapter {merged.get('adapter')!r}: {merged['games']} games, "
             f"{merged['deals']} deals, {merged['actions_compared']} actions compared, "
             f"{merged['illegal_offered']} illegal actions offered in {merged['seconds']:g} s "
             "of run time"]
    if merged.get("missing_shards"):
        lines.append(f"  not merged: shard(s) {', '.join(merged['missing_shards'])} of the run: "
                     "this report covers only part of it")
    classes = merged.get("classes") or []
    for expected in (False, True):
        group = [c for c in classes if bool(c.get("expected")) == expected]
        if not group:
            continue
        lines.append(f"  {'expected' if expected else 'unexpected'} "
                     f"{plural('difference', len(group))}: {len(group)}")
        for c in group:
            words = finding_lines(c)
            lines.append(f"    {words[0]}: {counted(c.get('count', 0), 'time')} in "
                         f"{counted(c.get('games', 0), 'game')}"
                         + (f"; replay {c['replay']}" if c.get("replay") else ""))
            lines += [f"    {line}" for line in words[1:]]
    for entry in merged.get("expected_not_seen") or []:
        lines.append(f"  expected, not seen: {json.dumps(entry, ensure_ascii=False)[:120]}")
    if merged.get("fault") is not None:
        fault = merged["fault"]
        lines.append(f"  adapter fault in a merged run: {fault.get('kind')}: "
                     f"{str(fault.get('message'))[:200]}")
    if merged["verdict"] == "nothing-tested":
        said = verdict_words("nothing-tested", classes, 0)
        lines.append("nothing was tested: no merged run compared an answer of the implementation"
                     if said == VERDICT_WORDS["nothing-tested"] else said)
    verdict = str(merged["verdict"])
    lines.append(f"verdict: {verdict.upper()}: {verdict_words(verdict, classes, 0)}"
                 if verdict == "pass" and classes else f"verdict: {verdict.upper()}")
    return lines
