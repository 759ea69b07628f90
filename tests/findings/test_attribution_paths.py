"""``rules_ref.findings.attribution``: the rule each kind of disagreement falls under.

Each case takes a real reference position (from seeded 7-player games, a
built moon deal, or a deal of mirrored hands), states one observation field
as the reference has it and as a broken implementation might, and checks
the rules named.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from rules_ref.actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from rules_ref.cards import Suit, parse_card, parse_cards
from rules_ref.causes import play_situation_rule
from rules_ref.findings.attribution import observation_rules, rejected_legal_rules
from rules_ref.players.game import game_steps, next_deal
from rules_ref.positions.convert import state_from_position
from rules_ref.positions.text import parse_position
from rules_ref.protocol.observation import observe
from rules_ref.ruleset import DEFAULT, FirstTrickPoints, PassDirection, Ruleset, preset
from rules_ref.scoring import card_points
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.vectors import last_card, moon_deal

Step = tuple[GameState, Action, GameState]


@cache
def _steps(seed: int) -> tuple[Step, ...]:
    return tuple((b, a, af) for b, a, af, _ in game_steps(7, seed=seed))


def _step(seed: int, actions: int) -> Step:
    """The step of game ``seed`` after which ``actions`` actions have been applied."""
    step = _steps(seed)[actions - 1]  # one step per action, the first applies action 1
    assert len(step[2].actions) == actions
    return step


def _trick_won_first() -> Step:  # seed 0: trick 1 won (7 players: the winner takes the extras)
    before, action, after = _step(0, 15)
    assert before.trick_number == 1 and after.tricks[-1].winner is not None
    assert before.extras and not before.pending
    return before, action, after


def _void_trick() -> Step:
    before, action, after = _step(0, 509)
    assert after.tricks[-1].winner is None and after.phase is Phase.PLAYING
    return before, action, after


def _pile_collected() -> Step:
    before, action, after = _step(0, 516)
    assert before.pending and after.tricks[-1].winner is not None
    return before, action, after


def _last_trick_void() -> Step:
    before, action, after = _step(8, 1484)
    assert after.tricks[-1].winner is None and after.phase is Phase.DEALING
    assert after.deal_results[-1].uncollected
    return before, action, after


def _moon_scored() -> Step:
    sc = moon_deal(DEFAULT)
    choosing, _ = sc.state.apply(last_card(sc))
    action = ChooseMoon(1, MoonChoice.ADD)
    after, _ = choosing.apply(action)
    assert after.deal_results[-1].moon_shooter == 1
    return choosing, action, after


def _void_first_trick_with_extras() -> Step:
    """Seats 0-2 and 3-5 hold the same hands; seat 6 only diamonds: trick 1 is void."""
    top = parse_cards("AC KC QC JC 10C 9C 8C AS KS QS JS 10S 9S 8S")
    low = parse_cards("7C 6C 5C 4C 3C 2C 7S 6S 5S 4S 3S 2S AH KH")
    mid = parse_cards("QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 2D 3D 4D")
    lone = parse_cards("5D 5D 6D 6D 7D 7D 8D 8D 9D 9D 10D 10D JD JD")
    deal = DealCards((top, low, mid, top, low, mid, lone), parse_cards("QD QD KD KD AD AD"))
    state, _ = GameState.start(7, Ruleset(pass_cycle=(PassDirection.HOLD,)),
                               first_dealer=6).apply(deal)
    for seat, card in zip((0, 1, 2, 3, 4, 5), ("AC", "7C", "QH", "AC", "7C", "QH"),
                          strict=True):
        state, _ = state.apply(Play(seat, parse_card(card)))
    action = Play(6, parse_card("5D"))
    after, _ = state.apply(action)
    assert after.tricks[-1].winner is None and after.pending_has_extras
    return state, action, after


def rules(step: Step | tuple[None, None, GameState], field: str, actual: Any,
          expected: Any = None) -> list[str]:
    before, action, after = step
    exp = observe(after)
    if expected is not None:
        exp = {**exp, field: expected}
    named, deciding, _ = observation_rules(before, action, after, exp, {**exp, field: actual})
    assert deciding == [field]
    return named


@pytest.mark.rule("TURN.ORDER", "FOLLOW.FIRST_TRICK")
def test_play_situations() -> None:
    assert play_situation_rule(GameState.start(7), parse_card("2C")) == ["TURN.ORDER"]
    strict = Ruleset(pass_cycle=(PassDirection.HOLD,),
                     first_trick_points=FirstTrickPoints.FORBIDDEN)
    state, _ = GameState.start(7, strict).apply(next_deal(GameState.start(7, strict), 1))
    seat = state.to_act
    assert seat is not None
    state, _ = state.apply(Play(seat, state.legal_plays()[0]))
    point_card = parse_card("QS" if state.trick[0].suit is Suit.H else "AH")
    assert play_situation_rule(state, point_card) == ["FOLLOW.FIRST_TRICK"]


@pytest.mark.rule("PASS.CARDS", "PASS.EXCHANGE", "MOON.CHOICE", "DEAL.SOURCE", "TURN.ORDER")
def test_a_legal_action_rejected_without_a_rule_falls_under_its_kind() -> None:
    state = GameState.start(7)
    cards = parse_cards("2C 3C 4C")
    assert rejected_legal_rules(state, Pass(0, cards), None) == ["PASS.CARDS"]
    assert rejected_legal_rules(state, ChooseMoon(0, MoonChoice.ADD), None) == ["MOON.CHOICE"]
    assert rejected_legal_rules(state, DealCards((), ()), None) == ["DEAL.SOURCE"]
    assert rejected_legal_rules(state, "shuffle", None) == ["TURN.ORDER"]  # type: ignore[arg-type]
    # the implementation's citation is evidence, not the verdict: outside the checks of a
    # pass it changes nothing; between them (the seat passing again, PASS.EXCHANGE, or
    # its cards) it tells which check refused
    assert rejected_legal_rules(state, Pass(0, cards), "TURN.ORDER") == ["PASS.CARDS"]
    assert rejected_legal_rules(state, Pass(0, cards), "PASS.EXCHANGE") == ["PASS.EXCHANGE"]


@pytest.mark.rule("GAME.END", "MOON.CONDITION", "MOON.CHOICE", "PASS.DIRECTION", "TURN.ORDER")
def test_a_phase_that_differs() -> None:
    won = _trick_won_first()
    moon = _moon_scored()
    choosing = (None, None, moon[0])
    assert rules(won, "phase", "game-over", "dealing") == ["GAME.END"]
    assert rules(choosing, "phase", "dealing") == ["MOON.CONDITION"]
    assert rules(moon, "phase", "moon-choice") == ["MOON.CHOICE"]
    assert rules(_last_trick_void(), "phase", "moon-choice") == ["MOON.CONDITION"]
    assert rules(won, "phase", "passing", "playing") == ["PASS.DIRECTION"]
    assert rules(won, "phase", "game-over", "playing") == ["TURN.ORDER", "GAME.END"]
    assert rules(won, "phase", "dealing", "playing") == ["TURN.ORDER"]
    assert rules(won, "phase", "bidding", "playing") == ["TURN.ORDER"]


@pytest.mark.rule("PASS.EXCHANGE", "MOON.CONDITION", "TURN.ORDER", "LEAD.OPENING_LEADER",
                  "VOID.LEADER", "TRICK.NEXT_LEADER")
def test_a_seat_to_act_that_differs() -> None:
    dealt = _steps(0)[0]
    assert dealt[2].phase is Phase.PASSING
    assert rules(dealt, "to_act", "x") == ["PASS.EXCHANGE"]
    assert rules((None, None, _moon_scored()[0]), "leader", "x") == ["MOON.CONDITION"]
    assert rules(_last_trick_void(), "leader", "x") == ["TURN.ORDER"]
    assert rules(_step(0, 10), "to_act", "x") == ["TURN.ORDER"]  # a trick in progress
    passed = next(s for s in _steps(0) if s[2].phase is Phase.PLAYING)
    assert rules(passed, "leader", "x") == ["LEAD.OPENING_LEADER"]
    assert rules(_void_trick(), "leader", "x") == ["VOID.LEADER"]
    assert rules(_pile_collected(), "leader", "x") == ["TRICK.NEXT_LEADER"]


@pytest.mark.rule("MOON.CHOICE", "TURN.ORDER", "TRICK.LED_SUIT")
def test_legal_cards_that_differ() -> None:
    assert rules((None, None, _moon_scored()[0]), "legal", ["add"]) == ["MOON.CHOICE"]
    assert rules(_last_trick_void(), "legal", ["2C"], []) == ["TURN.ORDER"]
    mid = _step(0, 10)
    assert rules(mid, "legal", "2C") == ["TURN.ORDER"]  # not a list
    legal = observe(mid[2])["legal"]
    assert rules(mid, "legal", [*legal, "XX"], [*legal, *legal]) == ["TURN.ORDER"]
    assert rules(mid, "legal", legal[1:]) == ["FOLLOW.SUIT"]
    cancelled_lead = next(s for s in _steps(0) if len(s[2].trick) > 1
                          and s[2].trick[0] in s[2].trick[1:])
    legal = observe(cancelled_lead[2])["legal"]
    assert rules(cancelled_lead, "legal", legal[1:]) == ["TRICK.LED_SUIT", "FOLLOW.SUIT"]


@pytest.mark.untraced
@pytest.mark.rule("MOON.CONDITION", "MOON.CHOICE", "VOID.LAST", "SCORE.DEAL")
def test_deal_scores_that_differ() -> None:
    moon = _moon_scored()
    result = moon[2].deal_results[-1]
    assert rules(moon, "deal_scores", list(result.card_points)) == ["MOON.CONDITION"]
    assert rules(moon, "deal_scores", [0] * 8) == ["MOON.CHOICE"]
    void = _last_trick_void()
    assert rules(void, "deal_scores", [-26, 0, 0, 0, 0, 0, 0]) == ["MOON.CONDITION"]
    assert rules(void, "deal_scores", [1, 2, 3, 4, 5, 6, 7]) == ["VOID.LAST", "SCORE.DEAL"]
    assert rules(_trick_won_first(), "totals", [1] * 7) == ["SCORE.DEAL"]


@pytest.mark.rule("TURN.ORDER", "TRICK.WINNER", "VOID.TRICK", "TRICK.CANCEL")
def test_a_last_trick_that_differs() -> None:
    won = _trick_won_first()
    last = observe(won[2])["last_trick"]
    assert rules(won, "last_trick", "none") == ["TURN.ORDER"]
    assert rules(won, "last_trick", {**last, "leader": (last["leader"] + 1) % 7}) == [
        "TURN.ORDER"]
    assert rules(won, "last_trick", {**last, "winner": None}) == ["VOID.TRICK"]
    assert rules(won, "last_trick", {**last, "winner": "1"}) == ["TRICK.WINNER"]
    assert rules(won, "last_trick", {**last, "winner": 9}) == ["TRICK.WINNER"]
    # trick 1 of seed 0: 4D AD 9D KD KD 10D JD led by seat 1, won by seat 2 (AD)
    assert rules(won, "last_trick", {**last, "winner": 3}) == ["TRICK.WINNER"]  # 9D
    assert rules(won, "last_trick", {**last, "winner": 4}) == ["TRICK.CANCEL"]  # a KD
    dealt = _steps(0)[0]
    assert rules(dealt, "last_trick", {"cards": [], "leader": 0, "number": 0, "winner": 1},
                 {"cards": [], "leader": 0, "number": 0, "winner": None}) == ["TRICK.WINNER"]


@pytest.mark.rule("DEAL.SOURCE", "PASS.DIRECTION", "PASS.EXCHANGE")
def test_hands_that_differ() -> None:
    dealt = _steps(0)[0]
    assert rules((None, None, dealt[2]), "hands", [[]] * 7) == ["DEAL.SOURCE"]
    last_pass = next(s for s in _steps(0) if isinstance(s[1], Pass)
                     and s[2].phase is Phase.PLAYING)
    assert rules(last_pass, "hands", [["2C"]] * 7) == ["PASS.DIRECTION", "PASS.EXCHANGE"]


@pytest.mark.rule("VOID.TRICK", "VOID.LAST", "EXTRAS.FIRST_TRICK", "VOID.COLLECT")
def test_a_pending_pile_that_differs() -> None:
    assert rules((None, None, _steps(0)[0][2]), "pending", ["2C"]) == ["VOID.TRICK"]
    assert rules(_step(0, 10), "pending", ["2C"]) == ["VOID.TRICK"]  # no trick completed
    assert rules(_trick_won_first(), "pending", ["2C"]) == ["EXTRAS.FIRST_TRICK"]
    assert rules(_pile_collected(), "pending", ["2C"]) == ["VOID.COLLECT"]
    first = _void_first_trick_with_extras()
    pile = observe(first[2])["pending"]
    extras = {str(c) for c in first[0].extras}
    assert rules(first, "pending", [c for c in pile if c not in extras]) == [
        "EXTRAS.FIRST_TRICK"]
    assert rules(first, "pending", pile[1:]) == ["VOID.TRICK"]


def _with(points: list[int], seat: int, delta: int) -> list[int]:
    return [p + delta if s == seat else p for s, p in enumerate(points)]


@pytest.mark.rule("SCORE.CARD_POINTS", "EXTRAS.FIRST_TRICK", "VOID.COLLECT", "VOID.LAST",
                  "TRICK.WINNER", "TRICK.CANCEL")
def test_points_that_differ() -> None:
    assert rules(_steps(0)[0], "points", [1] * 7) == ["SCORE.CARD_POINTS"]
    # trick 1 of seed 0, won by seat 2 with the extras (Q♠ among them: 13 points)
    won = _trick_won_first()
    points = observe(won[2])["points"]
    assert points == [0, 0, 13, 0, 0, 0, 0]
    assert rules(won, "points", "many") == ["SCORE.CARD_POINTS"]
    assert rules(won, "points", _with(points, 2, -13)) == ["EXTRAS.FIRST_TRICK"]
    assert rules(won, "points", _with(points, 3, 1)) == ["TRICK.WINNER"]  # seat 3 played 9D
    assert rules(won, "points", _with(points, 4, 1)) == ["TRICK.CANCEL"]  # seat 4 a KD
    # one heart's point lost: no parcel of the trick carries 1 point, so the value is wrong
    assert rules(won, "points", _with(points, 2, -1)) == ["SCORE.CARD_POINTS"]
    # seat 5 wins 10D 4H 5H KD 5D 2D JS and the pile of a void trick (5 points)
    pile = _pile_collected()
    points = observe(pile[2])["points"]
    assert points == [0, 13, 7, 0, 1, 26, 0]
    assert rules(pile, "points", _with(points, 5, -5)) == ["VOID.COLLECT"]
    # 1 point lost: no parcel carries exactly that, so it is a card's value
    assert rules(pile, "points", _with(points, 5, -1)) == ["SCORE.CARD_POINTS"]
    assert rules(pile, "points", _with(points, 3, 1)) == ["TRICK.WINNER"]  # seat 3 played 4H
    # a trick with points and no pile nor extras
    plain = next(s for s in _steps(0) if s[0].phase is Phase.PLAYING and s[0].trick_number > 1
                 and len(s[0].trick) == 6 and not s[0].pending
                 and s[2].tricks[-1].winner is not None
                 and card_points(s[2].tricks[-1].cards, s[0].ruleset))
    winner = plain[2].tricks[-1].winner
    assert winner is not None
    points = observe(plain[2])["points"]
    assert rules(plain, "points", _with(points, winner, -1)) == ["SCORE.CARD_POINTS"]
    # every point lost at the end of a deal: not the void last trick's cards, which nobody
    # collects, but the values of the cards (no parcel explains it)
    assert rules(_last_trick_void(), "points", [0] * 7) == ["SCORE.CARD_POINTS"]


#: 9 players, hubpages: the first trick's diamonds all cancel (3♦ 5♦ 4♦ Q♦ twice), and seat
#: 8, to play, holds no diamond: the led suit cannot decide what it may play.
ALL_LED_CANCELLED = (
    "9 1 8 playing 2C5C9CJCQCJDAD4S7SKS/4CKC2D7D3H7HQH5S6SAS/7CAC9D2H5HAH2S9S10SJS/"
    "6C8C10C6D8DKD6HJHKHQS/2C5C9CJCQCJDAD4S7SKS/4CKC2D7D3H7HQH5S6SAS/7CAC9D2H5HAH2S9S10SJS/"
    "3C3C6D8D10DKD6HJHKHQS/6C8C10C8H8H9H9H10H3S8S8S 1@0:3D5D4DQD3D5D4DQD unbroken - "
    "4H3S10D10H4H@face-down -/-/-/-/-/-/-/-/- 48,67,78,49,31,44,25,42,52")


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "TRICK.LED_SUIT")
def test_a_seat_void_in_every_suit_of_the_trick_blames_no_led_suit() -> None:
    after = state_from_position(parse_position(ALL_LED_CANCELLED), preset("hubpages"))
    assert after.to_act == 8
    legal = observe(after)["legal"]
    assert legal == ["6C", "8C", "10C", "8H", "9H", "10H", "3S", "8S"]
    # hearts banned on the first trick: that rule, not a led suit taken from a live card
    assert rules((None, None, after), "legal", ["6C", "8C", "10C", "3S", "8S"]) == [
        "FOLLOW.FIRST_TRICK"]
    # holding a diamond, a seat allowed off the suit shows the led suit lost with its card
    seat_7 = state_from_position(parse_position(ALL_LED_CANCELLED.replace(
        "1@0:3D5D4DQD3D5D4DQD", "1@0:3D5D4DQD3D5D4D").replace(
        "3C3C6D8D10DKD", "3C3C6D8D10DQDKD")), preset("hubpages"))
    assert seat_7.to_act == 7
    assert observe(seat_7)["legal"] == ["6D", "8D", "10D", "QD", "KD"]
    assert rules((None, None, seat_7), "legal", ["3C", "6D", "8D", "10D", "QD", "KD"])[0] == (
        "TRICK.LED_SUIT")
    # holding 6♣ and 8♣, a seat allowed the diamonds and 6♣ alone is not free of the led
    # suit: one card more is the suit's cards read wrong (FOLLOW.SUIT); both, the led suit
    clubs = state_from_position(parse_position(ALL_LED_CANCELLED.replace(
        "1@0:3D5D4DQD3D5D4DQD", "1@0:3D5D4DQD3D5D4D").replace(
        "3C3C6D8D10DKD", "6C8C6D8D10DQDKD").replace(
        "/6C8C10C6D8DKD6HJHKHQS/", "/3C3C10C6D8DKD6HJHKHQS/")), preset("hubpages"))
    assert observe(clubs)["legal"] == ["6D", "8D", "10D", "QD", "KD"]
    assert rules((None, None, clubs), "legal", ["6C", "6D", "8D", "10D", "QD", "KD"]) == [
        "FOLLOW.SUIT"]
    assert rules((None, None, clubs), "legal", ["6C", "8C", "6D", "8D", "10D", "QD", "KD"])[
        0] == "TRICK.LED_SUIT"


#: 11 players, the deal's last trick: 8♥ led and cancelled by the other 8♥; K♥ to come.
LAST_TRICK_LED_CANCELLED = (
    "11 4 7 playing -/-/-/-/-/-/-/-/-/KH/- 9@10:8H10D10H8H9CKD4H6S5H5H broken - 9CJD2SKDAC@8 "
    "-/-/-/-/-/6C7C10C9DQDADAD7HJHQH4S5S5S6S7S10S10SJSJSQSKSAS/4CQC2D2D3D3D4D4D5D6D6D7D8D8D9D"
    "10DJDQD3S3S9S9S/4C8CJCJCQCKCKC5D7D2S4S/2C2C3C3C5C5C6C7C8C9C10CACACJDKD2S/-/2H2H3H3H4H6H6H"
    "7H9H9H10HJHQHKHAHAH7S8S8SQSKSAS 0,0,0,0,0,0,0,0,0,0,0")


@pytest.mark.rule("TRICK.LED_SUIT")
def test_the_last_trick_of_a_deal_given_to_another_seat_decides_its_scores() -> None:
    ruleset = Ruleset.from_dict({"min_players": 5, "opening_lead": "left-of-dealer-no-scoring",
                                 "last_trick_void": "leader", "ten_of_diamonds_points": -10,
                                 "target": 26})
    before = state_from_position(parse_position(LAST_TRICK_LED_CANCELLED), ruleset)
    action = Play(9, parse_card("KH"))
    after, _ = before.apply(action)
    exp = observe(after)
    assert exp["last_trick"]["winner"] == 9 and exp["points"][9] == -3
    # K♦ (seat 4) taken for the winner: diamonds taken as led once 8♥ is cancelled
    points = [0, 0, 0, 0, -3, 16, -10, 0, 0, 0, 29]
    actual = {**exp, "last_trick": {**exp["last_trick"], "winner": 4}, "points": points,
              "deal_scores": points, "totals": points}
    named, deciding, others = observation_rules(before, action, after, exp, actual)
    assert (named, deciding) == (["TRICK.LED_SUIT"], ["last_trick"])
    assert others == ["points", "deal_scores", "totals"]


#: 6 players: the first trick's spades all cancel once seat 5 plays 6♠; seat 0 leads again.
VOID_FIRST_TRICK = (
    "6 4 5 playing 3C7CKC4D10DJDAD2H4H7HJH3S4S10SQSKS/4C5C6C9CJCQCAC3D7D8D5H6H9H10HQHKH/"
    "2C8C10C2D5D6D9DQDKD3H8HAH5S8S9SJS/3C7CKC4D10DJDAD2H4H7HJH3S4S10SQSKS/"
    "4C5C6C9CJCQCAC3D7D8D5H6H9H10HQHKH/2C8C10C2D5D6D9DQDKD3H8HAH5S6S8S9SJS 1@0:7SAS6S7SAS "
    "unbroken - 2S2S@face-down -/-/-/-/-/- 120,120,120,120,120,120")


@pytest.mark.rule("VOID.LEADER", "LEAD.HEARTS")
def test_a_point_card_led_after_a_void_first_trick_names_both_rules() -> None:
    before = state_from_position(parse_position(VOID_FIRST_TRICK))
    after, _ = before.apply(Play(5, parse_card("6S")))
    assert (after.trick_number, after.to_act, after.tricks[0].winner) == (2, 0, None)
    # Q♠ banned there: not an opening lead (VOID.LEADER), and a Q♠ may always be led
    assert play_situation_rule(after, parse_card("QS")) == ["VOID.LEADER", "LEAD.HEARTS"]
    assert play_situation_rule(after, parse_card("3C")) == ["LEAD.HEARTS"]


@pytest.mark.rule("VOID.LAST", "SCORE.DEAL")
def test_the_deal_scores_after_a_void_last_trick_are_that_rules() -> None:
    step = _last_trick_void()
    points = observe(step[2])["points"]
    # a point too many for seat 0, with the last trick void on both sides: the void last
    # trick's cards (VOID.LAST), though a cancelled card's point would also explain it
    assert rules(step, "points", _with(points, 0, 1)) == [
        "VOID.LAST", "TRICK.CANCEL", "VOID.TRICK"]
    # totals alone differing: the adding of the deal to the totals (SCORE.DEAL)
    totals = observe(step[2])["totals"]
    named, deciding, _ = observation_rules(step[0], step[1], step[2], observe(step[2]),
                                           {**observe(step[2]), "totals": [t + 1 for t in totals]})
    assert (named[0], deciding) == ("SCORE.DEAL", ["totals"])


@pytest.mark.rule("MOON.CONDITION")
def test_scores_of_a_moon_of_two_seats_are_moon_shaped() -> None:
    from rules_ref.findings.attribution import _moon_shaped

    state = GameState.start(6)
    assert _moon_shaped(state, [0, 0, 26, 26, 26, 26])
    assert _moon_shaped(state, [26, 0, 26, 0, 26, 26])
    assert not _moon_shaped(state, [0, 0, 26, 26, 26, 13])
    assert not _moon_shaped(state, [0, 0, 0, 26, 26, 26])


@pytest.mark.rule("VOID.LAST", "SCORE.CARD_POINTS")
def test_shares_of_a_void_last_trick_worked_out_wrong_are_its_settling() -> None:
    # the last trick J♠ K♥ J♠ 10♦ 3♣ 7♣ 2♥ is void (led by seat 0, the J♠ pair of seats 0
    # and 2): points no parcel nor card value explains, at those seats alone, are how its
    # cards were given out; at another seat, they are not
    last = _last_trick_void()
    points = observe(last[2])["points"]
    assert rules(last, "points", _with(points, 0, 40))[0] == "VOID.LAST"
    assert rules(last, "points", _with(_with(points, 0, -20), 2, 40))[0] == "VOID.LAST"
    assert "VOID.LAST" not in rules(last, "points", _with(points, 3, 40))
    # the implementation showing no last trick (its deal is over too) says nothing against
    # it being void; showing it won, it does
    expected = observe(last[2])
    hidden = {**expected, "points": _with(points, 0, 40), "last_trick": None}
    assert observation_rules(*last, expected, hidden)[0][0] == "VOID.LAST"
    t = last[2].tricks[-1]
    won = {**hidden, "last_trick": {"number": len(last[2].tricks), "leader": t.leader,
                                    "cards": [str(c) for c in t.cards], "winner": 0}}
    assert observation_rules(*last, expected, won)[0][0] != "VOID.LAST"


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_the_first_tricks_ban_on_a_seat_following_suit_later_is_that_rules() -> None:
    # under forbidden-even-following, seat 1 follows spades on a later trick holding 7♠ Q♠:
    # an implementation that bans the Q♠ there applies the first trick's ban
    even = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING)
    before, action, after, _ = next(s for i, s in enumerate(game_steps(6, seed=1, ruleset=even))
                                    if i == 27)
    assert after.trick_number > 1 and after.trick[0].suit is Suit.S
    legal = observe(after)["legal"]
    assert legal == ["7S", "QS"]
    assert rules((before, action, after), "legal", ["7S"])[0] == "FOLLOW.FIRST_TRICK"
    # under forbidden a seat that follows suit may play its Q♠ on trick 1 too: banning it
    # later is no first trick's ban
    plain = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN)
    step = (before._with(ruleset=plain), action, after._with(ruleset=plain))
    assert rules(step, "legal", ["7S"]) == ["FOLLOW.SUIT"]
