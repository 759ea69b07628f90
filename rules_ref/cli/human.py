"""A person at the terminal playing one seat of ``rules-ref play --seat N``.

At each decision the person sees their hand and what they may play, and
types cards in any notation of ``spec/notation.md`` (``QS``, ``10h``,
``q♠``; a pass is several cards). An illegal choice is refused with the
rule that forbids it (the engine's :class:`~rules_ref.errors.IllegalAction`
names it) and asked again. The words of :data:`WORDS` are answered at any
question (``help`` or ``?`` lists them); ``quit`` or the end of input stops
the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from ..actions import Action, ChooseMoon, MoonChoice, Pass, Play
from ..cards import parse_cards
from ..errors import IllegalAction, InputError
from ..scoring import card_points, moon_options
from ..state import GameState
from ..state_parts import Phase
from ..tricks import seat_at
from ..wording import counted
from .log import fit, seat_rows
from .style import Style

Policy = Callable[[GameState, random.Random], Action]

#: Answers at most this long are read (a pass of 9 cards fits many times over).
MAX_ANSWER = 200

#: What may be typed at a question besides cards, and what each word does.
WORDS = {
    "help": "what you may type (also ?)",
    "hand": "your hand again, and what you may play",
    "score": "every seat's total so far, and the target that ends the game",
    "quit": "stop the game here (also exit, or the end of input)",
}
#: Other spellings of the words.
SAME_WORD = {"?": "help", "exit": "quit", "q!": "quit"}


class EndOfInput(Exception):
    """The person's input ended (or they typed ``quit``); ``str`` says where the game was."""


class Person:
    """Asks the person at ``seat`` for every action of that seat."""

    def __init__(self, seat: int, style: Style, stdin: TextIO, stdout: TextIO) -> None:
        self.seat = seat
        self.style = style
        self.stdin = stdin
        self.stdout = stdout

    def policy(self, others: Policy) -> Policy:
        """A policy: the person for their seat, ``others`` for every other seat."""
        def choose(state: GameState, rng: random.Random) -> Action:
            if state.to_act == self.seat:
                return self.ask(state)
            return others(state, rng)

        return choose

    # --- one decision -------------------------------------------------------------------

    def ask(self, state: GameState) -> Action:
        if state.phase is Phase.PASSING:
            count = state.ruleset.pass_count
            question = f"  pass {count} card{'s' if count != 1 else ''} (e.g. QS 10h): "
        elif state.phase is Phase.MOON_CHOICE:
            options = moon_options(state.ruleset)
            question = f"  {' or '.join(str(o) for o in options)}? "
        else:
            question = "  your card: "
        self.show_hand(state)
        while True:
            answer = self.read(question, state)
            word = answer.strip().lower()
            word = SAME_WORD.get(word, word)
            if word in WORDS:
                self.answer(word, state)
                continue
            try:
                action = self.action(state, answer)
                state.apply(action)
            except IllegalAction as exc:
                self.say(f"  not allowed: {exc}")
                continue
            except InputError as exc:
                self.say(f"  {exc}")
                continue
            return action

    def show_hand(self, state: GameState) -> None:
        """What the seat holds and may do at this question."""
        s = self.style
        hand = state.hands[self.seat]
        if state.phase is Phase.MOON_CHOICE:
            self.say("  you shot the moon: 'subtract' takes 26 off your score, 'add' adds "
                     "26 to every other score (MOON.CHOICE)")
            return
        if state.phase is Phase.PLAYING:
            if state.trick:
                played = "  ".join(
                    f"seat {seat_at(state.leader, i, state.players)}: {s.card(c)}"
                    for i, c in enumerate(state.trick))
                self.say(f"  trick {state.trick_number} so far: {played}")
            else:
                self.say(f"  trick {state.trick_number}: you lead")
        self.say(f"  your hand: {s.cards(hand)}")
        if state.phase is Phase.PLAYING:
            self.say(f"  you may play: {s.cards(state.legal_plays())}")

    def answer(self, word: str, state: GameState) -> None:
        """Answer one of the :data:`WORDS` (``quit`` is taken by :meth:`read`)."""
        if word == "hand":
            self.show_hand(state)
        elif word == "score":
            mine = card_points(state.collected[self.seat], state.ruleset)
            self.say(f"  the totals before deal {state.deal_number} (the game ends when one "
                     f"reaches {state.ruleset.target}, GAME.END):")
            for line in seat_rows([("seat", [str(i) for i in range(state.players)]),
                                   ("total", [str(t) for t in state.totals])]):
                self.say(line)
            self.say(f"  you (seat {self.seat}) have taken {counted(mine, 'point')} in this "
                     "deal so far (SCORE.CARD_POINTS)")
        else:
            self.say("  type " + ("a card, such as QS, 10h or q♠" if state.phase is Phase.PLAYING
                                  else "the cards, such as QS 10h 2c"
                                  if state.phase is Phase.PASSING else "your choice")
                     + " (spec/notation.md), or one of:")
            width = max(map(len, WORDS))
            for name, meaning in WORDS.items():
                self.say(f"    {name:<{width}}  {meaning}")

    def action(self, state: GameState, answer: str) -> Action:
        return typed_action(state, self.seat, answer)

    # --- the terminal -------------------------------------------------------------------

    def say(self, line: str) -> None:
        for part in fit(line):
            print(part, file=self.stdout)

    def read(self, question: str, state: GameState) -> str:
        """The next answer that is not blank; :class:`EndOfInput` at the end or on ``quit``."""
        where = (f"in deal {state.deal_number}, trick {state.trick_number}"
                 if state.phase is Phase.PLAYING else f"in deal {state.deal_number}")
        while True:
            print(question, end="", file=self.stdout, flush=True)
            line = self.stdin.readline(MAX_ANSWER + 1)
            if not line:
                print(file=self.stdout)
                raise EndOfInput(where)
            if len(line) > MAX_ANSWER and not line.endswith("\n"):
                while line and not line.endswith("\n"):  # drop the rest of an over-long line
                    line = self.stdin.readline(MAX_ANSWER + 1)
                self.say(f"  an answer is at most {MAX_ANSWER} characters")
                continue
            if not _is_tty(self.stdin):
                print(line.strip(), file=self.stdout)  # what was typed, for a log read later
            if SAME_WORD.get(line.strip().lower(), line.strip().lower()) == "quit":
                raise EndOfInput(where + " (quit)")
            if line.strip():
                return line


def typed_action(state: GameState, seat: int, answer: str) -> Action:
    """The action ``seat`` means by ``answer``, typed as a person answers ``play --seat``.

    Cards in any notation (a pass is several), or a word of the moon choice
    (``subtract``, ``add``, or the start of one). Whether the rules allow it is
    for the engine to say.
    """
    if state.phase is Phase.MOON_CHOICE:
        word = answer.strip().lower()
        for option in moon_options(state.ruleset):
            if option.value.startswith(word) and word:
                return ChooseMoon(seat, option)
        raise InputError(f"{answer.strip()!r:.30} is not one of: "
                         + ", ".join(m.value for m in MoonChoice))
    cards = parse_cards(answer)
    if state.phase is Phase.PASSING:
        return Pass(seat, tuple(sorted(cards)))
    if len(cards) != 1:
        raise InputError("type one card, such as QS or 10h")
    return Play(seat, cards[0])


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False
