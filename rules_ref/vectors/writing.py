"""Writing the vector files: each kind's cases as a document, atomically into a directory.

:func:`build_files` generates every file's text (file name -> text) of one
version from the generators of :mod:`.kinds` (version 2 adds the
position-start forms of :mod:`.position_forms` and, to each protocol case,
the fault that proves it tests what it claims, :mod:`.proof`, and what its
outcome depends on, :mod:`.requirements`; version 1 holds only the
cases, switches and presets it knew, :mod:`.versions`); :func:`generate` writes
them (``rules-ref vectors generate``) and removes vector files the
reference no longer makes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RulesRefError
from ..jsonio.files import make_output_dir, read_json_file, write_text_atomic
from .files import FORMAT, VERSIONS, Case
from .jsontext import dumps
from .kinds import GENERATORS, KIND_TEXT
from .kinds.transcript import TRANSCRIPTS, gen_transcript
from .position_forms import with_position_forms
from .proof import with_proofs
from .requirements import with_analysis
from .served import complete
from .versions import for_version, version_presets


def document(kind: str, cases: list[Case], description: str | None = None,
             version: int = 1) -> dict[str, Any]:
    """A vector file's JSON object: the format, the versions, the kind and its cases."""
    contract, content = VERSIONS[version]
    return {"format": FORMAT, "contract_version": contract, "vectors_version": content,
            "kind": kind, "description": description or KIND_TEXT[kind], "cases": cases}


def build_files(version: int = 1) -> dict[str, str]:
    """Every vector file of ``version`` (a key of :data:`.files.VERSIONS`): file name -> text.

    From version 2 on, each kind also holds the cases built for what a correct engine of
    one ruleset would leave untested (:func:`.served.complete`).
    """
    kinds: dict[str, list[Case]] = {}
    for kind, gen in GENERATORS.items():
        cases = [c for c in (for_version(version, case) for case in gen()) if c is not None]
        if version >= 2:
            cases = with_analysis(kind, with_proofs(kind, with_position_forms(kind, cases)))
        kinds[kind] = cases
    transcripts: dict[str, Case] = {}
    played = version_presets(version)
    for name, players, seed, dealer, last in TRANSCRIPTS:
        if name not in played:
            continue
        case = gen_transcript(name, players, seed, dealer, last, played[name])
        version_case = for_version(version, case)
        assert version_case is not None, f"the transcript of {name} has no version {version} form"
        if version >= 2:
            version_case = with_analysis("transcript", with_proofs("transcript",
                                                                   [version_case]))[0]
        transcripts[name] = version_case
    if version >= 2:
        kinds = complete({**kinds, "transcript": list(transcripts.values())})
    files = {f"{kind}.json": dumps(document(kind, kinds[kind], version=version))
             for kind in GENERATORS}
    for name, case in transcripts.items():
        files[f"transcript-{name}.json"] = dumps(document(
            "transcript", [case], f"{KIND_TEXT['transcript']} {case['description']}", version))
    return files


def generate(out: Path, version: int = 1) -> list[Path]:
    """Write every vector file of ``version`` into ``out`` (created if missing); return the paths.

    Vector files of ``out`` that the reference no longer generates are removed,
    so that a directory never keeps stale cases; other files are left alone.
    """
    make_output_dir(str(out))
    written = []
    for name, text in build_files(version).items():
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
