"""What starting an adapter costs: importing the engine brings in only what playing needs.

Every run of ``rules-ref conform`` or ``rules-ref vectors run`` starts its
adapter as a new interpreter (the suite starts about a thousand), so the
reference adapter's imports are a cost paid on every start: the spec's reader
(:mod:`pathlib`, :mod:`tomllib`) is imported where the spec is read
(:func:`rules_ref.registry.spec_dir`, :func:`rules_ref.registry.read_toml`),
never by playing.
"""

from __future__ import annotations

import subprocess
import sys

READERS = ("pathlib", "tomllib")


def _readers_after(statement: str) -> str:
    """Which of :data:`READERS` a fresh interpreter holds after ``statement``."""
    code = f"import sys; {statement}; print(sorted(set({READERS!r}) & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return done.stdout


def test_the_reference_adapter_starts_without_the_spec_reader() -> None:
    assert _readers_after("import rules_ref.protocol.reference_adapter") == "[]\n"


def test_the_probe_sees_the_reader_once_the_spec_is_read() -> None:
    """The probe above finds these modules when they are there (so its "[]" means absent)."""
    statement = "import rules_ref.registry as r; r.spec_toml('variants.toml')"
    assert _readers_after(statement) == "['pathlib', 'tomllib']\n"
