"""Argument types shared by the subcommands: each bad value gets one clear message."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..deal import FEWEST_PLAYERS, MASK64, MAX_PLAYERS
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
            f"{n} players: the game is for {FEWEST_PLAYERS} to {MAX_PLAYERS} players, 5 only "
            "under min_players = 5 (PLAYERS.COUNT)")
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
    from ..fileio import read_json_file
    from ..serialize import ruleset_from_json

    if args.preset is not None and args.ruleset is not None:
        raise InputError("give --preset or --ruleset, not both")
    rs = preset(args.preset) if args.preset is not None else Ruleset()
    if args.ruleset is not None:
        rs = ruleset_from_json(read_json_file(args.ruleset), args.ruleset)
    if args.target is not None:
        rs = Ruleset.from_dict({**rs.to_dict(), "target": args.target})
    return rs
