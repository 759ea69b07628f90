"""``rules-ref validate RECORD.json``: check a recorded game and report every violation.

Exit status 0 when the record is valid, 1 when it breaks rules (one line
per violation, or ``--json``), 2 when it cannot be read: not JSON, the wrong
shape (the message names the JSON path), or a missing file.
"""

from __future__ import annotations

import argparse
import json

from ..errors import InputError
from ..jsonio.files import read_json_file, shown_path
from ..records.validate import count, validate_record
from .position import add_at_argument, print_position_at, record_states

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("validate game.json", "every violation of the rules in a game record, with its rule"),
    ("validate game.json --json", "the violations as JSON"),
    ("validate game.json --at 2.5", "the position at the start of deal 2, trick 5"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", metavar="RECORD.json",
                   help="a game record, as `rules-ref play --json` writes it (- for stdin)")
    p.add_argument("--json", action="store_true", help="print the violations as JSON")
    add_at_argument(p)


def run(args: argparse.Namespace) -> int:
    data = read_json_file(args.record)
    try:
        if args.at is not None:
            return print_position_at(record_states(data), args.at, args.json)
        violations = validate_record(data)
    except InputError as exc:
        if str(exc).startswith("--at "):
            raise
        raise InputError(f"{shown_path(args.record)}: {exc}") from None
    deals = len(data["deals"])
    if args.json:
        print(json.dumps({"record": args.record, "valid": not violations, "deals": deals,
                          "violations": [v.to_json() for v in violations]}, indent=1))
    elif violations:
        for v in violations:
            print(v)
        print(f"{count(len(violations), 'violation', 'violations')} in "
              f"{count(deals, 'deal', 'deals')}")
    else:
        print(f"ok: {count(deals, 'deal', 'deals')}, no violation")
    return 1 if violations else 0
