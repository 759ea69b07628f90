"""One conversation with the adapter, compared with the reference after every action.

:class:`Session` plays the actions the runner decides (:mod:`~rules_ref.conform`)
on the reference and on the implementation, and keeps the two in step. Its
parts: :class:`.played.PlayedGame`, the reference's verdict on each action
(:mod:`.steps`); :class:`.pipeline.Pipeline`, the requests to the adapter and
their order; :class:`.judging.Judge`, every answer compared with the
reference's; :class:`.tally.Tally`, what the game exercised. The ``start`` of
a table the rules refuse is judged by :func:`.refused_tables.judge_refused`:
it must be rejected.

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
answered it in step (:meth:`.tally.Tally.count_off`), so a run counts the
same whichever way its requests went.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..actions import Action
from ..errors import SetupError
from ..events import Event
from ..findings.failure import Failure, FoundFailure, Stats, brief_position
from ..jsonio.serialize import action_to_json
from ..protocol.client import AdapterProcess
from ..protocol.messages import AdapterFault
from ..protocol.observation import observe
from ..protocol.start import dealt_start, position_start, requested_state
from ..state import GameState
from ..state_parts import Phase
from .judging import Judge
from .pipeline import LaterDivergence, Pipeline
from .played import PlayedGame
from .resync import (
    MAX_OUT_OF_STEP,
    MAX_ROLLBACKS,
    GameCut,
    Moments,
    OutOfStep,
    can_restart,
    follow_between_deals,
    follow_to_first_trick,
    is_deal_start,
    moment_kind,
    restart_from,
    resumes_at,
)
from .steps import Check, GameRecord, Start, Step
from .tally import Tally

#: The actions one ``batch`` request carries in a conform run.
BATCH_SIZE = 64
#: With an adapter that declares ``pipeline``, the requests sent and not yet answered when
#: another is sent: the implementation answers one batch while the runner draws the next,
#: and, at a game's end, its last batch and the ``observe`` after it wait together until
#: the next game's first batch is drawn (:meth:`Session.send_all`). Without ``pipeline``,
#: one request at a time.
IN_FLIGHT = 2


class Session:
    """The reference and the implementation side by side, compared after every message.

    ``position`` describes a reference state for a failure report; ``batch``
    is the number of actions sent in one request (default :data:`BATCH_SIZE`
    when the adapter declares ``batch``, else 0: one ``action`` request each).
    ``before_start`` is called before the first ``start`` is sent
    (:class:`.pipeline.Pipeline`).

    Without ``on_divergence`` the first divergence raises :class:`FoundFailure`.
    With it, every divergence is handed to it and the game goes on
    (:mod:`.resync`): from the reference's position when the adapter starts
    from positions (at a kind of moment ``moments`` has not seen it refuse
    too often, shared by the sessions of a run), else after a legal action
    the implementation rejected (the reference steps back), else at the first
    trick when the implementation went there otherwise, else at the next
    deal, which it is sent as a ``start``.
    """

    def __init__(self, proc: AdapterProcess, stats: Stats, check_every: int = 16,
                 position: Callable[[GameState], dict[str, Any]] | None = None,
                 batch: int | None = None,
                 on_divergence: Callable[[Failure], None] | None = None,
                 before_start: Callable[[], None] | None = None,
                 moments: Moments | None = None) -> None:
        self.proc = proc
        self.stats = stats
        #: The reference state after every action sent or queued.
        self.state: GameState | None = None
        #: The start and the actions sent or queued after it, as a failure reports them.
        self.record = GameRecord()
        self._position = position or brief_position
        if batch is None:
            batch = BATCH_SIZE if proc.can("batch") else 0
        self._batched = bool(batch)
        self.tally = Tally(stats)
        self._played = PlayedGame(self.tally, proc.can("changes"))
        self._judge = Judge(proc, stats, self.tally, self.record, self._position, check_every)
        self._pipeline = Pipeline(proc, self._judge, self.tally, self.record, batch,
                                  IN_FLIGHT if proc.can("pipeline") else 1, before_start)
        self.on_divergence = on_divergence
        self.moments = moments if moments is not None else Moments()
        self._rollbacks = 0
        #: The implementation is out of step (:class:`.resync.OutOfStep`): the reference plays
        #: alone until a later moment brings it back.
        self._adrift = False
        #: The starts from a position still offered in this deal while it is out of step.
        self._offers = MAX_OUT_OF_STEP
        #: True once the game begun by the last ``start`` of a game has diverged.
        self.game_diverged = False

    @property
    def notes(self) -> list[str]:
        """The first five rejections that cite another rule than the reference's."""
        return self._judge.notes

    def fault_failure(self, fault: AdapterFault) -> Failure:
        """The failure of an adapter fault: at the request being answered (a whole batch)."""
        record = self.record
        awaited = self._pipeline.awaited
        step = awaited if isinstance(awaited, Step) else None
        if isinstance(awaited, Start):  # the start's answer: no action is the game's yet
            state: GameState | None = awaited.state
            sent: list[dict[str, Any]] = []
        else:
            state = step.before if step is not None else self.state
            sent = [action_to_json(a) for a in record.actions[:record.sent]]
        failing = step.action_json if step is not None else sent[-1] if sent else None
        return Failure(
            kind="fault", rules=[], summary=str(fault), start=record.start_msg,
            actions=sent, failing=failing, batched=self._batched and step is not None,
            position=self._position(state) if state is not None else {},
            expected={}, actual={}, fault=fault.to_json())

    # --- the conversation ---

    def start(self, msg: dict[str, Any], *, tally: bool = True,
              state: GameState | None = None, resumed: bool = False) -> None:
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
        at them). ``resumed``: the start of a later deal of the same game, sent to
        an implementation out of step (:meth:`_restart`).
        """
        self.flush()
        pipeline = self._pipeline
        self.record.begin(msg)
        self.state = None
        self._adrift = False
        self._offers = MAX_OUT_OF_STEP
        self._played.as_played = None
        if "position" not in msg and not resumed:  # a new game
            self.game_diverged = False
        if state is None:
            try:
                state = requested_state(msg)
            except SetupError as refused:  # a table the rules refuse: it must be rejected
                return self._judge_refused(pipeline.send_start(msg), refused)
        expected = observe(state)
        self._played.observed(state, expected)
        started = Start(msg, state, expected, tally)
        if pipeline.defer_start(started):
            self.state = state
            return
        try:
            self._judge.judge_start(started, *pipeline.answer(pipeline.send_start(msg),
                                                              "start", "start"))
        except FoundFailure as found:
            if self.on_divergence is None:
                raise
            self._diverged(found.failure)
            self._restart(state, found.failure)
            return
        self.state = state

    def start_again(self) -> None:
        """Start the implementation again from the reference's current position, and judge it.

        What is queued is judged first. Only in a game where nothing has
        diverged: after a divergence the implementation's own rules may read
        the position otherwise (a trick it took as won is set aside here), and
        its rejection would be that divergence again, not a difference of its
        own (``spec/protocol.md``). The ``start`` (:mod:`.position_starts`)
        is judged as any start (:meth:`start`): its answer must equal the
        reference's observation of the position, and then both games go on from
        it (the reference's from a state rebuilt from its own position, beside
        the game as played, :class:`.played.PlayedGame`).
        Otherwise the divergence is recorded (or raised, without a divergence
        handler), the implementation is offered the position once more, and the
        game's next moments when that does not bring it back in step (:meth:`_restart`).
        """
        self.flush()
        state = self.state
        if state is None or state.phase is Phase.GAME_OVER or self.game_diverged:
            return
        self.stats.position_starts += 1
        self.start(position_start(state))
        if self.state is not None:
            self._played.as_played = (self.state, state)

    def _judge_refused(self, msg_id: int, refused: SetupError) -> None:
        """Judge the answer to the ``start`` of a table the reference refuses (``refused``)."""
        kind, answer = self._pipeline.answer(msg_id, "start", "start")
        try:
            self._judge.judge_refused(kind, answer, refused)
        except FoundFailure as found:
            self.recorded(found)

    def act(self, action: Action, *, again: Step | None = None,
            known: tuple[GameState, tuple[Event, ...]] | None = None, offer: str = "") -> bool:
        """Play one action on the reference and send it; True if the reference accepted it.

        Without batches the answer is judged at once; with batches the action
        is queued and judged when its batch is answered (:meth:`flush`).
        While the implementation is out of step after a divergence, the
        reference plays alone, and the implementation is offered the game again
        at the start of each later trick or phase (:meth:`_restart`) until it
        agrees there; what such an action
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
            self.tally.offered(offer)
        before = self.state
        assert before is not None
        actions = self.record.actions
        actions.append(action)
        if again is not None:
            self.tally.count_off((again,))
        step = self._played.step(before, action, len(actions), not self._adrift, known, offer)
        if self._adrift:
            after = step.after
            if after is not None:
                self.state = after
                if resumes_at(before, after):
                    self._restart(after)
            return after is not None
        if self._batched:
            if step.after is not None:
                self.state = step.after
            self._pipeline.add(step, self)
            return step.after is not None
        kind, answer = self._pipeline.exchange(step)
        try:
            accepted = self._judge.judge(step, kind, answer)
        except FoundFailure as found:
            if self.on_divergence is None:
                raise
            return self._recover(found.failure, step)
        self._rollbacks = 0
        if step.after is not None:
            self.state = step.after
        return accepted

    def check_unchanged(self) -> None:
        """With ``observe``: the implementation's game equals the reference's (after a rejection).

        A rejected action must leave the game unchanged; the next answer shows
        it, but at the end of a game there is no next answer, so the runner
        asks for the observation. Not counted among the actions compared. Not
        asked while the implementation is out of step (it refused the position
        it was offered): the reference played on alone, so the implementation's
        game is not the one the last action was rejected in.

        With batches the ``observe`` is queued behind the actions and judged in
        its turn (:meth:`flush`); without, it is sent and judged at once.
        """
        state = self.state
        if state is None or self._adrift or not self.proc.can("observe"):
            return
        if self._batched:
            self._pipeline.add_check(Check(state, len(self.record.actions),
                                           self._played.observation(state)))
            return
        answer = self.proc.observe()
        try:
            self._judge.judge_unchanged(Check(state, len(self.record.actions)), answer)
        except FoundFailure as found:
            self.recorded(found)  # nothing to resynchronise: no action moved

    def flush(self) -> None:
        """Send what is queued and judge every answer still awaited, in order
        (:meth:`.pipeline.Pipeline.flush`)."""
        self._pipeline.flush(self)

    def send_all(self) -> None:
        """Send everything queued, leaving the last request unanswered (a game's end): the
        runner judges its answers (:meth:`flush`) just before the next game's ``start``."""
        self._pipeline.send_all(self)

    def abandon(self) -> None:
        """Read and drop the answers still awaited, when a game ends without its verdict
        (:meth:`.pipeline.Pipeline.abandon`)."""
        self._pipeline.abandon()

    # --- divergences: record and resynchronise ---

    def recorded(self, found: FoundFailure) -> None:
        """Record the divergence ``found`` and go on (raise it, without ``on_divergence``)."""
        if self.on_divergence is None:
            raise found
        self._diverged(found.failure)

    def _diverged(self, failure: Failure) -> None:
        assert self.on_divergence is not None
        self.stats.divergences += 1
        self.game_diverged = True
        self.on_divergence(failure)

    def resume(self, found: LaterDivergence) -> None:
        """After a divergence met in its turn (a start's answer or one of a batch), resume at
        the action that diverged.

        As one action per request would (:meth:`_recover`): the implementation
        is started again from the reference's position after that action (before
        it, when the reference rejects it), and every later action of the batch,
        with the requests sent after it and the actions queued since, is queued
        again from there, so each is judged; the answers after the divergent one
        are dropped, since they come from a game that went another way. The
        reference alone decides the actions, so a run finds the same divergences
        with batches or without (``spec/protocol.md``).
        """
        self.recorded(found)
        later = [*found.later, *self._pipeline.take_back()]
        done = 0
        try:
            self._restart(found.resume, found.failure)
            for old in later:
                done += 1
                if isinstance(old, Check):
                    self.check_unchanged()
                else:
                    self.act(old.action, again=old, offer=old.offer)
        except GameCut:
            # the game ends before they are played again: as if never drawn
            self.tally.count_off(later[done:], drawn_back=True)
            raise

    def _restart(self, state: GameState, failure: Failure | None = None) -> None:
        """Bring the implementation back in step at ``state`` (or end the game).

        With positions, it is started again from ``state``'s position, unless
        it has refused that kind of moment too often in the run (:class:`.resync.Moments`).
        If it refuses or differs right after that start (:class:`.resync.OutOfStep`), or
        is not offered it, the reference goes on alone from ``state`` and :meth:`act` offers
        the next moments (:func:`.resync.resumes_at`), :data:`.resync.MAX_OUT_OF_STEP` at
        most. Without positions: :meth:`_follow`.
        """
        if state.phase is Phase.GAME_OVER:
            raise GameCut("the game is over", short=False)
        if not can_restart(self.proc, state):
            self._follow(state, failure)
            return
        kind = moment_kind(state)
        if state.phase is Phase.DEALING:  # a deal over: its moments are offered again
            self._offers = MAX_OUT_OF_STEP
        if not self._offers or not self.moments.offered(kind):
            self._drift(state)
            return
        try:
            msg, fresh, seen = restart_from(self.proc, state)
        except OutOfStep as out:
            self.moments.note(kind, False, out.refused)
            self._offers -= 1
            self._drift(state)
            return
        self.moments.note(kind, True)
        self._adrift = False
        self._offers = MAX_OUT_OF_STEP
        self.stats.resyncs += 1
        self.record.begin(msg)
        self._in_step(fresh, seen)

    def _drift(self, state: GameState) -> None:
        """The reference goes on alone from ``state``; the game ends when no kind of moment is
        offered any more (:class:`.resync.Moments`)."""
        if self.proc.can("position") and not self.moments.any_offered():
            raise GameCut("the implementation takes no start from a position")
        self._adrift = True
        self.state = state

    def _in_step(self, state: GameState, seen: dict[str, Any]) -> None:
        """Both games are at ``state`` again, whose observation ``seen`` the implementation
        answered."""
        self.state = state
        self._played.observed(state, seen)
        self._judge.seen = state
        self._rollbacks = 0

    def _follow(self, state: GameState, failure: Failure | None) -> None:
        """Without positions: go on at ``state`` (the reference's, after ``failure``), or at the
        next deal.

        Between deals, the next deal starts from the implementation's totals
        where only the scores differ, or where it scored without the moon
        choice the reference waits for (:func:`.resync.follow_between_deals`).
        When the implementation's observation (``failure``'s) is the first
        trick about to be led while the reference passes (or leads it with
        other hands), the reference takes its hands there
        (:func:`.resync.follow_to_first_trick`). Otherwise the reference plays
        on alone, and the next deal dealt is sent to the implementation as the
        ``start`` of that deal of the game (:func:`.resync.is_deal_start`),
        judged as any start.
        """
        seen = _observation_of(failure) if failure is not None else None
        if failure is not None and seen is not None and failure.fields:
            scores = follow_between_deals(state, failure.actual, seen)
            if scores is not None:
                self.stats.followed += 1
                self._adrift = False
                self.state = scores
                return
        followed = follow_to_first_trick(state, seen) if seen is not None else None
        if followed is not None:
            self._adrift = False
            self._in_step(followed, seen or {})
            return
        if failure is None and is_deal_start(state):
            self.start(dealt_start(state.ruleset, state.hands, state.extras,
                                   deal_number=state.deal_number, dealer=state.dealer,
                                   totals=state.totals), state=state, resumed=True)
            return
        self._drift(state)

    def _recover(self, failure: Failure, step: Step) -> bool:
        """After a divergence at ``step`` (one action per request): go on (:meth:`_restart`)."""
        self._diverged(failure)
        resume = step.after if step.after is not None else step.before
        if can_restart(self.proc, resume):
            self._restart(resume)
            return step.after is not None
        if failure.actual.get("type") == "rejected" and step.after is not None:
            # a legal action rejected: the implementation's game did not move
            self._rollbacks += 1
            if self._rollbacks > MAX_ROLLBACKS:
                raise GameCut(f"{MAX_ROLLBACKS} legal actions rejected in a row")
            self.state = step.before
            record = self.record
            if len(record.actions) == step.sent and record.actions[-1] is step.action:
                record.actions.pop()  # not part of either game: a later failure replays without it
                record.sent -= 1
            return False
        self._restart(resume, failure)
        return step.after is not None


def _observation_of(failure: Failure) -> dict[str, Any] | None:
    """The implementation's whole observation at ``failure`` (the fields that differ over the
    reference's), or None when it answered otherwise."""
    actual = failure.actual
    if actual.get("type") == "observation":
        return {k: v for k, v in actual.items() if k != "type"}
    reference = failure.reference or {}
    if "type" in actual or reference.get("type") != "observation":
        return None
    return {**{k: v for k, v in reference.items() if k != "type"}, **actual}
