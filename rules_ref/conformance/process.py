"""Running an implementation under test: the runner's side of ``spec/protocol.md``.

:class:`AdapterProcess` starts the adapter command (an argument list, never
a shell), writes one JSON request per line to its standard input and reads
one JSON response per line from its standard output, with a timeout on every
message and a limit on line length. Whatever goes wrong (the command cannot
start, it exits, crashes, hangs, prints garbage or a message of the wrong
shape) raises :class:`AdapterFault` with a clear message and the evidence:
the last lines the adapter printed on standard output and standard error.
:meth:`AdapterProcess.close` always leaves no process behind.

Responses are read in the calling thread (``select`` on the pipe, no thread
hand-off per message), so a request costs little more than the adapter's own
work; standard error is drained by a background thread so that an adapter
that logs a lot never blocks.
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
from .observation import PROTOCOL_NAME, PROTOCOL_VERSION

DEFAULT_TIMEOUT = 10.0
MAX_LINE_BYTES = 1024 * 1024
EVIDENCE_LINES = 20
EVIDENCE_CHARS = 2000
_READ_CHUNK = 1 << 16

#: The kinds of :class:`AdapterFault`.
FAULT_KINDS = ("start", "exit", "timeout", "too-long", "not-json", "not-utf8", "shape",
               "handshake")


class AdapterFault(RulesRefError):
    """The adapter broke the protocol (not a rules disagreement).

    ``kind`` is one of :data:`FAULT_KINDS`: ``start``, ``exit``, ``timeout``,
    ``too-long``, ``not-json``, ``not-utf8``, ``shape``, ``handshake``.
    """

    def __init__(self, kind: str, message: str, stdout: Sequence[str] = (),
                 stderr: str = "", exit_status: int | None = None) -> None:
        self.kind = kind
        self.detail = message
        self.stdout = list(stdout)
        self.stderr = stderr
        self.exit_status = exit_status
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
    if status < 0:
        try:
            return f"killed by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return str(status)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


class _NotInteger(ValueError):
    pass


def _reject_float(text: str) -> Any:
    raise _NotInteger(f"the number {text[:40]} is not an integer (the protocol has only "
                      "integers)")


def _reject_constant(text: str) -> Any:
    raise _NotInteger(f"{text} is not JSON")


_DECODER = json.JSONDecoder(parse_float=_reject_float, parse_constant=_reject_constant)


class AdapterProcess:
    """One running adapter. Use as a context manager, or call :meth:`close`."""

    def __init__(self, command: Sequence[str], timeout: float = DEFAULT_TIMEOUT,
                 max_line: int = MAX_LINE_BYTES, env: dict[str, str] | None = None) -> None:
        if not command:
            raise AdapterFault("start", "no adapter command given (put it after --)")
        self.command = list(command)
        self.timeout = timeout
        self.max_line = max_line
        self._next_id = 0
        self._buffer = bytearray()
        self._eof = False
        self._seen: deque[str] = deque(maxlen=EVIDENCE_LINES)
        self._stderr: deque[bytes] = deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self._closed = False
        self._broken = False  # after a fault the conversation is out of step: no bye
        try:
            self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, env=env, bufsize=0)
        except FileNotFoundError:
            raise AdapterFault("start", f"command not found: {self.command[0]}") from None
        except PermissionError:
            raise AdapterFault("start", f"not executable: {self.command[0]}") from None
        except OSError as exc:
            raise AdapterFault("start", f"cannot run {self.command[0]}: {exc.strerror}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in_fd = self.proc.stdin.fileno()
        self._out_fd = self.proc.stdout.fileno()
        self._poller = select.poll()
        self._poller.register(self._out_fd, select.POLLIN | select.POLLHUP | select.POLLERR)
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
        self._broken = True
        status = self.proc.poll()
        if status is None and kind == "exit":
            with contextlib.suppress(subprocess.TimeoutExpired):
                status = self.proc.wait(timeout=0.5)
        time.sleep(0.02)  # let the stderr reader catch the adapter's last words
        return AdapterFault(kind, message, list(self._seen), self.stderr_tail(), status)

    def send(self, message: dict[str, Any]) -> int:
        """Write one request (an ``id`` is added) and return its id."""
        msg_id = self._next_id
        self._next_id += 1
        line = json.dumps({"id": msg_id, **message}, separators=(",", ":")) + "\n"
        data = memoryview(line.encode())
        try:
            while data:
                written = os.write(self._in_fd, data)
                data = data[written:]
        except (BrokenPipeError, OSError, ValueError):
            raise self.fault("exit", f"the adapter closed its input before message {msg_id} "
                             f"({message.get('type')})") from None
        return msg_id

    def _read_line(self, msg_id: int, what: str) -> bytes | None:
        """The next line of standard output, or ``None`` at end of file."""
        buffer = self._buffer
        deadline = time.monotonic() + self.timeout
        start = 0
        while True:
            end = buffer.find(b"\n", start)
            if end >= 0:
                line = bytes(buffer[:end + 1])
                del buffer[:end + 1]
                if len(line) > self.max_line + 1:
                    self._seen.append(_clip(line[:400].decode("utf-8", "replace")))
                    raise self.fault("too-long", f"answer to message {msg_id} is longer than "
                                     f"{self.max_line} bytes")
                return line
            if len(buffer) > self.max_line:
                self._seen.append(_clip(buffer[:400].decode("utf-8", "replace")))
                raise self.fault("too-long", f"answer to message {msg_id} is longer than "
                                 f"{self.max_line} bytes")
            if self._eof:
                return None
            start = len(buffer)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._poller.poll(remaining * 1000):
                if buffer:
                    self._seen.append(_clip(buffer[:400].decode("utf-8", "replace")))
                raise self.fault("timeout", f"no answer to message {msg_id} ({what}) within "
                                 f"{self.timeout:g} s")
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
                self._seen.append(_clip(self._buffer[:400].decode("utf-8", "replace")))
            raise self.fault("exit", f"the adapter closed its output instead of answering "
                             f"message {msg_id} ({what})")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._seen.append(_clip(raw.decode("utf-8", "replace")))
            raise self.fault("not-utf8", f"answer to message {msg_id} is not UTF-8 "
                             f"(byte {exc.start})") from None
        self._seen.append(_clip(text.rstrip("\n")))
        try:
            data = _DECODER.decode(text)
        except _NotInteger as exc:
            raise self.fault("shape", f"answer to message {msg_id}: {exc}") from None
        except (json.JSONDecodeError, RecursionError) as exc:
            raise self.fault("not-json", f"answer to message {msg_id} is not JSON: "
                             f"{getattr(exc, 'msg', exc)}") from None
        if type(data) is not dict:
            raise self.fault("shape", f"answer to message {msg_id} is not a JSON object")
        if data.get("id") != msg_id or type(data.get("id")) is not int:
            raise self.fault("shape", f"answer has id {data.get('id')!r:.40}, expected {msg_id}")
        return data

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        msg_id = self.send(message)
        return self.receive(msg_id, str(message.get("type")))

    def hello(self) -> dict[str, Any]:
        """The handshake: returns the adapter's ``hello`` answer, checked.

        The protocol name and version must match; ``name`` must be text and
        ``supports`` must list player counts and switches (their values are
        checked by the runner, which knows the switches).
        """
        answer = self.request({"type": "hello", "protocol": PROTOCOL_NAME,
                               "versions": [PROTOCOL_VERSION]})
        if answer.get("type") != "hello" or answer.get("protocol") != PROTOCOL_NAME:
            raise self.fault("handshake", f"expected a hello of protocol {PROTOCOL_NAME!r}")
        if answer.get("version") != PROTOCOL_VERSION:
            raise self.fault("handshake", f"adapter speaks protocol version "
                             f"{answer.get('version')!r:.20}, the runner {PROTOCOL_VERSION}")
        unknown = sorted(set(answer) - {"id", "type", "protocol", "version", "name", "supports"})
        if unknown:
            raise self.fault("handshake", f"unknown field(s) in hello: {', '.join(unknown)}")
        if not isinstance(answer.get("name"), str):
            raise self.fault("handshake", "hello.name must be text (the implementation's name)")
        supports = answer.get("supports")
        if not isinstance(supports, dict) or not isinstance(supports.get("players"), list) \
                or not isinstance(supports.get("switches", {}), dict):
            raise self.fault("handshake", 'hello.supports must be {"players": [...], '
                             '"switches": {...}}')
        return answer

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
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                continue
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        for t in self._threads:
            t.join(timeout=grace)
        return self.proc.poll()

    def __enter__(self) -> AdapterProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
