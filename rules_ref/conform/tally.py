"""What a session's games exercised: the rules' conditions, the rare paths and the offers.

:class:`Tally` is given the run's :class:`~rules_ref.findings.failure.Stats`
and counts there what each step of the reference went through; it gives back
what a step counted (:attr:`.steps.Step.tallied`), so that the step is counted
off when the implementation never answers it in step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..actions import Action
from ..errors import Violation
from ..events import Event
from ..exercise import detect
from ..findings.failure import Stats
from ..state import GameState
from .steps import UNTALLIED, Check, Step


class Tally:
    """The exercise tally of one session, counted in the run's ``stats``.

    A step's conditions are counted with those of its batch, in one update,
    before anything else reads or changes the tally (:meth:`count`): a batch
    sent or judged alone, a start judged, steps counted off, and a game's
    end, so that the tally a game is drawn from is the one it would be if
    each step were counted as made.
    """

    __slots__ = ("_uncounted", "stats")

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        #: The conditions of the steps made since the tally was last counted (:meth:`count`).
        self._uncounted: list[str] = []

    def step(self, before: GameState, action: Action, after: GameState,
             events: Sequence[Event]) -> tuple[Sequence[str], Sequence[str]]:
        """Count what ``action`` went through from ``before`` to ``after`` (its conditions,
        with its batch, and its rare paths); return both."""
        conditions = detect.step_conditions(before, action, after, events)
        self._uncounted += conditions
        found = detect.rare_paths(before, events, conditions)
        if found:
            self.stats.rare.update(found)
        return conditions, found

    def rejected(self, before: GameState, action: Action,
                 violations: Sequence[Violation]) -> tuple[Sequence[str], Sequence[str]]:
        """Count the conditions of ``action``, which the reference rejects; return them."""
        conditions = detect.rejected_conditions(before, action, violations)
        self._uncounted += conditions
        return conditions, ()

    def started(self, state: GameState) -> None:
        """Count the conditions of a game's start, which the implementation set up."""
        self.count()
        self.stats.exercise.update(detect.start_conditions(state))

    def offered(self, kind: str) -> None:
        """Count an illegal action of ``kind`` (:mod:`.illegal_kinds`) among the offers."""
        self.stats.illegal += 1
        self.stats.offers[kind] += 1

    def count(self) -> None:
        """Count in the run's tally the conditions of the steps made since the last count."""
        if self._uncounted:
            self.stats.exercise.update(self._uncounted)
            self._uncounted = []

    def count_off(self, steps: Iterable[Step | Check], drawn_back: bool = False) -> None:
        """Count off what ``steps`` counted as exercised: the implementation never answered
        them in step (dropped after a divergence and played on while it is out of step,
        or left unsent when the game ends).

        ``drawn_back``: the steps are not played at all, as one action per request
        would never have drawn them (drawn ahead in a batch of a game that ends
        before them): the illegal actions among them are counted off the offers too.
        """
        self.count()
        stats = self.stats
        for step in steps:
            if isinstance(step, Step):
                conditions, rare = step.tallied
                for tally, keys in ((stats.exercise, conditions), (stats.rare, rare)):
                    for key in keys:
                        tally[key] -= 1
                        if not tally[key]:
                            del tally[key]
                step.tallied = UNTALLIED
                if drawn_back and step.offer:
                    stats.illegal -= 1
                    stats.offers[step.offer] -= 1
                    if not stats.offers[step.offer]:
                        del stats.offers[step.offer]
                    step.offer = ""
