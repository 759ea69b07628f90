"""The requests of a session to the adapter, in order, and the answers they are waiting for.

:class:`Pipeline` is given the adapter process, the session's judge
(:class:`Judging`, :mod:`.judging`), tally (:mod:`.tally`) and game record
(:class:`.steps.GameRecord`, whose actions sent it counts). It queues the
steps (:mod:`.steps`), sends them as ``batch`` requests and the checks as
``observe`` requests, at most ``window`` of them unanswered, and hands every
answer to the judge in the order the requests were sent. A call that may
judge answers is given what the session does after a divergence
(:class:`Resync`).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..actions import Play
from ..deal import MAX_PLAYERS
from ..findings.failure import Failure, FoundFailure, describe_action
from ..jsonio.serialize import action_to_json
from ..protocol.client import AdapterProcess
from ..protocol.messages import AdapterFault
from ..protocol.observation import CARD_TEXT
from ..state import GameState
from .steps import Check, GameRecord, Start, Step
from .tally import Tally

#: A request sent and not yet answered: its id, and the actions of a batch, the check of an
#: ``observe`` or a ``start``.
_Request = tuple[int, "list[Step] | Check | Start"]


class LaterDivergence(FoundFailure):
    """A divergence met judging an answer in its turn (a start's, or one of a batch): the
    reference state the implementation is started again from (after the action, before it
    when the reference rejects it, or the start's), and the batch's later steps (judged
    again)."""

    def __init__(self, failure: Failure, resume: GameState, later: list[Step]) -> None:
        super().__init__(failure)
        self.resume = resume
        self.later = later


class Judging(Protocol):
    """What the pipeline asks of the judge (:class:`.judging.Judge`): each answer judged,
    a divergence raised as :class:`FoundFailure`."""

    def judge(self, step: Step, kind: str, answer: dict[str, Any]) -> bool:
        """Judge the answer to ``step``; True if the reference accepted its action."""

    def judge_start(self, started: Start, kind: str, answer: dict[str, Any]) -> None:
        """Judge the answer to the ``start`` of ``started``."""

    def judge_unchanged(self, check: Check, answer: dict[str, Any]) -> None:
        """Judge the answer to the ``observe`` of ``check``."""


class Resync(Protocol):
    """What the pipeline asks of the session when an answer diverges."""

    def recorded(self, found: FoundFailure) -> None:
        """Record the divergence ``found`` (raise it when divergences are not played past)."""

    def resume(self, found: LaterDivergence) -> None:
        """Bring the implementation back in step after ``found`` and play again, into the
        queue, the steps after it (:meth:`Pipeline.take_back`)."""


class Pipeline:
    """The requests of one session: queued, sent, and answered in order.

    ``batch``: the actions one request carries (0: one ``action`` request
    each, sent by :meth:`exchange`); ``window``: at most this many requests
    unanswered. ``before_start`` is called once, before the first ``start`` is
    sent: the runner judges there what an earlier session left awaited
    (:meth:`send_all`).
    """

    def __init__(self, proc: AdapterProcess, judge: Judging, tally: Tally, record: GameRecord,
                 batch: int, window: int,
                 before_start: Callable[[], None] | None = None) -> None:
        self._proc = proc
        self._judge = judge
        self._tally = tally
        self._record = record
        self._batch = batch
        self._window = window
        self._before_start = before_start
        #: The steps and checks queued and not sent yet.
        self._queue: list[Step | Check] = []
        #: With ``pipeline``, the ``start`` not sent yet: it goes just before the first request
        #: of its game (:meth:`send_next`).
        self._unsent_start: Start | None = None
        #: The requests sent and not yet answered, oldest first.
        self._inflight: deque[_Request] = deque()
        #: The first action of the request being answered (or its start): a fault is
        #: reported there.
        self.awaited: Step | Start | None = None
        #: While the steps after a divergence are played again: they are queued, not sent,
        #: until the caller sends them.
        self._held = False

    # --- sending ---

    def send_start(self, msg: dict[str, Any]) -> int:
        """Send the ``start`` ``msg``; return its id. The first of a game's session judges
        before it what the session before left awaited (``before_start``)."""
        if self._before_start is not None:
            settle, self._before_start = self._before_start, None
            settle()
        return self._proc.send(msg)

    def defer_start(self, started: Start) -> bool:
        """With ``pipeline`` and batches, keep ``started`` to send just before its game's first
        batch, so that the implementation answers the end of the game before while the runner
        plays this one's first actions: True. Else False: the caller sends it at once."""
        if not self._batch or self._window < 2:
            return False
        self._unsent_start = started
        return True

    def answer(self, msg_id: int, what: str, about: str) -> tuple[str, dict[str, Any]]:
        """Read the answer to ``msg_id``: an observation, a well-formed rejection or error.

        Returns its kind and its fields (without ``type`` and ``id``); any
        other answer is an adapter fault.
        """
        answer = self._proc.receive(msg_id, what)
        kind = self._proc.checked(answer, self._proc.answer_kinds, f"message {msg_id} ({about})")
        answer.pop("type", None)
        answer.pop("id", None)
        return kind, answer

    def exchange(self, step: Step) -> tuple[str, dict[str, Any]]:
        """Send ``step``'s action alone (without batches) and read its answer."""
        self._tally.count()
        self._record.sent += 1
        self.awaited = step
        action_json = action_to_json(step.action)
        msg_id = self._proc.send({"type": "action", "action": action_json})
        answer = self.answer(msg_id, "action", describe_action(action_json))
        self.awaited = None
        return answer

    def add(self, step: Step, resync: Resync) -> None:
        """Queue ``step``; a full batch is sent (not while steps are played again)."""
        queue = self._queue
        queue.append(step)
        if len(queue) >= self._batch and not self._held:
            self.send_next(resync)

    def add_check(self, check: Check) -> None:
        """Queue the ``observe`` of ``check``, sent right after the batch before it."""
        self._queue.append(check)

    def send_next(self, resync: Resync) -> None:
        """Send the next request of the queue: a batch of the queued actions, or the
        ``observe`` of a check, once fewer requests than the window are unanswered.

        The answers are read later (:meth:`settle`), when a later request is
        ready or the conversation ends, so that the implementation works on
        one batch while the runner draws the next.
        """
        self._tally.count()
        started = self._unsent_start
        if started is not None:
            self._unsent_start = None
            self.settle(resync, keep=self._window - 1)
            self._inflight.append((self.send_start(started.msg), started))
        self.settle(resync, keep=self._window - 1)
        queue = self._queue
        if not queue:  # played on by the reference alone (out of step)
            return
        if isinstance(check := queue[0], Check):
            del queue[0]
            self._inflight.append((self._proc.send_observe(), check))
            return
        steps: list[Step] = []
        for item in queue:
            if not isinstance(item, Step) or len(steps) == self._batch:
                break
            steps.append(item)
        if steps:
            del queue[:len(steps)]
            self._record.sent = steps[-1].sent
            texts = [_action_text(s) for s in steps]
            self._inflight.append((self._proc.send_batch_encoded(texts), steps))

    # --- a game's end ---

    def flush(self, resync: Resync) -> None:
        """Send what is queued and judge every answer still awaited, in order.

        A divergence inside a batch puts the batch's later actions back in the
        queue (:meth:`settle`), so this sends and judges until nothing is
        queued or awaited.
        """
        self._tally.count()
        while True:
            if self._queue or self._unsent_start is not None:
                self.send_next(resync)
            self.settle(resync)
            if not self._queue:
                return

    def send_all(self, resync: Resync) -> None:
        """Send everything queued, leaving the last request unanswered (a game's end).

        The runner judges its answers (:meth:`flush`) just before the next
        game's ``start``, so that it draws that game while the implementation
        answers the end of this one.
        """
        self._tally.count()
        while True:
            while self._queue or self._unsent_start is not None:
                self.send_next(resync)
            # a start still unjudged (a game of one batch) is judged now, its answer long
            # come: the conditions it met count before the next game is drawn
            if not (self._inflight and isinstance(self._inflight[0][1], Start)):
                return
            self.settle(resync, keep=len(self._inflight) - 1)

    def abandon(self) -> None:
        """Read and drop the answers still awaited, when a game ends without its verdict.

        A game may end in the middle (the search stopped, a ruleset refused)
        while a batch is in flight; its answer must still be read so that the
        next request gets the next answer. An adapter that breaks the protocol
        here is ended, and started again for the next game. What was never
        answered is counted off the tally.
        """
        tally = self._tally
        tally.count_off(self._queue, drawn_back=True)  # counts what is left to count first
        self._queue = []
        self._unsent_start = None  # never sent: no answer to read
        if self._proc.alive():
            try:
                while self._inflight:
                    tally.count_off(self._drop_oldest(), drawn_back=True)
            except AdapterFault:
                self._proc.close()
        # what is left was never answered: the adapter is gone
        tally.count_off([s for _, sent in self._inflight if isinstance(sent, list)
                         for s in sent], drawn_back=True)
        self._inflight.clear()

    # --- answers ---

    def settle(self, resync: Resync, keep: int = 0) -> None:
        """Read and judge the answers in flight until at most ``keep`` are; after a
        divergence, ``resync`` resumes at the action that diverged, and what it plays
        again is queued, not sent."""
        try:
            while len(self._inflight) > keep:
                self._collect(resync)
        except LaterDivergence as found:
            self._held = True
            try:
                resync.resume(found)
            finally:
                self._held = False

    def take_back(self) -> list[Step | Check]:
        """After a divergence: read and drop the answers still in flight (they come from a
        game that went another way) and empty the queue; return the steps and checks they
        carried, to be played again."""
        later: list[Step | Check] = []
        while self._inflight:
            later += self._drop_oldest()
        later += self._queue
        self._queue = []
        return later

    def _drop_oldest(self) -> Sequence[Step | Check]:
        """Read the answer to the oldest request in flight without judging it; what it sent
        that is played again after a divergence (a start's game is not)."""
        msg_id, sent = self._inflight.popleft()
        if isinstance(sent, Start):
            self._proc.receive(msg_id, "start")
            return ()
        if isinstance(sent, Check):
            self._proc.receive(msg_id, "observe")
            return (sent,)
        self._proc.receive_batch_items(msg_id, len(sent))
        return sent

    def _collect(self, resync: Resync) -> None:
        """Read the answer to the oldest request in flight and judge it: a start's, each
        answer of a batch in order, or the observation of a check."""
        msg_id, sent = self._inflight.popleft()
        if isinstance(sent, Check):
            answer = self._proc.receive_observe(msg_id)
            try:
                self._judge.judge_unchanged(sent, answer)
            except FoundFailure as found:
                resync.recorded(found)  # nothing to resynchronise: no action moved
            return
        if isinstance(sent, Start):
            self.awaited = sent
            kind, answer = self.answer(msg_id, "start", "start")
            self.awaited = None
            try:
                self._judge.judge_start(sent, kind, answer)
            except FoundFailure as found:
                raise LaterDivergence(found.failure, sent.state, []) from None
            return
        self.awaited = sent[0]
        answers = self._proc.receive_batch_items(msg_id, len(sent))
        self.awaited = None
        judge = self._judge.judge
        for i, (step, answer) in enumerate(zip(sent, answers, strict=False)):
            kind = answer.pop("type")  # the answers end early at an error
            try:
                judge(step, kind, answer)
            except FoundFailure as found:
                resume = step.after if step.after is not None else step.before
                raise LaterDivergence(found.failure, resume, sent[i + 1:]) from None


#: The JSON text of each card play in a request, by seat and card, encoded once: most
#: actions of a batch are card plays.
_PLAY_TEXT = tuple(tuple(json.dumps({"type": "play", "seat": seat, "card": text},
                                    separators=(",", ":")) for text in CARD_TEXT)
                   for seat in range(MAX_PLAYERS))


def _action_text(step: Step) -> str:
    """The JSON text of ``step``'s action, as a batch request carries it."""
    action = step.action
    if type(action) is Play and 0 <= action.seat < MAX_PLAYERS:
        return _PLAY_TEXT[action.seat][action.card]
    return json.dumps(step.action_json, separators=(",", ":"))
