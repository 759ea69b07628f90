"""The rules named for an implementation that failed internally (``exercise_detect.rules_at_work``).

An ``error`` answer (protocol version 2) has no difference to read: the
report names the rules the reference's own step went through, the most
particular first, so that the class of a crash says where it happened.
"""

from __future__ import annotations

from rules_ref.actions import DealCards, Play
from rules_ref.cards import parse_card
from rules_ref.exercise.detect import rules_at_work
from rules_ref.players.game import game_steps
from rules_ref.state_parts import Phase

STEPS = list(game_steps(7, 0))


def test_a_deal_names_the_rules_of_dealing() -> None:
    before, action, _, _ = STEPS[0]
    assert isinstance(action, DealCards)
    assert rules_at_work(before, action) == [
        "DEAL.SOURCE", "DEAL.SIZE", "PASS.DIRECTION", "VIEW.SEAT", "DECK.CARDS"]


def test_the_play_that_ends_a_deal_names_its_scoring_first() -> None:
    before, action, _, _ = next(s for s in STEPS if isinstance(s[1], Play)
                                and s[2].phase in (Phase.DEALING, Phase.GAME_OVER))
    named = rules_at_work(before, action)
    assert named[:3] == ["GAME.END", "MOON.CONDITION", "SCORE.DEAL"]
    assert named[-4:] == ["FOLLOW.SUIT", "TRICK.WINNER", "DECK.RANKING", "SCORE.CARD_POINTS"]


def test_an_action_the_reference_rejects_names_the_rule_it_breaks() -> None:
    before = STEPS[20][0]
    seat = before.to_act
    assert seat is not None
    other = (seat + 1) % 7
    assert parse_card("2C") not in before.hands[other]
    # out of turn, and a card that seat does not hold: both rules
    assert rules_at_work(before, Play(other, parse_card("2C"))) == ["TURN.ORDER", "TURN.OWN_CARD"]
    held = before.hands[other][0]
    assert rules_at_work(before, Play(other, held)) == ["TURN.ORDER"]


def test_the_start_names_the_rules_of_a_new_game() -> None:
    dealt = STEPS[0][2]
    assert rules_at_work(dealt, None) == [
        "PLAYERS.COUNT", "DEAL.SIZE", "DEAL.SOURCE", "PASS.DIRECTION", "VIEW.SEAT",
        "DECK.CARDS"]
