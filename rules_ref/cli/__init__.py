"""The ``rules-ref`` command line.

Every subcommand lives in its own module of this package and is imported
only when it runs. Errors print one line on standard error and exit with
status 2 (``--debug`` shows the traceback instead); see ``spec/limits.md``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..errors import RulesRefError

#: subcommand -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "play a whole game with the built-in player and print its log"),
    "trick": ("trick", "resolve one trick: who wins, or that it is void, and which rule decided"),
    "rules": ("rules", "print the rule registry, or one rule, from spec/"),
    "validate": ("validate", "check a recorded game and report every violation"),
    "conform": ("conform", "differential test of an implementation over the adapter protocol"),
    "vectors": ("vectors", "run, regenerate or check the conformance vectors"),
}

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rules-ref", description="The Cancellation Hearts rules reference.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks on errors")
        importlib.import_module(f"{__name__}.{module}").add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = importlib.import_module(f"{__name__}.{args._module}")
    try:
        code: int = module.run(args)
    except RulesRefError as exc:
        if args.debug:
            raise
        print(f"rules-ref {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"rules-ref {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    return code


if __name__ == "__main__":
    sys.exit(main())
