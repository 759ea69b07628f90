"""Tricks: a won trick set aside, a later card's suit taken as led, a crash or a refusal
at a trick's end.

All from the seeded 7-player game 0: its trick 1 is won (seat 2 takes it and
the six extras) with no pending pile before it.
"""

from __future__ import annotations

from functools import cache

import pytest

from rules_ref.actions import Action, Play
from rules_ref.cards import is_penalty, parse_card
from rules_ref.causes import play_situation_rule
from rules_ref.exercise.detect import rules_at_work
from rules_ref.findings.attribution import observation_rules, rejected_legal_rules
from rules_ref.players.game import game_steps
from rules_ref.protocol.observation import observe
from rules_ref.ruleset import Ruleset
from rules_ref.state import GameState

Step = tuple[GameState, Action, GameState]


@cache
def _trick_one_won() -> Step:
    before, action, after = next((b, a, af) for i, (b, a, af, _) in enumerate(game_steps(7, 0))
                                 if i == 14)  # the step that applies action 15
    assert len(after.actions) == 15
    assert after.tricks[-1].winner == 2 and len(before.extras) == 6 and not before.pending
    return before, action, after


@pytest.mark.rule("VOID.TRICK", "EXTRAS.FIRST_TRICK")
def test_a_won_trick_set_aside_as_void_is_void_trick() -> None:
    before, action, after = _trick_one_won()
    expected = observe(after)
    trick = after.tricks[-1]
    pile = [str(c) for c in (*trick.cards, *before.extras)]
    # the trick's cards and the extras left pending, nobody's points: the trick made void
    assert observation_rules(before, action, after, expected,
                             {**expected, "pending": pile, "points": [0] * 7}) == (
        ["VOID.TRICK"], ["pending"], ["points"])
    # only the extras left pending: the extras' rule
    extras = [str(c) for c in before.extras]
    assert observation_rules(before, action, after, expected,
                             {**expected, "pending": extras})[0] == ["EXTRAS.FIRST_TRICK"]


@pytest.mark.rule("VOID.TRICK", "VOID.COLLECT")
def test_a_crash_at_a_tricks_end_names_setting_aside_and_collecting() -> None:
    before, action, _ = _trick_one_won()
    assert rules_at_work(before, action) == [
        "TRICK.CANCEL", "EXTRAS.FIRST_TRICK", "VOID.TRICK", "VOID.COLLECT", "VIEW.SEAT",
        "FOLLOW.SUIT", "TRICK.WINNER", "TRICK.NEXT_LEADER"]


def _follower_holding_two_suits_of_the_trick() -> Step:
    """A seat to follow that holds the led suit and another suit played to the trick."""
    for before, action, after, _ in game_steps(7, 0):
        seat = after.to_act
        if not (isinstance(action, Play) and after.trick and seat is not None):
            continue
        led = after.trick[0].suit
        suits = {c.suit for c in after.hands[seat]}
        later = {c.suit for c in after.trick[1:]} - {led}
        if (led in suits and later & suits and after.trick[0] not in after.trick[1:]
                and not set(after.hands[seat]) & set(after.trick)):
            return before, action, after
    raise AssertionError("no such follower")  # pragma: no cover


@pytest.mark.rule("TRICK.LED_SUIT", "FOLLOW.SUIT")
def test_a_seat_made_to_follow_a_later_cards_suit_is_trick_led_suit() -> None:
    before, action, after = _follower_holding_two_suits_of_the_trick()
    seat = after.to_act
    assert seat is not None
    later = next(c.suit for c in after.trick[1:] if c.suit != after.trick[0].suit
                 and any(h.suit == c.suit for h in after.hands[seat]))
    other = [str(c) for c in after.hands[seat] if c.suit == later]
    expected = observe(after)
    assert observation_rules(before, action, after, expected,
                             {**expected, "legal": other})[0] == ["TRICK.LED_SUIT", "FOLLOW.SUIT"]


@pytest.mark.rule("MOON.CHOICE", "FOLLOW.SUIT")
def test_a_deals_last_card_refused_by_its_scoring_names_the_scoring_rule() -> None:
    steps = [(b, a) for b, a, af, _ in game_steps(7, 0) if isinstance(a, Play)]
    last = next((b, a) for b, a in steps if all(len(h) <= 1 for h in b.hands)
                and len(b.trick) == 6)
    before, play = last
    assert isinstance(play, Play)
    situation = play_situation_rule(before, play.card)
    assert rejected_legal_rules(before, play, "MOON.CHOICE") == ["MOON.CHOICE", *situation]
    # a citation of the card's own rules, or a scoring rule on a play that ends no deal
    assert rejected_legal_rules(before, play, "FOLLOW.SUIT") == situation
    b0, p0 = steps[10]
    assert rejected_legal_rules(b0, p0, "MOON.CHOICE") == play_situation_rule(b0, p0.card)


def _void_follower_on_a_later_trick(first_trick_points: str) -> Step:
    """A seat void in the led suit after trick 1, holding a heart or a Q♠ and another card."""
    rs = Ruleset.from_dict({"first_trick_points": first_trick_points})
    for before, action, after, _ in game_steps(7, 0, rs):
        seat = after.to_act
        if not (isinstance(action, Play) and after.trick and after.trick_number > 1
                and seat is not None):
            continue
        hand = after.hands[seat]
        if (not any(c.suit == after.trick[0].suit for c in hand)
                and any(is_penalty(c) for c in hand) and not all(is_penalty(c) for c in hand)):
            return before, action, after
    raise AssertionError("no such follower")  # pragma: no cover


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "FOLLOW.SUIT")
def test_the_first_tricks_ban_on_a_later_trick_is_follow_first_trick() -> None:
    for switch, named in (("forbidden", ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT"]),
                          ("allowed", ["FOLLOW.SUIT"])):
        before, action, after = _void_follower_on_a_later_trick(switch)
        expected = observe(after)
        banned = [t for t in expected["legal"] if not is_penalty(parse_card(t))]
        assert observation_rules(before, action, after, expected,
                                 {**expected, "legal": banned})[0] == named


def _follower_of_a_queen_on_trick_one() -> Step:
    """Trick 1 led in spades with a Q♠ in it, and the next seat holding the other Q♠ and a
    spade besides: the state of the crcowan engine's default-declaration run."""
    for seed in range(40):
        for before, action, after, _ in game_steps(8, seed):
            seat = after.to_act
            if (after.trick_number != 1 or not after.trick or seat is None
                    or after.trick[0].suit.name != "S"):
                continue
            hand = after.hands[seat]
            if parse_card("QS") in after.trick and parse_card("QS") in hand and any(
                    c.suit.name == "S" and not is_penalty(c) for c in hand):
                return before, action, after
    raise AssertionError("no such follower")  # pragma: no cover


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "TRICK.CANCEL")
def test_a_ban_of_points_on_trick_one_is_follow_first_trick_though_the_queen_is_a_second_copy(
        ) -> None:
    before, action, after = _follower_of_a_queen_on_trick_one()
    expected = observe(after)
    banned = [t for t in expected["legal"] if t != "QS"]
    assert observation_rules(before, action, after, expected,
                             {**expected, "legal": banned})[0] == ["FOLLOW.FIRST_TRICK"]
    # the card's situation alone is the first trick's too: the rule that decides a point card
    # on trick 1 comes before the coincidence of its copy already in the trick
    assert play_situation_rule(after, parse_card("QS")) == ["FOLLOW.FIRST_TRICK"]
