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
from ..errors import InputError
from ..findings.failure import Failure, FoundFailure, Stats
from ..jsonio.replay_file import REPLAY_FORMAT, REPLAY_VERSION
from ..protocol.client import AdapterProcess
from ..protocol.handshake import Supports, parse_supports
from ..protocol.messages import AdapterFault
from .conversation import position_record
from .outcome import Config, Outcome
from .session import Session


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


def play_game(session: Session, start: dict[str, Any], actions: list[Action]) -> None:
    """Play a recorded game through ``session``; a failure raises as the session does.

    When the reference rejects the last action and the adapter can ``observe``,
    the implementation's game is checked to be unchanged by it, as in a search.
    """
    try:
        session.start(start)
        last_rejected = False
        for action in actions:
            last_rejected = not session.act(action)
        if last_rejected and actions:
            session.check_unchanged()
        session.flush()
    finally:  # a failure ends the game: what it went through is counted all the same
        session.tally.count()


def run_replay(config: Config, start: dict[str, Any], actions: list[Action]) -> Outcome:
    """Play a replay file's game against the adapter; the first disagreement is the outcome."""
    stats = Stats()
    began = time.monotonic()
    proc: AdapterProcess | None = None
    supports: Supports | None = None
    session: Session | None = None
    try:
        proc = config.open_adapter()
        supports = parse_supports(proc.hello(config.versions))
        if "position" in start and not proc.can("position"):
            raise InputError("the replay file's game starts from a position, and the adapter "
                             "does not declare the capability position (protocol version 2)")
        stats.games = 1
        session = Session(proc, stats, check_every=1,
                          position=position_record, batch=config.batch)
        play_game(session, start, actions)
    except FoundFailure as found:
        return Outcome(stats, time.monotonic() - began, supports, found.failure,
                       notes=session.notes if session else [])
    except AdapterFault as fault:
        if session is not None and session.record.start_msg:
            return Outcome(stats, time.monotonic() - began, supports,
                           session.fault_failure(fault), fault=fault)
        return Outcome(stats, time.monotonic() - began, supports, fault=fault)
    finally:
        if proc is not None:
            proc.close()
    return Outcome(stats, time.monotonic() - began, supports,
                   notes=session.notes if session else [])


# --- reports --------------------------------------------------------------------------------
