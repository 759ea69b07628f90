"""The results of a conformance conversation: counters (:class:`Stats`) and failures.

A :class:`Failure` is one disagreement, adapter fault or internal error and
the game that led to it; :class:`FoundFailure` carries one out of a game
that stops at its first failure (a replay, a shrinking check).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import RulesRefError
from ..jsonio.serialize import describe_action_json
from ..positions.convert import position_of
from ..state import GameState
from ..state_parts import Phase
from .start_tally import StartTally

#: The kinds of :class:`Failure`.
FAILURE_KINDS = ("disagreement", "fault", "error")


@dataclass
class Stats:
    """What a run did: games (conversations), deals played to the end, answers compared."""

    games: int = 0
    deals: int = 0
    actions: int = 0
    illegal: int = 0
    citations: int = 0
    restarts: int = 0
    #: Divergences played past, restarts of the implementation from a position after one,
    #: and games ended early because the implementation could not be brought back in step.
    divergences: int = 0
    resyncs: int = 0
    cut: int = 0
    #: Divergences after which the reference followed the implementation's scores.
    followed: int = 0
    #: Tables the rules refuse whose start was offered, once a run
    #: (:mod:`~rules_ref.conform.refused_tables`).
    refused: int = 0
    #: Tables at the edge of what the rules allow whose start was offered
    #: (:mod:`~rules_ref.conform.edge_tables`).
    edge: int = 0
    #: Starts from the reference's position where nothing had diverged
    #: (:mod:`~rules_ref.conform.position_starts`).
    position_starts: int = 0
    #: How often the game went through each rare situation (``exercise.detect.RARE_PATHS``).
    rare: Counter[str] = field(default_factory=Counter)
    #: How often each condition of a rule was exercised (``exercise.CONDITIONS``, by key).
    exercise: Counter[str] = field(default_factory=Counter)
    #: How many illegal actions of each kind were offered (``illegal_kinds.KINDS``).
    offers: Counter[str] = field(default_factory=Counter)
    #: Deals drawn and not sent, by the deal constraint they break (``spec/deal.md``, 8).
    constrained: Counter[str] = field(default_factory=Counter)
    #: The starts of tables the rules allow, by what they hold, and which were rejected.
    starts: StartTally = field(default_factory=StartTally)
    #: How often the implementation went through a moment holding each fact as the
    #: reference did (:func:`.triggers.step_facts`, by name): facts that trigger no error.
    cleared: Counter[str] = field(default_factory=Counter)

    def add(self, other: Stats) -> None:
        for f in COUNTS:
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.rare.update(other.rare)
        self.exercise.update(other.exercise)
        self.offers.update(other.offers)
        self.constrained.update(other.constrained)
        self.starts.add(other.starts)
        self.cleared.update(other.cleared)


#: The counters of :class:`Stats`: its fields that count (its tallies by name are Counters).
COUNTS = tuple(f.name for f in fields(Stats) if f.type in (int, "int"))


@dataclass
class Failure:
    """A disagreement (or an adapter fault during a game) and the game that led to it."""

    kind: str  # one of FAILURE_KINDS: "disagreement", "fault" or "error"
    rules: list[str]
    summary: str
    start: dict[str, Any]
    actions: list[dict[str, Any]]
    failing: dict[str, Any] | None  # the failing action (None: the start)
    position: dict[str, Any]
    expected: dict[str, Any]
    actual: dict[str, Any]
    fields: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)
    fault: dict[str, Any] | None = None
    note: str = ""
    reference: dict[str, Any] | None = None  # the reference's whole answer to the failing message
    #: A fault during a batch: ``failing`` is the batch's first action, not the one at fault.
    batched: bool = False
    #: The reference's position before the failing action (JSON form, ``spec/position.md``):
    #: with the failing action, a minimal example for an adapter that starts from positions.
    before_position: dict[str, Any] | None = None
    #: The reference state before the failing action, for a failure met in this process (not
    #: written out): what the failure's words read, rather than the game played again from
    #: its start (:func:`~rules_ref.findings.words.failure_states`).
    before: GameState | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> tuple[int, int]:
        deals = 1 + sum(1 for a in self.actions if a.get("type") == "deal")
        return deals, len(self.actions)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rules": self.rules, "summary": self.summary,
                "start": self.start, "actions": self.actions, "failing": self.failing,
                "position": self.position, "expected": self.expected, "actual": self.actual,
                "fields": self.fields, "others": self.others, "fault": self.fault,
                "note": self.note, "reference": self.reference,
                "before_position": self.before_position}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Failure:
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        return cls(**values)


class FoundFailure(Exception):
    """Raised where a conversation meets a failure that no divergence handler takes."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.summary)
        self.failure = failure


#: The words of a failure at a start from a position (:mod:`~rules_ref.conform.position_starts`).
FROM_A_POSITION = "a start from a position"
REJECTS_A_POSITION = "rejects a position the rules reach"


def at_position_start(start: object, failing: object) -> bool:
    """True for a failure at a start from a position: its ``start`` has one, no action failed."""
    return failing is None and isinstance(start, dict) and "position" in start


def describe_action(action: dict[str, Any] | None) -> str:
    return "start of the game" if action is None else describe_action_json(action)


def json_position(state: GameState) -> dict[str, Any] | None:
    """``state``'s position in JSON form (``None`` once the game is over)."""
    if state.phase is Phase.GAME_OVER:
        return None
    from ..positions.convert import position_to_json

    try:
        return position_to_json(position_of(state))
    except RulesRefError:  # pragma: no cover - every state the rules reach has a position
        return None


def brief_position(state: GameState) -> dict[str, Any]:
    """The position of a failure in a few fields (when the session is given no other)."""
    return {"players": state.players, "phase": str(state.phase),
            "deal_number": state.deal_number, "dealer": state.dealer}
