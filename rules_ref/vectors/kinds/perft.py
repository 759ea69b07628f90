"""Perft vectors: the number of legal play sequences of a given depth from a position."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ...actions import Play
from ...players.policy import choose
from ...ruleset import DEFAULT, preset
from ...state import GameState
from ...state_parts import Phase
from ..files import Case
from ..scenario import Scenario, build, seeded

#: What the kind's file holds (its ``description``).
TEXT = (
    "The number of legal play sequences of a given depth from a position, with a "
    "per-first-card breakdown.")


def perft(state: GameState, depth: int) -> tuple[int, dict[str, int], int]:
    """Leaf count, per-first-card counts, and internal nodes (the cost of a protocol replay)."""
    internal = 0

    def count(st: GameState, d: int) -> int:
        nonlocal internal
        plays = st.legal_plays()
        if d == 1:
            return len(plays)
        internal += 1
        total = 0
        for c in plays:
            seat = st.to_act
            assert seat is not None
            total += count(st.apply_unchecked(Play(seat, c))[0], d - 1)
        return total

    divide: dict[str, int] = {}
    seat = state.to_act
    assert seat is not None
    for c in state.legal_plays():
        divide[str(c)] = count(state.apply_unchecked(Play(seat, c))[0], depth - 1) \
            if depth > 1 else 1
    return sum(divide.values()), divide, internal + 1


def perft_case(sc: Scenario, depth: int, slug: str, description: str,
               rules: Sequence[str]) -> Case:
    nodes, divide, _ = perft(sc.state, depth)
    case = sc.case("perft", slug, description, rules, depth=depth,
                   expected={"nodes": nodes, "divide": divide})
    del case["steps"]
    return case


def _first_with(sc: Scenario, seed: int, ok: Callable[[GameState], bool]) -> Scenario:
    """Play on with the built-in player until ``ok`` holds (deterministic)."""
    rng = random.Random(seed)
    while not ok(sc.state):
        assert sc.state.phase in (Phase.PASSING, Phase.PLAYING)
        sc.pre(choose(sc.state, rng))
    return sc


def _cancel_possible(st: GameState) -> bool:
    if st.phase is not Phase.PLAYING or not st.trick or st.trick_number < 2:
        return False
    seat = st.to_act
    assert seat is not None
    return any(c in st.trick for c in st.legal_plays()) and len(st.trick) <= 3


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    d = DEFAULT
    sc = _first_with(seeded(6, d, 7), 7, lambda s: s.phase is Phase.PLAYING and len(s.trick) == 3)
    out.append(perft_case(sc, 4, "mid-trick1-p6", "Trick 1 half played: the rest of the trick "
                          "and the next lead.", ["FOLLOW.SUIT", "TRICK.WINNER",
                                                 "TRICK.NEXT_LEADER", "LEAD.HEARTS",
                                                 "TRICK.CANCEL"]))
    sc = _first_with(seeded(8, d, 2), 2, _cancel_possible)
    out.append(perft_case(sc, 4, "cancel-possible-p8", "Mid-trick, the seat to act can cancel "
                          "a card on the table.", ["TRICK.CANCEL", "FOLLOW.SUIT",
                                                   "TRICK.WINNER", "VOID.TRICK"]))
    sc = build(7, d, {1: "5C", 2: "5C", 3: "7C", 4: "7C", 5: "9C", 6: "9C", 0: "2D"},
               voids={0: "C"}, seed=81)
    sc.play("5C", "5C", "7C", "7C", "9C", "9C")
    out.append(perft_case(sc, 3, "void-trick-completes-p7", "The last card completes a void "
                          "trick; its leader leads again.", ["VOID.TRICK", "VOID.LEADER",
                                                               "LEAD.HEARTS", "FOLLOW.SUIT"]))
    sc = _first_with(seeded(6, d, 8), 8, lambda s: s.phase is Phase.PLAYING)
    out.append(perft_case(sc, 3, "opening-lead-p6", "From the opening lead.",
                          ["LEAD.OPENING_CARD", "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK"]))
    sc = _first_with(seeded(11, d, 9), 9,
                     lambda s: s.phase is Phase.PLAYING and s.trick_number == 2
                     and len(s.trick) == 8)
    out.append(perft_case(sc, 4, "trick2-end-p11", "The end of trick 2 and the start of "
                          "trick 3 at 11 players.", ["FOLLOW.SUIT", "TRICK.NEXT_LEADER",
                                                     "TRICK.CANCEL", "LEAD.HEARTS"]))
    tpl = preset("hearts-template")
    sc = _first_with(seeded(6, tpl, 10), 10,
                     lambda s: s.phase is Phase.PLAYING and len(s.trick) == 2)
    out.append(perft_case(sc, 3, "first-trick-forbidden-template", "Trick 1 under "
                          "first_trick_points forbidden and the two-of-clubs lead.",
                          ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT", "LEAD.OPENING_CARD"]))
    mensa = preset("mensa")
    sc = _first_with(seeded(9, mensa, 11), 11,
                     lambda s: s.phase is Phase.PLAYING and s.trick_number == 2
                     and len(s.trick) == 7)
    out.append(perft_case(sc, 4, "not-needed-mensa-p9", "End of trick 2 and the next lead "
                          "under hearts_broken_by not-needed.",
                          ["LEAD.HEARTS", "HEARTS.BROKEN", "FOLLOW.SUIT"]))
    return out
