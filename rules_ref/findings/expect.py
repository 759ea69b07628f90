"""Declared deviations (``conform --expect FILE``): the divergences an implementer accepts.

An expectations file (``spec/schemas/expect.schema.json``) lists entries, each
naming a rule ID and optionally narrowing it to what differs (a finding's
words, :mod:`.classes`), one facet of it (a facet's words), the kind of the
step that differs, a card of that step, or an observation field. The step is
the one that differs (:class:`.words.Facet`): for legal cards that differ, the
play they are the cards of, not the action before it.
:func:`read_expectations` checks a file and raises
:class:`~rules_ref.errors.InputError` naming the first problem;
:func:`matching_entry` finds the entry that covers one divergence;
:func:`expect_document` writes entries for the classes a run saw (``--write-
expect``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from .words import Facet

EXPECT_FORMAT = "cancellation-hearts-conform-expect"
EXPECT_VERSION = 1
#: The action kinds an entry may name (the ``type`` of an action message).
ACTION_KINDS = ("pass", "play", "moon", "deal")
#: At most this many entries in one file.
MAX_ENTRIES = 1000
_ENTRY_FIELDS = ("rule", "differs", "facet", "action", "card", "field", "note")
#: The fields that narrow an entry, in the order an entry is written and described.
_NARROWING = ("differs", "facet", "action", "card", "field")


@dataclass(frozen=True)
class Expectation:
    """One entry: a rule, optionally narrowed."""

    rule: str
    action: str | None = None
    card: str | None = None
    field: str | None = None
    note: str = ""
    differs: str | None = None
    facet: str | None = None

    def covers(self, rule: str | None, differs: str, facet: Facet,
               fields: Sequence[str]) -> bool:
        """Does this entry cover a divergence of ``rule`` showing ``facet``?"""
        if rule != self.rule:
            return False
        if self.differs is not None and differs != self.differs:
            return False
        if self.facet is not None and facet.words != self.facet:
            return False
        if self.action is not None and facet.step != self.action:
            return False
        if self.card is not None and self.card not in facet.cards:
            return False
        return self.field is None or self.field in fields

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule}
        for name in _NARROWING:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.note:
            out["note"] = self.note
        return out

    def describe(self) -> str:
        narrow = [f"{name} {getattr(self, name)}" for name in _NARROWING
                  if getattr(self, name) is not None]
        text = self.rule + (f" ({', '.join(narrow)})" if narrow else "")
        return text + (f": {self.note}" if self.note else "")


def matching_entry(entries: Sequence[Expectation], rule: str | None, differs: str,
                   facet: Facet, fields: Sequence[str]) -> int | None:
    """The index of the first entry that covers a divergence, or ``None``."""
    for i, entry in enumerate(entries):
        if entry.covers(rule, differs, facet, fields):
            return i
    return None


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(f"{where}: expected a non-empty string")
    return value


def read_expectations(data: object, where: str) -> tuple[Expectation, ...]:
    """The entries of an expectations document, checked (rule IDs, cards, fields)."""
    from ..cards import parse_card
    from ..protocol.observation import FIELDS
    from ..registry import rule_ids

    if not isinstance(data, dict):
        raise InputError(f"{where}: expected a JSON object with \"version\": 1 and "
                         "\"expected\": [...]")
    unknown = sorted(set(data) - {"format", "version", "expected", "description"})
    if unknown:
        raise InputError(f"{where}: unknown field(s) {', '.join(unknown)}")
    if data.get("format", EXPECT_FORMAT) != EXPECT_FORMAT:
        raise InputError(f"{where}.format: expected {EXPECT_FORMAT!r}")
    if data.get("version") != EXPECT_VERSION or type(data.get("version")) is not int:
        raise InputError(f"{where}.version: expected {EXPECT_VERSION}, got "
                         f"{data.get('version')!r:.20}")
    raw = data.get("expected")
    if not isinstance(raw, list):
        raise InputError(f"{where}.expected: expected a list of entries")
    if len(raw) > MAX_ENTRIES:
        raise InputError(f"{where}.expected: {len(raw)} entries, more than {MAX_ENTRIES}")
    known = frozenset(rule_ids())
    entries: list[Expectation] = []
    for i, item in enumerate(raw):
        at = f"{where}.expected[{i}]"
        if not isinstance(item, dict):
            raise InputError(f"{at}: expected an object with a \"rule\"")
        extra = sorted(set(item) - set(_ENTRY_FIELDS))
        if extra:
            raise InputError(f"{at}: unknown field(s) {', '.join(map(str, extra))}")
        if "rule" not in item:
            raise InputError(f"{at}: missing rule")
        rule = _text(item["rule"], f"{at}.rule")
        if rule not in known:
            raise InputError(f"{at}.rule: unknown rule ID {rule!r:.60} (see: rules-ref rules)")
        action = item.get("action")
        if action is not None and action not in ACTION_KINDS:
            raise InputError(f"{at}.action: expected one of {', '.join(ACTION_KINDS)}, got "
                             f"{action!r:.30}")
        card = item.get("card")
        if card is not None:
            try:
                card = str(parse_card(_text(card, f"{at}.card")))
            except (InputError, ValueError) as exc:
                raise InputError(f"{at}.card: {exc}") from None
        field_ = item.get("field")
        if field_ is not None and field_ not in FIELDS:
            raise InputError(f"{at}.field: {field_!r:.40} is not an observation field "
                             f"({', '.join(FIELDS)})")
        note = item.get("note", "")
        if not isinstance(note, str):
            raise InputError(f"{at}.note: expected a string")
        differs = _text(item["differs"], f"{at}.differs") if "differs" in item else None
        facet = _text(item["facet"], f"{at}.facet") if "facet" in item else None
        entries.append(Expectation(rule, action, card, field_, note, differs, facet))
    return tuple(entries)


def expect_document(entries: Sequence[Expectation]) -> dict[str, Any]:
    """An expectations document (``--write-expect``)."""
    return {"format": EXPECT_FORMAT, "version": EXPECT_VERSION,
            "expected": [e.to_json() for e in entries]}
