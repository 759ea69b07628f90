"""Running the protocol vectors through an adapter process (``rules-ref vectors run``).

:func:`run_vectors` starts the adapter, checks its handshake and replays
every case (:mod:`rules_ref.vectors.case_replay`), each under a time
bound of its own: a case still running after :data:`CASE_SECONDS` (or the
budget given) fails as a timeout, and the run goes on with a fresh adapter.
An adapter fault (it cannot start, exits, leaves one answer unwritten past
the answer timeout, breaks the protocol) stops the run.

:func:`verdict` turns the outcomes into the run's verdict and exit status,
which say how much was tested: a run that tested nothing, or less than
:data:`MIN_TESTED_SHARE` of its cases, is not a pass.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..protocol.client import AdapterProcess
from ..protocol.handshake import Supports, parse_supports
from ..protocol.messages import AdapterFault
from .case_replay import (
    FAIL,
    NEEDS_POSITION,
    PASS,
    SKIP,
    CaseResult,
    run_case,
    skipped,
    unsupported,
)
from .files import Case
from .position_forms import twin_id

#: The default time bound of one case, in seconds (``--case-timeout``). The slowest
#: case takes well under a second through the reference adapter.
CASE_SECONDS = 60.0
#: A run that tested a smaller share of its cases than this exits with EXIT_PARTIAL,
#: unless partial runs are allowed (``--allow-partial``).
MIN_TESTED_SHARE = 0.5

#: Exit statuses of ``rules-ref vectors run`` (spec/vectors/README.md).
EXIT_PASS = 0
EXIT_FAILED = 1
EXIT_FAULT = 2
EXIT_NOTHING_TESTED = 4
EXIT_PARTIAL = 5


T = TypeVar("T")


class CaseTimeout(Exception):
    """A case ran past its time bound."""


class _Bounded:
    """An adapter process whose answers, within one case, must come before the case's deadline."""

    def __init__(self, proc: AdapterProcess, answer_timeout: float, seconds: float) -> None:
        self.proc = proc
        self.version = proc.version
        self.answer_timeout = answer_timeout
        self.deadline = time.monotonic() + seconds

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self._bounded(lambda: self.proc.request(message))

    def can(self, capability: str) -> bool:
        return self.proc.can(capability)

    def batch(self, actions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        return self._bounded(lambda: self.proc.batch(actions))

    def _bounded(self, call: Callable[[], T]) -> T:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise CaseTimeout
        bounded = left < self.answer_timeout
        self.proc.timeout = min(self.answer_timeout, left)
        try:
            return call()
        except AdapterFault as fault:
            if fault.kind == "timeout" and bounded:
                raise CaseTimeout from None
            raise
        finally:
            self.proc.timeout = self.answer_timeout

    def fault(self, kind: str, detail: str) -> AdapterFault:
        return self.proc.fault(kind, detail)


@dataclass
class RunResult:
    """What a run did: one outcome per case run or skipped, and the fault that stopped it."""

    cases: list[tuple[str, Case]]
    outcomes: list[CaseResult] = field(default_factory=list)
    adapter: str | None = None
    protocol: int | None = None
    fault: AdapterFault | None = None
    restarts: int = 0

    def counts(self) -> dict[str, int]:
        n = Counter(o.status for o in self.outcomes)
        return {PASS: n[PASS], FAIL: n[FAIL], SKIP: n[SKIP]}

    def tested(self) -> tuple[int, int]:
        """How many cases ran (passed or failed), of how many the run counts.

        The run does not count a position-start form skipped only because the
        adapter cannot start from a position when its full-replay case ran:
        that subject was tested.
        """
        n = self.counts()
        return n[PASS] + n[FAIL], len(self.outcomes) - self.replayed_instead()

    def replayed_instead(self) -> int:
        """Position-start forms skipped for the capability whose full-replay case ran."""
        ran = {o.case_id for o in self.outcomes if o.status != SKIP}
        return sum(1 for o in self.outcomes if o.status == SKIP
                   and o.unsupported == [NEEDS_POSITION] and twin_id(o.case_id) in ran)

    def needs(self) -> list[tuple[str, int]]:
        """What the skipped cases need that the adapter does not declare, most needed first."""
        need = Counter(v for o in self.outcomes if o.status == SKIP for v in o.unsupported)
        return sorted(need.items(), key=lambda kv: (-kv[1], kv[0]))


def start_adapter(command: Sequence[str], timeout: float) -> tuple[AdapterProcess, Supports]:
    """Start the adapter and check its handshake; a fault ends the process and propagates."""
    proc = AdapterProcess(command, timeout=timeout)
    try:
        try:
            supports = parse_supports(proc.hello())
        except AdapterFault as fault:
            raise proc.fault(fault.kind, fault.detail) from None
    except BaseException:
        proc.close()
        raise
    return proc, supports


def supports_dict(supports: Supports, capabilities: Sequence[str] = ()) -> dict[str, Any]:
    """The handshake's declarations in the form :func:`.case_replay.unsupported` reads."""
    return {"players": list(supports.players), "switches": supports.switches,
            "capabilities": list(capabilities)}


def run_vectors(command: Sequence[str], cases: Sequence[tuple[str, Case]], timeout: float,
                case_seconds: float = CASE_SECONDS,
                report: Callable[[CaseResult], None] | None = None) -> RunResult:
    """Replay ``cases`` (kind, case) through the adapter ``command``.

    ``timeout`` bounds the wait for each answer, ``case_seconds`` each case.
    ``report`` sees every outcome as it comes. A fault is returned in the
    result (its ``case_id`` names the case it happened in), not raised.
    """
    result = RunResult(list(cases))
    proc: AdapterProcess | None = None
    try:
        proc, supports = start_adapter(command, timeout)
        result.adapter = supports.name
        declared = supports_dict(supports, proc.capabilities)
        result.protocol = proc.version
        for _, case in cases:
            missing = unsupported(case, declared)
            if missing:
                outcome = skipped(case, missing)
            else:
                try:
                    outcome = run_case(_Bounded(proc, timeout, case_seconds), case)
                except CaseTimeout:
                    outcome = CaseResult(case["id"], FAIL, list(case["rules"]),
                                      f"timed out: the case ran past its time bound of "
                                      f"{case_seconds:g} s (--case-timeout); the run goes on "
                                      "with a fresh adapter")
                    proc.close()
                    proc = None
                    proc, _ = start_adapter(command, timeout)
                    result.restarts += 1
                except AdapterFault as fault:
                    fault.case_id = str(case["id"])
                    raise
            result.outcomes.append(outcome)
            if report is not None:
                report(outcome)
    except AdapterFault as fault:
        result.fault = fault
    finally:
        if proc is not None:
            proc.close()
    return result


def verdict(result: RunResult, allow_partial: bool = False) -> tuple[str, int]:
    """The verdict (``pass``, ``fail``, ``partial``, ``nothing-tested``, ``fault``) and exit status.

    A fault decides first, then any failure; a run that tested nothing is
    never a pass; one that tested less than :data:`MIN_TESTED_SHARE` of its
    cases passes only when partial runs are allowed.
    """
    if result.fault is not None:
        return "fault", EXIT_FAULT
    if result.counts()[FAIL]:
        return "fail", EXIT_FAILED
    tested, counted = result.tested()
    if tested == 0:
        return "nothing-tested", EXIT_NOTHING_TESTED
    if tested < MIN_TESTED_SHARE * counted and not allow_partial:
        return "partial", EXIT_PARTIAL
    return "pass", EXIT_PASS
