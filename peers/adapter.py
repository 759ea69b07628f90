#!/usr/bin/env python3
"""An engine harness as an adapter: ``peers/adapter.py ENGINE [--declare MODE] [--checkout DIR]``.

ENGINE is ``allanh`` or ``crcowan``. ``--declare preset`` (the default) declares in the hello
every switch value the engine plays; ``--declare default`` declares none, as an implementer who
has not yet read spec/variants.toml would, so that the runner tests the engine against the
reference default. The checkout is ``--checkout DIR`` or the engine's environment variable
(``PEERS_ALLANH``, ``PEERS_CRCOWAN``): a folder of the engine's files or a git directory holding
the pinned commit. A missing or wrong checkout is one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from peers.harness.checkout import CheckoutError
from peers.harness.protocol import Engine, Loop


def engine(name: str, checkout: str | None, declare: str) -> Engine:
    if name == "allanh":
        from peers.allanh.engine import AllanhEngine

        return AllanhEngine(checkout, declare)
    from peers.crcowan.engine import CrcowanEngine

    return CrcowanEngine(checkout, declare)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="peers/adapter.py", description=__doc__.splitlines()[0])
    parser.add_argument("engine", choices=["allanh", "crcowan"])
    parser.add_argument("--declare", choices=["preset", "default"], default="preset")
    parser.add_argument("--checkout")
    args = parser.parse_args(argv)
    try:
        harness = engine(args.engine, args.checkout, args.declare)
    except CheckoutError as exc:
        print(f"peers/adapter.py {args.engine}: {exc}", file=sys.stderr)
        return 2
    return Loop(harness).run(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
