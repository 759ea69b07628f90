"""The cause named for a crash, a refused pass, a moon and a forced 2♣.

Each case builds a reference state (a table, a seeded game, a built moon
deal), states what a broken implementation answers there, and checks the
exact rule list :mod:`rules_ref.findings.attribution` (or
``exercise_detect.rules_at_work`` for an internal error) returns.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from rules_ref.actions import Action, Pass, Play
from rules_ref.cards import parse_card
from rules_ref.exercise.detect import rules_at_work
from rules_ref.findings.attribution import observation_rules, rejected_legal_rules
from rules_ref.players.game import game_steps, next_deal
from rules_ref.protocol.observation import observe
from rules_ref.ruleset import DEFAULT, PassDirection, Ruleset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.vectors.endings import PAIR_SPLIT, last_card, moon_deal
from rules_ref.vectors.kinds.moon import NEAR_MOON_X

Step = tuple[GameState, Action, GameState]
TWO_OF_CLUBS = parse_card("2C")


def _named(step: Step, **actual: Any) -> list[str]:
    before, action, after = step
    expected = observe(after)
    return observation_rules(before, action, after, expected, {**expected, **actual})[0]


# --- an internal error: the rules the reference's step went through --------------------------


@cache
def _steps() -> list[tuple[GameState, Action, GameState]]:
    return [(b, a, af) for b, a, af, _ in game_steps(7, 0)]


@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "PASS.EXCHANGE")
def test_a_crash_where_play_begins_names_the_opening_lead() -> None:
    last_pass = next(s for s in _steps() if isinstance(s[1], Pass)
                     and s[2].phase is Phase.PLAYING)
    assert rules_at_work(last_pass[0], last_pass[1]) == [
        "PASS.CARDS", "PASS.EXCHANGE", "LEAD.OPENING_LEADER", "LEAD.OPENING_CARD"]
    first_pass = next(s for s in _steps() if isinstance(s[1], Pass))
    assert rules_at_work(first_pass[0], first_pass[1]) == ["PASS.CARDS"]
    hold = Ruleset(pass_cycle=(PassDirection.HOLD,))
    table = GameState.start(7, hold)
    dealt, _ = table.apply(next_deal(table, 1))
    assert rules_at_work(dealt, None) == [
        "PLAYERS.COUNT", "DEAL.SIZE", "DEAL.SOURCE", "PASS.DIRECTION", "LEAD.OPENING_LEADER",
        "LEAD.OPENING_CARD", "DECK.CARDS"]


@pytest.mark.rule("VOID.LAST")
def test_a_crash_at_a_deals_end_names_the_settling_of_the_pending_cards() -> None:
    before, action, _ = next(s for s in _steps() if isinstance(s[1], Play)
                             and s[2].phase in (Phase.DEALING, Phase.GAME_OVER))
    named = rules_at_work(before, action)
    assert named[:4] == ["GAME.END", "MOON.CONDITION", "SCORE.DEAL", "VOID.LAST"]


# --- a pass refused ---------------------------------------------------------------------------


@pytest.mark.rule("PASS.EXCHANGE", "PASS.CARDS")
def test_a_legal_pass_refused_as_the_seats_second_is_pass_exchange() -> None:
    state = GameState.start(7)
    dealt, _ = state.apply(next_deal(state, 1))
    cards = dealt.hands[0][:3]
    assert rejected_legal_rules(dealt, Pass(0, cards), "PASS.EXCHANGE") == ["PASS.EXCHANGE"]
    assert rejected_legal_rules(dealt, Pass(0, cards), "PASS.CARDS") == ["PASS.CARDS"]
    assert rejected_legal_rules(dealt, Pass(0, cards), None) == ["PASS.CARDS"]


# --- moons ------------------------------------------------------------------------------------


def _deal_end_without_moon() -> Step:
    before, action, after = next(s for s in _steps() if isinstance(s[1], Play)
                                 and s[2].phase is Phase.DEALING)
    assert after.deal_results[-1].moon_shooter is None
    return before, action, after


@pytest.mark.rule("MOON.CHOICE", "MOON.CONDITION")
def test_a_moon_choice_asked_of_nobody_is_moon_choice() -> None:
    step = _deal_end_without_moon()
    nobody: dict[str, Any] = {"phase": "moon-choice", "deal_scores": None, "to_act": None,
                              "legal": []}
    assert _named(step, **nobody) == ["MOON.CHOICE"]
    # a seat asked to choose: the engine thinks it shot the moon
    shooter = {**nobody, "to_act": 3, "legal": ["subtract", "add"]}
    assert _named(step, **shooter) == ["MOON.CONDITION"]


@cache
def _pair_moon() -> Step:
    near = moon_deal(DEFAULT, fixed=NEAR_MOON_X, keep_points=True, seed=71).with_setup(PAIR_SPLIT)
    action = last_card(near)
    after, _ = near.state.apply(action)
    assert after.deal_results[-1].moon_pair == (1, 5)
    return near.state, action, after


def _scored(step: Step, scores: list[int]) -> dict[str, Any]:
    expected = observe(step[2])
    totals = [t - e + s for t, e, s in zip(expected["totals"], expected["deal_scores"], scores,
                                           strict=True)]
    return {"deal_scores": scores, "totals": totals}


@pytest.mark.rule("MOON.CONDITION", "MOON.CHOICE")
def test_a_pair_moon_scored_for_other_shooters_is_moon_condition() -> None:
    step = _pair_moon()
    assert observe(step[2])["deal_scores"] == [26, 0, 26, 26, 26, 0, 26, 26]
    # seat 1 scored as one of the others: the engine saw seat 5 shoot alone
    assert _named(step, **_scored(step, [26, 26, 26, 26, 26, 0, 26, 26])) == ["MOON.CONDITION"]
    # the same two shooters scored the other way: the moon's scoring
    assert _named(step, **_scored(step, [0, -26, 0, 0, 0, -26, 0, 0])) == ["MOON.CHOICE"]


# --- a 2♣ forced on trick 1 ------------------------------------------------------------------


def _follower_with_two_of_clubs(opening_lead: str) -> Step:
    rs = Ruleset.from_dict({"pass_cycle": ["hold"], "opening_lead": opening_lead})
    return next((b, a, af) for b, a, af, _ in game_steps(7, 0, rs)
                if isinstance(a, Play) and af.trick_number == 1 and af.trick
                and af.to_act is not None and TWO_OF_CLUBS in af.hands[af.to_act]
                and len(af.legal_plays()) > 1)


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "LEAD.OPENING_CARD")
def test_a_two_of_clubs_forced_on_a_follower_is_follow_first_trick() -> None:
    step = _follower_with_two_of_clubs("left-of-dealer")
    assert observe(step[2])["legal"] == ["4D", "9D", "QD", "AD"]
    assert _named(step, legal=["2C"]) == ["FOLLOW.FIRST_TRICK"]
    # under a 2♣ opening lead too: first_trick_two_of_clubs decides what a follower plays,
    # opening_lead only the leader's card (one difference, one rule)
    two = _follower_with_two_of_clubs("two-of-clubs")
    assert _named(two, legal=["2C"]) == ["FOLLOW.FIRST_TRICK"]
