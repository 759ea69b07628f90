"""The reference's game as a session plays it: the verdict on each action, step by step.

:class:`PlayedGame` is given the session's tally (:mod:`.tally`) and whether
the adapter answers with changes. For each action it gives back a
:class:`.steps.Step`: the reference's state after it (or the rules it breaks),
its observation, made from the one before with the changes between them, and
what it exercised, counted on the game as played.
"""

from __future__ import annotations

from typing import Any

from ..actions import Action, Play
from ..errors import IllegalAction, RulesRefError, Violation
from ..events import Event
from ..protocol.observation import advance, observe, owned_copy
from ..state import GameState
from .steps import UNTALLIED, Step
from .tally import Tally


class PlayedGame:
    """The reference's side of a session: its last observation, and the game as played.

    After a start from a position where nothing diverged, the reference's
    state is rebuilt from the position, and knows no earlier trick or deal,
    which some conditions of the exercise tally read (two void tricks
    collected at once, the next deal's dealer). The tally then reads the game
    as played, which goes on beside it (:attr:`as_played`): a seed exercises,
    and so draws, the same games whether the adapter starts from positions
    (protocol version 2) or not (version 1).
    """

    __slots__ = ("_changes", "_observed", "_tally", "as_played")

    def __init__(self, tally: Tally, changes: bool) -> None:
        self._tally = tally
        #: The adapter answers with changes: a step's whole observation is made only when
        #: read (:attr:`.steps.Step.expected`), else kept at every step.
        self._changes = changes
        #: The last reference state observed and its observation, this object's own: the
        #: next step makes it the next observation in place, and its changes
        #: (:func:`~rules_ref.protocol.observation.advance`).
        self._observed: tuple[GameState, dict[str, Any]] | None = None
        #: The reference's state rebuilt from a position and the same moment of the game as
        #: it was played (``None``: the reference's state is the game as played).
        self.as_played: tuple[GameState, GameState] | None = None

    def observed(self, state: GameState, observation: dict[str, Any]) -> None:
        """``observation`` of ``state`` is the last made (a copy is kept): the next step
        goes on from it."""
        self._observed = (state, owned_copy(observation))

    def observation(self, state: GameState) -> dict[str, Any] | None:
        """A copy of the observation of ``state`` when it is the last made, else ``None``."""
        observed = self._observed
        return owned_copy(observed[1]) if observed is not None and observed[0] is state \
            else None

    def step(self, before: GameState, action: Action, sent: int, tally: bool = True,
             known: tuple[GameState, tuple[Event, ...]] | None = None,
             offer: str = "") -> Step:
        """The reference's verdict on ``action`` from ``before``, the ``sent``-th action after
        the start (``known``: the state after it and its events, already made; ``offer``: the
        kind of illegal action it was drawn as, else ""); ``tally``: count what it went
        through (:meth:`.tally.Tally.step`)."""
        played = self.as_played
        self.as_played = None
        seen = played[1] if played is not None and played[0] is before else before
        # an action drawn to be illegal is judged by its violations, without the exception
        # that apply raises
        violations = before.violations(action) if offer else ()
        if not violations:
            try:
                after, events = known if known is not None else before.apply(action)
            except RulesRefError as exc:
                violations = exc.violations if isinstance(exc, IllegalAction) else (Violation(
                    getattr(exc, "rule_id", None) or "DEAL.SOURCE", str(exc)),)
        if violations:
            if seen is not before:
                self.as_played = played
            return Step(before, action, None, {}, violations, sent, self._tally.rejected(
                seen, action, violations) if tally else UNTALLIED, None, offer)
        seen_after, seen_events = after, events
        if seen is not before:
            # the same moment of the same rules: the same verdict, a card play unchecked
            seen_after, seen_events = (seen.apply_unchecked(action) if type(action) is Play
                                       else seen.apply(action))
            self.as_played = (after, seen_after)
        observed = self._observed
        if observed is not None and observed[0] is before:
            obs = observed[1]
            changes: dict[str, Any] | None = advance(obs, before, after)
        else:
            obs, changes = observe(after), None  # made whole: its lists are its own
        self._observed = (after, obs)
        # kept for an adapter that answers with whole observations (a copy: ``obs`` changes)
        kept = None if self._changes else owned_copy(obs)
        return Step(before, action, after, kept, (), sent, self._tally.step(
            seen, action, seen_after, seen_events) if tally else UNTALLIED, changes, offer)
