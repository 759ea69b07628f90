"""``python -m tools.mutation {mutate,kit-power,composites} [options]``, from the root."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import campaign


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.mutation",
                                description="mutation campaigns over the reference engine")
    sub = p.add_subparsers(dest="command", required=True)
    campaign.add_arguments(sub.add_parser("mutate", help="the mutation score of the test suite"))
    from . import kit_power
    kit_power.add_arguments(sub.add_parser("kit-power",
                                           help="the conformance kit against engine mutants"))
    from . import composites
    composites.add_arguments(sub.add_parser(
        "composites", help="the conformance kit against engines with k faults at once"))
    args = p.parse_args(argv)
    root = Path.cwd()
    if not (root / "rules_ref").is_dir():
        print("mutation: run from the repository root (no rules_ref/ here)", file=sys.stderr)
        return 2
    if args.command == "mutate":
        return campaign.run(args, root)
    if args.command == "composites":
        return composites.run(args, root)
    return kit_power.run(args, root)


if __name__ == "__main__":
    sys.exit(main())
