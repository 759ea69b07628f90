"""Shooting the moon: MOON.CONDITION and MOON.CHOICE, under every moon value."""

from __future__ import annotations

import pytest

from rules_ref import ChooseMoon, IllegalAction, MoonChoice, Phase, Play, Ruleset
from rules_ref.cards import Card
from rules_ref.events import DealScored, MoonChosen, MoonShot
from rules_ref.ruleset import Moon
from rules_ref.scoring import moon_scores, moon_shooter

from .helpers import MOON_END, assert_illegal, cards, eight_player_deal, fill_deal, no_pass

HEARTS = cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
QS = cards("QS")


def _seats(*collected: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    return [*collected, (), ()]


@pytest.mark.rule("MOON.CONDITION")
def test_all_26_hearts_and_both_queens_shoot_the_moon() -> None:
    assert moon_shooter(_seats((), HEARTS * 2 + QS * 2 + cards("2C"))) == 1


@pytest.mark.rule("MOON.CONDITION")
@pytest.mark.parametrize(("first", "second"), [
    (HEARTS + QS, HEARTS + QS),        # thirteen hearts and one Q♠ each
    (HEARTS * 2 + QS, QS),             # one Q♠ elsewhere
    (HEARTS * 2 + QS, ()),             # one Q♠ uncollected
    (HEARTS + HEARTS[1:] + QS * 2, ()),  # one heart uncollected
])
def test_anything_less_is_no_moon(first: tuple[Card, ...], second: tuple[Card, ...]) -> None:
    assert moon_shooter(_seats(first, second)) is None


@pytest.mark.rule("MOON.CONDITION", "MOON.CHOICE")
def test_a_moon_waits_for_the_shooters_choice() -> None:
    state, events = eight_player_deal(MOON_END)
    assert MoonShot(0) in events
    assert state.phase is Phase.MOON_CHOICE
    assert state.moon_shooter == 0
    assert state.waiting_for == (0,)
    assert state.legal_actions() == (ChooseMoon(0, MoonChoice.SUBTRACT),
                                     ChooseMoon(0, MoonChoice.ADD))
    assert state.current_points() == (52, 0, 0, 0, 0, 0, 0, 0)
    assert state.deal_results == ()  # not scored yet
    assert state.totals == (0,) * 8


@pytest.mark.rule("MOON.CHOICE")
@pytest.mark.parametrize(("choice", "scores"), [
    (MoonChoice.SUBTRACT, (-26, 0, 0, 0, 0, 0, 0, 0)),
    (MoonChoice.ADD, (0, 26, 26, 26, 26, 26, 26, 26)),
])
def test_both_moon_choices(choice: MoonChoice, scores: tuple[int, ...]) -> None:
    start = (10, 20, 0, 0, 0, 0, 0, 5)
    state, _ = eight_player_deal(MOON_END, totals=start)
    state, events = state.apply(ChooseMoon(0, choice))
    totals = tuple(t + s for t, s in zip(start, scores, strict=True))
    assert MoonChosen(0, choice) in events
    assert DealScored(1, (52, 0, 0, 0, 0, 0, 0, 0), scores, totals) in events
    assert state.totals == totals
    assert state.deal_results[-1].moon_choice is choice
    assert state.phase is Phase.DEALING


@pytest.mark.rule("MOON.CHOICE")
def test_totals_may_become_negative() -> None:
    state, _ = eight_player_deal(MOON_END)
    state, _ = state.apply(ChooseMoon(0, MoonChoice.SUBTRACT))
    assert state.totals == (-26, 0, 0, 0, 0, 0, 0, 0)


@pytest.mark.rule("MOON.CHOICE", "TURN.ORDER")
def test_only_the_shooter_chooses_and_nothing_else_happens_before() -> None:
    state, _ = eight_player_deal(MOON_END)
    assert_illegal(state, ChooseMoon(3, MoonChoice.ADD), "TURN.ORDER")
    assert_illegal(state, Play(0, cards("2C")[0]), "TURN.ORDER")
    assert_illegal(state, fill_deal(8), "TURN.ORDER")


# --- moon_scores: every moon value, and no choice made for the shooter --------------------

#: Seat 2 collected every heart and both Q♠ and one 10♦; seat 4 the other 10♦.
SHOT = [(), (), HEARTS * 2 + QS * 2 + cards("10D"), (), cards("10D"), ()]


@pytest.mark.rule("MOON.CHOICE", "SCORE.CARD_POINTS")
@pytest.mark.parametrize(("moon", "choice", "ten", "scores"), [
    (Moon.CHOICE_26, MoonChoice.SUBTRACT, 0, (0, 0, -26, 0, 0, 0)),
    (Moon.CHOICE_26, MoonChoice.ADD, 0, (26, 26, 0, 26, 26, 26)),
    (Moon.OTHERS_52, None, 0, (52, 52, 0, 52, 52, 52)),
    (Moon.OTHERS_104, None, 0, (104, 104, 0, 104, 104, 104)),
    (Moon.CHOICE_26, MoonChoice.SUBTRACT, -10, (0, 0, -36, 0, -10, 0)),
    (Moon.CHOICE_26, MoonChoice.ADD, -10, (26, 26, -10, 26, 16, 26)),
    (Moon.OTHERS_52, None, 5, (52, 52, 5, 52, 57, 52)),
    (Moon.OTHERS_104, None, -1000, (104, 104, -1000, 104, -896, 104)),
])
def test_moon_scores(moon: Moon, choice: MoonChoice | None, ten: int,
                     scores: tuple[int, ...]) -> None:
    rs = Ruleset(moon=moon, ten_of_diamonds_points=ten)
    assert moon_shooter(SHOT) == 2
    assert moon_scores(2, choice, SHOT, rs) == scores


@pytest.mark.rule("MOON.CHOICE")
def test_moon_scores_never_chooses_for_the_shooter() -> None:
    with pytest.raises(IllegalAction) as info:
        moon_scores(2, None, SHOT, Ruleset())
    assert info.value.rule_ids == ("MOON.CHOICE",)
    assert str(info.value) == ("MOON.CHOICE: seat 2 shot the moon and must choose subtract "
                               "or add, but has made no choice; there is no default")


@pytest.mark.rule("MOON.CHOICE")
@pytest.mark.parametrize(("moon", "choice"), [
    (Moon.OTHERS_52, MoonChoice.ADD),
    (Moon.OTHERS_104, MoonChoice.SUBTRACT),
])
def test_moon_scores_refuses_a_choice_the_ruleset_does_not_offer(
        moon: Moon, choice: MoonChoice) -> None:
    with pytest.raises(IllegalAction) as info:
        moon_scores(2, choice, SHOT, Ruleset(moon=moon))
    assert str(info.value) == (f"MOON.CHOICE: under moon = {moon} the shooter has no choice "
                               f"to make, but {choice} was given")


@pytest.mark.rule("MOON.CHOICE")
@pytest.mark.parametrize(("moon", "scores"), [
    (Moon.OTHERS_52, (0, 52, 52, 52, 52, 52, 52, 52)),
    (Moon.OTHERS_104, (0, 104, 104, 104, 104, 104, 104, 104)),
])
def test_a_moon_without_a_choice_is_scored_at_once(moon: Moon,
                                                   scores: tuple[int, ...]) -> None:
    state, events = eight_player_deal(MOON_END, ruleset=no_pass(moon=moon))
    assert state.phase is Phase.DEALING
    assert MoonChosen(0, None) in events
    assert state.deal_results[-1].moon_choice is None
    assert state.deal_results[-1].scores == scores
