"""Scoring vectors: the last card of a deal, its scores, the cards nobody collects."""

from __future__ import annotations

from ...ruleset import DEFAULT, preset
from ..endings import (
    LEADER,
    SPLIT,
    SPLIT_POINTS,
    end_case,
    played,
)
from ..files import Case
from .moon import two_seat_cases

#: What the kind's file holds (its ``description``).
TEXT = (
    "The last card of a deal: card points, deal scores, totals, cards nobody "
    "collects; the next deal.")


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    d = DEFAULT
    sc = played(8, d, 3, deal_number=4, totals=[10, 0, 25, 3, 40, 7, 0, 12])
    out.append(end_case(sc, "scoring", "ordinary-then-next-deal-p8", "An ordinary deal 4: "
                        "card points become deal scores and are added to the totals; deal 5 "
                        "is then dealt by the next seat and passes left.",
                        ["SCORE.CARD_POINTS", "SCORE.DEAL", "GAME.END", "DEAL.DEALER",
                         "PASS.DIRECTION"], then_deal=3))
    sc = played(9, d, 9)
    out.append(end_case(sc, "scoring", "extras-with-points-p9", "The winner of trick 1 took "
                        "the 5 extras, a QS and two hearts among them, and scores them.",
                        ["EXTRAS.FIRST_TRICK", "SCORE.CARD_POINTS", "SCORE.DEAL"]))
    base = played(8, d, 119)
    out.append(end_case(base.copy(), "scoring", "last-trick-void-nobody-p8", "The last trick "
                        "is void: its cards are collected by nobody and score nothing.",
                        ["VOID.LAST", "VOID.TRICK", "SCORE.DEAL", "MOON.CONDITION"]))
    out.append(end_case(base.with_setup(LEADER), "scoring",
                        "last-trick-void-leader-wikipedia-p8", "Under last_trick_void leader, "
                        "the leader of the void last trick collects it.", ["VOID.LAST"]))
    out.append(end_case(base.with_setup(SPLIT), "scoring", "last-trick-void-split-p8",
                        "Under last_trick_void split-highest-pair, the pending cards are dealt "
                        "alternately to the two players of the highest cancelled pair of the "
                        "led suit.", ["VOID.LAST"]))
    out.append(end_case(base.with_setup(SPLIT_POINTS), "scoring",
                        "last-trick-void-split-points-p8", "Under last_trick_void "
                        "split-points-highest-pair, nobody collects the pending cards; their "
                        "heart and QS points are split between the two players of the highest "
                        "cancelled pair of the led suit, an odd point to the earlier of them.",
                        ["VOID.LAST", "SCORE.CARD_POINTS"]))
    out.extend(two_seat_cases())
    sc = played(6, d, 14)
    out.append(end_case(sc, "scoring", "last-trick-void-queen-uncollected-p6", "A QS in the "
                        "void last trick is uncollected: the card points sum to 52 less its "
                        "13 and the hearts with it.", ["VOID.LAST", "SCORE.DEAL",
                                                        "SCORE.CARD_POINTS"]))
    sc = played(6, preset("hubpages"), 4, totals=[20, 35, 0, 12, 50, 3])
    out.append(end_case(sc, "scoring", "ten-of-diamonds-hubpages-p6", "Under "
                        "ten_of_diamonds_points -10, each 10D collected counts -10.",
                        ["SCORE.CARD_POINTS", "SCORE.DEAL"]))
    sc = played(10, d, 21)
    out.append(end_case(sc, "scoring", "ordinary-p10", "An ordinary 10-player deal with 4 "
                        "extras.", ["SCORE.CARD_POINTS", "SCORE.DEAL", "EXTRAS.FIRST_TRICK"]))
    return out
