"""Running an implementation under test: the runner's side of ``spec/protocol.md``.

:class:`AdapterProcess` starts the adapter command (an argument list, never
a shell), writes one JSON request per line to its standard input and reads
one JSON response per line from its standard output, with a timeout on every
message and a limit on line length. Whatever goes wrong (the command cannot
start, it exits, crashes, hangs, prints garbage, prints something nobody
asked for, answers another request, or sends a message of the wrong shape)
raises :class:`AdapterFault` with a clear message and the evidence: the last
lines the adapter printed on standard output, the tail of its standard
error, and its exit status. :meth:`AdapterProcess.close` always leaves no
process behind: the adapter runs in a process group of its own, and the
whole group is ended.

Responses are read in the calling thread (``poll`` on the pipe, no thread
hand-off per message), so a request costs little more than the adapter's own
work; standard error is drained by a background thread into a bounded
buffer, so that an adapter that logs a lot never blocks and never fills the
runner's memory. The parsing and checking of what the adapter sends is done
by the pure functions of :mod:`.messages` (re-exported here), which raise
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

import contextlib
import json
import os
import select
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from ..errors import RulesRefError
from .handshake import MAX_SWITCH_VALUES as MAX_SWITCH_VALUES
from .handshake import Supports as Supports
from .handshake import check_hello as check_hello
from .handshake import parse_capabilities as parse_capabilities
from .handshake import parse_supports as parse_supports
from .handshake import ruleset_for
from .handshake import switch_values as switch_values

# Re-exported ("X as X"): the runners import what the adapter sends, checked, from here.
from .messages import BATCH_ITEM_KINDS as BATCH_ITEM_KINDS
from .messages import CAPABILITIES as CAPABILITIES
from .messages import EVIDENCE_CHARS as EVIDENCE_CHARS
from .messages import EVIDENCE_LINES as EVIDENCE_LINES
from .messages import FAULT_KINDS as FAULT_KINDS
from .messages import MAX_BATCH as MAX_BATCH
from .messages import MAX_DEPTH as MAX_DEPTH
from .messages import MAX_LINE_BYTES as MAX_LINE_BYTES
from .messages import SWITCHES as SWITCHES
from .messages import AdapterFault as AdapterFault
from .messages import _evidence, _shown
from .messages import answer_kind as answer_kind
from .messages import batch_answers as batch_answers
from .messages import check_answer as check_answer
from .messages import check_error as check_error
from .messages import check_rejection as check_rejection
from .messages import decode_answer as decode_answer
from .messages import describe_status as describe_status
from .messages import error_problems as error_problems
from .messages import expand_changes as expand_changes
from .messages import rejection_problems as rejection_problems
from .observation import PROTOCOL_NAME, PROTOCOL_VERSIONS, observation_problems

DEFAULT_TIMEOUT = 10.0
#: A batch answer may take the timeout plus this share of it per action.
BATCH_TIMEOUT_SHARE = 1 / 32
_READ_CHUNK = 1 << 16
#: While waiting for an answer, how often the runner checks that the adapter still runs.
_EXIT_CHECK = 0.1


# --- the process --------------------------------------------------------------------------


class AdapterProcess:
    """One running adapter. Use as a context manager, or call :meth:`close`."""

    def __init__(self, command: Sequence[str], timeout: float = DEFAULT_TIMEOUT,
                 max_line: int = MAX_LINE_BYTES, env: dict[str, str] | None = None) -> None:
        if not command:
            raise AdapterFault("start", "no adapter command given (put it after --)")
        if not (timeout > 0 and timeout < 1e6):
            raise RulesRefError(f"the timeout must be a positive number of seconds below "
                                f"10^6, got {timeout!r}")
        self.command = [str(c) for c in command]
        self.timeout = timeout
        self.max_line = max_line
        self._next_id = 0
        self._buffer = bytearray()
        self._eof = False
        # Lines as written (bytes, clipped) or notes (text); rendered only for a fault.
        self._seen: deque[bytes | str] = deque(maxlen=EVIDENCE_LINES)
        self._stderr: deque[bytes] = deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self._closed = False
        self._broken = False  # after a fault the conversation is out of step: no bye
        self._holder = False  # the adapter exited, but something holds its output open
        #: The protocol version and capabilities agreed in the handshake (:meth:`hello`).
        self.version = 1
        self.capabilities: tuple[str, ...] = ()
        #: The switches the adapter declared (``hello.supports.switches``); ``None`` before
        #: the handshake. A ``start`` names the later switches only when declared.
        self.switches: dict[str, Any] | None = None
        #: The last observation the adapter sent: what a ``changes`` answer changes.
        self._observation: dict[str, Any] | None = None
        try:
            # An argument list, never a shell; a process group of its own, so that close()
            # ends everything the adapter started.
            self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, env=env, bufsize=0)
        except FileNotFoundError:
            raise AdapterFault("start", f"command not found: {self.command[0]}") from None
        except PermissionError:
            raise AdapterFault("start", f"not executable: {self.command[0]}") from None
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise AdapterFault("start", f"cannot run {self.command[0]!r}: {reason}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        os.set_blocking(self._in_fd, False)  # a write never blocks past the timeout
        self._poller = select.poll()
        self._poller.register(self._out_fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._writer = select.poll()
        self._writer.register(self._in_fd, select.POLLOUT | select.POLLERR)
        self._threads = [threading.Thread(target=self._read_stderr, daemon=True)]
        for t in self._threads:
            t.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return not self._closed and self.proc.poll() is None

    # --- standard error -------------------------------------------------------------------

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        try:
            while True:
                chunk = err.read(_READ_CHUNK)
                if not chunk:
                    return
                with self._lock:
                    self._stderr.append(chunk)
                    self._stderr_size += len(chunk)
                    while self._stderr_size > EVIDENCE_CHARS * 4 and len(self._stderr) > 1:
                        self._stderr_size -= len(self._stderr.popleft())
        except (OSError, ValueError):
            return

    def stderr_tail(self) -> str:
        with self._lock:
            data = b"".join(self._stderr)
        return data.decode("utf-8", "replace")[-EVIDENCE_CHARS:]

    # --- messages -----------------------------------------------------------------------

    def fault(self, kind: str, message: str) -> AdapterFault:
        """An :class:`AdapterFault` with the evidence; the conversation is over."""
        self._broken = True
        status = self.proc.poll()
        if status is None and kind == "exit":
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = self.proc.wait(timeout=0.5)
        self._settle_stderr()
        seen = [item if isinstance(item, str) else _shown(item) for item in self._seen]
        return AdapterFault(kind, message, seen, self.stderr_tail(), status)

    def _settle_stderr(self, limit: float = 0.5) -> None:
        """Let the standard error reader catch the adapter's last words (at most ``limit`` s).

        Waits while the pipe holds unread bytes; at end of file, until the reader
        has read everything.
        """
        deadline = time.monotonic() + limit
        err = self.proc.stderr
        try:
            pending = select.poll()
            pending.register(err.fileno() if err is not None else -1, select.POLLIN)
        except (OSError, ValueError):
            return
        while True:
            time.sleep(0.02)  # also lets the reader finish storing what it has read
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            events = pending.poll(0)
            if not events:
                return
            if events[0][1] & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                for t in self._threads:
                    t.join(timeout=remaining)
                return

    def _exited(self, msg_id: int, what: str, holder: bool = False) -> AdapterFault:
        status = self.proc.poll()
        if status is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = self.proc.wait(timeout=0.5)
        if status is None:
            how = "closed its standard output"
        elif status < 0:
            how = f"was {describe_status(status)}"
        else:
            how = f"exited with status {status}"
        note = "; a process it started still holds its output open" if holder else ""
        return self.fault("exit", f"the adapter {how} instead of answering message {msg_id} "
                          f"({what}){note}")

    def _unsolicited(self, msg_id: int, message: dict[str, Any]) -> None:
        """Output waiting before a request is sent is output nobody asked for."""
        if not self._buffer and not self._eof and self._poller.poll(0):
            try:
                chunk = os.read(self._out_fd, _READ_CHUNK)
            except OSError:
                chunk = b""
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True
        if self._buffer:
            first = bytes(self._buffer[:self._buffer.find(b"\n") if b"\n" in self._buffer
                                      else len(self._buffer)])
            self._seen.append(_shown(first))
            raise self.fault("unsolicited", f"the adapter wrote output nobody asked for before "
                             f"message {msg_id} ({message.get('type')}) was sent: "
                             f"{_shown(first, 80)!r}")

    def send(self, message: dict[str, Any]) -> int:
        """Write one request (an ``id`` is added) and return its id."""
        msg_id = self._next_id
        self._next_id += 1
        self._unsolicited(msg_id, message)
        body = {k: v for k, v in message.items() if k != "id"}
        if body.get("type") == "start" and isinstance(body.get("ruleset"), dict) \
                and self.switches is not None:
            body["ruleset"] = ruleset_for(body["ruleset"], self.switches)
        line = json.dumps({"id": msg_id, **body}, separators=(",", ":")) + "\n"
        data = memoryview(line.encode())
        deadline = time.monotonic() + self.timeout
        try:
            while data:
                try:
                    written = os.write(self._in_fd, data)
                except BlockingIOError:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or not self._writer.poll(remaining * 1000):
                        raise self.fault("timeout", f"the adapter does not read its input: "
                                         f"message {msg_id} ({message.get('type')}) could not "
                                         f"be written within {self.timeout:g} s") from None
                    continue
                data = data[written:]
        except (BrokenPipeError, OSError, ValueError):
            if self.proc.poll() is not None or self._eof:
                raise self._exited(msg_id, str(message.get("type"))) from None
            raise self.fault("exit", f"the adapter closed its input before message {msg_id} "
                             f"({message.get('type')})") from None
        return msg_id

    def _read_line(self, msg_id: int, what: str, timeout: float) -> bytes | None:
        """The next line of standard output; ``None`` at end of file or once the adapter exited."""
        buffer = self._buffer
        deadline = time.monotonic() + timeout
        start = 0
        while True:
            end = buffer.find(b"\n", start)
            if end >= 0:
                line = bytes(buffer[:end + 1])
                del buffer[:end + 1]
                if len(line) > self.max_line + 1:
                    self._seen.append(_evidence(line))
                    raise self.fault("too-long", f"answer to message {msg_id} ({what}) is longer "
                                     f"than {self.max_line} bytes")
                return line
            if len(buffer) > self.max_line:
                self._seen.append(_shown(buffer))
                raise self.fault("too-long", f"answer to message {msg_id} ({what}) is longer "
                                 f"than {self.max_line} bytes (no end of line after "
                                 f"{len(buffer)} bytes)")
            if self._eof:
                return None
            start = len(buffer)
            remaining = deadline - time.monotonic()
            ready = self._poller.poll(max(0.0, min(remaining, _EXIT_CHECK)) * 1000) \
                if remaining > 0 else []
            if not ready:
                if remaining <= 0 or time.monotonic() >= deadline:
                    if buffer:
                        self._seen.append(_shown(buffer) + "   (no end of line)")
                    raise self.fault("timeout", f"no answer to message {msg_id} ({what}) within "
                                     f"{timeout:g} s"
                                     + (" (an incomplete line, no end of line)" if buffer
                                        else ""))
                if self.proc.poll() is not None and not self._poller.poll(0):
                    # The adapter is gone; whatever it wrote has been read. A process it
                    # started may still hold the pipe open: no end of file will come.
                    self._holder = True
                    self._eof = True
                continue
            try:
                chunk = os.read(self._out_fd, _READ_CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                self._eof = True
            else:
                buffer += chunk

    def receive(self, msg_id: int, what: str, timeout: float | None = None) -> dict[str, Any]:
        """Read the response to request ``msg_id`` within the timeout (or ``timeout`` s)."""
        raw = self._read_line(msg_id, what, self.timeout if timeout is None else timeout)
        if raw is None:
            if self._buffer:
                self._seen.append(_shown(self._buffer) + "   (no end of line)")
            raise self._exited(msg_id, what, self._holder)
        self._seen.append(_evidence(raw.rstrip(b"\n")))
        try:
            answer = decode_answer(raw, msg_id, what)
        except AdapterFault as exc:
            raise self.fault(exc.kind, exc.detail) from None
        if answer.get("type") == "observation":
            self._observation = answer
        return answer

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        msg_id = self.send(message)
        return self.receive(msg_id, str(message.get("type")))

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

        The answer is an observation or an error; a rejection is a
        ``capability`` fault, since the runner only sends positions the rules
        reach, inside what the adapter supports.
        """
        self._require("position")
        msg_id = self.send({"type": "start", "players": players, "ruleset": ruleset,
                            "position": position})
        answer = self.receive(msg_id, "start from a position")
        about = f"message {msg_id} (start from a position)"
        if self.checked(answer, self.answer_kinds, about) == "rejected":
            raise self.fault("capability", f"the adapter declared the capability position but "
                             f"rejected the start from a position in answer to {about}: "
                             f"{str(answer.get('reason'))[:200]}")
        return answer

    def observe(self) -> dict[str, Any]:
        """An ``observe`` request: the observation of the current game (or an error)."""
        self._require("observe")
        msg_id = self.send({"type": "observe"})
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
        self._require("batch")
        if not 1 <= len(actions) <= MAX_BATCH:
            raise RulesRefError(f"a batch holds 1 to {MAX_BATCH} actions, not {len(actions)}")
        return self.send({"type": "batch", "actions": list(actions)})

    def receive_batch(self, msg_id: int, count: int) -> list[dict[str, Any]]:
        """The answers to batch ``msg_id`` of ``count`` actions, checked (:func:`batch_answers`).

        A batch answered as a whole with an ``error`` counts as an error at
        its first action. With the capability ``changes``, an answer may hold
        only what changed since the adapter's previous observation; it is
        returned as the whole observation it stands for
        (:func:`expand_changes`).
        """
        about = f"message {msg_id} (a batch of {count} action(s))"
        answer = self.receive(msg_id, f"batch of {count}",
                              self.timeout * (1 + count * BATCH_TIMEOUT_SHARE))
        kinds = (*BATCH_ITEM_KINDS, "changes") if self.can("changes") else BATCH_ITEM_KINDS
        try:
            if answer.get("type") == "error":
                check_error(answer, about)
                return [{"type": "error", "message": answer["message"]}]
            items = batch_answers(answer, count, about, kinds)
            for i, item in enumerate(items):
                kind = item["type"]
                if kind == "changes":
                    item = items[i] = expand_changes(self._observation, item,
                                                     f"answer {i} of {about}")
                    kind = "observation"
                elif kind == "observation" and "changes" in kinds:
                    # the base of the changes to come: its shape is checked here
                    problems = observation_problems(
                        {k: v for k, v in item.items() if k != "type"})
                    if problems:
                        raise AdapterFault("shape", f"answer {i} of {about}: observation: "
                                           + "; ".join(problems))
                if kind == "observation":
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

    # --- shutdown -----------------------------------------------------------------------

    def close(self, grace: float = 1.0) -> int | None:
        """Say bye, then end the adapter and everything it started; return its exit status."""
        if self._closed:
            return self.proc.poll()
        self._closed = True
        if self.proc.poll() is None and not self._eof and not self._broken:
            try:
                old, self.timeout = self.timeout, min(self.timeout, grace)
                msg_id = self.send({"type": "bye"})
                self.receive(msg_id, "bye")
                self.timeout = old
            except AdapterFault:
                pass
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # end of input: an adapter still reading stops
        if self.proc.poll() is None and not self._broken:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=grace)
        # The whole process group: the adapter and whatever it started and left behind.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            if sig == signal.SIGTERM:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(timeout=grace / 2)
                time.sleep(0.02)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace)
        for t in self._threads:
            t.join(timeout=grace)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return self.proc.poll()

    def __enter__(self) -> AdapterProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
