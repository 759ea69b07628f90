"""The rule registry: rule IDs from ``spec/rules.toml`` and the code that implements them.

``spec/rules.toml`` is the single source of rule text. Code never restates a
rule; it points at one with the :func:`implements` decorator, which records
the function under each rule ID it names. Tools (the traceability test, the
docs) read :data:`IMPLEMENTATIONS` to tie every rule to its code.

>>> from rules_ref import registry
>>> registry.rule("TRICK.CANCEL").title
'Identical cards cancel'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from .wording import switch_value

if TYPE_CHECKING:
    import pathlib

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


def spec_dir() -> pathlib.Path:
    """The directory holding the normative spec.

    In a source checkout that is ``spec/`` beside the package; an installed
    wheel carries a copy as ``rules_ref/_spec``.
    """
    # pathlib and tomllib are imported where the spec is read, not with the package: an
    # adapter, which only plays, starts a fifth sooner without them.
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for candidate in (here / "_spec", here.parent / "spec"):
        if (candidate / "rules.toml").is_file():
            return candidate
    raise FileNotFoundError("spec/rules.toml not found beside the rules_ref package")


@dataclass(frozen=True, slots=True)
class Source:
    """Where a rule is in the seed: its files, the sentence's key and its text."""

    seed: str  # the seed files, separated by spaces, or "" when the rule is not in the seed
    sentence: str
    text: str

    @property
    def seeds(self) -> tuple[str, ...]:
        """The seed files that carry the sentence."""
        return tuple(self.seed.split())


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

    @property
    def withdrawn(self) -> bool:
        """Whether the rule is withdrawn: its ID stays reserved, nothing may implement it."""
        return self.status == "withdrawn"


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


def read_toml(path: pathlib.Path) -> dict[str, Any]:
    """A TOML file of ``spec/`` as data; :class:`~rules_ref.errors.InputError` if unreadable."""
    import tomllib

    from .errors import InputError

    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None


@cache
def spec_toml(name: str) -> dict[str, Any]:
    """The TOML file ``name`` of :func:`spec_dir`, read once per process.

    Shared by every caller: read it, never change it.
    """
    return read_toml(spec_dir() / name)


def read(path: pathlib.Path) -> Registry:
    """Read a rule registry file (the format of ``spec/README.md``).

    Raises :class:`~rules_ref.errors.InputError` naming the file and the
    rule when the file cannot be read, an ID is used twice, or a rule names
    a group the file does not define.
    """
    from .errors import InputError

    data = read_toml(path)
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


# --- the glossary and the source keys ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """A common name of ``spec/glossary.toml`` and the rules it leads to."""

    term: str
    aliases: tuple[str, ...]
    rules: tuple[str, ...]
    note: str


@dataclass(frozen=True, slots=True)
class SourceKey:
    """A key of ``spec/sources.toml``: a published source or a seed sentence."""

    key: str
    kind: str  # "source", "sentence" or "seed file"
    title: str  # the source's name, the sentence's section, the file's language
    text: str  # the note, the sentence, or ""
    url: str = ""


@cache
def glossary() -> tuple[Term, ...]:
    """The common names of ``spec/glossary.toml``, in file order."""
    return tuple(Term(t["term"], tuple(t.get("aliases", ())), tuple(t["rules"]),
                      t.get("note", "")) for t in spec_toml("glossary.toml")["term"])


@cache
def source_keys() -> tuple[SourceKey, ...]:
    """The source keys of ``spec/sources.toml``: sources, then seed files, then sentences."""
    return keys_of(spec_toml("sources.toml"))


def read_source_keys(path: pathlib.Path) -> tuple[SourceKey, ...]:
    """The source keys of a ``sources.toml`` file, as :func:`source_keys` gives them."""
    return keys_of(read_toml(path))


def keys_of(data: dict[str, Any]) -> tuple[SourceKey, ...]:
    """The source keys of the data of a ``sources.toml`` file."""
    return (tuple(SourceKey(s["key"], "source", s["name"], s.get("note", ""), s.get("url", ""))
                  for s in data["source"])
            + tuple(SourceKey(f["file"], "seed file", f["language"], "")
                    for f in data["seed_file"])
            + tuple(SourceKey(s["id"], "sentence", s["section"], s["text"])
                    for s in data["sentence"]))


# --- the switch values and the presets -----------------------------------------------------


@cache
def switch_meanings() -> dict[str, dict[str, str]]:
    """What each listed value of each switch of ``spec/variants.toml`` means, by switch name.

    A value is keyed as :meth:`rules_ref.ruleset.Ruleset.to_dict` writes it, as text
    (``"-10"``, ``"right"``, ``"left,right"`` for a cycle); a value the file does not
    list has no entry.
    """
    return {s["name"]: {switch_value(v["value"]): " ".join(v["meaning"].split())
                        for v in s.get("value", ())}
            for s in spec_toml("variants.toml")["switch"]}


@cache
def preset_titles() -> dict[str, str]:
    """The title of each preset of ``spec/variants.toml`` (the source it reads), by name."""
    return {p["name"]: p["title"] for p in spec_toml("variants.toml")["preset"]}
