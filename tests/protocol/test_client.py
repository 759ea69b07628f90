""":class:`AdapterProcess` against tiny adapters written as ``python -c`` scripts.

Each script misbehaves in one way; the fault must be of the right kind and
say what happened. Timeouts are far above what a well-behaved answer needs;
only the adapter that never reads waits for one.
"""

from __future__ import annotations

import sys

import pytest

from rules_ref.errors import RulesRefError
from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.messages import AdapterFault

UNHURRIED = 60.0


def _script(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_no_command_and_a_bad_timeout() -> None:
    with pytest.raises(AdapterFault) as caught:
        AdapterProcess([])
    assert (caught.value.kind, caught.value.detail) == (
        "start", "no adapter command given (put it after --)")
    with pytest.raises(RulesRefError, match=r"^the timeout must be a positive number of seconds "
                                             r"below 10\^6, got 0$"):
        AdapterProcess(_script("pass"), timeout=0)


def test_an_answer_longer_than_the_limit() -> None:
    # one write of 51 bytes: the pipe delivers it whole, end of line included
    code = "import os, sys; sys.stdin.readline(); os.write(1, b'x' * 50 + b'\\n'); sys.stdin.read()"
    with AdapterProcess(_script(code), timeout=UNHURRIED, max_line=10) as p:
        msg_id = p.send({"type": "hello"})
        with pytest.raises(AdapterFault) as caught:
            p.receive(msg_id, "hello")
    assert (caught.value.kind, caught.value.detail) == (
        "too-long", "answer to message 0 (hello) is longer than 10 bytes")


def test_a_last_line_without_its_end_of_line() -> None:
    with AdapterProcess(_script("import sys; sys.stdin.readline(); sys.stdout.write('{\"id\"');"
                                " sys.stderr.write('bye now')"), timeout=UNHURRIED) as p:
        msg_id = p.send({"type": "hello"})
        with pytest.raises(AdapterFault) as caught:
            p.receive(msg_id, "hello")
        assert p.alive() is False
    fault = caught.value
    assert (fault.kind, fault.detail) == (
        "exit", "the adapter exited with status 0 instead of answering message 0 (hello)")
    assert '{"id"   (no end of line)' in fault.evidence()
    assert "bye now" in fault.evidence()


def test_an_adapter_that_closed_its_input() -> None:
    code = ("import os, sys, time; sys.stdin.readline(); os.close(0); "
            "print('{\"id\":0,\"type\":\"bye\"}', flush=True); time.sleep(60)")
    with AdapterProcess(_script(code), timeout=UNHURRIED) as p:
        assert p.request({"type": "hello"}) == {"id": 0, "type": "bye"}
        with pytest.raises(AdapterFault) as caught:
            p.send({"type": "observe"})
    assert (caught.value.kind, caught.value.detail) == (
        "exit", "the adapter closed its input before message 1 (observe)")


def test_an_adapter_that_exited_before_a_request() -> None:
    with AdapterProcess(_script("import sys; sys.stdin.readline(); "
                                "print('{\"id\":0,\"type\":\"bye\"}')"), timeout=UNHURRIED) as p:
        assert p.request({"type": "hello"}) == {"id": 0, "type": "bye"}
        p.proc.wait(timeout=UNHURRIED)
        with pytest.raises(AdapterFault) as caught:
            p.request({"type": "observe", "pad": "x" * 200_000})
    assert caught.value.kind == "exit"
    assert caught.value.detail.startswith("the adapter exited with status 0 instead of "
                                          "answering message 1 (observe)")


def test_an_adapter_that_never_reads() -> None:
    with AdapterProcess(_script("import time; time.sleep(60)"), timeout=2.0) as p, \
            pytest.raises(AdapterFault) as caught:
        p.send({"type": "observe", "pad": "x" * 1_000_000})
    assert (caught.value.kind, caught.value.detail) == (
        "timeout", "the adapter does not read its input: message 0 (observe) could not be "
                   "written within 2 s")


def test_close_twice() -> None:
    p = AdapterProcess(_script("import sys; sys.stdin.read()"), timeout=UNHURRIED)
    first = p.close()
    assert p.close() == first
    assert p.alive() is False
