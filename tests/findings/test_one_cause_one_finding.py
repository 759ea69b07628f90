"""One cause, one finding, named by the alternative that gives the implementation's answer.

A card scored at another value is that card's value (``SCORE.CARD_POINTS``) wherever its
points land, however the fields read; and an answer two alternatives give alike is filed
under the one the run has seen elsewhere, whichever the run met first. Each case plays
one step of a broken engine in this process (:mod:`tests.fakes.slip_engines`) and files
the failures a run records for it.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.actions import ChooseMoon, MoonChoice
from rules_ref.findings.alternatives import card_values, explaining_verdict
from rules_ref.findings.attribution import observation_rules, rejected_legal_rules
from rules_ref.protocol.observation import observe
from rules_ref.ruleset import DEFAULT
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.vectors.endings import last_card, moon_deal
from tests.fakes.slip_engines import (
    Fault,
    answer,
    card_scored,
    findings_of,
    pair_not_cancelled,
    reference_step,
)

#: Trick 3 of seed 1 (7 players), won with 3♦ 5♥ J♦ A♥ 7♦ 10♦ 3♦; the extras, given with
#: trick 1, are worth 1 point (3♥).
EXTRAS_WORTH_ONE = (7, 1, 28)
#: 9♥ 7♥ 8♥ 5♥ 5♥ 6♥ (seed 1, 6 players): the pair of 5♥ cancels, the winner collects it.
HEART_PAIR = (6, 1, 54)
#: 3♦ 9♦ 5♥ 9♣ 10♦ 8♥ (seed 1, 6 players): one 5♥, collected by the trick's winner.
ONE_HEART = (6, 1, 187)
#: Q♣ Q♥ 2♥ Q♣ 6♥ J♠ (seed 3, 6 players): the led Q♣ cancels with its pair, nobody wins.
VOID_BY_LED_PAIR = (6, 3, 320)
#: 6♣ Q♣ J♥ Q♠ J♥ Q♣ (seed 1, 6 players): 6♣ wins once the pair of Q♣ cancels.
QUEENS_OF_CLUBS = (6, 1, 950)


def _observed(fault: Fault, where: tuple[int, int, int]) -> tuple[list[str], Any]:
    before, action = reference_step(*where)
    after, _ = before.apply(action)
    actual = answer(fault, before, action)
    rules, _, _ = observation_rules(before, action, after, observe(after), actual)
    return rules, [a.words for a, _ in card_values(before, after, observe(after), actual)]


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_a_card_scored_otherwise_is_its_value_not_extras_worth_as_much() -> None:
    # J♦ scoring 1 gives the winner 1 point more: what the extras are worth, which the
    # fields alone read as the extras given again; a card's value gives the answer
    rules, values = _observed(card_scored("JD", 1), EXTRAS_WORTH_ONE)
    assert rules[0] == "SCORE.CARD_POINTS"
    assert values == ["scores 7♦ or 10♦ or J♦ at 1 point", "scores 5♥ or A♥ at 2 points"]
    [finding] = findings_of((card_scored("JD", 1), EXTRAS_WORTH_ONE))
    assert finding["key"] == "SCORE.CARD_POINTS: differs on card points"
    assert [f["explanation"] for f in finding["facets"]] == [
        "scores 7♦ or 10♦ or J♦ at 1 point"]


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_a_value_no_slip_gives_a_card_explains_nothing() -> None:
    # a heart at -4 (5 points lost) is no value a slip gives: one point off, not counted,
    # the sign turned
    rules, values = _observed(card_scored("5H", -5), ONE_HEART)
    assert values == []
    rules, values = _observed(card_scored("5H", -2), ONE_HEART)
    assert values == ["scores 5♥ or 8♥ at -1 point"] and rules[0] == "SCORE.CARD_POINTS"


@pytest.mark.rule("SCORE.CARD_POINTS", "TRICK.CANCEL")
def test_a_cancelled_pair_scored_at_nothing_joins_the_cards_value_seen_elsewhere() -> None:
    # alone, a pair of 5♥ scored nothing reads as cancelled cards not counted (the plainer
    # slip); once the run has seen a single 5♥ scored at nothing, it is that card's value,
    # whichever it met first
    unscored = card_scored("5H", -1)
    rules, values = _observed(unscored, HEART_PAIR)
    assert rules[0] == "TRICK.CANCEL"
    assert values == ["scores 5♥ at 0 points", "scores 6♥ or 7♥ or 8♥ or 9♥ at -1 point"]
    [finding] = findings_of((unscored, HEART_PAIR), (unscored, ONE_HEART), (unscored, ONE_HEART))
    assert finding["rule"] == "SCORE.CARD_POINTS"
    assert finding["count"] == 3 and finding["games"] == 3
    assert [(f["words"], f["explanation"], f["count"]) for f in finding["facets"]] == [
        ("counts card points at other values", "scores 5♥ or 8♥ at 0 points", 2),
        ("scores 5♥ at 0 points", "scores 5♥ at 0 points", 1)]


@pytest.mark.rule("TRICK.CANCEL", "VOID.TRICK")
def test_a_void_trick_kept_by_its_leader_joins_the_pair_that_does_not_cancel() -> None:
    # the led Q♣ standing with its pair wins the trick for its leader, as a void trick kept
    # by its leader would; the run sees the same pair stand elsewhere: one finding
    standing = pair_not_cancelled("QC")
    [alone] = findings_of((standing, VOID_BY_LED_PAIR))
    assert alone["rule"] == "VOID.TRICK"
    [finding] = findings_of((standing, VOID_BY_LED_PAIR), (standing, QUEENS_OF_CLUBS),
                          (standing, QUEENS_OF_CLUBS))
    assert finding["key"] == "TRICK.CANCEL: differs on identical cards cancel"
    assert finding["count"] == 3 and finding["games"] == 3
    assert {f["explanation"] for f in finding["facets"]} == {
        "lets a pair of identical cards stand without cancelling them"}


@pytest.mark.rule("TRICK.CANCEL", "VOID.TRICK")
def test_a_finding_met_in_more_games_is_not_folded_into_a_rarer_one() -> None:
    standing = pair_not_cancelled("QC")
    found = findings_of((standing, VOID_BY_LED_PAIR), (standing, VOID_BY_LED_PAIR),
                      (standing, QUEENS_OF_CLUBS))
    assert [(f["rule"], f["count"]) for f in found] == [("VOID.TRICK", 2), ("TRICK.CANCEL", 1)]


def _moon_choosing() -> GameState:
    sc = moon_deal(DEFAULT)
    choosing, _ = sc.state.apply(last_card(sc))
    assert choosing.phase is Phase.MOON_CHOICE and choosing.to_act == 1
    return choosing


@pytest.mark.rule("TURN.ORDER", "MOON.CHOICE")
def test_a_legal_step_refused_as_out_of_turn_is_turn_order() -> None:
    choosing = _moon_choosing()
    choice = ChooseMoon(1, MoonChoice.ADD)
    assert rejected_legal_rules(choosing, choice, "TURN.ORDER") == ["TURN.ORDER"]
    assert rejected_legal_rules(choosing, choice, "MOON.CHOICE") == ["MOON.CHOICE"]
    before, play = reference_step(*ONE_HEART)
    assert rejected_legal_rules(before, play, "TURN.ORDER") == ["TURN.ORDER"]
    # moon = others-52 refuses every choice, citing the moon's rule: it gives a refusal
    # that cites the moon, not one that cites the turn
    assert [(a.switch, a.value) for a in explaining_verdict(
        choosing, choice, accepted=False, cited="MOON.CHOICE")] == [
        ("moon", "others-52"), ("moon", "others-104")]
    assert explaining_verdict(choosing, choice, accepted=False, cited="TURN.ORDER") == []
