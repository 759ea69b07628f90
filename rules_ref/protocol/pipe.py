"""The pipe to an adapter process: starting it, one JSON line each way, the evidence, the end.

:class:`AdapterPipe` starts the adapter command (an argument list, never a
shell), writes one JSON request per line to its standard input and reads
one JSON response per line from its standard output, with a timeout on every
message and a limit on line length. Whatever goes wrong (the command cannot
start, it exits, crashes, hangs, prints garbage, prints something nobody
asked for, answers another request) raises :class:`AdapterFault` with a
clear message and the evidence: the last lines the adapter printed on
standard output, the tail of its standard error, and its exit status.
:meth:`AdapterPipe.close` always leaves no process behind: the adapter runs
in a process group of its own, and the whole group is ended.

Responses are read in the calling thread (``poll`` on the pipe, no thread
hand-off per message), so a request costs little more than the adapter's own
work; standard error is drained by a background thread into a bounded
buffer, so that an adapter that logs a lot never blocks and never fills the
runner's memory. What the messages mean (the handshake, protocol version 2)
is :class:`~rules_ref.protocol.client.AdapterProcess`'s business, built on this class.
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
from typing import Any, Self

from ..errors import RulesRefError
from .handshake import ruleset_for
from .messages import (
    EVIDENCE_CHARS,
    EVIDENCE_LINES,
    MAX_LINE_BYTES,
    AdapterFault,
    decode_answer,
    describe_status,
    evidence_line,
    shown_bytes,
)

DEFAULT_TIMEOUT = 10.0
_READ_CHUNK = 1 << 16
#: While waiting for an answer, how often the runner checks that the adapter still runs.
_EXIT_CHECK = 0.1


class AdapterPipe:
    """One running adapter and the lines exchanged with it. Use as a context manager, or call
    :meth:`close`."""

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
        #: Requests sent whose answer is not read yet: output waiting while none is, is
        #: output nobody asked for.
        self._awaiting = 0
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
        #: The switches the adapter declared (``hello.supports.switches``); ``None`` before
        #: the handshake. A ``start`` names the later switches only when declared.
        self.switches: dict[str, Any] | None = None
        #: The ruleset every ``start`` names instead of its game's (``None``: its game's):
        #: ``rules-ref fit`` plays the reference under one ruleset after another while the
        #: adapter is told the same one throughout (:attr:`rules_ref.conform.outcome.Config.told`).
        self.told: dict[str, Any] | None = None
        #: The last observation the adapter sent: what a ``changes`` answer changes.
        self._observation: dict[str, Any] | None = None
        self._spawn(env)

    def _spawn(self, env: dict[str, str] | None) -> None:
        """Start the adapter command, its pipes and the reader of its standard error."""
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
        seen = [item if isinstance(item, str) else shown_bytes(item) for item in self._seen]
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

    def _unsolicited(self, msg_id: int, kind: str) -> None:
        """Output waiting before a request is sent, while no answer is awaited, is output
        nobody asked for."""
        if self._awaiting:
            return
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
            self._seen.append(shown_bytes(first))
            raise self.fault("unsolicited", f"the adapter wrote output nobody asked for before "
                             f"message {msg_id} ({kind}) was sent: {shown_bytes(first, 80)!r}")

    def send(self, message: dict[str, Any]) -> int:
        """Write one request (an ``id`` is added) and return its id."""
        msg_id = self._next_id
        self._next_id += 1
        kind = str(message.get("type"))
        self._unsolicited(msg_id, kind)
        body = {k: v for k, v in message.items() if k != "id"}
        if body.get("type") == "start" and isinstance(body.get("ruleset"), dict):
            if self.told is not None:
                body["ruleset"] = dict(self.told)
            if self.switches is not None:
                body["ruleset"] = ruleset_for(body["ruleset"], self.switches)
        self._write(msg_id, kind, json.dumps({"id": msg_id, **body}, separators=(",", ":")))
        return msg_id

    def send_encoded(self, kind: str, fields: str) -> int:
        """Write one request of type ``kind`` whose other fields are the JSON text ``fields``
        (``"name":value,...``, already encoded); return its id."""
        msg_id = self._next_id
        self._next_id += 1
        self._unsolicited(msg_id, kind)
        self._write(msg_id, kind, f'{{"id":{msg_id},"type":"{kind}",{fields}}}')
        return msg_id

    def _write(self, msg_id: int, kind: str, line: str) -> None:
        """Write request ``msg_id`` (of type ``kind``), the JSON text ``line``, and its end."""
        data = memoryview((line + "\n").encode())
        deadline = time.monotonic() + self.timeout
        try:
            while data:
                try:
                    written = os.write(self._in_fd, data)
                except BlockingIOError:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or not self._writer.poll(remaining * 1000):
                        raise self.fault("timeout", f"the adapter does not read its input: "
                                         f"message {msg_id} ({kind}) could not be written "
                                         f"within {self.timeout:g} s") from None
                    continue
                data = data[written:]
            self._awaiting += 1
        except (BrokenPipeError, OSError, ValueError):
            if self.proc.poll() is not None or self._eof:
                raise self._exited(msg_id, kind) from None
            raise self.fault("exit", f"the adapter closed its input before message {msg_id} "
                             f"({kind})") from None

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
                    self._seen.append(evidence_line(line))
                    raise self.fault("too-long", f"answer to message {msg_id} ({what}) is longer "
                                     f"than {self.max_line} bytes")
                return line
            if len(buffer) > self.max_line:
                self._seen.append(shown_bytes(buffer))
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
                        self._seen.append(shown_bytes(buffer) + "   (no end of line)")
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
                self._seen.append(shown_bytes(self._buffer) + "   (no end of line)")
            raise self._exited(msg_id, what, self._holder)
        self._seen.append(evidence_line(raw.rstrip(b"\n")))
        self._awaiting -= 1
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

