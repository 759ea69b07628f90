"""The values taken from the allanh engine and from PEGWiki's passing cycle, with exact results.

Seat distances in ``pass_cycle`` (PASS.DIRECTION), ``pass_forbidden``
(PASS.CARDS), ``first_trick_two_of_clubs`` (FOLLOW.FIRST_TRICK),
``hearts_broken_by = heart-not-led`` (HEARTS.BROKEN), ``moon_pair``
(MOON.CONDITION, MOON.CHOICE) and ``last_trick_void =
split-points-highest-pair`` (VOID.LAST).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from rules_ref import GameState, Pass, Play, Ruleset
from rules_ref.cards import TWO_OF_CLUBS, Card, Suit
from rules_ref.errors import InputError, SetupError
from rules_ref.following import two_of_clubs_duty
from rules_ref.leading import breaks_hearts
from rules_ref.passing import check_pass_forbidden, pass_offset, pass_target
from rules_ref.pending import pending_shares
from rules_ref.positions.check import check_position
from rules_ref.positions.convert import position_of
from rules_ref.records.record import record_from_state
from rules_ref.records.validate import validate_record
from rules_ref.ruleset import (
    FirstTrickPoints,
    FirstTrickTwoOfClubs,
    HeartsBrokenBy,
    LastTrickVoid,
    MoonPair,
    PassDirection,
    PassForbidden,
    SeatDistance,
    preset,
)
from rules_ref.scoring import moon_pair, pair_moon_scores
from rules_ref.tricks import resolve_trick

from .helpers import (
    SHARED_END,
    VOID_END,
    assert_illegal,
    card,
    cards,
    dealt,
    eight_player_deal,
    fill_deal,
    no_pass,
    play,
)

ALLANH_CYCLE = ["left", "right", "left-2", "right-2", "left-3", "right-3", "across", "hold"]
PEG_CYCLE = ["hold", "left", "left-2", "right-2", "right"]
HEARTS = cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")


def cycle(steps: list[str], **switches: Any) -> Ruleset:
    return Ruleset.from_dict({"pass_cycle": steps, **switches})


# --- pass_cycle: k seats to the left or right -------------------------------------------


@pytest.mark.rule("PASS.DIRECTION")
def test_seat_distances_are_read_as_steps() -> None:
    assert cycle(["left", "left-2", "right-10", "across"]).pass_cycle == (
        PassDirection.LEFT, SeatDistance.LEFT_2, SeatDistance.RIGHT_10, PassDirection.ACROSS)
    assert cycle(["right-3"]).to_dict()["pass_cycle"] == ["right-3"]


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize("step", ["left-1", "right-1", "left-11", "left-02", "left-+2",
                                  "Left-2", "up-2", "left2", 2])
def test_other_spellings_are_not_steps(step: object) -> None:
    with pytest.raises(InputError) as info:
        Ruleset.from_dict({"pass_cycle": ["left", step]})
    assert str(info.value).startswith(
        f"ruleset.pass_cycle[1]: {step!r} is not a pass direction (left, right, across, hold, "
        "or left-k or right-k (k seats away, k from 2 to 10))")  # and any close names


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize(("step", "players", "offset"), [
    (SeatDistance.LEFT_2, 8, 2), (SeatDistance.RIGHT_2, 8, 6), (SeatDistance.RIGHT_3, 8, 5),
    (SeatDistance.LEFT_5, 6, 5), (SeatDistance.RIGHT_5, 6, 1), (SeatDistance.RIGHT_10, 11, 1),
    (SeatDistance.LEFT_4, 8, 4), (PassDirection.ACROSS, 8, 4),
])
def test_a_seat_distance_is_an_offset_to_the_left(step: SeatDistance | PassDirection,
                                                  players: int, offset: int) -> None:
    assert pass_offset(step, players) == offset


@pytest.mark.rule("PASS.DIRECTION")
def test_the_allanh_cycle_deal_by_deal() -> None:
    rs = preset("allanh")
    assert [pass_target(0, k, 8, rs) for k in range(1, 11)] == [1, 7, 2, 6, 3, 5, 4, None, 1, 7]


@pytest.mark.rule("PASS.DIRECTION")
def test_the_pegwiki_cycle_deal_by_deal() -> None:
    rs = cycle(PEG_CYCLE)
    assert [pass_target(2, k, 7, rs) for k in range(1, 8)] == [None, 3, 4, 0, 1, None, 3]


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize(("step", "players"), [("left-6", 6), ("right-7", 7), ("left-10", 10)])
def test_a_distance_the_table_lacks_is_refused_at_set_up(step: str, players: int) -> None:
    with pytest.raises(SetupError) as info:
        GameState.start(players, cycle(["left", step]))
    k = int(step.split("-")[1])
    side = step.split("-")[0]
    assert info.value.rule_id == "PASS.DIRECTION"
    assert str(info.value) == (
        f"PASS.DIRECTION: pass_cycle step {step} passes {k} seats away, but a {players}-player "
        f"table has only {players - 1} other seats ({side}-k needs k from 2 to {players - 1})")


@pytest.mark.rule("PASS.DIRECTION")
def test_the_largest_distance_each_table_has_is_accepted() -> None:
    for players in range(6, 12):
        state = GameState.start(players, cycle([f"left-{players - 1}"]))
        state, _ = state.apply(fill_deal(players))
        assert state.pass_offset == players - 1


@pytest.mark.rule("PASS.DIRECTION", "PASS.EXCHANGE")
def test_deal_3_of_allanh_passes_two_seats_to_the_left() -> None:
    state = GameState.start(8, preset("allanh"), first_dealer=0, next_deal=3)
    state, _ = state.apply(fill_deal(8, {1: "3C 4C 5C", 3: "6D 7D 8D"}))
    assert state.pass_offset == 2
    before = Counter(state.hands[3])
    for seat in range(8):
        given = {1: "3C 4C 5C", 3: "6D 7D 8D"}.get(seat)
        chosen = cards(given) if given else tuple(
            c for c in state.hands[seat] if c != TWO_OF_CLUBS)[-3:]
        state, _ = state.apply(Pass(seat, chosen))
    assert Counter(state.hands[3]) == before - Counter(cards("6D 7D 8D")) + Counter(
        cards("3C 4C 5C"))
    assert card("6D") in state.hands[5]


# --- pass_forbidden ----------------------------------------------------------------------

NO_2C = Ruleset(pass_forbidden=PassForbidden.TWO_OF_CLUBS)
CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"


@pytest.mark.rule("PASS.CARDS")
def test_a_pass_with_a_two_of_clubs_is_refused() -> None:
    state = dealt(8, {1: CLUBS}, ruleset=NO_2C)
    error = assert_illegal(state, Pass(1, cards("2C 3C 4C")), "PASS.CARDS")
    assert str(error) == "PASS.CARDS: a 2C may not be passed (pass_forbidden = two-of-clubs)"
    after, _ = state.apply(Pass(1, cards("3C 4C 5C")))
    assert after.passes[1] == cards("3C 4C 5C")


@pytest.mark.rule("PASS.CARDS")
def test_the_default_lets_a_two_of_clubs_be_passed() -> None:
    state = dealt(8, {1: CLUBS}, ruleset=Ruleset())
    after, _ = state.apply(Pass(1, cards("2C 3C 4C")))
    assert after.passes[1] == cards("2C 3C 4C")


@pytest.mark.rule("PASS.CARDS")
def test_the_legal_passes_leave_the_two_of_clubs_out() -> None:
    state = dealt(8, {1: CLUBS}, ruleset=NO_2C)
    state, _ = state.apply(Pass(2, state.hands[2][-3:]))  # seat 1 is still to pass
    passes = [a for a in state.legal_actions(1) if isinstance(a, Pass)]
    assert len(passes) == 220  # 3 of the 12 clubs above the 2C: 12 * 11 * 10 / 6
    assert not any(TWO_OF_CLUBS in p.cards for p in passes)


@pytest.mark.rule("PASS.CARDS")
@pytest.mark.parametrize(("players", "count", "fits"), [
    (11, 7, True), (11, 8, False), (10, 8, True), (10, 9, False), (9, 9, True), (6, 9, True)])
def test_a_pass_count_a_hand_might_not_reach_is_refused(players: int, count: int,
                                                        fits: bool) -> None:
    rs = Ruleset(pass_count=count, pass_forbidden=PassForbidden.TWO_OF_CLUBS)
    if fits:
        check_pass_forbidden(rs, players)
        GameState.start(players, rs)
        return
    with pytest.raises(SetupError) as info:
        GameState.start(players, rs)
    size = 104 // players
    assert str(info.value) == (
        f"PASS.CARDS: pass_count {count} cannot be passed at {players} players under "
        f"pass_forbidden = two-of-clubs: a hand of {size} cards may hold both 2C, leaving "
        f"{size - 2} it may pass")


# --- first_trick_two_of_clubs ----------------------------------------------------------

MUST = no_pass(first_trick_two_of_clubs=FirstTrickTwoOfClubs.MUST_PLAY)
NO_PASS_FREE = no_pass()


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "FOLLOW.SUIT")
def test_a_two_of_clubs_goes_to_trick_1_over_the_led_suit() -> None:
    state, _ = play(dealt(6, {1: "5D", 2: "2C 9D"}, ruleset=MUST), "5D")
    assert state.legal_plays() == cards("2C")
    assert_illegal(state, Play(2, card("9D")), "FOLLOW.FIRST_TRICK")
    free, _ = play(dealt(6, {1: "5D", 2: "2C 9D"}, ruleset=NO_PASS_FREE), "5D")
    assert card("9D") in free.legal_plays() and card("2C") not in free.legal_plays()


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_a_hand_with_both_plays_one_and_the_other_is_free_later() -> None:
    assert two_of_clubs_duty(cards("2C 2C 9D"), 1, MUST) == cards("2C")
    assert two_of_clubs_duty(cards("2C 9D"), 2, MUST) == ()
    assert two_of_clubs_duty(cards("3C 9D"), 1, MUST) == ()
    state, _ = play(dealt(6, {1: "5D", 2: "2C 2C 9D"}, ruleset=MUST), "5D")
    assert state.legal_plays() == cards("2C")


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "LEAD.OPENING_CARD")
def test_the_opening_leader_is_not_bound() -> None:
    state = dealt(6, {1: "2C 5D"}, ruleset=MUST)
    assert card("5D") in state.legal_plays()


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_the_duty_comes_before_the_first_trick_points_ban() -> None:
    rs = no_pass(first_trick_two_of_clubs=FirstTrickTwoOfClubs.MUST_PLAY,
                 first_trick_points=FirstTrickPoints.FORBIDDEN)
    state, _ = play(dealt(6, {1: "5D", 2: "2C QS AH"}, voids={2: "D"}, ruleset=rs), "5D")
    assert state.legal_plays() == cards("2C")


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "TRICK.CANCEL", "LEAD.OPENING_LEADER")
def test_under_allanh_the_two_twos_of_clubs_cancel_in_trick_1() -> None:
    # deal 8 of the allanh cycle does not pass; first dealer 1 makes seat 0 its dealer
    state = dealt(8, {1: "2C 5C", 2: "3C", 3: "2C 9C", 4: "4C", 5: "6C", 6: "7C", 7: "8C",
                      0: "10C"}, ruleset=preset("allanh"), first_dealer=1, next_deal=8)
    assert state.to_act == 1
    state, _ = play(state, "2C 3C")
    assert state.legal_plays() == cards("2C")
    state, _ = play(state, "2C 4C 6C 7C 8C 10C")
    trick = state.tricks[-1]
    assert (trick.winner, trick.cancelled) == (0, cards("2C"))  # the 2C, cancelled


# --- hearts_broken_by = heart-not-led -------------------------------------------------------

NOT_LED = Ruleset(hearts_broken_by=HeartsBrokenBy.HEART_NOT_LED)
DISCARD = Ruleset(hearts_broken_by=HeartsBrokenBy.HEART_DISCARD)


@pytest.mark.rule("HEARTS.BROKEN")
@pytest.mark.parametrize(("text", "led", "not_led", "discard"), [
    ("2H", None, False, False),    # a heart lead
    ("2H", Suit.H, True, False),   # a heart following a heart lead
    ("2H", Suit.C, True, True),    # a heart discard
    ("QS", Suit.C, False, False),  # a Q♠ never
    ("QS", None, False, False),
    ("2C", Suit.C, False, False),
])
def test_what_breaks_hearts_under_heart_not_led(text: str, led: Suit | None, not_led: bool,
                                                discard: bool) -> None:
    assert breaks_hearts(card(text), led, NOT_LED) is not_led
    assert breaks_hearts(card(text), led, DISCARD) is discard


@pytest.mark.rule("HEARTS.BROKEN", "LEAD.HEARTS")
def test_a_heart_led_unbroken_breaks_hearts_once_a_heart_follows_it() -> None:
    hands = {1: "3C 7S", 2: "AC 2H 2H 3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 8H 8H 9H 9H",
             3: "2C AH KH 8D", 4: "4C 8S", 5: "5C 8S", 0: "6C 7S"}
    voids = {4: "H", 5: "H", 0: "H", 1: "H"}
    for rs, broken in ((NOT_LED, True), (DISCARD, False)):
        state = dealt(6, hands, voids=voids, ruleset=no_pass(hearts_broken_by=rs.hearts_broken_by))
        state, _ = play(state, "3C AC 2C 4C 5C 6C 2H")
        assert state.hearts_broken is False
        state, _ = play(state, "AH 8S 8S 7S 7S")
        assert (state.to_act, state.hearts_broken) == (3, broken)
        assert (card("KH") in state.legal_plays()) is broken


# --- moon_pair ---------------------------------------------------------------------------

PAIR = Ruleset(moon_pair=MoonPair.OTHERS_26)


def _collected(*seats: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    return [*seats, (), (), ()]


@pytest.mark.rule("MOON.CONDITION")
@pytest.mark.parametrize(("collected", "pair"), [
    (_collected(HEARTS * 2 + cards("QS"), cards("QS")), (0, 1)),
    (_collected((), HEARTS * 2 + cards("QS QS")[:1], (), cards("QS")), (1, 3)),
    (_collected(HEARTS + HEARTS[1:] + cards("QS QS"), HEARTS[:1] + cards("2C")), (0, 1)),
    (_collected(HEARTS * 2 + cards("QS QS"), cards("2C")), None),      # a moon of one
    (_collected(HEARTS * 2, cards("QS"), cards("QS")), None),          # three seats
    (_collected(HEARTS + HEARTS[1:], cards("QS QS")), None),           # a heart uncollected
])
def test_two_seats_with_every_heart_and_queen(collected: list[tuple[Card, ...]],
                                              pair: tuple[int, int] | None) -> None:
    assert moon_pair(collected, PAIR) == pair
    assert moon_pair(collected, Ruleset()) is None


@pytest.mark.rule("MOON.CHOICE")
def test_a_pair_moon_scores_0_for_both_and_26_for_the_others() -> None:
    rs = Ruleset(moon_pair=MoonPair.OTHERS_26, ten_of_diamonds_points=-10)
    collected = [cards("10D"), (), cards("10D"), ()]
    assert pair_moon_scores((0, 1), collected, rs) == (-10, 0, 16, 26)


@pytest.mark.rule("MOON.CONDITION", "MOON.CHOICE")
def test_a_deal_shot_by_two_seats_is_scored_and_recorded() -> None:
    plain, _ = eight_player_deal(SHARED_END)
    assert plain.deal_results[-1].scores == (47, 0, 0, 5, 0, 0, 0, 0)
    state, _ = eight_player_deal(SHARED_END, ruleset=no_pass(moon_pair=MoonPair.OTHERS_26))
    result = state.deal_results[-1]
    assert (result.moon_pair, result.moon_shooter) == ((0, 3), None)
    assert result.card_points == (47, 0, 0, 5, 0, 0, 0, 0)
    assert result.scores == (0, 26, 26, 0, 26, 26, 26, 26)
    record = record_from_state(state)
    assert record["deals"][0]["moon"] == {"shooter": 0, "choice": None, "partner": 3}
    assert validate_record(record) == []
    record["deals"][0]["moon"]["partner"] = 4
    assert [(v.rule, v.message) for v in validate_record(record)] == [
        ("MOON.CONDITION", "moon recorded for seat 0 and seat 4, but the shooters are "
                           "seat 0 and seat 3")]
    record["deals"][0]["moon"] = None
    assert [v.rule for v in validate_record(record)] == ["MOON.CONDITION"]


@pytest.mark.rule("MOON.CONDITION")
def test_a_record_claiming_a_pair_for_a_moon_of_one_is_refused() -> None:
    plain, _ = eight_player_deal(SHARED_END, ruleset=no_pass(moon_pair=MoonPair.NONE))
    record = record_from_state(plain)
    record["deals"][0]["moon"] = {"shooter": 0, "choice": None, "partner": 3}
    assert [(v.rule, v.message) for v in validate_record(record)] == [
        ("MOON.CONDITION", "moon recorded for seat 0 and seat 3, but the shooter is "
                           "nobody")]


# --- last_trick_void = split-points-highest-pair -----------------------------------------

POINTS = Ruleset(last_trick_void=LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR)


@pytest.mark.rule("VOID.LAST")
@pytest.mark.parametrize(("extra", "shares"), [
    ("QS", (0, 0, 0, 8, 7, 0)),         # 15 points: the odd one to seat 3, who played first
    ("QS 2H", (0, 0, 0, 8, 8, 0)),
    ("", (0, 0, 0, 1, 1, 0)),           # the two 7H
    ("10D", (0, 0, 0, 1, 1, 0)),        # a 10D scores for nobody
])
def test_pending_points_are_split_between_the_highest_pair(extra: str,
                                                           shares: tuple[int, ...]) -> None:
    last = resolve_trick(cards("9C 9C 4C 4C 7H 7H"), 3, 6)
    rs = Ruleset(last_trick_void=LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR,
                 ten_of_diamonds_points=-10)
    assert pending_shares(last.cards + cards(extra), last, 6, rs) == shares
    assert pending_shares(last.cards + cards(extra), last, 6, Ruleset()) == (0,) * 6


@pytest.mark.rule("VOID.LAST", "SCORE.CARD_POINTS")
def test_split_points_against_split_cards_in_a_whole_deal() -> None:
    # the void last trick QC 5H KC QC 2H KC 2D 7H, led by seat 0: the K♣ pair is seats 2, 5
    points, _ = eight_player_deal(VOID_END, ruleset=no_pass(
        last_trick_void=LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR))
    result = points.deal_results[-1]
    assert result.card_points == result.scores == (49, 0, 2, 0, 0, 1, 0, 0)
    assert len(result.uncollected) == 16
    split, _ = eight_player_deal(VOID_END, ruleset=no_pass(
        last_trick_void=LastTrickVoid.SPLIT_HIGHEST_PAIR))
    assert split.deal_results[-1].scores == (49, 0, 1, 0, 0, 2, 0, 0)
    assert split.deal_results[-1].uncollected == ()


# --- positions under the new values --------------------------------------------------------


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "FOLLOW.SUIT")
def test_a_position_with_a_two_of_clubs_over_the_led_suit_needs_must_play() -> None:
    state, _ = play(dealt(6, {1: "5D", 2: "2C 9D"}, ruleset=MUST), "5D 2C")
    pos = position_of(state)
    assert check_position(pos, MUST) == pos
    with pytest.raises(InputError) as info:
        check_position(pos, NO_PASS_FREE)
    assert str(info.value) == "trick: seat 2 played 2C on a diamond lead while holding a " \
        "diamond (FOLLOW.SUIT)"
    held, _ = play(dealt(6, {1: "5D", 2: "2C 9D"}, ruleset=NO_PASS_FREE), "5D 9D")
    with pytest.raises(InputError) as info:
        check_position(position_of(held), MUST)
    assert str(info.value) == "trick: seat 2 played 9D to trick 1 while holding a 2♣, which " \
        "it must play there (first_trick_two_of_clubs = must-play, FOLLOW.FIRST_TRICK)"


@pytest.mark.rule("HEARTS.BROKEN")
def test_a_position_after_a_heart_lead_under_heart_not_led() -> None:
    hands = {1: "3C 7S", 2: "AC 2H 2H 3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 8H 8H 9H 9H",
             3: "2C AH KH 8D", 4: "4C 8S", 5: "5C 8S", 0: "6C 7S"}
    rs = no_pass(hearts_broken_by=HeartsBrokenBy.HEART_NOT_LED)
    state = dealt(6, hands, voids={4: "H", 5: "H", 0: "H", 1: "H"}, ruleset=rs)
    led, _ = play(state, "3C AC 2C 4C 5C 6C 2H")
    assert check_position(position_of(led), rs) == position_of(led)
    followed, _ = play(led, "AH")
    pos = replace(position_of(followed), hearts_broken=False)
    with pytest.raises(InputError) as info:
        check_position(pos, rs)
    assert str(info.value) == ("hearts_broken: false, but AH was played to a trick it did not "
                               "lead (HEARTS.BROKEN)")
