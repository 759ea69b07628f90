"""The named predicates the game state calls to enforce phase and turn rules, value by value.

Each predicate ties a decision of :mod:`rules_ref.state` or
:mod:`rules_ref.transitions` to its rule in ``spec/rules.toml``.
"""

from __future__ import annotations

import pytest

from rules_ref.game_end import game_winners
from rules_ref.leading import is_opening_lead
from rules_ref.passing import may_pass
from rules_ref.ruleset import Moon, Ruleset
from rules_ref.scoring import needs_moon_choice
from rules_ref.tricks import holds, may_act

from .helpers import cards


@pytest.mark.rule("LEAD.OPENING_CARD", "LEAD.HEARTS")
@pytest.mark.parametrize(("trick_number", "opening"),
                         [(1, True), (2, False), (3, False), (13, False)])
def test_only_the_lead_of_trick_one_is_the_opening_lead(trick_number: int,
                                                        opening: bool) -> None:
    assert is_opening_lead(trick_number) is opening


@pytest.mark.rule("PASS.EXCHANGE")
def test_a_seat_passes_once_and_its_pass_cannot_be_changed() -> None:
    assert may_pass(None) is True
    assert may_pass(cards("2C 3C 4C")) is False
    assert may_pass(()) is False  # a pass given, however short, is given


@pytest.mark.rule("TURN.ORDER")
@pytest.mark.parametrize(("seat", "waiting", "allowed"), [
    (2, (2,), True),
    (3, (2,), False),
    (0, (), False),  # between deals and after the game no seat acts
    (5, (1, 5, 7), True),  # while passing, any seat yet to pass
    (4, (1, 5, 7), False),
])
def test_only_a_seat_whose_turn_it_is_may_act(seat: int, waiting: tuple[int, ...],
                                              allowed: bool) -> None:
    assert may_act(seat, waiting) is allowed


@pytest.mark.rule("TURN.OWN_CARD")
@pytest.mark.parametrize(("hand", "card", "allowed"), [
    ("QS 2H", "QS", True),
    ("2H", "QS", False),
    ("QS QS", "QS", True),  # either copy
    ("", "2C", False),
])
def test_a_seat_plays_only_a_card_of_its_own_hand(hand: str, card: str, allowed: bool) -> None:
    assert holds(cards(hand), cards(card)[0]) is allowed


@pytest.mark.rule("TURN.OWN_CARD")
def test_a_play_of_a_card_not_held_is_refused_under_its_rule() -> None:
    """Refused under TURN.OWN_CARD, the state unchanged; at the seat's turn, not TURN.ORDER."""
    from rules_ref.actions import DealCards, Play
    from rules_ref.deal import seeded_deal
    from rules_ref.errors import IllegalAction
    from rules_ref.ruleset import PassDirection
    from rules_ref.state import GameState

    state = GameState.start(6, Ruleset(pass_cycle=(PassDirection.HOLD,)))
    deal = seeded_deal(seed=3, players=6, deal_number=1, dealer=0)
    state, _ = state.apply(DealCards(deal.hands, deal.extras))
    seat = state.to_act
    assert seat is not None
    absent = next(c for c in state.hands[(seat + 1) % 6] if c not in state.hands[seat])
    with pytest.raises(IllegalAction) as refused:
        state.apply(Play(seat, absent))
    assert [(v.rule_id, v.message) for v in refused.value.violations] == [
        ("TURN.OWN_CARD", f"seat {seat} does not hold {absent}")]
    assert state.violations(Play(seat, absent)) == refused.value.violations


@pytest.mark.rule("MOON.CHOICE")
@pytest.mark.parametrize(("shooter", "moon", "needed"), [
    (3, Moon.CHOICE_26, True),
    (0, Moon.CHOICE_26, True),  # seat 0 is a shooter too
    (None, Moon.CHOICE_26, False),
    (3, Moon.OTHERS_52, False),
    (3, Moon.OTHERS_104, False),
    (None, Moon.OTHERS_52, False),
])
def test_a_moon_choice_is_needed_only_for_a_shooter_with_options(
        shooter: int | None, moon: Moon, needed: bool) -> None:
    assert needs_moon_choice(shooter, Ruleset(moon=moon)) is needed


@pytest.mark.rule("GAME.END", "GAME.WINNER")
@pytest.mark.parametrize(("totals", "target", "won"), [
    ((149, 20, 30, 40, 50, 60), 150, ()),
    ((150, 20, 30, 40, 50, 60), 150, (1,)),
    ((151, 20, 20, 40, 50, 60), 150, (1, 2)),
    ((99, 20, 30, 40, 50, 60), 100, ()),
    ((100, 100, 100, 100, 100, 100), 100, (0, 1, 2, 3, 4, 5)),
    ((-5, 1, 1, 1, 1, 1), 1, (0,)),
])
def test_the_game_ends_after_a_scored_deal_that_brings_a_total_to_the_target(
        totals: tuple[int, ...], target: int, won: tuple[int, ...]) -> None:
    assert game_winners(totals, Ruleset(target=target)) == won
