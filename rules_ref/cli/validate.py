"""``rules-ref validate``."""

from __future__ import annotations

import argparse

from ..errors import InputError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rest", nargs=argparse.REMAINDER)


def run(args: argparse.Namespace) -> int:
    raise InputError("not available in this build")
