"""``rules-ref conform`` in this process against broken adapters: each fault named, with evidence.

The faulty adapter is :mod:`tests.hostile.fault_adapter`; the runs here are
the in-process twins of ``tests/hostile/test_faults.py`` (which runs the
command as a separate process), so that the fault paths of the adapter
process and of the command's report are measured. Timeouts are generous:
only the modes that fall silent wait for one, and it is long enough for the
adapter to start and answer the messages before its fault on a slow machine.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

import rules_ref.cli as cli
from rules_ref.actions import DealCards
from rules_ref.cli.common import reference_adapter

ROOT = Path(__file__).resolve().parents[2]
FAULTY = [sys.executable, str(ROOT / "tests" / "hostile" / "fault_adapter.py")]
REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
SILENT_TIMEOUT = 4.0
UNHURRIED = 120.0
CONFORM = ["conform", "--examples", "1", "--seed", "1", "--shrink-seconds", "1",
           "--max-seconds", "600"]


@pytest.fixture
def faulty_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("FAULT_AT", "2")
    monkeypatch.setenv("FAULT_TIMEOUT", f"{SILENT_TIMEOUT:g}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _conform(mode: str, out: Path, *extra: str, timeout: float = UNHURRIED) -> int:
    return cli.main([*CONFORM, "--timeout", f"{timeout:g}", "--out", str(out), *extra,
                     "--", *FAULTY, mode])


@pytest.mark.parametrize(("mode", "kind", "evidence"), [
    ("invalid-json", "not-json", "is not JSON"),
    ("not-object", "shape", "not a JSON object but a list"),
    ("long-line", "too-long", "longer than 1048576 bytes"),
    ("flood", "too-long", "no end of line after"),
    ("invalid-utf8", "not-utf8", "\\xff"),
    ("flood-lines", "unsolicited", "nobody asked for"),
    ("unsolicited", "unsolicited", "nobody asked for"),
    ("wrong-id", "wrong-id", "carries id"),
    ("exit", "exit", "exited with status 3"),
    ("signal", "exit", "killed by signal SIGUSR1"),
    ("close-stdout", "exit", "closed its standard output"),
    ("grandchild", "exit", "still holds its output open"),
])
def test_a_fault_during_a_game_is_named_with_a_replay_file(
        faulty_env: Path, capsys: pytest.CaptureFixture[str], mode: str, kind: str,
        evidence: str) -> None:
    out = faulty_env / "out"
    assert _conform(mode, out) == 2
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    assert f"  fault: {kind}: " in stderr
    assert evidence in stderr
    assert stderr.endswith("verdict: FAULT\n")
    replays = sorted(p.name for p in out.iterdir())
    assert replays == ["replay-1-fault.json"]
    assert f"  replay file: {out / replays[0]}\n" in stderr


@pytest.mark.untraced
def test_a_silence_ends_at_the_timeout(faulty_env: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # the two silences wait out their timeouts side by side: one game replayed in a thread
    # (no Hypothesis search there; its outcome read directly), the other through the command
    # and its report
    from concurrent.futures import ThreadPoolExecutor

    from rules_ref.conform.outcome import Config
    from rules_ref.conform.rerun import run_replay
    from rules_ref.deal import seeded_deal
    from rules_ref.state import GameState

    dealt = seeded_deal(seed=1, players=6, deal_number=1, dealer=0)
    start = {"type": "start", "players": 6, "ruleset": {}, "dealer": 0, "deal_number": 1,
             "totals": [0] * 6, "hands": [[str(c) for c in h] for h in dealt.hands],
             "extras": [str(c) for c in dealt.extras]}
    state, _ = GameState.start(6).apply(DealCards(dealt.hands, dealt.extras))
    config = Config(command=[*FAULTY, "no-newline"], timeout=SILENT_TIMEOUT)
    with ThreadPoolExecutor(max_workers=1) as pool:
        # message 2, the first action, is where the adapter falls silent
        beside = pool.submit(run_replay, config, start, [state.legal_actions()[0]])
        assert _conform("hang", faulty_env / "out", timeout=SILENT_TIMEOUT) == 2
        outcome = beside.result()
    stderr = capsys.readouterr().err
    assert "  fault: timeout: " in stderr and f"within {SILENT_TIMEOUT:g} s" in stderr
    assert stderr.endswith("verdict: FAULT\n")
    assert outcome.failure is not None and outcome.failure.fault is not None
    assert outcome.failure.fault["kind"] == "timeout"
    assert "no end of line" in outcome.failure.fault["message"]


@pytest.mark.parametrize(("mode", "kind", "evidence"), [
    ("bad-hello", "handshake", "player counts 5-11"),
    ("early-message", "unsolicited", "message 0 (hello)"),
])
def test_a_fault_in_the_handshake_has_no_game(faulty_env: Path,
                                              capsys: pytest.CaptureFixture[str], mode: str,
                                              kind: str, evidence: str) -> None:
    assert _conform(mode, faulty_env / "out") == 2
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    assert stderr.startswith(f"rules-ref conform: adapter fault ({kind}): ")
    assert evidence in stderr
    assert f"  command: {' '.join(FAULTY)} {mode}\n" in stderr
    assert not (faulty_env / "out").exists()


@pytest.mark.parametrize("mode", ["split", "stderr-flood", "linger"])
def test_legal_oddities_pass(faulty_env: Path, capsys: pytest.CaptureFixture[str],
                             mode: str) -> None:
    assert _conform(mode, faulty_env / "out") == 0
    stdout, stderr = capsys.readouterr()
    assert stderr == ""
    assert stdout.endswith("verdict: PASS\n")
    assert "  players 5,6,7,8,9,10,11; ruleset drawn within the adapter's supports; seed 1" in \
        stdout


def test_a_fault_as_json_then_replayed(faulty_env: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = faulty_env / "out"
    # the game's first action: message 10 of the run (after the hello, the four tables the
    # rules refuse, the four at the edge of what they allow and the game's start), message 2
    # of its replay (after the start alone)
    monkeypatch.setenv("FAULT_AT", "10")
    assert _conform("exit", out, "--json") == 2
    summary = json.loads(capsys.readouterr().out)
    replay = str(out / "replay-1-fault.json")
    assert summary["verdict"] == "fault"
    assert summary["reproduce"] == f"rules-ref conform --replay {replay} -- " \
        + " ".join(FAULTY) + " exit"
    monkeypatch.setenv("FAULT_AT", "2")
    assert _conform("exit", out, "--replay", replay, "--json") == 2
    again = json.loads(capsys.readouterr().out)
    assert (again["verdict"], again["replay_of"]) == ("fault", replay)
    assert _conform("exit", out, "--replay", replay) == 2
    assert f"replay of {replay}: " in capsys.readouterr().err
    assert cli.main([*CONFORM, "--replay", replay, "--", *REFERENCE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-3].endswith("; the implementation agrees with the reference on every step")
    assert lines[-2].startswith("run: rules-ref ")  # the run's metadata
    assert lines[-1] == "verdict: PASS"


@pytest.mark.untraced
def test_the_reference_adapter_passes_in_this_process(
        faulty_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*CONFORM, "--players", "6", "--preset", "spruce", "--", *REFERENCE]) == 0
    stdout = capsys.readouterr().out
    assert "  players 6; ruleset spruce" in stdout
    assert stdout.endswith("verdict: PASS\n")
    assert cli.main([*CONFORM, "--json", "--protocol", "1", "--", *REFERENCE]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "pass"


def _start_fault(capsys: pytest.CaptureFixture[str], command: list[str]) -> str:
    assert cli.main([*CONFORM, "--", *command]) == 2
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    return stderr.splitlines()[0]


def test_an_adapter_that_cannot_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "no-such-adapter")
    assert _start_fault(capsys, [missing]) == (
        f"rules-ref conform: adapter fault (start): command not found: {missing}")
    plain = tmp_path / "plain"
    plain.write_text("not a program\n", encoding="utf-8")
    assert _start_fault(capsys, [str(plain)]) == (
        f"rules-ref conform: adapter fault (start): not executable: {plain}")
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\x7fELF\x00\x00garbage")
    garbage.chmod(garbage.stat().st_mode | stat.S_IXUSR)
    assert _start_fault(capsys, [str(garbage)]) == (
        f"rules-ref conform: adapter fault (start): cannot run {str(garbage)!r}: "
        + os.strerror(8))


@pytest.mark.parametrize("argv", [[], ["--"]])
def test_no_adapter_command(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert cli.main(["conform", *argv]) == 2
    assert capsys.readouterr() == ("", (
        "rules-ref conform: error: no adapter command: give it after --, for example "
        f"rules-ref conform -- {reference_adapter()}\n"))


@pytest.mark.parametrize(("mode", "at", "code", "evidence"), [
    ("v2-internal-error", "2", 6, "the engine crashed"),
    ("v2-error-on-start", "1", 6, "on start of the game"),
    ("batch-item-error", "2", 6, "crashed"),
    ("batch-error-then-more", "2", 2, "answer 2 is an error, yet"),
    ("batch-short", "2", 2, "63 answer(s) to 64 action(s)"),
    ("batch-long", "2", 2, "65 answer(s) to 64 action(s)"),
    ("batch-order", "2", 2, "carries index 1"),
    ("batch-no-index", "2", 2, "carries no index"),
    ("batch-as-single", "2", 2, 'of type "observation", not a batch'),
    ("batch-rejected", "2", 2, 'of type "rejected", not a batch'),
    ("batch-wrong-shape", "2", 2, "missing field(s)"),
    ("error-shape", "2", 2, "message is missing"),
    ("observe-rejected", "2", 2, "declared the capability observe"),
    ("observe-wrong", "2", 1, "a rejected action must change nothing"),
    ("bad-capability", "2", 2, 'unknown capability "FAULT-MARK"'),
    ("v1-capabilities", "2", 2, "capabilities need protocol version 2"),
])
def test_a_version_2_fault_or_internal_error(faulty_env: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str], mode: str,
                                             at: str, code: int, evidence: str) -> None:
    monkeypatch.setenv("FAULT_AT", at)
    assert cli.main(["conform", "--examples", "3", "--seed", "1", "--shrink-seconds", "1",
                     "--max-seconds", "600", "--timeout", f"{UNHURRIED:g}",
                     "--out", str(faulty_env / "out"), "--", *FAULTY, mode]) == code
    stdout, stderr = capsys.readouterr()
    assert evidence in stdout + stderr
    assert "Traceback" not in stdout + stderr
    if code == 6:
        assert stdout.endswith("verdict: ERROR\n")
    elif code == 1:
        assert stdout.endswith("verdict: DISAGREEMENT\n")


@pytest.mark.parametrize(("mode", "first"), [
    ("wrong-shape", "rules-ref vectors: adapter shape: observation in answer to a"),
    ("rejected-shape", "rules-ref vectors: adapter shape: "),
    ("exit", "rules-ref vectors: adapter exit: the adapter exited with status 3 instead of "
             "answering message 2"),
])
def test_vectors_run_names_the_fault_and_the_vector(faulty_env: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    mode: str, first: str) -> None:
    assert cli.main(["vectors", "run", "--quiet", "--kinds", "trick", "--timeout",
                     f"{UNHURRIED:g}", "--", *FAULTY, mode]) == 2
    stdout, stderr = capsys.readouterr()
    assert stdout == ""
    lines = stderr.splitlines()
    assert lines[0].startswith(first)
    assert " during vector trick/" in lines[0]
    assert lines[1] == f"  command: {' '.join(FAULTY)} {mode}"
    assert f"  fault-adapter: {mode} at message 2" in lines
