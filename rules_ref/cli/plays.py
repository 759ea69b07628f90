"""``rules-ref plays POSITION``: what the seat to play may play, and the rule against the rest.

The position is a text or JSON of ``spec/position.md``, or a file holding one
(as ``rules-ref position`` reads it), checked against the ruleset given
(``--preset``, ``--ruleset``; the default otherwise). Or it is built from the
hand of the seat to play, the trick so far and the trick number (``--hand``;
:func:`rules_ref.answers.build_position`), and printed first. The answer is
:func:`rules_ref.answers.plays_answer`'s, the one the site's legal-plays page
draws.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..answers import build_position, plays_answer
from ..cards import parse_cards
from ..errors import InputError
from ..positions.text import format_position
from .common import add_ruleset_arguments, bounded_int, players_arg, ruleset_from_args
from .position import read_position
from .style import Style

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ('plays "$(rules-ref play --seed 3 --at 2.1)"', "what the leader of trick 1 of deal 2 "
     "may lead, and the rule against each other card"),
    ("plays position.txt --preset hearts-template", "a position from a file, under a preset"),
    ("plays --hand '2C 5C 9C 3D 4D 8D QD 2H 5H 9H KH AH 3S 7S 9S' --trick 'KC 4C' "
     "--trick-number 3", "a position built from a hand and the trick so far"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", nargs="*", metavar="POSITION",
                   help="a position text or JSON (spec/position.md), a file holding one, or - "
                        "for standard input (the default)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    build = p.add_argument_group("or build the position", "from the seat to play's hand")
    build.add_argument("--hand", metavar="CARDS", default=None,
                       help="the hand of the seat to play (e.g. '2C 5C 9C 3D KH AH 3S')")
    build.add_argument("--trick", metavar="CARDS", default="",
                       help="the cards played to the trick so far, led by seat 0")
    build.add_argument("--trick-number", type=bounded_int(1, 20), default=2, metavar="T",
                       help="the trick in progress (default 2)")
    build.add_argument("--hearts-broken", action="store_true", help="hearts are broken")
    build.add_argument("--players", type=players_arg, default=6,
                       help="the number of players (default 6)")
    add_ruleset_arguments(p)


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from_args(args)
    built = args.hand is not None
    if built:
        if args.position:
            raise InputError("give a position or --hand, not both")
        pos = build_position(args.players, parse_cards(args.hand), parse_cards(args.trick),
                             args.trick_number, args.hearts_broken, ruleset)
    else:
        pos = read_position(args.position)
    answer = plays_answer(pos, ruleset)
    if args.json:
        print(json.dumps({"position": format_position(pos), **answer.to_json()}))
        return 0
    if built:
        print(f"Position: {format_position(pos)}")
    st = Style.for_stream(sys.stdout)
    for statement in answer.statements:
        print(statement.text(st.card, lambda s: st.suit(s.suit, s.plural)))
    return 0
