"""``rules-ref play --from POSITION``: the rest of a game, played on from a position.

The position (``spec/position.md``: its one-line text, its JSON, a file
holding one, or ``-`` for standard input) becomes a game state under the
ruleset given (:func:`~rules_ref.positions.convert.state_from_position`, which
refuses a position the rules cannot reach or a finished game), and the
built-in players play on from it
(:func:`~rules_ref.players.game.steps_from`). The cards they play are a
function of the position, the ruleset and the seed alone. The log opens with
the position summed up in a line or two (:func:`summary`), saying only what
every seat sees. :func:`rest_of_deal` plays on to the end of the deal only,
a seat's actions given as a person types them: what the site's "Continue from
here" draws (:func:`rules_ref.cli.pages.continued`).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action
from ..errors import IllegalAction, InputError
from ..events import Event
from ..players.game import steps_from
from ..players.policy import choose_bold
from ..positions.convert import state_from_position
from ..positions.model import Position, pending_tricks
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from ..tricks import seat_at
from ..wording import counted
from .human import typed_action
from .position import read_position
from .style import Style

#: The options of ``play`` that set up a game from its first deal, and why ``--from`` excludes
#: each: (the argument's name, its option, the reason).
NOT_WITH_FROM = (
    ("players", "--players", "the position says how many play"),
    ("first_dealer", "--first-dealer", "the position names the dealer"),
    ("at", "--at", "--at finds a position in a game from its start"),
)


def check_options(args: argparse.Namespace) -> None:
    """One error for the first option given that cannot go with ``--from``."""
    for name, option, why in NOT_WITH_FROM:
        if getattr(args, name) is not None:
            raise InputError(f"give --from or {option}, not both: {why}")


def read_start(text: str) -> Position:
    """The position of ``--from``: a text, JSON, a file name, or ``-`` for standard input."""
    if not text.strip():
        raise InputError("--from: empty: expected a position (spec/position.md), as its one "
                         "line of text, as JSON, a file holding one, or - for standard input")
    try:
        return read_position([text])
    except InputError as exc:
        raise InputError(f"--from: {exc}") from None


def start_state(pos: Position, ruleset: Ruleset) -> GameState:
    """The game state at ``pos`` under ``ruleset``; a position the rules refuse is an error."""
    try:
        return state_from_position(pos, ruleset)
    except InputError as exc:
        raise InputError(f"--from: {exc}") from None


def summary(pos: Position, style: Style) -> list[str]:
    """The position in a line or two: where the game stands, what is on the table, the totals.

    Hands and passed cards are not named: they are not every seat's to see.
    """
    n = pos.players
    where = f"deal {pos.deal_number}, seat {pos.dealer} deals"
    if pos.phase is Phase.DEALING:
        now = f"From a position before {where}"
    elif pos.phase is Phase.PASSING:
        assert pos.passes is not None
        waiting = [seat for seat, p in enumerate(pos.passes) if p is None]
        now = (f"From a position in {where}, passing: "
               f"{_seats(waiting)} still to pass")
    elif pos.phase is Phase.PLAYING:
        leader = pos.leader or 0
        to_play = seat_at(leader, len(pos.trick), n)
        table = ", ".join(f"{style.card(c)} (seat {seat_at(leader, i, n)})"
                          for i, c in enumerate(pos.trick))
        now = (f"From a position in {where}, trick {pos.trick_number}: "
               + (f"{table}, seat {to_play} to play" if pos.trick
                  else f"seat {to_play} to lead")
               + f"; hearts {'broken' if pos.hearts_broken else 'not broken'}")
        if pos.pending:
            now += (f"; {counted(len(pending_tricks(pos)), 'set-aside trick')} pending "
                    "(VOID.TRICK)")
    else:
        now = (f"From a position at the end of {where}: seat {pos.moon_shooter} shot the "
               "moon and chooses (MOON.CHOICE)")
    totals = "  ".join(f"{seat}: {t}" for seat, t in enumerate(pos.totals))
    return [now + ".", f"Totals so far: {totals}"]


def _seats(seats: list[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


Step = tuple[GameState, Action, GameState, tuple[Event, ...]]


@dataclass(frozen=True, slots=True)
class DealPlayed:
    """The steps from a position to the end of its deal, or to where ``seat`` must answer.

    ``waiting`` is the state at which the seat's moves ran out (``None`` when the
    deal was played to its end).
    """

    steps: tuple[Step, ...]
    waiting: GameState | None


class _Waiting(Exception):
    def __init__(self, state: GameState) -> None:
        super().__init__("the seat's moves ran out")
        self.state = state


def rest_of_deal(start: GameState, seed: int, seat: int | None = None,
                 moves: Sequence[str] = ()) -> DealPlayed:
    """The rest of ``start``'s deal as ``play --from`` plays it, ``seat`` answering ``moves``.

    The built-in players choose as in ``rules-ref play --from POSITION --seed SEED``
    (:func:`~rules_ref.players.game.steps_from`); with ``seat``, that seat's
    actions are ``moves`` in turn, each typed as a person types it at
    ``--seat`` (:func:`~rules_ref.cli.human.typed_action`), which takes nothing
    from the players' generator: the same moves give the same game as the
    command line. The deal ends where its scores are added (the next deal or
    the end of the game). A move the rules refuse is an error naming the rule.
    """
    queue = list(moves)
    used = 0

    def choose(state: GameState, rng: random.Random) -> Action:
        nonlocal used
        if seat is None or state.to_act != seat:
            return choose_bold(state, rng)
        if used == len(queue):
            raise _Waiting(state)
        text = queue[used]
        used += 1
        try:
            action = typed_action(state, seat, text)
            state.apply(action)
        except (IllegalAction, InputError) as exc:
            raise InputError(f"move {used} ({text.strip()[:30]}) of seat {seat}: not allowed: "
                             f"{exc}") from None
        return action

    steps: list[Step] = []
    try:
        for step in steps_from(start, seed, choose):
            steps.append(step)
            before, _, after, _ = step
            if before.phase is not Phase.DEALING and after.phase in (Phase.DEALING,
                                                                     Phase.GAME_OVER):
                break
    except _Waiting as wait:
        return DealPlayed(tuple(steps), wait.state)
    if used < len(queue):
        raise InputError(f"{counted(len(queue) - used, 'move')} of seat {seat} left over: "
                         "the deal ended before them")
    return DealPlayed(tuple(steps), None)
