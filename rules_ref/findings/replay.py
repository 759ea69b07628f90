"""Reading a replay file of ``rules-ref conform``: its start and its actions, checked.

``rules-ref show`` reads the files conform writes with it, without loading
the search; :mod:`~rules_ref.conform.rerun` writes them and plays them
against an adapter.
"""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..errors import InputError, RulesRefError, SetupError
from ..jsonio.replay_file import MAX_REPLAY_ACTIONS, REPLAY_FORMAT, REPLAY_VERSION
from ..protocol.start import checked_start, position_start, position_state, start_state


def read_replay(data: object, where: str) -> tuple[dict[str, Any], list[Action]]:
    """The start message and the actions of a replay document, checked.

    Only ``format``, ``version``, ``start`` and ``actions`` are read; the
    start is rebuilt from its checked fields (so nothing but the protocol's
    fields is sent), and it must be a game the reference can set up, or a table it refuses
    (``PASS.CARDS``, ``PASS.DIRECTION``: :mod:`~rules_ref.conform.refused_tables`), which
    must be rejected.
    """
    from ..jsonio.serialize import action_from_json

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
        start = checked_start(raw_start, f"{where}.start")
        try:
            start_state(start, f"{where}.start")
        except SetupError as exc:
            # a table the rules refuse is a start to replay: it must be rejected
            if exc.rule_id not in ("PASS.CARDS", "PASS.DIRECTION"):
                raise InputError(f"{where}.start: {exc}") from None
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise InputError(f"{where}.actions: expected a list of actions")
    if len(raw) > MAX_REPLAY_ACTIONS:
        raise InputError(f"{where}.actions: {len(raw)} actions, more than {MAX_REPLAY_ACTIONS}")
    return start, [action_from_json(a, f"{where}.actions[{i}]") for i, a in enumerate(raw)]


def _position_start(raw: dict[str, Any], where: str) -> dict[str, Any]:
    """A ``start`` from a position, checked: only its protocol fields are kept."""
    try:
        state = position_state(raw, where)
    except InputError:
        raise
    except RulesRefError as exc:  # a position the rules do not reach
        raise InputError(f"{where}: {exc}") from None
    return position_start(state)
