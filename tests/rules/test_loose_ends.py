"""Points the switch definitions of spec/variants.toml settle in so many words.

The second 2♣ under ``two-of-clubs``, a 10♦ under ``first_trick_points =
forbidden``, the order in which ``split-highest-pair`` gives out the pending
pile, and the caps on the integer and list switches.
"""

from __future__ import annotations

import tomllib

import pytest

from rules_ref import InputError, Play, Ruleset
from rules_ref.pending import after_trick, settle_pending
from rules_ref.registry import spec_dir
from rules_ref.ruleset import (
    INT_BOUNDS,
    MAX_PASS_CYCLE,
    FirstTrickPoints,
    LastTrickVoid,
    OpeningLead,
)
from rules_ref.scoring import card_points
from rules_ref.tricks import resolve_trick

from .helpers import assert_illegal, assert_illegal_cards, card, cards, dealt, no_pass, play

TWO_CLUBS = no_pass(opening_lead=OpeningLead.TWO_OF_CLUBS)
ALL_HEARTS_TEXT = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"

# --- the second 2♣ under two-of-clubs ----------------------------------------------------


@pytest.mark.rule("LEAD.OPENING_CARD", "FOLLOW.SUIT")
def test_the_other_two_of_clubs_is_an_ordinary_club_on_trick_1() -> None:
    state = dealt(6, {3: "2C 4C", 4: "5C", 5: "2C 3C"}, ruleset=TWO_CLUBS, first_dealer=2)
    assert state.to_act == 3
    state, _ = play(state, "2C 5C")
    assert state.to_act == 5
    assert state.legal_plays() == cards("2C 3C")  # its two clubs: the 2♣ is not forced
    state, _ = state.apply(Play(5, card("3C")))
    assert card("2C") in state.hands[5]


@pytest.mark.rule("LEAD.OPENING_CARD", "TRICK.CANCEL")
def test_the_other_two_of_clubs_played_to_trick_1_cancels_the_led_one() -> None:
    state = dealt(6, {1: "2C", 2: "2C", 3: "3C", 4: "4C", 5: "5C", 0: "6C"}, ruleset=TWO_CLUBS)
    assert state.to_act == 1
    state, _ = play(state, "2C 2C 3C 4C 5C 6C")
    first = state.tricks[0]
    assert (first.cancelled, first.winner, first.winning_card) == (cards("2C"), 0, card("6C"))


@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD")
def test_a_leader_holding_both_twos_of_clubs_leads_one_and_keeps_the_other() -> None:
    state = dealt(6, {1: "2C 2C AC"}, extras="AS AS", ruleset=TWO_CLUBS)
    assert state.to_act == 1
    assert state.legal_plays() == cards("2C")
    assert_illegal(state, Play(1, card("AC")), "LEAD.OPENING_CARD")
    state, _ = play(state, "2C")
    assert state.hands[1].count(card("2C")) == 1


# --- a 10♦ under first_trick_points = forbidden --------------------------------------------


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "SCORE.CARD_POINTS")
@pytest.mark.parametrize("ten", [0, -10, 7])
def test_a_scoring_ten_of_diamonds_is_never_barred_from_trick_1(ten: int) -> None:
    rs = no_pass(first_trick_points=FirstTrickPoints.FORBIDDEN, ten_of_diamonds_points=ten)
    state = dealt(6, {1: "2C", 2: "10D QS 2H 3S"}, voids={2: "C"}, ruleset=rs)
    state, _ = play(state, "2C")
    assert card("10D") in state.legal_plays()
    assert card("3S") in state.legal_plays()
    assert_illegal_cards(state, 2, "QS 2H", "FOLLOW.FIRST_TRICK")
    state, _ = play(state, "10D")
    assert state.trick == cards("2C 10D")


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
@pytest.mark.parametrize("ten", [0, -10])
def test_a_ten_of_diamonds_is_another_card_for_the_exception(ten: int) -> None:
    rs = no_pass(first_trick_points=FirstTrickPoints.FORBIDDEN, ten_of_diamonds_points=ten)
    state = dealt(6, {1: "2C", 2: ALL_HEARTS_TEXT + " 2H QS QS 10D"}, ruleset=rs)
    state, _ = play(state, "2C")
    assert state.legal_plays() == cards("10D")
    assert_illegal(state, Play(2, card("QS")), "FOLLOW.FIRST_TRICK")


# --- the order split-highest-pair gives out -----------------------------------------------

SPLIT = Ruleset(last_trick_void=LastTrickVoid.SPLIT_HIGHEST_PAIR)


@pytest.mark.rule("VOID.LAST", "VOID.TRICK", "EXTRAS.FIRST_TRICK")
@pytest.mark.parametrize(("extras", "first_share", "second_share"), [
    ("KH QS", "5C 9C 3C KH 8D 8D JD", "5C 9C 3C QS 2H JD 4S"),
    ("QS KH", "5C 9C 3C QS 8D 8D JD", "5C 9C 3C KH 2H JD 4S"),
])
def test_split_highest_pair_deals_the_pile_in_entry_order(
        extras: str, first_share: str, second_share: str) -> None:
    trick_1 = resolve_trick(cards("5C 5C 9C 9C 3C 3C"), leader=1, players=6)
    last = resolve_trick(cards("8D 2H 8D JD JD 4S"), leader=3, players=6)
    _, pile = after_trick((), trick_1, cards(extras))
    _, pile = after_trick(pile, last, ())
    assert pile == cards("5C 5C 9C 9C 3C 3C " + extras + " 8D 2H 8D JD JD 4S")
    taken, uncollected = settle_pending(pile, last, 6, SPLIT)
    # The highest cancelled diamonds are the two JD, played by seats 0 and then 1.
    assert taken == ((0, cards(first_share)), (1, cards(second_share)))
    assert uncollected == ()


@pytest.mark.rule("VOID.LAST")
def test_the_order_decides_the_points_of_each_seat() -> None:
    shares = {}
    for extras in ("KH QS", "QS KH"):
        trick_1 = resolve_trick(cards("5C 5C 9C 9C 3C 3C"), leader=1, players=6)
        last = resolve_trick(cards("8D 2H 8D JD JD 4S"), leader=3, players=6)
        _, pile = after_trick((), trick_1, cards(extras))
        _, pile = after_trick(pile, last, ())
        taken, _ = settle_pending(pile, last, 6, SPLIT)
        shares[extras] = tuple((seat, card_points(c, SPLIT)) for seat, c in taken)
    assert shares == {"KH QS": ((0, 1), (1, 14)), "QS KH": ((0, 13), (1, 2))}


# --- caps --------------------------------------------------------------------------------


def _switches() -> dict[str, dict[str, object]]:
    data = tomllib.loads((spec_dir() / "variants.toml").read_text(encoding="utf-8"))
    return {s["name"]: s for s in data["switch"]}


@pytest.mark.rule("GAME.END", "SCORE.CARD_POINTS", "PASS.CARDS", "PLAYERS.COUNT")
def test_every_integer_switch_states_both_caps_as_the_ruleset_enforces_them() -> None:
    found = {name: (s.get("min"), s.get("max")) for name, s in _switches().items()
             if s["type"] == "integer"}
    assert found == {"min_players": (5, 6), "pass_count": (1, 9),
                     "ten_of_diamonds_points": (-1000, 1000), "target": (1, 10**9)}
    assert found == INT_BOUNDS


@pytest.mark.rule("GAME.END", "SCORE.CARD_POINTS", "PASS.CARDS", "PLAYERS.COUNT")
@pytest.mark.parametrize(("name", "inside", "outside"), [
    ("min_players", 5, 4),
    ("min_players", 6, 7),
    ("target", 10**9, 10**9 + 1),
    ("target", 1, 0),
    ("ten_of_diamonds_points", 1000, 1001),
    ("ten_of_diamonds_points", -1000, -1001),
    ("pass_count", 9, 10),
])
def test_the_caps_are_inclusive(name: str, inside: int, outside: int) -> None:
    assert Ruleset.from_dict({name: inside}).to_dict()[name] == inside
    with pytest.raises(InputError, match=rf"ruleset\.{name}: {outside} is out of range"):
        Ruleset.from_dict({name: outside})


@pytest.mark.rule("PASS.DIRECTION")
def test_the_pass_cycle_cap_is_stated_with_the_switch() -> None:
    assert MAX_PASS_CYCLE == 16
    assert "Any list of 1 to 16 directions is accepted" in str(
        _switches()["pass_cycle"]["description"])
    assert len(Ruleset.from_dict({"pass_cycle": ["left"] * 16}).pass_cycle) == 16
    with pytest.raises(InputError, match=r"expected a list of 1 to 16 directions"):
        Ruleset.from_dict({"pass_cycle": ["left"] * 17})
