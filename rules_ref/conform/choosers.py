"""Where a conformance game's decisions come from, and the rulesets it may be played under.

:class:`Chooser` takes every decision of a game from a generator seeded by
the game's seed, weighted for the games aimed at a condition (:mod:`.aims`)
by what the run has exercised so far. :class:`RulesetDrawer` draws
rulesets inside what the adapter supports, reading the values of each
switch from the ruleset's enums and from spec/variants.toml, so a new value
is drawn without an edit here, and knows the conditions a run can reach
(:func:`~rules_ref.exercise.catalogue.catalogue`).
"""

from __future__ import annotations

import random
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..exercise import catalogue as exercise
from ..protocol.handshake import Supports
from ..protocol.handshake import switch_values as _switch_values
from ..protocol.messages import SWITCHES
from ..ruleset import PassDirection, Ruleset, presets

if TYPE_CHECKING:
    from .aims import Aim


_L, _R, _A, _H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD
#: For a switch an adapter supports with any value: values drawn beside the values
#: spec/variants.toml publishes (every value of an enum switch is drawn);
#: ``None`` stands for a random integer of the switch's range.
_MORE_VALUES: dict[str, list[Any]] = {
    "pass_count": [1, 4, 5, 6, 7, 8, 9],
    "pass_cycle": [(_L, _R, _A, _H), (_A,), (_R, _L, _H)],
    "ten_of_diamonds_points": [10, -1],
    "target": [50, 26, 13, 1, None],
}
_TARGET_RANGE = 300


def _any_values(name: str, default: Any) -> tuple[list[Any], list[Any]]:
    """The values drawn of a switch declared "any", and those a run must exercise."""
    if isinstance(default, Enum):
        every = list(type(default))
        return every, every
    published = exercise.published_values(name)
    drawn = list(published)
    drawn += [v for v in _MORE_VALUES.get(name, []) if v not in drawn]
    return drawn, published


class RulesetDrawer:
    """Rulesets inside what an adapter supports, drawn one choice per switch.

    A preset the adapter supports (every one it supports, the default
    first), or a mix of switch values, each switch at its default half of the
    time; a game aimed at a switch value draws it most of the time.
    ``required`` holds, per switch, the values a run must exercise: every
    declared value, and for "any" every enum value or every value
    spec/variants.toml publishes.
    """

    def __init__(self, supports: Supports) -> None:
        default = Ruleset()
        #: The deals the adapter never makes (``spec/deal.md``, section 8): never drawn.
        self.deal_constraints = supports.deal_constraints
        self.values: list[tuple[str, list[Any]]] = []
        self.required: dict[str, list[Any]] = {}
        for name in SWITCHES:
            declared = supports.switches.get(name)
            base = getattr(default, name)
            if declared == "any":
                values, required = _any_values(name, base)
            elif declared is None:
                values = required = [base]
            else:
                values = required = _switch_values(name, declared)
            if base in values:
                values = [base] + [v for v in values if v != base]
            self.values.append((name, values))
            self.required[name] = list(required)
        self.presets = [rs for rs in presets().values() if not supports.allows(rs)]
        self._catalogues: dict[tuple[int, ...], tuple[str, ...]] = {}

    def scope(self, players: tuple[int, ...], fixed: Ruleset | None) -> exercise.Scope:
        """What a run of these player counts (and this fixed ruleset) can draw."""
        values = exercise.ruleset_values(fixed) if fixed is not None else self.required
        return exercise.Scope(players, values)

    def catalogue(self, players: tuple[int, ...], fixed: Ruleset | None) -> tuple[str, ...]:
        """The conditions a run of these player counts (and this fixed ruleset) can reach."""
        if fixed is not None:
            return exercise.catalogue(self.scope(players, fixed))
        if players not in self._catalogues:
            self._catalogues[players] = exercise.catalogue(self.scope(players, None))
        return self._catalogues[players]

    def draw(self, ch: Chooser, aim: Aim | None = None) -> Ruleset:
        wanted = aim.switches if aim is not None else {}
        if self.presets and not ch.flag(0.97 if wanted else 0.65):
            return self.presets[ch.below(len(self.presets))]
        chosen: dict[str, Any] = {}
        for name, values in self.values:
            test = wanted.get(name)
            fits = [i for i, v in enumerate(values) if test is not None and v is not None
                    and test(v)]
            if fits:
                value = values[ch.pick(len(values), dict.fromkeys(fits, 0.97 / len(fits)))]
            else:
                value = values[ch.below(len(values), prefer=0.5)]
            if value is None:
                value = 1 + ch.below(_TARGET_RANGE)
            chosen[name] = value
        return Ruleset(**chosen)


class Chooser:
    """The decisions of one game, from a generator seeded by the game's seed.

    The run draws each game's seed from a generator of its own seed
    (:meth:`.runner.Runner.search`), and the game's every decision from this
    one: a seed replays its game exactly, whatever the process drew before.
    The weights of an aimed game depend on what the run has exercised so far
    (:mod:`.aims`). A divergence is kept, like any other, as its start and its
    actions, which replay it (:mod:`.shrink` shrinks it from them).
    ``prefer`` puts that much probability on the first candidate (the planned
    or adversarial choice), the rest spread evenly over the others.
    """

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def below(self, n: int, prefer: float = 0.0) -> int:
        """A number from 0 to ``n - 1`` (0 without a draw when ``n`` is 1)."""
        if n <= 1:
            return 0
        if prefer > 0.0:
            # pick(n, {0: prefer}): the same draws, without its dict of weights
            rng = self._rng
            return 0 if rng.random() < prefer else 1 + _below(rng, n - 1)
        return _below(self._rng, n)

    def pick(self, n: int, weights: dict[int, float]) -> int:
        """A number from 0 to ``n - 1``: ``i`` with probability ``weights[i]``, the rest spread
        evenly over the others."""
        if n <= 1:
            return 0
        r = self._rng.random()
        # the weights of candidates, read as they are walked (no filtered copy of them)
        for i, w in weights.items():
            if w > 0 and 0 <= i < n:
                if r < w:
                    return i
                r -= w
        others = [i for i in range(n) if not weights.get(i, 0) > 0]
        if others:
            return others[self._rng.randrange(len(others))]
        return min(i for i, w in weights.items() if w > 0 and 0 <= i < n)

    def flag(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.below(2, prefer=1.0 - p) == 1


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` of 1 or more: the same draws (``random``'s own way, by
    ``getrandbits`` of ``n``'s bit length until one is below ``n``), without the checks and
    calls of ``randrange``, paid on nearly every decision of a game."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r
