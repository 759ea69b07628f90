"""``rules-ref adapter``: the reference adapter as a command, and at its earlier documented path.

The three ways to start it (the command, the module, the old module path)
are one program: the same answers to the same conversation.
"""

from __future__ import annotations

import io
import json
import runpy
import subprocess
import sys

import pytest

from rules_ref import cli

CONVERSATION = "".join(json.dumps(m) + "\n" for m in (
    {"type": "hello", "id": 1, "protocol": [1, 2]},
    {"type": "bye", "id": 2},
))
WAYS = {
    "command": [sys.executable, "-m", "rules_ref", "adapter"],
    "module": [sys.executable, "-m", "rules_ref.protocol.reference_adapter"],
    "old module path": [sys.executable, "-m", "rules_ref.conformance.adapter"],
}


def _talk(command: list[str], *args: str) -> list[dict[str, object]]:
    done = subprocess.run([*command, *args], input=CONVERSATION, capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("way", sorted(WAYS))
def test_every_way_of_starting_the_adapter_speaks_the_same(way: str) -> None:
    answers = _talk(WAYS[way])
    assert answers == _talk(WAYS["module"])
    assert [(a["id"], a["type"]) for a in answers] == [(1, "hello"), (2, "bye")]
    assert answers[0]["version"] == 2


def test_the_command_passes_the_protocol_version_on() -> None:
    assert _talk(WAYS["command"], "--protocol", "1")[0]["version"] == 1


def test_the_command_refuses_a_version_it_does_not_speak() -> None:
    done = subprocess.run([*WAYS["command"], "--protocol", "7"], input="", capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", "adapter: protocol version '7' is not one of 1, 2\n")


@pytest.mark.parametrize("args", [[], ["--protocol", "1"]])
def test_the_command_serves_standard_input(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str],
                                           args: list[str]) -> None:
    """In this process: the same conversation, answered on standard output."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(CONVERSATION))
    assert cli.main(["adapter", *args]) == 0
    out, err = capsys.readouterr()
    answers = [json.loads(line) for line in out.splitlines()]
    assert err == ""
    assert [(a["id"], a["type"], a.get("version")) for a in answers] == [
        (1, "hello", 1 if args else 2), (2, "bye", None)]


# runpy warns when the module it runs as __main__ was imported already (by other tests).
@pytest.mark.filterwarnings("ignore:'rules_ref.conformance.adapter' found in sys.modules")
@pytest.mark.filterwarnings("ignore:'rules_ref.protocol.reference_adapter' found in sys.modules")
@pytest.mark.parametrize("module", ["rules_ref.conformance.adapter",
                                    "rules_ref.protocol.reference_adapter"])
def test_the_adapter_runs_as_a_module_one_answer_a_line_until_bye(
        module: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m MODULE`` (the old path, and the reference adapter's own)."""
    monkeypatch.setattr(sys, "argv", ["adapter.py"])
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"id": 0, "type": "bye"}\n{"id": 1}\n'))
    with pytest.raises(SystemExit) as ended:
        runpy.run_module(module, run_name="__main__")
    assert ended.value.code == 0
    assert capsys.readouterr() == ('{"id":0,"type":"bye"}\n', "")
