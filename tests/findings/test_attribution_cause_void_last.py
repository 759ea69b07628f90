"""Points that differ in where the cards still pending at a deal's end went: ``VOID.LAST``.

Each case starts from the position before the last card of a deal whose last
trick is void (seed 8, 7 players), under a ``last_trick_void`` that gives the
pending cards to seats, and states the implementation's points (and, when it
ends the deal differently, its phase and its last trick) as a broken engine
would. The points of the cards still pending are 2 (the K♥ and 2♥ of that trick).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from rules_ref.actions import Action
from rules_ref.findings.attribution import observation_rules, pending_at_end, settles_otherwise
from rules_ref.players.game import game_steps
from rules_ref.positions.convert import position_of, position_to_json
from rules_ref.protocol.observation import observe
from rules_ref.protocol.start import position_state
from rules_ref.ruleset import DEFAULT
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

Step = tuple[GameState, Action, GameState]


@cache
def _last_void(last_trick_void: str) -> Step:
    """The last card of seed 8's deal, played from a position under ``last_trick_void``."""
    before, action, _ = next((b, a, af) for i, (b, a, af, _) in enumerate(game_steps(7, seed=8))
                             if i == 1483)  # the step that applies action 1484
    assert len(before.actions) == 1483
    msg = {"type": "start", "players": 7,
           "ruleset": {**DEFAULT.to_dict(), "last_trick_void": last_trick_void},
           "position": position_to_json(position_of(before))}
    start = position_state(msg)
    after, _ = start.apply(action)
    assert after.tricks[-1].winner is None and after.phase is Phase.DEALING
    return start, action, after


def _named(step: Step, **actual: Any) -> tuple[list[str], list[str]]:
    before, action, after = step
    expected = observe(after)
    rules, fields, _ = observation_rules(before, action, after, expected,
                                         {**expected, **actual})
    return rules, fields


@pytest.mark.untraced
def test_the_pending_cards_are_the_last_tricks_and_the_pile() -> None:
    before, _, after = _last_void("leader")
    assert len(pending_at_end(before, after)) == 7
    assert pending_at_end(None, after) == ()
    assert observe(after)["points"] == [14, 2, 16, 15, 3, 0, 2]  # the leader, seat 0, took 2


@pytest.mark.untraced
@pytest.mark.rule("VOID.LAST")
def test_a_share_of_the_pending_cards_given_to_nobody_is_void_last() -> None:
    # split-highest-pair gives seat 0 one heart and seat 2 the other; the engine drops one
    split = _last_void("split-highest-pair")
    assert observe(split[2])["points"] == [13, 2, 17, 15, 3, 0, 2]
    assert _named(split, points=[12, 2, 17, 15, 3, 0, 2]) == (
        ["VOID.LAST", "SCORE.CARD_POINTS"], ["points"])


@pytest.mark.rule("VOID.LAST")
def test_pending_cards_given_to_another_seat_is_void_last() -> None:
    # the leader's 2 points given to seat 2, which played the second J♠ of the cancelled pair
    assert _named(_last_void("leader"), points=[12, 2, 18, 15, 3, 0, 2]) == (
        ["VOID.LAST", "TRICK.CANCEL", "VOID.TRICK"], ["points"])


@pytest.mark.rule("VOID.LAST")
def test_the_same_void_last_trick_shown_by_an_engine_asking_a_moon_choice() -> None:
    # the engine gives the pile to two seats at once and stops for a moon choice: its
    # observation still shows the last trick, void as the reference's
    before, action, after = _last_void("split-highest-pair")
    t = after.tricks[-1]
    shown = {"number": len(after.tricks), "leader": t.leader,
             "cards": [str(c) for c in t.cards], "winner": None}
    rules, fields = _named((before, action, after), points=[14, 2, 18, 15, 3, 0, 2],
                           phase="moon-choice", last_trick=shown, deal_scores=None)
    assert (rules[0], fields) == ("VOID.LAST", ["points"])


@pytest.mark.rule("VOID.LAST", "SCORE.CARD_POINTS", "TRICK.WINNER")
def test_what_is_not_the_pending_cards_fate() -> None:
    step = _last_void("leader")
    before, _, after = step
    expected = observe(after)
    # every heart scored 2 by every seat: a card value, not where the pile went
    hearts = [sum(1 for c in got if c.suit.name == "H") for got in after.collected]
    doubled = [p + h for p, h in zip(expected["points"], hearts, strict=True)]
    assert not settles_otherwise(before, after, expected, {**expected, "points": doubled})
    assert _named(step, points=doubled)[0][0] == "SCORE.CARD_POINTS"
    # a seat given more than the pile holds: not a share of it
    assert not settles_otherwise(before, after, expected,
                                 {**expected, "points": [14, 2, 16, 15, 3, 0, 9]})
    # the engine shows the last trick won: where its cards went is that trick's matter
    t = after.tricks[-1]
    won = {"number": len(after.tricks), "leader": t.leader,
           "cards": [str(c) for c in t.cards], "winner": 2}
    assert not settles_otherwise(before, after, expected,
                                 {**expected, "points": [12, 2, 18, 15, 3, 0, 2],
                                  "phase": "moon-choice", "last_trick": won})
    # still playing: the deal is one trick longer there (not VOID.LAST's)
    assert not settles_otherwise(before, after, expected,
                                 {**expected, "points": [12, 2, 18, 15, 3, 0, 2],
                                  "phase": "playing"})
