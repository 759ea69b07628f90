"""What the subcommands share: argument types (each bad value gets one clear message), and
the commands they suggest, written for the Python this program runs on."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..deal import FEWEST_PLAYERS, MASK64, MAX_PLAYERS, MIN_PLAYERS
from ..errors import InputError
from ..ruleset import Ruleset, preset, presets


def shown(text: str, limit: int = 40) -> str:
    """An argument as a message quotes it: ``repr``, cut to ``limit`` characters."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else quoted[:limit] + "…"


def players_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
    if not FEWEST_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"{n} players: the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, or "
            f"{FEWEST_PLAYERS} to {MAX_PLAYERS} under min_players = {FEWEST_PLAYERS} "
            "(PLAYERS.COUNT)")
    return n


def seed_arg(text: str) -> int:
    try:
        n = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
    if not 0 <= n <= MASK64:
        raise argparse.ArgumentTypeError(f"{shown(text)}: a seed is 0 to 2**64-1")
    return n


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{shown(text)} must be 1 or more")
    return n


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{shown(text)} must be from {low} to {high}")
        return n

    parse.__name__ = "whole number"
    return parse


def nonnegative_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{shown(text)} must be 0 or more")
    return n


#: The longest ``--timeout`` accepted (a day).
MAX_TIMEOUT = 86_400.0


def positive_seconds(text: str) -> float:
    """A number of seconds: positive and finite, at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number of seconds") from None
    if not 0 < value <= MAX_TIMEOUT:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"{shown(text)} must be a positive number of seconds, at most {MAX_TIMEOUT:g}")
    return value


def add_ruleset_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="a named ruleset: " + ", ".join(presets()) + " (default: spruce)")
    p.add_argument("--ruleset", default=None, metavar="FILE",
                   help="a JSON file of switch values (see spec/variants.toml)")
    p.add_argument("--target", type=positive_int, default=None,
                   help="the game-end target (switch `target`)")


def ruleset_from_args(args: argparse.Namespace) -> Ruleset:
    from ..jsonio.files import read_json_file
    from ..jsonio.serialize import ruleset_from_json

    if args.preset is not None and args.ruleset is not None:
        raise InputError("give --preset or --ruleset, not both")
    rs = preset(args.preset) if args.preset is not None else Ruleset()
    if args.ruleset is not None:
        data = read_json_file(args.ruleset)
        if isinstance(data, dict) and "format" in data:
            raise InputError(f"{shown(args.ruleset, 200)[1:-1]}: a file of format "
                             f"{str(data['format'])[:60]!r}, not a ruleset (a ruleset file is "
                             "a JSON object of switches, spec/variants.toml)")
        rs = ruleset_from_json(data, args.ruleset)
    if args.target is not None:
        rs = Ruleset.from_dict({**rs.to_dict(), "target": args.target})
    return rs


# --- commands suggested to the user ------------------------------------------------------


def this_python() -> str:
    """This program's own Python, as a command names it (relative when under the current
    directory): ``make play``'s ``.venv/bin/python``, whether or not that environment is
    active, where a bare ``python`` may be another that lacks the package."""
    import os
    import shlex
    import sys

    return shlex.quote(_shown(os.path.abspath(sys.executable)))


def _shown(path: str) -> str:
    import os

    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith("..") else relative


def adapter_command(words: list[str], command: str) -> list[str]:
    """The adapter command given after ``--`` to ``rules-ref COMMAND`` (an error if none)."""
    words = words[1:] if words and words[0] == "--" else list(words)
    if not words:
        raise InputError("no adapter command: give it after --, for example "
                         f"rules-ref {command} -- {reference_adapter()}")
    return words


def reference_adapter() -> str:
    """The command that runs the reference adapter (``rules-ref adapter``), wherever it is.

    The ``rules-ref`` program beside this Python when there is one (``.venv/bin/rules-ref``,
    which runs with no environment active, where a bare ``rules-ref`` is not on the path),
    else this Python running the package.
    """
    import os
    import shlex
    import sys

    script = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "rules-ref")
    if os.path.isfile(script):
        return f"{shlex.quote(_shown(script))} adapter"
    return f"{this_python()} -m rules_ref adapter"


#: What an adapter's standard error says when its Python cannot import this package.
NO_PACKAGE = "No module named 'rules_ref'"


def fault_cause(kind: str, detail: str, stderr: str) -> str | None:
    """The cause of an adapter fault the command line can name, from the fault and the
    adapter's standard error: the reference adapter started where it cannot run."""
    if NO_PACKAGE in stderr:
        return ("the adapter's Python cannot import rules_ref (it is not the Python rules-ref "
                f"is installed in): run the reference adapter as {reference_adapter()}")
    if kind == "start" and detail == "command not found: rules-ref":
        return ("rules-ref is not on the path (its environment is not active): run the "
                f"reference adapter as {reference_adapter()}")
    return None
