"""``check_dir`` on a tampered copy of the published vectors: every tampering is named.

The copy holds the two files tampered with: every problem looked for is within
one of them or between them, and the other files would only be replayed again
(``test_vectors.py`` checks the whole published directory).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

from rules_ref.vectors.checking import check_dir

ROOT = Path(__file__).resolve().parents[2]


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def test_every_tampering_is_named(tmp_path: Path) -> None:
    out = tmp_path / "v1"
    out.mkdir()
    for name in ("card-notation.json", "trick.json"):
        shutil.copy(ROOT / "spec" / "vectors" / "v1" / name, out / name)

    def notation(data: dict[str, Any]) -> None:
        cases = data["cases"]
        cases[0]["expected"] = {"canonical": "3C", "index": 1}
        twin = copy.deepcopy(cases[1])
        cases.append(twin)
        stray = copy.deepcopy(cases[2])
        stray["id"] = "elsewhere/" + stray["id"].split("/", 1)[1]
        cases.append(stray)

    def trick(data: dict[str, Any]) -> None:
        data["contract_version"] = 7

    _edit(out / "card-notation.json", notation)
    _edit(out / "trick.json", trick)
    problems = check_dir(out).problems
    first = json.loads((ROOT / "spec/vectors/v1/card-notation.json").read_text())["cases"]
    assert (f"card-notation.json: {first[0]['id']}: the reference now gives "
            '{"canonical": "2C", "index": 0}') in problems
    assert (f"card-notation.json: duplicate id {first[1]['id']} (also in card-notation.json)"
            in problems)
    stray_id = "elsewhere/" + first[2]["id"].split("/", 1)[1]
    assert f"card-notation.json: id {stray_id} does not start with card-notation/" in problems
    assert any(p.startswith("trick.json: contract_version 7, this runner follows ")
               for p in problems)
    assert any(p.startswith("trick.json: contract_version 7, but ") and
               p.endswith(": one directory, one contract") for p in problems)
