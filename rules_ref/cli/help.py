"""The help text: examples under every command's options, and what a bare ``rules-ref`` shows.

Each command module names its examples (``HELP_EXAMPLES``: the arguments after
``rules-ref`` and what they do); :func:`add_examples` puts them at the end of
that command's ``--help``, where the site's command-line reference shows them too.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence

#: An example: the arguments after ``rules-ref`` (as typed), and what the command does.
Example = tuple[str, str]

#: The width the help is written for.
WIDTH = 79


class Formatter(argparse.HelpFormatter):
    """argparse's formatter, keeping lines that start with two spaces (examples) as they are.

    Paragraphs of the description and the epilog are filled as argparse fills
    them; a paragraph with an indented line is printed as written.
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out = []
        for block in text.split("\n\n"):
            if any(line.startswith("  ") for line in block.splitlines()):
                out.append("\n".join(indent + line for line in block.splitlines()))
            else:
                out.append(super()._fill_text(block, width, indent))
        return "\n\n".join(out)


def examples_text(examples: Sequence[Example]) -> str:
    """The ``examples:`` block: each command line, and under it what it does."""
    lines = ["examples:"]
    for args, meaning in examples:
        lines.append(f"  rules-ref {args}")
        lines += textwrap.wrap(meaning, WIDTH, initial_indent=" " * 6,
                               subsequent_indent=" " * 6)
    return "\n".join(lines)


def add_examples(p: argparse.ArgumentParser, examples: Sequence[Example]) -> None:
    """End ``p``'s help with its examples (after any epilog it has)."""
    p.formatter_class = Formatter
    block = examples_text(examples)
    p.epilog = f"{p.epilog}\n\n{block}" if p.epilog else block
