"""``rules-ref adapter [--protocol N]``: the reference engine behind the adapter protocol.

It reads one request a line on standard input and answers each on standard
output (``spec/protocol.md``), as an implementation's adapter does, so that
``rules-ref conform -- rules-ref adapter`` tests the reference against itself
and an adapter's author has a partner to compare with. The program is
:mod:`rules_ref.protocol.reference_adapter`; ``python -m
rules_ref.conformance.adapter``, the command earlier versions documented,
runs it too.
"""

from __future__ import annotations

import argparse

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("adapter", "answer protocol requests on standard input, as an implementation's adapter "
     "does"),
    ("adapter --protocol 1", "speak protocol version 1 at most (rules-ref conform -- "
     "rules-ref adapter tests the reference against itself)"),
    ("adapter --ruleset '{\"pass_cycle\": [\"hold\"]}'", "act as a correct engine that "
     "never passes, declaring that ruleset alone"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--protocol", metavar="N",
                   help="the newest protocol version to speak (default: the environment "
                        "variable RULES_REF_ADAPTER_PROTOCOL, else the newest)")
    p.add_argument("--ruleset", metavar="JSON",
                   help="declare this one ruleset only (a JSON object of switches, the others "
                        "at their defaults), as a correct engine of it would")


def run(args: argparse.Namespace) -> int:
    from ..protocol.reference_adapter import main

    argv = [] if args.protocol is None else ["--protocol", args.protocol]
    return main(argv + ([] if args.ruleset is None else ["--ruleset", args.ruleset]))
