"""Which rare situations of the rules a step of a game went through, and their counts.

:func:`rare_paths` reads them from the step's events and states (not from
how the game was drawn); :class:`RarePathTally` counts them over a run, so
that a test run or a conform run can show that it exercised them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .. import events as ev
from ..actions import Action, MoonChoice, Play
from ..cards import (
    TWO_OF_CLUBS,
    Suit,
)
from ..ruleset import (
    HeartsBrokenBy,
    OpeningLead,
)
from ..state import GameState
from ..state_parts import Phase
from .deals import is_penalty_card

PARTIAL_CANCEL = "partially cancelled trick"
CANCELLED_LEAD = "cancelled led card"
VOID_TRICK = "void trick"
VOID_TWICE = "two void tricks in a row"
VOID_FIRST_WITH_EXTRAS = "void first trick with extras"
VOID_LAST = "void last trick"
PENDING_COLLECTED = "pending pile collected"
OPENING_EXCEPTION = "opening-lead exception"
FORCED_HEART_LEAD = "forced heart lead"
MOON_SUBTRACT = "moon, subtract"
MOON_ADD = "moon, add"
TIE = "game ending on a tie"

#: Every rare path :func:`rare_paths` reports, in a stable order.
RARE_PATHS = (PARTIAL_CANCEL, CANCELLED_LEAD, VOID_TRICK, VOID_TWICE, VOID_FIRST_WITH_EXTRAS,
              VOID_LAST, PENDING_COLLECTED, OPENING_EXCEPTION, FORCED_HEART_LEAD,
              MOON_SUBTRACT, MOON_ADD, TIE)


def rare_paths(before: GameState, action: Action, after: GameState,
               events: Sequence[ev.Event]) -> tuple[str, ...]:
    """The rare paths (:data:`RARE_PATHS`) that one applied action went through.

    Read from the events and the states only: a trick's cancelled cards and
    winner from its :class:`~rules_ref.events.TrickWon` or
    :class:`~rules_ref.events.TrickSetAside` and the outcome last stored in
    ``after.tricks``; the trick before it was void when a set-aside pile
    waited for this one (``before.pending``); a lead's exception from the
    leader's hand in ``before``. Nothing is read from the tricks before the
    current one, so a game started from a position (whose recorded tricks
    begin there) is counted as any other.
    """
    found: list[str] = []
    for e in events:
        if isinstance(e, ev.TrickWon | ev.TrickSetAside):
            outcome = after.tricks[-1]
            if outcome.cards[0] in outcome.cancelled:
                found.append(CANCELLED_LEAD)
        if isinstance(e, ev.TrickWon) and e.cancelled:
            found.append(PARTIAL_CANCEL)
        elif isinstance(e, ev.TrickSetAside):
            found.append(VOID_TRICK)
            if e.trick_number > 1 and before.pending:
                found.append(VOID_TWICE)
            if e.trick_number == 1 and any(isinstance(x, ev.ExtrasPending) for x in events):
                found.append(VOID_FIRST_WITH_EXTRAS)
            if not any(after.hands):
                found.append(VOID_LAST)
        elif isinstance(e, ev.PendingCollected):
            found.append(PENDING_COLLECTED)
        elif isinstance(e, ev.MoonChosen) and e.choice is MoonChoice.SUBTRACT:
            found.append(MOON_SUBTRACT)
        elif isinstance(e, ev.MoonChosen) and e.choice is MoonChoice.ADD:
            found.append(MOON_ADD)
        elif isinstance(e, ev.GameOver) and len(e.winners) > 1:
            found.append(TIE)
    if isinstance(action, Play) and before.phase is Phase.PLAYING and not before.trick:
        hand = before.hands[action.seat]
        rs = before.ruleset
        if before.trick_number == 1:
            default_rule = rs.opening_lead is OpeningLead.LEFT_OF_DEALER or (
                rs.opening_lead in (OpeningLead.TWO_OF_CLUBS, OpeningLead.TWO_OF_CLUBS_DEALT)
                and TWO_OF_CLUBS not in hand)
            if default_rule and all(is_penalty_card(c) for c in hand):
                found.append(OPENING_EXCEPTION)
        elif (not before.hearts_broken and rs.hearts_broken_by is not HeartsBrokenBy.NOT_NEEDED
              and all(c.suit == Suit.H for c in hand)):
            found.append(FORCED_HEART_LEAD)
    return tuple(found)


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
        self.counts.update(rare_paths(before, action, after, events))

    def missing(self) -> tuple[str, ...]:
        """The rare paths not seen yet."""
        return tuple(name for name in RARE_PATHS if not self.counts[name])

    def table(self) -> str:
        """The counts, one rare path a line."""
        width = max(len(name) for name in RARE_PATHS)
        lines = [f"{name:<{width}}  {self.counts[name]:>7}" for name in RARE_PATHS]
        lines.append(f"{'actions applied':<{width}}  {self.actions:>7}")
        return "\n".join(lines)
