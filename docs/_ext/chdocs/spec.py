"""Read the normative spec (``spec/rules.toml``, ``spec/variants.toml``, ``spec/sources.toml``).

The site is generated from these files only. The rules and the source keys are
read by :mod:`rules_ref.registry`, as the engine and the command line read them,
into its :class:`~rules_ref.registry.Rule` and
:class:`~rules_ref.registry.SourceKey`; this module adds the switches and presets
of ``variants.toml`` and gathers everything in one :class:`Spec`. It needs
nothing but the standard library, so it can be tested without Sphinx.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules_ref import registry
from rules_ref.errors import InputError
from rules_ref.registry import Group, Rule, SourceKey


class SpecError(Exception):
    """A spec file that cannot be read as the format spec/README.md describes."""


@dataclass(frozen=True, slots=True)
class Citation:
    key: str
    url: str
    note: str


@dataclass(frozen=True, slots=True)
class SwitchValue:
    value: object
    meaning: str
    sources: tuple[Citation, ...]


@dataclass(frozen=True, slots=True)
class Switch:
    name: str
    rules: tuple[str, ...]
    type: str
    default: object
    minimum: int | None
    maximum: int | None
    description: str
    values: tuple[SwitchValue, ...]


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    title: str
    sources: tuple[Citation, ...]
    values: dict[str, object]
    filled: tuple[str, ...]
    note: str


@dataclass(frozen=True, slots=True)
class Unsupported:
    source: str
    url: str
    feature: str
    reason: str


@dataclass(frozen=True, slots=True)
class Spec:
    groups: tuple[Group, ...]
    rules: tuple[Rule, ...]
    switches: tuple[Switch, ...]
    presets: tuple[Preset, ...]
    unsupported: tuple[Unsupported, ...]
    sources: tuple[SourceKey, ...]  # the published sources (kind "source")
    seed_languages: dict[str, str]  # seed file -> its language

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def switch(self, name: str) -> Switch:
        for s in self.switches:
            if s.name == name:
                return s
        raise KeyError(name)

    def rule_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules)

    def rules_in_force(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if not r.withdrawn)

    def group_rules(self, group_id: str) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.group == group_id)


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        return registry.read_toml(path)
    except InputError as exc:
        raise SpecError(str(exc)) from None


def _str(table: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise SpecError(f"{where}: `{key}` must be a string")
    return value.strip()


def _strs(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(f"{where}: `{key}` must be a list of strings")
    return tuple(value)


def _tables(data: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise SpecError(f"{where}: `{key}` must be an array of tables")
    return value


def _citations(table: dict[str, Any], where: str) -> tuple[Citation, ...]:
    return tuple(Citation(_str(c, "key", where), _str(c, "url", where, ""),
                          _str(c, "note", where, ""))
                 for c in _tables(table, "sources", where))


def read_rules(path: Path) -> tuple[tuple[Group, ...], tuple[Rule, ...]]:
    """The groups and rules of ``rules.toml``, in file order, read by :mod:`rules_ref.registry`."""
    try:
        read = registry.read(path)
    except (InputError, KeyError, TypeError, AttributeError) as exc:
        raise SpecError(f"{path}: {exc}") from None
    return read.groups, read.rules


def read_variants(path: Path) -> tuple[tuple[Switch, ...], tuple[Preset, ...],
                                       tuple[Unsupported, ...]]:
    """The switches, presets and unsupported features of ``variants.toml``."""
    data = _load_toml(path)
    switches = []
    for t in _tables(data, "switch", str(path)):
        name = _str(t, "name", f"{path} [[switch]]")
        where = f"{path} switch {name}"
        minimum, maximum = t.get("min"), t.get("max")
        switches.append(Switch(
            name=name, rules=_strs(t, "rules", where), type=_str(t, "type", where),
            default=t.get("default"),
            minimum=minimum if isinstance(minimum, int) else None,
            maximum=maximum if isinstance(maximum, int) else None,
            description=" ".join(_str(t, "description", where).split()),
            values=tuple(SwitchValue(v.get("value"), " ".join(_str(v, "meaning", where).split()),
                                     _citations(v, where))
                         for v in _tables(t, "value", where))))
    presets = []
    for t in _tables(data, "preset", str(path)):
        name = _str(t, "name", f"{path} [[preset]]")
        where = f"{path} preset {name}"
        values = t.get("values", {})
        if not isinstance(values, dict):
            raise SpecError(f"{where}: `values` must be a table")
        presets.append(Preset(name=name, title=_str(t, "title", where),
                              sources=_citations(t, where), values=dict(values),
                              filled=_strs(t, "filled", where),
                              note=" ".join(_str(t, "note", where, "").split())))
    unsupported = tuple(
        Unsupported(_str(t, "source", str(path)), _str(t, "url", str(path), ""),
                    " ".join(_str(t, "feature", str(path)).split()),
                    " ".join(_str(t, "reason", str(path)).split()))
        for t in _tables(data, "unsupported", str(path)))
    return tuple(switches), tuple(presets), unsupported


def read_sources(path: Path) -> tuple[tuple[SourceKey, ...], dict[str, str]]:
    """The published sources of ``sources.toml`` and the language of each seed file."""
    try:
        keys = registry.read_source_keys(path)
    except (InputError, KeyError, TypeError) as exc:
        raise SpecError(f"{path}: {exc}") from None
    return (tuple(k for k in keys if k.kind == "source"),
            {k.key: k.title for k in keys if k.kind == "seed file"})


def load_spec(spec_dir: Path) -> Spec:
    """Read every spec file the site is generated from; :class:`SpecError` on a bad file."""
    groups, rules = read_rules(spec_dir / "rules.toml")
    switches, presets, unsupported = read_variants(spec_dir / "variants.toml")
    sources, languages = read_sources(spec_dir / "sources.toml")
    return Spec(groups, rules, switches, presets, unsupported, sources, languages)


def format_value(value: object) -> str:
    """A switch value as the spec writes it in prose: lists joined by commas."""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)
