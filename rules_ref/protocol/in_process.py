"""An adapter answering in the runner's own process: the conversation without the pipe.

:class:`InProcessAdapter` speaks the protocol exactly as
:class:`~rules_ref.protocol.client.AdapterProcess` does, checks every answer
the same way and raises the same :class:`AdapterFault` s, but hands each
request line to an adapter object (:class:`Answerer`, as
:class:`~rules_ref.protocol.reference_adapter.ReferenceAdapter` answers a
line) instead of writing it to a process. An object that raises while it
answers has ended, as the adapter program exits when it cannot answer a
line; what it raised is its standard error.

There is no process, so no timeout, no crash and no stray output: what is
about the wire is the pipe's alone. :func:`in_process` makes the connection
a conformance run starts (:attr:`~rules_ref.conform.outcome.Config.connect`).
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .client import AdapterProcess, Connect
from .messages import MAX_LINE_BYTES, AdapterFault, evidence_line, shown_bytes
from .pipe import DEFAULT_TIMEOUT

#: The exit status of an adapter object that raised one of its ``unanswerable`` errors
#: (the adapter program's, once it said so), and of one that raised anything else.
UNANSWERED_STATUS = 2
CRASHED_STATUS = 1


class Answerer(Protocol):
    """An adapter object: the answer to one request line, with the request's ``id``."""

    name: str

    def answer(self, line: str) -> dict[str, Any]: ...


class InProcessAdapter(AdapterProcess):
    """The conversation with ``adapter``, an object in this process. Use as a context manager,
    or call :meth:`close`.

    ``unanswerable`` are the errors the adapter raises for a line it cannot
    answer (its exit status 2); anything else it raises is a crash (status 1).
    """

    def __init__(self, adapter: Answerer, timeout: float = DEFAULT_TIMEOUT,
                 max_line: int = MAX_LINE_BYTES,
                 unanswerable: tuple[type[Exception], ...] = ()) -> None:
        self.adapter = adapter
        self.unanswerable = unanswerable
        super().__init__(["in-process", adapter.name], timeout, max_line)

    def _spawn(self, env: dict[str, str] | None) -> None:
        self._answers: deque[bytes] = deque()
        self._status: int | None = None
        self._error = ""

    @property
    def pid(self) -> int:
        return os.getpid()

    def alive(self) -> bool:
        return not self._closed and self._status is None

    def stderr_tail(self) -> str:
        return self._error

    def fault(self, kind: str, message: str) -> AdapterFault:
        """An :class:`AdapterFault` with the evidence; the conversation is over."""
        self._broken = True
        seen = [item if isinstance(item, str) else shown_bytes(item) for item in self._seen]
        return AdapterFault(kind, message, seen, self._error, self._status)

    def _exited(self, msg_id: int, what: str, holder: bool = False) -> AdapterFault:
        return self.fault("exit", f"the adapter exited with status {self._status} instead of "
                          f"answering message {msg_id} ({what})")

    def _unsolicited(self, msg_id: int, kind: str) -> None:
        """An object answers only when asked: it never writes unasked."""

    def _write(self, msg_id: int, kind: str, line: str) -> None:
        if self._status is not None:
            raise self._exited(msg_id, kind)
        try:
            answer = self.adapter.answer(line + "\n")
        except self.unanswerable as exc:
            self._end(UNANSWERED_STATUS, f"adapter: cannot answer {line[:200]!r}: {exc}\n")
        except Exception as exc:  # the object failed: it has ended, as a process would
            self._end(CRASHED_STATUS, f"{type(exc).__name__}: {exc}\n")
        else:
            self._answers.append(json.dumps(answer, separators=(",", ":")).encode() + b"\n")
        self._awaiting += 1

    def _end(self, status: int, error: str) -> None:
        self._status = status
        self._error = error
        self._eof = True

    def _read_line(self, msg_id: int, what: str, timeout: float) -> bytes | None:
        if not self._answers:
            return None
        line = self._answers.popleft()
        if len(line) > self.max_line + 1:
            self._seen.append(evidence_line(line))
            raise self.fault("too-long", f"answer to message {msg_id} ({what}) is longer "
                             f"than {self.max_line} bytes")
        return line

    def close(self, grace: float = 1.0) -> int | None:
        """Say bye; return the adapter's exit status (0 after its bye)."""
        if self._closed:
            return self._status
        self._closed = True
        if self._status is None and not self._broken:
            try:
                self.request({"type": "bye"})
            except AdapterFault:
                pass
            else:
                self._status = 0
        return self._status


def in_process(build: Callable[[], Answerer],
               unanswerable: tuple[type[Exception], ...] = ()) -> Connect:
    """The connection of a run to a fresh adapter object ``build()`` each time one starts,
    answering in this process (the command names it in the run's words only)."""

    def connect(command: Sequence[str], timeout: float) -> AdapterProcess:
        return InProcessAdapter(build(), timeout, unanswerable=unanswerable)

    return connect
