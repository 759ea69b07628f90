"""The parts of a session, each alone: the requests in flight and the exercise tally.

The pipeline (:mod:`rules_ref.conform.pipeline`) is played against an adapter
that answers every request at once and a judge that writes down what it
judges, so that the order of what is sent and judged reads as a list. The tally
(:mod:`rules_ref.conform.tally`) counts a step with its batch and counts it off
when the implementation never answers it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rules_ref.conform.pipeline import LaterDivergence, Pipeline
from rules_ref.conform.steps import UNTALLIED, Check, GameRecord, Start, Step
from rules_ref.conform.tally import Tally
from rules_ref.findings.failure import Failure, FoundFailure, Stats
from rules_ref.players.game import game_steps
from rules_ref.protocol.observation import observe

#: A game of six, action by action: (before, action, after, events).
_GAME = list(game_steps(6, 1))


class _Adapter:
    """An adapter that answers every request as soon as it is read; ``log`` gets a line for
    each request sent and each answer read."""

    answer_kinds = ("observation", "rejected", "error")

    def __init__(self, log: list[str]) -> None:
        self.log = log
        self._last = 0

    def _sent(self, what: str) -> int:
        self._last += 1
        self.log.append(f"send #{self._last}: {what}")
        return self._last

    def send(self, msg: dict[str, Any]) -> int:
        return self._sent(msg["type"])

    def send_observe(self) -> int:
        return self._sent("observe")

    def send_batch_encoded(self, texts: Sequence[str]) -> int:
        return self._sent(f"batch of {len(texts)}")

    def receive(self, msg_id: int, what: str) -> dict[str, Any]:
        self.log.append(f"read #{msg_id}")
        return {"type": "observation", "id": msg_id}

    def receive_batch_items(self, msg_id: int, count: int) -> list[dict[str, Any]]:
        self.log.append(f"read #{msg_id}")
        return [{"type": "observation"} for _ in range(count)]

    def receive_observe(self, msg_id: int) -> dict[str, Any]:
        self.log.append(f"read #{msg_id}")
        return {"type": "observation"}

    def checked(self, answer: dict[str, Any], allowed: Sequence[str], about: str) -> str:
        return str(answer["type"])

    def alive(self) -> bool:
        return True

    def close(self) -> None:
        pass


class _Judge:
    """Writes down each answer judged; the step sent ``diverges`` (its number after the
    start) diverges."""

    def __init__(self, log: list[str], diverges: int = 0) -> None:
        self.log = log
        self.diverges = diverges

    def judge(self, step: Step, kind: str, answer: dict[str, Any]) -> bool:
        self.log.append(f"judge {step.sent}")
        if step.sent == self.diverges:
            raise FoundFailure(_failure())
        return True

    def judge_start(self, started: Start, kind: str, answer: dict[str, Any]) -> None:
        self.log.append("judge the start")

    def judge_unchanged(self, check: Check, answer: dict[str, Any]) -> None:
        self.log.append(f"judge the check after {check.actions}")


class _Resync:
    """Writes down each divergence; resumes by queueing again what the pipeline gives back."""

    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.pipeline: Pipeline | None = None

    def recorded(self, found: FoundFailure) -> None:
        self.log.append("recorded")

    def resume(self, found: LaterDivergence) -> None:
        assert self.pipeline is not None
        later = [s for s in (*found.later, *self.pipeline.take_back()) if isinstance(s, Step)]
        self.log.append(f"resume, again {[s.sent for s in later]}")
        for step in later:
            self.pipeline.add(step, self)


def _failure() -> Failure:
    return Failure(kind="disagreement", rules=[], summary="", start={}, actions=[],
                   failing=None, position={}, expected={}, actual={})


def _step(sent: int, tallied: tuple[Sequence[str], Sequence[str]] = UNTALLIED,
          offer: str = "") -> Step:
    """The ``sent``-th action of the game of six, as sent after its start."""
    before, action, after, _ = _GAME[sent - 1]
    return Step(before, action, after, {}, (), sent, tallied, None, offer)


def _pipeline(log: list[str], batch: int, window: int, diverges: int = 0,
              stats: Stats | None = None) -> tuple[Pipeline, _Resync, GameRecord]:
    record = GameRecord()
    pipeline = Pipeline(_Adapter(log), _Judge(log, diverges),  # type: ignore[arg-type]
                        Tally(stats or Stats()), record, batch, window)
    resync = _Resync(log)
    resync.pipeline = pipeline
    return pipeline, resync, record


def test_two_requests_in_flight_the_oldest_judged_before_a_third_is_sent() -> None:
    log: list[str] = []
    pipeline, resync, record = _pipeline(log, batch=2, window=2)
    for sent in range(1, 7):
        pipeline.add(_step(sent), resync)
    assert log == ["send #1: batch of 2", "send #2: batch of 2",
                   "read #1", "judge 1", "judge 2", "send #3: batch of 2"]
    assert record.sent == 6
    pipeline.flush(resync)
    assert log[6:] == ["read #2", "judge 3", "judge 4", "read #3", "judge 5", "judge 6"]


def test_one_request_at_a_time_without_pipeline() -> None:
    log: list[str] = []
    pipeline, resync, _ = _pipeline(log, batch=2, window=1)
    for sent in range(1, 5):
        pipeline.add(_step(sent), resync)
    pipeline.add(_step(5), resync)  # queued: the batch is not full
    assert log == ["send #1: batch of 2", "read #1", "judge 1", "judge 2",
                   "send #2: batch of 2"]
    pipeline.flush(resync)
    assert log[5:] == ["read #2", "judge 3", "judge 4", "send #3: batch of 1",
                       "read #3", "judge 5"]


def test_a_deferred_start_goes_just_before_the_first_batch_and_is_judged_first() -> None:
    log: list[str] = []
    pipeline, resync, _ = _pipeline(log, batch=2, window=2)
    state = _GAME[0][0]
    assert pipeline.defer_start(Start({"type": "start"}, state, observe(state), True))
    assert log == []
    for sent in range(1, 5):
        pipeline.add(_step(sent), resync)
    pipeline.flush(resync)
    assert log == ["send #1: start", "send #2: batch of 2", "read #1", "judge the start",
                   "send #3: batch of 2", "read #2", "judge 1", "judge 2",
                   "read #3", "judge 3", "judge 4"]


def test_a_start_is_sent_at_once_one_request_at_a_time_or_without_batches() -> None:
    state = _GAME[0][0]
    started = Start({"type": "start"}, state, observe(state), True)
    assert not _pipeline([], batch=2, window=1)[0].defer_start(started)
    assert not _pipeline([], batch=0, window=2)[0].defer_start(started)


def test_a_check_goes_as_an_observe_right_after_the_batch_before_it() -> None:
    log: list[str] = []
    pipeline, resync, _ = _pipeline(log, batch=2, window=2)
    pipeline.add(_step(1), resync)
    pipeline.add_check(Check(_GAME[1][0], 1))
    pipeline.add(_step(2), resync)  # a batch ends at a check: one action goes
    pipeline.flush(resync)
    assert log == ["send #1: batch of 1", "send #2: observe", "read #1", "judge 1",
                   "read #2", "judge the check after 1", "send #3: batch of 1", "read #3",
                   "judge 2"]


def test_after_a_divergence_the_later_steps_are_queued_again_and_sent_once_judged() -> None:
    log: list[str] = []
    pipeline, resync, _ = _pipeline(log, batch=2, window=2, diverges=3)
    for sent in range(1, 7):
        pipeline.add(_step(sent), resync)
    pipeline.flush(resync)
    assert log == ["send #1: batch of 2", "send #2: batch of 2",
                   "read #1", "judge 1", "judge 2", "send #3: batch of 2",
                   "read #2", "judge 3",  # diverges: 4 is played again, #3 dropped
                   "read #3", "resume, again [4, 5, 6]",
                   "send #4: batch of 2", "read #4", "judge 4", "judge 5",
                   "send #5: batch of 1", "read #5", "judge 6"]


def test_a_divergence_without_a_handler_is_raised_at_the_step() -> None:
    log: list[str] = []
    pipeline, _, _ = _pipeline(log, batch=2, window=1, diverges=2)

    class Raising(_Resync):
        def resume(self, found: LaterDivergence) -> None:
            raise found

    with pytest.raises(LaterDivergence) as raised:
        for sent in range(1, 5):
            pipeline.add(_step(sent), Raising(log))
    assert raised.value.resume is _GAME[1][2]  # the state after the action that diverged
    assert [s.sent for s in raised.value.later] == []


def test_abandoning_counts_off_what_was_never_answered() -> None:
    stats = Stats(exercise=Counter({"A": 3, "B": 1}), illegal=2,
                  offers=Counter({"wrong-suit": 2}))
    log: list[str] = []
    pipeline, resync, _ = _pipeline(log, batch=2, window=2, stats=stats)
    pipeline.add(_step(1, (["A"], ())), resync)
    pipeline.add(_step(2, (["A", "B"], ()), offer="wrong-suit"), resync)  # sent
    pipeline.add(_step(3, (["A"], ())), resync)  # queued
    pipeline.abandon()
    assert log == ["send #1: batch of 2", "read #1"]  # read, not judged
    assert stats.exercise == Counter()
    assert (stats.illegal, stats.offers) == (1, Counter({"wrong-suit": 1}))


def test_a_steps_conditions_count_with_its_batch() -> None:
    stats = Stats()
    tally = Tally(stats)
    before, action, after, events = _GAME[0]  # the first deal
    conditions, rare = tally.step(before, action, after, events)
    assert stats.exercise == Counter()
    tally.count()
    assert list(conditions) == [
        "DEAL.SOURCE: a deal that makes up the deck is accepted",
        "DEAL.SIZE: 6 players: 17 cards each and 2 extras",
        "DECK.CARDS: a hand holds both copies of a card",
        "VIEW.SEAT: a seat's view while passing",
        "PASS.DIRECTION: a deal whose direction is left",
        "PASS.DIRECTION: under pass_cycle = left,right"]
    assert stats.exercise == Counter(conditions)
    assert rare == ()


def test_a_steps_conditions_count_before_a_start_is_counted() -> None:
    stats = Stats()
    tally = Tally(stats)
    tally.step(*_GAME[0])
    tally.started(_GAME[0][0])
    assert stats.exercise["DEAL.SIZE: 6 players: 17 cards each and 2 extras"] == 2
    assert stats.exercise["PLAYERS.COUNT: a game of 6 players"] == 1


def test_counted_off_a_step_counts_nothing() -> None:
    stats = Stats(exercise=Counter({"A": 2, "B": 1}), rare=Counter({"R": 1}))
    tally = Tally(stats)
    step = _step(1, (["A", "B"], ["R"]), offer="wrong-suit")
    tally.count_off([step, Check(_GAME[0][0], 0)])
    assert (stats.exercise, stats.rare) == (Counter({"A": 1}), Counter())
    assert step.tallied == UNTALLIED
    assert step.offer == "wrong-suit"  # still offered: it is played again
    tally.count_off([step])
    assert stats.exercise == Counter({"A": 1})


def test_a_step_drawn_back_is_counted_off_the_offers_too() -> None:
    stats = Stats()
    tally = Tally(stats)
    tally.offered("wrong-suit")
    tally.offered("wrong-suit")
    tally.offered("heart-lead")
    step = _step(1, offer="heart-lead")
    tally.count_off([step], drawn_back=True)
    assert (stats.illegal, stats.offers) == (2, Counter({"wrong-suit": 2}))
    assert step.offer == ""
