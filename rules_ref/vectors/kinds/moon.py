"""Moon vectors: deals in which one player collects every heart and both QS, or nearly."""

from __future__ import annotations

from ...actions import MoonChoice
from ...ruleset import DEFAULT, preset
from ..endings import (
    LEADER,
    OTHERS_104,
    PAIR_SPLIT,
    SPLIT,
    SPLIT_POINTS,
    end_case,
    moon_deal,
)
from ..files import Case

#: What the kind's file holds (its ``description``).
TEXT = "Deals in which one player collects every heart and both QS, or nearly."


NEAR_MOON_X = {5: "8C 7C 7C 6C 6C 5C 5C 4C 4C 3C 3C 2C 2C"}

def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    d = DEFAULT
    for choice in (MoonChoice.SUBTRACT, MoonChoice.ADD):
        out.append(end_case(moon_deal(d), "moon", f"choice-{choice}-p8", f"Seat 1 collects "
                            f"every heart and both QS and chooses {choice}.",
                            ["MOON.CONDITION", "MOON.CHOICE", "SCORE.DEAL"], moon=choice))
    out.append(end_case(moon_deal(preset("boardgamegeek")), "moon", "others-52-boardgamegeek-p8",
                        "Under moon others-52 there is no choice: every other player scores "
                        "+52.", ["MOON.CHOICE", "MOON.CONDITION"]))
    out.append(end_case(moon_deal(OTHERS_104), "moon", "others-104-p8", "Under moon others-104 "
                        "every other player scores +104.", ["MOON.CHOICE", "MOON.CONDITION"]))
    out.append(end_case(moon_deal(preset("hubpages")), "moon", "subtract-with-10d-hubpages-p8",
                        "A moon under ten_of_diamonds_points -10: the 10D points still count "
                        "beside the moon score.",
                        ["MOON.CHOICE", "SCORE.CARD_POINTS", "MOON.CONDITION"],
                        moon=MoonChoice.SUBTRACT))
    out.append(end_case(moon_deal(d, 9, "AC AC KC KC QC QC JC JC 10C 10C 9C",
                                  extras="AH KH QH QS 2H"), "moon", "through-extras-p9",
                        "The shooter's moon counts a QS and hearts that came with the extras.",
                        ["MOON.CONDITION", "EXTRAS.FIRST_TRICK", "MOON.CHOICE"],
                        moon=MoonChoice.ADD))
    near = moon_deal(d, fixed=NEAR_MOON_X, keep_points=True, seed=71)
    out.append(end_case(near.copy(), "moon", "void-last-trick-no-moon-p8", "Seat 1 takes 12 "
                        "tricks, but the void last trick holds hearts that nobody collects: "
                        "no moon.", ["MOON.CONDITION", "VOID.LAST", "SCORE.DEAL"]))
    out.append(end_case(near.with_setup(LEADER), "moon",
                        "void-last-trick-leader-moon-wikipedia-p8", "Under last_trick_void "
                        "leader, seat 1 also collects the void last trick and shoots the moon.",
                        ["MOON.CONDITION", "VOID.LAST", "MOON.CHOICE"], moon=MoonChoice.SUBTRACT))
    out.append(end_case(near.with_setup(SPLIT), "moon", "void-last-trick-split-no-moon-p8",
                        "Under last_trick_void split-highest-pair, the last trick is split "
                        "between the two 8C players: no moon.",
                        ["MOON.CONDITION", "VOID.LAST"]))
    return out


def two_seat_cases() -> list[Case]:
    """Scoring cases from the near moon: its split last trick under the newer switch values.

    They live in the scoring kind, since nobody shoots the moon alone in them.
    """
    near = moon_deal(DEFAULT, fixed=NEAR_MOON_X, keep_points=True, seed=71)
    return [
        end_case(near.with_setup(SPLIT_POINTS), "scoring",
                 "void-last-trick-split-points-no-moon-p8", "Under last_trick_void "
                 "split-points-highest-pair, the void last trick's points are shared but its "
                 "cards stay uncollected: no moon.",
                 ["MOON.CONDITION", "VOID.LAST", "SCORE.CARD_POINTS"]),
        end_case(near.with_setup(PAIR_SPLIT), "scoring", "pair-moon-others-26-p8", "Under "
                 "moon_pair others-26, the two 8C players hold every heart and both QS between "
                 "them once the void last trick is split: both score 0, every other player "
                 "+26.", ["MOON.CONDITION", "MOON.CHOICE", "VOID.LAST"]),
    ]
