"""The reference adapter with faults: the engine of a composite.

``python -m tools.mutation.fault_adapter FAULTS.json`` serves the protocol as
``python -m rules_ref.protocol.reference_adapter`` does, with the faults of
``FAULTS.json`` (a list of :meth:`Fault.to_json <tools.mutation.faults.Fault.to_json>`)
applied for the whole process: the card and phase faults patched into the
engine (:func:`tools.mutation.faults.injected`), each switch fault played by
rewriting the ruleset of every ``start`` while the hello declares only the
switch's default. An operator fault is the mutated module in the package on
``PYTHONPATH`` (the campaign puts it there); here it is only listed.

:class:`FaultyAdapter` with ``scoped=True`` applies the patches only while it
answers a line, so it can answer in the runner's own process (the tests)
without changing the reference the runner compares it with.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.ruleset import Ruleset

from .faults import Fault, injected


class FaultyAdapter(ReferenceAdapter):
    """The reference adapter with ``faults`` applied (see the module's docstring)."""

    name = "rules-ref reference adapter with faults"

    def __init__(self, faults: Sequence[Fault], protocol: int = 2, scoped: bool = False) -> None:
        super().__init__(protocol)
        self.faults = tuple(faults)
        self.scoped = scoped
        self.swaps = {f.switch: f.value for f in self.faults if f.kind == "switch"}

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = super().hello(request)
        default = Ruleset().to_dict()
        for switch in self.swaps:  # declares the default only: the runner sends nothing else
            answer["supports"]["switches"][switch] = [default[switch]]
        return answer

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.swaps and isinstance(msg.get("ruleset"), dict):
            msg = {**msg, "ruleset": {**msg["ruleset"], **self.swaps}}
        return super().start(msg)

    def answer(self, line: str) -> dict[str, Any]:
        if not self.scoped:
            return super().answer(line)
        with injected(self.faults):
            return super().answer(line)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tools.mutation.fault_adapter FAULTS.json", file=sys.stderr)
        return 2
    faults = [Fault.from_json(f) for f in json.loads(Path(args[0]).read_text(encoding="utf-8"))]
    with injected(faults):
        return FaultyAdapter(faults).serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
