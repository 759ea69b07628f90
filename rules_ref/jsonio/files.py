"""Reading JSON input files and writing output files safely: every command's files.

Input files are read with a size limit and parsed as JSON only (no pickle,
no evaluation of any kind); output is written to a temporary file beside
the target and renamed into place, so a partial file is never left behind
as if complete, and nothing is written outside the directory the target
names. The limits are in ``spec/limits.md``.

The command line's inputs (rulesets, records, replays, expectations) and
the kit's files (vector files, replays, reports) are all read and written
with these functions, so that every file is read and written one way; the
module sits below both, so that the kit never imports the command line.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..wording import json_syntax
from .nesting import nests_deeper

#: The largest JSON input file read (rulesets, records, replays, vector files).
MAX_INPUT_BYTES = 64 * 1024 * 1024
#: The deepest nesting of lists and objects in a JSON input (no format of the kit needs 10).
MAX_INPUT_DEPTH = 100


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def shown_path(path: str) -> str:
    """A path as shown in a message: control characters escaped, at most 200 characters."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)
    return shown if len(shown) <= 200 else shown[:200] + "…"


def is_dir(path: Path) -> bool:
    """``path.is_dir()``, but False (not an exception) for a name too long or with a NUL."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def parse_json_text(text: str, where: str) -> Any:
    """Parse JSON, naming the line and column of a syntax error.

    A text whose lists and objects nest more than :data:`MAX_INPUT_DEPTH`
    deep is refused before it is parsed.
    """
    if nests_deeper(text, MAX_INPUT_DEPTH):
        raise InputError(f"{where}: lists or objects nest more than {MAX_INPUT_DEPTH} deep (the "
                         "limit of a JSON input)")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not valid JSON: {json_syntax(exc.msg)} at line "
                         f"{exc.lineno} column {exc.colno}") from None
    except ValueError as exc:  # NaN/Infinity, or an integer of more than 4300 digits
        text = str(exc)
        raise InputError(f"{where}: not valid JSON: "
                         f"{text if len(text) <= 120 else text[:120] + '…'}") from None


def read_input_bytes(path: str, where: str, limit: int, kind: str,
                     missing: str = "no such file") -> bytes:
    """The bytes of an input file (``-`` for standard input), at most ``limit`` of them.

    Every failure is one :class:`InputError` naming ``where``: a directory, a
    missing file (``missing`` says what to give instead), no permission, a
    file that cannot be read, or one larger than ``limit`` (the limit of a
    ``kind`` input).
    """
    import sys

    if path != "-" and is_dir(Path(path)):
        raise InputError(f"{where}: is a directory, not a {kind} file")
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with Path(path).open("rb") as fh:
                data = fh.read(limit + 1)
    except FileNotFoundError:
        raise InputError(f"{where}: {missing}") from None
    except PermissionError:
        raise InputError(f"{where}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL character in the path
        raise InputError(f"{where}: cannot read: {exc}") from None
    if len(data) > limit:
        raise InputError(f"{where}: larger than {limit} bytes (the limit of a {kind} input"
                         f"{' file' if kind == 'JSON' else ''})")
    return data


def read_json_file(path: str, limit: int | None = None) -> Any:
    """Read a JSON file (``-`` for standard input), with a clear error for each failure.

    ``limit`` is the largest size read, :data:`MAX_INPUT_BYTES` by default.
    """
    where = shown_path(path)
    data = read_input_bytes(path, where, MAX_INPUT_BYTES if limit is None else limit, "JSON")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{where}: not UTF-8 text (byte {exc.start}, line {line})") from None
    if not text.strip():
        raise InputError(f"{where}: {'standard input' if path == '-' else 'the file'} is empty, "
                         "where JSON was expected")
    return parse_json_text(text, where)


def make_output_dir(path: str) -> Path:
    """Create the output directory ``path`` (and its parents) if missing; return it."""
    directory = Path(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError(f"{shown_path(path)}: exists and is not a directory") from None
    except OSError as exc:
        raise InputError(f"{shown_path(path)}: cannot create the directory: "
                         f"{exc.strerror or exc}") from None
    except ValueError as exc:
        raise InputError(f"{shown_path(path)}: cannot create the directory: {exc}") from None
    if not is_dir(directory):
        raise InputError(f"{shown_path(path)}: exists and is not a directory")
    return directory


def _mode_for(target: Path) -> int:
    """The permissions a new file would get (the umask applied), or those of the file replaced."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` via a temporary file and a rename.

    The temporary file is created in the target's own directory (so the
    rename is atomic and nothing is written elsewhere) and removed if
    anything goes wrong; a failure raises :class:`InputError` naming the path.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    where = shown_path(path)
    if not is_dir(directory):
        raise InputError(f"{where}: directory {shown_path(str(directory))} does not exist")
    if is_dir(target):
        raise InputError(f"{where}: is a directory")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise InputError(f"{where}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"{where}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
