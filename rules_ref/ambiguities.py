"""The catalogue of ambiguities and decisions: ``spec/ambiguities.toml``.

What the seed text leaves open (A-01 … A-45), the project's decisions
(D-01 … D-21), and the rules that carry each, read into typed entries.
The rule registry itself is :mod:`rules_ref.registry`.

>>> load_ambiguities().ambiguity("A-04").rules
('TRICK.CANCEL',)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from .registry import read_toml, spec_dir

AMBIGUITIES_FORMAT = "cancellation-hearts-ambiguities"


@dataclass(frozen=True, slots=True)
class Ambiguity:
    """One open point of the seed text (a ``[[ambiguity]]`` table)."""

    id: str
    title: str
    question: str
    seed: tuple[str, ...]  # sentence IDs of the reconstructed seed text
    quote: str
    translations: str
    others: str
    resolution: str
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Decision:
    """One project decision (a ``[[decision]]`` table)."""

    id: str
    title: str
    summary: str
    why: str
    settles: tuple[str, ...]
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Catalogue:
    ambiguities: tuple[Ambiguity, ...]
    decisions: tuple[Decision, ...]

    def ambiguity(self, ambiguity_id: str) -> Ambiguity:
        """The entry with this ID; :class:`KeyError` if there is none."""
        for a in self.ambiguities:
            if a.id == ambiguity_id:
                return a
        raise KeyError(ambiguity_id)

    def decision(self, decision_id: str) -> Decision:
        """The entry with this ID; :class:`KeyError` if there is none."""
        for d in self.decisions:
            if d.id == decision_id:
                return d
        raise KeyError(decision_id)


#: An entry of the catalogue: an ambiguity or a decision.
E = TypeVar("E", "Ambiguity", "Decision")


def _amb_text(table: dict[str, Any], key: str, where: str) -> str:
    from .errors import InputError

    value = table.get(key)
    if not isinstance(value, str):
        raise InputError(f"{where}: `{key}` must be a string")
    return " ".join(value.split())


def _amb_ids(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    from .errors import InputError

    value = table.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{where}: `{key}` must be a list of strings")
    return tuple(value)


def _entry(kind: type[E], table: dict[str, Any], where: str) -> E:
    """An ambiguity or a decision read from its table: each field a text, or a list of IDs
    where the field holds a tuple."""
    values: dict[str, Any] = {
        f.name: (_amb_ids if str(f.type).startswith("tuple") else _amb_text)(table, f.name, where)
        for f in fields(kind)}
    return kind(**values)


def _amb_tables(data: dict[str, Any], key: str, path: Path) -> list[dict[str, Any]]:
    from .errors import InputError

    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise InputError(f"{path}: `{key}` must be an array of tables")
    return value


def read_ambiguities(path: Path) -> Catalogue:
    """Read a catalogue file; :class:`~rules_ref.errors.InputError` naming the entry if malformed.

    Entries stay in file order; an ID used twice is an error here, and
    the tests check that A-01 … A-45 and D-01 … D-21 are all present.
    """
    from .errors import InputError

    data = read_toml(path)
    if data.get("format") != AMBIGUITIES_FORMAT:
        raise InputError(f"{path}: `format` must be {AMBIGUITIES_FORMAT!r}")
    ambiguities = [_entry(Ambiguity, t, f"{path}: ambiguity {t.get('id')!r}")
                   for t in _amb_tables(data, "ambiguity", path)]
    decisions = [_entry(Decision, t, f"{path}: decision {t.get('id')!r}")
                 for t in _amb_tables(data, "decision", path)]
    for kind, ids in (("ambiguity", [a.id for a in ambiguities]),
                      ("decision", [d.id for d in decisions])):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise InputError(f"{path}: {kind} {twice[0]!r}: the ID is used twice")
    return Catalogue(tuple(ambiguities), tuple(decisions))


@cache
def load_ambiguities() -> Catalogue:
    """Read ``spec/ambiguities.toml`` (once) into a :class:`Catalogue`.

    >>> load_ambiguities().ambiguity("A-04").rules
    ('TRICK.CANCEL',)
    """
    return read_ambiguities(spec_dir() / "ambiguities.toml")
