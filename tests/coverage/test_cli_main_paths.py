"""The entry point's own endings: an optional dependency missing, an internal error, the version."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import pytest

import rules_ref
import rules_ref.cli as cli
from rules_ref.cli import rules as rules_command


def _raising(exc: BaseException) -> Any:
    def run(args: object) -> int:
        raise exc
    return run


def test_a_missing_optional_dependency_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(rules_command, "run",
                        _raising(ModuleNotFoundError("no hypothesis", name="hypothesis")))
    assert cli.main(["rules"]) == cli.EXIT_USAGE
    assert capsys.readouterr() == ("", (
        "rules-ref rules: error: this command needs hypothesis, which is not installed: "
        "pip install 'rules-ref[conform]'\n"))


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
