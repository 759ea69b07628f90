"""Illegal-action vectors: actions the rules forbid, each with the rule it breaks."""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ...cards import TWO_OF_CLUBS, Card, full_deck, parse_card
from ...players.game import next_deal
from ...ruleset import DEFAULT, preset
from ...state import GameState
from ...state_parts import Phase
from ..endings import (
    last_card,
    moon_deal,
    played,
)
from ..files import Case
from ..scenario import Scenario, build, seeded
from ..versions import version_presets

#: What the kind's file holds (its ``description``).
TEXT = "Actions the rules forbid, each with the rule it breaks."


def _not_held(hand: Sequence[Card]) -> Card:
    return next(c for c in sorted(set(full_deck())) if c not in hand)


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    d = DEFAULT

    def bad(sc: Scenario, action: Action, slug: str, description: str,
            rules: Sequence[str]) -> None:
        sc = sc.copy()
        got = sc.reject(action)
        assert got[0] in rules, (slug, got)
        out.append(sc.case("illegal-action", slug, description, rules))

    follow = build(6, d, {1: "9D", 2: "9D 2D KD AS QS 3H"}, seed=45)
    follow.play("9D")
    bad(follow, Play(2, parse_card("AS")), "follow-suit-p6", "Seat 2 holds diamonds and "
    "plays a spade.", ["FOLLOW.SUIT"])
    bad(follow, Play(3, follow.state.hands[3][0]), "wrong-seat-p6", "Seat 3 plays out of "
    "turn.", ["TURN.ORDER"])
    bad(follow, Play(2, _not_held(follow.state.hands[2])), "card-not-held-p6", "Seat 2 plays "
    "a card it does not hold.", ["TURN.OWN_CARD"])
    bad(follow, Play(6, parse_card("2C")), "no-such-seat-p6", "Seat 6 does not exist in a "
    "6-player game.", ["TURN.ORDER", "PLAYERS.COUNT"])
    bad(follow, Pass(2, follow.state.hands[2][:3]), "pass-while-playing-p6", "A pass during "
    "play.", ["TURN.ORDER"])
    opening = build(6, d, {1: "2C 3C QS AH KH 9D"}, seed=31)
    bad(opening, Play(1, parse_card("AH")), "opening-heart-p6", "The opening lead is a heart "
    "from a hand holding clubs.", ["LEAD.OPENING_CARD"])
    bad(opening, Play(1, parse_card("QS")), "opening-queen-p6", "The opening lead is a QS "
    "from a hand holding clubs.", ["LEAD.OPENING_CARD"])
    bad(opening, ChooseMoon(1, MoonChoice.ADD), "moon-while-playing-p6", "A moon choice "
    "during play.", ["TURN.ORDER", "MOON.CHOICE"])
    bad(opening, next_deal(GameState.start(6), 1), "deal-while-playing-p6", "A deal during "
    "play.", ["TURN.ORDER", "DEAL.SOURCE"])
    trick1 = {1: "3C", 2: "4C", 3: "5C", 4: "6C", 5: "7C"}
    sc = build(6, d, {**trick1, 0: "AC QS AH KH 2D"}, seed=39)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    bad(sc, Play(0, parse_card("AH")), "lead-heart-unbroken-p6", "A heart led before hearts "
    "are broken, from a hand holding other cards.", ["LEAD.HEARTS"])
    bad(sc, Play(1, sc.state.hands[1][0]), "winner-leads-p6", "After a won trick, a seat "
    "other than the winner leads.", ["TURN.ORDER", "TRICK.NEXT_LEADER"])
    hearts14 = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH"
    sc = build(6, d, {1: f"5C QS QS {hearts14}", 2: "5C", 3: "7C", 4: "7C", 5: "9C",
                      0: "9C"}, seed=38)
    sc.play("5C", "5C", "7C", "7C", "9C", "9C")
    bad(sc, Play(1, parse_card("KH")), "heart-after-void-trick1-p6", "After a void trick 1, "
    "its leader leads a heart while holding a QS and hearts are unbroken.",
        ["LEAD.HEARTS", "VOID.LEADER"])
    bad(sc, Play(2, sc.state.hands[2][0]), "void-trick-wrong-leader-p6", "After a void trick, "
    "a seat other than its leader leads.", ["TURN.ORDER", "VOID.LEADER"])
    tpl = preset("hearts-template")
    sc = build(6, tpl, {1: "2C 2C", 2: "QS AH 3D 4S"}, voids={2: "C"}, seed=48)
    sc.play("2C")
    bad(sc, Play(2, parse_card("QS")), "first-trick-queen-template", "Under "
    "first_trick_points forbidden, a QS discarded on trick 1.", ["FOLLOW.FIRST_TRICK"])
    bad(sc, Play(2, parse_card("AH")), "first-trick-heart-template", "Under "
    "first_trick_points forbidden, a heart discarded on trick 1.", ["FOLLOW.FIRST_TRICK"])
    lcg = version_presets(1)["lovecardgames"]  # its four-step cycle, as first published
    sc = build(6, lcg, {3: "2C", 5: "2C"}, seed=36)
    bad(sc, Play(3, sc.state.hands[3][1]), "two-of-clubs-other-card", "Under two-of-clubs, "
    "the holder of a 2C opens with another card.", ["LEAD.OPENING_CARD"])
    bad(sc, Play(1, sc.state.hands[1][0]), "two-of-clubs-wrong-leader", "Under two-of-clubs, "
    "the dealer's left opens although it holds no 2C.",
        ["TURN.ORDER", "LEAD.OPENING_LEADER"])
    sc = build(6, preset("hubpages"), {1: "10D 2C AH QS 5D"}, seed=33)
    bad(sc, Play(1, parse_card("10D")), "opening-ten-of-diamonds-hubpages", "Under "
    "left-of-dealer-no-scoring with a scoring 10D, the 10D opens.",
        ["LEAD.OPENING_CARD", "SCORE.CARD_POINTS"])
    passing = seeded(6, d, 11)
    h1 = passing.state.hands[1]
    bad(passing, Play(1, h1[0]), "play-while-passing-p6", "A play during the passing phase.",
        ["TURN.ORDER"])
    bad(passing, Pass(1, h1[:2]), "pass-two-cards-p6", "A pass of 2 cards when the ruleset "
    "passes 3.", ["PASS.CARDS"])
    bad(passing, Pass(1, h1[:4]), "pass-four-cards-p6", "A pass of 4 cards.", ["PASS.CARDS"])
    bad(passing, Pass(1, (*h1[:2], _not_held(h1))), "pass-card-not-held-p6", "A pass of a "
    "card the seat does not hold.", ["PASS.CARDS"])
    single = next(c for c in h1 if h1.count(c) == 1)
    bad(passing, Pass(1, (single, single, h1[-1] if h1[-1] != single else h1[0])),
    "pass-both-copies-holding-one-p6", "A pass of both copies of a card of which the "
    "seat holds one.", ["PASS.CARDS"])
    twice = passing.copy()
    twice.pre(Pass(1, h1[:3]))
    bad(twice, Pass(1, h1[3:6]), "pass-twice-p6", "A seat passes a second time: a pass once "
    "given cannot be changed.", ["PASS.EXCHANGE"])
    bgg = seeded(8, preset("boardgamegeek"), 12)
    bad(bgg, Pass(1, bgg.state.hands[1][:3]), "pass-three-of-two-boardgamegeek", "Under "
    "pass_count 2, a pass of 3 cards.", ["PASS.CARDS"])
    hold = seeded(7, preset("bicycle"), 13)
    bad(hold, Pass(1, hold.state.hands[1][:3]), "pass-under-hold-bicycle", "Under "
    "pass_cycle [hold] there is no passing phase.", ["TURN.ORDER", "PASS.DIRECTION"])
    allanh = seeded(8, preset("allanh"), 12)
    holder = next(s for s in allanh.state.waiting_for if TWO_OF_CLUBS in allanh.state.hands[s])
    others = [c for c in allanh.state.hands[holder] if c != TWO_OF_CLUBS][:2]
    bad(allanh, Pass(holder, tuple(sorted((TWO_OF_CLUBS, *others)))),
        "pass-two-of-clubs-allanh-p8", "Under pass_forbidden two-of-clubs, a pass that "
        "includes a 2C.", ["PASS.CARDS"])
    sc = build(8, preset("allanh"), {1: "2C 5C", 2: "3C", 3: "2C 9C"}, seed=55)
    sc.play("2C", "3C")
    bad(sc, Play(3, parse_card("9C")), "first-trick-club-over-two-of-clubs-allanh-p8", "Under "
        "first_trick_two_of_clubs must-play, the second 2C holder follows with another club.",
        ["FOLLOW.FIRST_TRICK"])
    moon = moon_deal(d)
    moon.pre(last_card(moon))
    bad(moon, ChooseMoon(2, MoonChoice.ADD), "moon-by-other-seat-p8", "A seat other than the "
    "shooter makes the moon choice.", ["TURN.ORDER", "MOON.CHOICE"])
    bad(moon, Play(1, parse_card("2C")), "play-during-moon-choice-p8", "A play while the "
    "moon choice is awaited.", ["TURN.ORDER", "MOON.CHOICE"])
    moon52 = moon_deal(preset("boardgamegeek"))
    moon52.pre(last_card(moon52))
    bad(moon52, ChooseMoon(1, MoonChoice.SUBTRACT), "moon-choice-without-choice-"
    "boardgamegeek", "Under moon others-52 there is no choice to make.",
        ["TURN.ORDER", "MOON.CHOICE"])
    scored = played(8, d, 3)
    scored.pre(last_card(scored))
    good = next_deal(scored.state, 3)
    short = DealCards((good.hands[0][1:], (*good.hands[1], good.hands[0][0]), *good.hands[2:]),
                      good.extras)
    bad(scored, short, "deal-wrong-sizes-p8", "A deal whose hands are not all 13 cards.",
        ["DEAL.SIZE"])
    three = DealCards(((*good.hands[0][1:], good.hands[1][0]), *good.hands[1:]), good.extras)
    bad(scored, three, "deal-card-three-times-p8", "A deal that holds one card three times "
    "and another once.", ["DECK.CARDS"])
    bad(scored, Play(1, parse_card("2C")), "play-between-deals-p8", "A play after the deal is "
    "scored, before the next deal.", ["TURN.ORDER"])
    over = played(8, d, 3).with_setup(totals=[60, 131, 87, 81, 91, 95, 117, 111])
    over.pre(last_card(over))
    assert over.state.phase is Phase.GAME_OVER
    bad(over, next_deal(over.state, 3), "deal-after-game-over-p8", "A deal after the game is "
    "over.", ["TURN.ORDER", "GAME.END"])
    bad(over, Play(1, parse_card("2C")), "play-after-game-over-p8", "A play after the game "
    "is over.", ["TURN.ORDER", "GAME.END"])
    return out
