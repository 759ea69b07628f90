"""``rules-ref fit [options] -- COMMAND…``: which ruleset does this engine play?

The adapter is told the default rules (within what its hello declares) in
every game, while the reference plays one ruleset after another on the same
games: the search (:mod:`rules_ref.fit`) keeps each switch value that
explains differences, and prints the ruleset under which the fewest remain,
as text or (``--json``) as an object whose ``ruleset`` is a ``--ruleset``
file, whose ``hello`` is what to declare, and whose ``unexplained`` lists
the findings no value explains (bugs). It is deterministic for a seed: every
ruleset plays ``--examples`` games drawn from ``--seed``.

Exit status: 0 every difference is explained by a switch value (or there is
none), 1 a difference no value explains, 2 a usage error or an adapter fault
at the handshake, 4 nothing was tested; 3 stays a bug of rules-ref.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..fit.search import DEFAULT_EXAMPLES, DEFAULT_TRIALS
from .common import (
    adapter_command,
    bounded_int,
    fault_cause,
    players_arg,
    positive_seconds,
    seed_arg,
)

#: The bounds of --examples and --trials (spec/limits.md).
MAX_EXAMPLES = 100_000
MAX_TRIALS = 1000
#: The time a ruleset's games may take at most, by default (a guard: the games are counted).
DEFAULT_TRIAL_SECONDS = 300.0

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("fit -- ./my-adapter", "which switch values does your engine play, and what is left"),
    ("fit --json --seed 7 -- ./my-adapter", "the same as JSON: its \"ruleset\" is a --ruleset "
     "file"),
    ("fit --examples 60 --trials 80 -- ./my-adapter", "more games for each ruleset tried, "
     "and more rulesets"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.usage = "%(prog)s [options] -- COMMAND..."
    p.epilog = ("COMMAND is the adapter, run as an argument list (no shell). The adapter is "
                "told the default rules in every game (each switch whose default its hello "
                "does not declare at the first value it declares); the reference plays the "
                "rulesets tried. exit status: 0 every difference is explained by a switch "
                "value; 1 a difference no value explains (a bug); 2 an adapter fault at the "
                "handshake or bad usage; 3 an internal error of rules-ref; 4 nothing was "
                "tested.")
    p.add_argument("--examples", type=bounded_int(1, MAX_EXAMPLES), default=DEFAULT_EXAMPLES,
                   help="games played under each ruleset tried, the same games each time "
                   f"(default {DEFAULT_EXAMPLES})")
    p.add_argument("--trials", type=bounded_int(1, MAX_TRIALS), default=DEFAULT_TRIALS,
                   help="the budget: rulesets tried at most, the told one included "
                   f"(default {DEFAULT_TRIALS})")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="the seed the games are drawn from (default: a fresh one, printed)")
    p.add_argument("--players", type=players_arg, default=None,
                   help="play only this player count (default: every count the adapter "
                   "supports)")
    p.add_argument("--max-seconds", type=positive_seconds, default=DEFAULT_TRIAL_SECONDS,
                   help="time each ruleset's games may take at most (default "
                   f"{DEFAULT_TRIAL_SECONDS:g}; a ruleset cut short makes the result depend "
                   "on the machine's speed, and the summary says so)")
    p.add_argument("--timeout", type=positive_seconds, default=10.0,
                   help="seconds to wait for each answer (default 10)")
    p.add_argument("--protocol", type=int, choices=(1, 2), default=None,
                   help="offer only this protocol version in the hello (default: 1 and 2)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("adapter_command", nargs=argparse.REMAINDER, metavar="-- COMMAND",
                   help="the adapter command and its arguments, after --")


def run(args: argparse.Namespace) -> int:
    from ..conform.outcome import Config, env_seed
    from ..fit.search import fit_ruleset
    from ..fit.summary import EXIT, fit_document, fit_lines
    from ..protocol.messages import AdapterFault
    from ..protocol.observation import PROTOCOL_VERSIONS

    command = adapter_command(list(args.adapter_command), "fit")
    seed = args.seed if args.seed is not None else env_seed()
    config = Config(command=command, examples=args.examples, max_seconds=args.max_seconds,
                    seed=seed, players=args.players, timeout=args.timeout,
                    versions=(args.protocol,) if args.protocol else PROTOCOL_VERSIONS)
    try:
        fit = fit_ruleset(config, args.trials)
    except AdapterFault as fault:
        print(f"rules-ref fit: adapter fault ({fault.kind}): {fault.detail}", file=sys.stderr)
        cause = fault_cause(fault.kind, fault.detail, fault.stderr)
        if cause is not None:
            print(f"  {cause}", file=sys.stderr)
        return EXIT["usage"]
    doc = fit_document(fit, seed, args.examples, args.trials, command)
    if args.json:
        print(json.dumps(doc, indent=1, ensure_ascii=False))
    else:
        print("\n".join(fit_lines(doc)))
    return int(doc["exit_status"])
