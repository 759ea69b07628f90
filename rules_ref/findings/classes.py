"""Divergence classes: every disagreement a run saw, grouped by what differs.

A *divergence* is one :class:`.failure.Failure` the runner met and played
past. Its *class* is the pair (blamed rule ID, what differs in words), built
by :func:`class_of` from the failure's kind of difference: a legal action
the implementation rejects or an illegal one it accepts (with the kind of
action), an observation that differs (the fields and the action are in the
class's example; an expectation may narrow to either), an internal error,
an adapter fault. The key never holds a seat, a deal number, a total or a
field, so the same fault met in many games and seen after several kinds of
action is one class. :class:`Divergences` counts each class (occurrences, games, first
seen), keeps its first and smallest examples for shrinking (:mod:`~rules_ref.conform.shrink`),
notes which expectation of ``--expect`` (:mod:`.expect`) covered each
occurrence, and merges the classes of parallel jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesRefError
from .expect import Expectation, matching_entry
from .failure import FROM_A_POSITION, REJECTS_A_POSITION, Failure, at_position_start
from .words import divergence_words, governing_switch

#: The words for each kind of action (the ``type`` of an action message).
_ACTION_WORDS = {"play": "play", "pass": "pass", "moon": "moon choice", "deal": "deal"}


def action_kind(failure: Failure) -> str | None:
    """The ``type`` of the failing action (``None``: the start of the game)."""
    action = failure.failing
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else None


def action_cards(failure: Failure) -> list[str]:
    """The cards the failing action names (a play's card, a pass's cards)."""
    action = failure.failing or {}
    cards = action.get("cards") if action.get("type") == "pass" else [action.get("card")]
    return [c for c in (cards or []) if isinstance(c, str)]


def _an(kind: str | None, failure: Failure) -> str:
    if kind is None:
        return FROM_A_POSITION if at_position_start(failure.start, None) else \
            "the start of a game"
    word = _ACTION_WORDS.get(kind, kind)
    return f"a {word}"


def class_of(failure: Failure) -> tuple[str | None, str]:
    """The class of a divergence: (blamed rule ID or ``None``, the kind of difference).

    The kind is coarse on purpose ("rejects a legal pass"), so that one fault met at
    different tables and cards is one class; :func:`.words.divergence_words` gives
    the words of a class's first example.
    """
    kind = action_kind(failure)
    if failure.kind == "fault":
        what = (failure.fault or {}).get("kind", "fault")
        return None, f"adapter fault ({what}) on {_an(kind, failure)}"
    if failure.kind == "error":
        return (failure.rules[0] if failure.rules else None,
                f"reports an internal error on {_an(kind, failure)}")
    rule = failure.rules[0] if failure.rules else None
    actual_type = failure.actual.get("type")
    expected_type = failure.expected.get("type")
    if actual_type == "rejected" and expected_type == "observation":
        if kind is None:
            return rule, (REJECTS_A_POSITION if at_position_start(failure.start, None)
                          else "rejects the start of a game the rules allow")
        return rule, f"rejects a legal {_ACTION_WORDS.get(kind, kind)}"
    if actual_type == "observation" and expected_type == "rejected":
        if kind is None:  # a start the reference refuses (.refused_tables)
            return rule, "accepts a table the rules refuse"
        return rule, f"accepts an illegal {_ACTION_WORDS.get(kind or '', kind or 'action')}"
    if failure.fields or failure.others:
        return rule, "its game differs from the reference's"
    return rule, failure.summary[:80]


def key_of(rule: str | None, what: str) -> str:
    return f"{rule}: {what}" if rule else what


@dataclass
class DivergenceClass:
    """One class of divergence and what the run saw of it."""

    key: str
    rule: str | None
    rules: list[str]
    what: str
    kind: str
    first: Failure
    first_game: int
    first_seconds: float
    count: int = 0
    games: set[tuple[int, int]] = field(default_factory=set)
    #: The smallest occurrence (fewest deals, then actions): where shrinking starts.
    smallest: Failure | None = None
    #: Occurrences an expectation covered, and the index of the first expectation that did.
    expected_count: int = 0
    expectation: int | None = None
    #: The shrunk minimal example and its replay file (filled in after the search).
    example: Failure | None = None
    replay: str | None = None
    #: How the example was shrunk: "position", "deal", "actions", "start" (the start alone),
    #: "no smaller game shows it", "as found" (the budget ended first), "not reproduced alone".
    shrunk: str = ""

    @property
    def expected(self) -> bool:
        return self.count > 0 and self.expected_count == self.count

    @property
    def switch(self) -> str | None:
        return governing_switch(self.rule) if self.rule else None

    def words(self) -> str:
        """What its example shows, in words ("rejects a pass that contains 2♣")."""
        example = self.example or self.smallest or self.first
        if example.kind != "disagreement":
            return self.what
        try:
            return divergence_words(example) or self.what
        except RulesRefError:
            return self.what

    def to_json(self) -> dict[str, Any]:
        """The class as the JSON summary lists it (``classes``, spec/protocol.md)."""
        example = self.example or self.smallest or self.first
        return {
            "key": self.key, "rule": self.rule, "rules": self.rules, "what": self.what,
            "words": self.words(), "kind": self.kind, "switch": self.switch,
            "expected": self.expected,
            "expectation": self.expectation if self.expected else None,
            "count": self.count, "games": len(self.games),
            "expected_count": self.expected_count,
            "first_seen": {"game": self.first_game, "seconds": round(self.first_seconds, 3)},
            "example": example.to_json(), "replay": self.replay,
            "shrunk": self.shrunk or "not shrunk",
        }


class Divergences:
    """Every class a run (or a job) saw, in the order first seen."""

    def __init__(self, expectations: tuple[Expectation, ...] = ()) -> None:
        self.expectations = expectations
        self.classes: dict[str, DivergenceClass] = {}
        #: How many occurrences each expectation covered.
        self.matched: list[int] = [0] * len(expectations)

    def __len__(self) -> int:
        return sum(c.count for c in self.classes.values())

    def record(self, failure: Failure, game: int, seconds: float, job: int = 0) -> None:
        rule, what = class_of(failure)
        key = key_of(rule, what)
        cls = self.classes.get(key)
        if cls is None:
            cls = DivergenceClass(key, rule, list(failure.rules), what, failure.kind,
                                  failure, game, seconds, smallest=failure)
            self.classes[key] = cls
        cls.count += 1
        cls.games.add((job, game))
        if cls.smallest is None or failure.size < cls.smallest.size:
            cls.smallest = failure
        index = matching_entry(self.expectations, rule, action_kind(failure),
                               action_cards(failure), failure.fields + failure.others)
        if index is not None:
            cls.expected_count += 1
            self.matched[index] += 1
            if cls.expectation is None:
                cls.expectation = index

    def ordered(self) -> list[DivergenceClass]:
        """The classes, the unexpected first; in each group the one met in most games first.

        A single fault shows as one main class and, now and then, a symptom
        the attribution reads another way: the class met in the most games
        (then the most often, then the first seen) leads.
        """
        return sorted(self.classes.values(),
                      key=lambda c: (c.expected, -len(c.games), -c.count, c.first_seconds))

    def unexpected(self) -> list[DivergenceClass]:
        return [c for c in self.ordered() if not c.expected]

    def not_seen(self) -> list[tuple[int, Expectation]]:
        return [(i, e) for i, e in enumerate(self.expectations) if not self.matched[i]]

    # --- between processes (--jobs) ---

    def to_json(self) -> dict[str, Any]:
        """Every class with its first and smallest examples, for another process to merge."""
        return {"matched": self.matched, "classes": [
            {"key": c.key, "rule": c.rule, "rules": c.rules, "what": c.what, "kind": c.kind,
             "first": c.first.to_json(), "first_game": c.first_game,
             "first_seconds": c.first_seconds, "count": c.count,
             "games": sorted(c.games), "smallest": (c.smallest or c.first).to_json(),
             "expected_count": c.expected_count, "expectation": c.expectation}
            for c in self.classes.values()]}

    def merge_json(self, data: dict[str, Any], job: int) -> None:
        """Add the classes of job ``job`` (:meth:`Divergences.to_json`) to these."""
        for i, n in enumerate(data.get("matched", [])[:len(self.matched)]):
            self.matched[i] += n
        for d in data.get("classes", []):
            first = Failure.from_json(d["first"])
            smallest = Failure.from_json(d["smallest"])
            games = {(job, int(g[1])) for g in d["games"]}
            cls = self.classes.get(d["key"])
            if cls is None:
                self.classes[d["key"]] = DivergenceClass(
                    d["key"], d["rule"], list(d["rules"]), d["what"], d["kind"], first,
                    d["first_game"], d["first_seconds"], d["count"], games, smallest,
                    d["expected_count"], d["expectation"])
                continue
            cls.count += d["count"]
            cls.games |= games
            cls.expected_count += d["expected_count"]
            if cls.expectation is None:
                cls.expectation = d["expectation"]
            if d["first_seconds"] < cls.first_seconds:
                cls.first, cls.first_game, cls.first_seconds = (first, d["first_game"],
                                                                d["first_seconds"])
            if cls.smallest is None or smallest.size < cls.smallest.size:
                cls.smallest = smallest
