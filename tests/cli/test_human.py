"""``rules-ref play --seat N`` run in this process: every answer a person can type."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest

import rules_ref.cli as cli
from rules_ref.actions import ChooseMoon, MoonChoice, Pass, Play
from rules_ref.cli.human import MAX_ANSWER, EndOfInput, Person, _is_tty
from rules_ref.cli.position import game_states
from rules_ref.cli.style import Style
from rules_ref.players.game import game_steps
from rules_ref.players.policy import choose_bold
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

from ..rules.helpers import MOON_END, eight_player_deal
from .test_person import GAME, SEAT, scripted


def _style() -> Style:
    return Style.for_stream(io.StringIO(), True)


def _first(test: Callable[[GameState], bool]) -> GameState:
    """The first state of the built-in players' 6-player game with seed 4 that passes ``test``."""
    return next(s for s in game_states(game_steps(6, 4, policy=choose_bold)) if test(s))


def _person(seat: int, answers: str) -> tuple[Person, io.StringIO]:
    out = io.StringIO()
    return Person(seat, _style(), io.StringIO(answers), out), out


@pytest.mark.rule("FOLLOW.SUIT", "GAME.END")
def test_a_whole_game_typed_in_this_process(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    final, lines, _ = scripted()
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert cli.main(["play", *GAME, "--seat", str(SEAT), "--ascii"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "not allowed: FOLLOW.SUIT" in out
    assert "'1X' is not a card" in out
    assert "    total:" + "".join(f"{t:>6}" for t in final.totals) in out


def test_quit_stops_the_game_with_where_it_was(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n   \nquit\n"))
    assert cli.main(["play", *GAME, "--seat", str(SEAT), "--ascii"]) == 1
    out, err = capsys.readouterr()
    assert err == "rules-ref play: end of input: the game stops in deal 1 (quit)\n"
    assert "  pass 3 cards (e.g. QS 10h): quit\n" in out


def test_the_end_of_input_stops_the_game(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["play", *GAME, "--seat", str(SEAT), "--ascii"]) == 1
    assert capsys.readouterr().err == "rules-ref play: end of input: the game stops in deal 1\n"


@pytest.mark.parametrize(("argv", "err"), [
    (["--seat", "6"], "rules-ref play: error: --seat 6: the seats of 6 players are 0 to 5\n"),
    (["--seat", "1", "--json"],
     "rules-ref play: error: give --seat or --json, not both: a person's game prints its log\n"),
    (["--seat", "1", "--at", "1.1"], "rules-ref play: error: give --seat or --at, not both\n"),
    (["--first-dealer", "6"],
     "rules-ref play: error: --first-dealer 6: the seats of 6 players are 0 to 5 (DEAL.DEALER)\n"),
])
def test_play_options_that_do_not_fit(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      err: str) -> None:
    assert cli.main(["play", "--players", "6", *argv]) == 2
    assert capsys.readouterr() == ("", err)


def test_play_json_and_at_in_this_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", *GAME, "--json"]) == 0
    record = capsys.readouterr().out
    assert record.startswith("{") and '"seed": 4' in record
    assert cli.main(["play", *GAME, "--at", "1.2"]) == 0
    assert capsys.readouterr().out.startswith("6 1 0 playing ")


@pytest.mark.rule("MOON.CHOICE")
def test_a_moon_choice_is_asked_by_its_first_letters() -> None:
    state, _ = eight_player_deal(MOON_END)
    assert state.phase is Phase.MOON_CHOICE
    person, out = _person(0, "sideways\n\nad\n")
    assert person.ask(state) == ChooseMoon(0, MoonChoice.ADD)
    text = out.getvalue()
    assert "you shot the moon" in text
    assert "'sideways' is not one of: " + ", ".join(m.value for m in MoonChoice) in text


@pytest.mark.rule("PASS.CARDS")
def test_a_pass_is_typed_as_several_cards() -> None:
    state = _first(lambda s: s.phase is Phase.PASSING)
    hand = state.hands[0]
    typed = " ".join(str(c).lower() for c in hand[:3])
    person, out = _person(0, f"{hand[0]}\n{typed}\n")
    assert person.ask(state) == Pass(0, tuple(sorted(hand[:3])))
    assert "not allowed: PASS.CARDS: a pass is 3 cards, not 1" in out.getvalue()


def test_a_play_is_one_card_and_an_overlong_answer_is_dropped() -> None:
    state = _first(lambda s: s.phase is Phase.PLAYING and not s.trick)
    seat = state.to_act
    assert seat is not None
    legal = state.legal_plays()
    long = "x" * (3 * MAX_ANSWER) + "\n"
    person, out = _person(seat, f"{long}{legal[0]} {legal[0]}\n{legal[0]}\n")
    assert person.ask(state) == Play(seat, legal[0])
    text = out.getvalue()
    assert f"  an answer is at most {MAX_ANSWER} characters\n" in text
    assert "  type one card, such as QS or 10h\n" in text
    assert "you lead" in text
    after, _ = state.apply(Play(seat, legal[0]))
    nxt = after.to_act
    assert nxt is not None
    follower, out2 = _person(nxt, "")
    with pytest.raises(EndOfInput, match=r"^in deal 1, trick 1$"):
        follower.ask(after)
    assert "trick 1 so far: seat" in out2.getvalue()


def test_others_play_for_the_seats_that_are_not_the_persons() -> None:
    state = _first(lambda s: s.phase is Phase.PASSING)
    person, _ = _person(5, "")
    chosen = person.policy(lambda s, r: Pass(0, s.hands[0][:3]))(state, random.Random(1))
    assert chosen == Pass(0, state.hands[0][:3])


class _Closed(io.StringIO):
    def isatty(self) -> bool:
        raise ValueError("I/O operation on closed file")


def test_a_stream_that_cannot_say_if_it_is_a_terminal_is_not_one() -> None:
    assert _is_tty(_Closed()) is False


@pytest.mark.rule("GAME.END")
def test_the_built_in_players_game_log_in_this_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", *GAME, "--ascii"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("Cancellation Hearts: 6 players, seed 4, ")
    assert "\nDeal 1: seat 0 deals" in out
