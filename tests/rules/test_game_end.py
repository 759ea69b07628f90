"""End of the game: GAME.END and GAME.WINNER (default target 150)."""

from __future__ import annotations

import pytest

from rules_ref import ChooseMoon, GameState, MoonChoice, Phase, Play, Ruleset
from rules_ref.errors import SetupError
from rules_ref.events import GameOver
from rules_ref.game_end import winners

from .helpers import (
    MOON_END,
    NO_PASS,
    SHARED_END,
    assert_illegal,
    cards,
    dealt,
    eight_player_deal,
    fill_deal,
)

# SHARED_END scores (47, 0, 0, 5, 0, 0, 0, 0).


@pytest.mark.rule("GAME.END", "GAME.WINNER")
def test_a_total_exactly_at_the_target_ends_the_game() -> None:
    state, events = eight_player_deal(SHARED_END, totals=(103, 4, 5, 7, 9, 9, 9, 9))
    assert state.totals == (150, 4, 5, 12, 9, 9, 9, 9)
    assert state.phase is Phase.GAME_OVER
    assert state.winners == (1,)
    assert events[-1] == GameOver((150, 4, 5, 12, 9, 9, 9, 9), (1,))


@pytest.mark.rule("GAME.END")
def test_a_total_below_the_target_goes_on_to_the_next_deal() -> None:
    state, events = eight_player_deal(SHARED_END, totals=(102, 4, 5, 7, 9, 9, 9, 9))
    assert state.totals == (149, 4, 5, 12, 9, 9, 9, 9)
    assert state.phase is Phase.DEALING
    assert state.winners == ()
    assert not any(isinstance(e, GameOver) for e in events)


@pytest.mark.rule("GAME.END")
def test_the_end_is_checked_only_after_a_deal_is_scored() -> None:
    start = (150, 0, 0, 0, 0, 0, 0, 0)
    playing = dealt(8, totals=start, first_dealer=7)
    assert playing.phase is Phase.PLAYING
    state, _ = eight_player_deal(SHARED_END, totals=start)
    assert state.phase is Phase.GAME_OVER
    assert state.totals == (197, 0, 0, 5, 0, 0, 0, 0)


@pytest.mark.rule("GAME.END", "TURN.ORDER")
def test_no_action_is_accepted_after_the_game_has_ended() -> None:
    state, _ = eight_player_deal(SHARED_END, totals=(103, 4, 5, 7, 9, 9, 9, 9))
    assert state.legal_actions() == ()
    assert state.waiting_for == ()
    assert_illegal(state, fill_deal(8), "TURN.ORDER")
    assert_illegal(state, Play(0, cards("2C")[0]), "TURN.ORDER")


@pytest.mark.rule("GAME.WINNER")
def test_players_tied_for_lowest_all_win() -> None:
    state, events = eight_player_deal(SHARED_END, totals=(103, 5, 5, 7, 9, 9, 9, 9))
    assert state.totals == (150, 5, 5, 12, 9, 9, 9, 9)
    assert state.winners == (1, 2)
    assert events[-1] == GameOver((150, 5, 5, 12, 9, 9, 9, 9), (1, 2))


@pytest.mark.rule("GAME.WINNER")
@pytest.mark.parametrize(("totals", "won"), [
    ([40, 12, 151, 12], (1, 3)),
    ([150, 149, 0, -26, 3, 3], (3,)),
    ([7, 7, 7, 7, 7, 7], (0, 1, 2, 3, 4, 5)),
])
def test_the_lowest_totals_win(totals: list[int], won: tuple[int, ...]) -> None:
    assert winners(totals) == won


@pytest.mark.rule("GAME.END", "MOON.CHOICE")
def test_the_end_is_checked_after_the_moon_choice() -> None:
    state, _ = eight_player_deal(MOON_END, totals=(0, 124, 0, 0, 0, 0, 0, 0))
    assert state.phase is Phase.MOON_CHOICE  # the deal is not scored yet
    state, events = state.apply(ChooseMoon(0, MoonChoice.ADD))
    assert state.totals == (0, 150, 26, 26, 26, 26, 26, 26)
    assert state.phase is Phase.GAME_OVER
    assert events[-1] == GameOver((0, 150, 26, 26, 26, 26, 26, 26), (0,))


@pytest.mark.rule("GAME.END", "SCORE.DEAL")
def test_a_deal_goes_on_alike_in_a_game_of_other_totals_until_it_is_scored() -> None:
    # the deal SHARED_END played at zero totals, and again from each of its moments in a game
    # whose totals bring a seat to the target: every state the same until the deal is scored,
    # which then ends only the second game
    totals = (103, 4, 5, 7, 9, 9, 9, 9)
    final, _ = eight_player_deal(SHARED_END, totals=totals)
    deal, *plays = final.actions
    low, high = (GameState.start(8, NO_PASS, 7, t) for t in ((0,) * 8, totals))
    played, _ = low.apply(deal)
    moved = played.in_game(high.game)
    assert (moved.totals, moved.hands, moved.deal) == (totals, played.hands, played.deal)
    for action in plays:
        after, _ = played.apply(action)
        if after.game is not played.game:  # the deal is scored: the totals decide
            break
        played, moved = after, moved.apply(action)[0]
        assert moved.legal_actions() == played.legal_actions()
        assert (moved.hands, moved.trick, moved.deal, moved.totals) == (
            played.hands, played.trick, played.deal, totals)
        assert moved.in_game(low.game).legal_actions() == played.legal_actions()
    moved, _ = moved.apply(action)
    assert (moved.phase, moved.totals) == (Phase.GAME_OVER, final.totals)
    assert played.apply(action)[0].phase is Phase.DEALING
    with pytest.raises(SetupError):  # a deal goes on in a game of its own rules alone
        played.in_game(GameState.start(8, Ruleset(target=100), 7).game)
