"""The ``start`` request written and read again (:mod:`rules_ref.protocol.start`).

A start written for a fresh game, a seeded deal, a given deal or a position
and read back gives the state it was written for, value by value. The written
form is the one the runner sends: the protocol's fields in order, every switch
by name (one JSON form of a ruleset), each card in its canonical text; reading
it checked (:func:`checked_start`) gives it back unchanged.
"""

from __future__ import annotations

import json

import pytest

from rules_ref.cards import parse_cards
from rules_ref.deal import seeded_deal
from rules_ref.errors import InputError
from rules_ref.positions.convert import position_of, position_to_json, state_from_position
from rules_ref.positions.text import parse_position
from rules_ref.protocol.observation import observe
from rules_ref.protocol.start import (
    POSITION_START_FIELDS,
    START_FIELDS,
    checked_start,
    dealt_start,
    position_start,
    position_start_json,
    position_state,
    requested_state,
    seeded_start,
    start_state,
)
from rules_ref.ruleset import DEFAULT, presets
from rules_ref.state_parts import Phase

#: The mid-deal position of ``spec/position.md``: eight players, deal 1, trick 8 led by
#: seat 7 (5D, then JD from seat 0), trick 7's eight cards pending.
MID_DEAL = (
    "8 1 0 playing 2C5C7C5D8D/3D4D6D9DQDKD/9D2H4H5H6H7H/4C2D2DQDAD7H/JCJCKC4D6D8D/"
    "8CQC10DKDAD2H/10C3D7D10D10H10H/9C10C7D6H5S 8@7:5DJD broken 4SJD3H8H9HQH8H4S - "
    "-/3S3S5S7S8S9S10SJS/2S8S9S10SJSQSKSAS/-/3H4H5HJHJHQHKHAH/-/2C3C6C8CQCAC9HKH/"
    "3C4C5C6C7C9CKCACAH2S6S6S7SQSKSAS 0,0,0,0,0,0,0,0")


def test_fresh_game() -> None:
    msg = seeded_start(8, DEFAULT, 0)
    assert tuple(msg) == START_FIELDS
    assert msg["type"] == "start"
    assert msg["players"] == 8
    assert msg["ruleset"] == DEFAULT.to_dict()
    assert (msg["deal_number"], msg["dealer"], msg["totals"]) == (1, 0, [0] * 8)
    assert msg["hands"][0] == ["2C", "3C", "7C", "10C", "5D", "7D", "KD", "3H", "4H", "7S",
                               "10S", "QS", "KS"]
    assert msg["extras"] == []
    state = start_state(msg)
    assert state.players == 8
    assert state.ruleset == DEFAULT
    assert (state.deal_number, state.dealer, state.first_dealer) == (1, 0, 0)
    assert state.totals == (0,) * 8
    assert state.phase is Phase.PASSING
    assert state.hands[0] == parse_cards("2C 3C 7C 10C 5D 7D KD 3H 4H 7S 10S QS KS")
    assert state.hands == seeded_deal(0, 8, 1, 0).hands
    assert state.extras == ()
    assert checked_start(msg) == msg


def test_seeded_deal() -> None:
    hubpages = presets()["hubpages"]
    msg = seeded_start(7, hubpages, 3, dealer=4)
    assert tuple(msg) == START_FIELDS
    assert msg["ruleset"] == hubpages.to_dict()
    assert (msg["players"], msg["deal_number"], msg["dealer"]) == (7, 1, 4)
    assert msg["hands"][0] == ["5C", "7C", "7C", "10C", "JC", "QC", "3D", "6D", "3H", "5H",
                               "6H", "7H", "5S", "10S"]
    assert msg["extras"] == ["10H", "3C", "KS", "10S", "QS", "KD"]
    state = start_state(msg)
    assert state.ruleset == hubpages
    assert (state.deal_number, state.dealer, state.first_dealer) == (1, 4, 4)
    assert state.totals == (0,) * 7
    assert state.phase is Phase.PASSING
    assert state.hands == seeded_deal(3, 7, 1, 4).hands
    assert state.extras == parse_cards("10H 3C KS 10S QS KD")
    assert requested_state(msg).hands == state.hands


def test_given_deal() -> None:
    deal = seeded_deal(5, 6, 3, 2)
    hands = [tuple(reversed(h)) for h in deal.hands]  # written in the order given
    msg = dealt_start(DEFAULT, hands, deal.extras, deal_number=3, dealer=2,
                      totals=(10, 0, 26, 3, 99, -10))
    assert tuple(msg) == START_FIELDS
    assert (msg["players"], msg["deal_number"], msg["dealer"]) == (6, 3, 2)
    assert msg["totals"] == [10, 0, 26, 3, 99, -10]
    assert msg["hands"][1] == ["8S", "7S", "2S", "KH", "10H", "8H", "7H", "6H", "QD", "8D",
                               "7D", "JC", "9C", "8C", "7C", "6C", "5C"]
    assert msg["extras"] == ["KC", "4S"]
    state = start_state(msg)
    assert (state.deal_number, state.dealer, state.first_dealer) == (3, 2, 0)
    assert state.totals == (10, 0, 26, 3, 99, -10)
    assert state.phase is Phase.PASSING
    assert state.hands[1] == parse_cards("5C 6C 7C 8C 9C JC 7D 8D QD 6H 7H 8H 10H KH 2S 7S 8S")
    assert state.hands == deal.hands
    assert state.extras == parse_cards("KC 4S")
    assert checked_start(msg) == msg


def test_position() -> None:
    pos = parse_position(MID_DEAL)
    reached = state_from_position(pos)
    msg = position_start(reached)
    assert tuple(msg) == POSITION_START_FIELDS
    assert msg["players"] == 8
    assert msg["ruleset"] == DEFAULT.to_dict()
    assert msg["position"] == position_to_json(pos)
    state = position_state(msg)
    assert position_of(state) == pos
    assert observe(state) == observe(reached)
    assert (state.deal_number, state.dealer, state.leader) == (1, 0, 7)
    assert state.trick == parse_cards("5D JD")
    assert state.pending == parse_cards("4S JD 3H 8H 9H QH 8H 4S")
    assert state.hearts_broken
    assert observe(requested_state(msg)) == observe(reached)


def test_position_start_json_writes_its_parts_as_given() -> None:
    ruleset = {"target": 50}
    position = position_to_json(parse_position(MID_DEAL))
    msg = position_start_json(8, ruleset, position)
    assert msg == {"type": "start", "players": 8, "ruleset": {"target": 50},
                   "position": position}
    assert position_state(msg).ruleset.target == 50


def test_a_start_sends_the_ruleset_in_its_one_json_form() -> None:
    for name, ruleset in presets().items():
        assert seeded_start(8, ruleset, 1)["ruleset"] == ruleset.to_dict(), name


def test_the_text_sent() -> None:
    text = json.dumps(seeded_start(6, DEFAULT, 1), separators=(",", ":"))
    assert text.startswith(
        '{"type":"start","players":6,"ruleset":{"min_players":6,"pass_count":3,'
        '"pass_cycle":["left","right"],"pass_forbidden":"none","opening_lead":"left-of-dealer",')
    assert '},"deal_number":1,"dealer":0,"totals":[0,0,0,0,0,0],"hands":[[' in text
    assert text.endswith('"KS"]],"extras":["10S","3H"]}')


@pytest.mark.parametrize(("change", "error"), [
    ({"dealer": 6}, "start.dealer: 6 is out of range (expected from 0 to 5)"),
    ({"players": 4}, "start.players: PLAYERS.COUNT: 4 players: the game is for 5 to 11 players"),
    ({"hands": [[]] * 5}, "start.hands: expected a list of 6 hands"),
    ({"position": {}}, "start: unknown field(s) 'position'"),
])
def test_bad_start_named(change: dict[str, object], error: str) -> None:
    with pytest.raises(InputError) as raised:
        checked_start({**seeded_start(6, DEFAULT, 1), **change})
    assert str(raised.value) == error


def test_missing_field_named() -> None:
    msg = seeded_start(6, DEFAULT, 1)
    del msg["totals"]
    with pytest.raises(InputError) as raised:
        start_state(msg)
    assert str(raised.value) == "start: missing totals"
