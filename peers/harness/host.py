"""The process that holds an engine: one command a line in, one JSON answer a line out.

Each harness runs its engine in a host of its own (a Node.js script, a Mono program) that
answers every command with ``{"ok": …, "state": {…}}`` (and, for the crcowan host, the
engine's ``message``), or ``{"error": …}`` when the engine or the host failed; the host's
standard error is passed through as the adapter's own.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any


class Host:
    """A running host process."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def call(self, command: str) -> dict[str, Any]:
        """The host's answer to one command line; its failure is a ``RuntimeError``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the engine's host exited (status {self.process.poll()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer
