"""The verdict faults, case by case without an adapter: the cause, the switch, the words.

Each case builds a real reference position and the answer a broken engine
gives there, and checks the rule named, the switch whose value decides it
there and the words of what differs.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.actions import Play
from rules_ref.cards import parse_card
from rules_ref.causes import play_situation_rule
from rules_ref.findings.attribution import rejected_legal_rules
from rules_ref.findings.words import divergence_detail, divergence_words
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.protocol.observation import observe
from rules_ref.state import GameState

from ..protocol.protocol_messages import dealt_start
from ..rules.helpers import fill_deal, no_pass

QS = parse_card("QS")


def _queen_copy() -> tuple[GameState, GameState]:
    """Trick 1: seat 1 leads 5♠, seat 2 plays Q♠; seat 3 holds the other Q♠ and follows."""
    deal = fill_deal(6, {1: "5S 2C 3C", 2: "QS 9S 4D", 3: "QS 2D 3D"})
    dealt, _ = GameState.start(6, no_pass()).apply(deal)
    led, _ = dealt.apply(Play(1, parse_card("5S")))
    queen, _ = led.apply(Play(2, QS))
    return dealt, queen


def _rejected(dealt: GameState, played: list[Play], failing: Play, after: GameState,
              rules: list[str]) -> dict[str, Any]:
    return {"kind": "disagreement", "rules": rules, "start": dealt_start(dealt),
            "actions": [action_to_json(a) for a in [*played, failing]],
            "failing": action_to_json(failing), "expected": {"type": "observation"},
            "actual": {"type": "rejected", "reason": "no"}, "fields": [],
            "reference": {"type": "observation", **observe(after)}}


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "TRICK.CANCEL")
def test_a_point_card_refused_on_trick_one_is_blamed_on_the_first_tricks_rule() -> None:
    # the copy of Q♠ already in the trick is a coincidence; trick 1 decides that card there
    dealt, state = _queen_copy()
    assert QS in state.trick and QS in state.legal_plays()
    assert play_situation_rule(state, QS) == ["FOLLOW.FIRST_TRICK"]
    rules = rejected_legal_rules(state, Play(3, QS), None)
    assert rules[0] == "FOLLOW.FIRST_TRICK"
    after, _ = state.apply(Play(3, QS))
    failure = _rejected(dealt, [Play(1, parse_card("5S")), Play(2, QS)], Play(3, QS), after,
                        rules)
    assert divergence_words(failure) == "rejects Q♠ on the first trick while following suit"
    # a card of no points follows suit as ever
    assert play_situation_rule(state, parse_card("9S")) == ["FOLLOW.SUIT"]


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_an_opening_lead_with_no_legal_card_at_all_says_so() -> None:
    deal = fill_deal(6, {1: "5S 2C 3C"})
    dealt, _ = GameState.start(6, no_pass()).apply(deal)
    legal = observe(dealt)["legal"]
    failure: dict[str, Any] = {
        "kind": "disagreement", "rules": ["LEAD.OPENING_CARD"], "start": dealt_start(dealt),
        "actions": [], "failing": None, "expected": {"legal": legal}, "actual": {"legal": []},
        "fields": ["legal"]}
    assert divergence_words(failure) == "allows no card at all to open the deal"
    assert divergence_detail(failure) == (
        "seat 1 may play no card to open the deal; the rules allow "
        + " ".join(c.pretty for c in sorted(dealt.legal_plays())))


@pytest.mark.rule("TRICK.LED_SUIT")
def test_a_card_allowed_against_the_led_suit_is_not_named_by_its_copy_in_the_trick() -> None:
    # 5♠ led and cancelled by the other 5♠, then 9♦: an engine taking the first live card's
    # suit as led lets seat 4 play its 9♦ though it holds a spade. The copy of 9♦ already in
    # the trick is a coincidence: no rule forbids a card for its copy
    deal = fill_deal(6, {1: "5S 2C 3C", 2: "5S 2D 3D", 3: "9D 4D 5D", 4: "9D 7S 6D"})
    dealt, _ = GameState.start(6, no_pass()).apply(deal)
    plays = [Play(1, parse_card("5S")), Play(2, parse_card("5S")), Play(3, parse_card("9D"))]
    state = dealt
    for play in plays:
        state, _ = state.apply(play)
    legal = observe(state)["legal"]
    assert "9D" not in legal and "7S" in legal
    failure: dict[str, Any] = {
        "kind": "disagreement", "rules": ["TRICK.LED_SUIT"], "start": dealt_start(dealt),
        "actions": [action_to_json(p) for p in plays], "failing": action_to_json(plays[-1]),
        "expected": {"legal": legal}, "actual": {"legal": sorted({*legal, "9D"})},
        "fields": ["legal"]}
    assert divergence_words(failure) == (
        "allows a card of another suit while holding the led suit after the led card is "
        "cancelled")
    assert divergence_detail(failure) == (
        "seat 4 may play 9♦ while holding the led suit after the led card is cancelled; the "
        "rules forbid it")
