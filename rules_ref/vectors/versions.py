"""What each published vectors version knew: its switches, their values, its presets.

Published vectors stay as published (``spec/vectors/README.md``): the files of
a version regenerate byte for byte. Switches and switch values added after
version 1 therefore never reach ``spec/vectors/v1``: its rulesets name only
the switches version 1 knew (those of the protocol's first version,
:func:`.messages.first_switches`), and a case whose ruleset
needs a later switch at a value other than its default, or a value a
version-1 switch did not have, has no version-1 form (:func:`for_version`);
it lives in the later directories only, as does a case added later whose
ruleset version 1 could state (:data:`ADDED_AFTER_V1`). The presets that changed since
version 1 keep their version-1 values for its transcripts
(:func:`version_presets`), and its self-check asks for the switch values
version 1 documented (:data:`V1_DOCUMENTED`), not the ones added since.
"""

from __future__ import annotations

from typing import Any

from ..protocol.messages import first_switches
from ..ruleset import Ruleset, presets
from .files import Case

Json = Any

#: The values of version 1's enumerated switches (the integer switches kept their ranges).
_V1_ENUMS: dict[str, frozenset[str]] = {
    "opening_lead": frozenset({"left-of-dealer", "left-of-dealer-no-scoring", "two-of-clubs"}),
    "first_trick_points": frozenset({"allowed", "forbidden"}),
    "hearts_broken_by": frozenset({"heart-or-queen", "heart", "heart-discard", "not-needed"}),
    "last_trick_void": frozenset({"nobody", "leader", "split-highest-pair"}),
    "moon": frozenset({"choice-26", "others-52", "others-104"}),
}
#: The steps a version-1 pass cycle could hold.
_V1_STEPS = frozenset({"left", "right", "across", "hold"})
#: The switch values ``spec/variants.toml`` documented at version 1: each is covered by a
#: targeted case of ``spec/vectors/v1``.
V1_DOCUMENTED: tuple[tuple[str, Json], ...] = (
    ("pass_count", 3), ("pass_count", 2),
    ("pass_cycle", ["left", "right"]), ("pass_cycle", ["hold"]), ("pass_cycle", ["right"]),
    ("pass_cycle", ["left"]), ("pass_cycle", ["left", "right", "across", "hold"]),
    ("opening_lead", "left-of-dealer"), ("opening_lead", "left-of-dealer-no-scoring"),
    ("opening_lead", "two-of-clubs"),
    ("first_trick_points", "allowed"), ("first_trick_points", "forbidden"),
    ("hearts_broken_by", "heart-or-queen"), ("hearts_broken_by", "heart"),
    ("hearts_broken_by", "heart-discard"), ("hearts_broken_by", "not-needed"),
    ("last_trick_void", "nobody"), ("last_trick_void", "leader"),
    ("last_trick_void", "split-highest-pair"),
    ("moon", "choice-26"), ("moon", "others-52"), ("moon", "others-104"),
    ("ten_of_diamonds_points", 0), ("ten_of_diamonds_points", -10),
    ("target", 150), ("target", 100),
)
#: Cases added after version 1 whose rulesets version 1 could state: they are not in it.
ADDED_AFTER_V1 = frozenset({
    "game-end/target-200-just-below-p8",
    "legal-plays/first-trick-two-of-clubs-free-p6",
    "passing/lovecardgames-deal4-left-p7",
    "scoring/last-trick-void-split-odd-p9",
    "scoring/two-seats-all-points-p8",
    "trick/last-trick-kept-p6",
})
#: The id prefixes of kinds of cases added after version 1 (the card-level tricks).
ADDED_AFTER_V1_PREFIXES = ("trick/card-",)
#: The presets of version 1, in order.
V1_PRESETS = ("spruce", "wikipedia", "bicycle", "hubpages", "boardgamegeek", "lovecardgames",
              "toycrossing", "mensa", "hearts-template")
#: The values of the presets that changed after version 1, as version 1 played them.
_V1_PRESET_VALUES: dict[str, dict[str, Json]] = {
    "wikipedia": {"last_trick_void": "leader"},
    "lovecardgames": {"pass_cycle": ["left", "right", "across", "hold"],
                      "opening_lead": "two-of-clubs"},
}


def knows(version: int, ruleset: dict[str, Json]) -> bool:
    """Can the vectors of ``version`` state ``ruleset`` (a ruleset's JSON form)?

    Every version from 2 on states every ruleset; version 1 only those whose
    later switches are at their defaults and whose other values it had.
    """
    if version >= 2:
        return True
    changed = Ruleset.changed_in(ruleset)
    return all(_v1_value(name, value, name in changed) for name, value in ruleset.items())


def _v1_value(name: str, value: Json, changed: bool) -> bool:
    """Could version 1 state switch ``name`` at ``value`` (``changed``: not the default)?"""
    if name not in first_switches():
        return not changed
    if name == "pass_cycle":
        return set(value) <= _V1_STEPS
    return name not in _V1_ENUMS or value in _V1_ENUMS[name]


def version_ruleset(version: int, ruleset: dict[str, Json]) -> dict[str, Json]:
    """``ruleset`` as the vectors of ``version`` write it: version 1 names its own switches."""
    if version >= 2:
        return ruleset
    return {name: value for name, value in ruleset.items() if name in first_switches()}


def for_version(version: int, case: Case) -> Case | None:
    """``case`` as the vectors of ``version`` hold it, or ``None`` when it cannot state it.

    A case whose ruleset (or the ruleset of its ``start`` message) needs a
    switch value the version lacks is left out, and so is a case added after
    it (:data:`ADDED_AFTER_V1`); the rest have their rulesets
    written with the version's switches (:func:`version_ruleset`).
    """
    rulesets = [case.get("ruleset")]
    start = case.get("start")
    if isinstance(start, dict):
        rulesets.append(start.get("ruleset"))
    if not all(knows(version, rs) for rs in rulesets if isinstance(rs, dict)):
        return None
    if version < 2 and (case.get("id") in ADDED_AFTER_V1
                        or str(case.get("id")).startswith(ADDED_AFTER_V1_PREFIXES)):
        return None
    if version >= 2:
        return case
    out = dict(case)
    if isinstance(out.get("ruleset"), dict):
        out["ruleset"] = version_ruleset(version, out["ruleset"])
    if isinstance(start, dict) and isinstance(start.get("ruleset"), dict):
        out["start"] = {**start, "ruleset": version_ruleset(version, start["ruleset"])}
    return out


def version_presets(version: int) -> dict[str, Ruleset]:
    """The presets of ``version`` with the values its transcripts play: name -> ruleset."""
    if version >= 2:
        return presets()
    current = presets()
    return {name: Ruleset.from_dict(_V1_PRESET_VALUES[name]) if name in _V1_PRESET_VALUES
            else current[name] for name in V1_PRESETS}


def documented_values(version: int,
                      current: list[tuple[str, Json, tuple[str, ...]]],
                      ) -> list[tuple[str, Json, tuple[str, ...]]]:
    """The documented switch values the vectors of ``version`` must cover, with their rules.

    ``current`` is every value ``spec/variants.toml`` documents now (switch,
    value, the rules the switch changes); version 1 asks only for the values
    it documented (:data:`V1_DOCUMENTED`).
    """
    if version >= 2:
        return current
    return [(name, value, rules) for name, value, rules in current
            if (name, value) in V1_DOCUMENTED]
