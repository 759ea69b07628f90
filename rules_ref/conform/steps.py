"""What a session sends the implementation, each with the verdict its answer is judged by.

A :class:`Step` is one action, a :class:`Start` a ``start``, a :class:`Check` the
``observe`` asked after a rejected action. The session makes them, the pipeline
(:mod:`.pipeline`) sends them, the judge (:mod:`.judging`) reads them, and the
tally (:mod:`.tally`) counts off what a step counted. A :class:`GameRecord` is
the game they make up, as a failure reports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..errors import Violation
from ..jsonio.serialize import action_to_json
from ..protocol.observation import observe
from ..state import GameState

#: What a step that counted nothing counted (:attr:`Step.tallied`).
UNTALLIED: tuple[Sequence[str], Sequence[str]] = ((), ())


@dataclass(slots=True)
class GameRecord:
    """A game as sent to the implementation, as a failure reports it: its ``start``, the
    actions sent or queued after it, and how many of them were sent."""

    start_msg: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    sent: int = 0

    def begin(self, msg: dict[str, Any]) -> None:
        """A new game (or the same one started again from a position), begun by ``msg``."""
        self.start_msg = msg
        self.actions = []
        self.sent = 0


@dataclass(slots=True)
class Step:
    """One action sent (or queued): the reference's verdict on it, for judging its answer."""

    before: GameState
    action: Action
    after: GameState | None  # None: the reference rejects the action
    #: The reference's observation after it ({} if rejected), when kept (``None``: made from
    #: ``after`` when read, :attr:`expected`).
    kept: dict[str, Any] | None
    violations: tuple[Violation, ...]
    sent: int  # how many actions had been sent after the start, this one included
    #: The conditions and rare paths the step counted as exercised (:meth:`.tally.Tally.step`).
    tallied: tuple[Sequence[str], Sequence[str]] = UNTALLIED
    #: The fields of the ``changes`` answer that makes the observation of ``before`` the
    #: observation after it (``None``: made whole).
    changes: dict[str, Any] | None = None
    #: The kind of illegal action it offers (:mod:`.illegal_kinds`), counted as offered when
    #: played (:meth:`.session.Session.act`); "" for any other action.
    offer: str = ""

    @property
    def action_json(self) -> dict[str, Any]:
        """The action as a request carries it, made when a failure or a request needs it."""
        return action_to_json(self.action)

    @property
    def expected(self) -> dict[str, Any]:
        """The reference's observation after the action ({} if rejected).

        Made when first read: an answer equal to the step's changes reads none
        (most answers), so most steps never make one.
        """
        if self.kept is None:
            self.kept = observe(self.after) if self.after is not None else {}
        return self.kept


@dataclass(slots=True)
class Start:
    """A ``start`` sent: its message, the state it describes, the observation expected, and
    whether the conditions it meets are counted (:meth:`.session.Session.start`)."""

    msg: dict[str, Any]
    state: GameState
    expected: dict[str, Any]
    tally: bool


@dataclass(slots=True)
class Check:
    """An ``observe`` queued after a rejected action: the implementation's game must still be
    the reference's ``state`` (:meth:`.session.Session.check_unchanged`)."""

    state: GameState
    #: The actions sent or queued after the start before the check, the rejected one last.
    actions: int
    #: The reference's observation of ``state`` (``None``: made when judged).
    expected: dict[str, Any] | None = None
