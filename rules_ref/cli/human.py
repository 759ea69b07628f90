"""A person at the terminal playing one seat of ``rules-ref play --seat N``.

At each decision the person sees their hand and what they may play, and
types cards in any notation of ``spec/notation.md`` (``QS``, ``10h``,
``q♠``; a pass is several cards). An illegal choice is refused with the
rule that forbids it (the engine's :class:`~rules_ref.errors.IllegalAction`
names it) and asked again. ``quit`` or the end of input stops the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from ..actions import Action, ChooseMoon, MoonChoice, Pass, Play
from ..cards import parse_cards
from ..errors import IllegalAction, InputError
from ..scoring import moon_options
from ..state import GameState
from ..state_parts import Phase
from ..tricks import seat_at
from .style import Style

Policy = Callable[[GameState, random.Random], Action]

#: Answers at most this long are read (a pass of 9 cards fits many times over).
MAX_ANSWER = 200


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
        s = self.style
        hand = state.hands[self.seat]
        if state.phase is Phase.PASSING:
            count = state.ruleset.pass_count
            self.say(f"  your hand: {s.cards(hand)}")
            question = f"  pass {count} card{'s' if count != 1 else ''} (e.g. QS 10h): "
        elif state.phase is Phase.MOON_CHOICE:
            options = moon_options(state.ruleset)
            self.say("  you shot the moon: 'subtract' takes 26 off your score, 'add' adds "
                     "26 to every other score (MOON.CHOICE)")
            question = f"  {' or '.join(str(o) for o in options)}? "
        else:
            if state.trick:
                played = "  ".join(
                    f"seat {seat_at(state.leader, i, state.players)}: {s.card(c)}"
                    for i, c in enumerate(state.trick))
                self.say(f"  trick {state.trick_number} so far: {played}")
            else:
                self.say(f"  trick {state.trick_number}: you lead")
            self.say(f"  your hand: {s.cards(hand)}")
            self.say(f"  you may play: {s.cards(state.legal_plays())}")
            question = "  your card: "
        while True:
            answer = self.read(question, state)
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

    def action(self, state: GameState, answer: str) -> Action:
        if state.phase is Phase.MOON_CHOICE:
            word = answer.strip().lower()
            for option in moon_options(state.ruleset):
                if option.value.startswith(word) and word:
                    return ChooseMoon(self.seat, option)
            raise InputError(f"{answer.strip()!r:.30} is not one of: "
                             + ", ".join(m.value for m in MoonChoice))
        cards = parse_cards(answer)
        if state.phase is Phase.PASSING:
            return Pass(self.seat, tuple(sorted(cards)))
        if len(cards) != 1:
            raise InputError("type one card, such as QS or 10h")
        return Play(self.seat, cards[0])

    # --- the terminal -------------------------------------------------------------------

    def say(self, line: str) -> None:
        print(line, file=self.stdout)

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
            if line.strip().lower() in ("quit", "exit", "q!"):
                raise EndOfInput(where + " (quit)")
            if line.strip():
                return line


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False
