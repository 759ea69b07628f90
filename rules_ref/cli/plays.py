"""``rules-ref plays POSITION``: what the seat to play may play, and the rule against the rest.

The position is a text or JSON of ``spec/position.md``, or a file holding one
(as ``rules-ref position`` reads it), checked against the ruleset given
(``--preset``, ``--ruleset``; the default otherwise). The answer is
:func:`rules_ref.answers.plays_answer`'s, the one the site's legal-plays page
draws.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..answers import plays_answer
from .common import add_ruleset_arguments, ruleset_from_args
from .position import read_position
from .style import Style


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", nargs="*", metavar="POSITION",
                   help="a position text or JSON (spec/position.md), a file holding one, or - "
                        "for standard input (the default)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    add_ruleset_arguments(p)


def run(args: argparse.Namespace) -> int:
    pos = read_position(args.position)
    answer = plays_answer(pos, ruleset_from_args(args))
    if args.json:
        print(json.dumps(answer.to_json()))
        return 0
    st = Style.for_stream(sys.stdout)
    for statement in answer.statements:
        print(statement.text(st.card, lambda s: st.suit(s.suit, s.plural)))
    return 0
