"""Implementations that play rules of their own, whatever ruleset they are told.

An :class:`OwnRulesAdapter` is the reference engine behind the protocol
that declares no switch value in its hello (as a first implementation
does) and plays ``own``, a ruleset of its choice, in every game it is
started with: the ruleset a ``start`` names is replaced by ``own``. It is
what ``rules-ref fit`` must see through. :func:`drawn_rulesets` draws a
population of such rulesets, several switches changed at once, every value
spec/variants.toml publishes (that changes how a deal plays) in at least
one of them.
"""

from __future__ import annotations

import random
from typing import Any

from rules_ref.exercise.catalogue import published_values
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.ruleset import Ruleset

#: The switches a ruleset of the population changes: every one that changes how a deal of
#: the default's player counts plays (min_players says which counts are played, and the
#: adapter declares the default's; target ends the game, which ends too seldom in a trial).
PLAYED = ("pass_count", "pass_cycle", "pass_forbidden", "opening_lead", "first_trick_points",
          "first_trick_two_of_clubs", "hearts_broken_by", "last_trick_void", "moon",
          "moon_pair", "ten_of_diamonds_points")


class OwnRulesAdapter(ReferenceAdapter):
    """The reference engine, declaring the default and playing ``own`` in every game."""

    def __init__(self, own: Ruleset) -> None:
        super().__init__()
        self.own = own.to_dict()
        self.name = f"own-rules adapter ({own.describe()})"
        #: The ruleset each ``start`` named (the adapter plays ``own`` instead).
        self.told: list[dict[str, Any]] = []

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = super().hello(request)
        answer["supports"] = {"players": answer["supports"]["players"][1:]}  # 6 to 11
        return answer

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.told.append(msg["ruleset"])
        return super().start({**msg, "ruleset": self.own})


def drawn_rulesets(seed: int, count: int, switches: int = 3) -> list[Ruleset]:
    """``count`` rulesets of ``switches`` changed switches each, drawn from ``seed``, that
    between them set every published value of :data:`PLAYED` other than the default.

    The values are dealt out in a shuffled order, ``switches`` distinct switches to a
    ruleset; a ruleset the rules refuse together (``pass_forbidden = two-of-clubs`` with
    too many cards passed) is not made: such a pair is dealt apart.
    """
    rng = random.Random(seed)
    default = Ruleset()
    values = [(s, v) for s in PLAYED for v in published_values(s) if v != getattr(default, s)]
    rng.shuffle(values)
    out: list[dict[str, Any]] = []
    while values or len(out) < count:
        chosen: dict[str, Any] = {}
        for s, v in list(values):
            if len(chosen) < switches and s not in chosen:
                chosen[s] = v
                values.remove((s, v))
        while len(chosen) < switches:
            s = rng.choice(PLAYED)
            if s not in chosen:
                chosen[s] = rng.choice([v for v in published_values(s)
                                        if v != getattr(default, s)])
        out.append(chosen)
    return [Ruleset(**c) for c in out]
