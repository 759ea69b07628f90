"""``rules-ref play --from POSITION``: the rest of a game, played on from a position.

The position (``spec/position.md``: its one-line text, its JSON, a file
holding one, or ``-`` for standard input) becomes a game state under the
ruleset given (:func:`~rules_ref.positions.convert.state_from_position`, which
refuses a position the rules cannot reach or a finished game), and the
built-in players play on from it
(:func:`~rules_ref.players.game.steps_from`). The cards they play are a
function of the position, the ruleset and the seed alone. The log opens with
the position summed up in a line or two (:func:`summary`), saying only what
every seat sees.
"""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..positions.convert import state_from_position
from ..positions.model import Position, pending_tricks
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from ..tricks import seat_at
from ..wording import counted
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
