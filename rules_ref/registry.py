"""The rule registry: rule IDs from ``spec/rules.toml`` and the code that implements them.

``spec/rules.toml`` is the single source of rule text. Code never restates a
rule; it points at one with the :func:`implements` decorator, which records
the function under each rule ID it names. Tools (the traceability test, the
docs) read :data:`IMPLEMENTATIONS` to tie every rule to its code.

:func:`load_ambiguities` reads the companion catalogue
``spec/ambiguities.toml``: what the seed text leaves open (A-01 … A-45),
the project's decisions (D-01 … D-21), and the rules that carry each.

>>> from rules_ref import registry
>>> registry.rule("TRICK.CANCEL").title
'Identical cards cancel'
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

#: Rule ID -> qualified names of the functions that implement it.
IMPLEMENTATIONS: dict[str, list[str]] = {}


def implements(*rule_ids: str) -> Callable[[F], F]:
    """Mark a function as the implementation of the given rule IDs.

    The IDs are checked against the registry by the test suite, not at import
    time, so importing the package never reads a file.
    """

    def mark(func: F) -> F:
        existing: tuple[str, ...] = getattr(func, "__rule_ids__", ())
        func.__rule_ids__ = existing + rule_ids  # type: ignore[attr-defined]
        name = f"{func.__module__}.{func.__qualname__}"
        for rule_id in rule_ids:
            IMPLEMENTATIONS.setdefault(rule_id, []).append(name)
        return func

    return mark


def spec_dir() -> Path:
    """The directory holding the normative spec.

    In a source checkout that is ``spec/`` beside the package; an installed
    wheel carries a copy as ``rules_ref/_spec``.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "_spec", here.parent / "spec"):
        if (candidate / "rules.toml").is_file():
            return candidate
    raise FileNotFoundError("spec/rules.toml not found beside the rules_ref package")


@dataclass(frozen=True, slots=True)
class Source:
    seed: str
    sentence: str
    text: str


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the registry, as written in ``spec/rules.toml``."""

    id: str
    group: str
    title: str
    statement: str
    decision: str
    settles: tuple[str, ...]
    why: str
    switches: tuple[str, ...]
    sources: tuple[Source, ...]
    status: str = "normative"


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    title: str


@dataclass(frozen=True, slots=True)
class Registry:
    groups: tuple[Group, ...]
    rules: tuple[Rule, ...]

    def by_id(self) -> dict[str, Rule]:
        return {r.id: r for r in self.rules}


def read(path: Path) -> Registry:
    """Read a rule registry file (the format of ``spec/README.md``).

    Raises :class:`~rules_ref.errors.InputError` naming the file and the
    rule when the file cannot be read, an ID is used twice, or a rule names
    a group the file does not define.
    """
    from .errors import InputError

    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    groups = tuple(Group(g["id"], g["title"]) for g in data["group"])
    known_groups = {g.id for g in groups}
    rules: list[Rule] = []
    for r in data["rule"]:
        where = f"{path}: rule {r.get('id')!r}"
        if any(existing.id == r["id"] for existing in rules):
            raise InputError(f"{where}: the ID is used twice")
        if r["group"] not in known_groups:
            raise InputError(f"{where}: unknown group {r['group']!r}")
        rules.append(Rule(
            id=r["id"],
            group=r["group"],
            title=r["title"],
            statement=r["statement"].strip(),
            decision=r.get("decision", ""),
            settles=tuple(r.get("settles", ())),
            why=r.get("why", "").strip(),
            switches=tuple(r.get("switches", ())),
            sources=tuple(
                Source(s.get("seed", ""), s.get("sentence", ""), s.get("text", ""))
                for s in r.get("source", ())
            ),
            status=r.get("status", "normative"),
        ))
    return Registry(groups, tuple(rules))


@cache
def load() -> Registry:
    """Read ``spec/rules.toml`` (once) into a :class:`Registry`."""
    return read(spec_dir() / "rules.toml")


def rule(rule_id: str) -> Rule:
    """The rule with this ID; :class:`KeyError` if the registry has none."""
    return load().by_id()[rule_id]


def rule_ids() -> tuple[str, ...]:
    return tuple(r.id for r in load().rules)


# --- the catalogue of ambiguities and decisions (spec/ambiguities.toml) -----------------

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

    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    if data.get("format") != AMBIGUITIES_FORMAT:
        raise InputError(f"{path}: `format` must be {AMBIGUITIES_FORMAT!r}")
    ambiguities: list[Ambiguity] = []
    for t in _amb_tables(data, "ambiguity", path):
        where = f"{path}: ambiguity {t.get('id')!r}"
        ambiguities.append(Ambiguity(
            id=_amb_text(t, "id", where), title=_amb_text(t, "title", where),
            question=_amb_text(t, "question", where), seed=_amb_ids(t, "seed", where),
            quote=_amb_text(t, "quote", where), translations=_amb_text(t, "translations", where),
            others=_amb_text(t, "others", where), resolution=_amb_text(t, "resolution", where),
            rules=_amb_ids(t, "rules", where)))
    decisions: list[Decision] = []
    for t in _amb_tables(data, "decision", path):
        where = f"{path}: decision {t.get('id')!r}"
        decisions.append(Decision(
            id=_amb_text(t, "id", where), title=_amb_text(t, "title", where),
            summary=_amb_text(t, "summary", where), why=_amb_text(t, "why", where),
            settles=_amb_ids(t, "settles", where), rules=_amb_ids(t, "rules", where)))
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
