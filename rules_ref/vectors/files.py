"""What a vector file is, and reading vector files from a directory.

A vector file (``spec/schemas/vectors.schema.json``) is a JSON object with a
``format``, a ``contract_version`` (the runner contract,
``spec/vectors/README.md``), a ``vectors_version`` (the content), a ``kind``
and the ``cases`` of that kind. This module names the kinds and the bounds
of a file (``spec/limits.md``), says where the frozen files live, and loads
a directory of them (:func:`load_dir`, :func:`iter_cases`). What the cases
must look like is :mod:`~rules_ref.vectors.shape`'s business.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..jsonio.files import is_dir, read_json_file, shown_path
from ..registry import spec_dir

Json = Any
Case = dict[str, Any]

FORMAT = "cancellation-hearts-vectors"
#: The frozen directories: N (``spec/vectors/vN``) -> the ``contract_version`` (of the
#: runner contract, spec/vectors/README.md) and ``vectors_version`` (of the content) of
#: its files. Directory 1 stays as published; directory 2 grows with the new cases and
#: switches, and its content version goes up each time (spec/vectors/README.md).
VERSIONS: dict[int, tuple[int, int]] = {1: (1, 1), 2: (2, 7)}
#: The newest directory: what the command line reads unless told otherwise.
LATEST = max(VERSIONS)
#: The contract versions this runner follows (version 2 adds starts from a position).
CONTRACT_VERSIONS = (1, 2)
#: The newest contract version and content version.
CONTRACT_VERSION, VECTORS_VERSION = VERSIONS[LATEST]

#: Kinds that replay through the adapter protocol, in file order.
PROTOCOL_KINDS = ("passing", "legal-plays", "trick", "scoring", "moon", "game-end",
                  "illegal-action", "perft", "transcript")
#: Kinds for an implementation's own unit tests (the protocol cannot express them).
UNIT_KINDS = ("card-notation", "seeded-deal", "seat-view")
KINDS = UNIT_KINDS + PROTOCOL_KINDS


def version_dir(version: int) -> Path:
    """``spec/vectors/vN``: where the frozen vectors of version ``N`` live."""
    return spec_dir() / "vectors" / f"v{version}"


def latest_dir() -> Path:
    """The newest frozen directory (``spec/vectors/v2``), the command line's default."""
    return version_dir(LATEST)


def default_dir() -> Path:
    """``spec/vectors/v1``, the first frozen directory (kept for the callers that read it)."""
    return version_dir(1)


def schema_path() -> Path:
    return spec_dir() / "schemas" / "vectors.schema.json"


@dataclass(frozen=True)
class VectorFile:
    """One vector file as read: where it is and its JSON object."""

    path: Path
    data: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.data.get("kind"))

    @property
    def cases(self) -> list[Case]:
        cases = self.data.get("cases")
        return cases if isinstance(cases, list) else []


#: Bounds on a vector file (``spec/limits.md``); :mod:`~rules_ref.vectors.shape` reads them
#: here at each use.
MAX_CASES_PER_FILE = 10_000
#: At most this many prefix actions, and this many steps, in one case.
MAX_CASE_ACTIONS = 10_000
#: The deepest perft case a runner walks.
MAX_PERFT_DEPTH = 5


def load_dir(directory: Path) -> list[VectorFile]:
    """Every ``*.json`` vector file of ``directory``, in name order.

    Each file is read as every JSON input is (:func:`rules_ref.jsonio.files.read_json_file`:
    a size limit, UTF-8, JSON only); a file that cannot be read, or is not
    a JSON object, raises :class:`InputError` naming it. The cases are not
    checked here: see :func:`.shape.file_problems` and :func:`.shape.require_valid`.
    """
    if not is_dir(directory):
        raise InputError(f"{shown_path(str(directory))}: no such vectors directory")
    try:
        paths = sorted(directory.glob("*.json"))
    except OSError as exc:
        raise InputError(f"{directory}: cannot list the directory: {exc.strerror}") from None
    files = []
    for path in paths:
        data = read_json_file(str(path))
        if not isinstance(data, dict):
            raise InputError(f"{path}: a vector file is a JSON object")
        files.append(VectorFile(path, data))
    if not files:
        raise InputError(f"{directory}: holds no vector files (*.json)")
    return files


def iter_cases(files: Sequence[VectorFile], kinds: Sequence[str] | None = None,
               ) -> Iterator[tuple[VectorFile, Case]]:
    """Every case of the files (of ``kinds``, when given) with its file, in file order."""
    for f in files:
        if kinds is None or f.kind in kinds:
            for case in f.cases:
                yield f, case

