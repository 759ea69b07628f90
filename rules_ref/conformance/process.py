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
by pure functions (:func:`decode_answer`, :func:`check_hello`,
:func:`parse_supports`, :func:`answer_kind`) that raise :class:`AdapterFault`
without the evidence; the process adds it. The limits are in
``spec/limits.md``.
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
from dataclasses import dataclass, fields
from typing import Any

from ..deal import MAX_PLAYERS, MIN_PLAYERS
from ..errors import RulesRefError
from ..ruleset import Ruleset
from .observation import PROTOCOL_NAME, PROTOCOL_VERSION

DEFAULT_TIMEOUT = 10.0
#: The longest line (one message) the adapter may write, newline excluded.
MAX_LINE_BYTES = 1024 * 1024
EVIDENCE_LINES = 20
EVIDENCE_CHARS = 2000
_READ_CHUNK = 1 << 16
#: While waiting for an answer, how often the runner checks that the adapter still runs.
_EXIT_CHECK = 0.1
#: Nesting deeper than this in a message is refused (no message of the protocol needs 5).
MAX_DEPTH = 32

#: The kinds of :class:`AdapterFault`.
FAULT_KINDS = ("start", "exit", "timeout", "too-long", "not-json", "not-utf8", "shape",
               "wrong-id", "unsolicited", "handshake")

#: The switches of ``spec/variants.toml``, as the ruleset names them.
SWITCHES = tuple(f.name for f in fields(Ruleset))


class AdapterFault(RulesRefError):
    """The adapter broke the protocol (not a rules disagreement).

    ``kind`` is one of :data:`FAULT_KINDS`: ``start`` (the command cannot
    run), ``exit`` (it exited or closed its output instead of answering),
    ``timeout``, ``too-long``, ``not-json``, ``not-utf8``, ``shape`` (valid
    JSON of the wrong shape or type), ``wrong-id`` (an answer to another
    request), ``unsolicited`` (output nobody asked for), ``handshake``.
    """

    def __init__(self, kind: str, message: str, stdout: Sequence[str] = (),
                 stderr: str = "", exit_status: int | None = None) -> None:
        self.kind = kind
        self.detail = message
        self.stdout = list(stdout)
        self.stderr = stderr
        self.exit_status = exit_status
        #: The vector being run when the fault happened (``rules-ref vectors run``).
        self.case_id: str | None = None
        super().__init__(f"adapter {kind}: {message}")

    def evidence(self, lines: int = EVIDENCE_LINES) -> str:
        """What the adapter printed (its last ``lines`` lines of standard output), for a report."""
        parts = []
        if self.exit_status is not None:
            parts.append(f"exit status: {describe_status(self.exit_status)}")
        if self.stdout and lines > 0:
            parts.append("last stdout lines:\n" + "\n".join(
                f"  {line}" for line in self.stdout[-lines:]))
        if self.stderr:
            parts.append("stderr (tail):\n" + "\n".join(
                f"  {line}" for line in self.stderr.splitlines()))
        return "\n".join(parts) or "(the adapter printed nothing)"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.detail, "exit_status": self.exit_status,
                "stdout": self.stdout, "stderr": self.stderr}


def describe_status(status: int) -> str:
    """An exit status as ``subprocess`` reports it, in words (``killed by signal SIGKILL``)."""
    if status < 0:
        try:
            return f"killed by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return str(status)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def _evidence(raw: bytes | bytearray) -> bytes:
    """A line kept as evidence: its beginning and end, enough for :func:`_shown`."""
    if len(raw) <= 600:
        return bytes(raw)
    return bytes(raw[:300]) + b" ... " + bytes(raw[-300:])


def _shown(raw: bytes | bytearray, limit: int = 300) -> str:
    """Bytes the adapter wrote, as evidence: decoded leniently, control characters escaped.

    A longer line keeps its beginning and its end (where an unknown field or
    a stray character usually is), with the number of bytes left out.
    """
    def text(part: bytes) -> str:
        decoded = part.decode("utf-8", "backslashreplace")
        return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in decoded)

    if len(raw) <= limit:
        return text(bytes(raw))
    head, tail = limit * 2 // 3, limit // 3
    return (f"{text(bytes(raw[:head]))} …({len(raw) - head - tail} bytes)… "
            f"{text(bytes(raw[-tail:]))}")


# --- what the adapter sends: pure checks ------------------------------------------------------


class _NotInteger(ValueError):
    pass


class _NotJson(ValueError):
    pass


def _reject_float(text: str) -> Any:
    raise _NotInteger(f"the number {text[:40]} is not an integer (the protocol has only "
                      "integers)")


def _reject_constant(text: str) -> Any:
    raise _NotJson(f"{text} is not JSON")


_DECODER = json.JSONDecoder(parse_float=_reject_float, parse_constant=_reject_constant)


def _depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a scalar)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        if level > deepest:
            deepest = level
            if deepest > MAX_DEPTH:
                return deepest
        stack.extend((c, level) for c in children)
    return deepest


def decode_answer(raw: bytes, msg_id: int, what: str = "") -> dict[str, Any]:
    """One line the adapter wrote (newline included or not) as the answer to ``msg_id``.

    Raises :class:`AdapterFault` (without evidence) when it is not UTF-8, not
    JSON, not an object, holds a number that is not an integer, nests more
    than :data:`MAX_DEPTH` deep, or carries no ``id`` or another one.
    """
    about = f"message {msg_id}" + (f" ({what})" if what else "")
    if len(raw) > MAX_LINE_BYTES + 1:
        raise AdapterFault("too-long", f"answer to {about} is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AdapterFault("not-utf8", f"answer to {about} is not UTF-8 (byte {exc.start}: "
                           f"{raw[exc.start:exc.start + 1]!r})") from None
    if not text.strip():
        raise AdapterFault("not-json", f"answer to {about} is an empty line")
    try:
        data = _DECODER.decode(text)
    except _NotInteger as exc:
        raise AdapterFault("shape", f"answer to {about}: {exc}") from None
    except _NotJson as exc:
        raise AdapterFault("not-json", f"answer to {about} is not JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise AdapterFault("not-json", f"answer to {about} is not JSON: {exc.msg} at column "
                           f"{exc.colno}") from None
    except RecursionError:
        raise AdapterFault("shape", f"answer to {about} nests lists or objects more than "
                           f"{MAX_DEPTH} deep") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise AdapterFault("shape", f"answer to {about}: {_clip(str(exc), 120)}") from None
    if type(data) is not dict:
        raise AdapterFault("shape", f"answer to {about} is not a JSON object but "
                           f"{_json_kind(data)}")
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and _depth(data) > MAX_DEPTH:
        raise AdapterFault("shape", f"answer to {about} nests lists or objects more than "
                           f"{MAX_DEPTH} deep")
    if "id" not in data:
        raise AdapterFault("unsolicited", f"a message without an id instead of the answer to "
                           f"{about}: the adapter may only answer requests")
    answer_id = data["id"]
    if type(answer_id) is not int:
        raise AdapterFault("shape", f"answer to {about}: id must be an integer, got "
                           f"{_show(answer_id)}")
    if answer_id != msg_id:
        raise AdapterFault("wrong-id", f"answer to {about} carries id {_show(answer_id)}: an "
                           f"answer to another request")
    return data


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def _show(value: object, limit: int = 40) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit] + "…"


def answer_kind(answer: dict[str, Any], allowed: Sequence[str], about: str) -> str:
    """The ``type`` of an answer, which must be one of ``allowed`` (else a ``shape`` fault)."""
    kind = answer.get("type")
    if type(kind) is str and kind in allowed:
        return kind
    expected = " or ".join(allowed)
    if kind == "hello":
        found = "a second hello (the handshake is the first message only)"
    elif "type" not in answer:
        found = "a message without a type"
    else:
        found = f"of type {_show(kind)}"
    raise AdapterFault("shape", f"the answer to {about} is {found}; expected {expected}")


def rejection_problems(answer: dict[str, Any]) -> list[str]:
    """What is wrong with a ``rejected`` answer (without ``id`` and ``type``)."""
    problems = []
    unknown = sorted(str(k) for k in answer if k not in ("id", "type", "rule", "reason"))
    if unknown:
        problems.append("unknown field(s) " + ", ".join(unknown))
    if type(answer.get("reason")) is not str:
        problems.append("reason must be text" if "reason" in answer else "reason is missing")
    if "rule" in answer and answer["rule"] is not None and type(answer["rule"]) is not str:
        problems.append(f"rule must be a rule ID, got {_show(answer['rule'])}")
    return problems


def check_rejection(answer: dict[str, Any], about: str) -> None:
    """Raise a ``shape`` fault when a ``rejected`` answer is malformed."""
    problems = rejection_problems(answer)
    if problems:
        raise AdapterFault("shape", f"the rejected answer to {about}: {'; '.join(problems)} "
                           '(expected {"type": "rejected", "reason": text, "rule": optional '
                           "rule ID})")


def check_hello(answer: dict[str, Any]) -> dict[str, Any]:
    """Check the ``hello`` answer's fields (``handshake`` faults); return it."""
    if answer.get("type") != "hello":
        raise AdapterFault("handshake", f"the answer to hello is of type "
                           f"{_show(answer.get('type'))}, not hello")
    if answer.get("protocol") != PROTOCOL_NAME:
        raise AdapterFault("handshake", f"expected a hello of protocol {PROTOCOL_NAME!r}, got "
                           f"{_show(answer.get('protocol'))}")
    if answer.get("version") != PROTOCOL_VERSION or type(answer.get("version")) is not int:
        raise AdapterFault("handshake", f"adapter speaks protocol version "
                           f"{_show(answer.get('version'), 20)}, the runner {PROTOCOL_VERSION}")
    unknown = sorted(str(k) for k in set(answer) - {"id", "type", "protocol", "version", "name",
                                                    "supports"})
    if unknown:
        raise AdapterFault("handshake", f"unknown field(s) in hello: {_clip(', '.join(unknown))}")
    if not isinstance(answer.get("name"), str):
        raise AdapterFault("handshake", "hello.name must be text (the implementation's name)")
    supports = answer.get("supports")
    if not isinstance(supports, dict) or not isinstance(supports.get("players"), list) \
            or not isinstance(supports.get("switches", {}), dict):
        raise AdapterFault("handshake", 'hello.supports must be {"players": [...], '
                           '"switches": {...}}')
    return answer


@dataclass(frozen=True)
class Supports:
    """An adapter's ``hello``: its name, player counts and switch values."""

    name: str
    players: tuple[int, ...]
    switches: dict[str, Any]

    def allows(self, ruleset: Ruleset) -> list[str]:
        """The switches of ``ruleset`` outside what the adapter supports.

        A switch the adapter leaves out is supported at its default value
        only; a listed switch at the listed values only.
        """
        default = Ruleset()
        out = []
        for f in fields(Ruleset):
            value = getattr(ruleset, f.name)
            declared = self.switches.get(f.name)
            if declared == "any":
                continue
            if declared is None:
                allowed = [getattr(default, f.name)]
            else:
                allowed = switch_values(f.name, declared)
            if value not in allowed:
                shown = ruleset.to_dict()[f.name]
                text = ",".join(shown) if isinstance(shown, list) else str(shown)
                out.append(f"{f.name}={text}")
        return out


def switch_values(name: str, declared: list[Any]) -> list[Any]:
    """The values a ``supports.switches`` entry lists, as the ruleset holds them."""
    out = []
    for i, value in enumerate(declared):
        try:
            out.append(getattr(Ruleset.from_dict({name: value}, "-"), name))
        except RulesRefError as exc:
            reason = str(exc).split(": ", 1)[-1]
            raise RulesRefError(f"hello.supports.switches.{name}[{i}]: {reason}") from None
    return out


#: At most this many values may be listed for one switch in ``hello.supports``.
MAX_SWITCH_VALUES = 1000


def parse_supports(hello: dict[str, Any]) -> Supports:
    """Check ``hello.supports`` and return it; a bad declaration is a handshake fault."""
    supports = hello.get("supports")
    if not isinstance(supports, dict):
        raise AdapterFault("handshake", 'hello.supports must be {"players": [...], '
                           '"switches": {...}}')
    players = supports.get("players")
    if (not isinstance(players, list) or not players
            or not all(type(p) is int and MIN_PLAYERS <= p <= MAX_PLAYERS for p in players)):
        raise AdapterFault("handshake", f"hello.supports.players must be a non-empty list of "
                           f"player counts {MIN_PLAYERS}-{MAX_PLAYERS}, got {_show(players, 80)}")
    switches = supports.get("switches", {})
    if not isinstance(switches, dict):
        raise AdapterFault("handshake", "hello.supports.switches must be an object")
    unknown_keys = sorted(str(k) for k in set(supports) - {"players", "switches"})
    if unknown_keys:
        raise AdapterFault("handshake", f"unknown field(s) in hello.supports: "
                           f"{_clip(', '.join(unknown_keys))}")
    checked: dict[str, Any] = {}
    for name, declared in switches.items():
        if name not in SWITCHES:
            raise AdapterFault("handshake", f"hello.supports.switches: unknown switch "
                               f"{_show(name)}; known: {', '.join(SWITCHES)}")
        if declared == "any":
            checked[name] = "any"
            continue
        if not isinstance(declared, list) or not declared or len(declared) > MAX_SWITCH_VALUES:
            raise AdapterFault("handshake", f"hello.supports.switches.{name}: expected \"any\" "
                               f"or a list of 1 to {MAX_SWITCH_VALUES} values, got "
                               f"{_show(declared, 60)}")
        try:
            switch_values(name, declared)
        except RulesRefError as exc:
            raise AdapterFault("handshake", str(exc)) from None
        checked[name] = list(declared)
    name = str(hello.get("name", ""))
    if len(name) > 200:
        name = name[:200] + "…"
    return Supports(name, tuple(sorted(set(players))), checked)


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

    def _read_line(self, msg_id: int, what: str) -> bytes | None:
        """The next line of standard output; ``None`` at end of file or once the adapter exited."""
        buffer = self._buffer
        deadline = time.monotonic() + self.timeout
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
                                     f"{self.timeout:g} s"
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

    def receive(self, msg_id: int, what: str) -> dict[str, Any]:
        """Read the response to request ``msg_id`` within the timeout."""
        raw = self._read_line(msg_id, what)
        if raw is None:
            if self._buffer:
                self._seen.append(_shown(self._buffer) + "   (no end of line)")
            raise self._exited(msg_id, what, self._holder)
        self._seen.append(_evidence(raw.rstrip(b"\n")))
        try:
            return decode_answer(raw, msg_id, what)
        except AdapterFault as exc:
            raise self.fault(exc.kind, exc.detail) from None

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        msg_id = self.send(message)
        return self.receive(msg_id, str(message.get("type")))

    def hello(self) -> dict[str, Any]:
        """The handshake: returns the adapter's ``hello`` answer, checked.

        The protocol name and version must match; ``name`` must be text and
        ``supports`` must list player counts and switches (their values are
        checked by :func:`parse_supports`).
        """
        answer = self.request({"type": "hello", "protocol": PROTOCOL_NAME,
                               "versions": [PROTOCOL_VERSION]})
        try:
            return check_hello(answer)
        except AdapterFault as exc:
            raise self.fault(exc.kind, exc.detail) from None

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
