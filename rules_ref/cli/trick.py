"""``rules-ref trick CARD…``: resolve one trick and say which rule decided.

The answer is :func:`rules_ref.answers.trick_answer`'s, the one the site's
trick resolver draws: the led suit, the cancelled pairs, the winner or the
void trick, who leads next and the points.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..answers import trick_answer
from ..cards import parse_cards
from .style import Style

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("trick 10S 9H 9H 10S KS 3S", "who takes this trick of 6 players, and why"),
    ("trick 9h 9h 10h 2h --leader 3", "the same for 4 cards, the first played by seat 3"),
    ("trick QS QS 2S --json", "the result as JSON"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="+", metavar="CARD",
                   help="the cards in play order, the first one led (e.g. 10S 9H 9H 10S KS 3S), "
                        "separated by spaces or commas")
    p.add_argument("--leader", type=int, default=0, help="seat of the first card (default 0)")
    p.add_argument("--players", type=int, default=None,
                   help="the number of players (default: as many as the cards, at least the "
                        "leader's seat)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    # each argument is a card, or several separated by commas ("10S,9H"); spec/notation.md
    words = [part for word in args.cards for part in (word.split(",") if "," in word else [word])
             if "," not in word or part.strip()]
    answer = trick_answer(parse_cards(words), args.leader, args.players)
    if args.json:
        print(json.dumps(answer.to_json()))
        return 0
    st = Style.for_stream(sys.stdout)
    print("  ".join(f"seat {s}: {st.card(c)}"
                    for s, c in zip(answer.seats, answer.outcome.cards, strict=True)))
    for statement in answer.statements:
        print(statement.text(st.card, lambda s: st.suit(s.suit, s.plural)))
    return 0
