"""Bad input that once escaped as a traceback, a hang or a misleading message, kept small.

Each test is the shrunk input of a failure that the fuzzing of
``test_fuzz.py``, the fault adapter of ``test_faults.py`` or a probe of the
command line found; the comment says what used to happen.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from rules_ref import vectors
from rules_ref.cards import parse_card
from rules_ref.errors import CardNotationError, InputError
from rules_ref.findings.replay import read_replay
from rules_ref.jsonio.replay_file import REPLAY_FORMAT
from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.messages import AdapterFault, decode_answer
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.protocol.start import start_state
from rules_ref.records.record import record_actions
from rules_ref.records.shape import check_shape
from rules_ref.ruleset import Ruleset

from . import cli

DEFAULT = Ruleset().to_dict()


def test_card_message_of_a_nested_list_is_short() -> None:
    # The message quoted the whole repr of a non-text value: 352 characters for 150 lists.
    value: object = 0
    for _ in range(150):
        value = [value]
    with pytest.raises(CardNotationError) as info:
        parse_card(value)  # type: ignore[arg-type]
    assert str(info.value) == ("[[[[[[[[[[[[[[[[[[[[… is not a card: expected text such as "
                               "'QS' or '10H'")


def test_unknown_switch_with_a_line_break_stays_on_one_line() -> None:
    # {'\n': None} printed a raw line break inside the one-line error.
    with pytest.raises(InputError) as info:
        Ruleset.from_dict({"\n": None})
    assert str(info.value).startswith("ruleset: unknown switch(es) '\\n' (known: "
                                      "min_players, pass_count")


def test_bad_switch_value_is_quoted_short() -> None:
    # A 10000-character moon value was quoted whole.
    with pytest.raises(InputError) as info:
        Ruleset.from_dict({"moon": "x" * 10_000})
    assert len(str(info.value)) < 150


def test_long_or_odd_argument_is_quoted_short_and_escaped() -> None:
    # argparse quoted a 1000-character --leader and printed a carriage return as is.
    code, _, err = cli("trick", "--leader", "x" * 1000, "QS")
    assert code == 2 and len(err) < 200 and err.count("\n") == 1
    code, _, err = cli("rules", "0", "\r0")
    assert (code, err) == (2, "rules-ref rules: error: unrecognized arguments: \\r0\n")
    code, _, err = cli("rules", "x" * 1000)
    assert code == 2 and len(err) < 200


def test_first_dealer_out_of_range_is_an_error_not_a_traceback() -> None:
    # `play --first-dealer 99` raised argparse.ArgumentTypeError from run(): a traceback.
    code, _, err = cli("play", "--first-dealer", "99")
    assert (code, err) == (2, "rules-ref play: error: --first-dealer 99: the seats of 8 "
                              "players are 0 to 7 (DEAL.DEALER)\n")


def test_generate_into_an_impossible_directory() -> None:
    # `vectors generate --out /proc/x` let FileNotFoundError out of mkdir: a traceback.
    code, _, err = cli("vectors", "generate", "--out", "/proc/x/y")
    assert code == 2
    assert err.startswith("rules-ref vectors: error: /proc/x/y: cannot create the directory: ")


def test_vectors_timeout_must_be_finite() -> None:
    # `vectors run --timeout nan` (and inf) were accepted: a run that could never time out.
    for value in ("nan", "inf", "1e309"):
        code, _, err = cli("vectors", "run", "--timeout", value, "--", "x")
        assert code == 2 and "must be a positive number of seconds" in err


def test_vector_dir_with_a_name_too_long() -> None:
    # Path.is_dir() raised OSError (File name too long): internal error, exit 3.
    code, _, err = cli("vectors", "run", "--dir", "x" * 5000, "--", "x")
    assert code == 2 and err.endswith("…: no such vectors directory\n")


def test_jobs_beyond_an_index() -> None:
    # `conform --jobs 18446744073709551616` raised OverflowError in multiprocessing.
    code, _, err = cli("conform", "--jobs", str(2**64), "--", "x")
    assert code == 2 and "--jobs: '18446744073709551616' must be from 1 to 64" in err


def test_integer_of_5000_digits_in_a_vector_file(tmp_path: Path) -> None:
    # json.loads raised ValueError (4300 digits), which the loader did not catch.
    (tmp_path / "trick.json").write_text('{"cases": [' + "1" * 5000 + "]}")
    code, _, err = cli("vectors", "check", "--dir", str(tmp_path))
    assert code == 2 and "Exceeds the limit (4300 digits)" in err


def test_integer_of_5000_digits_from_an_adapter() -> None:
    # The runner caught JSONDecodeError and RecursionError only: a traceback.
    with pytest.raises(AdapterFault) as info:
        decode_answer(b'{"id": 1' + b"0" * 5000 + b"}\n", 2)
    assert info.value.kind == "shape"


@pytest.mark.parametrize("players", [0, -3, 5, 12])
def test_start_with_no_players(players: int) -> None:
    # start_state computed `dealer % players` before checking the count: ZeroDivisionError
    # for 0 players, in the reference adapter and in `conform --replay`.
    msg = {"type": "start", "players": players, "ruleset": DEFAULT, "deal_number": 1,
           "dealer": 0, "totals": [], "hands": [], "extras": []}
    with pytest.raises(InputError, match=r"^start.players: PLAYERS.COUNT: "):
        start_state(msg)
    answer = ReferenceAdapter().handle({**msg, "id": 1})
    assert answer["type"] == "rejected"
    with pytest.raises(InputError, match=r"^replay.start.players: PLAYERS.COUNT: "):
        read_replay({"format": REPLAY_FORMAT, "version": 1, "start": msg, "actions": []},
                    "replay")


def test_replay_start_cannot_override_the_message_id() -> None:
    # A replay's start with an "id" replaced the runner's id ({"id": n, **message}).
    with AdapterProcess([sys.executable, "-m", "rules_ref.protocol.reference_adapter"],
                        timeout=120) as proc:
        proc.hello()
        assert proc.send({"type": "bye", "id": 99}) == 1
        assert proc.receive(1, "bye") == {"id": 1, "type": "bye"}


def test_malformed_vector_case_is_an_input_error(tmp_path: Path) -> None:
    # A case without "steps" raised KeyError in the runner: a traceback.
    data = json.loads((vectors.default_dir() / "trick.json").read_text())
    del data["cases"][0]["steps"]
    (tmp_path / "trick.json").write_text(json.dumps(data))
    code, _, err = cli("vectors", "run", "--dir", str(tmp_path), "--", "x")
    assert (code, err) == (2, f"rules-ref vectors: error: {tmp_path}/trick.json: cases[0]: "
                              "missing steps\n")


def test_reference_adapter_rejects_a_malformed_action() -> None:
    # The reference adapter exited (status 2) on an action without a seat.
    adapter = ReferenceAdapter()
    adapter.handle({"id": 0, "type": "hello"})
    answer = adapter.handle({"id": 1, "type": "action", "action": {"type": "play"}})
    assert answer["type"] == "rejected"


def test_vectors_run_checks_the_declared_switches() -> None:
    # `vectors run` used hello.supports unchecked: an unknown switch was ignored.
    code, _, err = cli("vectors", "run", "--kinds", "trick", "--", sys.executable, "-c",
                       "import json, sys\n"
                       "m = json.loads(sys.stdin.readline())\n"
                       "print(json.dumps({'id': 0, 'type': 'hello', 'protocol': "
                       "'cancellation-hearts-adapter', 'version': 1, 'name': 'x', 'supports': "
                       "{'players': [8], 'switches': {'jokers': 'any'}}}), flush=True)\n"
                       "sys.stdin.readline()\n")
    assert code == 2
    assert "adapter handshake: hello.supports.switches: unknown switch \"jokers\"" in err


def test_record_actions_with_a_short_passes_list() -> None:
    # record_actions indexed every seat's pass and raised IndexError on a short list.
    from rules_ref.players.game import play_game
    from rules_ref.records.record import record_from_state

    record = record_from_state(play_game(6, 5, Ruleset(target=30)), 5)
    record["deals"][0]["passes"] = record["deals"][0]["passes"][:2]
    actions = record_actions(check_shape(record))
    first_deal = actions[:actions.index(next(a for a in actions[1:] if a["type"] == "deal"))]
    assert [a["seat"] for a in first_deal if a["type"] == "pass"] == [1, 0]


def test_rejected_answer_shape_is_checked_by_vectors_run() -> None:
    # A rejection without a reason passed `vectors run` unchecked.
    from rules_ref.protocol.messages import check_rejection

    with pytest.raises(AdapterFault, match="reason is missing"):
        check_rejection({"type": "rejected"}, "a start request")
