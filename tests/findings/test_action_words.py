"""The words of a divergence, branch by branch: what was rejected or accepted, and what differs.

States come from a seeded seven-player game of the reference engine (and a
deal without passing, and a moon deal); each case checks the exact words.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from rules_ref.cards import Card, parse_card, parse_cards
from rules_ref.conform import illegal_kinds as ik
from rules_ref.deal import seeded_deal
from rules_ref.findings.action_words import (
    accepted_words,
    card_list,
    pass_feature,
    play_phrase,
    rejected_words,
    where_detail,
)
from rules_ref.findings.words import divergence_words
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.players.game import game_steps, next_deal
from rules_ref.ruleset import DEFAULT, PassDirection, PassForbidden, Ruleset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.vectors import last_card, moon_deal

from ..protocol.protocol_messages import dealt_start

STEPS = list(game_steps(7, 1))
# seat 0 holds 5♣ 6♣ 8♣ 2♦ 5♦ 6♦ 7♦ 8♦ 2♥ 6♥ 2♠ 2♠ 4♠ A♠; nobody has passed yet
PASSING = next(b for b, _, _, _ in STEPS if b.phase is Phase.PASSING)
ONE_PASSED = next(a for b, _, a, _ in STEPS if b is PASSING)
# trick 3, hearts broken, seat 3 to lead holding 5♣
LEADING = next(b for b, _, _, _ in STEPS if b.phase is Phase.PLAYING and not b.trick
               and b.trick_number >= 3 and b.hearts_broken)
# trick 3: seat 3 led 3♦, seat 4 played 5♥, seat 5 (holding 3♣ and 4♦) to play
MIDDLE = next(b for b, _, _, _ in STEPS if b.phase is Phase.PLAYING and len(b.trick) == 2
              and b.trick_number >= 3)
DEALING = next(b for b, _, _, _ in STEPS if b.phase is Phase.DEALING and b.deal_number >= 1)
_MOON = moon_deal(DEFAULT)
MOON = _MOON.state.apply(last_card(_MOON))[0]  # seat 1 shot the moon and owes the choice
_HOLD = Ruleset(pass_cycle=(PassDirection.HOLD,))
NO_PASS = GameState.start(7, _HOLD).apply(next_deal(GameState.start(7, _HOLD), 1))[0]
# the last pass of the first deal, every other seat having passed
LAST_PASS = next((b, a) for b, a, af, _ in STEPS
                 if b.phase is Phase.PASSING and af.phase is not Phase.PASSING)


def c(text: str) -> Card:
    return parse_card(text)


def test_the_states_are_the_ones_the_cases_describe() -> None:
    assert (PASSING.hands[0][0], PASSING.passes[0], ONE_PASSED.passes[1] is not None) == (
        c("5C"), None, True)
    assert (LEADING.to_act, LEADING.trick_number, c("5C") in LEADING.hands[3]) == (3, 3, True)
    assert (MIDDLE.leader, MIDDLE.to_act, MIDDLE.trick) == (3, 5, (c("3D"), c("5H")))
    assert (MOON.phase, MOON.moon_shooter, NO_PASS.phase, NO_PASS.pass_offset) == (
        Phase.MOON_CHOICE, 1, Phase.PLAYING, None)


@pytest.mark.parametrize(("value", "cards"), [
    (["2C", "ZZ", 3, None, "QS"], [c("2C"), c("QS")]),
    ("2C", []),
    (None, []),
])
def test_card_list_keeps_the_cards_it_can_read(value: object, cards: list[Card]) -> None:
    assert card_list(value) == cards


@pytest.mark.parametrize(("state", "card", "name", "phrase", "detail"), [
    (LEADING, c("5C"), "a card", "leading a card", "to lead"),
    (MIDDLE, c("3C"), "a card", "a card of another suit while holding the led suit",
     "while holding the led suit"),
])
def test_play_phrase_and_where_detail(state: GameState, card: Card, name: str, phrase: str,
                                      detail: str) -> None:
    assert play_phrase(state, card, name) == phrase
    assert where_detail(state, card) == detail


@pytest.mark.rule("TURN.ORDER")
def test_a_play_outside_the_play_is_named_by_the_phase() -> None:
    assert play_phrase(PASSING, c("2C"), "2♣") == "a play of 2♣ during passing"


@pytest.mark.rule("PASS.CARDS")
@pytest.mark.parametrize(("cards", "words"), [
    ("5C 5C 6D", "a pass of both copies of a card"),
    ("5C 5C 6D 7D", "a pass of four cards with both copies of a card"),
    ("5C 7H 6D", "a pass that contains a heart"),
    ("5C 6D 7D", "a pass"),
    ("5C QS", "a pass of two cards that contains Q♠"),
])
def test_pass_feature(cards: str, words: str) -> None:
    assert pass_feature(parse_cards(cards)) == words


@pytest.mark.parametrize(("state", "action", "words"), [
    (PASSING, None, "rejects the start of a game"),
    (MOON, ChooseMoon(1, MoonChoice.ADD), "rejects the moon choice add"),
    (DEALING, next_deal(DEALING, 1), "rejects the next deal"),
    (PASSING, Pass(0, parse_cards("5C 2H 6H")), "rejects a pass that contains a heart"),
])
def test_rejected_words(state: GameState, action: Action | None, words: str) -> None:
    assert rejected_words(state, action) == words


@pytest.mark.parametrize(("state", "action", "rule", "words"), [
    (PASSING, None, "", "accepts a game the rules do not allow"),
    (MIDDLE, Play(9, c("3C")), "TURN.ORDER", "accepts an action by a seat that does not exist"),
    pytest.param(PASSING, Play(1, c("2C")), "TURN.ORDER", "accepts a play during passing",
                 marks=pytest.mark.rule("TURN.ORDER")),
    pytest.param(MIDDLE, Play(5, c("AS")), "FOLLOW.SUIT",
                 "accepts a play of a card the seat does not hold",
                 marks=pytest.mark.rule("FOLLOW.SUIT")),
    pytest.param(MIDDLE, Play(3, c("5C")), "TURN.ORDER",
                 "accepts a second card from one seat in a trick",
                 marks=pytest.mark.rule("TURN.ORDER")),
    pytest.param(MIDDLE, Play(6, c("2C")), "TURN.ORDER", "accepts a play out of turn",
                 marks=pytest.mark.rule("TURN.ORDER")),
    pytest.param(MIDDLE, Play(5, c("3C")), "FOLLOW.SUIT",
                 "accepts a card of another suit while holding the led suit",
                 marks=pytest.mark.rule("FOLLOW.SUIT")),
])
def test_accepted_play_words(state: GameState, action: Action | None, rule: str,
                             words: str) -> None:
    assert accepted_words(state, action, [rule] if rule else []) == words


@pytest.mark.parametrize(("state", "action", "rule", "words"), [
    pytest.param(NO_PASS, Pass(0, NO_PASS.hands[0][:3]), "PASS.DIRECTION",
                 "accepts a pass in a deal without passing",
                 marks=pytest.mark.rule("PASS.DIRECTION")),
    pytest.param(DEALING, Pass(0, parse_cards("5C 6C 8C")), "PASS.EXCHANGE",
                 "accepts a pass during the wait for the next deal",
                 marks=pytest.mark.rule("PASS.EXCHANGE")),
    pytest.param(LEADING, Pass(3, parse_cards("5C 9C 10C")), "PASS.EXCHANGE",
                 "accepts a pass during play", marks=pytest.mark.rule("PASS.EXCHANGE")),
    pytest.param(ONE_PASSED, Pass(1, ONE_PASSED.hands[1][:3]), "TURN.ORDER",
                 "accepts a second pass from one seat", marks=pytest.mark.rule("TURN.ORDER")),
    pytest.param(PASSING, Pass(0, parse_cards("5C 5C 6C")), "PASS.CARDS",
                 "accepts a pass naming a card more often than the seat holds it",
                 marks=pytest.mark.rule("PASS.CARDS")),
    pytest.param(PASSING, Pass(0, parse_cards("AH 5C 6C")), "PASS.CARDS",
                 "accepts a pass of a card the seat does not hold",
                 marks=pytest.mark.rule("PASS.CARDS")),
    pytest.param(PASSING, Pass(0, parse_cards("5C 6C")), "PASS.CARDS",
                 "accepts a pass of two cards", marks=pytest.mark.rule("PASS.CARDS")),
    pytest.param(PASSING, Pass(0, parse_cards("5C 6C 8C")), "PASS.CARDS",
                 "accepts a pass that breaks PASS.CARDS", marks=pytest.mark.rule("PASS.CARDS")),
])
def test_accepted_pass_words(state: GameState, action: Action, rule: str, words: str) -> None:
    assert accepted_words(state, action, [rule]) == words


@pytest.mark.parametrize(("state", "action", "words"), [
    pytest.param(PASSING, ChooseMoon(1, MoonChoice.ADD), "accepts a moon choice during passing",
                 marks=pytest.mark.rule("MOON.CHOICE")),
    pytest.param(MOON, ChooseMoon(2, MoonChoice.ADD),
                 "accepts a moon choice from a seat that did not shoot the moon",
                 marks=pytest.mark.rule("MOON.CHOICE")),
    pytest.param(MOON, ChooseMoon(1, MoonChoice.SUBTRACT),
                 "accepts the moon choice subtract, which the ruleset does not offer",
                 marks=pytest.mark.rule("MOON.CHOICE")),
    pytest.param(MIDDLE, next_deal(DEALING, 1), "accepts a deal in the middle of a deal",
                 marks=pytest.mark.rule("DEAL.SOURCE")),
    pytest.param(DEALING, next_deal(DEALING, 1), "accepts a deal that is not the next one",
                 marks=pytest.mark.rule("DEAL.SOURCE")),
])
def test_accepted_moon_and_deal_words(state: GameState, action: Action, words: str) -> None:
    assert accepted_words(state, action, ["MOON.CHOICE"]) == words


# --- divergence_words: the failure's JSON form, rebuilt through the reference -------------


def _failure(start: GameState, actions: list[Action], failing: Action | None, rules: list[str],
             fields: list[str], expected: dict[str, Any], actual: dict[str, Any],
             kind: str = "disagreement") -> dict[str, Any]:
    return {"kind": kind, "rules": rules, "start": dealt_start(start),
            "actions": [action_to_json(a) for a in actions] + (
                [action_to_json(failing)] if failing is not None else []),
            "failing": action_to_json(failing) if failing is not None else None,
            "expected": expected, "actual": actual, "fields": fields}


# the first deal, dealt: its passing
DEALT = next(a for _b, act, a, _e in STEPS if isinstance(act, DealCards))
OPENING = NO_PASS.legal_actions()[0]  # the opening lead of the deal without passing


@pytest.mark.parametrize(("failure", "words"), [
    ({"kind": "disagreement", "start": {"bogus": 1}, "fields": ["legal"]}, "legal differs"),
    ({"kind": "disagreement", "start": {"bogus": 1}}, "differs from the reference"),
    ({"kind": "disagreement", "start": None, "fields": []}, "differs from the reference"),
])
def test_a_failure_the_reference_cannot_replay(failure: dict[str, Any], words: str) -> None:
    assert divergence_words(failure) == words


def test_a_rejected_action_in_the_actions_is_skipped_on_replay() -> None:
    failure = _failure(NO_PASS, [Play(5, c("AS")), OPENING], None, ["TURN.ORDER"], ["turn"],
                       {}, {})
    assert divergence_words(failure) == "gives the turn to another seat"


@pytest.mark.parametrize(("failing", "words"), [
    (None, "reports an internal error on the start"),
    (OPENING, "reports an internal error on a play"),
])
def test_an_internal_error(failing: Action | None, words: str) -> None:
    assert divergence_words(_failure(NO_PASS, [], failing, [], [], {}, {}, "error")) == words


def test_legal_cards_in_another_order() -> None:
    legal = [str(x) for x in NO_PASS.legal_plays()]
    assert legal[:3] == ["3C", "9C", "QC"]
    failure = _failure(NO_PASS, [], None, ["TURN.ORDER"], ["legal"], {"legal": legal},
                       {"legal": legal[::-1]})
    assert divergence_words(failure) == "lists the legal cards in another order"


def _last_pass_failure(rule: str, hands: object) -> dict[str, Any]:
    before, action = LAST_PASS
    return _failure(DEALT, list(before.actions[1:]), action, [rule], ["hands"], {},
                    {"hands": hands})


@pytest.mark.rule("PASS.DIRECTION")
def test_hands_no_direction_gives() -> None:
    before, action = LAST_PASS
    assert isinstance(action, Pass)
    assert before.waiting_for == (action.seat,)
    assert divergence_words(_last_pass_failure("PASS.DIRECTION", [])) == (
        "passes the cards to other seats")


def test_hands_that_differ_under_another_rule() -> None:
    assert divergence_words(_last_pass_failure("TRICK.WINNER", [])) == (
        "changes the hands differently")


@pytest.mark.rule("MOON.CHOICE")
def test_a_moon_choice_asked_where_none_is_owed() -> None:
    failure = _failure(NO_PASS, [], None, ["MOON.CHOICE"], ["phase"], {"phase": "playing"},
                       {"phase": "moon-choice"})
    assert divergence_words(failure) == "asks for a moon choice the rules do not offer"


@pytest.mark.rule("HEARTS.BROKEN")
@pytest.mark.parametrize(("failing", "expected", "actual", "words"), [
    (next_deal(DEALING, 1), False, True, "keeps hearts broken into the next deal"),
    (OPENING, False, True, "breaks hearts when a card is played"),
    (None, False, True, "breaks hearts when no card breaks them"),
    (None, True, False, "does not break hearts"),
    (OPENING, True, False, "does not break hearts when a card is led"),
])
def test_hearts_broken_words(failing: Action | None, expected: bool, actual: bool,
                             words: str) -> None:
    failure = _failure(NO_PASS, [], failing, ["HEARTS.BROKEN"], ["hearts_broken"],
                       {"hearts_broken": expected}, {"hearts_broken": actual})
    assert divergence_words(failure) == words


@pytest.mark.parametrize(("rule", "ref", "impl", "words"), [
    pytest.param("PASS.DIRECTION", "passing", "playing",
                 "skips the passing in a deal that passes",
                 marks=pytest.mark.rule("PASS.DIRECTION")),
    pytest.param("PASS.DIRECTION", "playing", "passing",
                 "asks for a pass in a deal without passing",
                 marks=pytest.mark.rule("PASS.DIRECTION")),
    pytest.param("TURN.ORDER", "playing", "game-over",
                 "is in a finished game where the rules are in play",
                 marks=pytest.mark.rule("TURN.ORDER")),
])
def test_phase_words(rule: str, ref: str, impl: str, words: str) -> None:
    failure = _failure(NO_PASS, [], None, [rule], ["phase"], {"phase": ref}, {"phase": impl})
    assert divergence_words(failure) == words


@pytest.mark.rule("GAME.WINNER")
@pytest.mark.parametrize(("ref", "impl", "words"), [
    ([1, 2], [1], "names only one of the players tied for the lowest total"),
    ([1], [2], "names winners other than the lowest totals"),
    ([1, 2], [1, 3], "names winners other than the lowest totals"),
])
def test_winners_words(ref: list[int], impl: list[int], words: str) -> None:
    failure = _failure(NO_PASS, [], None, ["GAME.WINNER"], ["winners"], {"winners": ref},
                       {"winners": impl})
    assert divergence_words(failure) == words


@pytest.mark.rule("PASS.CARDS")
def test_an_accepted_pass_of_a_two_of_clubs_the_ruleset_forbids_passing() -> None:
    rs = Ruleset(pass_forbidden=PassForbidden.TWO_OF_CLUBS)
    d = seeded_deal(4, 8, 1, 0)
    state = GameState.start(8, rs).apply(DealCards(d.hands, d.extras))[0]
    action = ik.make(state, ik.PASS_FORBIDDEN)
    assert accepted_words(state, action, ["PASS.CARDS"]) == (
        "accepts a pass that holds a 2♣, which the ruleset forbids passing")
