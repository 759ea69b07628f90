"""The engine's small public pieces: action and card text, the ``may_*`` questions, setup errors."""

from __future__ import annotations

import pytest

from rules_ref import cards as cards_module
from rules_ref.actions import ChooseMoon, DealCards, MoonChoice, Pass, Play
from rules_ref.cards import (
    QUEEN_OF_SPADES,
    Suit,
    is_black_maria,
    is_heart,
    parse_card,
    parse_cards,
)
from rules_ref.errors import CardNotationError, IllegalAction, SetupError
from rules_ref.following import may_discard_on_first_trick, may_follow_with
from rules_ref.leading import may_lead, may_open_with
from rules_ref.players.game import game_steps, play_game
from rules_ref.records.record import actions_to_json
from rules_ref.ruleset import FirstTrickPoints, HeartsBrokenBy, PassDirection, Ruleset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

p = parse_cards
c = parse_card


def test_actions_read_as_sentences() -> None:
    deal = DealCards((p("2C 3C"), p("QS")), p("AH"))
    assert str(deal) == "deal 2C 3C | QS | extras AH"
    assert str(Pass(2, p("2C 3C QS"))) == "seat 2 passes 2C 3C QS"
    assert str(Play(4, c("10H"))) == "seat 4 plays 10H"
    assert str(ChooseMoon(1, MoonChoice.ADD)) == "seat 1 chooses moon option add"


def test_a_card_shows_its_notation() -> None:
    assert repr(c("10H")) == "Card('10H')"
    assert [is_heart(x) for x in p("2H AH QS 2C")] == [True, True, False, False]
    assert [is_black_maria(x) for x in p("QS QH KS")] == [True, False, False]
    assert is_black_maria(QUEEN_OF_SPADES)


class _Unprintable:
    def __repr__(self) -> str:
        raise ValueError("no text")


def test_what_is_not_text_is_named_by_its_type() -> None:
    with pytest.raises(CardNotationError, match=r"^<_Unprintable> is not a card: expected text"):
        parse_card(_Unprintable())  # type: ignore[arg-type]
    with pytest.raises(CardNotationError, match=r"^\[1, 2\] is not a card"):
        parse_card([1, 2])  # type: ignore[arg-type]


def test_the_parse_cache_stops_growing_but_parsing_goes_on() -> None:
    texts = [" " * n + "qs" for n in range(1, 4200)]
    assert {parse_card(t) for t in texts} == {QUEEN_OF_SPADES}
    assert len(cards_module._PARSED) <= 4096
    assert parse_card(texts[-1]) == QUEEN_OF_SPADES  # not cached, read again


def test_illegal_action_needs_a_violation() -> None:
    with pytest.raises(ValueError, match="at least one violation"):
        IllegalAction(())


@pytest.mark.rule("FOLLOW.SUIT")
def test_may_follow_with() -> None:
    assert may_follow_with(c("QS"), p("QS 3C"), Suit.C) is False
    assert may_follow_with(c("3C"), p("QS 3C"), Suit.C) is True
    assert may_follow_with(c("QS"), p("3D QS"), Suit.C) is True  # void in clubs: any card


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_may_discard_on_first_trick() -> None:
    strict = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN)
    assert may_discard_on_first_trick(c("QS"), p("3D QS"), Suit.C, 1, strict) is False
    assert may_discard_on_first_trick(c("3D"), p("3D QS"), Suit.C, 1, strict) is True
    assert may_discard_on_first_trick(c("QS"), p("3D QS"), Suit.C, 2, strict) is True
    assert may_discard_on_first_trick(c("QS"), p("3D QS"), Suit.C, 1, Ruleset()) is True
    assert may_discard_on_first_trick(c("QS"), p("2H QS"), Suit.C, 1, strict) is True  # only points


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_may_open_with() -> None:
    assert may_open_with(c("QS"), p("QS 2C"), Ruleset()) is False
    assert may_open_with(c("2C"), p("QS 2C"), Ruleset()) is True


@pytest.mark.rule("LEAD.HEARTS")
def test_may_lead() -> None:
    assert may_lead(c("2H"), p("QS 2H"), False, Ruleset()) is False
    assert may_lead(c("2H"), p("QS 2H"), True, Ruleset()) is True
    assert may_lead(c("2H"), p("2H 3H"), False, Ruleset()) is True  # nothing but hearts
    anything = Ruleset(hearts_broken_by=HeartsBrokenBy.NOT_NEEDED)
    assert may_lead(c("2H"), p("QS 2H"), False, anything) is True


@pytest.mark.rule("PLAYERS.COUNT", "DEAL.DEALER")
def test_setup_errors_name_what_is_wrong() -> None:
    with pytest.raises(SetupError, match=r"^ruleset must be a Ruleset$"):
        GameState.start(6, "default")  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="deal number must be 1 or more, got 0") as caught:
        GameState.start(6, next_deal=0)
    assert caught.value.rule_id == "DEAL.DEALER"
    with pytest.raises(SetupError, match=r"^totals must be 6 integers$"):
        GameState.start(6, totals=(0,) * 5)
    with pytest.raises(SetupError, match=r"^totals must be 6 integers$"):
        GameState.start(6, totals=(0, 0, 0, 0, 0, True))


@pytest.mark.rule("GAME.END")
def test_a_game_cut_short_by_its_deal_limit_is_an_error() -> None:
    with pytest.raises(SetupError, match=r"^the game did not end within 1 deals$"):
        play_game(6, seed=1, max_deals=1)
    steps = list(game_steps(6, seed=1, max_deals=50))
    assert steps[-1][2].phase is Phase.GAME_OVER


@pytest.mark.rule("TURN.ORDER")
def test_legal_actions_while_playing_are_the_legal_plays() -> None:
    steps = game_steps(6, seed=2, ruleset=Ruleset(pass_cycle=(PassDirection.HOLD,)))
    after = next(a for _, _, a, _ in steps if a.phase is Phase.PLAYING)
    seat = after.to_act
    assert seat is not None
    assert after.legal_actions() == tuple(Play(seat, x) for x in after.legal_plays())
    assert after.legal_actions((seat + 1) % 6) == ()
    assert after.legal_plays((seat + 1) % 6) == ()
    assert GameState.start(6).legal_plays() == ()  # nobody plays before the deal
    assert str(GameState.start(6)) == (
        "6 players, deal 0, dealer 0, phase dealing, totals [0, 0, 0, 0, 0, 0]")
    text = str(after)
    assert text.startswith("6 players, deal 1, dealer 0, phase playing, totals [0, 0, 0, 0, 0, 0]")
    assert f"trick 1 led by {after.leader}: " in text


def test_actions_to_json() -> None:
    assert actions_to_json([Play(1, c("QS")), ChooseMoon(2, MoonChoice.SUBTRACT)]) == [
        {"type": "play", "seat": 1, "card": "QS"},
        {"type": "moon", "seat": 2, "choice": "subtract"}]
