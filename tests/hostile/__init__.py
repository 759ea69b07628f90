"""Hostile input: bad files, bad arguments, faulty adapters; see ``spec/limits.md``."""

from __future__ import annotations

import contextlib
import io

from rules_ref.cli import main


def cli(*args: str) -> tuple[int, str, str]:
    """Run ``rules-ref ARGS`` in this process: (exit status, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's own errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()
