"""The reference adapter, reading its requests as they come: strictly one at a time, or not.

Run one as an adapter::

    python tests/fakes/pipeline_adapters.py one-at-a-time

Both read their standard input themselves, one request per line:

* ``one-at-a-time`` does not declare ``pipeline`` and looks, before answering
  a request, whether the next one has already come: one that comes before the
  answer to the one before breaks the protocol's strict request and response,
  and the adapter says so on standard error and exits with status 3 (the run
  reports the adapter's exit);
* ``pipelined`` declares every capability, ``pipeline`` included, and
  answers each request as it comes, whenever the next one comes.
"""

from __future__ import annotations

import json
import os
import select
import sys
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.protocol.reference_adapter import ReferenceAdapter
from tests.fakes.adapter_script import chosen_name, script_command

#: Every adapter of this file and what it does with a request that comes early.
ADAPTERS = {"one-at-a-time": "exits at a request sent before the answer to the one before",
            "pipelined": "answers each request as it comes"}


class OneAtATime(ReferenceAdapter):
    """The reference adapter without the capability ``pipeline``."""

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = super().hello(request)
        if "capabilities" in answer:
            answer["capabilities"] = [c for c in answer["capabilities"] if c != "pipeline"]
        return answer


def serve(adapter: ReferenceAdapter, strict: bool) -> int:
    """Answer each request, after looking whether the next one has come already."""
    fd = sys.stdin.fileno()
    buffer = b""
    while True:
        while b"\n" not in buffer:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return 0
            buffer += chunk
        line, _, buffer = buffer.partition(b"\n")
        request = json.loads(line)
        if strict and (buffer or select.select([fd], [], [], 0)[0]):
            print(f"one-at-a-time: a request came before the answer to message "
                  f"{request.get('id')}", file=sys.stderr, flush=True)
            return 3
        answer = {"id": request.get("id"), **adapter.handle(request)}
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if answer["type"] == "bye":
            return 0


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return script_command(__file__, name)


def main(argv: list[str]) -> int:
    name = chosen_name(argv, ADAPTERS, __file__)
    if name is None:
        return 2
    strict = name == "one-at-a-time"
    adapter = OneAtATime() if strict else ReferenceAdapter()
    adapter.name = f"reference adapter, {name}"
    return serve(adapter, strict)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
