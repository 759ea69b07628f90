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
:func:`continued` plays the rest of a deal from a position, as ``rules-ref
play --from`` does (a seat answered with the reader's moves), each step with
what to draw; :func:`position_at` gives the position of a step of a file, to
continue from it.
All take and return JSON text, which is all the page's glue handles.
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
from ..errors import IllegalAction, InputError, RulesRefError
from ..findings.replay import read_replay
from ..jsonio.files import read_json_file
from ..jsonio.replay_file import REPLAY_FORMAT
from ..jsonio.serialize import RECORD_FORMAT, action_from_json
from ..positions import format_position, position_of
from ..protocol.start import requested_state
from ..records.record import record_actions
from ..records.shape import check_shape
from ..ruleset import Ruleset
from ..scoring import moon_options
from ..state import GameState
from ..state_parts import Phase
from ..tricks import resolve_trick, seat_at
from . import build_parser, main, one_line
from .common import ruleset_from_args
from .log import INDENT, GameLog, fitted
from .play import check_seat
from .play_from import check_options, read_start, rest_of_deal, start_state, summary
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


def continued(argv_json: str, moves_json: str) -> str:
    """The rest of the deal of ``rules-ref play ARGV`` (``--from`` given), the seat's moves given.

    ``ARGV`` is a JSON list of the words of ``play`` (``--from``, ``--seed``, ``--seat``,
    ``--preset`` or ``--ruleset``); ``moves`` a JSON list of what the reader at
    ``--seat`` typed, in turn. JSON: ``{"head", "steps", "waiting", "position"}``:
    ``head`` the lines the command prints first, each step ``{"number", "lines",
    "table", "at"}`` as :func:`game` gives them, ``waiting`` (when the
    moves ran out) what the seat to answer holds and may do; or ``{"error": LINE}``.
    """
    argv = json.loads(argv_json)
    moves = json.loads(moves_json)
    if (not isinstance(argv, list) or argv[:1] != ["play"] or "--from" not in argv
            or not all(isinstance(a, str) for a in argv)
            or not isinstance(moves, list) or not all(isinstance(m, str) for m in moves)):
        raise ValueError(f"continued runs play --from, with words: {argv_json[:80]}")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            args = build_parser().parse_args(argv)
        except SystemExit:
            return json.dumps({"error": err.getvalue().strip().splitlines()[-1]})
    try:
        return json.dumps(_continued(args, moves))
    except RulesRefError as exc:
        return json.dumps({"error": f"rules-ref play: error: {one_line(str(exc))}"})


def _continued(args: Any, moves: list[str]) -> dict[str, Any]:
    ruleset = ruleset_from_args(args)
    check_options(args)
    pos = read_start(args.start)
    check_seat(args, pos.players)
    start = start_state(pos, ruleset)
    style = Style()
    log = GameLog(style, secret_seat=args.seat)
    head = log.header(pos.players, ruleset, args.seed, args.preset) + fitted(summary(pos, style))
    played = rest_of_deal(start, args.seed, args.seat, moves)
    steps = [{"number": i + 1, "lines": log.step(before, action, after, events),
              "table": _table(before, action, after), "at": _at(before, action)}
             for i, (before, action, after, events) in enumerate(played.steps)]
    return {"head": head, "start": _state_table(start), "steps": steps,
            "waiting": None if played.waiting is None else _waiting(played.waiting)}


def _waiting(state: GameState) -> dict[str, Any]:
    """What the seat to answer holds and may do, for the page to ask it."""
    seat = state.to_act
    assert seat is not None
    out: dict[str, Any] = {"seat": seat, "phase": state.phase.value,
                           "hand": _cards(state.hands[seat]), "table": _state_table(state)}
    if state.phase is Phase.PLAYING:
        out["legal"] = _cards(state.legal_plays())
    elif state.phase is Phase.PASSING:
        out["count"] = state.ruleset.pass_count
    elif state.phase is Phase.MOON_CHOICE:
        out["options"] = [o.value for o in moon_options(state.ruleset)]
    return out


def position_at(text: str, name: str, step: int) -> str:
    """The position after ``step`` actions of a file :func:`game` draws, to continue from.

    JSON: ``{"position": TEXT, "ruleset": SWITCHES}`` (the switch values of the
    file's ruleset, as ``--ruleset`` reads them), or ``{"error": LINE}``.
    """
    path = saved(text, name)
    with contextlib.chdir(path.parent):
        try:
            _, state, actions = _replayable(path.name)
            if state is None:
                raise InputError("a position is continued from as it is")
            for action in actions[:step]:
                state, _ = state.apply(action)
            return json.dumps({"position": format_position(position_of(state)),
                               "ruleset": state.ruleset.to_dict()})
        except (RulesRefError, IllegalAction) as exc:
            return json.dumps({"error": one_line(str(exc))})


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
                          "table": _table(state, action, None), "at": _at(state, action)})
            break
        steps.append({"number": i + 1, "lines": log.step(state, action, after, events),
                      "table": _table(state, action, after), "at": _at(state, action)})
        state = after
    violations = None
    if kind == "record":
        done = json.loads(command(json.dumps(["validate", name])))
        violations = {"code": done["code"], "lines": done["out"].splitlines(), "steps": []}
        if done["code"] == 1:
            found = json.loads(command(json.dumps(["validate", name, "--json"])))
            violations["steps"] = [_step_of(v, steps) for v in json.loads(found["out"])
                                   ["violations"]]
    return {"kind": kind, "log": shown["out"].splitlines(), "start": start, "steps": steps,
            "violations": violations}


def _at(before: GameState, action: Action) -> list[int | None]:
    """Where an action is, as ``validate`` names places: deal, trick and card (from 1)."""
    if isinstance(action, Play):
        return [before.deal_number, before.trick_number, len(before.trick) + 1]
    return [before.deal_number, None, None]


def _step_of(violation: dict[str, Any], steps: list[dict[str, Any]]) -> int:
    """The step a violation of ``validate --json`` is at: its card's, else its deal's first.

    A place past the steps drawn (the replay stops at the first action the rules
    refuse) is the last step.
    """
    place = [violation["deal"], violation["trick"], violation["card"]]
    for step in steps:
        at = step["at"]
        if (place[1] is None and at[0] == place[0]) or at == place:
            return int(step["number"])
    return len(steps)


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
