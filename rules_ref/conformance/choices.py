"""The decisions of one conformance game: raw choices, and rulesets inside the adapter's.

The :class:`Chooser` takes every decision from Hypothesis one raw integer
at a time (so shrinking shortens a game and makes each choice the first
candidate); the :class:`RulesetDrawer` draws rulesets inside what the
adapter supports, each fit for the game's player count. :mod:`.conversation`
plays the game they choose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st

from ..errors import RulesRefError
from ..passing import check_table
from ..ruleset import (
    FirstTrickPoints,
    FirstTrickTwoOfClubs,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    MoonPair,
    OpeningLead,
    PassDirection,
    PassForbidden,
    Ruleset,
    SeatDistance,
    presets,
)
from .adapter import SWITCHES
from .process import Supports
from .process import switch_values as _switch_values

_L, _R, _A, _H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD
_L2, _R2, _L3, _R3 = (SeatDistance.LEFT_2, SeatDistance.RIGHT_2, SeatDistance.LEFT_3,
                      SeatDistance.RIGHT_3)
#: Draws of a ruleset that may be made before one fits the game's player count.
RULESET_TRIES = 8
#: For a switch an adapter supports with any value: the values drawn, the default
#: first; ``None`` stands for a random integer of the switch's range.
_ANY_VALUES: dict[str, list[Any]] = {
    "min_players": [6, 5],
    "pass_count": [3, 2, 1, 4, 5, 6, 7, 8, 9],
    "pass_cycle": [(_L, _R), (_H,), (_R,), (_L,), (_L, _R, _A, _H), (_A,), (_R, _L, _H),
                   (_L, _R, _L2, _R2, _L3, _R3, _A, _H), (_H, _L, _L2, _R2, _R),
                   (SeatDistance.LEFT_4,)],
    "pass_forbidden": list(PassForbidden),
    "opening_lead": list(OpeningLead),
    "first_trick_points": list(FirstTrickPoints),
    "first_trick_two_of_clubs": list(FirstTrickTwoOfClubs),
    "hearts_broken_by": list(HeartsBrokenBy),
    "last_trick_void": list(LastTrickVoid),
    "moon": list(Moon),
    "moon_pair": list(MoonPair),
    "ten_of_diamonds_points": [0, -10, 10, -1],
    "target": [150, 100, 50, 26, 13, 1, None],
}
_TARGET_RANGE = 300


class RulesetDrawer:
    """Rulesets inside what an adapter supports, drawn one raw choice per switch.

    A preset (every preset the adapter supports, the default first) or a mix
    of switch values; shrinks toward the default ruleset. Raw choices, not
    nested strategies, keep Hypothesis from splicing one game's ruleset into
    another (a game is long, and a spliced one seldom fits its choices).
    """

    def __init__(self, supports: Supports) -> None:
        default = Ruleset()
        self.values: list[tuple[str, list[Any]]] = []
        for name in SWITCHES:
            declared = supports.switches.get(name)
            base = getattr(default, name)
            if declared == "any":
                values = list(_ANY_VALUES[name])
            elif declared is None:
                values = [base]
            else:
                values = _switch_values(name, declared)
                if base in values:
                    values.remove(base)
                    values.insert(0, base)
            self.values.append((name, values))
        self.presets = [rs for rs in presets().values() if not supports.allows(rs)]

    def draw_for(self, ch: Chooser, players: int) -> Ruleset:
        """A drawn ruleset that a game of ``players`` can be set up with.

        Some switch values need a large enough table (``left-k`` needs k below
        the player count, ``pass_forbidden`` a hand with enough cards to pass:
        :func:`rules_ref.passing.check_table`); a ruleset that does not
        fit is drawn again, and an example without one is rejected.
        """
        for _ in range(RULESET_TRIES):
            ruleset = self.draw(ch)
            try:
                check_table(ruleset, players)
            except RulesRefError:
                continue
            return ruleset
        reject()

    def draw(self, ch: Chooser) -> Ruleset:
        if self.presets and not ch.flag(0.65):
            return self.presets[ch.below(len(self.presets))]
        chosen: dict[str, Any] = {}
        for name, values in self.values:
            value = values[ch.below(len(values), prefer=0.5)]
            if value is None:
                value = 1 + ch.below(_TARGET_RANGE)
            chosen[name] = value
        return Ruleset(**chosen)


class Chooser:
    """The decisions of one game, drawn from Hypothesis one integer at a time.

    Every decision shrinks toward 0, the first candidate. ``prefer`` puts
    that much probability on the first candidate while generating (the
    planned or adversarial choice), the rest spread over the others.
    """

    def __init__(self, data: Any) -> None:
        self._data = data
        conjecture = getattr(data, "conjecture_data", None)
        raw = getattr(conjecture, "draw_integer", None)
        self._raw: Callable[..., int] | None = raw if callable(raw) else None

    def below(self, n: int, prefer: float = 0.0) -> int:
        """A number from 0 to ``n - 1`` (0 without a draw when ``n`` is 1)."""
        if n <= 1:
            return 0
        if self._raw is not None:
            if prefer > 0.0:
                return self._raw(0, n - 1, weights={0: prefer})
            return self._raw(0, n - 1)
        value: int = self._data.draw(st.integers(0, n - 1))
        return value

    def pick(self, n: int, weights: dict[int, float]) -> int:
        """A number from 0 to ``n - 1``, drawn with these probabilities while generating."""
        if self._raw is not None:
            return self._raw(0, n - 1, weights=weights)
        return self.below(n)

    def flag(self, p: float) -> bool:
        """True with probability ``p`` while generating; shrinks to False."""
        return self.below(2, prefer=1.0 - p) == 1
