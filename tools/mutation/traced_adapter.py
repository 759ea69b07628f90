"""The reference adapter, recording which engine functions it calls.

``python tools/mutation/traced_adapter.py OUT`` serves the protocol exactly as
``python -m rules_ref.conformance.adapter`` does, and on exit appends one JSON
line to ``OUT``: every ``[file, first line]`` of Python code it ran. The
kit-power campaign runs the vectors and a conform search through it once, to
know which functions a mutant can reach the adapter through.
"""

from __future__ import annotations

import atexit
import json
import runpy
import sys
from types import FrameType


def main() -> None:
    out = sys.argv.pop(1)
    called: set[tuple[str, int]] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            called.add((frame.f_code.co_filename, frame.f_code.co_firstlineno))

    def dump() -> None:
        sys.setprofile(None)
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps(sorted(called)) + "\n")

    atexit.register(dump)
    sys.setprofile(profile)
    runpy.run_module("rules_ref.conformance.adapter", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
