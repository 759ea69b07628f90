"""Argument types shared by the subcommands: each bad value gets one clear message."""

from __future__ import annotations

import argparse

from ..deal import MASK64, MAX_PLAYERS, MIN_PLAYERS
from ..errors import InputError
from ..ruleset import Ruleset, preset, presets


def players_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"{n} players: the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players (PLAYERS.COUNT)")
    return n


def seed_arg(text: str) -> int:
    try:
        n = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n <= MASK64:
        raise argparse.ArgumentTypeError(f"{text!r}: a seed is 0 to 2**64-1")
    return n


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be 1 or more")
    return n


def add_ruleset_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="a named ruleset: " + ", ".join(presets()) + " (default: spruce)")
    p.add_argument("--ruleset", default=None, metavar="FILE",
                   help="a JSON file of switch values (see spec/variants.toml)")
    p.add_argument("--target", type=positive_int, default=None,
                   help="the game-end target (switch `target`)")


def ruleset_from_args(args: argparse.Namespace) -> Ruleset:
    from ..serialize import ruleset_from_json
    from .io import read_json_file

    if args.preset is not None and args.ruleset is not None:
        raise InputError("give --preset or --ruleset, not both")
    rs = preset(args.preset) if args.preset is not None else Ruleset()
    if args.ruleset is not None:
        rs = ruleset_from_json(read_json_file(args.ruleset), args.ruleset)
    if args.target is not None:
        rs = Ruleset.from_dict({**rs.to_dict(), "target": args.target})
    return rs
