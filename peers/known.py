"""What each engine's ``known.toml`` says, and the expectations file written from it.

A ``known.toml`` lists the engine's bugs (``[[bug]]``) and what its harness cannot reach
(``[[unreachable]]``), each with an ``id``. An entry names the rule the kit blames and may
narrow it as an expectations file does (``differs``, ``facet``, ``action``, ``card``,
``field``: spec/schemas/expect.schema.json); when the kit blames the same cause on other
rules too, each is a ``[[bug.also]]`` (or ``[[unreachable.also]]``) of the entry, narrowed
the same way. An ``also`` with ``expected = false`` is a class the entry explains when it
shows, not an expectation of the preset run: the run cannot meet it (a position start the
runner sends only in a game that has not diverged, where the cause always diverges first).
``[vectors]`` maps each vector case that fails under the preset to the id of
the entry that is its cause.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENGINES = ("allanh", "crcowan")
NARROWING = ("differs", "facet", "action", "card", "field")


@dataclass(frozen=True)
class Shows:
    """One class the kit reports for an entry: its rule, and what narrows it."""

    rule: str
    narrowing: tuple[tuple[str, str], ...] = ()
    expected: bool = True  # an expectation of the preset run, when its entry is one

    def matches(self, cls: dict[str, Any]) -> bool:
        """Does a divergence class of a conform summary fall under this?

        As the runner's matching (rules_ref.findings.expect) does, on what a class's summary
        carries: its rule, what differs, its facets' words and steps and cards.
        """
        if cls["rule"] != self.rule:
            return False
        facets = cls.get("facets", [])
        for name, value in self.narrowing:
            if name == "differs" and cls.get("what") != value:
                return False
            if name == "facet" and all(f.get("words") != value for f in facets):
                return False
            if name == "action" and all(f.get("step") != value for f in facets):
                return False
            if name == "card" and all(value not in f.get("cards", []) for f in facets):
                return False
        return True

    def expectation(self, note: str) -> dict[str, Any]:
        return {"rule": self.rule, **dict(self.narrowing), "note": note}


@dataclass(frozen=True)
class Known:
    """One entry of a ``known.toml``: a bug of the engine, or what its harness cannot reach."""

    kind: str  # "bug" or "unreachable"
    id: str
    words: str
    why: str
    shows: tuple[Shows, ...] = ()  # the classes it is seen as, the first its own rule's
    file: str | None = None
    function: str | None = None
    expected: bool = False  # an expectation of the preset run
    vectors: tuple[str, ...] = ()  # the vector cases it makes fail under the preset

    @property
    def rule(self) -> str | None:
        return self.shows[0].rule if self.shows else None

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.rule for s in self.shows))

    def matches(self, cls: dict[str, Any]) -> bool:
        """Does a divergence class of a conform summary fall under this entry?"""
        return any(s.matches(cls) for s in self.shows)

    def note(self) -> str:
        where = f" ({self.file}, {self.function})" if self.file else ""
        return f"{'bug' if self.kind == 'bug' else 'not reachable'} {self.id}: {self.words}{where}"

    def expectations(self) -> list[dict[str, Any]]:
        return [s.expectation(self.note()) for s in self.shows if s.expected]


def _shows(entry: dict[str, Any]) -> tuple[Shows, ...]:
    def one(e: dict[str, Any]) -> Shows:
        narrowing = tuple((k, str(e[k])) for k in NARROWING if k in e)
        return Shows(e["rule"], narrowing, bool(e.get("expected", True)))

    own = [one(entry)] if "rule" in entry else []
    return tuple(own + [one(e) for e in entry.get("also", [])])


def known(engine: str) -> list[Known]:
    """The entries of ``peers/ENGINE/known.toml``, bugs first, each case of ``[vectors]``
    given to the entry it names (an id no entry has is an error)."""
    data = tomllib.loads((HERE / engine / "known.toml").read_text(encoding="utf-8"))
    cases: dict[str, list[str]] = {}
    for case, ident in data.get("vectors", {}).items():
        cases.setdefault(ident, []).append(case)
    out = []
    for kind in ("bug", "unreachable"):
        for e in data.get(kind, []):
            out.append(
                Known(
                    kind=kind,
                    id=e["id"],
                    words=e["words"],
                    why=e["why"],
                    shows=_shows(e),
                    file=e.get("file"),
                    function=e.get("function"),
                    expected=kind == "bug" or bool(e.get("expected", False)),
                    vectors=tuple(cases.pop(e["id"], [])),
                )
            )
    if cases:
        raise ValueError(f"peers/{engine}/known.toml: [vectors] names no entry {sorted(cases)}")
    return out


def expect_path(engine: str) -> Path:
    return HERE / engine / "expect.json"


def expect_text(engine: str) -> str:
    """The expectations file of the engine's preset run, as committed."""
    entries = [e for k in known(engine) if k.expected for e in k.expectations()]
    document = {
        "format": "cancellation-hearts-conform-expect",
        "version": 1,
        "description": f"The known bugs of the {engine} engine under its preset (written by "
        f"python3 peers/run.py --write-expect from peers/{engine}/known.toml).",
        "expected": entries,
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
