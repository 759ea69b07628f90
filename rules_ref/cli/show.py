"""``rules-ref show FILE``: a game record, a conform replay file or a position, readable.

The kind of file is told by its ``"format"``: a game record
(``cancellation-hearts-record``, as ``rules-ref play --json`` writes it) or
a replay file of ``rules-ref conform`` (``cancellation-hearts-conform-replay``).
Either is printed with the log of ``rules-ref play``. A record shows what
it says (its trick winners, scores, totals and winners), and each place
where the rules disagree is marked with the rule (:mod:`.record_log`; exit
status 1). A replay file is replayed through the engine, up to an action
the rules refuse, which is named with its rule (exit status 1). A position
(``spec/position.md``, its JSON or its one-line text) is printed as the
table of ``rules-ref position``. A file that cannot be read gets one error
line (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..actions import Action
from ..errors import IllegalAction, InputError
from ..jsonio.files import read_json_file, shown_path
from ..jsonio.replay_file import REPLAY_FORMAT
from ..jsonio.serialize import RECORD_FORMAT
from ..positions.convert import position_of
from ..state import GameState
from .log import INDENT, GameLog
from .record_log import show_record
from .style import Style

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("show game.json", "a game record (play --json) as the log, each claim the rules "
     "disagree with flagged with its rule"),
    ("show conform-failures/FILE.json", "a replay file that conform wrote, as the log"),
    ("show position.txt", "a position (spec/position.md) as a table"),
    ("show -", "the record, replay file or position on standard input"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE",
                   help="a game record (rules-ref play --json) or a conform replay file "
                        "(- for standard input)")
    p.add_argument("--ascii", action="store_true", help="write cards as QS, 10H")


def run(args: argparse.Namespace) -> int:
    where = shown_path(args.file)
    try:
        data = read_json_file(args.file)
    except InputError as exc:
        if _is_blank(args.file):
            raise InputError(f"{where}: the file is empty: expected a game record, a replay "
                             "file or a position") from None
        if "not valid JSON" not in str(exc) or _looks_like_json(args.file):
            raise
        return _position(args.file, None, where)  # the one-line text form of a position
    kind = data.get("format") if isinstance(data, dict) else None
    log = GameLog(Style.for_stream(sys.stdout, args.ascii))
    if kind is None and isinstance(data, dict) and "phase" in data and "hands" in data:
        return _position(args.file, data, where)
    if kind == RECORD_FORMAT:
        return show_record(data, where, log.style)
    if kind == REPLAY_FORMAT:
        state, actions, lines = _replay(data, where, log)
    else:
        found = f"its \"format\" is {str(kind)[:40]!r}" if kind is not None else \
            "it has no \"format\""
        raise InputError(f"{where}: not a game record, a replay file or a position ({found}; "
                         f"expected {RECORD_FORMAT!r} or {REPLAY_FORMAT!r}, or the fields of "
                         "a position, spec/position.md)")
    for line in lines:
        print(line)
    for i, action in enumerate(actions):
        try:
            after, events = state.apply(action)
        except IllegalAction as exc:
            print(f"{INDENT}action {i + 1} of the file ({action}) breaks a rule: {exc}")
            print(f"{INDENT}the replay stops here: the reference cannot play past an action "
                  "the rules refuse (`rules-ref conform --replay FILE -- ADAPTER` plays the "
                  "file against an implementation)")
            return 1
        for line in log.step(state, action, after, events):
            print(line)
        state = after
    if state.phase.value != "game-over":
        print(f"\nThe file ends here: deal {state.deal_number}, {state.phase.value} phase.")
    return 0


def _looks_like_json(path: str) -> bool:
    """True when the file starts like JSON (so a JSON error, not a position's, is the news)."""
    from pathlib import Path

    if path == "-":
        return True
    try:
        with Path(path).open("rb") as fh:
            return fh.read(256).lstrip()[:1] in (b"{", b"[", b'"')
    except (OSError, ValueError):
        return True


def _is_blank(path: str) -> bool:
    """True when the file holds nothing but white space."""
    from pathlib import Path

    try:
        with Path(path).open("rb") as fh:
            return not fh.read(4096).strip()
    except (OSError, ValueError):
        return False


def _position(path: str, data: Any, where: str) -> int:
    """Show a position (``spec/position.md``): the table of ``rules-ref position``."""
    from ..positions.convert import position_from_json
    from ..ruleset import Ruleset
    from .position import describe_position, read_position

    pos = read_position([path]) if data is None else position_from_json(data, where)
    print(f"Position {where} (spec/position.md)")
    print(describe_position(pos, Ruleset()))
    return 0


def _replay(data: dict[str, Any], where: str,
            log: GameLog) -> tuple[GameState, list[Action], list[str]]:
    from ..findings.replay import read_replay
    from ..protocol.start import requested_state

    # the replay file as conform reads it (a start message or a position, and the actions)
    start, actions = read_replay(data, where)
    state = requested_state(start, f"{where}.start")
    s = log.style
    lines = [f"Conform replay {where}: {str(data.get('kind', ''))[:60]} "
             f"({', '.join(str(r) for r in data.get('rules', []) or [])[:200]})"]
    summary = str(data.get("summary", ""))
    if summary:
        lines.append(f"{INDENT}{summary[:300]}")
    lines += log.header(state.players, state.ruleset, data.get("seed") if isinstance(
        data.get("seed"), int) else None)
    if "position" in start:
        lines += ["", f"The replay starts from a position: deal {state.deal_number}, "
                  f"phase {state.phase}"]
        from .position import describe_position

        lines += describe_position(position_of(state), state.ruleset).splitlines()
        return state, actions, lines
    lines += ["", f"Deal {state.deal_number} as the replay starts it: dealer seat "
              f"{state.dealer}, totals " + ", ".join(
                  f"seat {i} {t}" for i, t in enumerate(state.totals))]
    for seat, hand in enumerate(state.hands):
        lines.append(f"{INDENT}seat {seat}: {s.cards(hand)}")
    if state.extras:
        lines.append(f"{INDENT}extras: {s.cards(state.extras)}")
    return state, actions, lines
