"""The entry point's own endings: an internal error, the version."""

from __future__ import annotations

import sys
from importlib import metadata
from typing import Any

import pytest

import rules_ref
import rules_ref.cli as cli
from rules_ref.cli import rules as rules_command
from rules_ref.conform import runner as search

from .test_conform_report import StepClock


def _raising(exc: BaseException) -> Any:
    def run(args: object) -> int:
        raise exc
    return run


def test_an_internal_error_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(rules_command, "run", _raising(ZeroDivisionError("a\nb")))
    assert cli.main(["rules"]) == cli.EXIT_INTERNAL
    err = capsys.readouterr().err
    assert err.startswith("rules-ref rules: internal error: ZeroDivisionError: a")
    assert err.endswith(" (a bug in rules-ref; --debug shows the traceback)\n")
    assert err.count("\n") == 1


def test_debug_shows_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_command, "run", _raising(ZeroDivisionError("boom")))
    with pytest.raises(ZeroDivisionError, match=r"^boom$"):
        cli.main(["rules", "--debug"])


def test_the_source_tree_version_when_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert cli._version() == rules_ref.__version__


def test_the_version_is_looked_up_only_for_version(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    looked_up: list[str] = []

    def version() -> str:
        looked_up.append("asked")
        return "9.9"

    monkeypatch.setattr(cli, "_version", version)
    assert cli.main(["rules", "TRICK.CANCEL"]) == 0
    assert looked_up == []
    with pytest.raises(SystemExit) as ended:
        cli.main(["--version"])
    assert (ended.value.code, looked_up) == (0, ["asked"])
    assert capsys.readouterr().out.endswith("rules-ref 9.9\n")


def test_a_conform_run_that_compared_nothing_is_not_a_pass(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget that ends the search before its first game tested nothing: exit 4."""
    monkeypatch.setattr(search, "time", StepClock())  # a second passes before the first game
    code = cli.main(["conform", "--examples", "100000", "--players", "6", "--max-seconds", "0.001",
                 "--", sys.executable, "-m", "rules_ref.protocol.reference_adapter"])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert (code, err) == (4, "")
    assert lines[0] == ("conform: NOTHING-TESTED: nothing was tested: no answer of the "
                        "implementation was compared")
    assert lines[1].startswith("conform: 'rules-ref reference adapter': 0 games, no deal "
                               "played to the end, 0 actions compared")
    assert lines[-2:] == [
        "nothing was tested: no answer of the implementation was compared (the time budget "
        "of 0.001 s ended the search before its first game)",
        "verdict: NOTHING-TESTED"]
