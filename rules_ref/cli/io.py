"""Reading JSON input files and writing output files safely: the command line's names.

The functions live in :mod:`rules_ref.conformance.fileio`, below the command line, so
that the conformance vectors read and write files the same way without
importing the command-line package. :data:`MAX_INPUT_BYTES` here is the
limit every command applies to a JSON input file (``spec/limits.md``).
"""

from __future__ import annotations

from typing import Any

from ..conformance import fileio
from ..conformance.fileio import (
    is_dir,
    make_output_dir,
    parse_json_text,
    shown_path,
    write_text_atomic,
)

__all__ = ["MAX_INPUT_BYTES", "is_dir", "make_output_dir", "parse_json_text", "read_json_file",
           "shown_path", "write_text_atomic"]

#: The largest JSON input file read (rulesets, records, replays, vector files).
MAX_INPUT_BYTES = fileio.MAX_INPUT_BYTES


def read_json_file(path: str) -> Any:
    """Read a JSON file (``-`` for standard input), with a clear error for each failure."""
    return fileio.read_json_file(path, MAX_INPUT_BYTES)
