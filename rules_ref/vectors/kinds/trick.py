"""Trick vectors: the last card of a trick.

Its winner, cancellations, void tricks, the pending pile and the extras.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...ruleset import DEFAULT, Ruleset
from ...state import GameState
from ..files import Case
from ..scenario import Scenario, build, texts

#: What the kind's file holds (its ``description``).
TEXT = (
    "The last card of a trick: winner, cancellation, void tricks, the pending pile "
    "and the extras.")


def trick_facts(state: GameState) -> dict[str, Any]:
    t = state.tricks[-1]
    return {"led_suit": t.led_suit.name, "cancelled": texts(t.cancelled), "void": t.void,
            "winning_card": None if t.winning_card is None else str(t.winning_card)}


TRICK_FIELDS = ("phase", "to_act", "trick_number", "leader", "trick", "hearts_broken",
                "last_trick", "pending", "points")


def trick_case(sc: Scenario, last: str, slug: str, description: str,
               rules: Sequence[str]) -> Case:
    sc.step_play(last, TRICK_FIELDS)
    return sc.case("trick", slug, description, rules, trick_facts(sc.state))


def last_trick_kept(ruleset: Ruleset) -> Case:
    """Trick 1 complete, then the first card of trick 2: ``last_trick`` still shows trick 1
    until trick 2 completes (``spec/protocol.md``), and its winner leads."""
    sc = build(6, ruleset, {1: "9C", 2: "10C", 3: "JC", 4: "3C", 5: "2C", 0: "4C"},
               extras="AH 5H", seed=61)
    sc.play("9C", "10C", "JC", "3C", "2C")
    sc.step_play("4C", TRICK_FIELDS)
    sc.step_play(str(sc.state.legal_plays()[0]), TRICK_FIELDS)
    return sc.case("trick", "last-trick-kept-p6", "The winner of trick 1 leads trick 2; "
                   "until trick 2 is complete, last_trick still shows trick 1.",
                   ["TRICK.WINNER", "TRICK.NEXT_LEADER", "TURN.ORDER"])


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    d = DEFAULT
    sc = build(6, d, {1: "9C", 2: "10C", 3: "JC", 4: "3C", 5: "2C", 0: "4C"},
               extras="AH 5H", seed=61)
    sc.play("9C", "10C", "JC", "3C", "2C")
    out.append(trick_case(sc, "4C", "highest-wins-takes-extras-p6", "The highest card of the "
                          "led suit wins (J over 10 over 9) and the extras go with trick 1.",
                          ["TRICK.WINNER", "DECK.RANKING", "TRICK.NEXT_LEADER",
                           "EXTRAS.FIRST_TRICK", "TURN.ORDER"]))
    out.append(last_trick_kept(d))
    sc = build(6, d, {0: "10S", 1: "9H", 2: "9H", 3: "10S", 4: "KS", 5: "3S"},
               voids={1: "S", 2: "S"}, extras="2D 3D", dealer=5, seed=62)
    sc.play("10S", "9H", "9H", "10S", "KS")
    out.append(trick_case(sc, "3S", "seed-example-p6", "The seed's example: 10S 9H 9H 10S KS "
                          "3S; both pairs cancel and KS wins.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "TRICK.LED_SUIT", "HEARTS.BROKEN"]))
    sc = build(7, d, {1: "KD", 2: "AD", 3: "5D", 4: "AD", 5: "2D", 6: "QD", 0: "3D"},
               extras="2H 3H 4H 5H 6H 7H", seed=63)
    sc.play("KD", "AD", "5D", "AD", "2D", "QD")
    out.append(trick_case(sc, "3D", "highest-cancelled-p7", "Both aces cancel; the king wins "
                          "and takes 6 extras.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "EXTRAS.FIRST_TRICK"]))
    sc = build(8, d, {1: "4S", 2: "2S", 3: "AH", 4: "AD", 5: "3S", 6: "5S", 7: "KC", 0: "2S"},
               voids={3: "S", 4: "S", 7: "S"}, seed=64)
    sc.play("4S", "2S", "AH", "AD", "3S", "5S", "KC")
    out.append(trick_case(sc, "2S", "no-trumps-p8", "Higher cards of other suits never win: "
                          "5S wins over AH, AD and KC.",
                          ["DECK.RANKING", "TRICK.WINNER", "TRICK.CANCEL"]))
    void6 = {1: "5C 8D", 2: "5C 9D", 3: "9D 10D", 4: "KS 3D", 5: "2D 4D", 0: "JD 6D"}
    cvoid = {3: "C", 4: "C", 5: "C", 0: "C"}
    sc = build(6, d, void6, voids=cvoid, extras="QH AH", seed=65)
    sc.play("5C", "5C", "9D", "KS", "2D")
    out.append(trick_case(sc, "JD", "void-trick1-extras-pending-p6", "Both 5C cancel and no "
                          "other club is played: trick 1 is void, its cards and the extras go "
                          "to the pending pile, and its leader leads again.",
                          ["VOID.TRICK", "VOID.LEADER", "EXTRAS.FIRST_TRICK", "TRICK.CANCEL"]))
    sc = build(6, d, void6, voids=cvoid, extras="QH AH", seed=65)
    sc.play("5C", "5C", "9D", "KS", "2D", "JD", "8D", "9D", "10D", "3D", "4D")
    out.append(trick_case(sc, "6D", "collect-pending-with-extras-p6", "The winner of trick 2 "
                          "collects the pending trick 1 and the extras with it.",
                          ["VOID.COLLECT", "EXTRAS.FIRST_TRICK", "TRICK.WINNER"]))
    two_voids = {1: "6C 7C 8C", 2: "6C 7C 9C", 3: "2D 4S 2H", 4: "3D 5S 3H", 5: "4D 6S QS",
                 6: "5D 7S 4H", 7: "2S 8S 5H", 0: "3S 9S 6H"}
    sc = build(8, d, two_voids, voids={s: "C" for s in (3, 4, 5, 6, 7, 0)}, seed=66)
    sc.play("6C", "6C", "2D", "3D", "4D", "5D", "2S", "3S")
    sc.play("7C", "7C", "4S", "5S", "6S", "7S", "8S", "9S")
    sc.play("8C", "9C", "2H", "3H", "QS", "4H", "5H")
    out.append(trick_case(sc, "6H", "collect-two-voids-p8", "Two void tricks in a row, then "
                          "a trick with a winner, who collects both.",
                          ["VOID.COLLECT", "VOID.TRICK", "VOID.LEADER", "TRICK.WINNER",
                           "SCORE.CARD_POINTS"]))
    sc = build(8, d, {1: "9D", 2: "9D", 3: "AC", 4: "2D", 5: "KC", 6: "3D", 7: "4S", 0: "5C"},
               voids={3: "D", 5: "D", 7: "D", 0: "D"}, seed=70)
    sc.play("9D", "9D", "AC", "2D", "KC", "3D", "4S")
    out.append(trick_case(sc, "5C", "led-card-cancelled-p8", "The led 9D is cancelled and "
                          "higher clubs follow, but diamonds stay the led suit: 3D wins.",
                          ["TRICK.LED_SUIT", "TRICK.CANCEL", "TRICK.WINNER"]))
    sc = build(9, d, {1: "8C", 2: "8C", 3: "KC", 4: "KC", 5: "3C", 6: "9C", 7: "2H", 8: "2H",
                      0: "4C"}, voids={7: "C", 8: "C"}, extras="AH KH QH JH 10H", seed=67)
    sc.play("8C", "8C", "KC", "KC", "3C", "9C", "2H", "2H")
    out.append(trick_case(sc, "4C", "three-pairs-p9", "Three pairs cancel (the lead, the "
                          "highest club and an off-suit pair); 9C wins.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "TRICK.LED_SUIT"]))
    sc = build(11, d, {1: "AC", 2: "AC", 3: "KC", 4: "KC", 5: "QC", 6: "QC", 7: "JC", 8: "2D",
                       9: "QS", 10: "QS", 0: "3D"}, voids={8: "C", 9: "C", 10: "C", 0: "C"},
               extras="2S 3S 4S 5S 6S", seed=68)
    sc.play("AC", "AC", "KC", "KC", "QC", "QC", "JC", "2D", "QS", "QS")
    out.append(trick_case(sc, "3D", "cancelled-queens-score-p11", "The three highest clubs "
                          "cancel, JC wins and takes both cancelled QS: 26 points.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "SCORE.CARD_POINTS"]))
    sc = build(10, d, {1: "2C", 2: "2C", 3: "3C", 4: "3C", 5: "AD", 6: "AD", 7: "KH", 8: "KH",
                       9: "QS", 0: "QS"}, voids={s: "C" for s in (5, 6, 7, 8, 9, 0)},
               extras="4H 5H 6H 7H", seed=69)
    sc.play("2C", "2C", "3C", "3C", "AD", "AD", "KH", "KH", "QS")
    out.append(trick_case(sc, "QS", "void-all-paired-p10", "Every card of trick 1 is paired: "
                          "void; the trick and the 4 extras are pending, and the cancelled KH "
                          "and QS break hearts.",
                          ["VOID.TRICK", "TRICK.CANCEL", "HEARTS.BROKEN", "EXTRAS.FIRST_TRICK"]))
    five = Ruleset.from_dict({"min_players": 5, "pass_cycle": ["hold"]})
    sc = build(5, five, {1: "9C", 2: "QC", 3: "9C", 4: "3C", 0: "4C"}, extras="AH 5H QS 2D",
               seed=161)
    sc.play("9C", "QC", "9C", "3C")
    out.append(trick_case(sc, "4C", "five-players-extras-p5", "With 5 players (min_players 5) "
                          "each hand holds 20 cards; the two 9C cancel, the QC wins and takes "
                          "the 4 extras with trick 1.",
                          ["PLAYERS.COUNT", "DEAL.SIZE", "EXTRAS.FIRST_TRICK", "TRICK.CANCEL",
                           "TRICK.WINNER"]))
    return out
