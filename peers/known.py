"""What each engine's ``known.toml`` says, and the expectations file written from it."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENGINES = ("allanh", "crcowan")
NARROWING = ("action", "card", "field")


@dataclass(frozen=True)
class Known:
    """One entry of a ``known.toml``: a bug of the engine, or what its harness cannot reach."""

    kind: str  # "bug" or "unreachable"
    rule: str | None
    words: str
    why: str
    file: str | None = None
    function: str | None = None
    expected: bool = False  # an expectation of the preset run
    narrowing: tuple[tuple[str, str], ...] = ()

    def matches(self, cls: dict[str, Any]) -> bool:
        """Does a divergence class of a conform summary fall under this entry?"""
        return self.rule is not None and cls["rule"] == self.rule

    def expectation(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"rule": self.rule, **dict(self.narrowing)}
        where = f" ({self.file}, {self.function})" if self.file else ""
        entry["note"] = f"{'bug' if self.kind == 'bug' else 'not reachable'}: {self.words}{where}"
        return entry


def known(engine: str) -> list[Known]:
    """The entries of ``peers/ENGINE/known.toml``, bugs first."""
    data = tomllib.loads((HERE / engine / "known.toml").read_text(encoding="utf-8"))
    out = []
    for kind in ("bug", "unreachable"):
        for e in data.get(kind, []):
            out.append(
                Known(
                    kind=kind,
                    rule=e.get("rule"),
                    words=e["words"],
                    why=e["why"],
                    file=e.get("file"),
                    function=e.get("function"),
                    expected=kind == "bug" or bool(e.get("expected", False)),
                    narrowing=tuple((k, e[k]) for k in NARROWING if k in e),
                )
            )
    return out


def expect_path(engine: str) -> Path:
    return HERE / engine / "expect.json"


def expect_text(engine: str) -> str:
    """The expectations file of the engine's preset run, as committed."""
    entries = [k.expectation() for k in known(engine) if k.expected]
    document = {
        "format": "cancellation-hearts-conform-expect",
        "version": 1,
        "description": f"The known bugs of the {engine} engine under its preset (written by "
        f"python3 peers/run.py --write-expect from peers/{engine}/known.toml).",
        "expected": entries,
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
