"""Replay files: the document a failure is written as, reading one back, playing it again.

A replay file holds the start message and the actions of a failing game
(``rules-ref conform --replay`` plays it against the adapter again). The
start may be a ``start`` from a position (protocol version 2): the minimal
example of a divergence class is often the position just before the
divergent action, and that action.
"""

from __future__ import annotations

import time
from typing import Any

from ..actions import Action
from ..errors import InputError, RulesRefError, SetupError
from ..registry import rule_ids
from .adapter import position_state, start_message, start_state
from .conversation import position_record
from .outcome import Config, Outcome
from .process import AdapterFault, AdapterProcess, Supports, parse_supports
from .session import Failure, FoundFailure, Session, Stats

REPLAY_FORMAT = "cancellation-hearts-conform-replay"
REPLAY_VERSION = 1


def replay_document(failure: Failure, config: Config, supports: Supports | None) -> dict[str, Any]:
    """The replay file of a failure (``--replay``)."""
    return {
        "format": REPLAY_FORMAT, "version": REPLAY_VERSION,
        "kind": failure.kind, "rules": failure.rules, "summary": failure.summary,
        "adapter": supports.name if supports is not None else "",
        "seed": config.seed,
        "start": failure.start, "actions": failure.actions,
        "position": failure.position,
        "expected": failure.expected, "actual": failure.actual,
        "fields": failure.fields, "others": failure.others,
        "expected_answer": failure.reference,
        "fault": failure.fault,
    }


#: At most this many actions in a replay file (a conformance game has a few hundred).
MAX_REPLAY_ACTIONS = 10_000


def read_replay(data: object, where: str) -> tuple[dict[str, Any], list[Action]]:
    """The start message and the actions of a replay document, checked.

    Only ``format``, ``version``, ``start`` and ``actions`` are read; the
    start is rebuilt from its checked fields (so nothing but the protocol's
    fields is sent), and it must be a game the reference can set up.
    """
    from ..serialize import action_from_json

    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise InputError(f"{where}: not a {REPLAY_FORMAT} file (no \"format\": "
                         f"\"{REPLAY_FORMAT}\")")
    if data.get("version") != REPLAY_VERSION or type(data.get("version")) is not int:
        raise InputError(f"{where}: replay version {data.get('version')!r:.20} is not "
                         f"{REPLAY_VERSION}")
    if "start" not in data:
        raise InputError(f"{where}: missing start")
    raw_start = data["start"]
    if isinstance(raw_start, dict) and "position" in raw_start:
        start = _position_start(raw_start, f"{where}.start")
    else:
        start = start_message(raw_start, f"{where}.start")
        try:
            start_state(start, f"{where}.start")
        except SetupError as exc:
            raise InputError(f"{where}.start: {exc}") from None
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise InputError(f"{where}.actions: expected a list of actions")
    if len(raw) > MAX_REPLAY_ACTIONS:
        raise InputError(f"{where}.actions: {len(raw)} actions, more than {MAX_REPLAY_ACTIONS}")
    return start, [action_from_json(a, f"{where}.actions[{i}]") for i, a in enumerate(raw)]


def _position_start(raw: dict[str, Any], where: str) -> dict[str, Any]:
    """A ``start`` from a position, checked: only its protocol fields are kept."""
    from ..position import position_to_json

    try:
        state = position_state(raw, where)
    except InputError:
        raise
    except RulesRefError as exc:  # a position the rules do not reach
        raise InputError(f"{where}: {exc}") from None
    return {"type": "start", "players": state.players, "ruleset": state.ruleset.to_dict(),
            "position": position_to_json(state.position())}


def play_game(session: Session, start: dict[str, Any], actions: list[Action]) -> None:
    """Play a recorded game through ``session``; a failure raises as the session does.

    When the reference rejects the last action and the adapter can ``observe``,
    the implementation's game is checked to be unchanged by it, as in a search.
    """
    session.start(start)
    last_rejected = False
    for action in actions:
        last_rejected = not session.act(action)
    if last_rejected and actions:
        session.check_unchanged()
    session.flush()


def run_replay(config: Config, start: dict[str, Any], actions: list[Action]) -> Outcome:
    """Play a replay file's game against the adapter; the first disagreement is the outcome."""
    stats = Stats()
    began = time.monotonic()
    proc: AdapterProcess | None = None
    supports: Supports | None = None
    session: Session | None = None
    try:
        proc = AdapterProcess(config.command, config.timeout)
        supports = parse_supports(proc.hello(config.versions))
        if "position" in start and not proc.can("position"):
            raise InputError("the replay file's game starts from a position, and the adapter "
                             "does not declare the capability position (protocol version 2)")
        stats.games = 1
        session = Session(proc, stats, frozenset(rule_ids()), check_every=1,
                          position=position_record, batch=config.batch)
        play_game(session, start, actions)
    except FoundFailure as found:
        return Outcome(stats, time.monotonic() - began, supports, found.failure,
                       notes=session.notes if session else [])
    except AdapterFault as fault:
        if session is not None and session.start_msg:
            return Outcome(stats, time.monotonic() - began, supports,
                           session.fault_failure(fault), fault=fault)
        return Outcome(stats, time.monotonic() - began, supports, fault=fault)
    finally:
        if proc is not None:
            proc.close()
    return Outcome(stats, time.monotonic() - began, supports,
                   notes=session.notes if session else [])


# --- reports --------------------------------------------------------------------------------
