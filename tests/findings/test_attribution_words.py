"""The cause of a divergence and its words, case by case, without an adapter.

Each case builds a real reference position, states what a broken
implementation would answer there, and checks the rule named (the cause,
not the consequence) and the words of the divergence (no seat, deal number
or total in them; the seat and the card in the detail).
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.actions import DealCards, Pass, Play
from rules_ref.cards import QUEEN_OF_SPADES, parse_card, parse_cards
from rules_ref.causes import play_situation_rule, trace_points
from rules_ref.findings.attribution import observation_rules, rejected_legal_rules
from rules_ref.findings.words import deciding_switch, divergence_detail, divergence_words
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.players.game import game_steps
from rules_ref.protocol.observation import observe
from rules_ref.ruleset import DEFAULT, Ruleset
from rules_ref.scoring import card_points
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.vectors import last_card, moon_deal

from ..protocol.protocol_messages import dealt_start
from ..rules.helpers import fill_deal, no_pass


def _failure(start: GameState, actions: list[Any], failing: Any, expected: dict[str, Any],
             actual: dict[str, Any], rules: list[str],
             fields: tuple[str, ...] | list[str] = ()) -> dict[str, Any]:
    return {"kind": "disagreement", "rules": rules, "start": dealt_start(start),
            "actions": [action_to_json(a) for a in actions] + (
                [action_to_json(failing)] if failing is not None else []),
            "failing": action_to_json(failing) if failing is not None else None,
            "expected": expected, "actual": actual, "fields": list(fields)}


def _first_trick() -> tuple[GameState, GameState]:
    """Seat 1 leads 5♠ to trick 1; seat 2 holds Q♠ and 9♠ and follows suit."""
    deal = fill_deal(6, {1: "5S 2C 3C", 2: "QS 9S 4D", 3: "KS 2D 3D"})
    dealt, _ = GameState.start(6, no_pass()).apply(deal)
    led, _ = dealt.apply(Play(1, parse_card("5S")))
    return dealt, led


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_a_queen_forbidden_while_following_on_trick_one_is_the_first_tricks_rule() -> None:
    dealt, led = _first_trick()
    queen = parse_card("QS")
    assert play_situation_rule(led, queen) == ["FOLLOW.FIRST_TRICK"]
    assert play_situation_rule(led, parse_card("9S")) == ["FOLLOW.SUIT"]
    expected = observe(led)
    actual = {**expected, "legal": [c for c in expected["legal"] if c != "QS"]}
    rules, fields, _ = observation_rules(dealt, Play(1, parse_card("5S")), led, expected, actual)
    assert (rules, fields) == (["FOLLOW.FIRST_TRICK"], ["legal"])
    failure = _failure(dealt, [], Play(1, parse_card("5S")), {"legal": expected["legal"]},
                       {"legal": actual["legal"]}, rules, fields)
    assert divergence_words(failure) == "forbids Q♠ on the first trick while following suit"
    assert divergence_detail(failure) == ("seat 2 may not play Q♠ on the first trick while "
                                          "following suit; the rules allow it")


@pytest.mark.rule("PASS.CARDS")
def test_a_rejected_pass_is_judged_by_the_reference_and_the_citation_shown() -> None:
    deal = fill_deal(6, {0: "2C 7H 9D"})
    dealt, _ = GameState.start(6).apply(deal)
    assert dealt.phase is Phase.PASSING
    passing = Pass(0, parse_cards("2C 7H 9D"))
    # the implementation cites TURN.ORDER: evidence, not the verdict
    rules = rejected_legal_rules(dealt, passing, "TURN.ORDER")
    assert rules == ["PASS.CARDS"]
    failure = _failure(dealt, [], passing, {"type": "observation"},
                       {"type": "rejected", "rule": "TURN.ORDER", "reason": "no"}, rules)
    assert divergence_words(failure) == "rejects a pass that contains 2♣"
    assert divergence_detail(failure) == "the implementation cites TURN.ORDER"


@pytest.mark.rule("MOON.CHOICE", "MOON.CONDITION")
def test_totals_that_differ_while_a_moon_choice_is_pending_are_the_moons() -> None:
    sc = moon_deal(DEFAULT)
    before = sc.state
    action = last_card(sc)
    choosing, _ = before.apply(action)
    assert choosing.phase is Phase.MOON_CHOICE
    expected = observe(choosing)
    # scored at once, as if the shooter had subtracted: a moon seen, the choice not awaited
    scored = {**expected, "phase": "dealing", "legal": None,
              "deal_scores": [-26 if s == 1 else 0 for s in range(8)],
              "totals": [-26 if s == 1 else 0 for s in range(8)]}
    assert observation_rules(before, action, choosing, expected, scored)[0] == ["MOON.CHOICE"]
    # scored as card points: the implementation did not see the moon
    plain = {**scored, "deal_scores": expected["points"], "totals": expected["points"]}
    assert observation_rules(before, action, choosing, expected, plain)[0] == [
        "MOON.CONDITION"]
    # the totals alone differ while the choice is pending
    early = {**expected, "totals": [26] * 8}
    assert observation_rules(before, action, choosing, expected, early)[0] == ["MOON.CHOICE"]


def _deal_ends(seed: int) -> list[GameState]:
    """The state at the end of each deal of a seeded 7-player game (before the next deal)."""
    return [after for _, action, after, _ in game_steps(7, seed)
            if after.phase in (Phase.DEALING, Phase.GAME_OVER) and not isinstance(
                action, DealCards)]


def _pile_taken(state: GameState) -> tuple[int, int] | None:
    """(winner, points) of a pending pile of void tricks (not trick 1) that a winner took."""
    pile: list[Any] = []
    for i, t in enumerate(state.tricks):
        if t.winner is None:
            if i == 0:
                return None
            pile += t.cards
            continue
        points = card_points(pile, state.ruleset)
        if points:
            return t.winner, points
        pile = []
    return None


@pytest.mark.untraced
@pytest.mark.rule("VOID.COLLECT", "EXTRAS.FIRST_TRICK", "SCORE.CARD_POINTS")
def test_points_scored_at_the_end_are_traced_to_the_cards_that_carry_them() -> None:
    ends = [s for seed in range(6) for s in _deal_ends(seed)]
    # an engine that scores, at the end of the deal, the tricks won without the piles
    state, (winner, points) = next((s, p) for s in ends if (p := _pile_taken(s)) is not None)
    diff = [-points if seat == winner else 0 for seat in range(7)]
    assert trace_points(state, diff) == ["VOID.COLLECT"]
    # one that forgets the extras the first trick's winner took
    state = next(s for s in ends if s.tricks[0].winner is not None
                 and card_points(s.extras, s.ruleset) > 0
                 and s.uncollected == () and not _pile_taken(s))
    first = state.tricks[0].winner
    assert first is not None
    diff = [-card_points(state.extras, state.ruleset) if seat == first else 0
            for seat in range(7)]
    assert trace_points(state, diff) == ["EXTRAS.FIRST_TRICK"]
    # one that scores a Q♠ 10: every seat short by 3 for each Q♠ it took
    state = next(s for s in ends if any(QUEEN_OF_SPADES in c for c in s.collected))
    diff = [-3 * list(c).count(QUEEN_OF_SPADES) for c in state.collected]
    assert trace_points(state, diff) == ["SCORE.CARD_POINTS"]


@pytest.mark.untraced
@pytest.mark.rule("VOID.COLLECT", "SCORE.CARD_POINTS")
def test_a_pile_of_negative_points_lost_is_traced_too() -> None:
    # ten_of_diamonds_points = -10: a pending pile holding a 10♦ can be worth less than
    # nothing, and the seat that loses it scores more, not less
    ruleset = Ruleset.from_dict({"ten_of_diamonds_points": -10})
    ends = (after for seed in range(40) for _, action, after, _ in game_steps(7, seed, ruleset)
            if after.phase in (Phase.DEALING, Phase.GAME_OVER)
            and not isinstance(action, DealCards))  # played only as far as the first found
    state, (winner, points) = next((s, p) for s in ends
                                   if (p := _pile_taken(s)) is not None and p[1] < 0)
    diff = [-points if seat == winner else 0 for seat in range(7)]
    assert diff[winner] > 0
    assert trace_points(state, diff) == ["VOID.COLLECT"]


def test_the_switch_that_decides_a_rule_at_a_step() -> None:
    # a rule of one switch names it; of two, the one the step's facts bring in
    dealt, led = _first_trick()
    two, queen = parse_card("2C"), QUEEN_OF_SPADES
    assert deciding_switch("PASS.DIRECTION", None, None, None, []) == "pass_cycle"
    assert deciding_switch("FOLLOW.FIRST_TRICK", dealt, None, led, [queen]) == \
        "first_trick_points"
    assert deciding_switch("FOLLOW.FIRST_TRICK", dealt, None, led, [], [two]) == \
        "first_trick_two_of_clubs"
    passing, _ = GameState.start(6).apply(fill_deal(6, {0: "2C 7H 9D"}))
    assert deciding_switch("PASS.CARDS", passing, Pass(0, parse_cards("2C 7H 9D")), None,
                           [two]) == "pass_forbidden"
    assert deciding_switch("PASS.CARDS", passing, Pass(0, parse_cards("7H 9D")), None,
                           []) == "pass_count"
    assert deciding_switch("SCORE.CARD_POINTS", dealt, None, led, []) == \
        "ten_of_diamonds_points"
    assert deciding_switch("MOON.CHOICE", dealt, None, led, []) == "moon"
    assert deciding_switch("TRICK.CANCEL", dealt, None, led, []) is None
    assert deciding_switch("NOT.A_RULE", dealt, None, led, []) is None


def test_words_of_a_failure_without_a_game() -> None:
    assert divergence_words({"kind": "fault", "fault": {"kind": "timeout"}}) == \
        "adapter fault: timeout"
    assert divergence_words({"kind": "disagreement", "rules": ["X"], "start": {},
                             "fields": ["points"]}) == "points differs"
