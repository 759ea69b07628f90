"""``rules-ref deal``: the portable seeded deal of ``spec/deal.md``, step by step.

For someone implementing the seeded deal in another language: it prints
the generator's starting state, the shuffled deck in order, each seat's
hand and the extras, so each stage can be compared.
"""

from __future__ import annotations

import argparse
import json

from ..deal import DEAL_STREAM, FEWEST_PLAYERS, MASK64, dealer_for_deal, seeded_deal, shuffled_deck
from ..errors import InputError
from .common import players_arg, positive_int, seed_arg

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("deal --players 7 --seed 3", "the first deal of a game of 7 players, seed 3, step by step"),
    ("deal --players 7 --seed 3 --deal-number 2 --json", "its second deal, as JSON"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=players_arg, default=8,
                   help="6 to 11, or 5 to 11 under min_players = 5 (default 8)")
    p.add_argument("--seed", type=seed_arg, default=1, help="the game seed (default 1)")
    p.add_argument("--deal-number", type=positive_int, default=1, metavar="D",
                   help="which deal of the game, from 1 (default 1)")
    p.add_argument("--dealer", type=int, default=None, metavar="S",
                   help="the dealer's seat (default: the dealer of deal D when seat 0 deals "
                        "first, DEAL.DEALER)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    players, seed, number = args.players, args.seed, args.deal_number
    if number > 10**9:
        raise InputError(f"--deal-number {number}: at most 1000000000")
    dealer = dealer_for_deal(0, number, players) if args.dealer is None else args.dealer
    if not 0 <= dealer < players:
        raise InputError(f"--dealer {dealer}: the seats of {players} players are 0 to "
                         f"{players - 1} (DEAL.DEALER)")
    state = seed ^ ((number * DEAL_STREAM) & MASK64)
    deck = shuffled_deck(seed, number)
    deal = seeded_deal(seed, players, number, dealer, FEWEST_PLAYERS)
    if args.json:
        print(json.dumps({
            "seed": seed, "players": players, "deal_number": number, "dealer": dealer,
            "start_state": state, "deck": [str(c) for c in deck],
            "hands": [[str(c) for c in h] for h in deal.hands],
            "extras": [str(c) for c in deal.extras]}, indent=1))
        return 0
    print(f"Seeded deal (spec/deal.md, DEAL.SOURCE): seed {seed}, deal {number}, "
          f"{players} players, dealer seat {dealer}")
    print(f"Generator start state (section 2): {state} = 0x{state:016X}")
    print("Shuffled deck, positions 0 to 103 (section 5):")
    for row in range(0, len(deck), 13):
        print(f"  {row:3}: " + " ".join(f"{c!s:>3}" for c in deck[row:row + 13]))
    print("Hands, sorted (section 6): dealt one card at a time from the dealer's left")
    for seat, hand in enumerate(deal.hands):
        print(f"  seat {seat:2}: " + " ".join(str(c) for c in hand))
    print(f"Extras, in deck order (section 6): {' '.join(str(c) for c in deal.extras) or '-'}")
    return 0
