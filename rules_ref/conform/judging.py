"""Judging the implementation's answers against the reference's verdicts.

:class:`Judge` is given the adapter process (whose faults it raises), the run's
stats, the session's tally and the game's record (:class:`.steps.GameRecord`).
It judges the answer to a step, a start, a check or a refused table's start,
and raises a :class:`~rules_ref.findings.failure.FoundFailure` where they
differ: a disagreement, attributed by :mod:`~rules_ref.findings.attribution`,
or an internal error the implementation reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action, Play
from ..errors import SetupError
from ..exercise import detect
from ..findings.attribution import accepted_illegal_rules, observation_rules, rejected_legal_rules
from ..findings.failure import Failure, FoundFailure, Stats, describe_action
from ..findings.failure import json_position as _json_position
from ..findings.triggers import step_facts
from ..jsonio.serialize import action_to_json
from ..protocol.client import AdapterProcess
from ..protocol.form import form_slip
from ..protocol.messages import AdapterFault, expand_changes
from ..protocol.observation import (
    changes_problems_of_equal,
    observation_problems,
    observe,
    problems_of_equal,
)
from ..state import GameState
from ..state_parts import SCORED
from .position_starts import position_rules
from .refused_tables import judge_refused, rejected_start_rules
from .steps import Check, GameRecord, Start, Step
from .tally import Tally


class Judge:
    """The verdicts on one session's answers, compared field by field with the reference's.

    ``position`` describes a reference state for a failure report. Of the
    answers equal to the reference's, one in ``check_every`` is checked for
    its shape too.
    """

    def __init__(self, proc: AdapterProcess, stats: Stats, tally: Tally, record: GameRecord,
                 position: Callable[[GameState], dict[str, Any]],
                 check_every: int = 16) -> None:
        self._proc = proc
        self._stats = stats
        self._tally = tally
        self._record = record
        self._position = position
        self._check_every = check_every
        self._count = 0
        #: The first five rejections that cite another rule than the reference's.
        self.notes: list[str] = []
        #: The implementation's last observation, which its ``changes`` answers change: its
        #: fields, or the reference state whose observation it equals; ``None`` before it
        #: sent one.
        self.seen: dict[str, Any] | GameState | None = None

    # --- failures ---

    def _fail(self, rules: list[str], summary: str, before: GameState, failing: dict[str, Any]
              | None, expected: dict[str, Any], actual: dict[str, Any],
              reference: dict[str, Any], fields_: Sequence[str] = (),
              others: Sequence[str] = (), sent: int | None = None,
              kind: str = "disagreement") -> FoundFailure:
        record = self._record
        actions = record.actions if sent is None else record.actions[:sent]
        return FoundFailure(Failure(
            kind=kind, rules=list(rules), summary=summary, start=record.start_msg,
            actions=[action_to_json(a) for a in actions], failing=failing,
            position=self._position(before), expected=expected, actual=actual,
            fields=list(fields_), others=list(others), reference=reference,
            before_position=_json_position(before), before=before))

    def _internal_error(self, answer: dict[str, Any], before: GameState,
                        step: Step | None, sent: int | None = None) -> FoundFailure:
        """The failure of an ``error`` answer: to ``step``'s action, else to the start (or
        the ``observe``) after the first ``sent`` actions (default: all)."""
        failing = step.action_json if step is not None else None
        reference = ({"type": "observation", **step.expected} if step is not None
                     and step.after is not None else {"type": "rejected"} if step is not None
                     else {})
        rules = detect.rules_at_work(before, step.action if step is not None else None)
        return self._fail(rules, f"the implementation reported an internal error on "
                          f"{describe_action(failing)}: {str(answer.get('message'))[:300]}",
                          before, failing, {}, {"type": "error", **answer}, reference,
                          sent=step.sent if step is not None else sent, kind="error")

    # --- judging one answer ---

    def _shape(self, answer: dict[str, Any], equal: bool = False) -> None:
        """A ``shape`` fault if ``answer`` is malformed; ``equal``: it equals the reference's."""
        problems = problems_of_equal(answer) if equal else observation_problems(answer)
        if problems:
            raise self._proc.fault("shape", "observation: " + "; ".join(problems))

    def _form(self, expected: dict[str, Any], answer: dict[str, Any]) -> None:
        """A ``form`` fault when ``answer`` differs from ``expected`` only in the form of
        fields the protocol fixes (:func:`~rules_ref.protocol.form.form_slip`): an answer
        written otherwise, not a rule played otherwise, reported once."""
        slipped = form_slip(expected, answer)
        if slipped is not None:
            raise self._proc.fault("form", slipped)

    def _compare(self, before: GameState | None, action: Action | None, after: GameState,
                 expected: dict[str, Any], answer: dict[str, Any],
                 step: Step | None = None, sent: int | None = None) -> None:
        self._count += 1
        if answer == expected:
            if self._count % self._check_every == 1:
                self._shape(answer, equal=True)
            return
        self._shape(answer)
        self._form(expected, answer)
        rules, deciding, others = observation_rules(before, action, after, expected, answer)
        differing = deciding + others
        summary = (f"the observation differs from the reference in {', '.join(differing)}"
                   f" (rules {', '.join(rules)})")
        raise self._fail(rules, summary, before if before is not None else after,
                         step.action_json if step is not None else None,
                         {f: expected[f] for f in differing},
                         {f: answer.get(f) for f in differing},
                         {"type": "observation", **expected}, deciding, others,
                         sent=step.sent if step is not None else sent)

    def judge(self, step: Step, kind: str, answer: dict[str, Any]) -> bool:
        """Judge the answer to one action; True if the reference accepted the action.

        A ``changes`` answer to an observation both sides had agreed on, equal
        to the reference's own changes, is equal to the reference's observation
        (and is judged as equal to it); any other is the whole observation it
        stands for, compared field by field.
        """
        self._stats.actions += 1
        after = step.after
        if kind == "changes":
            if step.changes is not None and step.before is self.seen \
                    and answer == step.changes:
                assert after is not None
                self._count += 1
                if self._count % self._check_every == 1:
                    self._shape_changes(answer)
                self._cleared(step, after)
                return self._agreed(step, after)
            answer, kind = self._expanded(answer), "observation"
        before = step.before
        if kind == "error":
            raise self._internal_error(answer, before, step)
        if kind == "observation":
            self.seen = answer
            if after is None:
                self._shape(answer)
                violations = step.violations
                rules = accepted_illegal_rules(violations)
                rejection = {"type": "rejected", "rules": [v.rule_id for v in violations],
                             "reason": "; ".join(v.message for v in violations)}
                raise self._fail(rules, f"the implementation accepted an illegal action "
                                 f"({describe_action(step.action_json)}; rules {', '.join(rules)})",
                                 before, step.action_json, rejection,
                                 {"type": "observation", **answer}, rejection, sent=step.sent)
            self._compare(before, step.action, after, step.expected, answer, step)
            self._cleared(step, after)
            return self._agreed(step, after)
        rule = answer.get("rule")
        if after is not None:
            rules = rejected_legal_rules(before, step.action, rule)
            raise self._fail(rules, f"the implementation rejected a legal action "
                             f"({describe_action(step.action_json)}; rules {', '.join(rules)})",
                             before, step.action_json, {"type": "observation"},
                             {"type": "rejected", **answer},
                             {"type": "observation", **step.expected}, sent=step.sent)
        if rule is not None and rule not in {v.rule_id for v in step.violations}:
            self._cited(f"{describe_action(step.action_json)}: rejected citing {rule}, the "
                        f"reference cites {', '.join(v.rule_id for v in step.violations)}")
        return False

    def _agreed(self, step: Step, after: GameState) -> bool:
        """After an answer to ``step`` equal to the reference's state ``after``: the
        implementation's observation is the reference's, and a deal played to its end and
        scored is counted. True: the action was accepted."""
        self.seen = after
        if after.phase in SCORED and step.before.phase is not after.phase:
            self._stats.deals += 1
        return True

    def _cleared(self, step: Step, after: GameState) -> None:
        """The facts of ``step``'s moment (:func:`~rules_ref.findings.triggers.step_facts`),
        which the implementation went through as the reference did: none triggers an
        internal error. (An answer that differs is no evidence: the implementation may not
        have met the fact, as when a pair the reference cancels does not cancel in it.)"""
        before, action = step.before, step.action
        if type(action) is not Play or len(before.trick) + 1 == before.players:
            self._stats.cleared.update(f.name for f in step_facts(before, action, after))

    def _cited(self, note: str) -> None:
        """A rejection citing another rule than the reference's: counted, and noted among
        the first five."""
        self._stats.citations += 1
        if len(self.notes) < 5:
            self.notes.append(note)

    def _expanded(self, changes: dict[str, Any]) -> dict[str, Any]:
        """The whole observation a ``changes`` answer stands for: the implementation's last
        one with those fields changed (a fault when it has sent none)."""
        try:
            seen = self.seen
            full = expand_changes(observe(seen) if isinstance(seen, GameState) else seen,
                                  changes, "a changes answer")
        except AdapterFault as exc:
            raise self._proc.fault(exc.kind, exc.detail) from None
        full.pop("type", None)
        return full

    def _shape_changes(self, changes: dict[str, Any]) -> None:
        """A ``shape`` fault if a ``changes`` answer equal to the reference's is malformed."""
        problems = changes_problems_of_equal(changes)
        if problems:
            raise self._proc.fault("shape", "changes: " + "; ".join(problems))

    # --- judging a start, a check, a refused table ---

    def judge_start(self, started: Start, kind: str, answer: dict[str, Any]) -> None:
        """Judge the answer to a ``start``: a divergence raises :class:`FoundFailure`.

        The conditions the start meets count as exercised once the implementation
        has set the game up (its answer is an observation), unless the start is
        not to be counted (``Start.tally``).
        """
        msg, state, expected = started.msg, started.state, started.expected
        from_position = "position" in msg
        self._stats.actions += 1
        if not from_position and started.tally and kind == "observation":
            # only a game the implementation set up went through them: a rejected start
            # exercised nothing (a run whose every start was rejected tested nothing)
            self._tally.started(state)
        if not from_position:
            self._stats.starts.note(msg, kind, (state.hands, state.extras))
        if kind == "error" and from_position:
            raise self._fail(position_rules(state), "the implementation reported an "
                             "internal error on the start from a position: "
                             f"{str(answer.get('message'))[:300]}", state, None, {},
                             {"type": "error", **answer}, {"type": "observation", **expected},
                             sent=0, kind="error")
        if kind == "error":
            raise self._internal_error(answer, state, None, 0)
        if kind == "rejected":
            rules = (position_rules(state, answer.get("rule")) if from_position
                     else rejected_start_rules(state.ruleset, answer.get("rule")))
            what = "a position the rules reach" if from_position else \
                "the start of a game that the reference plays"
            raise self._fail(rules, f"the implementation rejected {what}: "
                             f"{answer.get('reason')!s:.200}",
                             state, None, {"type": "observation"},
                             {"type": "rejected", **answer},
                             {"type": "observation", **expected}, sent=0)
        self.seen = answer
        self._compare(None, None, state, expected, answer, sent=0)
        self.seen = state
        if not from_position:
            self._stats.cleared.update(f.name for f in step_facts(state, None))

    def judge_unchanged(self, check: Check, answer: dict[str, Any]) -> None:
        """Judge the answer to the ``observe`` of ``check``: the game a rejected action left
        must be the reference's (a divergence raises :class:`FoundFailure`)."""
        state = check.state
        kind = answer.pop("type")
        answer.pop("id", None)
        if kind == "error":
            raise self._internal_error(answer, state, None, check.actions)
        expected = check.expected if check.expected is not None else observe(state)
        self.seen = answer
        if answer == expected:
            self.seen = state
            return
        self._shape(answer)
        self._form(expected, answer)
        rules, deciding, others = observation_rules(None, None, state, expected, answer)
        differing = deciding + others
        actions = self._record.actions
        raise self._fail(["TURN.ORDER", *[r for r in rules if r != "TURN.ORDER"]],
                         f"after the last action, which the reference rejects, the "
                         f"implementation's observation (observe) differs in "
                         f"{', '.join(differing)}: a rejected action must change nothing",
                         state, action_to_json(actions[check.actions - 1])
                         if check.actions else None,
                         {f: expected[f] for f in differing},
                         {f: answer.get(f) for f in differing},
                         {"type": "observation", **expected}, deciding, others,
                         sent=check.actions)

    def judge_refused(self, kind: str, answer: dict[str, Any], refused: SetupError) -> None:
        """Judge the answer to the ``start`` of a table the reference refuses (``refused``):
        it must be rejected (a divergence raises :class:`FoundFailure`)."""
        self._stats.actions += 1
        verdict = judge_refused(self._proc, self._record.start_msg, kind, answer, refused)
        if isinstance(verdict, str):
            self._cited(verdict)
        elif verdict is not None:
            raise FoundFailure(verdict)
