"""The reference adapter, recording which engine functions it calls.

``python tools/mutation/traced_adapter.py OUT FILE...`` serves the protocol
exactly as ``python -m rules_ref.protocol.reference_adapter`` does, and on exit
appends one JSON line to ``OUT``: every ``[file, line]`` of the given source
files that it ran. The kit-power campaign runs the vectors and a conform
search through it once, to know which lines of the rule modules a mutant can
change the adapter's answers through.
"""

from __future__ import annotations

import atexit
import json
import runpy
import sys
from types import FrameType
from typing import Any


def main() -> None:
    out = sys.argv.pop(1)
    files: set[str] = set()
    while len(sys.argv) > 1:
        files.add(sys.argv.pop(1))
    ran: set[tuple[str, int]] = set()

    def lines(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            ran.add((frame.f_code.co_filename, frame.f_lineno))
        return lines

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        if frame.f_code.co_filename in files:
            ran.add((frame.f_code.co_filename, frame.f_lineno))
            return lines
        return None

    def dump() -> None:
        sys.settrace(None)
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps(sorted(ran)) + "\n")

    atexit.register(dump)
    sys.settrace(calls)
    runpy.run_module("rules_ref.protocol.reference_adapter", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
