"""Replaying the conformance vectors through the adapter protocol (``rules-ref vectors run``).

Each case of a protocol kind (``spec/vectors/README.md``) is replayed from
its ``start`` message: the prefix actions must be accepted, then every step
is applied and compared with the expected observation or rejection; a
``perft`` case counts play sequences by walking the adapter's own ``legal``
lists. A case outside what the adapter's handshake says it supports
(players, switch values) is skipped.

The same code drives the reference adapter in-process (:class:`InProcess`),
which is how ``rules-ref vectors check`` confirms that the frozen vectors
still agree with the reference.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..ruleset import DEFAULT
from ..serialize import describe_action_json
from .adapter import ReferenceAdapter
from .observation import observation_problems
from .process import AdapterFault, answer_kind, check_rejection

#: A perft case stops (and fails) after this many requests: the adapter's own legal
#: lists drive the walk, so a wrong adapter could make it explode.
MAX_PERFT_REQUESTS = 200_000

PASS, FAIL, SKIP = "pass", "fail", "skip"

#: The rules a difference in each observation field can fall under; a failure
#: cites those of them that the case covers (all of the case's rules when none).
FIELD_RULES: dict[str, tuple[str, ...]] = {
    "phase": ("TURN.ORDER", "PASS.DIRECTION", "MOON.CONDITION", "MOON.CHOICE", "GAME.END"),
    "deal_number": ("DEAL.DEALER",),
    "dealer": ("DEAL.DEALER",),
    "to_act": ("TURN.ORDER", "LEAD.OPENING_LEADER", "TRICK.NEXT_LEADER", "TRICK.WINNER",
               "TRICK.CANCEL", "VOID.TRICK", "VOID.LEADER", "MOON.CONDITION", "MOON.CHOICE"),
    "waiting_for": ("PASS.EXCHANGE", "PASS.DIRECTION", "TURN.ORDER"),
    "legal": ("LEAD.OPENING_CARD", "LEAD.OPENING_LEADER", "LEAD.HEARTS", "HEARTS.BROKEN",
              "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK", "TRICK.LED_SUIT", "VOID.LEADER",
              "MOON.CHOICE"),
    "hands": ("PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE", "DEAL.SOURCE", "TURN.ORDER"),
    "trick_number": ("TURN.ORDER", "DEAL.SIZE"),
    "leader": ("LEAD.OPENING_LEADER", "TRICK.NEXT_LEADER", "TRICK.WINNER", "TRICK.CANCEL",
               "VOID.TRICK", "VOID.LEADER"),
    "trick": ("TURN.ORDER",),
    "hearts_broken": ("HEARTS.BROKEN",),
    "last_trick": ("TRICK.WINNER", "TRICK.CANCEL", "TRICK.LED_SUIT", "DECK.RANKING",
                   "VOID.TRICK"),
    "pending": ("VOID.TRICK", "VOID.COLLECT", "EXTRAS.FIRST_TRICK", "TRICK.CANCEL",
                "VOID.LAST"),
    "points": ("SCORE.CARD_POINTS", "EXTRAS.FIRST_TRICK", "VOID.COLLECT", "VOID.LAST",
               "TRICK.WINNER", "TRICK.CANCEL", "VOID.TRICK"),
    "deal_scores": ("SCORE.DEAL", "SCORE.CARD_POINTS", "MOON.CONDITION", "MOON.CHOICE",
                    "VOID.LAST"),
    "totals": ("SCORE.DEAL", "MOON.CHOICE"),
    "winners": ("GAME.END", "GAME.WINNER"),
}


class Driver(Protocol):
    """Something that answers protocol requests: an adapter process or the reference."""

    def request(self, message: dict[str, Any]) -> dict[str, Any]: ...


class InProcess:
    """The reference adapter, answering in this process (no pipes, no ids)."""

    def __init__(self) -> None:
        self.adapter = ReferenceAdapter()

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self.adapter.handle(json.loads(json.dumps(message)))


@dataclass
class Outcome:
    """The result of one case."""

    case_id: str
    status: str
    rules: list[str] = field(default_factory=list)
    message: str = ""

    def line(self) -> str:
        if self.status == PASS:
            return f"PASS {self.case_id}" + (f" ({self.message})" if self.message else "")
        if self.status == SKIP:
            return f"SKIP {self.case_id}: {self.message}"
        return f"FAIL {self.case_id} [{', '.join(self.rules)}]: {self.message}"


class Mismatch(Exception):
    """A disagreement with the expected values; ``fields`` say which rules it falls under."""

    def __init__(self, message: str, fields: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.fields = tuple(fields)


# --- support (the handshake) ------------------------------------------------------------


def skip_reason(case: dict[str, Any], supports: dict[str, Any]) -> str | None:
    """Why an adapter with these ``supports`` cannot run ``case``; ``None`` if it can."""
    players = supports.get("players", [])
    if case["players"] not in players:
        return f"{case['players']} players not supported"
    switches = supports.get("switches", {})
    defaults = DEFAULT.to_dict()
    for name, value in sorted(case["ruleset"].items()):
        allowed = switches.get(name)
        if allowed == "any":
            continue
        if allowed is None:
            if value != defaults.get(name):
                return f"{name} {_show(value)} not supported (only the default)"
        elif not isinstance(allowed, list) or value not in allowed:
            return f"{name} {_show(value)} not supported"
    return None


def _show(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


# --- comparing --------------------------------------------------------------------------


def _clip(value: object, limit: int = 120) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + "…"


def differences(expected: object, got: object, path: str) -> list[str]:
    """Where ``got`` differs from ``expected``, as ``path: expected X, got Y`` lines."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in expected:
            if key not in got:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(differences(expected[key], got[key], f"{path}.{key}"))
        return out
    if expected != got:
        return [f"{path}: expected {_clip(expected)}, got {_clip(got)}"]
    return []


def compare(expected: dict[str, Any], obs: dict[str, Any]) -> None:
    diffs: list[str] = []
    fields = []
    for name, value in expected.items():
        found = differences(value, obs[name], name) if name in obs else [f"{name}: missing"]
        if found:
            fields.append(name)
            diffs.extend(found)
    if diffs:
        more = f" (and {len(diffs) - 3} more)" if len(diffs) > 3 else ""
        raise Mismatch("; ".join(diffs[:3]) + more, fields)


def describe(action: dict[str, Any] | None) -> str:
    return "the current observation" if action is None else describe_action_json(action)


# --- running ----------------------------------------------------------------------------


class CaseRun:
    """One case against one driver."""

    def __init__(self, driver: Driver, case: dict[str, Any]) -> None:
        self.driver = driver
        self.case = case
        self.notes: list[str] = []
        self.requests = 0

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        answer = self.driver.request(message)
        about = f"a {message['type']} request"
        try:
            kind = answer_kind(answer, ("observation", "rejected"), about)
            if kind == "observation":
                problems = observation_problems(
                    {k: v for k, v in answer.items() if k not in ("id", "type")})
                if problems:
                    raise AdapterFault("shape", f"observation in answer to {about}: "
                                       f"{'; '.join(problems)}")
            else:
                check_rejection(answer, about)
        except AdapterFault as fault:
            fault_of = getattr(self.driver, "fault", None)
            if callable(fault_of):  # an adapter process: add the evidence
                raise fault_of(fault.kind, fault.detail) from None
            raise
        if kind == "rejected" and message["type"] == "start":
            raise Mismatch(f"the start message was rejected: {_rejection(answer)}", ())
        return answer

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        return self.send({"type": "action", "action": action})

    def position(self, extra: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
        obs = self.send(self.case["start"])
        for i, action in enumerate([*self.case["prefix"], *extra]):
            answer = self.act(action)
            if answer["type"] == "rejected":
                where = f"prefix action {i + 1}" if i < len(self.case["prefix"]) else \
                    f"a perft path action {i + 1 - len(self.case['prefix'])}"
                raise Mismatch(f"{where} ({describe(action)}) was rejected: "
                               f"{_rejection(answer)}", ())
            obs = answer
        return obs

    def run(self) -> None:
        if self.case.get("depth") is not None:
            self.perft()
            return
        obs = self.position()
        for i, step in enumerate(self.case["steps"], 1):
            action = step["action"]
            answer = self.act(action) if action is not None else obs
            expect = step.get("expect")
            where = f"step {i} ({describe(action)})"
            if expect is None or "observation" in expect:
                if answer["type"] == "rejected":
                    raise Mismatch(f"{where} was rejected, but it is legal: "
                                   f"{_rejection(answer)}", ("legal",))
                if expect is not None:
                    try:
                        compare(expect["observation"], answer)
                    except Mismatch as exc:
                        raise Mismatch(f"{where}: {exc}", exc.fields) from None
                obs = answer
            else:
                rule = expect["rejected"]["rule"]
                if answer["type"] != "rejected":
                    raise Mismatch(f"{where} was accepted, but it breaks {rule}", ())
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
                for card in path:
                    action = {"type": "play", "seat": node["to_act"], "card": card}
                    actions.append(action)
                    node = self.act(action)
                    if node["type"] == "rejected":
                        raise Mismatch(f"after {' '.join(path)}, {card} was rejected "
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
                    raise Mismatch(f"depth {depth}: more than {MAX_PERFT_REQUESTS} requests; "
                                   f"the legal lists are far longer than the reference's "
                                   f"({expected['nodes']} sequences expected)", ("legal",))
                node = reach(path)
                answer = self.act({"type": "play", "seat": node["to_act"], "card": card})
                if answer["type"] == "rejected":
                    raise Mismatch(f"after {' '.join(path) or 'the position'}, {card} was "
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
            raise Mismatch(f"depth {depth}: {sum(got.values())} sequences, expected "
                           f"{expected['nodes']}; divide differs at " + "; ".join(diffs[:4]),
                           ())


def _rejection(answer: dict[str, Any]) -> str:
    rule = answer.get("rule")
    reason = str(answer.get("reason", ""))[:160]
    if rule and not reason.startswith(f"{rule}:"):
        return f"{rule}: {reason}"
    return reason or str(rule or "(no reason given)")


def blame(case: dict[str, Any], fields: Sequence[str]) -> list[str]:
    """The case's rules that the differing fields fall under (all of them when none do)."""
    rules = list(case["rules"])
    narrowed = sorted({r for f in fields for r in FIELD_RULES.get(f, ()) if r in rules})
    return narrowed or rules


def run_case(driver: Driver, case: dict[str, Any]) -> Outcome:
    """Replay one case; an :class:`AdapterFault` propagates."""
    run = CaseRun(driver, case)
    try:
        run.run()
    except Mismatch as exc:
        return Outcome(case["id"], FAIL, blame(case, exc.fields), str(exc))
    return Outcome(case["id"], PASS, [], "; ".join(run.notes))


def run_all(driver: Driver, cases: Iterable[dict[str, Any]], supports: dict[str, Any] | None,
            report: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Replay ``cases`` (protocol kinds only); ``supports`` from the handshake, or all."""
    out = []
    for case in cases:
        reason = skip_reason(case, supports) if supports is not None else None
        try:
            outcome = Outcome(case["id"], SKIP, [], reason) if reason else \
                run_case(driver, case)
        except AdapterFault as fault:
            fault.case_id = str(case["id"])
            raise
        out.append(outcome)
        if report is not None:
            report(outcome)
    return out


def totals_line(outcomes: Sequence[Outcome]) -> str:
    n = {s: sum(1 for o in outcomes if o.status == s) for s in (PASS, FAIL, SKIP)}
    return f"{n[PASS]} passed, {n[FAIL]} failed, {n[SKIP]} skipped"
