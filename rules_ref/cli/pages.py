"""What the site's interactive pages call, in the browser, under Pyodide.

The trick resolver, the legal-plays page and the game viewer run this
package itself, shipped with the site: they give the answer of the command
line, not one computed again in JavaScript. :func:`command` runs a
``rules-ref`` command (``trick``, ``plays``, ``show``, ``validate``,
``position``) on the page's input and returns what it printed and its exit
status; the page draws the answer of ``--json`` or shows the one error line.
:func:`game` runs ``rules-ref show`` (and ``validate``, for a game record) on
a file and replays its actions through the engine, each step with what to
draw: the trick on the table resolved by the engine, the hands, the pending
pile and the scores.
Both take and return JSON text, which is all the page's glue handles.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

from ..actions import Action, Play
from ..cards import Card
from ..errors import IllegalAction, InputError
from ..findings.replay import read_replay
from ..jsonio.files import read_json_file
from ..jsonio.replay_file import REPLAY_FORMAT
from ..jsonio.serialize import RECORD_FORMAT, action_from_json
from ..protocol.start import requested_state
from ..records.record import record_actions
from ..records.shape import check_shape
from ..ruleset import Ruleset
from ..state import GameState
from ..tricks import resolve_trick, seat_at
from . import main
from .log import INDENT, GameLog
from .style import Style

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
    """A file as ``rules-ref show`` prints it, its steps drawn, and ``validate``'s verdict.

    JSON: ``{"kind", "log", "start", "steps": [...], "violations"}``: ``log`` is what
    ``rules-ref show NAME`` prints, each step ``{"number", "lines", "table"}`` one action
    of the file replayed by the engine (up to one the rules refuse), with the lines of
    the play log for it and what to draw; or ``{"error": LINE}``, the line ``rules-ref
    show`` prints on standard error for the same file.
    """
    path = saved(text, name)
    with contextlib.chdir(path.parent):  # the file is named as the page names it
        return json.dumps(_game(path.name))


def _game(name: str) -> dict[str, Any]:
    shown = json.loads(command(json.dumps(["show", name])))
    if shown["code"] not in (0, 1):
        return {"error": shown["err"].rstrip("\n")}
    kind, state, actions = _replayable(name)
    start = None if state is None else _state_table(state)
    steps: list[dict[str, Any]] = []
    log = GameLog(Style())
    for i, action in enumerate(actions[:MAX_STEPS]):
        assert state is not None
        try:
            after, events = state.apply(action)
        except IllegalAction as exc:
            steps.append({"number": i + 1, "lines": [f"{INDENT}action {i + 1} of the file "
                                                      f"({action}) breaks a rule: {exc}"],
                          "table": _table(state, action, None)})
            break
        steps.append({"number": i + 1, "lines": log.step(state, action, after, events),
                      "table": _table(state, action, after)})
        state = after
    violations = None
    if kind == "record":
        done = json.loads(command(json.dumps(["validate", name])))
        violations = {"code": done["code"], "lines": done["out"].splitlines()}
    return {"kind": kind, "log": shown["out"].splitlines(), "start": start, "steps": steps,
            "violations": violations}


def _replayable(name: str) -> tuple[str, GameState | None, list[Action]]:
    """The file ``show`` has read: its kind, the state it starts from and its actions."""
    try:
        data = read_json_file(name)
    except InputError:  # the one-line text of a position
        return "position", None, []
    if not isinstance(data, dict) or data.get("format") not in (RECORD_FORMAT, REPLAY_FORMAT):
        return "position", None, []
    if data["format"] == RECORD_FORMAT:
        rec = check_shape(data)
        state = GameState.start(rec["players"], Ruleset.from_dict(rec["ruleset"]),
                                rec["first_dealer"], tuple(rec["initial_totals"]),
                                rec["initial_deal"])
        return "record", state, [action_from_json(a, f"action {i + 1}")
                                 for i, a in enumerate(record_actions(rec))]
    start, actions = read_replay(data, name)
    state = requested_state(start, f"{name}.start")
    return "replay", state, list(actions)


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


def _table(before: GameState, action: Action, after: GameState | None) -> dict[str, Any]:
    """The table after ``action``: a trick it completed is drawn whole, resolved by the engine.

    ``after`` is ``None`` for an action the rules refuse: the table before it.
    """
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
