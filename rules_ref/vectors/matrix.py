"""The distinguishing matrix: for every switch, which cases tell each pair of its values apart.

A case *distinguishes* two values of a switch when its expectations hold
under one of them and not under the other: an implementation of one value
in place of the other fails it. What a case holds under is its analysis
(:mod:`.requirements`): it holds under its own value and under every
documented value its ``depends_on`` does not list for the switch.

Every pair of documented values of every switch needs at least one
distinguishing case (:func:`gaps`), and so does each boundary of a rule
that a switch changes (:data:`BOUNDARIES`): each kind of ``pass_cycle``
step and each player count, in the passing cases, for the pass direction, an odd and an even
number of points (and of pending cards) for the splits of a void last
trick, and the 5-player game of ``min_players``. ``rules-ref vectors
generate`` prints the matrix (:func:`matrix_lines`); ``rules-ref vectors
check`` and the tests fail on a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..cards import Card, parse_card, penalty_points
from ..passing import pass_direction
from ..ruleset import Ruleset
from .files import Case
from .requirements import FIELD, documented, end_of_prefix, show

Json = Any


def holds_under(case: Case, switch: str, value: Json) -> bool | None:
    """Does ``case`` hold with ``switch`` at ``value``? ``None`` for a case without analysis."""
    analysed = case.get(FIELD)
    if not isinstance(analysed, dict):
        return None
    if case["ruleset"].get(switch) == value:
        return True
    return value not in analysed.get(switch, [])


def distinguishes(case: Case, switch: str, a: Json, b: Json) -> bool:
    """Does ``case`` hold under exactly one of ``a`` and ``b``?"""
    ha, hb = holds_under(case, switch, a), holds_under(case, switch, b)
    return ha is not None and hb is not None and ha != hb


def tells_apart(case: Case, switch: str) -> bool:
    """Does ``case`` distinguish some pair of the switch's values?"""
    return bool(case.get(FIELD, {}).get(switch))


# --- boundaries ---------------------------------------------------------------------------


def _deal_number(case: Case) -> int:
    start = case["start"]
    if "position" in start:
        return int(start["position"]["deal_number"])
    return int(start["deal_number"])


def _step_kind(case: Case) -> str:
    """The kind of pass step of the case's deal (``left``, ``across``, ``left-k``, …)."""
    step = str(pass_direction(_deal_number(case), Ruleset.from_dict(case["ruleset"])))
    return step.split("-")[0] + "-k" if "-" in step else step


def _uncollected(case: Case) -> list[Card] | None:
    facts = case.get("facts")
    if not isinstance(facts, dict) or not facts.get("uncollected"):
        return None
    return [parse_card(c) for c in facts["uncollected"]]


def _split_points(parity: int) -> Callable[[Case], bool]:
    def ok(case: Case) -> bool:
        cards = _uncollected(case)
        return cards is not None and penalty_points(cards) % 2 == parity
    return ok


def _pending_at_end(case: Case) -> int | None:
    """How many cards are pending once the deal's last card is played (the case stands one
    card short of the end of a deal whose last trick is void), else ``None``."""
    state = end_of_prefix(case)
    if state is None or sum(len(h) for h in state.hands) != 1:
        return None
    return len(state.pending) + state.players


def _split_cards(parity: int) -> Callable[[Case], bool]:
    def ok(case: Case) -> bool:
        n = _pending_at_end(case)
        return n is not None and n % 2 == parity
    return ok


def _passing(case: Case) -> bool:
    return str(case["id"]).startswith("passing/")


def _step(kind: str) -> Callable[[Case], bool]:
    """A passing case of a deal whose step is of ``kind``."""
    return lambda case: _passing(case) and _step_kind(case) == kind


def _players(n: int, passing: bool = False) -> Callable[[Case], bool]:
    """A case of ``n`` players (a passing case, when ``passing``)."""
    return lambda case: case["players"] == n and (not passing or _passing(case))


@dataclass(frozen=True)
class Boundary:
    """A condition of a rule a switch changes, which some distinguishing case must meet.

    ``value``: the value the case must play and tell apart from another, or
    ``None`` for any pair of the switch.
    """

    switch: str
    label: str
    meets: Callable[[Case], bool]
    value: Json = None

    def counts(self, case: Case) -> bool:
        if not self.meets(case):
            return False
        if self.value is None:
            return tells_apart(case, self.switch)
        if case["ruleset"].get(self.switch) != self.value:
            return False  # the boundary is that value's: the case plays it
        return any(distinguishes(case, self.switch, self.value, other)
                   for other in documented()[self.switch] if other != self.value)


SPLIT_POINTS = "split-points-highest-pair"
SPLIT_CARDS = "split-highest-pair"

#: The boundaries of the rules the switches change (see the module docstring).
BOUNDARIES: tuple[Boundary, ...] = (
    *(Boundary("pass_cycle", f"a passing case of a deal whose step is {kind}", _step(kind))
      for kind in ("left", "right", "across", "hold", "left-k", "right-k")),
    *(Boundary("pass_cycle", f"a passing case of {n} players", _players(n, True))
      for n in range(5, 12)),
    Boundary("min_players", "5 players", _players(5), 5),
    Boundary("last_trick_void", "an even number of points split", _split_points(0),
             SPLIT_POINTS),
    Boundary("last_trick_void", "an odd number of points split (the odd point)",
             _split_points(1), SPLIT_POINTS),
    Boundary("last_trick_void", "an even number of pending cards dealt out", _split_cards(0),
             SPLIT_CARDS),
    Boundary("last_trick_void", "an odd number of pending cards dealt out", _split_cards(1),
             SPLIT_CARDS),
)


# --- the matrix ---------------------------------------------------------------------------


def pair_counts(cases: Sequence[Case]) -> dict[str, dict[tuple[int, int], int]]:
    """Switch -> (index of a, index of b) -> how many cases distinguish the two values."""
    out: dict[str, dict[tuple[int, int], int]] = {}
    for switch, values in documented().items():
        out[switch] = {(i, j): sum(1 for c in cases if distinguishes(c, switch, a, b))
                       for (i, a), (j, b) in combinations(enumerate(values), 2)}
    return out


def boundary_counts(cases: Sequence[Case]) -> list[tuple[Boundary, int]]:
    """Each boundary with the number of cases that meet it and distinguish its switch."""
    return [(b, sum(1 for c in cases if b.counts(c))) for b in BOUNDARIES]


def gaps(cases: Sequence[Case]) -> list[str]:
    """Every pair of values, and every boundary, that no case distinguishes."""
    out: list[str] = []
    for switch, pairs in pair_counts(cases).items():
        values = documented()[switch]
        out.extend(f"switch {switch}: no vector distinguishes {show(values[i])} from "
                   f"{show(values[j])}" for (i, j), n in pairs.items() if n == 0)
    out.extend(f"switch {b.switch}: no distinguishing vector at the boundary {b.label}"
               + (f" (for {show(b.value)})" if b.value is not None else "")
               for b, n in boundary_counts(cases) if n == 0)
    return out


def matrix_lines(cases: Sequence[Case]) -> list[str]:
    """The matrix as text: per switch, its values numbered, each pair's count, the boundaries."""
    lines = ["distinguishing matrix: for each switch, how many vectors tell each pair of its "
             "values apart"]
    bounds = boundary_counts(cases)
    for switch, pairs in pair_counts(cases).items():
        values = documented()[switch]
        least = min(pairs.values(), default=0)
        lines.append(f"{switch}: {len(values)} values, {len(pairs)} pairs, the least "
                     f"distinguished pair by {least} vector{'s' if least != 1 else ''}")
        lines.extend(f"  {i + 1}. {show(v)}" for i, v in enumerate(values))
        width = len(str(len(values)))
        for i in range(len(values)):
            row = " ".join(f"{pairs[(i, j)]:>4}" if j > i else
                           (f"{pairs[(j, i)]:>4}" if j < i else "   -")
                           for j in range(len(values)))
            lines.append(f"  {i + 1:>{width}} |{row}")
        lines.extend(f"  boundary {b.label}: {n}" for b, n in bounds if b.switch == switch)
    missing = gaps(cases)
    lines.append(f"{len(missing)} gap{'s' if len(missing) != 1 else ''}" +
                 (": " + "; ".join(missing) if missing else ""))
    return lines
