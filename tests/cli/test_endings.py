"""How a command ends when it is interrupted, terminated or its output closes; the entry points."""

from __future__ import annotations

import io
import runpy
import sys
import threading
from typing import Any

import pytest

import rules_ref.cli as cli
from rules_ref import registry
from rules_ref.cli import rules as rules_command
from rules_ref.protocol.reference_adapter import ReferenceAdapter


def _raising(exc: BaseException) -> Any:
    def run(args: object) -> int:
        raise exc
    return run


@pytest.mark.parametrize(("exc", "code", "err"), [
    (KeyboardInterrupt(), 130, "rules-ref rules: interrupted\n"),
    (cli._Terminated(), cli.EXIT_TERMINATED, "rules-ref rules: terminated\n"),
    (BrokenPipeError(), cli.EXIT_OK, ""),
])
def test_an_ending_from_outside_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str],
                                            exc: BaseException, code: int, err: str) -> None:
    monkeypatch.setattr(rules_command, "run", _raising(exc))
    assert cli.main(["rules"]) == code
    assert capsys.readouterr() == ("", err)


def test_sigterm_is_left_alone_outside_the_main_thread() -> None:
    restores: list[object] = []
    worker = threading.Thread(target=lambda: restores.append(cli._end_on_sigterm()))
    worker.start()
    worker.join()
    assert restores == [None]


def test_python_dash_m_runs_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["rules-ref", "rules", "TRICK.CANCEL"])
    with pytest.raises(SystemExit) as ended:
        runpy.run_module("rules_ref", run_name="__main__")
    assert ended.value.code == 0
    title = registry.rule("TRICK.CANCEL").title
    assert capsys.readouterr().out.splitlines()[0] == f"TRICK.CANCEL: {title}"


def test_the_reference_adapter_stops_at_a_request_it_cannot_answer(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    code = ReferenceAdapter().serve(io.StringIO('{"id": 0, "type": "shuffle"}\n'), out)
    assert code == 2
    assert out.getvalue() == ""
    assert capsys.readouterr().err == (
        "adapter: cannot answer '{\"id\": 0, \"type\": \"shuffle\"}\\n': unknown request type "
        "'shuffle'\n")
    assert ReferenceAdapter().serve(io.StringIO(""), out) == 0  # end of input: done
