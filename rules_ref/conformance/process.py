"""Running an implementation under test: the runner's side of ``spec/protocol.md``.

:class:`AdapterProcess` starts the adapter command (an argument list, never
a shell), writes one JSON request per line to its standard input and reads
one JSON response per line from its standard output, with a timeout on every
message and a limit on line length. Whatever goes wrong (the command cannot
start, it exits, crashes, hangs, prints garbage or a message of the wrong
shape) raises :class:`AdapterFault` with a clear message and the evidence:
the last lines the adapter printed on standard output and standard error.
:meth:`AdapterProcess.close` always leaves no process behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
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


class AdapterFault(RulesRefError):
    """The adapter broke the protocol (not a rules disagreement).

    ``kind`` is one of: ``start``, ``exit``, ``timeout``, ``too-long``,
    ``not-json``, ``not-utf8``, ``shape``, ``handshake``.
    """

    def __init__(self, kind: str, message: str, stdout: Sequence[str] = (),
                 stderr: str = "", exit_status: int | None = None) -> None:
        self.kind = kind
        self.stdout = list(stdout)
        self.stderr = stderr
        self.exit_status = exit_status
        super().__init__(f"adapter {kind}: {message}")

    def evidence(self) -> str:
        """What the adapter printed, for a report."""
        parts = []
        if self.exit_status is not None:
            parts.append(f"exit status: {describe_status(self.exit_status)}")
        if self.stdout:
            parts.append("last stdout lines:\n" + "\n".join(f"  {line}" for line in self.stdout))
        if self.stderr:
            parts.append("stderr (tail):\n" + "\n".join(
                f"  {line}" for line in self.stderr.splitlines()))
        return "\n".join(parts) or "(the adapter printed nothing)"


def describe_status(status: int) -> str:
    if status < 0:
        try:
            return f"killed by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return str(status)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


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
        self._lines: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._seen: deque[str] = deque(maxlen=EVIDENCE_LINES)
        self._stderr: deque[bytes] = deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        try:
            self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, env=env)
        except FileNotFoundError:
            raise AdapterFault("start", f"command not found: {self.command[0]}") from None
        except PermissionError:
            raise AdapterFault("start", f"not executable: {self.command[0]}") from None
        except OSError as exc:
            raise AdapterFault("start", f"cannot run {self.command[0]}: {exc.strerror}") from None
        self._threads = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for t in self._threads:
            t.start()

    # --- reader threads -----------------------------------------------------------------

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        out = self.proc.stdout
        try:
            while True:
                line = out.readline(self.max_line + 1)
                if not line:
                    self._lines.put(("eof", b""))
                    return
                if len(line) > self.max_line and not line.endswith(b"\n"):
                    self._lines.put(("too-long", line[:200]))
                    return
                self._lines.put(("line", line))
        except (OSError, ValueError):
            self._lines.put(("eof", b""))

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        try:
            while True:
                chunk = self.proc.stderr.read1(65536)  # type: ignore[attr-defined]
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
        status = self.proc.poll()
        return AdapterFault(kind, message, list(self._seen), self.stderr_tail(), status)

    def send(self, message: dict[str, Any]) -> int:
        """Write one request (an ``id`` is added) and return its id."""
        msg_id = self._next_id
        self._next_id += 1
        line = json.dumps({"id": msg_id, **message}, separators=(",", ":")) + "\n"
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            time.sleep(0.05)
            raise self.fault("exit", f"the adapter closed its input before message {msg_id} "
                             f"({message.get('type')})") from None
        return msg_id

    def receive(self, msg_id: int, what: str) -> dict[str, Any]:
        """Read the response to request ``msg_id`` within the timeout."""
        deadline = time.monotonic() + self.timeout
        try:
            kind, raw = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise self.fault("timeout", f"no answer to message {msg_id} ({what}) within "
                             f"{self.timeout:g} s") from None
        if kind == "eof":
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=1.0)
            raise self.fault("exit", f"the adapter closed its output instead of answering "
                             f"message {msg_id} ({what})")
        if kind == "too-long":
            self._seen.append(_clip(raw.decode("utf-8", "replace")))
            raise self.fault("too-long", f"answer to message {msg_id} is longer than "
                             f"{self.max_line} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._seen.append(_clip(raw.decode("utf-8", "replace")))
            raise self.fault("not-utf8", f"answer to message {msg_id} is not UTF-8 "
                             f"(byte {exc.start})") from None
        self._seen.append(_clip(text.rstrip("\n")))
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise self.fault("not-json", f"answer to message {msg_id} is not JSON: "
                             f"{getattr(exc, 'msg', exc)}") from None
        if not isinstance(data, dict):
            raise self.fault("shape", f"answer to message {msg_id} is not a JSON object")
        if data.get("id") != msg_id:
            raise self.fault("shape", f"answer has id {data.get('id')!r:.40}, expected {msg_id}")
        return data

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        msg_id = self.send(message)
        return self.receive(msg_id, str(message.get("type")))

    def hello(self) -> dict[str, Any]:
        """The handshake: returns the adapter's ``hello`` answer, checked."""
        answer = self.request({"type": "hello", "protocol": PROTOCOL_NAME,
                               "versions": [PROTOCOL_VERSION]})
        if answer.get("type") != "hello" or answer.get("protocol") != PROTOCOL_NAME:
            raise self.fault("handshake", f"expected a hello of protocol {PROTOCOL_NAME!r}")
        if answer.get("version") != PROTOCOL_VERSION:
            raise self.fault("handshake", f"adapter speaks protocol version "
                             f"{answer.get('version')!r:.20}, the runner {PROTOCOL_VERSION}")
        return answer

    # --- shutdown -----------------------------------------------------------------------

    def close(self, grace: float = 1.0) -> int | None:
        """Say bye, then end the adapter and everything it started; return its exit status."""
        if self.proc.poll() is None:
            try:
                msg_id = self.send({"type": "bye"})
                self.receive(msg_id, "bye")
            except AdapterFault:
                pass
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
