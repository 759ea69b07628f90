"""Every class of bad input of ``spec/limits.md``: its message, its exit status, nothing left.

One table per input surface (card notation, the arguments of every
subcommand, ruleset files, game records, replay files, vector files, output
paths, protocol lines); each row is one class of bad input, run through the
command line in this process, and must give the documented exit status and
one line on standard error matching the documented message, without a
traceback. The limits of ``spec/limits.md`` are checked against the code.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules_ref import conform as runner
from rules_ref import findings, vectors
from rules_ref.cards import MAX_CARD_TEXT, parse_card
from rules_ref.cli import common, conform
from rules_ref.errors import CardNotationError, RulesRefError
from rules_ref.jsonio import files as cli_io
from rules_ref.jsonio import serialize
from rules_ref.players import game
from rules_ref.players.game import play_game
from rules_ref.protocol import handshake, messages, pipe
from rules_ref.protocol.messages import AdapterFault, decode_answer
from rules_ref.records import shape as record_shape
from rules_ref.records.record import record_from_state
from rules_ref.registry import spec_dir
from rules_ref.ruleset import INT_BOUNDS, MAX_PASS_CYCLE, Ruleset
from rules_ref.vectors import case_replay as vector_runner
from rules_ref.vectors import files as vector_files

from . import cli

LIMITS = spec_dir() / "limits.md"
FAULT_ADAPTER = [sys.executable, str(Path(__file__).resolve().parent / "fault_adapter.py")]
Row = tuple[list[str], int, str]


def check(args: list[str], code: int, pattern: str) -> None:
    got, out, err = cli(*args)
    assert "Traceback" not in err, err
    assert got == code, (args, got, out, err)
    if code == 2:
        assert err.count("\n") == 1, err
        assert re.search(pattern, err), (pattern, err)
    else:
        assert re.search(pattern, out), (pattern, out)


# --- card notation -------------------------------------------------------------------------

CARDS: list[Row] = [
    (["trick", "--", ""], 2, r"error: empty text is not a card"),
    (["trick", "1H"], 2, r"error: '1H' is not a card: rank '1' is not one of 2-10, J, Q, K, A"),
    (["trick", "QX"], 2, r"error: 'QX' is not a card: suit 'X' is not one of C, D, H, S"),
    (["trick", "Q"], 2, r"error: 'Q' is not a card: suit 'Q'"),
    (["trick", "10 H"], 2, r"error: '10 H' is not a card: rank '10 ' is not one of"),
    (["trick", "QSQSQSQSQ"], 2, r"error: 'QSQSQSQSQ' is not a card: longer than 8 characters"),
    (["trick", "x" * 5000], 2, r"error: 'xxxxxxxxxxxxxxxxxxxx…' is not a card: longer than 8"),
    (["trick", "Q\tS"], 2, r"error: 'Q\\tS' is not a card: rank 'Q\\t'"),
    (["trick", "♠Q"], 2, r"error: '♠Q' is not a card: suit 'Q'"),
    (["trick", "AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S"], 2,
     r"error: 12 cards: a trick has one card per player, at most 11"),
    (["trick", "QS", "QS", "QS"], 2, r"error: DECK.CARDS: .* QS appears more than twice"),
]


@pytest.mark.parametrize(("args", "code", "pattern"), CARDS)
def test_card_notation(args: list[str], code: int, pattern: str) -> None:
    check(args, code, pattern)


def test_card_notation_api() -> None:
    for bad in (None, 12, ["QS"], b"QS", "", " ", "1H"):
        with pytest.raises(CardNotationError):
            parse_card(bad)  # type: ignore[arg-type]
    assert str(parse_card(" q♠ ")) == "QS"


# --- arguments of every subcommand ------------------------------------------------------------

ARGS: list[Row] = [
    (["nope"], 2, r"rules-ref: error: argument COMMAND: invalid choice: 'nope'"),
    (["play", "--players", "4"], 2, r"--players: 4 players: the game is for 6 to 11 players, "
     r"or 5 to 11 under min_players = 5 \(PLAYERS.COUNT\)\n"),
    (["play", "--players", "5"], 2, r"PLAYERS.COUNT: 5 players: the game is for 6 to 11 players "
     r"\(5 players need min_players = 5\)"),
    (["play", "--players", "x"], 2, r"--players: 'x' is not a whole number"),
    (["play", "--seed", "-1"], 2, r"--seed: '-1': a seed is 0 to 2\*\*64-1"),
    (["play", "--seed", str(2**64)], 2, r"--seed: '18446744073709551616': a seed is 0 to"),
    (["play", "--first-dealer", "8"], 2,
     r"error: --first-dealer 8: the seats of 8 players are 0 to 7 \(DEAL.DEALER\)"),
    (["play", "--first-dealer", "-1"], 2, r"--first-dealer: '-1' must be 0 or more"),
    (["play", "--target", "0"], 2, r"--target: '0' must be 1 or more"),
    (["play", "--target", str(10**10)], 2,
     r"error: ruleset.target: 10000000000 is out of range \(expected an integer from 1 to "
     r"1000000000\)"),
    (["play", "--preset", "nope"], 2, r"error: unknown preset 'nope' \(known: spruce"),
    (["play", "--preset", "spruce", "--ruleset", "x.json"], 2,
     r"error: give --preset or --ruleset, not both"),
    (["play", "--bogus"], 2, r"rules-ref play: error: unrecognized arguments: --bogus\n"),
    (["trick", "--leader", "-1", "QS"], 2, r"error: leader -1 is not a seat \(0 to 5\)"),
    (["trick", "--leader", "6", "QS"], 2, r"error: leader 6 is not a seat \(0 to 5\)"),
    (["trick", "--leader", "x", "QS"], 2, r"--leader: invalid int value: 'x'"),
    (["trick"], 2, r"the following arguments are required: CARD"),
    (["rules", "NOPE.NOPE"], 2, r"error: no rule 'NOPE.NOPE' \(see `rules-ref rules`; "),
    (["rules", "x" * 500], 2, r"error: no rule 'x{39}…"),
    (["validate"], 2, r"the following arguments are required: RECORD.json"),
    (["vectors"], 2, r"the following arguments are required: ACTION"),
    (["vectors", "run"], 2, r"error: no adapter command: give it after --"),
    (["vectors", "run", "--kinds", "nope", "--", "x"], 2, r"error: unknown kind\(s\) nope"),
    (["vectors", "run", "--kinds", "seeded-deal", "--", "x"], 2,
     r"error: seeded-deal: not a protocol kind"),
    (["vectors", "run", "--timeout", "0", "--", "x"], 2,
     r"--timeout: '0' must be a positive number of seconds, at most 86400"),
    (["vectors", "run", "--timeout", "nan", "--", "x"], 2, r"--timeout: 'nan' must be a positive"),
    (["vectors", "run", "--timeout", "inf", "--", "x"], 2, r"--timeout: 'inf' must be a positive"),
    (["vectors", "run", "--timeout", "86401", "--", "x"], 2, r"--timeout: '86401' must be"),
    (["vectors", "run", "--timeout", "soon", "--", "x"], 2,
     r"--timeout: 'soon' is not a number of seconds"),
    (["conform"], 2, r"error: no adapter command: give it after --"),
    (["conform", "--timeout", "-1", "--", "x"], 2, r"--timeout: '-1' must be a positive number"),
    (["conform", "--max-seconds", "0", "--", "x"], 2, r"--max-seconds: '0' must be a positive"),
    (["conform", "--shrink-seconds", "inf", "--", "x"], 2, r"--shrink-seconds: 'inf' must be"),
    (["conform", "--examples", "0", "--", "x"], 2, r"--examples: '0' must be from 1 to 1000000000"),
    (["conform", "--jobs", "65", "--", "x"], 2, r"--jobs: '65' must be from 1 to 64"),
    (["conform", "--jobs", str(2**64), "--", "x"], 2, r"--jobs: '18446744073709551616' must be"),
    (["conform", "--players", "12", "--", "x"], 2, r"--players: 12 players"),
    (["conform", "--seed", "0x1g", "--", "x"], 2, r"--seed: '0x1g' is not a whole number"),
    (["conform", "--preset", "nope", "--", "x"], 2, r"error: unknown preset 'nope'"),
    (["conform", "--target", "0", "--", "x"], 2, r"--target: '0' must be 1 or more"),
]


@pytest.mark.parametrize(("args", "code", "pattern"), ARGS)
def test_arguments(args: list[str], code: int, pattern: str) -> None:
    check(args, code, pattern)


def test_debug_shows_the_traceback() -> None:
    with pytest.raises(RulesRefError, match="unknown preset"):
        cli("--debug", "play", "--preset", "nope")
    with pytest.raises(RulesRefError, match="unknown preset"):
        cli("play", "--debug", "--preset", "nope")


def test_an_internal_error_is_one_line_with_status_3(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("rules_ref.cli.trick.trick_answer", broken)
    code, _, err = cli("trick", "QS")
    assert (code, err) == (3, "rules-ref trick: internal error: ZeroDivisionError: division by "
                              "zero (a bug in rules-ref; --debug shows the traceback)\n")
    with pytest.raises(ZeroDivisionError):
        cli("--debug", "trick", "QS")


def test_a_closed_output_ends_quietly() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rules_ref", "play", "--players", "11"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()  # like `| head -c 10`
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert err == b""


# --- input files -----------------------------------------------------------------------------


def _write(directory: Path, name: str, content: str | bytes) -> str:
    path = directory / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return str(path)


FILES: list[tuple[str, str | bytes, str]] = [
    ("missing", "", r"error: {f}-nope: no such file"),
    ("not-utf8", b'{"pass_count": "\xff"}', r"error: {f}: not UTF-8 text \(byte 16, line 1\)"),
    ("not-json", '{"pass_count": 3,}', r"error: {f}: not valid JSON: Expecting property name "
                                      r"enclosed in double quotes at line 1 column 18"),
    ("unterminated", '{"target": "1', r"error: {f}: not valid JSON: Unterminated string "
                                      r"starting at line 1 column 12\n"),
    ("nan", '{"target": NaN}', r"error: {f}: not valid JSON: NaN is not valid JSON"),
    ("infinity", '{"target": -Infinity}', r"error: {f}: not valid JSON: -Infinity is not valid"),
    ("digits", '{"target": 1' + "0" * 5000 + "}", r"error: {f}: not valid JSON: Exceeds the "
                                                     r"limit \(4300 digits\)"),
    ("deep", "[" * 50_000 + "]" * 50_000, r"error: {f}: lists or objects nest more than 100 deep "
                                          r"\(the limit of a JSON input\)"),
    ("deep-open", "[" * 101, r"error: {f}: lists or objects nest more than 100 deep"),
    ("deep-101", "[" * 101 + "]" * 101, r"error: {f}: lists or objects nest more than 100 deep"),
    ("deep-100", '{"a":' * 100 + "1" + "}" * 100,
     r"error: {f}: unknown switch\(es\) 'a'"),
    ("empty", "", r"error: {f}: the file is empty, where JSON was expected"),
    ("list", "[3]", r"error: {f}: expected an object of switches, got a list\n"),
    ("record", '{"format": "cancellation-hearts-record"}',
     r"error: {f}: a file of format 'cancellation-hearts-record', not a ruleset \(a ruleset "
     r"file is a JSON object of switches"),
    ("unknown", '{"jokers": 2, "pass_count": 3}',
     r"error: {f}: unknown switch\(es\) 'jokers' \(known: min_players, pass_count"),
    ("pass-count-0", '{"pass_count": 0}',
     r"error: {f}.pass_count: 0 is out of range \(expected an integer from 1 to 9\)"),
    ("pass-count-10", '{"pass_count": 10}', r"error: {f}.pass_count: 10 is out of range"),
    ("pass-count-text", '{"pass_count": "3"}', r"error: {f}.pass_count: expected an integer, "
                                              r"got '3'"),
    ("pass-count-bool", '{"pass_count": true}', r"error: {f}.pass_count: expected an integer, "
                                               r"got True"),
    ("pass-count-float", '{"pass_count": 3.0}', r"error: {f}.pass_count: expected an integer, "
                                               r"got 3.0"),
    ("cycle-empty", '{"pass_cycle": []}',
     r"error: {f}.pass_cycle: expected a list of 1 to 16 directions, got \[\]"),
    ("cycle-long", json.dumps({"pass_cycle": ["left"] * 17}),
     r"error: {f}.pass_cycle: expected a list of 1 to 16 directions"),
    ("cycle-value", '{"pass_cycle": ["left", "up"]}',
     r"error: {f}.pass_cycle\[1\]: 'up' is not a pass direction \(left, right, across, "
     r"hold, or left-k or right-k \(k seats away, k from 2 to 10\)\)"),
    ("lead", '{"opening_lead": "dealer"}',
     r"error: {f}.opening_lead: 'dealer' is not one of left-of-dealer"),
    ("moon-long", json.dumps({"moon": "x" * 10_000}), r"error: {f}.moon: 'x{39}… is not one of"),
    ("ten", '{"ten_of_diamonds_points": 1001}',
     r"error: {f}.ten_of_diamonds_points: 1001 is out of range \(expected an integer from "
     r"-1000 to 1000\)"),
    ("target-0", '{"target": 0}', r"error: {f}.target: 0 is out of range"),
    ("target-big", '{"target": 1000000001}', r"error: {f}.target: 1000000001 is out of range"),
]


@pytest.mark.parametrize(("name", "content", "pattern"), FILES, ids=[f[0] for f in FILES])
def test_ruleset_file(name: str, content: str | bytes, pattern: str, tmp_path: Path) -> None:
    path = _write(tmp_path, f"{name}.json", content)
    if name == "missing":
        path += "-nope"
        pattern = pattern.replace("{f}-nope", re.escape(path))
    check(["play", "--ruleset", path], 2, pattern.replace("{f}", re.escape(path)))


def test_file_size_and_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, "big.json", '{"target": 100}' + " " * 100)
    monkeypatch.setattr(cli_io, "MAX_INPUT_BYTES", 100)
    check(["play", "--ruleset", path], 2,
          rf"error: {re.escape(path)}: larger than 100 bytes \(the limit of a JSON input file\)")
    check(["play", "--ruleset", str(tmp_path)], 2,
          rf"error: {re.escape(str(tmp_path))}: is a directory, not a JSON file")
    long_name = str(tmp_path / ("x" * 300))
    check(["play", "--ruleset", long_name], 2, r"error: .*x…: cannot read: File name too long")


# --- game records ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return record_from_state(play_game(6, 5, Ruleset(target=30)), 5)


def _edit(rec: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    rec = json.loads(json.dumps(rec))
    *parents, last = re.findall(r"[^.\[\]]+", path)
    node: Any = rec
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is _DELETE:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return rec


#: A file given to a command that reads another kind: one line naming what it is.
WRONG_KIND: list[tuple[list[str], str, str]] = [
    (["position"], "[1, 2]", r"error: {f}: the JSON is a list, but a position is a JSON object"),
    (["position"], "null", r"error: {f}: the JSON is null, but a position is a JSON object"),
    (["position"], "", r"error: {f}: empty: give a position \(spec/position.md\) as its one "
                       r"line of text or its JSON, a file holding one, or - for standard input\n"),
    (["position"], '{"format": "cancellation-hearts-record", "deals": []}',
     r"error: {f}: a file of format 'cancellation-hearts-record', not a position "
     r"\(`rules-ref show` reads records and replay files"),
    (["validate"], '{"format": "cancellation-hearts-conform-replay"}',
     r"error: {f}: format: not a game record \(its format is "
     r"'cancellation-hearts-conform-replay'; a record has format 'cancellation-hearts-record'; "
     r"`rules-ref show` reads replay files and positions\)\n"),
    (["validate"], '{"phase": "playing"}', r"error: {f}: format: not a game record \(it has no "
                                           r"format;"),
    (["validate"], "", r"error: {f}: the file is empty, where JSON was expected\n"),
    (["validate"], "[]", r"error: {f}: record: expected an object, got a list\n"),
]


@pytest.mark.parametrize(("command", "content", "pattern"), WRONG_KIND,
                         ids=[f"{r[0][0]}-{i}" for i, r in enumerate(WRONG_KIND)])
def test_a_file_of_another_kind(command: list[str], content: str, pattern: str,
                                tmp_path: Path) -> None:
    path = _write(tmp_path, "input.json", content)
    check([*command, path], 2, pattern.replace("{f}", re.escape(path)))


_DELETE = object()
RECORDS: list[tuple[str, object, str]] = [
    ("format", "game", r"error: format: not a game record \(its format is 'game'; a record has "
                       r"format 'cancellation-hearts-record'"),
    ("version", 2, r"error: version: this validator reads version 1, got 2"),
    ("players", _DELETE, r"error: record: missing players"),
    ("colour", "red", r"error: record: unknown field\(s\) 'colour'"),
    ("players", "6", r"error: players: expected an integer, got a string"),
    ("ruleset.moon", "x", r"error: ruleset.moon: 'x' is not one of choice-26"),
    ("initial_totals", [0, 0], r"error: initial_totals: 2 totals for 6 players"),
    ("deals.0.tricks.2.cards.0", "1H", r"error: deals\[0\].tricks\[2\].cards\[0\]: '1H' is "
                                       r"not a card"),
    ("deals.0.tricks.2.winner", "3", r"error: deals\[0\].tricks\[2\].winner: expected an "
                                     r"integer or null, got a string"),
    ("deals.0.moon", {"shooter": 1, "choice": "double"},
     r"error: deals\[0\].moon.choice: expected 'subtract', 'add' or null, got 'double'"),
    ("deals.0.passes", "none", r"error: deals\[0\].passes: expected a list or null"),
    ("deals", [{}] * 1001, r"error: deals: 1001 deals, more than 1000"),
    ("deals.0.extras", ["QS"] * 105, r"error: deals\[0\].extras: 105 entries, more than 104"),
    ("winners", [True], r"error: winners\[0\]: expected an integer, got a boolean"),
]


@pytest.mark.parametrize(("path", "value", "pattern"), RECORDS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(RECORDS)])
def test_record(path: str, value: object, pattern: str, record: dict[str, Any],
                tmp_path: Path) -> None:
    file = _write(tmp_path, "game.json", json.dumps(_edit(record, path, value)))
    check(["validate", file], 2, pattern.replace("error: ", f"error: {re.escape(file)}: ", 1))


@pytest.mark.rule("TRICK.WINNER")
def test_record_breaking_rules_exits_1(record: dict[str, Any], tmp_path: Path) -> None:
    trick = record["deals"][0]["tricks"][0]
    wrong = (trick["winner"] + 1) % 6 if trick["winner"] is not None else 0
    file = _write(tmp_path, "game.json", json.dumps(_edit(record, "deals.0.tricks.0.winner",
                                                          wrong)))
    code, out, err = cli("validate", file)
    assert (code, err) == (1, "")
    assert re.search(r"^deal 1, trick 1: (TRICK.WINNER|TRICK.CANCEL|VOID.TRICK): winner "
                     r"recorded as seat \d", out, re.M), out
    assert out.splitlines()[-1] == f"1 violation in {len(record['deals'])} deals", out


# --- replay files --------------------------------------------------------------------------------


def _replay(record: dict[str, Any]) -> dict[str, Any]:
    deal = record["deals"][0]
    return {"format": findings.REPLAY_FORMAT, "version": 1, "kind": "disagreement",
            "start": {"type": "start", "players": 6, "ruleset": record["ruleset"],
                      "deal_number": 1, "dealer": 0, "totals": [0] * 6,
                      "hands": deal["hands"], "extras": deal["extras"]},
            "actions": [{"type": "pass", "seat": 1, "cards": deal["passes"][1]}]}


REPLAYS: list[tuple[str, object, str]] = [
    ("format", "x", r"error: {f}: not a cancellation-hearts-conform-replay file"),
    ("version", 2, r"error: {f}: replay version 2 is not 1"),
    ("start", _DELETE, r"error: {f}: missing start"),
    ("start.players", 5, r"error: {f}.start.players: PLAYERS.COUNT: 5 players"),
    ("start.players", "six", r"error: {f}.start.players: expected an integer, got 'six'"),
    ("start.dealer", 6, r"error: {f}.start.dealer: 6 is out of range \(expected from 0 to 5\)"),
    ("start.jokers", 2, r"error: {f}.start: unknown field\(s\) 'jokers'"),
    ("start.hands.0.0", "1H", r"error: {f}.start.hands\[0\]\[0\]: '1H' is not a card"),
    ("start.hands.0.1", "AS", r"error: {f}.start: (DEAL.SIZE|DECK.CARDS): "),
    ("start.totals", [0], r"error: {f}.start.totals: expected a list of 6 integers"),
    ("actions", {}, r"error: {f}.actions: expected a list of actions"),
    ("actions.0.seat", 11, r"error: {f}.actions\[0\].seat: 11 is out of range"),
    ("actions.0.type", "jump", r"error: {f}.actions\[0\].type: 'jump' is not one of deal"),
    ("actions", [{"type": "play", "seat": 1, "card": "2C"}] * 10_001,
     r"error: {f}.actions: 10001 actions, more than 10000"),
]


@pytest.mark.parametrize(("path", "value", "pattern"), REPLAYS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(REPLAYS)])
def test_replay_file(path: str, value: object, pattern: str, record: dict[str, Any],
                     tmp_path: Path) -> None:
    doc = _replay(record)
    if path == "start.jokers":
        doc["start"]["jokers"] = value
    else:
        doc = _edit(doc, path, value)
    file = _write(tmp_path, "replay.json", json.dumps(doc))
    # the adapter is never started: the replay file is read first
    check(["conform", "--replay", file, "--", "/nonexistent/adapter"], 2,
          pattern.replace("{f}", re.escape(file)))


def test_a_valid_replay_runs(record: dict[str, Any], tmp_path: Path) -> None:
    file = _write(tmp_path, "replay.json", json.dumps(_replay(record)))
    code, out, err = cli("conform", "--replay", file, "--", sys.executable, "-m",
                         "rules_ref.protocol.reference_adapter")
    assert (code, err) == (0, "")
    assert f"replay of {file}: 2 answers compared; the implementation agrees" in out


# --- vector files --------------------------------------------------------------------------------


@pytest.fixture()
def vector_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "v"
    directory.mkdir()
    shutil.copy(vectors.default_dir() / "trick.json", directory)
    return directory


def _edit_vectors(directory: Path, path: str, value: object) -> None:
    file = directory / "trick.json"
    file.write_text(json.dumps(_edit(json.loads(file.read_text()), path, value)))


VECTORS: list[tuple[str, object, str]] = [
    ("kind", "tricks", r"error: {d}/trick.json: kind: 'tricks' is not one of card-notation"),
    ("cases", {}, r"error: {d}/trick.json: cases: expected a list of cases"),
    ("cases.0", [], r"error: {d}/trick.json: cases\[0\]: expected an object, got a list"),
    ("cases.0.start", _DELETE, r"error: {d}/trick.json: cases\[0\]: missing start"),
    ("cases.0.prefix.0.cards.0", "1H",
     r"error: {d}/trick.json: cases\[0\].prefix\[0\].cards\[0\]: '1H' is not a card"),
    ("cases.1.steps.0.action", {"type": "play"},
     r"error: {d}/trick.json: cases\[1\].steps\[0\].action\[0\]: missing seat, card"),
    ("cases.1.steps.0.expect", {"observed": {}},
     r"error: {d}/trick.json: cases\[1\].steps\[0\].expect: expected observation or rejected"),
    ("cases.2.ruleset.moon", "x", r"error: {d}/trick.json: cases\[2\].ruleset.moon: 'x' is not"),
    ("cases.2.start.players", 5,
     r"error: {d}/trick.json: cases\[2\].start.players: PLAYERS.COUNT: 5 players"),
    ("cases.2.rules", "TRICK.CANCEL", r"error: {d}/trick.json: cases\[2\].rules: expected a "
                                      r"list of text"),
]


@pytest.mark.parametrize(("path", "value", "pattern"), VECTORS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(VECTORS)])
def test_vector_file(path: str, value: object, pattern: str, vector_dir: Path) -> None:
    _edit_vectors(vector_dir, path, value)
    pattern = pattern.replace("{d}", re.escape(str(vector_dir)))
    check(["vectors", "run", "--dir", str(vector_dir), "--", "/nonexistent/adapter"], 2,
          pattern)
    code, out, err = cli("vectors", "check", "--dir", str(vector_dir))
    assert (code, err) == (1, "")  # check reports it among the problems
    line = pattern.replace("error: " + re.escape(str(vector_dir)) + "/", "")
    assert re.search(line, out), (line, out)


def test_vector_directory(tmp_path: Path, vector_dir: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    run = ["--", "/nonexistent/adapter"]
    missing = str(tmp_path / "nope")
    for action in (["check"], ["run"]):
        tail = run if action == ["run"] else []
        check(["vectors", *action, "--dir", missing, *tail], 2,
              rf"error: {re.escape(missing)}: no such vectors directory")
        check(["vectors", *action, "--dir", str(tmp_path), *tail], 2,
              rf"error: {re.escape(str(tmp_path))}: holds no vector files")
    (vector_dir / "bad.json").write_bytes(b"\xff")
    check(["vectors", "run", "--dir", str(vector_dir), *run], 2,
          r"error: .*/bad.json: not UTF-8 text \(byte 0, line 1\)")
    (vector_dir / "bad.json").write_text("[]")
    check(["vectors", "check", "--dir", str(vector_dir)], 2,
          r"error: .*/bad.json: a vector file is a JSON object")
    (vector_dir / "bad.json").unlink()
    _edit_vectors(vector_dir, "cases.0.steps", [{"action": None}] * 41)
    monkeypatch.setattr(vector_files, "MAX_CASE_ACTIONS", 40)
    check(["vectors", "run", "--dir", str(vector_dir), *run], 2,
          r"error: .*/trick.json: cases\[0\].steps: 41 steps, more than 40")
    monkeypatch.setattr(vector_files, "MAX_CASES_PER_FILE", 5)
    check(["vectors", "run", "--dir", str(vector_dir), *run], 2,
          r"error: .*/trick.json: cases: 11 cases, more than 5")


def test_perft_depth_and_request_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = tmp_path / "v"
    directory.mkdir()
    data = json.loads((vectors.default_dir() / "perft.json").read_text())
    data["cases"][0]["depth"] = 6
    (directory / "perft.json").write_text(json.dumps(data))
    check(["vectors", "run", "--dir", str(directory), "--", "/nonexistent/adapter"], 2,
          r"error: .*/perft.json: cases\[0\].depth: 6 is out of range \(expected from 1 to 5\)")
    case = json.loads((vectors.default_dir() / "perft.json").read_text())["cases"][0]
    monkeypatch.setattr(vector_runner, "MAX_PERFT_REQUESTS", 50)
    outcome = vector_runner.run_case(vector_runner.InProcess(), case)
    assert outcome.status == "fail"
    assert outcome.message.startswith(f"depth {case['depth']}: more than 50 requests")


# --- output paths --------------------------------------------------------------------------------


@pytest.mark.untraced
def test_generate_writes_only_its_files_atomically(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    monkeypatch.chdir(tmp_path)
    names = sorted(vectors.build_files())
    code, _, err = cli("vectors", "generate", "--out", str(out))
    assert (code, err) == (0, "")
    assert sorted(p.name for p in out.iterdir()) == names
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert all(oct(p.stat().st_mode & 0o777) == oct(0o666 & ~_umask()) for p in out.iterdir())
    # a write that fails half-way: an error, the files written so far complete, no temporary
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    calls = {"n": 0}
    real = os.replace

    def failing(src: str, dst: Path) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    code, _, err = cli("vectors", "generate", "--out", str(out))
    assert code == 2
    assert re.fullmatch(r"rules-ref vectors: error: .*/[a-z-]+\.json: cannot write: No space "
                        r"left on device\n", err), err
    assert sorted(p.name for p in out.iterdir()) == names  # no .tmp left
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_output_paths(tmp_path: Path) -> None:
    a_file = _write(tmp_path, "file", "x")
    check(["vectors", "generate", "--out", a_file], 2,
          rf"error: {re.escape(a_file)}: exists and is not a directory")
    check(["vectors", "generate", "--out", a_file + "/sub"], 2,
          rf"error: {re.escape(a_file)}/sub: cannot create the directory: Not a directory")
    # conform writes a replay file only when something failed; --out must then be a directory
    code, _, err = cli("conform", "--examples", "1", "--seed", "1", "--timeout", "120",
                       "--shrink-seconds", "1", "--out", a_file, "--", *FAULT_ADAPTER, "exit")
    assert code == 2
    assert err == f"rules-ref conform: error: {a_file}: exists and is not a directory\n"
    assert Path(a_file).read_text() == "x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_write_text_atomic(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    cli_io.write_text_atomic(str(target), "one\n")
    cli_io.write_text_atomic(str(target), "two\n")
    assert target.read_text() == "two\n"
    with pytest.raises(RulesRefError, match=r"directory .*nope does not exist"):
        cli_io.write_text_atomic(str(tmp_path / "nope" / "a.json"), "x")
    with pytest.raises(RulesRefError, match="is a directory"):
        cli_io.write_text_atomic(str(tmp_path), "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


# --- protocol lines ------------------------------------------------------------------------------

LINES: list[tuple[bytes, str, str]] = [
    (b"hello\n", "not-json", "answer to message 3 (action) is not JSON: Expecting value"),
    (b'{"id": 3, "x": "y\n', "not-json",
     "is not JSON: Invalid control character at column 18"),
    (b"\n", "not-json", "is an empty line"),
    (b'{"id": 3, "x": NaN}\n', "not-json", "NaN is not JSON"),
    (b'{"id": 3, "x": 1.5}\n', "shape", "the number 1.5 is not an integer"),
    (b'{"id": 3, "x": 1e2}\n', "shape", "the number 1e2 is not an integer"),
    (b'{"id": 1' + b"0" * 5000 + b"}\n", "shape", "4300"),
    (b'{"id": 3, "x": ' + b"[" * 40 + b"]" * 40 + b"}\n", "shape", "more than 32 deep"),
    (b"[" * 5000 + b"]" * 5000 + b"\n", "shape", "more than 32 deep"),
    (b'["observation"]\n', "shape", "is not a JSON object but a list"),
    (b"null\n", "shape", "is not a JSON object but null"),
    (b'{"type": "observation"}\n', "unsolicited", "a message without an id"),
    (b'{"id": "3"}\n', "shape", 'id must be an integer, got "3"'),
    (b'{"id": 2}\n', "wrong-id", "carries id 2: an answer to another request"),
    (b'{"id": 3, "x": "\xff"}\n', "not-utf8", r"is not UTF-8 (byte 16: b'\xff')"),
    (b'{"id": 3, "x": "' + b"y" * (1 << 20) + b'"}\n', "too-long", "longer than 1048576 bytes"),
]


@pytest.mark.parametrize(("raw", "kind", "pattern"), LINES,
                         ids=[f"{line[1]}-{i}" for i, line in enumerate(LINES)])
def test_protocol_line(raw: bytes, kind: str, pattern: str) -> None:
    with pytest.raises(AdapterFault) as info:
        decode_answer(raw, 3, "action")
    assert info.value.kind == kind
    assert pattern in info.value.detail, info.value.detail


def test_protocol_answers_checked() -> None:
    assert decode_answer(b'{"id": 3, "type": "bye"}\r\n', 3) == {"id": 3, "type": "bye"}
    faults: list[tuple[Callable[[], object], str]] = [
        (lambda: messages.answer_kind({"type": "hello"}, ("observation",), "message 2"),
         "the answer to message 2 is a second hello (the handshake is the first message "
         "only); expected observation"),
        (lambda: messages.answer_kind({}, ("observation",), "message 2"),
         "the answer to message 2 is a message without a type; expected observation"),
        (lambda: messages.check_rejection({"type": "rejected", "rule": 3}, "message 2"),
         "the rejected answer to message 2: reason is missing; rule must be a rule ID, got 3"),
        (lambda: handshake.check_hello({"type": "hello", "protocol": "x"}),
         "expected a hello of protocol 'cancellation-hearts-adapter', got \"x\""),
        (lambda: handshake.parse_supports({"supports": {"players": [8], "switches": {
            "moon": ["x"] * 1001}}}), "hello.supports.switches.moon: expected \"any\" or a "
                                     "list of 1 to 1000 values"),
        (lambda: handshake.parse_supports({"supports": {"players": [8], "switches": {
            "moon": ["x"]}}}), "hello.supports.switches.moon[0]: 'x' is not one of"),
    ]
    for call, message in faults:
        with pytest.raises(AdapterFault) as info:
            call()
        assert info.value.detail.startswith(message), info.value.detail


# --- the limits document ---------------------------------------------------------------------


def test_the_limits_document_states_the_code() -> None:
    text = LIMITS.read_text(encoding="utf-8")
    stated = {
        "card text": (MAX_CARD_TEXT, f"| Card text | {MAX_CARD_TEXT} characters"),
        "input file": (cli_io.MAX_INPUT_BYTES, f"64 MiB ({cli_io.MAX_INPUT_BYTES} bytes)"),
        "line": (messages.MAX_LINE_BYTES, f"1 MiB ({messages.MAX_LINE_BYTES} bytes)"),
        "depth": (messages.MAX_DEPTH, f"| Protocol message nesting | {messages.MAX_DEPTH} levels"),
        "switch values": (handshake.MAX_SWITCH_VALUES,
                          f"`hello.supports` | {handshake.MAX_SWITCH_VALUES} |"),
        "timeout": (common.MAX_TIMEOUT, f"at most {common.MAX_TIMEOUT:g} s; default "
                                        f"{pipe.DEFAULT_TIMEOUT:g} s"),
        "examples": (conform.MAX_EXAMPLES, "| `--examples` | 1 to 10⁹ |"),
        "jobs": (conform.MAX_JOBS, f"| `--jobs` | 1 to {conform.MAX_JOBS} |"),
        "play deals": (game.MAX_DEALS, f"| Deals played by `play` | {game.MAX_DEALS} |"),
        "record deals": (record_shape.MAX_DEALS,
                         f"| Deals in a record (`validate`) | {record_shape.MAX_DEALS} |"),
        "record lists": (record_shape.MAX_LIST, f"totals) | {record_shape.MAX_LIST} entries |"),
        "game deals": (runner.MAX_DEALS_PER_GAME,
                       f"| Deals in one `conform` game | {runner.MAX_DEALS_PER_GAME} |"),
        "replay": (findings.MAX_REPLAY_ACTIONS, f"(`conform --replay`) | "
                                                f"{findings.MAX_REPLAY_ACTIONS} |"),
        "state": (serialize.MAX_STATE_ACTIONS, f"`rules_ref.jsonio.serialize.state_from_json`) | "
                                               f"{serialize.MAX_STATE_ACTIONS} |"),
        "cases": (vectors.MAX_CASES_PER_FILE, f"| Cases in a vector file | "
                                               f"{vectors.MAX_CASES_PER_FILE} |"),
        "steps": (vectors.MAX_CASE_ACTIONS, f"of one vector | {vectors.MAX_CASE_ACTIONS} each"),
        "perft": (vectors.MAX_PERFT_DEPTH, f"`perft` vector | 1 to {vectors.MAX_PERFT_DEPTH} |"),
        "perft requests": (vector_runner.MAX_PERFT_REQUESTS,
                           f"(`vectors run`) | {vector_runner.MAX_PERFT_REQUESTS} |"),
        "pass_count": (INT_BOUNDS["pass_count"][1],
                       "| Ruleset `pass_count` | {} to {} |".format(*INT_BOUNDS["pass_count"])),
        "pass_cycle": (MAX_PASS_CYCLE, f"| Ruleset `pass_cycle` | 1 to {MAX_PASS_CYCLE} "),
        "ten": (INT_BOUNDS["ten_of_diamonds_points"][1],
                "| Ruleset `ten_of_diamonds_points` | −{1} to {1} |".format(
                    *INT_BOUNDS["ten_of_diamonds_points"])),
        "target": (INT_BOUNDS["target"][1], "| Ruleset `target` | 1 to 10⁹ |"),
    }
    for name, (value, row) in stated.items():
        assert row in text, (name, value, row)
    assert INT_BOUNDS["target"] == (1, 10**9) and conform.MAX_EXAMPLES == 10**9
    for kind in messages.FAULT_KINDS:
        assert f"| `{kind}` |" in text, kind
    from rules_ref.cli import COMMANDS

    for command in (*(c for c in COMMANDS if c != "vectors"), "vectors generate",
                    "vectors check", "vectors run"):
        assert f"| `{command}` |" in text, command  # every command's exit statuses


def test_variants_bounds_agree_with_the_ruleset() -> None:
    import tomllib

    data = tomllib.loads((spec_dir() / "variants.toml").read_text(encoding="utf-8"))
    for switch in data["switch"]:
        if switch["type"] != "integer":
            continue
        low, high = INT_BOUNDS[switch["name"]]
        assert switch.get("min", low) == low, switch["name"]
        assert switch.get("max", high) == high, switch["name"]
        assert low <= switch["default"] <= high
