"""What the site's interactive pages call, in the browser, under Pyodide.

The trick resolver, the legal-plays page and the game viewer run this
package itself, shipped with the site: they give the answer of the command
line, not one computed again in JavaScript. :func:`command` runs a
``rules-ref`` command (``trick``, ``plays``, ``show``, ``validate``,
``position``) on the page's input and returns what it printed and its exit
status; the page draws the answer of ``--json`` or shows the one error line.
:func:`game` reads a game record, a replay file or a position as ``rules-ref
show`` reads it and returns each step with what to draw: the trick on the
table resolved by the engine, the hands, the pending pile and the scores.
Both take and return JSON text, which is all the page's glue handles.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

from .actions import Play
from .cards import Card
from .cli import main, one_line
from .cli.log import GameLog
from .cli.show import Step, game_steps, read_game
from .cli.style import Style
from .errors import RulesRefError
from .state import GameState
from .tricks import resolve_trick, seat_at

#: The commands a page may run (``play`` for its example positions and games).
COMMANDS = ("trick", "plays", "show", "validate", "position", "play")
#: At most this many steps of a file are drawn (a long game has about 2000 actions).
MAX_STEPS = 20_000
#: The largest file a page hands over (what ``rules-ref`` reads of a JSON file).
MAX_TEXT = 64 * 1024 * 1024


def command(argv_json: str) -> str:
    """Run ``rules-ref ARGV`` (a JSON list of words); ``{"code", "out", "err"}`` as JSON."""
    argv = json.loads(argv_json)
    if (not isinstance(argv, list) or not argv or argv[0] not in COMMANDS
            or not all(isinstance(a, str) for a in argv)):
        raise ValueError(f"a page runs one of {COMMANDS}, with words: {argv_json[:80]}")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse on bad arguments
            code = exc.code if isinstance(exc.code, int) else 2
    return json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()})


def saved(text: str, name: str) -> Path:
    """``text`` written to a file called ``name`` (its last part) in a folder of its own."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"larger than {MAX_TEXT} bytes")
    folder = Path(tempfile.mkdtemp(prefix="rules-ref-page-"))
    path = folder / (Path(name).name or "pasted.json")
    path.write_text(text, encoding="utf-8")
    return path


def game(text: str, name: str) -> str:
    """A file as ``rules-ref show`` reads it, step by step, and ``validate``'s verdict.

    JSON: ``{"kind", "lines", "steps": [...], "end", "violations"}``, each step
    ``{"number", "lines", "table"}``; or ``{"error": LINE}``, the line
    ``rules-ref show`` prints on standard error for the same file.
    """
    path = saved(text, name)
    with contextlib.chdir(path.parent):  # the file is named as the page names it
        return json.dumps(_game(path.name))


def _game(name: str) -> dict[str, Any]:
    log = GameLog(Style())
    try:
        g = read_game(name, log)
        steps: list[dict[str, Any]] = []
        if g.state is not None:
            for step in game_steps(g, log):
                steps.append({"number": step.number, "lines": step.lines, "table": _table(step)})
                if len(steps) >= MAX_STEPS:
                    break
    except RulesRefError as exc:
        return {"error": f"rules-ref show: error: {one_line(str(exc))}"}
    end = None
    if g.end is not None and g.end.phase.value != "game-over" and (
            not steps or steps[-1]["table"]["legal"]):
        end = f"The file ends here: deal {g.end.deal_number}, {g.end.phase.value} phase."
    violations = None
    if g.kind == "record":
        done = json.loads(command(json.dumps(["validate", name])))
        violations = {"code": done["code"], "lines": done["out"].splitlines()}
    start = None if g.state is None else _state_table(g.state)
    return {"kind": g.kind, "lines": g.lines, "start": start, "steps": steps, "end": end,
            "violations": violations}


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(c) for c in cards]


def _state_table(state: GameState, trick: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a worked example draws of a state: the trick, hands, pending pile and scores."""
    n = state.players
    if trick is None and state.trick:
        leader = state.leader
        trick = {"cards": _cards(state.trick), "seats": [seat_at(leader, i, n)
                                                         for i in range(len(state.trick))],
                 "cancelled": [], "winner": None, "complete": False}
    return {"deal": state.deal_number, "trick_number": state.trick_number,
            "phase": state.phase.value, "trick": trick,
            "hands": [_cards(h) for h in state.hands], "pending": _cards(state.pending),
            "points": list(state.current_points()), "totals": list(state.totals),
            "hearts_broken": state.hearts_broken, "legal": True}


def _table(step: Step) -> dict[str, Any]:
    """The table after ``step``: a trick it completed is drawn whole, resolved by the engine."""
    before, action, after = step.before, step.action, step.after
    if after is None:
        table = _state_table(before)
        table["legal"] = False
        return table
    trick = None
    if isinstance(action, Play) and len(before.trick) + 1 == before.players:
        cards = (*before.trick, action.card)
        n = before.players
        t = resolve_trick(cards, before.leader, n)
        seats = [seat_at(before.leader, i, n) for i in range(len(cards))]
        trick = {"cards": _cards(cards), "seats": seats, "cancelled": _cards(t.cancelled),
                 "winner": None if t.winner is None else seats.index(t.winner),
                 "complete": True}
    return _state_table(after, trick)
