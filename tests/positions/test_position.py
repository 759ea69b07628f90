"""Positions (``spec/position.md``): exact texts, round trips, and every refusal with its message.

The table tests build positions from the seeded games of ``rules_ref.players.game``
and from explicit positions written as text, so each expected text or
message is stated in full.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import cache, partial

import pytest
from jsonschema import Draft202012Validator

from rules_ref.cards import Card, parse_cards
from rules_ref.errors import InputError
from rules_ref.players.game import game_steps
from rules_ref.positions.check import check_position
from rules_ref.positions.convert import (
    position_from_json,
    position_of,
    position_to_json,
    state_from_position,
)
from rules_ref.positions.model import Extras, ExtrasPlace, Position
from rules_ref.positions.text import format_position, parse_position
from rules_ref.registry import spec_dir
from rules_ref.ruleset import (
    DEFAULT,
    FirstTrickPoints,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    OpeningLead,
    PassDirection,
    Ruleset,
    preset,
)
from rules_ref.state import GameState
from rules_ref.state_parts import Phase


@cache
def schema() -> Draft202012Validator:
    data = json.loads((spec_dir() / "schemas" / "position.schema.json").read_text())
    Draft202012Validator.check_schema(data)
    return Draft202012Validator(data)


def game_positions(players: int, seed: int,
                   ruleset: Ruleset = DEFAULT) -> list[tuple[GameState, Position]]:
    """Every state of the first two deals of a seeded game before an action, with its position."""
    out = []
    for before, _, _, _ in game_steps(players, seed, ruleset):
        if before.deal_number > 2:
            break
        out.append((before, position_of(before)))
    return out


@pytest.mark.untraced
@pytest.mark.rule("VOID.TRICK", "VOID.COLLECT", "EXTRAS.FIRST_TRICK", "VOID.LAST")
@pytest.mark.parametrize(("players", "seed", "name"), [
    (6, 1, "spruce"), (7, 2, "spruce"), (8, 3, "spruce"), (9, 4, "hubpages"),
    (10, 5, "spruce"), (11, 6, "spruce")])
def test_positions_of_seeded_games_round_trip(players: int, seed: int, name: str) -> None:
    rs = preset(name)
    phases = set()
    for state, pos in game_positions(players, seed, rs):
        phases.add(pos.phase)
        data = position_to_json(pos)
        # the schema judges the shape: every position outside play, and in play the trick
        # empty, of one card and of its most cards (the rest differ only in its length)
        if len(state.trick) in (0, 1, players - 1):
            assert not list(schema().iter_errors(data))
        assert position_from_json(json.loads(json.dumps(data))) == pos
        text = format_position(pos)
        assert "\n" not in text
        assert parse_position(text) == pos
        assert parse_position(format_position(pos, short=True)) == pos
        again = state_from_position(pos, rs)
        assert position_of(again) == pos
        assert again.legal_actions() == state.legal_actions()
    assert phases >= {Phase.DEALING, Phase.PLAYING}


# --- exact texts --------------------------------------------------------------------------------

#: Positions of spec/position.md and of seeded games (``rules-ref play --seed 1 --players 6``).
MID_DEAL_8 = (
    "8 1 0 playing 2C5C7C5D8D/3D4D6D9DQDKD/9D2H4H5H6H7H/4C2D2DQDAD7H/JCJCKC4D6D8D/"
    "8CQC10DKDAD2H/10C3D7D10D10H10H/9C10C7D6H5S 8@7:5DJD broken 4SJD3H8H9HQH8H4S - "
    "-/3S3S5S7S8S9S10SJS/2S8S9S10SJSQSKSAS/-/3H4H5HJHJHQHKHAH/-/2C3C6C8CQCAC9HKH/"
    "3C4C5C6C7C9CKCACAH2S6S6S7SQSKSAS 0,0,0,0,0,0,0,0")
EXTRAS_PENDING_6 = (
    "6 1 0 playing 8C10C2D3D4D5D6D8D9D10DQDKDAD2H3H/7DJD4H8H9H10HJHQHKHAH2S4S8S9S/"
    "2C3C4C5C6C7C9CJCQCKC5S6S10SJSAS/8C10C2D3D4D5D6D8D9D10DQDKDAD2H3H/"
    "7DJD4H8H9H10HJHQHKHAH2S4S7S8S9S/2C3C4C5C6C7C9CJCQCKC5S6S10SJSAS 3@1:7S broken "
    "3SQSKS3SQSKSACAC7H6H5H7H6H5H ACAC@pending -/-/-/-/-/- 0,0,0,0,0,0")
PASSING_6 = (
    "6 1 0 passing 2C4C6C7C7C3D6D9D9D6H6H7HKH4S7S8S9S/4C8C9CQCKC5D7D10DJD4H9H2S8S9S/"
    "5C10CQCKC2D5D7D8DQDKD4H7H8HAH7S10SAS/2CAC3D10DJDKD2H8H9HAH5S6SJSJSQSKSAS/"
    "3C5C6C8C9CJC2D4D8DADAD5H5HJHJH4S5S/3C10CJCAC4D6DQD2H3H10H10HQH2S3S3S6SKS "
    "-/QHKHQS/-/-/-/- 10S3H@face-down 0,0,0,0,0,0")
MOON_6 = (
    "6 4 0 moon-choice broken 3C6C@1 -/" + "".join(
        f"{r}{s}{r}{s}" for s in "CDHS" for r in
        ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
    + "/-/-/-/- - 1 60,60,60,60,60,60")
TRICK_1_6 = (
    "6 1 0 playing 2C4C6C7C7C3D6D9D9D6H10HQH4S7S8S9SKS/4C8C9CQCKC5D7D10DJD4H6H7H9HKH8S9S/"
    "5C10CQCKC2D5D7D8DQDKD4H7HQHKH7S10S/2CAC3D10DJDKD2H8H8H9HAHAH5S6SJSJSAS/"
    "3C5C6C8C9CJC2D4D8DADAD5H4S5SQSKSAS/3C10CJCAC4D6DQD2H3H5H10HJHJH2S3S3S6S 1@1:2SQS "
    "broken - 10S3H@face-down -/-/-/-/-/- 0,0,0,0,0,0")
TRICK_4_6 = (
    "6 1 0 playing 2C4C6C7C3D6D6H10HQH4S7S8SKS/4C8CQCKC5D10DJD4H6H7H9HKH8S9S/"
    "5CQCKC5D7D8DQDKD4H7HQHKH7S10S/AC3D10DJD2H8H8H9HAHAH5S6SJSAS/3C5C6C8C9C4DADAD5H4SQSKSAS/"
    "3CJCAC6D2H3H5H10HJHJH3S3S6S 4@4:2D4D9D broken - 10S3H@2 "
    "-/-/3H2S2S5S9S10SJSQS/2D7D8D9DQDKD/2C7C9C10C10CJC/- 0,0,0,0,0,0")
EXAMPLES = {"mid-deal": MID_DEAL_8, "extras pending": EXTRAS_PENDING_6, "passing": PASSING_6,
            "moon": MOON_6, "trick 1": TRICK_1_6, "trick 4": TRICK_4_6,
            "dealing": "8 2 1 dealing 0,5,26,0,13,0,0,8"}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_example_texts_are_canonical_and_start_games(name: str) -> None:
    text = EXAMPLES[name]
    pos = parse_position(text)
    assert format_position(pos) == text
    assert parse_position(format_position(pos, short=True)) == pos
    assert position_from_json(position_to_json(pos)) == pos
    assert not list(schema().iter_errors(position_to_json(pos)))
    assert position_of(state_from_position(pos)) == pos


@pytest.mark.parametrize(("change", "path"), [
    ({"phase": "game-over"}, "phase"), ({"players": 12}, "players"),
    ({"extras": {"cards": [], "place": "taken", "seat": None}}, "extras.seat"),
    ({"trick": ["1H"]}, "trick.0"), ({"passes": [None] * 8}, "passes"),
    ({"hearts_broken": None}, "hearts_broken"), ({"moon_shooter": 3}, "moon_shooter")])
def test_the_schema_refuses_a_wrong_shape(change: dict[str, object], path: str) -> None:
    data = {**position_to_json(parse_position(MID_DEAL_8)), **change}
    errors = list(schema().iter_errors(data))
    assert errors
    assert path in {".".join(str(p) for p in e.absolute_path) for e in errors} | {
        ".".join(str(p) for p in e.absolute_path)
        for err in errors for e in (err.context or ())}


def test_the_worked_examples_of_the_spec_read_and_start_games() -> None:
    doc = (spec_dir() / "position.md").read_text()
    texts = re.findall(r"^    (\d+ \d+ \d+ [a-z-]+ .*)$", doc, re.M)
    assert len(texts) == 6
    for text in texts:
        pos = parse_position(text)
        assert position_of(state_from_position(pos)) == pos
    assert MID_DEAL_8 in texts and PASSING_6 in texts and EXTRAS_PENDING_6 in texts
    assert parse_position(texts[-1]) == parse_position(MOON_6)
    shown = json.loads(doc.split("```json\n")[1].split("```")[0])
    assert position_from_json(shown) == parse_position(MID_DEAL_8)


def test_the_short_form() -> None:
    pos = parse_position(MID_DEAL_8)
    assert format_position(pos, short=True) == (
        "8 1 0 playing 257C58D/3469QKD/9D24567H/4C22QAD7H/JJKC468D/8QCTKAD2H/TC37TDTTH/"
        "9TC7D6H5S 8@7:5JD broken 4SJD389Q8H4S - -/335789TJS/289TJQKAS/-/345JJQKAH/-/"
        "2368QAC9KH/345679KACAH2667QKAS 0,0,0,0,0,0,0,0")
    lenient = MID_DEAL_8.replace("2C5C7C5D8D", "2c,5♣,7C,5d,8♦").replace("10C3D", "TC3D")
    assert parse_position(lenient) == pos


def test_the_json_form() -> None:
    data = position_to_json(parse_position(TRICK_4_6))
    assert list(data) == ["players", "deal_number", "dealer", "phase", "hands", "passes",
                          "trick_number", "leader", "trick", "hearts_broken", "pending",
                          "extras", "collected", "uncollected", "moon_shooter", "totals"]
    assert data["trick"] == ["2D", "4D", "9D"]
    assert data["extras"] == {"cards": ["10S", "3H"], "place": "taken", "seat": 2}
    # The extras 10S 3H are among seat 2's collected cards, which are in canonical order.
    assert data["collected"][2] == ["3H", "2S", "2S", "5S", "9S", "10S", "JS", "QS"]
    assert (data["passes"], data["uncollected"], data["moon_shooter"]) == (None, [], None)
    dealing = position_to_json(parse_position("8 2 1 dealing 0,5,26,0,13,0,0,8"))
    assert dealing == {"players": 8, "deal_number": 2, "dealer": 1, "phase": "dealing",
                       "hands": [], "passes": None, "trick_number": None, "leader": None,
                       "trick": [], "hearts_broken": False, "pending": [], "extras": None,
                       "collected": [], "uncollected": [], "moon_shooter": None,
                       "totals": [0, 5, 26, 0, 13, 0, 0, 8]}


# --- refusals: every reason, with its exact message --------------------------------------------


def cs(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def with_hand(hands: tuple[tuple[Card, ...], ...], seat: int,
              hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], tuple(sorted(hand)), *hands[seat + 1:])


def less(cards: tuple[Card, ...], gone: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted((Counter(cards) - Counter(gone)).elements()))


#: Each example position, parsed afresh at each call (a test may change what it is given).
_p8, _x6, _ps, _mn, _t1, _t4 = (partial(parse_position, text) for text in (
    MID_DEAL_8, EXTRAS_PENDING_6, PASSING_6, MOON_6, TRICK_1_6, TRICK_4_6))


def _all_passed() -> Position:
    ps = _ps()
    assert ps.passes is not None
    return replace(ps, passes=tuple(p or h[:3] for p, h in zip(ps.passes, ps.hands, strict=True)),
                   hands=tuple(h if p else h[3:] for p, h in zip(ps.passes, ps.hands, strict=True)))


def _extras_taken_early(base: Position) -> Position:
    assert base.extras is not None
    x = base.extras.cards
    return replace(base, extras=Extras(x, ExtrasPlace.TAKEN, 1),
                   collected=with_hand(base.collected, 1, base.collected[1] + x))


def _moon_split() -> Position:
    mn = _mn()
    return replace(mn, extras=Extras(cs("3C 3C"), ExtrasPlace.SPLIT),
                   collected=with_hand(mn.collected, 1, less(mn.collected[1], cs("3C 3C"))),
                   uncollected=cs("3C 3C"))


def _moon_uncollected() -> Position:
    mn = _mn()
    x = cs("3C 6C")
    return replace(mn, extras=Extras(x, ExtrasPlace.UNCOLLECTED),
                   collected=with_hand(mn.collected, 1, less(mn.collected[1], x)), uncollected=x)


def _pending_short() -> Position:
    x6 = _x6()
    second = x6.pending[8:]
    return replace(x6, pending=x6.pending[:8],
                   collected=with_hand(x6.collected, 1, x6.collected[1] + second))


def _leader_without_tricks() -> Position:
    t4 = _t4()
    return replace(t4, collected=with_hand(with_hand(t4.collected, 3, t4.collected[3] +
                                                     t4.collected[4]), 4, ()))


def _no_breaker() -> Position:
    t1 = _t1()
    return replace(t1, trick=parse_cards("2S 7S"),
                   hands=with_hand(t1.hands, 2, less(t1.hands[2], cs("7S")) + cs("QS")))


TRICK_1_11 = (
    "11 1 0 playing 6C8CQD9H10H3S9SJSKS/3C7C9C5D5DJD8HAH/AC6D9D10D3H6H3SJS/2C8C3DQD3H7H5S9S/"
    "9C4D8DAD4H7H8HAS/4C6C10CJCQHQHKH10S/2D3D4D2H5H4S5S6S/7CKCKC7D4H7S8S10SQS/"
    "JC7D8DJDKD10HKH2S7S/5C6D9D10DAD9HJH4S8S/2C3C5CKD2H6H2S6SAS 1@1:AC10CQC4CQCJH broken - "
    "2DQSKSAH5H@face-down -/-/-/-/-/-/-/-/-/-/- 0,0,0,0,0,0,0,0,0,0,0")


def _heart_opening() -> Position:
    t1 = _t1()
    return replace(t1, trick=parse_cards("4H"),
                   hands=with_hand(with_hand(t1.hands, 1, less(t1.hands[1], cs("4H")) +
                                             cs("2S")), 2, t1.hands[2] + cs("QS")))


REFUSALS: list[tuple[str, Callable[[], Position], Ruleset | None]] = [
    ("players", lambda: replace(_p8(), players=4), None),
    ("deal", lambda: replace(_p8(), deal_number=0), None),
    ("dealer", lambda: replace(_p8(), dealer=8), None),
    ("game over", lambda: replace(_p8(), phase=Phase.GAME_OVER), None),
    ("totals", lambda: replace(_p8(), totals=(0,) * 7), None),
    ("total", lambda: replace(_p8(), totals=(0,) * 7 + (10**13,)), None),
    ("dealing with cards", lambda: replace(_p8(), phase=Phase.DEALING), None),
    ("dealing hearts", lambda: Position(8, 2, 1, Phase.DEALING, (0,) * 8, hearts_broken=True),
     None),
    ("hands", lambda: replace(_p8(), hands=_p8().hands[:7]), None),
    ("collected", lambda: replace(_p8(), collected=_p8().collected[:7]), None),
    ("no extras", lambda: replace(_p8(), extras=None), None),
    ("no passes", lambda: replace(_ps(), passes=None), None),
    ("passes", lambda: replace(_ps(), passes=(None,) * 5), None),
    ("passes in play", lambda: replace(_p8(), passes=(None,) * 8), None),
    ("trick number", lambda: replace(_p8(), trick_number=14), None),
    ("no leader", lambda: replace(_p8(), leader=None), None),
    ("leader", lambda: replace(_p8(), leader=8), None),
    ("full trick", lambda: replace(_p8(), trick=_p8().trick * 4), None),
    ("trick number in passing", lambda: replace(_ps(), trick_number=1), None),
    ("trick in moon", lambda: replace(_mn(), trick=parse_cards("2C")), None),
    ("pending in passing", lambda: replace(_ps(), pending=parse_cards("2C")), None),
    ("hearts in passing", lambda: replace(_ps(), hearts_broken=True), None),
    ("uncollected in play", lambda: replace(_p8(), uncollected=cs("2C")), None),
    ("shooter in play", lambda: replace(_p8(), moon_shooter=1), None),
    ("card three times", lambda: replace(_p8(), trick=parse_cards("5D JD AS")), None),
    ("card once", lambda: replace(_p8(), trick=parse_cards("5D")), None),
    ("empty pass", lambda: replace(_ps(), passes=((), *(_ps().passes or ())[1:])), None),
    ("unequal passes", lambda: replace(
        _ps(), passes=(cs("2C 4C"), *(_ps().passes or ())[1:]),
        hands=with_hand(_ps().hands, 0, _ps().hands[0][2:])), None),
    ("all passed", _all_passed, None),
    ("hand before passing", lambda: replace(_ps(), hands=with_hand(
        with_hand(_ps().hands, 0, _ps().hands[0][1:]), 1, _ps().hands[1] + _ps().hands[0][:1])),
     None),
    ("hand after the deal", lambda: replace(
        _mn(), hands=with_hand(_mn().hands, 0, cs("2C")),
        collected=with_hand(_mn().collected, 1, less(_mn().collected[1], cs("2C")))), None),
    ("hand in play", lambda: replace(_p8(), hands=with_hand(with_hand(
        _p8().hands, 0, _p8().hands[0][1:]), 1, _p8().hands[1] + _p8().hands[0][:1])), None),
    ("extras count", lambda: replace(_p8(), extras=Extras(cs("2C"), ExtrasPlace.NONE)), None),
    ("extras none", lambda: replace(_p8(), extras=Extras((), ExtrasPlace.FACE_DOWN)), None),
    ("extras at trick 1", lambda: _extras_taken_early(_t1()), None),
    ("extras in passing", lambda: _extras_taken_early(_ps()), None),
    ("extras seat", lambda: replace(_t4(), extras=Extras(cs("10S 3H"), ExtrasPlace.TAKEN, 9)),
     None),
    ("extras not taken", lambda: replace(_t4(), extras=Extras(cs("10S 3H"), ExtrasPlace.TAKEN,
                                                               3)), None),
    ("extras seat named", lambda: replace(_t1(), extras=Extras(
        (_t1().extras or Extras((), ExtrasPlace.NONE)).cards, ExtrasPlace.FACE_DOWN, 2)),
     None),
    ("extras uncollected", lambda: replace(_mn(), extras=Extras(cs("3C 6C"),
                                                                ExtrasPlace.UNCOLLECTED)),
     None),
    ("extras split", _moon_split, None),
    ("pending extras", _pending_short, None),
    ("pending order", lambda: replace(_x6(), pending=(
        _x6().pending[:5] + _x6().pending[6:8] + _x6().pending[5:6] + _x6().pending[8:])),
     None),
    ("pending not whole", lambda: replace(
        _p8(), pending=_p8().pending[:7],
        collected=with_hand(_p8().collected, 0, _p8().collected[0] + _p8().pending[7:])),
     None),
    ("pending won", lambda: replace(
        _p8(), pending=parse_cards("4S JD 3H 8H 9H QH 8H 5S"),
        hands=with_hand(_p8().hands, 7, less(_p8().hands[7], cs("5S")) + cs("4S"))), None),
    ("whole tricks", lambda: replace(_p8(), collected=with_hand(with_hand(
        _p8().collected, 0, _p8().collected[1][:1]), 1, _p8().collected[1][1:])), None),
    ("leader collected nothing", _leader_without_tricks, None),
    ("follow suit", lambda: replace(
        _p8(), trick=parse_cards("5D 7H"),
        hands=with_hand(with_hand(_p8().hands, 0, _p8().hands[0]), 3,
                        less(_p8().hands[3], cs("7H")) + cs("JD"))), None),
    ("no shooter", lambda: replace(_mn(), moon_shooter=None), None),
    ("no moon", lambda: replace(_mn(), moon_shooter=2), None),
    ("target", lambda: replace(_p8(), totals=(150,) + (0,) * 7), Ruleset()),
    ("passing on a hold deal", _ps, Ruleset(pass_cycle=(PassDirection.HOLD,))),
    ("pass count", _ps, Ruleset(pass_count=2)),
    ("moon without choice", _mn, Ruleset(moon=Moon.OTHERS_52)),
    ("uncollected extras", _moon_uncollected, Ruleset(last_trick_void=LastTrickVoid.LEADER)),
    ("split extras", lambda: replace(_mn(), extras=Extras(cs("3C 6C"), ExtrasPlace.SPLIT)),
     Ruleset()),
    ("opening leader", _t1, Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS)),
    ("opening leader after void tricks", lambda: replace(_x6(), dealer=1), Ruleset()),
    ("opening lead", _heart_opening, Ruleset()),
    ("first trick", lambda: parse_position(TRICK_1_11),
     Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN)),
    ("hearts broken by nothing", _no_breaker, None),
    ("hearts broken by a queen", _t1, Ruleset(hearts_broken_by=HeartsBrokenBy.HEART)),
    ("hearts unbroken", lambda: replace(_p8(), hearts_broken=False), Ruleset()),
    ("hearts unbroken by a discard", lambda: replace(_p8(), hearts_broken=False),
     Ruleset(hearts_broken_by=HeartsBrokenBy.HEART_DISCARD)),
]


MESSAGES = {
    'players': 'players: 4: the game is for 5 to 11 players (PLAYERS.COUNT)',
    'deal': (
        'deal_number: 0 is out of range (expected from 1 to 1000000000; deals are numbered '
        'from 1)'),
    'dealer': 'dealer: 8 is not a seat of 8 players (0 to 7)',
    'game over': "phase: 'game-over' is not a phase a game continues from",
    'totals': 'totals: 7 totals for 8 players',
    'total': (
        'totals[7]: 10000000000000 is out of range (expected from -1000000000000 to '
        '1000000000000)'),
    'dealing with cards': 'hands: must be empty in the dealing phase: the next deal is not dealt',
    'dealing hearts': 'hearts_broken: must be false in the dealing phase',
    'hands': 'hands: 7 hands for 8 players',
    'collected': 'collected: 7 entries for 8 players',
    'no extras': 'extras: missing: a deal in the playing phase has its extras somewhere',
    'no passes': 'passes: missing: the passing phase has one entry per seat (6)',
    'passes': 'passes: 5 entries: the passing phase has one entry per seat (6)',
    'passes in play': 'passes: must be empty in the playing phase: passes exist only while passing',
    'trick number': 'trick_number: 14 is out of range (a deal of 8 players has tricks 1 to 13)',
    'no leader': 'leader: missing: expected a seat (0 to 7)',
    'leader': 'leader: 8 is not a seat of 8 players (0 to 7)',
    'full trick': (
        'trick: 8 cards: a trick in progress has fewer cards than the 8 players (a complete '
        'trick is resolved at once)'),
    'trick number in passing': (
        'trick_number: must be empty in the passing phase: there is a trick in progress only '
        'while playing'),
    'trick in moon': (
        'trick: must be empty in the moon-choice phase: cards are on the table only while '
        'playing'),
    'pending in passing': (
        'pending: must be empty in the passing phase: cards are on the table only while '
        'playing'),
    'hearts in passing': 'hearts_broken: hearts cannot be broken before the first trick',
    'uncollected in play': (
        'uncollected: must be empty in the playing phase: cards go uncollected only when the '
        'deal has ended'),
    'shooter in play': (
        'moon_shooter: must be empty in the playing phase: there is a moon shooter only in '
        'the moon-choice phase'),
    'card three times': (
        'cards: AS appears 3 times (trick, collected[2], collected[7]), but the deck holds '
        'every card exactly twice (DECK.CARDS)'),
    'card once': (
        'cards: JD appears once (pending), but the deck holds every card exactly twice '
        '(DECK.CARDS)'),
    'empty pass': 'passes: a pass of no cards: a seat that has not passed is empty',
    'unequal passes': (
        'passes: passes of 2 and 3 cards: every seat passes the same number (PASS.CARDS)'),
    'all passed': (
        'passes: every seat has passed: the passes would have been exchanged and the play '
        'begun (PASS.EXCHANGE)'),
    'hand before passing': 'hands[0]: 16 cards, but seat 0 has not passed yet and holds all 17',
    'hand after the deal': 'hands[0]: 1 card: every hand is empty once the deal has ended',
    'hand in play': 'hands[0]: 4 cards, but at trick 8 seat 0 has played to it and holds 5',
    'extras count': 'extras.cards: 1 card, but 8 players leave 0 extras (DEAL.SIZE)',
    'extras none': "extras.place: 'face-down', but 8 players leave no extras: the place is 'none'",
    'extras at trick 1': (
        "extras.place: 'taken', but at trick 1 the extras are 'face-down' "
        '(EXTRAS.FIRST_TRICK)'),
    'extras in passing': (
        "extras.place: 'taken', but in the passing phase the extras are 'face-down' "
        '(EXTRAS.FIRST_TRICK)'),
    'extras seat': 'extras.seat: 9 is not a seat of 6 players (0 to 5)',
    'extras not taken': 'extras.cards: taken by seat 3, but collected[3] does not hold them',
    'extras seat named': (
        "extras.seat: must be empty when the extras are 'face-down': a seat is named only "
        'when it took them'),
    'extras uncollected': 'extras.cards: uncollected, but uncollected does not hold them',
    'extras split': (
        'extras.cards: split between two seats, but the collected cards do not hold them'),
    'pending extras': (
        'pending: 8 cards, but the extras are pending, so all 2 trick(s) so far were set '
        'aside: 2 x 6 cards + 2 extras = 14 (VOID.TRICK)'),
    'pending order': (
        "pending: the extras must follow the first trick's cards in the pile "
        '(EXTRAS.FIRST_TRICK)'),
    'pending not whole': (
        'pending: 7 cards is not a whole number of set-aside tricks of 8 cards (VOID.TRICK)'),
    'pending won': (
        'pending: cards 1 to 8 are not a void trick: 5S wins it (TRICK.WINNER, VOID.TRICK)'),
    'whole tricks': (
        'collected[0]: 1 card from tricks is not a whole number of tricks of 8 cards '
        '(VOID.COLLECT)'),
    'leader collected nothing': (
        'leader: seat 4 leads trick 4 but has collected nothing: the leader won the last '
        'trick that was not void (TRICK.NEXT_LEADER, VOID.LEADER)'),
    'follow suit': (
        'trick: seat 0 played 7H on a diamond lead, but hands[0] still holds a diamond '
        '(FOLLOW.SUIT)'),
    'no shooter': 'moon_shooter: missing: expected a seat (0 to 5)',
    'no moon': (
        'moon_shooter: seat 2 has not collected all 26 hearts and both Q♠, so there is no '
        'moon choice (MOON.CONDITION)'),
    'target': 'totals[0]: 150 reaches the target 150: the game would be over (GAME.END)',
    'passing on a hold deal': (
        'phase: passing, but deal 1 has no passing under this ruleset (pass direction hold, '
        'PASS.DIRECTION)'),
    'pass count': 'passes[1]: 3 cards, but this ruleset passes 2 (PASS.CARDS)',
    'moon without choice': (
        'phase: moon-choice, but this ruleset has no moon choice (moon = others-52, '
        'MOON.CHOICE)'),
    'uncollected extras': (
        "extras.place: 'uncollected' happens only under last_trick_void = nobody (VOID.LAST)"),
    'split extras': (
        "extras.place: 'split' happens only under last_trick_void = split-highest-pair "
        '(VOID.LAST)'),
    'opening leader': (
        'leader: seat 1 leads trick 1, but the opening lead belongs to seat 3 '
        '(LEAD.OPENING_LEADER)'),
    'opening leader after void tricks': (
        'leader: seat 1 leads trick 3 (every trick so far was void), but the opening lead '
        'belongs to seat 2 (LEAD.OPENING_LEADER)'),
    'hearts broken by nothing': (
        'hearts_broken: true, but no heart or Q♠ has been played (HEARTS.BROKEN)'),
    'opening lead': (
        'trick: seat 1 opened the deal with 4H, which this ruleset does not allow from its '
        'hand (opening_lead = left-of-dealer, LEAD.OPENING_CARD)'),
    'first trick': (
        'trick: seat 6 discarded JH on trick 1 while holding a card that is not a heart or Q♠ '
        '(FOLLOW.FIRST_TRICK)'),
    'hearts broken by a queen': 'hearts_broken: true, but no heart has been played (HEARTS.BROKEN)',
    'hearts unbroken': 'hearts_broken: false, but 3H has been played (HEARTS.BROKEN)',
    'hearts unbroken by a discard': (
        'hearts_broken: false, but 3H was played on a spade lead (HEARTS.BROKEN)'),
}


@pytest.mark.rule("PLAYERS.COUNT", "DEAL.SIZE", "DECK.CARDS", "PASS.CARDS", "PASS.EXCHANGE",
                  "PASS.DIRECTION", "TURN.ORDER", "EXTRAS.FIRST_TRICK", "VOID.TRICK",
                  "VOID.COLLECT", "VOID.LEADER", "VOID.LAST", "TRICK.WINNER",
                  "TRICK.NEXT_LEADER", "FOLLOW.SUIT", "MOON.CONDITION", "MOON.CHOICE",
                  "GAME.END", "LEAD.OPENING_LEADER", "LEAD.OPENING_CARD",
                  "FOLLOW.FIRST_TRICK", "HEARTS.BROKEN")
@pytest.mark.parametrize(("name", "build", "ruleset"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_an_unreachable_position_is_refused_naming_field_and_reason(
        name: str, build: Callable[[], Position], ruleset: Ruleset | None) -> None:
    pos = build()
    with pytest.raises(InputError) as exc:
        check_position(pos, ruleset)
    assert str(exc.value) == MESSAGES[name]
    if ruleset is not None:
        check_position(pos)  # only the ruleset makes it unreachable


# --- refusals of the two forms ------------------------------------------------------------------

TEXT_ERRORS: list[tuple[str, object, str]] = [
    ("not text", 42, "position text: expected text, got int"),
    ("too long", "8 " * 2001, "position text: 4002 characters, more than 4000"),
    ("few fields", "8 1 0", "position text: expected PLAYERS DEAL DEALER PHASE and the fields "
     "of the phase, got 3 fields"),
    ("phase", "8 1 0 resting 0",
     "phase: 'resting' is not one of dealing, passing, playing, moon-choice"),
    ("field count", "8 1 0 dealing 0 0", "position text: 6 fields, but a dealing position has "
     "5: PLAYERS DEAL DEALER PHASE TOTALS"),
    ("trick", MID_DEAL_8.replace("8@7:5DJD", "8-7-5DJD"),
     "trick: '8-7-5DJD' is not NUMBER@LEADER:CARDS (e.g. 5@4:5S5SKS)"),
    ("hearts", MID_DEAL_8.replace(" broken ", " yes "),
     "hearts_broken: 'yes' is not 'broken' or 'unbroken'"),
    ("extras", TRICK_4_6.replace("10S3H@2", "10S3H"),
     "extras: '10S3H' is not CARDS@PLACE (e.g. 4C9H@face-down) or '-'"),
    ("extras place", TRICK_4_6.replace("10S3H@2", "10S3H@table"), "extras.place: 'table' is "
     "not a seat number or one of face-down, pending, uncollected, split"),
    ("rank without suit", MID_DEAL_8.replace("2C5C7C5D8D", "2C5C7C5D8"),
     "hands[0]: '2C5C7C5D8': the last rank(s) have no suit after them"),
    ("suit without rank", MID_DEAL_8.replace("2C5C7C5D8D", "C5C7C5D8D"),
     "hands[0]: 'C5C7C5D8D': suit 'C' has no rank before it"),
    ("not a card", MID_DEAL_8.replace("2C5C7C5D8D", "2C5C7C5D8X"), "hands[0]: '2C5C7C5D8X': "
     "'X' is not a rank (2-10, J, Q, K, A, or T) or a suit (C, D, H, S)"),
    ("comma", MID_DEAL_8.replace("2C5C7C5D8D", "2C5,C7C5D8D"),
     "hands[0]: '2C5,C7C5D8D': ranks before a comma need a suit"),
    ("integer", MID_DEAL_8.replace("8 1 0 playing", "8 one 0 playing"),
     "deal_number: 'one' is not an integer from 1 to 1000000000"),
    ("total", MID_DEAL_8.replace("0,0,0,0,0,0,0,0", "0,0,0,0,0,0,0,99999999999999"),
     "totals[7]: '99999999999999' is not an integer from -1000000000000 to 1000000000000"),
    ("totals", "8 1 0 dealing " + ",".join(["0"] * 12),
     "totals: 12 totals, more than the 11 seats of the largest game"),
    ("seats", MID_DEAL_8.replace("2C5C7C5D8D/", "2C5C7C5D8D/" + "-/" * 5),
     "hands: 13 seats, more than the 11 of the largest game"),
    ("checked", MID_DEAL_8.replace("8@7", "8@3"),
     "hands[0]: 5 cards, but at trick 8 seat 0 has not played to it yet and holds 6"),
]


@pytest.mark.parametrize(("name", "text", "message"), TEXT_ERRORS,
                         ids=[e[0] for e in TEXT_ERRORS])
def test_a_bad_position_text_is_refused_naming_the_field(name: str, text: object,
                                                         message: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_position(text)  # type: ignore[arg-type]
    assert str(exc.value) == message


def _json(**changes: object) -> dict[str, object]:
    return {**position_to_json(parse_position(MID_DEAL_8)), **changes}


JSON_ERRORS: list[tuple[str, object, str]] = [
    ("not an object", [], "position: expected an object, got a list"),
    ("missing", {k: v for k, v in _json().items() if k != "leader"}, "position: missing leader"),
    ("unknown", _json(ruleset={}), "position: unknown field(s) 'ruleset'"),
    ("phase", _json(phase="over"),
     "position.phase: 'over' is not one of dealing, passing, playing, moon-choice"),
    ("totals", _json(totals="0"),
     "position.totals: expected a list of one integer per seat, got '0'"),
    ("hearts", _json(hearts_broken=1), "position.hearts_broken: expected true or false, got 1"),
    ("card", _json(trick=["5D", "1D"]),
     "position.trick[1]: '1D' is not a card: rank '1' is not one of 2-10, J, Q, K, A (or T)"),
    ("cards", _json(trick="5D JD"), "position.trick: expected a list of cards, got '5D JD'"),
    ("hands", _json(hands="x"), "position.hands: expected a list with one entry per seat, "
     "got 'x'"),
    ("integer", _json(leader="7"), "position.leader: expected an integer, got '7'"),
    ("boolean", _json(dealer=True), "position.dealer: expected an integer, got True"),
    ("extras place", _json(extras={"cards": [], "place": "lost", "seat": None}),
     "position.extras.place: 'lost' is not one of none, face-down, pending, taken, "
     "uncollected, split"),
    ("extras fields", _json(extras={"cards": []}), "position.extras: missing place, seat"),
    ("checked", _json(leader=3), "position.hands[0]: 5 cards, but at trick 8 seat 0 has not "
     "played to it yet and holds 6"),
]


@pytest.mark.parametrize(("name", "data", "message"), JSON_ERRORS,
                         ids=[e[0] for e in JSON_ERRORS])
def test_a_bad_position_json_is_refused_naming_the_path(name: str, data: object,
                                                        message: str) -> None:
    with pytest.raises(InputError) as exc:
        position_from_json(data)
    assert str(exc.value) == message


def test_json_multisets_out_of_order_are_sorted() -> None:
    data = _json()
    data["hands"] = [list(reversed(h)) for h in data["hands"]]  # type: ignore[attr-defined]
    assert position_from_json(data) == parse_position(MID_DEAL_8)


def test_a_finished_game_has_no_position() -> None:
    final = [after for _, _, after, _ in game_steps(6, 1)][-1]
    assert final.phase is Phase.GAME_OVER
    with pytest.raises(InputError) as exc:
        position_of(final)
    assert str(exc.value) == ("phase: the game is over: a finished game has no position to "
                              "continue from")


def test_the_limits_document_states_the_position_bounds() -> None:
    from rules_ref.cli.position import MAX_POSITION_INPUT
    from rules_ref.positions.model import MAX_DEAL_NUMBER, MAX_POSITION_TEXT, MAX_TOTAL

    text = (spec_dir() / "limits.md").read_text(encoding="utf-8")
    assert (MAX_POSITION_TEXT, MAX_POSITION_INPUT) == (4000, 1024 * 1024)
    assert (MAX_DEAL_NUMBER, MAX_TOTAL) == (10**9, 10**12)
    for row in ("| Position text | 4000 characters, one line |",
                "| 1 MiB (1048576 bytes) | `FILE: larger than 1048576 bytes (the limit of a "
                "position input)` |", "| `deal_number` | 1 to 10⁹ |", "| Totals | −10¹² to 10¹² |"):
        assert row in text, row


@pytest.mark.rule("DEAL.DEALER")
def test_a_game_started_within_a_deal_has_no_record() -> None:
    """A record starts between deals; a mid-deal start is refused, never half-written."""
    from rules_ref.records.record import record_from_state

    state = [after for _, _, after, _ in game_steps(players=6, seed=7)][40]
    resumed = state_from_position(position_of(state), state.ruleset)
    play = resumed.legal_actions()[0]
    for s in (resumed, resumed.apply(play)[0]):
        with pytest.raises(InputError) as err:
            record_from_state(s)
        assert str(err.value) == ("this game was started from a position within a deal, and a "
                                  "record starts between deals: write the position instead "
                                  "(rules-ref position)")
