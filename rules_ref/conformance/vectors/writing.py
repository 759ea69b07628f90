"""Writing the vector files: each kind's cases as a document, atomically into a directory.

:func:`build_files` generates every file's text (file name -> text) from
the generators of :mod:`.kinds`; :func:`generate` writes them (``rules-ref
vectors generate``) and removes vector files the reference no longer makes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import RulesRefError
from ..fileio import make_output_dir, read_json_file, write_text_atomic
from .files import CONTRACT_VERSION, FORMAT, VECTORS_VERSION, Case
from .jsontext import dumps
from .kinds import GENERATORS, KIND_TEXT
from .kinds.transcript import TRANSCRIPTS, gen_transcript


def document(kind: str, cases: list[Case], description: str | None = None) -> dict[str, Any]:
    """A vector file's JSON object: the format, the versions, the kind and its cases."""
    return {"format": FORMAT, "contract_version": CONTRACT_VERSION,
            "vectors_version": VECTORS_VERSION, "kind": kind,
            "description": description or KIND_TEXT[kind], "cases": cases}


def build_files() -> dict[str, str]:
    """Every vector file: file name -> text."""
    files: dict[str, str] = {}
    for kind, gen in GENERATORS.items():
        files[f"{kind}.json"] = dumps(document(kind, gen()))
    for name, players, seed, dealer, last in TRANSCRIPTS:
        case = gen_transcript(name, players, seed, dealer, last)
        files[f"transcript-{name}.json"] = dumps(document(
            "transcript", [case], f"{KIND_TEXT['transcript']} {case['description']}"))
    return files


def generate(out: Path) -> list[Path]:
    """Write every vector file into ``out`` (created if missing); return the paths.

    Vector files of ``out`` that the reference no longer generates are removed,
    so that a directory never keeps stale cases; other files are left alone.
    """
    make_output_dir(str(out))
    written = []
    for name, text in build_files().items():
        path = out / name
        write_text_atomic(str(path), text)
        written.append(path)
    for path in sorted(out.glob("*.json")):
        if path not in written and _is_vector_file(path):
            path.unlink()
    return written


def _is_vector_file(path: Path) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    try:
        data = read_json_file(str(path))
    except RulesRefError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT
