"""``rules-ref trick CARD…``: resolve one trick and say which rule decided."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from ..cards import parse_cards
from ..errors import InputError
from ..trick_words import after_void_trick, trick_set_aside, trick_won
from ..tricks import resolve_trick
from .style import Style

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("trick 10S 9H 9H 10S KS 3S", "who takes this trick of 6 players, and why"),
    ("trick 9h 9h 10h 2h --leader 3", "the same for 4 cards, the first played by seat 3"),
    ("trick QS QS 2S --json", "the result as JSON"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="+", metavar="CARD",
                   help="the cards in play order, the first one led (e.g. 10S 9H 9H 10S KS 3S)")
    p.add_argument("--leader", type=int, default=0, help="seat of the first card (default 0)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    cards = parse_cards(args.cards)
    n = len(cards)
    if n > 11:
        raise InputError(f"{n} cards: a trick has one card per player, at most 11")
    triple = [str(c) for c, k in Counter(cards).items() if k > 2]
    if triple:
        raise InputError(f"DECK.CARDS: the deck holds two copies of each card; "
                         f"{', '.join(triple)} appears more than twice")
    if not 0 <= args.leader < max(n, 6):
        raise InputError(f"--leader {args.leader} is not a seat")
    players = max(n, args.leader + 1)
    t = resolve_trick(cards, args.leader, players)
    seats = [(args.leader + i) % players for i in range(n)]
    if args.json:
        print(json.dumps({
            "cards": [str(c) for c in cards], "seats": seats, "led_suit": t.led_suit.name,
            "cancelled": [str(c) for c in t.cancelled], "winner": t.winner,
            "winning_card": None if t.winning_card is None else str(t.winning_card),
            "void": t.void,
            "rules": ["TRICK.LED_SUIT", "TRICK.CANCEL"] + (["VOID.TRICK"] if t.void
                                                            else ["TRICK.WINNER"]),
        }))
        return 0
    st = Style.for_stream(sys.stdout)
    print("  ".join(f"seat {s}: {st.card(c)}" for s, c in zip(seats, cards, strict=True)))
    print(f"Led suit: {st.suit(t.led_suit, plural=True)}, the first card's suit "
          "(TRICK.LED_SUIT)")
    if t.cancelled:
        print("Cancelled: " + ", ".join(f"{st.card(c)} pair" for c in t.cancelled)
              + " (TRICK.CANCEL)")
    else:
        print("Cancelled: none (TRICK.CANCEL)")
    if t.void:
        # one trick on its own, not the last of a deal: its leader leads again
        aside, then = trick_set_aside(st.suit(t.led_suit)), after_void_trick(
            f"seat {t.leader}", last=False)
        print(f"Void: {aside.words} ({aside.rule}), and {then.words} ({then.rule})")
    else:
        assert t.winning_card is not None
        won = trick_won(f"seat {t.winner}", st.card(t.winning_card), st.suit(t.led_suit))
        print(f"Who takes it: {won.words} ({won.rule})")
    if n < 6:
        print(f"Note: {n} cards; a real trick has one card per player, 6 to 11 (PLAYERS.COUNT)")
    return 0
