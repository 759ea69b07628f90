"""Running the protocol vectors through an adapter process (``rules-ref vectors run``).

:func:`run_vectors` starts the adapter, checks its handshake and replays
every case (:mod:`rules_ref.vectors.case_replay`), each under a time
bound of its own: a case still running after :data:`CASE_SECONDS` (or the
budget given) fails as a timeout, and the run goes on with a fresh adapter.
An adapter fault (it cannot start, exits, leaves one answer unwritten past
the answer timeout, breaks the protocol) stops the run.

A case runs with the adapter's own value of a switch in place of the
case's when the case does not depend on it (:mod:`.requirements`): the
reference confirms, before the case is sent, that its expectations hold
under the ruleset sent. Failing that, it runs by a route rebuilt for the
adapter's values (:mod:`.route`), or with the figures the reference gives
under them when only its figures change (:mod:`.rescore`). A case and its
position-start form are one subject: it counts once, as tested when either ran.

:func:`verdict` turns the outcomes into the run's verdict and exit status,
which say how much was tested: a run that tested nothing is not a pass, and
neither is one that left a value the adapter declares untested while the
vectors hold a case for it (:func:`coverage`; ``--allow-partial`` accepts
that).
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
from ..ruleset import DEFAULT, moot_switches
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
from .constrained import broken_by, excluded, is_constraint
from .files import Case
from .position_forms import twin_id
from .requirements import (
    FIELD,
    REROUTED,
    adapters_own,
    documented,
    holds,
    show,
    substitute,
    with_ruleset,
)
from .rescore import rescored
from .route import rerouted

#: The default time bound of one case, in seconds (``--case-timeout``). The slowest
#: case takes well under a second through the reference adapter.
CASE_SECONDS = 60.0

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
    """What a run did: one outcome per case run or skipped, and the fault that stopped it.

    ``sent`` is the ruleset each case was (or, skipped, would have been)
    sent with: its own, or with the adapter's values where it does not
    depend on the switch;
    ``declared`` what the adapter's handshake declares.
    """

    cases: list[tuple[str, Case]]
    outcomes: list[CaseResult] = field(default_factory=list)
    adapter: str | None = None
    protocol: int | None = None
    fault: AdapterFault | None = None
    restarts: int = 0
    sent: dict[str, dict[str, Any]] = field(default_factory=dict)
    declared: dict[str, Any] | None = None
    #: The cases sent by a route rebuilt for the ruleset sent (:mod:`.route`).
    rerouted: set[str] = field(default_factory=set)
    #: The cases sent with the figures of the adapter's own values (:mod:`.rescore`): case
    #: id -> the case as sent.
    rescored: dict[str, Case] = field(default_factory=dict)
    #: The cases skipped because a deal of theirs breaks a declared deal constraint:
    #: case id -> the constraints it breaks (:mod:`.constrained`).
    constrained: dict[str, list[str]] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        n = Counter(o.status for o in self.outcomes)
        return {PASS: n[PASS], FAIL: n[FAIL], SKIP: n[SKIP]}

    def tested(self) -> tuple[int, int]:
        """How many subjects ran (passed or failed), of how many the run holds.

        A case and its position-start form are one subject: it ran when
        either form ran (and is counted once).
        """
        ran: dict[str, bool] = {}
        for o in self.outcomes:
            subject = twin_id(o.case_id) or o.case_id
            ran[subject] = ran.get(subject, False) or o.status != SKIP
        return sum(ran.values()), len(ran)

    def needs(self) -> list[tuple[str, int]]:
        """What the skipped cases need that the adapter does not declare, most needed first.

        A form whose twin ran is not counted: its subject was tested.
        """
        ran = {o.case_id for o in self.outcomes if o.status != SKIP}
        need = Counter(v for o in self.outcomes if o.status == SKIP
                       and twin_id(o.case_id) not in ran and f"{o.case_id}.position" not in ran
                       for v in o.unsupported if not is_constraint(v))
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
            "capabilities": list(capabilities),
            "deal_constraints": list(supports.deal_constraints)}


def allowed_values(declared: dict[str, Any]) -> dict[str, Any]:
    """Each switch -> the values the adapter declares: a list, or ``"any"``.

    A switch the handshake leaves out is declared at its default value only.
    """
    switches = declared.get("switches", {})
    defaults = DEFAULT.to_dict()
    return {name: switches.get(name, [default]) for name, default in defaults.items()}


def select(case: Case, kind: str, declared: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The ruleset ``case`` is sent with to an adapter declaring ``declared``, and what it lacks.

    A switch value the adapter does not declare is replaced by one it
    declares when the case does not depend on it (:func:`.requirements.substitute`),
    and the reference confirms that the case holds under the ruleset sent;
    what cannot be replaced is returned as missing, with the player count
    and the capability ``position`` when the adapter lacks them. The ruleset
    is returned even then: it is the one the case would be sent with.
    """
    missing = [m for m in unsupported(case, declared)
               if m.endswith(" players") or m == NEEDS_POSITION]
    sent, lacking = substitute(case, allowed_values(declared))
    if lacking:
        return sent, [*(m for m in missing if m.endswith(" players")), *lacking,
                      *(m for m in missing if m == NEEDS_POSITION)]
    if missing or sent == case["ruleset"]:
        return sent, missing
    if not holds(case, kind, sent):
        return case["ruleset"], [f"{name} {show(value)}" for name, value
                                 in case["ruleset"].items() if sent[name] != value]
    return sent, []


def select_case(case: Case, kind: str, declared: dict[str, Any]) -> tuple[Case, list[str]]:
    """The case to send to an adapter declaring ``declared``, and what it lacks.

    As :func:`select` says, and when that leaves values missing, the case by
    a route rebuilt for the adapter's values (:mod:`.route`): chosen by what
    its moment depends on (:data:`.requirements.REROUTED`) and confirmed on
    the reference; failing that, the case played under the adapter's own
    values, by its own route or a rebuilt one, with the figures the reference
    gives under them (:mod:`.rescore`), when only its figures differ. What is
    missing is :func:`select`'s when none of these serves.
    """
    sent, missing = select(case, kind, declared)
    if not missing:
        return (case if sent == case["ruleset"] else with_ruleset(case, sent)), []
    if any(m.endswith(" players") or m == NEEDS_POSITION for m in missing):
        return with_ruleset(case, sent), missing
    allowed = allowed_values(declared)
    routes = isinstance(case.get(REROUTED), dict)
    moved: Case | None = None
    if routes:
        ruleset, lacking = substitute(case, allowed, REROUTED)
        if not lacking:
            moved = rerouted(case, ruleset)
            if moved is not None and holds(moved, kind):
                return moved, []
    ruleset = adapters_own(case, allowed)
    scored = rescored(with_ruleset(case, ruleset), ruleset)
    if scored is None and routes:
        ruleset = adapters_own(case, allowed, REROUTED)
        if moved is None or moved["ruleset"] != ruleset:
            moved = rerouted(case, ruleset)
        scored = None if moved is None else rescored(moved, ruleset)
    if scored is not None:
        return scored, []
    return with_ruleset(case, sent), missing


def record(result: RunResult, case: Case, sent: Case) -> None:
    """Note in ``result`` how ``case`` is sent: its ruleset, and whether its route was rebuilt
    or its figures re-scored."""
    case_id = str(case["id"])
    result.sent[case_id] = sent["ruleset"]
    if sent.get("prefix") is not case.get("prefix"):
        result.rerouted.add(case_id)
    if sent.get("steps") is not case.get("steps"):
        result.rescored[case_id] = sent


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
        result.declared = declared
        result.protocol = proc.version
        by_id = {str(case["id"]): case for _, case in cases}
        for kind, case in cases:
            sent, missing = select_case(case, kind, declared)
            record(result, case, sent)
            broken = broken_by(sent, supports.deal_constraints, by_id)
            if missing:
                outcome = skipped(case, missing)
            elif broken:
                outcome = excluded(case, broken)
                result.constrained[str(case["id"])] = list(broken)
            else:
                try:
                    outcome = run_case(_Bounded(proc, timeout, case_seconds), sent)
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


@dataclass
class Coverage:
    """What a run tested of what the adapter declares (:func:`coverage`).

    Each entry is ``(switch, value)``, or ``("players", n)`` for a player
    count. ``untested``: declared, and the vectors hold a case that tests it,
    but none ran (``needs`` says what those cases lack); ``not_in_vectors``:
    declared, but no vector at a declared player count tests it;
    ``undeclared``: documented in ``spec/variants.toml`` (or, for a player
    count, held by a case) but not declared.
    """

    untested: list[tuple[str, Any]]
    not_in_vectors: list[tuple[str, Any]]
    undeclared: list[tuple[str, Any]]
    #: ``label(switch, value)`` -> what the cases that would test it lack.
    needs: dict[str, list[str]]
    #: Declared, and untested because a case that would have tested it has a deal that
    #: breaks a declared deal constraint (the constraint, not a declaration, kept it out).
    constrained: list[tuple[str, Any]] = field(default_factory=list)


def _tests(case: Case, switch: str, value: Any, ruleset: dict[str, Any],
           moved: bool = False) -> bool:
    """Does ``case``, sent with ``ruleset`` (by a rebuilt route when ``moved``), test
    ``switch`` at ``value``?

    It does when it plays that value and its results differ under some other
    value of the switch (by the analysis of the route it was sent by); a case
    without the analysis (vectors version 1) tests every value of its ruleset.
    """
    if ruleset.get(switch) != value:
        return False
    analysed = case.get(REROUTED if moved else FIELD)
    if not isinstance(analysed, dict):
        return True
    differs = analysed.get(switch)
    return isinstance(differs, list) and bool(differs) and value not in differs


def _rescored_tests(case: Case, sent: Case, kind: str, switch: str, value: Any) -> bool:
    """Does ``sent``, ``case`` re-scored under the adapter's values (:mod:`.rescore`), test
    ``switch`` at ``value``?

    It does when it plays that value and the reference, under some other
    documented value of the switch, gives other results than it expects:
    proven here, on the reference, for a switch the case was re-scored under
    or one its own analysis found it depends on (the others are not claimed).
    """
    ruleset = sent["ruleset"]
    if ruleset.get(switch) != value:
        return False
    own = case["ruleset"].get(switch)
    analysed = case.get(REROUTED if sent.get("prefix") is not case.get("prefix") else FIELD)
    if own == value and not (isinstance(analysed, dict) and analysed.get(switch)):
        return False
    others = [own] if own != value else []
    others += [v for v in documented()[switch] if v not in (value, own)]
    return any(not holds(sent, kind, {**ruleset, switch: v}) for v in others)


def coverage(result: RunResult) -> Coverage:
    """Each value the adapter declares, judged by what ran (see :class:`Coverage`)."""
    declared = result.declared or {}
    players = list(declared.get("players", []))
    allowed = allowed_values(declared) if declared else {}
    ran = {o.case_id for o in result.outcomes if o.status != SKIP}
    cases = [case for _, case in result.cases if str(case["id"]) in result.sent]
    sent = result.sent
    kinds = {str(case["id"]): kind for kind, case in result.cases}
    reason = {o.case_id: o.unsupported for o in result.outcomes if o.status == SKIP}
    untested: list[tuple[str, Any]] = []
    not_in: list[tuple[str, Any]] = []
    undeclared: list[tuple[str, Any]] = [("players", n) for n in sorted(
        {c["players"] for c in cases}) if n not in players]
    needs: dict[str, list[str]] = {}
    kept = result.constrained
    constrained: list[tuple[str, Any]] = []
    for n in players:
        holders = [c for c in cases if c["players"] == n]
        if holders and not any(c["id"] in ran for c in holders):
            if any(str(c["id"]) in kept for c in holders):
                constrained.append(("players", n))
                continue
            untested.append(("players", n))
            needs[label("players", n)] = _needs_of(holders, reason)
    moot = moot_switches(allowed.get("pass_cycle"))
    for switch, values in documented().items():
        if switch in moot:  # it changes no game the adapter plays: neither asked nor missed
            continue
        wanted = allowed.get(switch, [])
        mine = list(values) if wanted == "any" else list(wanted)
        undeclared.extend((switch, v) for v in values if v not in mine)
        for value in mine:
            testing = [c for c in cases if str(c["id"]) not in result.rescored
                       and _tests(c, switch, value, sent[str(c["id"])],
                                  str(c["id"]) in result.rerouted)]
            if any(c["id"] in ran for c in testing) or any(
                    _rescored_tests(c, result.rescored[str(c["id"])], kinds[str(c["id"])],
                                    switch, value)
                    for c in cases if str(c["id"]) in result.rescored and c["id"] in ran):
                continue
            holders = [c for c in testing if c["players"] in players]
            if any(str(c["id"]) in kept for c in holders):  # it would have run but for them
                constrained.append((switch, value))
            elif holders:
                untested.append((switch, value))
                needs[label(switch, value)] = _needs_of(holders, reason)
            elif wanted != "any":  # "any" claims every value: the untestable are not listed
                not_in.append((switch, value))
    return Coverage(untested, not_in, undeclared, needs, constrained)


def label(switch: str, value: Any) -> str:
    """A declared value as the run's lists name it: ``moon others-104``, ``7 players``."""
    return f"{value} players" if switch == "players" else f"{switch} {show(value)}"


def _needs_of(cases: Sequence[Case], reason: dict[str, list[str]]) -> list[str]:
    """What the cases that would test a value lack, most often lacked first."""
    n = Counter(v for c in cases for v in reason.get(str(c["id"]), []) if not is_constraint(v))
    return [v for v, _ in sorted(n.items(), key=lambda kv: (-kv[1], kv[0]))]


def verdict(result: RunResult, allow_partial: bool = False) -> tuple[str, int]:
    """The verdict (``pass``, ``fail``, ``partial``, ``nothing-tested``, ``fault``) and exit status.

    A fault decides first, then any failure; a run that tested nothing is
    never a pass; one that left a declared value untested although the
    vectors hold a case for it (:func:`coverage`) passes only when partial
    runs are allowed.
    """
    if result.fault is not None:
        return "fault", EXIT_FAULT
    if result.counts()[FAIL]:
        return "fail", EXIT_FAILED
    tested, _ = result.tested()
    if tested == 0:
        return "nothing-tested", EXIT_NOTHING_TESTED
    if coverage(result).untested and not allow_partial:
        return "partial", EXIT_PARTIAL
    return "pass", EXIT_PASS
