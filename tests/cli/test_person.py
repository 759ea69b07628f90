"""``rules-ref play --seat N``: a person plays a seat from a script through a pipe.

The script is made by playing the same game in this process with a
scripted person (who takes no random numbers, like the real one), writing
down each answer in a different card notation, with an illegal card and a
malformed one tried first; the program must then end exactly as that game
did.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys

import pytest

from rules_ref.actions import Action, ChooseMoon, MoonChoice, Pass, Play
from rules_ref.cards import Card
from rules_ref.players.game import play_game
from rules_ref.players.policy import choose_bold
from rules_ref.ruleset import Ruleset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

from .helpers import ROOT, game_over, program

SEAT = 2
GAME = ["--players", "6", "--seed", "4", "--target", "40"]


def notation(card: Card, i: int) -> str:
    """A card in one of the accepted notations, chosen by ``i``."""
    plain = str(card)
    return [plain, plain.lower(), card.pretty, plain.replace("10", "T").lower()][i % 4]


def scripted() -> tuple[GameState, list[str], int]:
    """The game the script plays, the script's lines, and how many refusals it asks for."""
    lines: list[str] = []
    refusals = 0

    def person(state: GameState, rng: random.Random) -> Action:
        nonlocal refusals
        if state.to_act != SEAT:
            return choose_bold(state, rng)
        hand = state.hands[SEAT]
        if state.phase is Phase.PASSING:
            cards = hand[-3:]
            lines.append(", ".join(notation(c, i) for i, c in enumerate(cards)))
            return Pass(SEAT, cards)
        if state.phase is Phase.MOON_CHOICE:
            lines.append("sub")
            return ChooseMoon(SEAT, MoonChoice.SUBTRACT)
        legal = state.legal_plays()
        illegal = [c for c in hand if c not in legal]
        if illegal and refusals < 3:
            lines.append(str(illegal[0]))  # refused: the rule that forbids it is named
            refusals += 1
        if len(lines) == 2:
            lines.append("1X")  # not a card: refused too
        card = legal[len(lines) % len(legal)]
        lines.append(notation(card, len(lines)))
        return Play(SEAT, card)

    final = play_game(6, 4, Ruleset(target=40), policy=person)
    return final, lines, refusals


@pytest.mark.rule("FOLLOW.SUIT", "GAME.END")
def test_a_person_plays_a_whole_game_through_a_pipe() -> None:
    final, lines, refusals = scripted()
    assert refusals == 3 and len(final.deal_results) >= 2
    done = program(["play", *GAME, "--seat", str(SEAT)], stdin="\n".join(lines) + "\n")
    assert (done.returncode, done.stderr) == (0, "")
    out = done.stdout.splitlines()
    assert out[-4:] == game_over(final.totals, final.winners)
    refused = [x for x in out if "not allowed: " in x]
    assert len(refused) == refusals
    assert all(re.search(r"not allowed: (FOLLOW\.SUIT|LEAD\.HEARTS|LEAD\.OPENING_CARD|"
                         r"FOLLOW\.FIRST_TRICK): ", x) for x in refused)
    assert sum("'1X' is not a card" in x for x in out) == 1
    assert sum(x.endswith("your card: ") or "your card: " in x for x in out) == \
        sum(1 for line in lines if line != "1X" and "," not in line) + 1


def test_the_log_hides_what_the_seat_may_not_see() -> None:
    _, lines, _ = scripted()
    done = program(["play", *GAME, "--seat", str(SEAT)], stdin="\n".join(lines) + "\n")
    out = done.stdout.splitlines()
    passes = [x for x in out if re.match(r"  seat \d+ passes ", x)]
    mine = [x for x in passes if x.startswith(f"  seat {SEAT} ")]
    assert mine and all(re.search(r": \S+ \S+ \S+$", x) for x in mine)
    others = [x for x in passes if not x.startswith(f"  seat {SEAT} ")]
    assert others and all(x.endswith("cards to the left") or x.endswith("cards to the right")
                          for x in others)
    assert any(x.startswith("  you receive from seat ") for x in out)


@pytest.mark.untraced
def test_end_of_input_stops_the_game_in_one_line() -> None:
    _, lines, _ = scripted()
    done = program(["play", *GAME, "--seat", str(SEAT)], stdin=lines[0] + "\n")
    assert done.returncode == 1
    assert done.stderr == "rules-ref play: end of input: the game stops in deal 1, trick 1\n"
    quit_ = program(["play", *GAME, "--seat", str(SEAT)], stdin="quit\n")
    assert quit_.returncode == 1
    assert quit_.stderr == "rules-ref play: end of input: the game stops in deal 1 (quit)\n"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
def test_ctrl_c_stops_the_game_in_one_line() -> None:
    # a runner started in the background (a CI job, `cmd &`) may hand its children SIGINT
    # ignored, and Python then keeps it ignored: give the child a person's terminal default
    child = subprocess.Popen([sys.executable, "-m", "rules_ref", "play", *GAME, "--seat",
                              str(SEAT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=ROOT,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stdout is not None
        stdout = child.stdout
        seen = b""
        while b"pass 3 cards" not in seen:  # waiting for the person's first answer
            chunk = os.read(stdout.fileno(), 4096)
            assert chunk, "the program ended before asking"
            seen += chunk
        child.send_signal(signal.SIGINT)
        # standard input stays open until the child has ended: closing it first would race
        # the signal with an end of input (exit 1), as a busy machine showed
        child.wait(timeout=120)
        assert child.stderr is not None
        err = child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130
    assert err.decode() == "rules-ref play: interrupted\n"


@pytest.mark.parametrize(("args", "problem"), [
    (["--seat", "6"], "--seat 6: the seats of 6 players are 0 to 5"),
    (["--seat", "1", "--json"], "give --seat or --json, not both: a person's game prints its log"),
])
def test_a_bad_seat_is_refused(args: list[str], problem: str) -> None:
    done = program(["play", *GAME, *args])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"rules-ref play: error: {problem}\n"


@pytest.mark.rule("MOON.CHOICE")
def test_a_person_who_shot_the_moon_is_asked_to_choose() -> None:
    import io

    from rules_ref.cli.human import Person
    from rules_ref.cli.style import Style
    from rules_ref.players.game import game_steps

    state = next(after for _, _, after, _ in game_steps(6, 11, policy=choose_bold)
                 if after.phase is Phase.MOON_CHOICE)  # the README's moon at 6 players
    assert state.moon_shooter is not None
    out = io.StringIO()
    person = Person(state.moon_shooter, Style(symbols=False), io.StringIO("x\nadd\n"), out)
    assert person.ask(state) == ChooseMoon(state.moon_shooter, MoonChoice.ADD)
    said = out.getvalue().splitlines()
    assert said[:2] == ["  you shot the moon: 'subtract' takes 26 off your score, 'add' adds "
                        "26 to every",
                        "      other score (MOON.CHOICE)"]  # in 80 columns
    assert said[2] == "  subtract or add? x"
    assert said[3] == "  'x' is not one of: subtract, add"


def test_blank_and_over_long_answers_are_asked_again() -> None:
    _, lines, _ = scripted()
    script = "\n" * 3000 + "x" * 5000 + "\n" + lines[0] + "\n"
    done = program(["play", *GAME, "--seat", str(SEAT)], stdin=script)
    assert done.returncode == 1
    assert done.stderr == "rules-ref play: end of input: the game stops in deal 1, trick 1\n"
    assert done.stdout.count("an answer is at most 200 characters") == 1


@pytest.mark.rule("GAME.END", "SCORE.CARD_POINTS")
def test_help_hand_and_score_are_answered_at_any_question() -> None:
    """Besides cards, the words of ``WORDS`` are answered and the question is asked again."""
    import io

    from rules_ref.cli.human import WORDS, Person
    from rules_ref.cli.style import Style
    from rules_ref.players.game import game_steps
    from rules_ref.scoring import card_points
    from rules_ref.wording import counted

    state = next(after for _, _, after, _ in game_steps(6, 4, Ruleset(target=40),
                                                        policy=choose_bold)
                 if after.phase is Phase.PLAYING and after.to_act == SEAT
                 and after.deal_number > 1 and card_points(after.collected[SEAT],
                                                           after.ruleset) > 1)
    card = state.legal_plays()[0]
    out = io.StringIO()
    style = Style(symbols=False)
    person = Person(SEAT, style, io.StringIO(f"help\n?\nHand\nscore\n{card}\n"), out)
    assert person.ask(state) == Play(SEAT, card)
    said = out.getvalue().splitlines()
    question = "  your card: "
    shown = [f"  your hand: {style.cards(state.hands[SEAT])}",
             f"  you may play: {style.cards(state.legal_plays())}"]
    listing = ["  type a card, such as QS, 10h or q♠ (spec/notation.md), or one of:",
               *(f"    {w:<5}  {m}" for w, m in WORDS.items())]
    assert said[1:3] == shown
    assert said[3:4 + len(WORDS) + 1] == [question + "help", *listing]
    rest = said[4 + len(WORDS) + 1:]
    assert rest[:len(listing) + 1] == [question + "?", *listing]
    rest = rest[len(listing) + 1:]
    assert rest[:4] == [question + "Hand", said[0], *shown]
    totals = "".join(f"{t:>6}" for t in state.totals)
    points = card_points(state.collected[SEAT], state.ruleset)
    assert rest[4:9] == [question + "score",
                         f"  the totals before deal {state.deal_number} (the game ends when one "
                         "reaches 40, "
                         "GAME.END):",
                         "    seat:      0     1     2     3     4     5",
                         f"    total:{totals}",
                         f"  you (seat {SEAT}) have taken {counted(points, 'point')} in this "
                         "deal so far (SCORE.CARD_POINTS)"]
    assert rest[9:] == [question + str(card)]
