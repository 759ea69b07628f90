"""``rules-ref play``: a whole game with the built-in players, as a readable log or JSON.

The built-in players are :func:`rules_ref.players.policy.choose_bold` (which now and
then tries for the moon). With ``--seat N`` a person plays seat N from the
terminal (:mod:`.human`); the log then shows only what that seat may see.

Exit status: 0 when the game was played to its end; 1 when a person's
game stopped at the end of input (the rest is not played); 130 after
Ctrl-C; 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..deal import check_player_count
from ..errors import InputError
from ..players.game import game_steps
from ..players.policy import choose_bold
from ..records.record import record_from_state
from ..state import GameState
from .common import (
    add_ruleset_arguments,
    nonnegative_int,
    players_arg,
    ruleset_from_args,
    seed_arg,
)
from .log import GameLog
from .position import add_at_argument, game_states, print_position_at
from .style import Style

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("play", "a whole game on the default rules: 8 players, seed 1"),
    ("play --players 7 --seed 3", "the log of a game of 7 players, seed 3"),
    ("play --seat 2", "play seat 2 yourself against the built-in players"),
    ("play --preset hubpages --json", "the game record as JSON (for show and validate)"),
    ("play --seed 3 --at 2.5", "the position at the start of deal 2, trick 5"),
    ("play --players 5 --preset crcowan", "5 players, under a preset that allows them"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=players_arg, default=8,
                   help="6 to 11, or 5 to 11 under min_players = 5 (default 8)")
    p.add_argument("--seed", type=seed_arg, default=1, help="the game seed (default 1)")
    p.add_argument("--first-dealer", type=nonnegative_int, default=0,
                   help="seat of the first dealer (0 to players - 1; default 0)")
    p.add_argument("--seat", type=nonnegative_int, default=None, metavar="N",
                   help="play seat N yourself, typing cards such as QS, 10h or q♠")
    p.add_argument("--json", action="store_true", help="print the game record as JSON")
    p.add_argument("--ascii", action="store_true",
                   help="write cards as QS, 10H (the default when the output lacks ♠)")
    add_ruleset_arguments(p)
    add_at_argument(p)


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from_args(args)
    check_player_count(args.players, ruleset.min_players)
    if not 0 <= args.first_dealer < args.players:
        raise InputError(f"--first-dealer {args.first_dealer}: the seats of {args.players} "
                         f"players are 0 to {args.players - 1} (DEAL.DEALER)")
    if args.seat is not None and not 0 <= args.seat < args.players:
        raise InputError(f"--seat {args.seat}: the seats of {args.players} players are 0 to "
                         f"{args.players - 1}")
    if args.seat is not None and args.json:
        raise InputError("give --seat or --json, not both: a person's game prints its log")
    # a ruleset this table cannot be set up with is one error line, before anything prints
    GameState.start(args.players, ruleset, args.first_dealer)
    steps = game_steps
    if args.at is not None:
        if args.seat is not None:
            raise InputError("give --seat or --at, not both")
        return print_position_at(game_states(steps(args.players, args.seed, ruleset,
                                                   args.first_dealer, policy=choose_bold)),
                                 args.at, args.json)
    if args.json:
        final = GameState.start(args.players, ruleset, args.first_dealer)
        for _, _, after, _ in steps(args.players, args.seed, ruleset, args.first_dealer,
                                    policy=choose_bold):
            final = after
        print(json.dumps(record_from_state(final, args.seed), indent=1))
        return 0
    style = Style.for_stream(sys.stdout, args.ascii)
    log = GameLog(style, secret_seat=args.seat)
    out = sys.stdout
    for line in log.header(args.players, ruleset, args.seed, args.preset):
        print(line, file=out)
    if args.seat is not None:
        from .human import EndOfInput, Person

        person = Person(args.seat, style, sys.stdin, out)
        try:
            for before, action, after, events in steps(
                    args.players, args.seed, ruleset, args.first_dealer,
                    policy=person.policy(choose_bold)):
                for line in log.step(before, action, after, events):
                    print(line, file=out)
                out.flush()
        except EndOfInput as stop:
            print(f"rules-ref play: end of input: the game stops {stop}", file=sys.stderr)
            return 1
        return 0
    lines: list[str] = []
    for before, action, after, events in steps(args.players, args.seed, ruleset,
                                               args.first_dealer, policy=choose_bold):
        lines.extend(log.step(before, action, after, events))
    print("\n".join(lines), file=out)
    return 0
