"""The ``rules-ref`` command line.

Every subcommand lives in its own module of this package and is imported
only when it runs. Errors print one line on standard error and exit with
status 2 (``--debug`` shows the traceback instead); see ``spec/limits.md``.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import RulesRefError
from ..wording.suggest import did_you_mean
from .help import add_examples

#: subcommand -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "play a whole game with the built-in players (or one seat yourself), "
             "or the rest of one from a position, and print its log"),
    "show": ("show", "print a game record, a conform replay file or a position, readable"),
    "trick": ("trick", "resolve one trick: who wins, or that it is void, and which rule decided"),
    "rules": ("rules", "print the rule registry, one rule, or the rules matching words"),
    "sources": ("sources", "explain the source keys (K10, WP-cur, ...) the rules cite"),
    "deal": ("deal", "print the portable seeded deal of spec/deal.md"),
    "validate": ("validate", "check a recorded game and report every violation"),
    "conform": ("conform", "differential test of an implementation over the adapter protocol"),
    "fit": ("fit", "which ruleset does an implementation play: the switch values that explain "
            "its differences, and the differences none explains"),
    "vectors": ("vectors", "run, regenerate or check the conformance vectors"),
    "position": ("position", "print a position (spec/position.md) as a table, or convert it"),
    "adapter": ("adapter", "the reference engine behind the adapter protocol (spec/protocol.md), "
                "on standard input and output"),
    "plays": ("plays", "in a position, the cards the seat to play may play, and the rule "
              "against each other card"),
}

EXIT_OK = 0
EXIT_USAGE = 2
#: An error in rules-ref itself (a bug): one line, the traceback with ``--debug``.
EXIT_INTERNAL = 3
#: Ended by SIGTERM (``conform`` and ``vectors run``, after ending the adapter).
EXIT_TERMINATED = 143


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {one_line(message, 300)}\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A value outside the choices (a command, an action, a version): the closest ones."""
        if action.choices is not None and value not in action.choices:
            names = [str(c) for c in action.choices]
            raise argparse.ArgumentError(
                action, f"invalid choice: {value!r} (choose from {', '.join(names)})"
                f"{did_you_mean(str(value), names)}")

    def unrecognized(self, extras: list[str]) -> None:
        """Arguments no option takes: the closest option to the first unknown one."""
        options = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
        unknown = next((e.split("=", 1)[0] for e in extras if e.startswith("-")), None)
        hint = did_you_mean(unknown, options) if unknown else ""
        self.error(f"unrecognized arguments: {' '.join(extras)}{hint}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rules-ref", description="The Cancellation Hearts rules reference.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks on errors")
        command = importlib.import_module(f"{__name__}.{module}")
        command.add_arguments(p)
        add_examples(p, command.HELP_EXAMPLES)
        p.set_defaults(_module=module)
    add_examples(parser, HELP_EXAMPLES)
    return parser


#: The examples of a bare ``rules-ref`` and of ``rules-ref --help``.
HELP_EXAMPLES = (
    ("play", "play a game on the built-in default and read its log"),
    ("play --seat 2", "play seat 2 yourself"),
    ("trick 10S 9H 9H 10S KS 3S", "who takes this trick, and which rule decided"),
    ("rules TRICK.CANCEL", "one rule of the registry"),
    ("COMMAND --help", "a command's options, with examples"),
)


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> _Parser:
    """The parser of the (sub)command that ``args`` were parsed for: the one whose options apply."""
    found = True
    while found:
        found = False
        for action in parser._actions:  # argparse offers no public way to list subparsers
            if isinstance(action, argparse._SubParsersAction):
                name = getattr(args, action.dest, None)
                if name in action.choices:
                    parser, found = action.choices[name], True
    assert isinstance(parser, _Parser)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for (a metadata scan)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"rules-ref {_version()}")
        parser.exit()


def _version() -> str:
    """The installed package's version, or the source tree's when not installed."""
    from importlib import metadata

    from .. import __version__

    try:
        return metadata.version("rules-ref")
    except metadata.PackageNotFoundError:
        return __version__


def main(argv: Sequence[str] | None = None) -> int:
    from .style import safe_streams

    safe_streams()
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        # a bare `rules-ref`: what it can do, then a usage error (nothing was asked)
        parser.print_help()
        return EXIT_USAGE
    args, extras = parser.parse_known_args(argv)
    if extras:
        _command_parser(parser, args).unrecognized(extras)
    # the command line as given, for the metadata a run's report carries (reports/meta.py)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    module = importlib.import_module(f"{__name__}.{args._module}")
    restore = _end_on_sigterm() if args.command in ("conform", "fit", "vectors") else None
    try:
        return _run(module, args)
    finally:
        if restore is not None:
            restore()


def _run(module: Any, args: argparse.Namespace) -> int:
    try:
        code: int = module.run(args)
    except RulesRefError as exc:
        if args.debug:
            raise
        print(f"rules-ref {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except _Terminated:
        print(f"rules-ref {args.command}: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print(f"rules-ref {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_OK
    except Exception as exc:
        if args.debug:
            raise
        print(f"rules-ref {args.command}: internal error: {type(exc).__name__}: "
              f"{one_line(str(exc))} (a bug in rules-ref; --debug shows the traceback)",
              file=sys.stderr)
        return EXIT_INTERNAL
    return code


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that every ``finally`` runs."""


def _end_on_sigterm() -> Callable[[], None] | None:
    """Turn SIGTERM into an exception (so the adapter is ended too); return the undo."""
    import signal
    import threading

    def terminated(signum: int, frame: object) -> None:
        raise _Terminated

    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.signal(signal.SIGTERM, terminated)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


def one_line(text: str, limit: int = 2000) -> str:
    """An error message as one line of at most ``limit`` characters, control characters escaped.

    Messages quote what was typed or read; a quoted value of more than 60
    characters is cut to 60.
    """
    text = re.sub(r"'([^']{60})[^']{2,}'", r"'\1…'", text)
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit] + "…"


def _quiet_stdout() -> None:
    """After a closed pipe (``rules-ref … | head``), keep Python from complaining at exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass

