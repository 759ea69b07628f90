"""The tally of the rare situations of the rules that a run of games went through.

The rare paths are named conditions of :mod:`rules_ref.exercise.detect`
(:data:`~rules_ref.exercise.detect.RARE_PATHS`), read from each step's
events and states (not from how the game was drawn);
:class:`RarePathTally` counts them over a run, so that a test run can show
that it exercised them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .. import events as ev
from ..actions import Action
from ..exercise.detect import RARE_PATHS, rare_paths, step_conditions
from ..state import GameState


class RarePathTally:
    """Counts of the rare paths seen, fed one applied action at a time."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter({name: 0 for name in RARE_PATHS})
        self.actions = 0

    def record(self, before: GameState, action: Action, after: GameState,
               events: Sequence[ev.Event]) -> None:
        """Count the rare paths of one applied action.

        It is the observer of a
        :func:`~rules_ref.strategies.play.play_out`.
        """
        self.actions += 1
        self.counts.update(rare_paths(before, events,
                                      step_conditions(before, action, after, events)))

    def missing(self) -> tuple[str, ...]:
        """The rare paths not seen yet."""
        return tuple(name for name in RARE_PATHS if not self.counts[name])

    def table(self) -> str:
        """The counts, one rare path a line."""
        width = max(len(name) for name in RARE_PATHS)
        lines = [f"{name:<{width}}  {self.counts[name]:>7}" for name in RARE_PATHS]
        lines.append(f"{'actions applied':<{width}}  {self.actions:>7}")
        return "\n".join(lines)
