"""Reading JSON input files and writing output files safely.

Input files are read with a size limit and parsed as JSON only; output is
written to a temporary file beside the target and renamed into place, so a
partial file is never left behind as if complete.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import InputError

MAX_INPUT_BYTES = 64 * 1024 * 1024


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_json_text(text: str, where: str) -> Any:
    """Parse JSON, naming the line and column of a syntax error."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{where}: not valid JSON: {exc}") from None


def read_json_file(path: str) -> Any:
    """Read a JSON file (``-`` for standard input), with a clear error for each failure."""
    import sys

    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            p = Path(path)
            if p.is_dir():
                raise InputError(f"{path}: is a directory, not a JSON file")
            with p.open("rb") as fh:
                data = fh.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{path}: larger than {MAX_INPUT_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return parse_json_text(text, path)


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"{path}: directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
