"""An adapter that answers like the reference until its fault triggers.

Run it as ``python tests/hostile/fault_adapter.py MODE``. It speaks
``spec/protocol.md`` through :class:`rules_ref.protocol.reference_adapter.ReferenceAdapter`
and breaks the protocol in one way, chosen by ``MODE`` (see :data:`MODES`),
at one message. Before it breaks anything it writes
``fault-adapter: MODE at message N`` on standard error, so that a test can
find that line among the evidence a runner reports.

The modes of :data:`MODES` speak protocol version 1 (so that their faults
stay where version 1 puts them); those of :data:`V2_MODES` speak version 2,
declaring every capability (``position``, ``batch``, ``observe``, ``changes``), and break
what version 2 adds: each triggers at the first request of its kind whose id
is ``FAULT_AT`` or later (a ``batch``, an ``observe``, a ``start`` from a
position), or at the handshake.

Environment:

``FAULT_AT``
    The message at which the fault happens (the ``hello`` is message 0;
    default 2). The handshake faults (``banner``, ``bad-hello``) ignore it.
``FAULT_TIMEOUT``
    The runner's ``--timeout`` in seconds (default 1): the slow modes answer
    at a fraction or a multiple of it.
``FAULT_PIDS``
    A file to which the adapter appends ``PID GRANDCHILD`` when it starts
    (``GRANDCHILD`` is 0 when it starts none), so that a test can check that
    no process is left behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any, BinaryIO

from rules_ref.protocol.reference_adapter import ReferenceAdapter

#: Every mode and what it does at the fault message.
MODES: dict[str, str] = {
    "invalid-json": "writes a line that is not JSON",
    "not-object": "writes a JSON list instead of an object",
    "wrong-shape": "writes an observation without most of its fields",
    "wrong-type": "writes a field of the wrong type (a number as text)",
    "unknown-field": "adds a field the protocol does not have",
    "float": "writes the id as 2.0 (the protocol has only integers)",
    "huge-number": "writes an id of 5000 digits",
    "deep-nesting": "writes a value nested 100000 lists deep",
    "nan": "writes NaN (not JSON)",
    "empty-line": "writes an empty line",
    "long-line": "writes a line of 2 MiB",
    "invalid-utf8": "writes a line that is not UTF-8",
    "split": "writes every answer from then on in three pieces, the first with a pause "
             "(legal: the line completes in time)",
    "no-newline": "writes the answer without its end of line, then falls silent",
    "flood": "writes without end, no end of line",
    "flood-lines": "writes the answer followed by a thousand copies of it",
    "stderr-flood": "writes 16 MiB on standard error, then answers (legal)",
    "unsolicited": "writes the answer, then a log message nobody asked for",
    "banner": "writes a greeting line before the handshake",
    "early-message": "writes a JSON message (without an id) before the handshake",
    "second-hello": "answers with a second hello",
    "bad-hello": "declares 4 players in its hello",
    "wrong-id": "answers with the id of the previous request",
    "rejected-shape": "rejects without a reason",
    "hang": "never answers (and ignores SIGTERM)",
    "slow-under": "answers after half the timeout (legal)",
    "slow-over": "answers after twice the timeout",
    "exit": "exits with status 3 without answering",
    "signal": "kills itself with SIGUSR1",
    "close-stdout": "closes its standard output and goes on running",
    "grandchild": "starts a process that keeps its output open, then exits",
    "grandchild-hang": "starts a process that keeps its output open, then hangs",
    "linger": "answers everything, bye included, but does not exit (legal)",
}

#: Version-2 modes: the request they break, and what they do to it.
V2_MODES: dict[str, tuple[str, str]] = {
    "v2-internal-error": ("batch", "answers a batch as a whole with an error (legal: an internal "
                                   "error of the implementation)"),
    "v2-error-on-start": ("start", "answers a start with an error (legal: an internal error)"),
    "batch-item-error": ("batch", "answers the third action of a batch with an error and stops "
                                  "there (legal: an internal error)"),
    "batch-error-then-more": ("batch", "answers the third action with an error, yet answers "
                                       "the rest too"),
    "batch-short": ("batch", "leaves out the answer to the batch's last action"),
    "batch-long": ("batch", "adds an answer to an action that is not in the batch"),
    "batch-order": ("batch", "swaps the answers to the batch's first two actions"),
    "batch-no-index": ("batch", "answers without the index of each answer"),
    "batch-as-single": ("batch", "answers a batch with a single observation"),
    "batch-rejected": ("batch", "rejects a batch request as unknown"),
    "batch-wrong-shape": ("batch", "answers one action of a batch with an observation without "
                                   "most of its fields"),
    "error-shape": ("batch", "answers with an error without a message"),
    "observe-rejected": ("observe", "rejects an observe request"),
    "observe-wrong": ("observe", "answers observe with the observation of another game "
                                 "(another deal number)"),
    "position-rejected": ("position", "rejects every start from a position"),
    "bad-capability": ("hello", "declares a capability the protocol does not have"),
    "v1-capabilities": ("hello", "declares capabilities in a version-1 hello"),
}

#: The modes whose fault is in the handshake, whatever ``FAULT_AT`` says.
HANDSHAKE_MODES = ("banner", "early-message", "bad-hello", "bad-capability", "v1-capabilities")


def _log(text: str) -> None:
    sys.stderr.write(f"fault-adapter: {text}\n")
    sys.stderr.flush()


def _sleep_forever() -> None:
    while True:
        time.sleep(3600)


def _grandchild() -> int:
    """A process that inherits the adapter's output and ignores SIGTERM."""
    child = subprocess.Popen([sys.executable, "-c",
                              "import signal, time\n"
                              "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                              "time.sleep(3600)\n"])
    return child.pid


class FaultAdapter:
    def __init__(self, mode: str, at: int, timeout: float, out: BinaryIO) -> None:
        self.mode = mode
        self.at = at
        self.timeout = timeout
        self.out = out
        self.reference = ReferenceAdapter(protocol=2 if mode in V2_MODES else 1)
        self.v2_done = False

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.out.flush()

    def line(self, answer: dict[str, Any]) -> bytes:
        return json.dumps(answer, separators=(",", ":")).encode() + b"\n"

    def answer(self, msg: dict[str, Any]) -> dict[str, Any]:
        answer = {"id": msg.get("id"), **self.reference.handle(msg)}
        if msg.get("type") == "hello" and self.mode == "bad-hello":
            answer["supports"] = {"players": [4, 8]}
        if msg.get("type") == "hello" and self.mode == "bad-capability":
            _log("bad-capability at message 0")
            answer["capabilities"] = ["batch", "FAULT-MARK"]
        if msg.get("type") == "hello" and self.mode == "v1-capabilities":
            _log("v1-capabilities at message 0")
            answer.update(version=1, capabilities=["batch"], name="FAULT-MARK")
        return answer

    def v2_due(self, msg: dict[str, Any]) -> bool:
        """True at the first request this version-2 mode breaks (at or after ``FAULT_AT``)."""
        if self.mode not in V2_MODES or self.v2_done or not isinstance(msg.get("id"), int) \
                or msg["id"] < self.at:
            return False
        kind = V2_MODES[self.mode][0]
        request = msg.get("type")
        due = (kind == request and (kind != "start" or "position" not in msg)) or (
            kind == "position" and request == "start" and "position" in msg)
        self.v2_done = due
        return due

    def v2_fault(self, msg: dict[str, Any], answer: dict[str, Any]) -> None:
        mode, n = self.mode, msg["id"]
        _log(f"{mode} at message {n}")
        if mode in ("v2-internal-error", "v2-error-on-start"):
            answer = {"id": n, "type": "error", "message": "FAULT-MARK: the engine crashed"}
        elif mode == "error-shape":
            answer = {"id": n, "type": "error", "reason": "FAULT-MARK"}
        elif mode in ("observe-rejected", "position-rejected", "batch-rejected"):
            answer = {"id": n, "type": "rejected", "reason": f"FAULT-MARK: unknown request "
                      f"{msg.get('type')}"}
        elif mode == "observe-wrong":
            answer["deal_number"] = answer.get("deal_number", 0) + 1
        else:
            items: list[dict[str, Any]] = answer["answers"]
            if mode in ("batch-item-error", "batch-error-then-more") and len(items) > 3:
                items[2] = {"index": 2, "type": "error", "message": "FAULT-MARK: crashed"}
                if mode == "batch-item-error":
                    del items[3:]
            elif mode == "batch-short":
                items.pop()
            elif mode == "batch-long":
                items.append({**items[-1], "index": len(items)})
            elif mode == "batch-order" and len(items) > 1:
                items[0], items[1] = items[1], items[0]
            elif mode == "batch-no-index":
                for item in items:
                    del item["index"]
            elif mode == "batch-as-single":
                answer = {"id": n, **self.reference.current(msg)}
            elif mode == "batch-wrong-shape":
                items[1] = {"index": 1, "type": "observation", "phase": "FAULT-MARK"}
        self.write(self.line(answer))

    def serve(self, stdin: BinaryIO) -> int:
        if self.mode == "banner":
            _log("banner at message 0")
            self.write(b"fault-adapter 1.0 ready\n")
        elif self.mode == "early-message":
            _log("early-message at message 0")
            self.write(b'{"type":"log","text":"FAULT-MARK starting"}\n')
        for raw in stdin:
            msg = json.loads(raw)
            n = msg.get("id")
            answer = self.answer(msg)
            due = n == self.at and self.mode not in HANDSHAKE_MODES and self.mode in MODES
            if self.v2_due(msg):
                self.v2_fault(msg, answer)
            elif due:
                _log(f"{self.mode} at message {n}")
                self.fault(n, answer)
            elif self.mode == "split" and isinstance(n, int) and n > self.at:
                self.split(self.line(answer), 0.001)
            else:
                self.write(self.line(answer))
            if answer["type"] == "bye":
                if self.mode == "linger":
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                    _sleep_forever()
                return 0
        if self.mode == "linger":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            _sleep_forever()
        return 0

    def split(self, data: bytes, pause: float) -> None:
        third = max(1, len(data) // 3)
        for piece in (data[:third], data[third:2 * third], data[2 * third:]):
            self.write(piece)
            time.sleep(pause)

    def fault(self, n: int, answer: dict[str, Any]) -> None:
        mode, line = self.mode, self.line(answer)
        kind = answer["type"]
        if mode == "invalid-json":
            self.write(b'{"id": %d, "type": observation, FAULT-MARK\n' % n)
        elif mode == "not-object":
            self.write(b'["observation", "FAULT-MARK"]\n')
        elif mode == "wrong-shape":
            self.write(self.line({"id": n, "type": "observation", "phase": "FAULT-MARK"}))
        elif mode == "wrong-type":
            if kind == "observation":
                answer["deal_number"] = "FAULT-MARK"
            else:
                answer["reason"] = ["FAULT-MARK"]
            self.write(self.line(answer))
        elif mode == "unknown-field":
            self.write(self.line({**answer, "colour": "FAULT-MARK"}))
        elif mode == "float":
            self.write(line.replace(b'{"id":%d,' % n, b'{"id":%d.0,' % n, 1))
        elif mode == "huge-number":
            self.write(b'{"id":1' + b"0" * 5000 + b',"type":"FAULT-MARK"}\n')
        elif mode == "deep-nesting":
            self.write(b'{"id":%d,"type":"FAULT-MARK","x":' % n + b"[" * 100_000
                       + b"]" * 100_000 + b"}\n")
        elif mode == "nan":
            self.write(b'{"id":%d,"type":"FAULT-MARK","points":NaN}\n' % n)
        elif mode == "empty-line":
            self.write(b"\n")
        elif mode == "long-line":
            self.write(b'{"id":%d,"type":"FAULT-MARK","x":"' % n + b"x" * (2 << 20) + b'"}\n')
        elif mode == "invalid-utf8":
            self.write(b'{"id":%d,"type":"rejected","reason":"FAULT-MARK \xff\xfe"}\n' % n)
        elif mode == "split":
            self.split(line, self.timeout * 0.15)
        elif mode == "no-newline":
            self.write(line.rstrip(b"\n"))
            _sleep_forever()
        elif mode == "flood":
            chunk = b"FAULT-MARK " * 6000
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                self.write(chunk)
        elif mode == "flood-lines":
            self.write(line * 1001)
        elif mode == "stderr-flood":
            chunk = b"e" * 65535 + b"\n"
            for _ in range(256):
                sys.stderr.buffer.write(chunk)
            sys.stderr.flush()
            self.write(line)
        elif mode == "unsolicited":
            self.write(line + b'{"type":"log","text":"FAULT-MARK"}\n')
        elif mode == "second-hello":
            hello = {"id": n, **self.reference.hello()}
            hello["name"] = "FAULT-MARK"
            self.write(self.line(hello))
        elif mode == "wrong-id":
            self.write(line.replace(b'{"id":%d,' % n, b'{"id":%d,' % (n - 1), 1))
        elif mode == "rejected-shape":
            self.write(b'{"id":%d,"type":"rejected","rule":"FAULT-MARK"}\n' % n)
        elif mode in ("hang", "grandchild-hang"):
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            _sleep_forever()
        elif mode == "slow-under":
            time.sleep(self.timeout * 0.5)
            self.write(line)
        elif mode == "slow-over":
            time.sleep(self.timeout * 2)
            self.write(line)
        elif mode == "exit":
            os._exit(3)
        elif mode == "signal":
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(5)
        elif mode == "close-stdout":
            self.out.close()
            os.close(1)
            _sleep_forever()
        elif mode == "grandchild":
            os._exit(0)
        else:
            self.write(line)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or (argv[1] not in MODES and argv[1] not in V2_MODES):
        print(f"usage: fault_adapter.py MODE; modes: {', '.join([*MODES, *V2_MODES])}",
              file=sys.stderr)
        return 2
    mode = argv[1]
    at = int(os.environ.get("FAULT_AT", "2"))
    timeout = float(os.environ.get("FAULT_TIMEOUT", "1"))
    grandchild = _grandchild() if mode.startswith("grandchild") else 0
    pids = os.environ.get("FAULT_PIDS")
    if pids:
        with open(pids, "a", encoding="ascii") as fh:
            fh.write(f"{os.getpid()} {grandchild}\n")
    return FaultAdapter(mode, at, timeout, sys.stdout.buffer).serve(sys.stdin.buffer)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
