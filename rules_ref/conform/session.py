"""One conversation with the adapter, compared with the reference after every action.

:class:`Session` holds the reference state beside the implementation's and
judges every answer: an observation is compared field by field with the
reference's (:mod:`~rules_ref.protocol.observation`), a rejection must match a rejection of the
reference, and a difference becomes a :class:`Failure` (a disagreement,
attributed by :mod:`~rules_ref.findings.attribution`; an adapter fault during a game; or an
internal error the implementation reported). The runner decides the actions
(:mod:`~rules_ref.conform`); the session only plays them. The ``start`` of a table the
rules refuse is judged by :func:`.refused_tables.judge_refused`: it must be rejected.

With an adapter that declares the ``batch`` capability (protocol version 2),
:meth:`Session.act` applies the action to the reference at once and queues
it; the queue goes to the adapter as one ``batch`` request when it is full
or when :meth:`Session.flush` is called, and every answer of the batch is
judged in order exactly as a single answer would be, so the comparison after
every action stays. The reference alone decides what comes next (a rejected
action leaves its state unchanged, as it must leave the implementation's),
so nothing the runner draws depends on when the answers arrive. With
``pipeline`` as well, the requests go without waiting for the answers before
them (two at most unanswered): the ``start``, each batch, and the ``observe``
after an illegal offer are judged in their turn, a divergence met late is
met as if it had been met at once (the implementation is started again from
the reference's position there, and every later action played again), and a
game's last requests are judged just before the next game's ``start`` is
sent, with that game's first batch (:meth:`Session.send_all`). What an
action goes through counts as exercised only where the implementation
answered it in step (:meth:`Session._untally`), so a run counts the same
whichever way its requests went.

A ``changes`` answer is judged by its changes where it can be
(:meth:`Session._judge`): the reference makes each observation with the
changes answer from the one before.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, Play
from ..deal import MAX_PLAYERS
from ..errors import IllegalAction, RulesRefError, SetupError, Violation
from ..events import Event
from ..exercise import detect
from ..findings.attribution import accepted_illegal_rules, observation_rules, rejected_legal_rules

# Re-exported ("X as X"): the results of a conversation live in .failure.
from ..findings.failure import Failure, FoundFailure, Stats, describe_action
from ..findings.failure import brief_position as _brief_position
from ..findings.failure import json_position as _json_position
from ..jsonio.serialize import action_to_json
from ..protocol.client import AdapterProcess
from ..protocol.messages import AdapterFault, expand_changes
from ..protocol.observation import (
    CARD_TEXT,
    advance,
    changes_problems_of_equal,
    observation_problems,
    observe,
    owned_copy,
    problems_of_equal,
)
from ..protocol.start import position_start, requested_state
from ..state import GameState
from ..state_parts import SCORED, Phase
from .position_starts import position_rules
from .refused_tables import judge_refused, rejected_start_rules
from .resync import (
    MAX_OUT_OF_STEP,
    MAX_ROLLBACKS,
    GameCut,
    OutOfStep,
    can_restart,
    follow_between_deals,
    restart_from,
)

#: The actions one ``batch`` request carries in a conform run.
BATCH_SIZE = 64
#: With an adapter that declares ``pipeline``, the requests sent and not yet answered when
#: another is sent: the implementation answers one batch while the runner draws the next,
#: and, at a game's end, its last batch and the ``observe`` after it wait together until
#: the next game's first batch is drawn (:meth:`Session.send_all`). Without ``pipeline``,
#: one request at a time.
IN_FLIGHT = 2



#: What a step that counted nothing counted (:attr:`_Step.tallied`).
_UNTALLIED: tuple[Sequence[str], Sequence[str]] = ((), ())


@dataclass(slots=True)
class _Step:
    """One action sent (or queued): the reference's verdict on it, for judging its answer."""

    before: GameState
    action: Action
    after: GameState | None  # None: the reference rejects the action
    #: The reference's observation after it ({} if rejected), when kept (``None``: made from
    #: ``after`` when read, :attr:`expected`).
    kept: dict[str, Any] | None
    violations: tuple[Violation, ...]
    sent: int  # how many actions had been sent after the start, this one included
    #: The conditions and rare paths the step counted as exercised (:meth:`Session._untally`).
    tallied: tuple[Sequence[str], Sequence[str]] = _UNTALLIED
    #: The fields of the ``changes`` answer that makes the observation of ``before`` the
    #: observation after it (``None``: made whole).
    changes: dict[str, Any] | None = None
    #: The kind of illegal action it offers (:mod:`.illegal_kinds`), counted as offered when
    #: played (:meth:`Session.act`); "" for any other action.
    offer: str = ""

    @property
    def action_json(self) -> dict[str, Any]:
        """The action as a request carries it, made when a failure or a request needs it."""
        return action_to_json(self.action)

    @property
    def expected(self) -> dict[str, Any]:
        """The reference's observation after the action ({} if rejected).

        Made when first read: an answer equal to the step's changes reads none
        (most answers), so most steps never make one.
        """
        if self.kept is None:
            self.kept = observe(self.after) if self.after is not None else {}
        return self.kept



@dataclass(slots=True)
class _Start:
    """A ``start`` sent: its message, the state it describes, the observation expected, and
    whether the conditions it meets are counted (:meth:`Session.start`)."""

    msg: dict[str, Any]
    state: GameState
    expected: dict[str, Any]
    tally: bool


@dataclass(slots=True)
class _Check:
    """An ``observe`` queued after a rejected action: the implementation's game must still be
    the reference's ``state`` (:meth:`Session.check_unchanged`)."""

    state: GameState
    #: The actions sent or queued after the start before the check, the rejected one last.
    actions: int
    #: The reference's observation of ``state`` (``None``: made when judged).
    expected: dict[str, Any] | None = None


#: A request sent and not yet answered: its id, and the actions of a batch or the check of
#: an ``observe``.
_Request = tuple[int, "list[_Step] | _Check | _Start"]


class Session:
    """The reference and the implementation side by side, compared after every message.

    ``position`` describes a reference state for a failure report; ``batch``
    is the number of actions sent in one request (default :data:`BATCH_SIZE`
    when the adapter declares ``batch``, else 0: one ``action`` request each).

    Without ``on_divergence`` the first divergence raises :class:`FoundFailure`.
    With it, every divergence is handed to it and the game goes on
    (:mod:`.resync`): from the reference's position when the adapter starts
    from positions, else after a legal action the implementation rejected
    (the reference steps back), else the game ends (:class:`.resync.GameCut`).
    """

    def __init__(self, proc: AdapterProcess, stats: Stats, check_every: int = 16,
                 position: Callable[[GameState], dict[str, Any]] | None = None,
                 batch: int | None = None,
                 on_divergence: Callable[[Failure], None] | None = None,
                 before_start: Callable[[], None] | None = None) -> None:
        self.proc = proc
        #: Called once, before the first ``start`` is sent: the runner judges there what an
        #: earlier session left awaited (:meth:`send_all`).
        self._before_start = before_start
        self.stats = stats
        #: The reference state after every action sent or queued.
        self.state: GameState | None = None
        self.start_msg: dict[str, Any] = {}
        #: The actions sent or queued after the start, as the game's record; a failure
        #: writes them as JSON (:meth:`_fail`).
        self.actions: list[Action] = []
        self.notes: list[str] = []
        self._check_every = check_every
        self._count = 0
        self._position = position or _brief_position
        if batch is None:
            batch = BATCH_SIZE if proc.can("batch") else 0
        self.batch_size = batch
        #: At most this many requests unanswered (:data:`IN_FLIGHT` with ``pipeline``).
        self._window = IN_FLIGHT if proc.can("pipeline") else 1
        #: The adapter answers with changes (``changes``): a step's whole observation is made
        #: only when read (:attr:`_Step.expected`), else kept at every step.
        self._changes = proc.can("changes")
        self._queue: list[_Step | _Check] = []
        #: With ``pipeline``, the ``start`` not sent yet: it goes just before the first request
        #: of its game (:meth:`_send_queue`).
        self._unsent_start: _Start | None = None
        #: The requests sent and not yet answered, oldest first: a batch, and the ``observe``
        #: of a check right after it.
        self._inflight: deque[_Request] = deque()
        self._sent = 0  # actions sent after the start
        #: The first action of the request being answered: a fault is reported there.
        self._awaited: _Step | _Start | None = None
        self.on_divergence = on_divergence
        self._rollbacks = 0
        #: Moments still to offer an implementation out of step (:class:`.resync.OutOfStep`);
        #: 0: it is in step.
        self._adrift = 0
        #: Playing again the later actions of a batch after a divergence (they are queued,
        #: not sent, until the caller sends them).
        self._replaying = False
        #: The conditions of the steps made since the tally was last counted
        #: (:meth:`count_exercised`).
        self._uncounted: list[str] = []
        #: After a start from a position where nothing diverged (:meth:`start_again`): the
        #: reference's state, rebuilt from the position, and the same moment of the game
        #: as it was played. The rebuilt state knows no earlier trick or deal, which some
        #: conditions of the exercise tally read (two void tricks collected at once, the
        #: next deal's dealer), so the tally reads the game as played, which goes on beside
        #: it: a seed then exercises, and so draws, the same games whether the adapter
        #: starts from positions (protocol version 2) or not (version 1).
        self._as_played: tuple[GameState, GameState] | None = None
        #: The last reference state observed and its observation, the session's own: the
        #: next step makes it the next observation in place, and its changes
        #: (:func:`~rules_ref.protocol.observation.advance`).
        self._observed: tuple[GameState, dict[str, Any]] | None = None
        #: The implementation's last observation, which its ``changes`` answers change: its
        #: fields, or the reference state whose observation it equals; ``None`` before it
        #: sent one.
        self._seen: dict[str, Any] | GameState | None = None
        #: True once the game begun by the last ``start`` of a game has diverged.
        self.game_diverged = False

    # --- failures ---

    def _fail(self, rules: list[str], summary: str, before: GameState, failing: dict[str, Any]
              | None, expected: dict[str, Any], actual: dict[str, Any],
              reference: dict[str, Any], fields_: Sequence[str] = (),
              others: Sequence[str] = (), sent: int | None = None,
              kind: str = "disagreement") -> FoundFailure:
        actions = self.actions if sent is None else self.actions[:sent]
        return FoundFailure(Failure(
            kind=kind, rules=list(rules), summary=summary, start=self.start_msg,
            actions=[action_to_json(a) for a in actions], failing=failing,
            position=self._position(before), expected=expected, actual=actual,
            fields=list(fields_), others=list(others), reference=reference,
            before_position=_json_position(before)))

    def fault_failure(self, fault: AdapterFault) -> Failure:
        """The failure of an adapter fault: at the request being answered (a whole batch)."""
        awaited = self._awaited
        step = awaited if isinstance(awaited, _Step) else None
        if isinstance(awaited, _Start):  # the start's answer: no action is the game's yet
            state: GameState | None = awaited.state
            sent: list[dict[str, Any]] = []
        else:
            state = step.before if step is not None else self.state
            sent = [action_to_json(a) for a in self.actions[:self._sent]]
        failing = step.action_json if step is not None else sent[-1] if sent else None
        return Failure(
            kind="fault", rules=[], summary=str(fault), start=self.start_msg,
            actions=sent, failing=failing, batched=bool(self.batch_size) and step is not None,
            position=self._position(state) if state is not None else {},
            expected={}, actual={}, fault=fault.to_json())

    def _internal_error(self, answer: dict[str, Any], before: GameState,
                        step: _Step | None, sent: int | None = None) -> FoundFailure:
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
            raise self.proc.fault("shape", "observation: " + "; ".join(problems))

    def _compare(self, before: GameState | None, action: Action | None, after: GameState,
                 expected: dict[str, Any], answer: dict[str, Any],
                 step: _Step | None = None, sent: int | None = None) -> None:
        self._count += 1
        if answer == expected:
            if self._count % self._check_every == 1:
                self._shape(answer, equal=True)
            return
        self._shape(answer)
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

    def _judge(self, step: _Step, kind: str, answer: dict[str, Any]) -> bool:
        """Judge the answer to one action; True if the reference accepted the action.

        A ``changes`` answer to an observation both sides had agreed on, equal
        to the reference's own changes, is equal to the reference's observation
        (and is judged as equal to it); any other is the whole observation it
        stands for, compared field by field.
        """
        self.stats.actions += 1
        after = step.after
        if kind == "changes":
            if step.changes is not None and step.before is self._seen \
                    and answer == step.changes:
                assert after is not None
                self._count += 1
                if self._count % self._check_every == 1:
                    self._shape_changes(answer)
                return self._agreed(step, after)
            answer, kind = self._expanded(answer), "observation"
        before = step.before
        if kind == "error":
            raise self._internal_error(answer, before, step)
        if kind == "observation":
            self._seen = answer
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
            self.stats.citations += 1
            if len(self.notes) < 5:
                self.notes.append(
                    f"{describe_action(step.action_json)}: rejected citing {rule}, the reference "
                    f"cites {', '.join(v.rule_id for v in step.violations)}")
        return False

    def _agreed(self, step: _Step, after: GameState) -> bool:
        """After an answer to ``step`` equal to the reference's state ``after``: the
        implementation's observation is the reference's, and a deal played to its end and
        scored is counted. True: the action was accepted."""
        self._seen = after
        if after.phase in SCORED and step.before.phase is not after.phase:
            self.stats.deals += 1
        return True

    def _expanded(self, changes: dict[str, Any]) -> dict[str, Any]:
        """The whole observation a ``changes`` answer stands for: the implementation's last
        one with those fields changed (a fault when it has sent none)."""
        try:
            seen = self._seen
            full = expand_changes(observe(seen) if isinstance(seen, GameState) else seen,
                                  changes, "a changes answer")
        except AdapterFault as exc:
            raise self.proc.fault(exc.kind, exc.detail) from None
        full.pop("type", None)
        return full

    def _shape_changes(self, changes: dict[str, Any]) -> None:
        """A ``shape`` fault if a ``changes`` answer equal to the reference's is malformed."""
        problems = changes_problems_of_equal(changes)
        if problems:
            raise self.proc.fault("shape", "changes: " + "; ".join(problems))

    def _answer(self, msg_id: int, what: str, about: str) -> tuple[str, dict[str, Any]]:
        """Read the answer to ``msg_id``: an observation, a well-formed rejection or error.

        Returns its kind and its fields (without ``type`` and ``id``); any
        other answer is an adapter fault.
        """
        answer = self.proc.receive(msg_id, what)
        kind = self.proc.checked(answer, self.proc.answer_kinds, f"message {msg_id} ({about})")
        answer.pop("type", None)
        answer.pop("id", None)
        return kind, answer

    def start_again(self) -> None:
        """Start the implementation again from the reference's current position, and judge it.

        What is queued is judged first. Only in a game where nothing has
        diverged: after a divergence the implementation's own rules may read
        the position otherwise (a trick it took as won is set aside here), and
        its rejection would be that divergence again, not a difference of its
        own (``spec/protocol.md``). The ``start`` (:mod:`.position_starts`)
        is judged as any start (:meth:`start`): its answer must equal the
        reference's observation of the position, and then both games go on from
        it (the reference's from a state rebuilt from its own position).
        Otherwise the divergence is recorded (or raised, without a divergence
        handler), the implementation is offered the position once more, and the
        game ends when that does not bring it back in step (:class:`.resync.GameCut`).
        """
        self.flush()
        state = self.state
        if state is None or state.phase is Phase.GAME_OVER or self.game_diverged:
            return
        self.stats.position_starts += 1
        self.start(position_start(state))
        if self.state is not None:
            self._as_played = (self.state, state)

    def _judge_refused(self, msg_id: int, refused: SetupError) -> None:
        """Judge the answer to the ``start`` of a table the reference refuses (``refused``).

        A failure is raised, or handed to ``on_divergence``, as the session's own are.
        """
        kind, answer = self._answer(msg_id, "start", "start")
        self.stats.actions += 1
        verdict = judge_refused(self.proc, self.start_msg, kind, answer, refused)
        if isinstance(verdict, str):
            self.stats.citations += 1
            if len(self.notes) < 5:
                self.notes.append(verdict)
        elif verdict is not None:
            if self.on_divergence is None:
                raise FoundFailure(verdict)
            self._diverged(verdict)

    # --- the conversation ---

    def start(self, msg: dict[str, Any], *, tally: bool = True,
              state: GameState | None = None) -> None:
        """Send ``start`` (a message without id) and compare the observation.

        ``state``: the state the message describes, when the caller has made
        it (else it is read from the message). With ``pipeline`` the start is
        sent just before the first batch of the actions that follow (or when
        flushed), and its answer judged in its turn, before theirs
        (:meth:`flush`); a divergence there is met as one inside a batch.
        Without, it is sent and judged at once. Either way the first ``start``
        of a game's session judges before it is sent what the session before
        left awaited (``before_start``). The conditions the start meets count as exercised
        once the implementation has set the game up (its answer is an
        observation); ``tally=False``: not even then (a table offered before
        the games, :mod:`.edge_tables`, plays nothing, so the games still aim
        at them).
        """
        self.flush()
        self.start_msg = msg
        self.actions = []
        self._sent = 0
        self.state = None
        self._adrift = 0
        self._as_played = None
        if "position" not in msg:  # a new game
            self.game_diverged = False
        if state is None:
            try:
                state = requested_state(msg)
            except SetupError as refused:  # a table the rules refuse: it must be rejected
                return self._judge_refused(self._send_start(msg), refused)
        expected = observe(state)
        self._observed = (state, owned_copy(expected))
        started = _Start(msg, state, expected, tally)
        if self.batch_size and self._window > 1:
            # sent just before the game's first batch (:meth:`_send_queue`): the implementation
            # answers the end of the game before while the runner plays this one's first actions
            self._unsent_start = started
            self.state = state
            return
        try:
            self._judge_start(started, *self._answer(self._send_start(msg), "start", "start"))
        except FoundFailure as found:
            if self.on_divergence is None:
                raise
            self._diverged(found.failure)
            self._restart(state)
            return
        self.state = state

    def _send_start(self, msg: dict[str, Any]) -> int:
        """Send the ``start`` ``msg``; return its id. The first of a game's session judges
        before it what the session before left awaited (``before_start``)."""
        if self._before_start is not None:
            settle, self._before_start = self._before_start, None
            settle()
        return self.proc.send(msg)

    def _judge_start(self, started: _Start, kind: str, answer: dict[str, Any]) -> None:
        """Judge the answer to a ``start``: a divergence raises :class:`FoundFailure`."""
        msg, state, expected = started.msg, started.state, started.expected
        from_position = "position" in msg
        self.stats.actions += 1
        if not from_position and started.tally and kind == "observation":
            # only a game the implementation set up went through them: a rejected start
            # exercised nothing (a run whose every start was rejected tested nothing)
            self.count_exercised()
            self.stats.exercise.update(detect.start_conditions(state))
        if not from_position:
            self.stats.starts.note(msg, kind, (state.hands, state.extras))
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
        self._seen = answer
        self._compare(None, None, state, expected, answer, sent=0)
        self._seen = state

    def act(self, action: Action, *, again: _Step | None = None,
            known: tuple[GameState, tuple[Event, ...]] | None = None, offer: str = "") -> bool:
        """Play one action on the reference and send it; True if the reference accepted it.

        Without batches the answer is judged at once; with batches the action
        is queued and judged when its batch is answered (:meth:`flush`).
        While the implementation is out of step after a divergence, the
        reference plays alone, and the implementation is offered the position
        at the start of each trick until it agrees there; what such an action
        goes through is not counted as exercised. ``again``: the step of this
        action, played again after a divergence (of a batch judged again): what
        it counted is counted off, and counted again from the game as it goes on
        now, as if the action had been sent alone. ``known``: the reference's
        state after the action and its events, already made (a legal action of
        a deal played before, :meth:`.GameState.in_game`). ``offer``: the kind of
        the illegal action it offers (:mod:`.illegal_kinds`), counted here among
        the run's offers (once: not when played again).
        """
        if offer and again is None:
            self.stats.illegal += 1
            self.stats.offers[offer] += 1
        before = self.state
        assert before is not None
        self.actions.append(action)
        if again is not None:
            self._untally((again,))
        step = self._reference_step(before, action, not self._adrift, known, offer)
        if self._adrift:
            if step.after is not None:
                self.state = step.after
                if not step.after.trick:
                    self._restart(step.after)
            return step.after is not None
        if self.batch_size:
            self._queue.append(step)
            if step.after is not None:
                self.state = step.after
            if len(self._queue) >= self.batch_size and not self._replaying:
                self._send_queue()
            return step.after is not None
        self.count_exercised()
        self._sent += 1
        self._awaited = step
        action_json = action_to_json(action)
        msg_id = self.proc.send({"type": "action", "action": action_json})
        kind, answer = self._answer(msg_id, "action", describe_action(action_json))
        self._awaited = None
        try:
            accepted = self._judge(step, kind, answer)
        except FoundFailure as found:
            if self.on_divergence is None:
                raise
            return self._recover(found.failure, step)
        self._rollbacks = 0
        if step.after is not None:
            self.state = step.after
        return accepted

    # --- divergences: record and resynchronise ---

    def _diverged(self, failure: Failure) -> None:
        assert self.on_divergence is not None
        self.stats.divergences += 1
        self.game_diverged = True
        self.on_divergence(failure)

    def _restart(self, state: GameState) -> None:
        """Start the implementation again from ``state``'s position (or end the game).

        If it differs right after that start (:class:`.resync.OutOfStep`), the
        reference goes on alone from ``state`` and :meth:`act` offers later
        moments, :data:`.resync.MAX_OUT_OF_STEP` at most.
        """
        try:
            msg, fresh, seen = restart_from(self.proc, state)
        except OutOfStep as cut:
            self._adrift = (self._adrift or MAX_OUT_OF_STEP + 1) - 1
            if not self._adrift:
                raise GameCut(f"{cut.reason}, at {MAX_OUT_OF_STEP} moments after the "
                              "divergence") from None
            self.state = state
            return
        self._adrift = 0
        self.stats.resyncs += 1
        self.start_msg = msg
        self.actions = []
        self._sent = 0
        self.state = fresh
        self._observed = (fresh, owned_copy(seen))
        self._seen = fresh
        self._rollbacks = 0

    def _recover(self, failure: Failure, step: _Step) -> bool:
        """After a divergence at ``step`` (one action per request): go on, or end the game."""
        self._diverged(failure)
        resume = step.after if step.after is not None else step.before
        if can_restart(self.proc, resume):
            self._restart(resume)
            return step.after is not None
        followed = (follow_between_deals(step.after, failure.actual)
                    if step.after is not None and failure.fields else None)
        if followed is not None:
            self.stats.followed += 1
            self.state = followed
            return True
        if failure.actual.get("type") == "rejected" and step.after is not None:
            # a legal action rejected: the implementation's game did not move
            self._rollbacks += 1
            if self._rollbacks > MAX_ROLLBACKS:
                raise GameCut(f"{MAX_ROLLBACKS} legal actions rejected in a row")
            self.state = step.before
            if len(self.actions) == step.sent and self.actions[-1] is step.action:
                self.actions.pop()  # not part of either game: a later failure replays without it
                self._sent -= 1
            return False
        raise GameCut("the implementation's game differs from the reference's and the "
                      "adapter cannot start from a position")

    def _reference_step(self, before: GameState, action: Action, tally: bool = True,
                        known: tuple[GameState, tuple[Event, ...]] | None = None,
                        offer: str = "") -> _Step:
        """The reference's verdict on ``action`` (``known``: already made; ``offer``: the kind
        of illegal action it was drawn as, else ""); ``tally``: count what it went through.

        The conditions are counted as the reference steps through them, and
        counted off again if the implementation never answers the step in step
        (:meth:`_untally`).
        """
        played = self._as_played
        self._as_played = None
        seen = played[1] if played is not None and played[0] is before else before
        sent = len(self.actions)
        # an action drawn to be illegal is judged by its violations, without the exception
        # that apply raises (1 to 2 us an offer)
        violations = before.violations(action) if offer else ()
        if not violations:
            try:
                after, events = known if known is not None else before.apply(action)
            except RulesRefError as exc:
                violations = exc.violations if isinstance(exc, IllegalAction) else (Violation(
                    getattr(exc, "rule_id", None) or "DEAL.SOURCE", str(exc)),)
        if violations:
            if seen is not before:
                self._as_played = played
            return _Step(before, action, None, {}, violations, sent, (self._counted(
                detect.rejected_conditions(seen, action, violations)), ()) if tally
                else _UNTALLIED, None, offer)
        seen_after, seen_events = after, events
        if seen is not before:
            # the same moment of the same rules: the same verdict, a card play unchecked
            seen_after, seen_events = (seen.apply_unchecked(action) if type(action) is Play
                                       else seen.apply(action))
            self._as_played = (after, seen_after)
        observed = self._observed
        if observed is not None and observed[0] is before:
            obs = observed[1]
            changes: dict[str, Any] | None = advance(obs, before, after)
        else:
            obs, changes = observe(after), None  # made whole: its lists are its own
        self._observed = (after, obs)
        # kept for an adapter that answers with whole observations (a copy: ``obs`` changes)
        kept = None if self._changes else owned_copy(obs)
        tallied: tuple[Sequence[str], Sequence[str]] = _UNTALLIED
        if tally:
            conditions = self._counted(detect.step_conditions(seen, action, seen_after,
                                                            seen_events))
            found = detect.rare_paths(seen, seen_events, conditions)
            if found:
                self.stats.rare.update(found)
            tallied = (conditions, found)
        # every field given in order: 0.17 us a step where naming the last two took 0.31
        return _Step(before, action, after, kept, (), sent, tallied, changes, offer)

    def _counted(self, conditions: list[str]) -> list[str]:
        """Count ``conditions`` as exercised (with the batch: :meth:`count_exercised`); return
        them."""
        self._uncounted += conditions
        return conditions

    def count_exercised(self) -> None:
        """Count in the run's tally the conditions of the steps made since the last count.

        A step's conditions are counted with those of its batch, in one update
        (0.08 us a step where counting each took 0.25), before anything else
        reads or changes the tally: a batch sent (:meth:`_send_queue`) or
        judged alone, a start judged, steps counted off (:meth:`_untally`), and
        a game's end (:meth:`flush`, :meth:`send_all`, :meth:`abandon`), so
        that the tally a game is drawn from is the one it would be if each
        step were counted as made.
        """
        if self._uncounted:
            self.stats.exercise.update(self._uncounted)
            self._uncounted = []

    def _untally(self, steps: Sequence[_Step | _Check], drawn_back: bool = False) -> None:
        """Count off what ``steps`` counted as exercised: the implementation never answered
        them in step (dropped after a divergence and played on while it is out of step,
        or left unsent when the game ends).

        ``drawn_back``: the steps are not played at all, as one action per request
        would never have drawn them (drawn ahead in a batch of a game that ends
        before them): the illegal actions among them are counted off the offers too.
        """
        self.count_exercised()
        stats = self.stats
        for step in steps:
            if isinstance(step, _Step):
                conditions, rare = step.tallied
                for tally, keys in ((stats.exercise, conditions), (stats.rare, rare)):
                    for key in keys:
                        tally[key] -= 1
                        if not tally[key]:
                            del tally[key]
                step.tallied = _UNTALLIED
                if drawn_back and step.offer:
                    stats.illegal -= 1
                    stats.offers[step.offer] -= 1
                    if not stats.offers[step.offer]:
                        del stats.offers[step.offer]
                    step.offer = ""

    def check_unchanged(self) -> None:
        """With ``observe``: the implementation's game equals the reference's (after a rejection).

        A rejected action must leave the game unchanged; the next answer shows
        it, but at the end of a game there is no next answer, so the runner
        asks for the observation. Not counted among the actions compared. Not
        asked while the implementation is out of step (it refused the position
        it was offered): the reference played on alone, so the implementation's
        game is not the one the last action was rejected in.

        With batches the ``observe`` is queued behind the actions, sent right
        after their batch and judged in its turn (:meth:`flush`), so that the
        runner goes on while the implementation answers; without, it is sent
        and judged at once.
        """
        if self.batch_size:
            self._queue_check()
            return
        state = self.state
        if state is None or self._adrift or not self.proc.can("observe"):
            return
        self._judge_check(_Check(state, len(self.actions)), self.proc.observe())

    def _queue_check(self) -> None:
        """Queue the ``observe`` of :meth:`check_unchanged` (not while out of step)."""
        state = self.state
        if state is not None and not self._adrift and self.proc.can("observe"):
            observed = self._observed
            self._queue.append(_Check(state, len(self.actions), owned_copy(observed[1])
                                      if observed is not None and observed[0] is state
                                      else None))

    def _judge_check(self, check: _Check, answer: dict[str, Any]) -> None:
        """Judge the answer to the ``observe`` of ``check``; a divergence is recorded (or
        raised, without a divergence handler), and the game goes on as it is."""
        try:
            self._compare_unchanged(check, answer)
        except FoundFailure as found:
            if self.on_divergence is None:
                raise
            self._diverged(found.failure)  # nothing to resynchronise: no action moved

    def _compare_unchanged(self, check: _Check, answer: dict[str, Any]) -> None:
        state = check.state
        kind = answer.pop("type")
        answer.pop("id", None)
        if kind == "error":
            raise self._internal_error(answer, state, None, check.actions)
        expected = check.expected if check.expected is not None else observe(state)
        self._seen = answer
        if answer == expected:
            self._seen = state
            return
        self._shape(answer)
        rules, deciding, others = observation_rules(None, None, state, expected, answer)
        differing = deciding + others
        raise self._fail(["TURN.ORDER", *[r for r in rules if r != "TURN.ORDER"]],
                         f"after the last action, which the reference rejects, the "
                         f"implementation's observation (observe) differs in "
                         f"{', '.join(differing)}: a rejected action must change nothing",
                         state, action_to_json(self.actions[check.actions - 1])
                         if check.actions else None,
                         {f: expected[f] for f in differing},
                         {f: answer.get(f) for f in differing},
                         {"type": "observation", **expected}, deciding, others,
                         sent=check.actions)

    def flush(self) -> None:
        """Send what is queued and judge every answer still awaited, in order.

        A divergence inside a batch puts the batch's later actions back in the
        queue (:meth:`_collect_or_resync`), so this sends and judges until
        nothing is queued or awaited.
        """
        self.count_exercised()
        while True:
            if self._queue or self._unsent_start is not None:
                self._send_queue()
            self._collect_or_resync()
            if not self._queue:
                return

    def send_all(self) -> None:
        """Send everything queued, leaving the last request unanswered (a game's end).

        The runner judges its answers (:meth:`flush`) just before the next
        game's ``start``, so that it draws that game while the implementation
        answers the end of this one.
        """
        self.count_exercised()
        while True:
            while self._queue or self._unsent_start is not None:
                self._send_queue()
            # a start still unjudged (a game of one batch) is judged now, its answer long
            # come: the conditions it met count before the next game is drawn
            if not (self._inflight and isinstance(self._inflight[0][1], _Start)):
                return
            self._collect_or_resync(keep=len(self._inflight) - 1)

    def _collect_or_resync(self, keep: int = 0) -> None:
        """:meth:`_collect` until at most ``keep`` requests are in flight; after a divergence,
        resume at the action that diverged.

        As one action per request would (:meth:`_recover`): the implementation
        is started again from the reference's position after that action (before
        it, when the reference rejects it), and every later action of the batch,
        with the requests sent after it and the actions queued since, is queued
        again from there, so each is judged; the answers after the divergent one
        are dropped, since they come from a game that went another way. The
        reference alone decides the actions, so a run finds the same divergences
        with batches or without (``spec/protocol.md``).
        """
        try:
            while len(self._inflight) > keep:
                self._collect()
        except _LaterDivergence as found:
            if self.on_divergence is None:
                raise
            self._diverged(found.failure)
            later: list[_Step | _Check] = [*found.later]
            while self._inflight:  # answered in a game that went another way: dropped
                later += self._drop_oldest()
            later += self._queue
            self._queue = []
            done = 0
            self._replaying = True  # queued, sent by the caller once judged again
            try:
                self._restart(found.resume)
                for old in later:
                    done += 1
                    if isinstance(old, _Check):
                        self._queue_check()
                    else:
                        self.act(old.action, again=old, offer=old.offer)
            except GameCut:
                # the game ends before they are played again: as if never drawn
                self._untally(later[done:], drawn_back=True)
                raise
            finally:
                self._replaying = False

    def _send_queue(self) -> None:
        """Send the next request of the queue: a batch of the queued actions, or the
        ``observe`` of a check, once fewer requests than the window are unanswered.

        The answers are read later (:meth:`_collect`), when a later request is
        ready or the conversation ends, so that the implementation works on
        one batch while the runner draws the next.
        """
        self.count_exercised()
        started = self._unsent_start
        if started is not None:
            self._unsent_start = None
            self._collect_or_resync(keep=self._window - 1)
            self._inflight.append((self._send_start(started.msg), started))
        self._collect_or_resync(keep=self._window - 1)
        queue = self._queue
        if not queue:  # played on by the reference alone (out of step)
            return
        if isinstance(check := queue[0], _Check):
            del queue[0]
            self._inflight.append((self.proc.send_observe(), check))
            return
        steps: list[_Step] = []
        for item in queue:
            if not isinstance(item, _Step) or len(steps) == self.batch_size:
                break
            steps.append(item)
        if steps:
            del queue[:len(steps)]
            self._sent = steps[-1].sent
            texts = [_action_text(s) for s in steps]
            self._inflight.append((self.proc.send_batch_encoded(texts), steps))

    def abandon(self) -> None:
        """Read and drop the answers still awaited, when a game ends without its verdict.

        A game may end in the middle (the search stopped, a ruleset refused)
        while a batch is in flight; its answer must still be read so that the
        next request gets the next answer. An adapter that
        breaks the protocol here is ended, and started again for the next game.
        """
        self._untally(self._queue, drawn_back=True)  # counts what is left to count first
        self._queue = []
        self._unsent_start = None  # never sent: no answer to read
        if self.proc.alive():
            try:
                while self._inflight:
                    self._untally(self._drop_oldest(), drawn_back=True)
            except AdapterFault:
                self.proc.close()
        # what is left was never answered: the adapter is gone
        self._untally([s for _, sent in self._inflight if isinstance(sent, list) for s in sent],
                      drawn_back=True)
        self._inflight.clear()

    def _drop_oldest(self) -> Sequence[_Step | _Check]:
        """Read the answer to the oldest request in flight without judging it; what it sent
        that is played again after a divergence (a start's game is not)."""
        msg_id, sent = self._inflight.popleft()
        if isinstance(sent, _Start):
            self.proc.receive(msg_id, "start")
            return ()
        if isinstance(sent, _Check):
            self.proc.receive(msg_id, "observe")
            return (sent,)
        self.proc.receive_batch_items(msg_id, len(sent))
        return sent

    def _collect(self) -> None:
        """Read the answer to the oldest request in flight and judge it: a start's, each
        answer of a batch in order, or the observation of a check."""
        msg_id, queue = self._inflight.popleft()
        if isinstance(queue, _Check):
            self._judge_check(queue, self.proc.receive_observe(msg_id))
            return
        if isinstance(queue, _Start):
            self._awaited = queue
            kind, answer = self._answer(msg_id, "start", "start")
            self._awaited = None
            try:
                self._judge_start(queue, kind, answer)
            except FoundFailure as found:
                raise _LaterDivergence(found.failure, queue.state, []) from None
            return
        self._awaited = queue[0]
        answers = self.proc.receive_batch_items(msg_id, len(queue))
        self._awaited = None
        for i, (step, answer) in enumerate(zip(queue, answers, strict=False)):
            kind = answer.pop("type")  # the answers end early at an error
            try:
                self._judge(step, kind, answer)
            except FoundFailure as found:
                resume = step.after if step.after is not None else step.before
                raise _LaterDivergence(found.failure, resume, queue[i + 1:]) from None


#: The JSON text of each card play in a request, by seat and card, encoded once: most
#: actions of a batch are card plays, and encoding each again cost a run 3% of its time.
_PLAY_TEXT = tuple(tuple(json.dumps({"type": "play", "seat": seat, "card": text},
                                    separators=(",", ":")) for text in CARD_TEXT)
                   for seat in range(MAX_PLAYERS))


def _action_text(step: _Step) -> str:
    """The JSON text of ``step``'s action, as a batch request carries it."""
    action = step.action
    if type(action) is Play and 0 <= action.seat < MAX_PLAYERS:
        return _PLAY_TEXT[action.seat][action.card]
    return json.dumps(step.action_json, separators=(",", ":"))


class _LaterDivergence(FoundFailure):
    """A divergence met judging an answer in its turn (a start's, or one of a batch): the
    reference state the implementation is started again from (after the action, before it
    when the reference rejects it, or the start's), and the batch's later steps (judged
    again)."""

    def __init__(self, failure: Failure, resume: GameState, later: list[_Step]) -> None:
        super().__init__(failure)
        self.resume = resume
        self.later = later
