"""Replaying the conformance vectors through the adapter protocol (``rules-ref vectors run``).

Each case of a protocol kind (``spec/vectors/README.md``) is replayed from
its ``start`` message: the prefix actions must be accepted, then every step
is applied and compared with the expected observation or rejection; a
``perft`` case counts play sequences by walking the adapter's own ``legal``
lists (comparing: :mod:`~rules_ref.vectors.compare`). A case outside what the
adapter's handshake says it supports (players, switch values, the
capability ``position`` for a case that starts from a position) is
skipped, and the skip names every value the adapter does not declare. A
version-2 ``error`` answer (the implementation failed internally) fails the
case, saying so.

The runner keeps the actions the adapter accepted, so that a failure is
blamed as ``rules-ref conform`` blames a disagreement
(:mod:`~rules_ref.findings.attribution`): on the first prefix action whose
observation already differed from the reference's, or on the rule of the
rejected action. The reference's own game is replayed from them only when a
failure needs it: most cases pass.

The same code drives the reference adapter in-process (:class:`InProcess`),
which is how ``rules-ref vectors check`` confirms that the frozen vectors
still agree with the reference.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from ..findings.attribution import accepted_illegal_rules, observation_rules, rejected_legal_rules
from ..jsonio.serialize import action_from_json
from ..protocol.form import form_slip
from ..protocol.messages import MAX_BATCH, AdapterFault, answer_kind, check_error, check_rejection
from ..protocol.observation import (
    FIELDS,
    PROTOCOL_VERSIONS,
    observation_problems,
    observe,
    problems_of_equal,
)
from ..protocol.reference_adapter import ReferenceAdapter
from ..protocol.start import requested_state
from ..ruleset import DEFAULT, Ruleset
from ..state import GameState
from ..wording import switch_value
from .compare import AnswerDiffers, FirstDifference, blame, clip, compare, describe

#: A perft case stops (and fails) after this many requests: the adapter's own legal
#: lists drive the walk, so a wrong adapter could make it explode.
MAX_PERFT_REQUESTS = 200_000

PASS, FAIL, SKIP = "pass", "fail", "skip"

#: The answers to a start or an action, by protocol version (version 2 adds ``error``).
ANSWERS = {1: ("observation", "rejected"), 2: ("observation", "rejected", "error")}
#: What a case that starts from a position needs, when the adapter does not declare it.
NEEDS_POSITION = "capability position (a start from a position, protocol version 2)"

#: Where an answer stands in a case's game, from the start: ``"start"``, a prefix action's
#: index, or a perft path (the cards played after the prefix).
Point: TypeAlias = "str | int | tuple[str, ...]"

class Driver(Protocol):
    """Something that answers protocol requests: an adapter process or the reference."""

    def request(self, message: dict[str, Any]) -> dict[str, Any]: ...


class InProcess:
    """The reference adapter, or another ``adapter`` object, answering in this process (no
    pipes, no ids).

    The reference speaks protocol ``version`` (the newest by default, with
    every capability), agreed by a ``hello`` as over a pipe; another adapter
    the version it agrees.
    """

    def __init__(self, version: int = max(PROTOCOL_VERSIONS),
                 adapter: ReferenceAdapter | None = None) -> None:
        self.adapter = ReferenceAdapter(version) if adapter is None else adapter
        hello = self.adapter.hello({"type": "hello", "versions": list(PROTOCOL_VERSIONS)})
        self.version = int(hello["version"])
        self.capabilities = tuple(hello.get("capabilities", ()))

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self.adapter.handle(json.loads(json.dumps(message)))


@dataclass
class CaseResult:
    """The result of one case.

    ``rules`` are the rules a failure is blamed on; ``unsupported`` what a
    skipped case needs that the adapter does not declare (``9 players``,
    ``moon others-104``, ...).
    """

    case_id: str
    status: str
    rules: list[str] = field(default_factory=list)
    message: str = ""
    unsupported: list[str] = field(default_factory=list)

    def line(self) -> str:
        if self.status == PASS:
            return f"PASS {self.case_id}" + (f" ({self.message})" if self.message else "")
        if self.status == SKIP:
            return f"SKIP {self.case_id}: {self.message}"
        return f"FAIL {self.case_id} [{', '.join(self.rules)}]: {self.message}"


# --- support (the handshake) ------------------------------------------------------------


def unsupported(case: dict[str, Any], supports: dict[str, Any]) -> list[str]:
    """Everything ``case`` needs that an adapter with these ``supports`` does not declare.

    The player count (``9 players``), every switch value outside the
    declared ones (``moon others-104``), in switch order, and the capability
    ``position`` for a case that starts from a position.
    """
    out = []
    if case["players"] not in supports.get("players", []):
        out.append(f"{case['players']} players")
    switches = supports.get("switches", {})
    changed = Ruleset.changed_in(case["ruleset"])
    for name, default in DEFAULT.to_dict().items():
        value = case["ruleset"].get(name, default)  # a file may predate a switch
        allowed = switches.get(name)
        if allowed is None:  # declared at its default only
            undeclared = name in changed
        else:
            undeclared = allowed != "any" and (not isinstance(allowed, list)
                                               or value not in allowed)
        if undeclared:
            out.append(f"{name} {switch_value(value)}")
    if "position" in case["start"] and "position" not in supports.get("capabilities", ()):
        out.append(NEEDS_POSITION)
    return out


def skip_reason(case: dict[str, Any], supports: dict[str, Any]) -> str | None:
    """Why an adapter with these ``supports`` cannot run ``case``; ``None`` if it can."""
    missing = unsupported(case, supports)
    return skipped(case, missing).message if missing else None


# --- running ----------------------------------------------------------------------------


class CaseRun:
    """One case against one driver."""

    def __init__(self, driver: Driver, case: dict[str, Any]) -> None:
        self.driver = driver
        self.case = case
        self.notes: list[str] = []
        self.requests = 0
        #: The actions the adapter accepted from the start (the prefix, then the steps),
        #: in the first :meth:`position` and after it.
        self._accepted: list[dict[str, Any]] = []
        #: The reference's game after each of the first accepted actions (:meth:`_reference`).
        self._states: list[GameState] = []
        #: The start and the prefix: (how many accepted actions before the answer, the
        #: adapter's answer, where), read only when a failure needs the first difference
        #: (:attr:`first_difference`).
        self._trail: list[tuple[int, dict[str, Any], str]] = []
        self._read = 0
        self._first_difference: FirstDifference | None = None
        self._prefix_checked = False
        #: Each point of the game whose observation was checked and well-formed -> that
        #: observation (without ``id`` and ``type``). A perft case replays the start and the
        #: prefix for every node: an answer there equal to the one before needs only
        #: :func:`problems_of_equal`, which words a fault as :func:`observation_problems` does.
        self._checked_at: dict[Point, dict[str, Any]] = {}
        #: Which action is being sent ("prefix action 3", "step 2"), for messages.
        self.where = "an action"

    def send(self, message: dict[str, Any], point: Point | None = None) -> dict[str, Any]:
        self.requests += 1
        return self._checked(message, self.driver.request(message), point)

    def _checked(self, message: dict[str, Any], answer: dict[str, Any],
                 point: Point | None = None) -> dict[str, Any]:
        """``answer`` to ``message``, checked: a bad shape is a fault, an ``error`` fails.

        ``point``: where the answer stands in the game (:data:`Point`), when the case
        may come back to it.
        """
        kind_of = message["type"]
        about = f"{'an' if kind_of[:1] in 'aeiou' else 'a'} {kind_of} request"
        try:
            kind = answer_kind(answer, ANSWERS[1] if getattr(self.driver, "version", 1) < 2
                               else ANSWERS[2], about)
            if kind == "observation":
                obs = {k: v for k, v in answer.items() if k not in ("id", "type")}
                before = self._checked_at.get(point) if point is not None else None
                if before is not None and obs == before:
                    problems = problems_of_equal(obs)
                else:
                    problems = observation_problems(obs)
                    if point is not None and not problems:
                        self._checked_at.setdefault(point, obs)
                if problems:
                    raise AdapterFault("shape", f"observation in answer to {about}: "
                                       f"{'; '.join(problems)}")
            elif kind == "rejected":
                check_rejection(answer, about)
            else:
                check_error(answer, about)
        except AdapterFault as fault:
            fault_of = getattr(self.driver, "fault", None)
            if callable(fault_of):  # an adapter process: add the evidence
                raise fault_of(fault.kind, fault.detail) from None
            raise
        if kind == "error":
            what = "the start" if message["type"] == "start" else \
                f"{self.where} ({describe(message.get('action'))})"
            raise AnswerDiffers(f"{what}: the implementation failed internally: "
                                f"{str(answer.get('message'))[:200]}")
        if kind == "rejected" and message["type"] == "start":
            what = "start from the position" if "position" in message else "start message"
            raise AnswerDiffers(f"the {what} was rejected: {_rejection(answer)}", ())
        return answer

    def fault(self, kind: str, detail: str) -> AdapterFault:
        """An adapter fault, with the adapter's evidence when it is a process."""
        fault_of = getattr(self.driver, "fault", None)
        return fault_of(kind, detail) if callable(fault_of) else AdapterFault(kind, detail)

    def act(self, action: dict[str, Any], point: Point | None = None) -> dict[str, Any]:
        return self.send({"type": "action", "action": action}, point)

    def answers(self, actions: Sequence[dict[str, Any]],
                points: Sequence[Point | None] = ()) -> Iterator[dict[str, Any]]:
        """The answers to ``actions`` in order, each checked as it is taken.

        When the driver can (capability ``batch``), the actions go in batches
        of at most :data:`MAX_BATCH`, one round trip each; else one by one.
        ``points``: where each answer stands in the game (:data:`Point`), if known.
        """
        where = [*points, *[None] * (len(actions) - len(points))]
        can = getattr(self.driver, "can", None)
        batch = getattr(self.driver, "batch", None)
        if len(actions) < 2 or not callable(can) or not callable(batch) or not can("batch"):
            for action, point in zip(actions, where, strict=True):
                yield self.act(action, point)
            return
        for first in range(0, len(actions), MAX_BATCH):
            chunk = actions[first:first + MAX_BATCH]
            for i, (action, answer) in enumerate(zip(chunk, batch(chunk), strict=False)):
                self.requests += 1
                yield self._checked({"type": "action", "action": action}, answer,
                                    where[first + i])

    def _reference(self, accepted: int) -> GameState:
        """The reference's game after the first ``accepted`` actions the adapter accepted."""
        states = self._states
        if not states:
            start = self.case["start"]
            states.append(requested_state(start))
        while len(states) <= accepted:
            state, _ = states[-1].apply(action_from_json(self._accepted[len(states) - 1]))
            states.append(state)
        return states[accepted]

    def position(self, extra: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
        """Send the start and the prefix (then ``extra`` plays); return the last observation.

        The first time, the prefix is kept to be read against the reference's
        game: the first observation that differs (:attr:`first_difference`), and
        a rejected prefix action is blamed on it, or on the action's own rule.
        """
        obs = self.send(self.case["start"], "start")
        prefix = self.case["prefix"]
        tracking = not self._prefix_checked
        if tracking:
            self._prefix_checked = True
            self._trail.append((0, obs, "the start"))
        actions = [*prefix, *extra]
        answers = self.answers(actions, range(len(prefix)))
        for i, action in enumerate(actions):
            self.where = f"prefix action {i + 1}" if i < len(prefix) else \
                f"a perft path action {i + 1 - len(prefix)}"
            answer = next(answers)
            if i >= len(prefix):
                if answer["type"] == "rejected":
                    raise AnswerDiffers(f"a perft path action {i + 1 - len(prefix)} "
                                        f"({describe(action)}) was rejected: {_rejection(answer)}")
            elif not tracking:
                if answer["type"] == "rejected":
                    raise AnswerDiffers(f"prefix action {i + 1} ({describe(action)}) rejected: "
                                        f"{_rejection(answer)}")
            else:
                if answer["type"] == "rejected":
                    raise self._prefix_rejected(i + 1, action, answer)
                self._accepted.append(action)
                self._trail.append((i + 1, answer, f"prefix action {i + 1} ({describe(action)})"))
            obs = answer
        return obs

    @property
    def first_difference(self) -> FirstDifference | None:
        """Where the adapter's game first left the reference's along the prefix, if it did:
        the first observation of the prefix that differs from the reference's."""
        while self._first_difference is None and self._read < len(self._trail):
            accepted, answer, where = self._trail[self._read]
            self._read += 1
            after = self._reference(accepted)
            expected = observe(after)
            if all(answer.get(f) == expected.get(f) for f in FIELDS):
                continue
            before = self._reference(accepted - 1) if accepted else None
            action = action_from_json(self._accepted[accepted - 1]) if accepted else None
            rules, deciding, _ = observation_rules(before, action, after, expected, answer)
            detail = "; ".join(f"{f}: expected {clip(expected.get(f))}, got "
                               f"{clip(answer.get(f))}" for f in deciding[:3])
            self._first_difference = FirstDifference(where, rules, detail)
        return self._first_difference

    def _prefix_rejected(self, number: int, action: dict[str, Any],
                         answer: dict[str, Any]) -> AnswerDiffers:
        what = f"prefix action {number} ({describe(action)}) rejected: {_rejection(answer)}"
        first = self.first_difference
        if first is not None:
            return AnswerDiffers(f"{what}; {first.text()}", (), first.rules)
        return AnswerDiffers(what, (), self._rejected_legal(action, answer))

    def _rejected_legal(self, action: dict[str, Any], answer: dict[str, Any]) -> list[str]:
        """The rules of ``action``, legal in the reference's game, that the adapter rejected."""
        cited = answer.get("rule")
        return rejected_legal_rules(self._reference(len(self._accepted)), action_from_json(action),
                                    cited if isinstance(cited, str) else None)

    def run(self) -> None:
        if self.case.get("depth") is not None:
            self.perft()
            return
        obs = self.position()
        steps = self.case["steps"]
        # a rejected action leaves the game as it was, so the steps may go in batches
        answers = self.answers([step["action"] for step in steps if step["action"] is not None])
        for i, step in enumerate(steps, 1):
            action = step["action"]
            self.where = f"step {i}"
            answer = next(answers) if action is not None else obs
            expect = step.get("expect")
            where = f"step {i} ({describe(action)})"
            if expect is None or "observation" in expect:
                if answer["type"] == "rejected":
                    rules = [] if action is None else self._rejected_legal(action, answer)
                    raise AnswerDiffers(f"{where} was rejected, but it is legal: "
                                        f"{_rejection(answer)}", ("legal",), rules)
                if action is not None:
                    self._accepted.append(action)
                if expect is not None:
                    slipped = form_slip(expect["observation"], answer)
                    if slipped is not None:
                        raise self.fault("form", slipped)
                    try:
                        compare(expect["observation"], answer)
                    except AnswerDiffers as exc:
                        raise AnswerDiffers(f"{where}: {exc}", exc.fields) from None
                obs = answer
            else:
                rule = expect["rejected"]["rule"]
                if answer["type"] != "rejected":
                    raise AnswerDiffers(f"{where} was accepted, but it breaks {rule}", (),
                                        accepted_illegal_rules(expect["rejected"].get("rules")
                                                               or [rule]))
                cited = answer.get("rule")
                if cited is not None and cited != rule:
                    self.notes.append(f"step {i} rejected citing {cited}, the reference "
                                      f"cites {rule}")

    def perft(self) -> None:
        depth = int(self.case["depth"])
        expected = self.case["expected"]
        at: list[str] | None = None
        obs: dict[str, Any] = {}

        def reach(path: list[str]) -> dict[str, Any]:
            nonlocal at, obs
            if at != path:
                actions: list[dict[str, Any]] = []
                node = self.position()
                for j, card in enumerate(path, 1):
                    action = {"type": "play", "seat": node["to_act"], "card": card}
                    actions.append(action)
                    self.where = f"the perft path {' '.join(path)}"
                    node = self.act(action, tuple(path[:j]))
                    if node["type"] == "rejected":
                        raise AnswerDiffers(f"after {' '.join(path)}, {card} was rejected "
                                            f"although offered as legal: {_rejection(node)}",
                                            ("legal",))
                at, obs = list(path), node
            return obs

        def legal(node: dict[str, Any]) -> list[str]:
            cards = node.get("legal")
            return list(cards) if node.get("phase") == "playing" and isinstance(cards, list) \
                else []

        def count(path: list[str], d: int) -> int:
            nonlocal at, obs
            node = reach(path)
            options = legal(node)
            if d == 1:
                return len(options)
            total = 0
            for card in options:
                if self.requests > MAX_PERFT_REQUESTS:
                    raise AnswerDiffers(f"depth {depth}: more than {MAX_PERFT_REQUESTS} requests; "
                                        f"the legal lists are far longer than the reference's "
                                        f"({expected['nodes']} sequences expected)", ("legal",))
                node = reach(path)
                self.where = f"the perft path {' '.join([*path, card])}"
                answer = self.act({"type": "play", "seat": node["to_act"], "card": card},
                                  (*path, card))
                if answer["type"] == "rejected":
                    raise AnswerDiffers(f"after {' '.join(path) or 'the position'}, {card} was "
                                        f"rejected although offered as legal: {_rejection(answer)}",
                                        ("legal",))
                at, obs = [*path, card], answer
                total += count([*path, card], d - 1)
            return total

        got = {card: count([card], depth - 1) if depth > 1 else 1
               for card in legal(reach([]))}
        if got != expected["divide"]:
            diffs = [f"{c}: expected {expected['divide'].get(c, 0)}, got {got.get(c, 0)}"
                     for c in sorted(set(got) | set(expected["divide"]))
                     if got.get(c, 0) != expected["divide"].get(c, 0)]
            raise AnswerDiffers(f"depth {depth}: {sum(got.values())} sequences, expected "
                                f"{expected['nodes']}; divide differs at " + "; ".join(diffs[:4]),
                                ())


def _rejection(answer: dict[str, Any]) -> str:
    rule = answer.get("rule")
    reason = str(answer.get("reason", ""))[:160]
    if rule and not reason.startswith(f"{rule}:"):
        return f"{rule}: {reason}"
    return reason or str(rule or "(no reason given)")


def run_case(driver: Driver, case: dict[str, Any]) -> CaseResult:
    """Replay one case; an :class:`AdapterFault` propagates.

    A failure after a prefix along which the adapter's game had already left
    the reference's is blamed on that first difference, and says so.
    """
    run = CaseRun(driver, case)
    try:
        run.run()
    except AnswerDiffers as exc:
        message, rules = str(exc), exc.rules
        if not rules and run.first_difference is not None:
            message, rules = f"{message}; {run.first_difference.text()}", run.first_difference.rules
        return CaseResult(case["id"], FAIL, rules or blame(case, exc.fields), message)
    return CaseResult(case["id"], PASS, [], "; ".join(run.notes))


def run_all(driver: Driver, cases: Iterable[dict[str, Any]], supports: dict[str, Any] | None,
            report: Callable[[CaseResult], None] | None = None) -> list[CaseResult]:
    """Replay ``cases`` (protocol kinds only); ``supports`` from the handshake, or all."""
    out = []
    for case in cases:
        missing = unsupported(case, supports) if supports is not None else []
        try:
            outcome = skipped(case, missing) if missing else run_case(driver, case)
        except AdapterFault as fault:
            fault.case_id = str(case["id"])
            raise
        out.append(outcome)
        if report is not None:
            report(outcome)
    return out


def skipped(case: dict[str, Any], missing: Sequence[str]) -> CaseResult:
    """The outcome of a case skipped for what it needs (:func:`unsupported`)."""
    return CaseResult(case["id"], SKIP, [], f"not declared by the adapter: {', '.join(missing)}",
                   list(missing))


def totals_line(outcomes: Sequence[CaseResult]) -> str:
    n = {s: sum(1 for o in outcomes if o.status == s) for s in (PASS, FAIL, SKIP)}
    return f"{n[PASS]} passed, {n[FAIL]} failed, {n[SKIP]} skipped"
