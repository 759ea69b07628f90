""":class:`InProcessAdapter`: the conversation with an adapter object in this process, answer
for answer the one over the pipe."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from rules_ref.actions import DealCards
from rules_ref.conform.outcome import Config
from rules_ref.deal import seeded_deal
from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.in_process import InProcessAdapter, in_process
from rules_ref.protocol.messages import AdapterFault
from rules_ref.protocol.reference_adapter import UNANSWERABLE, ReferenceAdapter
from rules_ref.ruleset import PassDirection, Ruleset
from rules_ref.state import GameState

from .protocol_messages import dealt_start

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
_DEALT = seeded_deal(3, 6, 1, 0)
_HOLD = Ruleset(pass_cycle=(PassDirection.HOLD,))
START = dealt_start(GameState.start(6, _HOLD, 0, (0,) * 6, 1).apply(
    DealCards(_DEALT.hands, _DEALT.extras))[0])


class Failing(ReferenceAdapter):
    """The reference adapter, raising ``error`` on every action."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def answer(self, line: str) -> dict[str, Any]:
        if '"type":"action"' in line:
            raise self.error
        return super().answer(line)


def _conversation(proc: AdapterProcess) -> list[dict[str, Any]]:
    hello = proc.hello()
    started = proc.request(START)
    play = {"type": "play", "seat": started["to_act"], "card": started["legal"][0]}
    answers = [hello, started, proc.act(play)]
    answers.append(proc.act({"type": "play", "seat": 99, "card": "2C"}))
    return answers


def test_every_answer_is_the_one_the_adapter_program_sends() -> None:
    with AdapterProcess(REFERENCE, timeout=60) as piped, \
            InProcessAdapter(ReferenceAdapter()) as inside:
        over_pipe, in_process_ = _conversation(piped), _conversation(inside)
        assert in_process_ == over_pipe
        assert (inside.version, inside.capabilities) == (piped.version, piped.capabilities)
        assert inside.alive()
    assert not inside.alive()
    assert inside.close() == 0


def test_an_answer_checked_as_over_the_pipe() -> None:
    class Nameless(ReferenceAdapter):
        def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
            return {**super().hello(request), "name": 7}

    with InProcessAdapter(Nameless()) as proc, pytest.raises(AdapterFault) as caught:
        proc.hello()
    assert caught.value.kind == "handshake"
    assert '"name":7' in caught.value.evidence()


@pytest.mark.parametrize(("error", "status", "said"), [
    (ValueError("no such card"), 2, "adapter: cannot answer '{\"id\":2,\"type\":\"action\""),
    (ZeroDivisionError("division by zero"), 1, "ZeroDivisionError: division by zero"),
])
def test_an_adapter_raising_has_exited(error: Exception, status: int, said: str) -> None:
    proc = InProcessAdapter(Failing(error), unanswerable=UNANSWERABLE)
    proc.hello([1])  # version 1: an engine's failure is no error answer
    proc.request(START)
    with pytest.raises(AdapterFault) as caught:
        proc.act({"type": "play", "seat": 0, "card": "2C"})
    fault = caught.value
    assert (fault.kind, fault.exit_status) == ("exit", status)
    assert fault.detail == (f"the adapter exited with status {status} instead of answering "
                            "message 2 (action)")
    assert fault.stderr.startswith(said)
    assert not proc.alive()
    with pytest.raises(AdapterFault, match="instead of answering message 3"):
        proc.request({"type": "observe"})
    assert proc.close() == status


def test_a_run_connects_to_a_process_unless_told_otherwise() -> None:
    assert Config(["adapter"]).connect is AdapterProcess
    connect = in_process(ReferenceAdapter)
    first, second = connect(["in-process"], 5.0), connect(["in-process"], 5.0)
    assert isinstance(first, InProcessAdapter) and isinstance(second, InProcessAdapter)
    assert first.adapter is not second.adapter and first.timeout == 5.0
