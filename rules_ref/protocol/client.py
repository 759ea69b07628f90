"""Running an implementation under test: the runner's side of ``spec/protocol.md``.

:class:`AdapterProcess` is one running adapter and the conversation with
it: the handshake (:meth:`AdapterProcess.hello`), one request at a time
(``request``, ``act``) and what protocol version 2 adds. The process, the
lines exchanged, the timeouts, the evidence of a fault and the ending of
the whole process group are :class:`~rules_ref.protocol.pipe.AdapterPipe`'s, which it
builds on. Whatever goes wrong (the command cannot start, it exits,
crashes, hangs, prints garbage, prints something nobody asked for, answers
another request, or sends a message of the wrong shape) raises
:class:`AdapterFault` with a clear message and the evidence.

The parsing and checking of what the adapter sends is done
by the pure functions of :mod:`.messages`, which raise
:class:`AdapterFault` without the evidence; the process adds it. The limits
are in ``spec/limits.md``.

Beyond one request at a time (``request``), the process
speaks what protocol version 2 adds when the adapter declares it:
:meth:`AdapterProcess.start_position` (a game started from a position),
:meth:`AdapterProcess.batch` (several actions, one answer each),
:meth:`AdapterProcess.observe`, and :meth:`AdapterProcess.actions`, which
sends a list of actions as batches when it can and one by one otherwise.
Every answer these return is checked except the fields of an observation
(:func:`.observation.observation_problems`), which the caller checks or
compares.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from ..errors import RulesRefError
from .handshake import (
    check_hello,
    parse_capabilities,
)

# Re-exported ("X as X"): the runners import what the adapter sends, checked, from here.
from .messages import (
    BATCH_ITEM_KINDS,
    MAX_BATCH,
    MAX_LINE_BYTES,
    AdapterFault,
    batch_answers,
    check_answer,
    check_error,
    expand_changes,
)
from .observation import PROTOCOL_NAME, PROTOCOL_VERSIONS, observation_problems
from .pipe import DEFAULT_TIMEOUT, AdapterPipe
from .start import position_start_json

#: A batch answer may take the timeout plus this share of it per action.
BATCH_TIMEOUT_SHARE = 1 / 32


class AdapterProcess(AdapterPipe):
    """One running adapter and the protocol spoken with it. Use as a context manager, or call
    :meth:`~rules_ref.protocol.pipe.AdapterPipe.close`."""

    def __init__(self, command: Sequence[str], timeout: float = DEFAULT_TIMEOUT,
                 max_line: int = MAX_LINE_BYTES, env: dict[str, str] | None = None) -> None:
        super().__init__(command, timeout, max_line, env)
        #: The protocol version and capabilities agreed in the handshake (:meth:`hello`).
        self.version = 1
        self.capabilities: tuple[str, ...] = ()

    def hello(self, versions: Sequence[int] = PROTOCOL_VERSIONS) -> dict[str, Any]:
        """The handshake: returns the adapter's ``hello`` answer, checked.

        The runner offers ``versions``; the adapter's ``version`` must be one
        of them. ``name`` must be text and ``supports`` must list player
        counts and switches (their values are checked by
        :func:`parse_supports`); a version-2 adapter may declare
        ``capabilities``, kept in ``self.capabilities``.
        """
        offered = [int(v) for v in versions]
        answer = self.request({"type": "hello", "protocol": PROTOCOL_NAME, "versions": offered})
        try:
            check_hello(answer, offered)
            self.version = answer["version"]
            self.capabilities = parse_capabilities(answer) if self.version >= 2 else ()
            declared = answer["supports"].get("switches", {})
            self.switches = dict(declared) if isinstance(declared, dict) else {}
        except AdapterFault as exc:
            raise self.fault(exc.kind, exc.detail) from None
        return answer

    # --- protocol version 2 -------------------------------------------------------------

    def can(self, capability: str) -> bool:
        """True if the adapter declared ``capability`` (``position``, ``batch``, ``observe``)."""
        return capability in self.capabilities

    @property
    def answer_kinds(self) -> tuple[str, ...]:
        """The answers to a ``start`` or an ``action``: version 2 adds ``error``."""
        return BATCH_ITEM_KINDS if self.version >= 2 else ("observation", "rejected")

    def _require(self, capability: str) -> None:
        if not self.can(capability):
            raise RulesRefError(f"the adapter does not declare the capability {capability!r} "
                                f"(it declares {', '.join(self.capabilities) or 'none'}; "
                                f"protocol version {self.version})")

    def checked(self, answer: dict[str, Any], allowed: Sequence[str], about: str) -> str:
        """The kind of ``answer`` (one of ``allowed``), checked; a fault carries the evidence."""
        try:
            return check_answer(answer, allowed, about)
        except AdapterFault as exc:
            raise self.fault(exc.kind, exc.detail) from None

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """One ``action`` request; its answer (observation, rejected or error), checked."""
        msg_id = self.send({"type": "action", "action": action})
        answer = self.receive(msg_id, "action")
        self.checked(answer, self.answer_kinds, f"message {msg_id} (action)")
        return answer

    def start_position(self, players: int, ruleset: dict[str, Any],
                       position: dict[str, Any]) -> dict[str, Any]:
        """Start a game from ``position`` (JSON form, ``spec/position.md``); its answer.

        The answer is an observation or an error. A rejection is raised as a
        ``capability`` fault for the caller to judge: the runner only sends
        positions the rules reach, inside what the adapter supports, so
        :func:`rules_ref.conform.resync.restart_from` reads it as a rules
        difference (``spec/protocol.md``, "Version 2"), never as a fault of the run.
        """
        self._require("position")
        msg_id = self.send(position_start_json(players, ruleset, position))
        answer = self.receive(msg_id, "start from a position")
        about = f"message {msg_id} (start from a position)"
        if self.checked(answer, self.answer_kinds, about) == "rejected":
            raise self.fault("capability", f"the adapter declared the capability position but "
                             f"rejected the start from a position in answer to {about}: "
                             f"{str(answer.get('reason'))[:200]}")
        return answer

    def observe(self) -> dict[str, Any]:
        """An ``observe`` request: the observation of the current game (or an error)."""
        return self.receive_observe(self.send_observe())

    def send_observe(self) -> int:
        """Write an ``observe`` request; return its id (its answer: :meth:`receive_observe`)."""
        self._require("observe")
        return self.send({"type": "observe"})

    def receive_observe(self, msg_id: int) -> dict[str, Any]:
        """The answer to ``observe`` request ``msg_id``: an observation or an error, checked."""
        answer = self.receive(msg_id, "observe")
        about = f"message {msg_id} (observe)"
        if answer.get("type") == "rejected":
            raise self.fault("capability", f"the adapter declared the capability observe but "
                             f"rejected the observe request {about}: "
                             f"{str(answer.get('reason'))[:200]}")
        self.checked(answer, ("observation", "error"), about)
        return answer

    def send_batch(self, actions: Sequence[dict[str, Any]]) -> int:
        """Write a ``batch`` request of 1 to :data:`MAX_BATCH` actions; return its id."""
        return self.send_batch_encoded([json.dumps(a, separators=(",", ":")) for a in actions])

    def send_batch_encoded(self, actions: Sequence[str]) -> int:
        """:meth:`send_batch` of actions already encoded as JSON text, one text each."""
        self._require("batch")
        if not 1 <= len(actions) <= MAX_BATCH:
            raise RulesRefError(f"a batch holds 1 to {MAX_BATCH} actions, not {len(actions)}")
        return self.send_encoded("batch", f'"actions":[{",".join(actions)}]')

    def receive_batch_items(self, msg_id: int, count: int) -> list[dict[str, Any]]:
        """The answers to batch ``msg_id`` of ``count`` actions, checked (:func:`batch_answers`),
        each as the adapter sent it: a ``changes`` answer stays the changes it holds.

        A batch answered as a whole with an ``error`` counts as an error at
        its first action. The caller that reads ``changes`` answers this way
        keeps the observation they change (:func:`expand_changes`).
        """
        about = f"message {msg_id} (a batch of {count} action(s))"
        answer = self.receive(msg_id, f"batch of {count}",
                              self.timeout * (1 + count * BATCH_TIMEOUT_SHARE))
        kinds = (*BATCH_ITEM_KINDS, "changes") if self.can("changes") else BATCH_ITEM_KINDS
        try:
            if answer.get("type") == "error":
                check_error(answer, about)
                return [{"type": "error", "message": answer["message"]}]
            return batch_answers(answer, count, about, kinds)
        except AdapterFault as exc:
            raise self.fault(exc.kind, exc.detail) from None

    def receive_batch(self, msg_id: int, count: int) -> list[dict[str, Any]]:
        """The answers to batch ``msg_id`` of ``count`` actions, checked (:func:`batch_answers`).

        A batch answered as a whole with an ``error`` counts as an error at
        its first action. With the capability ``changes``, an answer may hold
        only what changed since the adapter's previous observation; it is
        returned as the whole observation it stands for
        (:func:`expand_changes`).
        """
        items = self.receive_batch_items(msg_id, count)
        about = f"message {msg_id} (a batch of {count} action(s))"
        changes = self.can("changes")
        try:
            for i, item in enumerate(items):
                kind = item["type"]
                if kind == "changes":
                    item = items[i] = self._observation = expand_changes(
                        self._observation, item, f"answer {i} of {about}")
                elif kind == "observation":
                    if changes:
                        # the base of the changes to come: its shape is checked here
                        problems = observation_problems(
                            {k: v for k, v in item.items() if k != "type"})
                        if problems:
                            raise AdapterFault("shape", f"answer {i} of {about}: observation: "
                                               + "; ".join(problems))
                    self._observation = item
            return items
        except AdapterFault as exc:
            raise self.fault(exc.kind, exc.detail) from None

    def batch(self, actions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send ``actions`` as one batch; their answers, in order (see :meth:`receive_batch`)."""
        return self.receive_batch(self.send_batch(actions), len(actions))

    def actions(self, actions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Apply ``actions`` in order; one answer each, ending at the first error.

        In batches of at most :data:`MAX_BATCH` when the adapter declares
        ``batch``, else one ``action`` request each: the answers are the same.
        Each answer has its ``type``; a rejected action leaves the game as it
        was and the next action applies to it.
        """
        out: list[dict[str, Any]] = []
        if self.can("batch"):
            for first in range(0, len(actions), MAX_BATCH):
                part = self.batch(actions[first:first + MAX_BATCH])
                out.extend(part)
                if part and part[-1]["type"] == "error":
                    break
            return out
        for action in actions:
            answer = self.act(action)
            answer.pop("id", None)
            out.append(answer)
            if answer["type"] == "error":
                break
        return out


class Connect(Protocol):
    """What starts the adapter of a run from its command and timeout: the conversation with
    it. :class:`AdapterProcess` itself runs the command; an
    :func:`~rules_ref.protocol.in_process.in_process` connection answers in this process."""

    def __call__(self, command: Sequence[str], timeout: float) -> AdapterProcess: ...
