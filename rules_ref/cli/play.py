"""``rules-ref play``: a whole game with the built-in players, as a readable log or JSON.

The built-in players are :func:`rules_ref.players.policy.choose_bold` (which now and
then tries for the moon). With ``--seat N`` a person plays seat N from the
terminal (:mod:`.human`); the log then shows only what that seat may see.
With ``--from POSITION`` the game is the rest of one, played on from a
position (:mod:`.play_from`).

Exit status: 0 when the game was played to its end; 1 when a person's
game stopped at the end of input (the rest is not played); 130 after
Ctrl-C; 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator

from ..actions import Action
from ..deal import check_player_count
from ..errors import InputError
from ..events import Event
from ..players.game import game_steps, steps_from
from ..players.policy import choose_bold
from ..records.record import record_from_state
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from .common import (
    add_ruleset_arguments,
    nonnegative_int,
    players_arg,
    ruleset_from_args,
    seed_arg,
)
from .log import GameLog, fitted
from .play_from import check_options, read_start, start_state, summary
from .position import add_at_argument, game_states, print_position_at
from .style import Style

Policy = Callable[[GameState, random.Random], Action]
Steps = Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("play", "a whole game on the default rules: 8 players, seed 1"),
    ("play --players 7 --seed 3", "the log of a game of 7 players, seed 3"),
    ("play --seat 2", "play seat 2 yourself against the built-in players"),
    ("play --preset hubpages --json", "the game record as JSON (for show and validate)"),
    ("play --seed 3 --at 2.5", "the position at the start of deal 2, trick 5"),
    ('play --from "$(rules-ref play --seed 3 --at 2.5)" --seed 4',
     "the rest of that game from there, the players' choices drawn from seed 4"),
    ("play --from position.txt --seat 0", "play on from a position yourself, as seat 0"),
    ("play --players 5 --preset crcowan", "5 players, under a preset that allows them"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=players_arg, default=None,
                   help="6 to 11, or 5 to 11 under min_players = 5 (default 8)")
    p.add_argument("--seed", type=seed_arg, default=1, help="the game seed (default 1)")
    p.add_argument("--first-dealer", type=nonnegative_int, default=None,
                   help="seat of the first dealer (0 to players - 1; default 0)")
    p.add_argument("--from", dest="start", default=None, metavar="POSITION",
                   help="play the rest of the game on from a position (spec/position.md): "
                        "its text or JSON, a file holding one, or - for standard input; "
                        "the seed gives the later deals and the players' choices")
    p.add_argument("--seat", type=nonnegative_int, default=None, metavar="N",
                   help="play seat N yourself, typing cards such as QS, 10h or q♠")
    p.add_argument("--json", action="store_true", help="print the game record as JSON")
    p.add_argument("--ascii", action="store_true",
                   help="write cards as QS, 10H (the default when the output lacks ♠)")
    add_ruleset_arguments(p)
    add_at_argument(p)


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from_args(args)
    if args.start is not None:
        return _run_from(args, ruleset)
    players = 8 if args.players is None else args.players
    first_dealer = 0 if args.first_dealer is None else args.first_dealer
    check_player_count(players, ruleset.min_players)
    if not 0 <= first_dealer < players:
        raise InputError(f"--first-dealer {first_dealer}: the seats of {players} "
                         f"players are 0 to {players - 1} (DEAL.DEALER)")
    check_seat(args, players)
    # a ruleset this table cannot be set up with is one error line, before anything prints
    start = GameState.start(players, ruleset, first_dealer)

    def steps(policy: Policy) -> Steps:
        return game_steps(players, args.seed, ruleset, first_dealer, policy=policy)

    if args.at is not None:
        if args.seat is not None:
            raise InputError("give --seat or --at, not both")
        return print_position_at(game_states(steps(choose_bold)), args.at, args.json)
    if args.json:
        return _print_record(start, steps(choose_bold), args.seed)
    style = Style.for_stream(sys.stdout, args.ascii)
    log = GameLog(style, secret_seat=args.seat)
    return _print_log(args, log, log.header(players, ruleset, args.seed, args.preset), steps)


def _run_from(args: argparse.Namespace, ruleset: Ruleset) -> int:
    """``play --from``: the rest of the game from a position."""
    check_options(args)
    pos = read_start(args.start)
    check_seat(args, pos.players)
    start = start_state(pos, ruleset)
    if args.json:
        if pos.phase is not Phase.DEALING:
            raise InputError(f"--json: a game record starts between deals, and this position "
                             f"is within deal {pos.deal_number} ({pos.phase}): give a position "
                             "in the dealing phase, or leave out --json for the log")
        return _print_record(start, steps_from(start, args.seed, choose_bold), args.seed)

    def steps(policy: Policy) -> Steps:
        return steps_from(start, args.seed, policy)

    style = Style.for_stream(sys.stdout, args.ascii)
    log = GameLog(style, secret_seat=args.seat)
    head = log.header(pos.players, ruleset, args.seed, args.preset) + fitted(summary(pos, style))
    return _print_log(args, log, head, steps)


def check_seat(args: argparse.Namespace, players: int) -> None:
    if args.seat is not None and not 0 <= args.seat < players:
        raise InputError(f"--seat {args.seat}: the seats of {players} players are 0 to "
                         f"{players - 1}")
    if args.seat is not None and args.json:
        raise InputError("give --seat or --json, not both: a person's game prints its log")


def _print_record(start: GameState, steps: Steps, seed: int) -> int:
    final = start
    for _, _, after, _ in steps:
        final = after
    print(json.dumps(record_from_state(final, seed), indent=1))
    return 0


def _print_log(args: argparse.Namespace, log: GameLog, head: list[str],
               steps: Callable[[Policy], Steps]) -> int:
    """Print the log of the game ``steps`` plays, a person at ``args.seat`` if one is given."""
    out = sys.stdout
    for line in head:
        print(line, file=out)
    if args.seat is not None:
        from .human import EndOfInput, Person

        person = Person(args.seat, log.style, sys.stdin, out)
        try:
            for before, action, after, events in steps(person.policy(choose_bold)):
                for line in log.step(before, action, after, events):
                    print(line, file=out)
                out.flush()
        except EndOfInput as stop:
            print(f"rules-ref play: end of input: the game stops {stop}", file=sys.stderr)
            return 1
        return 0
    lines: list[str] = []
    for before, action, after, events in steps(choose_bold):
        lines.extend(log.step(before, action, after, events))
    print("\n".join(lines), file=out)
    return 0
