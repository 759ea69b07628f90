"""Writing the vector files into a directory: stale vector files go, everything else stays."""

from __future__ import annotations

import json
from pathlib import Path

from rules_ref.vectors.files import FORMAT
from rules_ref.vectors.writing import generate


def test_generate_removes_only_stale_vector_files(tmp_path: Path) -> None:
    out = tmp_path / "vectors"
    out.mkdir()
    stale = out / "retired-kind.json"
    stale.write_text(json.dumps({"format": FORMAT, "cases": []}), encoding="utf-8")
    other = out / "notes.json"
    other.write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    broken = out / "broken.json"
    broken.write_text("{", encoding="utf-8")
    folder = out / "folder.json"
    folder.mkdir()
    link = out / "link.json"
    link.symlink_to(stale)
    written = generate(out)
    assert written and all(p.parent == out for p in written)
    assert not stale.exists()
    assert other.exists() and broken.exists() and folder.is_dir() and link.is_symlink()
    names = sorted(p.name for p in out.glob("*.json"))
    assert names == sorted([*(p.name for p in written), "notes.json", "broken.json",
                            "folder.json", "link.json"])
