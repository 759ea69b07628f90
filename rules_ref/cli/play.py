"""``rules-ref play``: a whole game with the built-in player, as a readable log or JSON."""

from __future__ import annotations

import argparse
import json

from .. import events as ev
from ..actions import DealCards, Pass
from ..cards import Card
from ..errors import InputError
from ..game import game_steps
from ..record import record_from_state
from ..state import GameState
from .common import (
    add_ruleset_arguments,
    nonnegative_int,
    players_arg,
    ruleset_from_args,
    seed_arg,
)
from .position import add_at_argument, game_states, print_position_at


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=players_arg, default=8, help="6 to 11 (default 8)")
    p.add_argument("--seed", type=seed_arg, default=1, help="the game seed (default 1)")
    p.add_argument("--first-dealer", type=nonnegative_int, default=0,
                   help="seat of the first dealer (0 to players - 1; default 0)")
    p.add_argument("--json", action="store_true", help="print the game record as JSON")
    add_ruleset_arguments(p)
    add_at_argument(p)


def _cards(cards: tuple[Card, ...] | list[Card], cancelled: tuple[Card, ...] = (),
           win: Card | None = None) -> str:
    out = []
    for c in cards:
        text = c.pretty
        if c in cancelled:
            text = f"[{text}]"
        elif c == win:
            text = f"{text}*"
        out.append(text)
    return " ".join(out)


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from_args(args)
    if not 0 <= args.first_dealer < args.players:
        raise InputError(f"--first-dealer {args.first_dealer}: the seats of {args.players} "
                         f"players are 0 to {args.players - 1} (DEAL.DEALER)")
    if args.at is not None:
        steps = game_steps(args.players, args.seed, ruleset, args.first_dealer)
        return print_position_at(game_states(steps), args.at, args.json)
    final = GameState.start(args.players, ruleset, args.first_dealer)
    log: list[str] = []
    if not args.json:
        log.append(f"Cancellation Hearts: {args.players} players, seed {args.seed}, "
                   f"ruleset {ruleset.describe()}, target {ruleset.target}")
        log.append("Legend: [X] cancelled card (TRICK.CANCEL), X* trick winner (TRICK.WINNER)")
    for before, action, after, events in game_steps(args.players, args.seed, ruleset,
                                                    args.first_dealer):
        final = after
        if args.json:
            continue
        for e in events:
            log.extend(_describe(e, before, after, action))
    if args.json:
        print(json.dumps(record_from_state(final, args.seed), indent=1))
    else:
        print("\n".join(log))
    return 0


def _describe(e: ev.Event, before: GameState, after: GameState, action: object) -> list[str]:
    if isinstance(e, ev.DealStarted):
        assert isinstance(action, DealCards)
        direction = ("no passing" if e.pass_offset is None
                     else f"passing {e.pass_offset} seat(s) left")
        lines = ["", f"Deal {e.deal_number}: dealer seat {e.dealer}, {direction}, "
                 f"{len(action.extras)} extra card(s) face down"]
        return lines
    if isinstance(e, ev.PassesExchanged):
        return [f"  Passes exchanged; seat {after.leader} makes the opening lead"]
    if isinstance(e, ev.CardsPassed):
        assert isinstance(action, Pass)
        return [f"  seat {e.seat} passes {_cards(action.cards)} to seat {e.to_seat}"]
    if isinstance(e, ev.TrickWon):
        t = after.tricks[-1]
        return [f"  Trick {e.trick_number:2}, seat {t.leader} leads: "
                f"{_cards(t.cards, t.cancelled, e.card)}  -> seat {e.winner} wins"]
    if isinstance(e, ev.TrickSetAside):
        t = after.tricks[-1]
        return [f"  Trick {e.trick_number:2}, seat {t.leader} leads: "
                f"{_cards(t.cards, t.cancelled)}  -> VOID: no uncancelled "
                f"{t.led_suit.symbol}; set aside, {len(after.pending) or len(t.cards)} card(s) "
                f"pending (VOID.TRICK); seat {t.leader} leads again (VOID.LEADER)"]
    if isinstance(e, ev.PendingCollected):
        return [f"           seat {e.seat} also takes {len(e.cards)} pending card(s) "
                f"(VOID.COLLECT)"]
    if isinstance(e, ev.ExtrasTaken):
        return [f"           seat {e.seat} takes the extras: {_cards(e.cards)} "
                f"(EXTRAS.FIRST_TRICK)"]
    if isinstance(e, ev.ExtrasPending):
        return ["           the first trick is void: the extras join the pending pile "
                "(EXTRAS.FIRST_TRICK)"]
    if isinstance(e, ev.PendingSettled):
        lines = []
        if e.uncollected:
            lines.append(f"  The deal ends with {len(e.uncollected)} card(s) pending: "
                         f"collected by nobody (VOID.LAST): {_cards(e.uncollected)}")
        for seat, cards in e.taken:
            lines.append(f"  Seat {seat} takes {len(cards)} card(s) left pending (VOID.LAST)")
        return lines
    if isinstance(e, ev.MoonShot):
        return [f"  MOON: seat {e.seat} collected all 26 hearts and both Q♠ (MOON.CONDITION)"]
    if isinstance(e, ev.MoonChosen):
        how = e.choice or before.ruleset.moon
        return [f"  seat {e.seat}'s moon option: {how} (MOON.CHOICE)"]
    if isinstance(e, ev.DealScored):
        return [f"  Deal {e.deal_number} scores: {list(e.scores)}; totals {list(e.totals)}"]
    if isinstance(e, ev.GameOver):
        who = ", ".join(f"seat {s}" for s in e.winners)
        tie = " (tied for lowest)" if len(e.winners) > 1 else ""
        return ["", f"Game over: totals {list(e.totals)}; winner(s): {who}{tie} (GAME.WINNER)"]
    return []
