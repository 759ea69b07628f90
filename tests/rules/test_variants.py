"""Every value of every switch of spec/variants.toml, and every preset."""

from __future__ import annotations

import pytest

from rules_ref import ChooseMoon, GameState, InputError, MoonChoice, Pass, Phase, Play, Ruleset
from rules_ref.cards import Suit
from rules_ref.events import CardsPassed, DealScored, DealStarted, MoonChosen, PendingSettled
from rules_ref.ruleset import (
    FirstTrickPoints,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    OpeningLead,
    PassDirection,
    preset,
    presets,
)
from rules_ref.scoring import card_points

from .helpers import (
    MOON_END,
    SHARED_END,
    VOID_END,
    assert_illegal,
    assert_illegal_cards,
    card,
    cards,
    dealt,
    eight_player_deal,
    fill_deal,
    no_pass,
    play,
)

L, R, A, H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD
ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"

# --- pass_count --------------------------------------------------------------------------


@pytest.mark.rule("PASS.CARDS")
def test_pass_count_2() -> None:
    state = GameState.start(7, Ruleset(pass_count=2))
    state, _ = state.apply(fill_deal(7))
    err = assert_illegal(state, Pass(0, state.hands[0][:3]), "PASS.CARDS")
    assert "a pass is 2 cards, not 3" in str(err)
    original = state.hands
    for seat in range(7):
        state, _ = state.apply(Pass(seat, original[seat][:2]))
    assert state.phase is Phase.PLAYING
    assert state.hands[1] == tuple(sorted(original[1][2:] + original[0][:2]))


@pytest.mark.rule("PASS.CARDS")
def test_pass_count_9_with_11_players_passes_whole_hands() -> None:
    state = GameState.start(11, Ruleset(pass_count=9))
    state, _ = state.apply(fill_deal(11))
    original = state.hands
    for seat in range(11):
        state, _ = state.apply(Pass(seat, original[seat]))
    assert state.hands == tuple(original[(s - 1) % 11] for s in range(11))


@pytest.mark.rule("PASS.CARDS")
@pytest.mark.parametrize("count", [0, 10, -3])
def test_pass_count_out_of_range_is_rejected(count: int) -> None:
    with pytest.raises(InputError):
        Ruleset(pass_count=count)


# --- pass_cycle --------------------------------------------------------------------------


def _offsets(players: int, cycle: tuple[PassDirection, ...], deals: int) -> list[int | None]:
    out = []
    for k in range(1, deals + 1):
        state = GameState.start(players, Ruleset(pass_cycle=cycle), next_deal=k)
        _, events = state.apply(fill_deal(players))
        assert isinstance(events[0], DealStarted)
        out.append(events[0].pass_offset)
    return out


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize(("cycle", "players", "offsets"), [
    ((L, R), 7, [1, 6, 1, 6, 1]),
    ((H,), 7, [None, None, None, None, None]),
    ((R,), 7, [6, 6, 6, 6, 6]),
    ((L,), 9, [1, 1, 1, 1, 1]),
    ((L, R, A, H), 6, [1, 5, 3, None, 1]),
    ((L, R, A, H), 7, [1, 6, 3, None, 1]),
    ((L, R, A, H), 11, [1, 10, 5, None, 1]),
])
def test_pass_cycle(cycle: tuple[PassDirection, ...], players: int,
                    offsets: list[int | None]) -> None:
    assert _offsets(players, cycle, 5) == offsets


@pytest.mark.rule("PASS.DIRECTION", "PASS.EXCHANGE")
def test_pass_across_moves_the_cards_half_way_round() -> None:
    state = GameState.start(7, Ruleset(pass_cycle=(A,)))
    state, _ = state.apply(fill_deal(7))
    original = state.hands
    for seat in range(7):
        state, events = state.apply(Pass(seat, original[seat][:3]))
        assert events[0] == CardsPassed(seat, (seat + 3) % 7)
    assert state.hands[3] == tuple(sorted(original[3][3:] + original[0][:3]))


@pytest.mark.rule("PASS.DIRECTION", "TURN.ORDER")
def test_pass_cycle_hold_starts_play_at_once() -> None:
    state = GameState.start(6, no_pass())
    state, events = state.apply(fill_deal(6))
    assert events == (DealStarted(1, 0, None),)
    assert state.phase is Phase.PLAYING
    assert_illegal(state, Pass(1, state.hands[1][:3]), "TURN.ORDER")


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize("cycle", [[], ["up"], "left", [1]])
def test_a_bad_pass_cycle_is_rejected(cycle: object) -> None:
    with pytest.raises(InputError):
        Ruleset.from_dict({"pass_cycle": cycle})


# --- opening_lead ------------------------------------------------------------------------


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_opening_lead_no_scoring_forbids_a_scoring_ten_of_diamonds() -> None:
    rs = no_pass(opening_lead=OpeningLead.LEFT_OF_DEALER_NO_SCORING, ten_of_diamonds_points=-10)
    state = dealt(6, {1: "10D 2C 2H QS"}, ruleset=rs)
    assert card("10D") not in state.legal_plays()
    assert card("2C") in state.legal_plays()
    for bad in ("10D", "2H", "QS"):
        assert_illegal(state, Play(1, card(bad)), "LEAD.OPENING_CARD")


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_opening_lead_no_scoring_allows_a_ten_of_diamonds_that_scores_nothing() -> None:
    rs = no_pass(opening_lead=OpeningLead.LEFT_OF_DEALER_NO_SCORING)
    state = dealt(6, {1: "10D 2C 2H QS"}, ruleset=rs)
    assert card("10D") in state.legal_plays()
    assert_illegal(state, Play(1, card("2H")), "LEAD.OPENING_CARD")


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_opening_lead_no_scoring_with_only_scoring_cards_leads_anything() -> None:
    rs = no_pass(opening_lead=OpeningLead.LEFT_OF_DEALER_NO_SCORING, ten_of_diamonds_points=-10)
    state = dealt(6, {1: ALL_HEARTS + " QS QS 10D 10D"}, ruleset=rs)
    assert state.legal_plays() == cards("10D " + ALL_HEARTS + " QS")


TWO_CLUBS = no_pass(opening_lead=OpeningLead.TWO_OF_CLUBS)


@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD")
def test_two_of_clubs_the_first_holder_from_the_dealers_left_leads_it() -> None:
    state = dealt(6, {3: "2C 3C", 5: "2C"}, ruleset=TWO_CLUBS)
    assert state.to_act == 3
    assert state.legal_plays() == cards("2C")
    assert_illegal(state, Play(3, card("3C")), "LEAD.OPENING_CARD")
    assert_illegal(state, Play(1, state.hands[1][0]), "TURN.ORDER")
    state, _ = play(state, "2C")
    assert state.trick == cards("2C")


@pytest.mark.rule("LEAD.OPENING_LEADER")
@pytest.mark.parametrize(("dealer", "holders", "leader"), [
    (4, (1, 4), 1),   # looking from seat 5: 5, 0, 1
    (0, (0, 5), 5),
    (2, (2,), 2),     # only the dealer: found last
])
def test_two_of_clubs_search_goes_clockwise_from_the_dealers_left(
        dealer: int, holders: tuple[int, ...], leader: int) -> None:
    extras = "2C AS" if len(holders) == 1 else "AS AS"  # no other seat holds a 2C
    state = dealt(6, {s: "2C" for s in holders}, extras, ruleset=TWO_CLUBS, first_dealer=dealer)
    assert state.to_act == leader


@pytest.mark.rule("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD")
def test_two_of_clubs_in_the_extras_falls_back_to_left_of_dealer() -> None:
    state = dealt(6, {1: "3C 2H QS"}, extras="2C 2C", ruleset=TWO_CLUBS)
    assert state.to_act == 1
    assert_illegal_cards(state, 1, "2H QS", "LEAD.OPENING_CARD")
    state, _ = play(state, "3C")
    assert state.trick == cards("3C")


@pytest.mark.rule("LEAD.OPENING_LEADER", "PASS.EXCHANGE")
def test_two_of_clubs_is_looked_for_after_the_passing() -> None:
    rs = Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS)
    state = GameState.start(6, rs)
    state, _ = state.apply(fill_deal(6, {1: "2C 3C 4C"}, extras="2C AS"))
    for seat in range(6):
        passed = cards("2C 3C 4C") if seat == 1 else state.hands[seat][-3:]
        state, _ = state.apply(Pass(seat, passed))
    assert card("2C") in state.hands[2]
    assert state.to_act == 2


# --- first_trick_points ------------------------------------------------------------------

FORBIDDEN = no_pass(first_trick_points=FirstTrickPoints.FORBIDDEN)


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_first_trick_points_forbidden_on_trick_1() -> None:
    state = dealt(6, {1: "2C", 2: "QS 2H 3D"}, voids={2: "C"}, ruleset=FORBIDDEN)
    state, _ = play(state, "2C")
    assert card("QS") not in state.legal_plays()
    assert card("3D") in state.legal_plays()
    assert_illegal_cards(state, 2, "QS 2H", "FOLLOW.FIRST_TRICK")


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_first_trick_points_forbidden_unless_the_hand_holds_nothing_else() -> None:
    hand = ALL_HEARTS + " 2H 3H QS QS"
    state = dealt(6, {1: "2C", 2: hand}, ruleset=FORBIDDEN)
    state, _ = play(state, "2C")
    assert state.legal_plays() == cards(ALL_HEARTS + " QS")
    state, _ = play(state, "QS")
    assert state.trick == cards("2C QS")


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "VOID.LEADER")
def test_first_trick_points_forbidden_holds_on_a_void_trick_1_only() -> None:
    state = dealt(6, {1: "5C 2D", 2: "5C 3D", 3: "9C QS", 4: "9C", 5: "QS 4D", 0: "4D"},
                  voids={5: "C", 0: "C", 3: "D"}, ruleset=FORBIDDEN)
    state, _ = play(state, "5C 5C 9C 9C")
    assert_illegal(state, Play(5, card("QS")), "FOLLOW.FIRST_TRICK")
    state, _ = play(state, "4D 4D")
    assert state.tricks[-1].winner is None
    state, _ = play(state, "2D 3D")  # trick 2, led again by seat 1
    assert state.trick_number == 2
    assert card("QS") in state.legal_plays()
    state, _ = play(state, "QS")
    assert state.trick == cards("2D 3D QS")


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_first_trick_points_forbidden_does_not_stop_following_a_heart_lead() -> None:
    state = dealt(6, {1: ALL_HEARTS + " 2H 3H QS QS", 2: "9H 2C"}, ruleset=FORBIDDEN)
    state, _ = play(state, "5H")
    assert state.legal_plays() == tuple(c for c in dict.fromkeys(state.hands[2])
                                        if c.suit == Suit.H)
    state, _ = play(state, "9H")
    assert state.trick == cards("5H 9H")


EVEN_FOLLOWING = no_pass(first_trick_points=FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING)


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_forbidden_even_following_keeps_the_queen_back_when_another_spade_follows() -> None:
    state = dealt(6, {1: "5S 3D", 2: "QS 7S 4D"}, ruleset=EVEN_FOLLOWING)
    state, _ = play(state, "5S")
    assert card("QS") not in state.legal_plays()
    assert card("7S") in state.legal_plays()
    assert all(c.suit == Suit.S for c in state.legal_plays())
    assert_illegal(state, Play(2, card("QS")), "FOLLOW.FIRST_TRICK")
    strict = dealt(6, {1: "5S 3D", 2: "QS 7S 4D"}, ruleset=FORBIDDEN)
    strict, _ = play(strict, "5S")
    assert card("QS") in strict.legal_plays()  # forbidden bans discards only


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_forbidden_even_following_lets_a_lone_queen_follow_suit() -> None:
    hand = "QS 2C 3C 4C 5C 6C 7C 8C 9C 2D 3D 4D 5D 6D 7D 8D 9D"
    state = dealt(6, {1: "5S 3D", 2: hand}, ruleset=EVEN_FOLLOWING)
    state, _ = play(state, "5S")
    assert state.legal_plays() == cards("QS")


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_forbidden_even_following_bans_discards_as_forbidden_does() -> None:
    state = dealt(6, {1: "2C", 2: "QS 2H 3D"}, voids={2: "C"}, ruleset=EVEN_FOLLOWING)
    state, _ = play(state, "2C")
    assert card("QS") not in state.legal_plays() and card("2H") not in state.legal_plays()
    assert card("3D") in state.legal_plays()


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_first_trick_points_allowed_is_the_default() -> None:
    assert Ruleset().first_trick_points is FirstTrickPoints.ALLOWED
    state = dealt(6, {1: "2C", 2: "QS 3D"}, voids={2: "C"})
    state, _ = play(state, "2C QS")
    assert state.trick == cards("2C QS")


# --- hearts_broken_by --------------------------------------------------------------------

Scenario = tuple[dict[int, str], dict[int, str], str]  # hands, voids, trick 1
QS_DISCARD: Scenario = ({1: "2C", 2: "3C", 3: "AC 2H 4D", 4: "4C", 5: "5C", 0: "QS"},
                        {0: "C"}, "2C 3C AC 4C 5C QS")
HEART_DISCARD: Scenario = ({1: "2C", 2: "3C", 3: "AC 2H 4D", 4: "4C", 5: "5C", 0: "9H"},
                           {0: "C"}, "2C 3C AC 4C 5C 9H")
HEART_LEAD: Scenario = ({1: ALL_HEARTS + " 2H 3H 4H 5H", 2: "6H", 3: "7H", 4: "8H", 5: "9H",
                         0: "10H"}, {}, "AH 6H 7H 8H 9H 10H")


@pytest.mark.rule("HEARTS.BROKEN")
@pytest.mark.parametrize(("value", "trick", "broken"), [
    (HeartsBrokenBy.HEART_OR_QUEEN, QS_DISCARD, True),
    (HeartsBrokenBy.HEART_OR_QUEEN, HEART_DISCARD, True),
    (HeartsBrokenBy.HEART_OR_QUEEN, HEART_LEAD, True),
    (HeartsBrokenBy.HEART, QS_DISCARD, False),
    (HeartsBrokenBy.HEART, HEART_DISCARD, True),
    (HeartsBrokenBy.HEART, HEART_LEAD, True),
    (HeartsBrokenBy.HEART_DISCARD, QS_DISCARD, False),
    (HeartsBrokenBy.HEART_DISCARD, HEART_DISCARD, True),
    (HeartsBrokenBy.HEART_DISCARD, HEART_LEAD, False),
])
def test_hearts_broken_by(value: HeartsBrokenBy, trick: Scenario, broken: bool) -> None:
    hands, voids, played = trick
    state = dealt(6, hands, voids=voids, ruleset=no_pass(hearts_broken_by=value))
    state, _ = play(state, played)
    assert state.hearts_broken is broken


@pytest.mark.rule("LEAD.HEARTS", "HEARTS.BROKEN")
@pytest.mark.parametrize("value", [HeartsBrokenBy.HEART, HeartsBrokenBy.HEART_DISCARD])
def test_a_queen_discard_that_does_not_break_hearts_keeps_hearts_from_being_led(
        value: HeartsBrokenBy) -> None:
    hands, voids, played = QS_DISCARD
    state = dealt(6, hands, voids=voids, ruleset=no_pass(hearts_broken_by=value))
    state, _ = play(state, played)
    assert state.to_act == 3
    assert_illegal(state, Play(3, card("2H")), "LEAD.HEARTS")


@pytest.mark.rule("LEAD.HEARTS", "LEAD.OPENING_CARD")
def test_hearts_broken_by_not_needed_lets_a_heart_be_led_at_once() -> None:
    rs = no_pass(hearts_broken_by=HeartsBrokenBy.NOT_NEEDED)
    state = dealt(6, {1: "2C 2H", 2: "3C", 3: "AC 2H 4D", 4: "4C", 5: "5C", 0: "6C"}, ruleset=rs)
    assert_illegal(state, Play(1, card("2H")), "LEAD.OPENING_CARD")  # still not on the opening
    state, _ = play(state, "2C 3C AC 4C 5C 6C")
    assert card("2H") in state.legal_plays()
    state, _ = play(state, "2H")
    assert state.trick == cards("2H")


# --- last_trick_void ---------------------------------------------------------------------

PILE = cards("9D 9D 4D 4D 8S 8S 6D 6D QC 5H KC QC 2H KC 2D 7H")


@pytest.mark.rule("VOID.LAST")
def test_last_trick_void_nobody() -> None:
    state, events = eight_player_deal(VOID_END,
                                      ruleset=no_pass(last_trick_void=LastTrickVoid.NOBODY))
    assert PendingSettled((), PILE) in events
    assert state.deal_results[-1].card_points == (49, 0, 0, 0, 0, 0, 0, 0)


@pytest.mark.rule("VOID.LAST", "MOON.CONDITION")
def test_last_trick_void_leader_takes_the_pile() -> None:
    # Seat 0 led the void last trick; with the pile it holds every heart and both Q♠.
    state, events = eight_player_deal(VOID_END,
                                      ruleset=no_pass(last_trick_void=LastTrickVoid.LEADER))
    assert PendingSettled(((0, PILE),), ()) in events
    assert state.uncollected == ()
    assert state.current_points() == (52, 0, 0, 0, 0, 0, 0, 0)
    assert state.phase is Phase.MOON_CHOICE
    assert state.moon_shooter == 0


@pytest.mark.rule("VOID.LAST")
def test_last_trick_void_split_highest_pair_alternates_in_pile_order() -> None:
    # Trick 13 is QC(0) 5H(1) KC(2) QC(3) 2H(4) KC(5) 2D(6) 7H(7): the highest cancelled
    # clubs pair is K♣, played first by seat 2, then by seat 5.
    rs = no_pass(last_trick_void=LastTrickVoid.SPLIT_HIGHEST_PAIR)
    state, events = eight_player_deal(VOID_END, ruleset=rs)
    first = cards("9D 4D 8S 6D QC KC 2H 2D")
    second = cards("9D 4D 8S 6D 5H QC KC 7H")
    assert PILE[0::2] == first and PILE[1::2] == second
    assert PendingSettled(((2, first), (5, second)), ()) in events
    result = state.deal_results[-1]
    assert result.card_points == (49, 0, 1, 0, 0, 2, 0, 0)
    assert result.uncollected == ()


# --- moon --------------------------------------------------------------------------------


@pytest.mark.rule("MOON.CHOICE")
@pytest.mark.parametrize(("value", "others"), [(Moon.OTHERS_52, 52), (Moon.OTHERS_104, 104)])
def test_moon_others_scores_without_a_choice(value: Moon, others: int) -> None:
    state, events = eight_player_deal(MOON_END, ruleset=no_pass(moon=value))
    scores = (0,) + (others,) * 7
    assert MoonChosen(0, None) in events
    assert DealScored(1, (52, 0, 0, 0, 0, 0, 0, 0), scores, scores) in events
    assert state.phase is Phase.DEALING
    assert state.deal_results[-1].moon_choice is None


@pytest.mark.rule("MOON.CHOICE")
def test_moon_choice_26_offers_both_options() -> None:
    state, _ = eight_player_deal(MOON_END, ruleset=no_pass(moon=Moon.CHOICE_26))
    assert state.legal_actions() == (ChooseMoon(0, MoonChoice.SUBTRACT),
                                     ChooseMoon(0, MoonChoice.ADD))


# --- ten_of_diamonds_points --------------------------------------------------------------


@pytest.mark.rule("SCORE.CARD_POINTS")
@pytest.mark.parametrize(("value", "collected", "points"), [
    (0, "10D", 0),
    (-10, "10D", -10),
    (-10, "10D 10D QS 2H", -6),
    (5, "10D 9D JD", 5),
])
def test_ten_of_diamonds_points(value: int, collected: str, points: int) -> None:
    assert card_points(cards(collected), Ruleset(ten_of_diamonds_points=value)) == points


@pytest.mark.rule("SCORE.CARD_POINTS", "SCORE.DEAL")
def test_ten_of_diamonds_points_in_a_deal() -> None:
    state, _ = eight_player_deal(SHARED_END, ruleset=no_pass(ten_of_diamonds_points=-10))
    assert state.deal_results[-1].scores == (27, 0, 0, 5, 0, 0, 0, 0)


@pytest.mark.rule("SCORE.CARD_POINTS", "MOON.CHOICE")
@pytest.mark.parametrize(("moon", "choice", "scores"), [
    (Moon.CHOICE_26, MoonChoice.SUBTRACT, (-46, 0, 0, 0, 0, 0, 0, 0)),
    (Moon.CHOICE_26, MoonChoice.ADD, (-20, 26, 26, 26, 26, 26, 26, 26)),
    (Moon.OTHERS_52, None, (-20, 52, 52, 52, 52, 52, 52, 52)),
])
def test_ten_of_diamonds_points_still_count_after_a_moon(
        moon: Moon, choice: MoonChoice | None, scores: tuple[int, ...]) -> None:
    rs = no_pass(moon=moon, ten_of_diamonds_points=-10)
    state, _ = eight_player_deal(MOON_END, ruleset=rs)
    if choice is not None:
        state, _ = state.apply(ChooseMoon(0, choice))
    assert state.deal_results[-1].scores == scores


# --- target ------------------------------------------------------------------------------


@pytest.mark.rule("GAME.END")
@pytest.mark.parametrize(("target", "phase"), [(100, Phase.GAME_OVER), (150, Phase.DEALING),
                                               (101, Phase.DEALING)])
def test_target(target: int, phase: Phase) -> None:
    state, _ = eight_player_deal(SHARED_END, ruleset=no_pass(target=target),
                                 totals=(53, 0, 0, 0, 0, 0, 0, 0))
    assert state.totals[0] == 100
    assert state.phase is phase


@pytest.mark.rule("GAME.END")
@pytest.mark.parametrize("target", [0, -150])
def test_a_target_that_is_not_positive_is_rejected(target: int) -> None:
    with pytest.raises(InputError):
        Ruleset(target=target)


# --- presets -----------------------------------------------------------------------------

PRESETS = [
    pytest.param("spruce", Ruleset(), marks=pytest.mark.rule("PASS.DIRECTION")),
    pytest.param("wikipedia", Ruleset(opening_lead=OpeningLead.TWO_OF_CLUBS,
                                      last_trick_void=LastTrickVoid.LEADER),
                 marks=pytest.mark.rule("VOID.LAST", "LEAD.OPENING_LEADER")),
    pytest.param("bicycle", Ruleset(pass_cycle=(H,)), marks=pytest.mark.rule("PASS.DIRECTION")),
    pytest.param("hubpages", Ruleset(pass_cycle=(R,),
                                     opening_lead=OpeningLead.LEFT_OF_DEALER_NO_SCORING,
                                     ten_of_diamonds_points=-10, target=100),
                 marks=pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_CARD",
                                        "SCORE.CARD_POINTS", "GAME.END")),
    pytest.param("boardgamegeek", Ruleset(pass_count=2, pass_cycle=(L,), moon=Moon.OTHERS_52),
                 marks=pytest.mark.rule("PASS.CARDS", "PASS.DIRECTION", "MOON.CHOICE")),
    pytest.param("lovecardgames", Ruleset(pass_cycle=(L, R, A),
                                          opening_lead=OpeningLead.TWO_OF_CLUBS),
                 marks=pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER")),
    pytest.param("toycrossing", Ruleset(pass_cycle=(H,)),
                 marks=pytest.mark.rule("PASS.DIRECTION", "FOLLOW.FIRST_TRICK")),
    pytest.param("mensa", Ruleset(hearts_broken_by=HeartsBrokenBy.NOT_NEEDED),
                 marks=pytest.mark.rule("LEAD.HEARTS")),
    pytest.param("hearts-template", Ruleset(pass_cycle=(L, R, A, H),
                                            opening_lead=OpeningLead.TWO_OF_CLUBS,
                                            first_trick_points=FirstTrickPoints.FORBIDDEN),
                 marks=pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER",
                                        "FOLLOW.FIRST_TRICK")),
    pytest.param("allanh", Ruleset.from_dict({
        "pass_cycle": ["left", "right", "left-2", "right-2", "left-3", "right-3", "across",
                       "hold"],
        "pass_forbidden": "two-of-clubs", "opening_lead": "two-of-clubs",
        "first_trick_points": "forbidden-even-following", "first_trick_two_of_clubs": "must-play",
        "hearts_broken_by": "heart-not-led", "moon": "others-104", "moon_pair": "others-26",
        "target": 100}),
                 marks=pytest.mark.rule("PASS.DIRECTION", "PASS.CARDS", "FOLLOW.FIRST_TRICK",
                                        "HEARTS.BROKEN", "MOON.CONDITION", "MOON.CHOICE",
                                        "GAME.END")),
]


@pytest.mark.parametrize(("name", "expected"), PRESETS)
def test_preset(name: str, expected: Ruleset) -> None:
    assert preset(name) == expected
    assert presets()[name] == expected


def test_the_presets_in_order() -> None:
    assert list(presets()) == ["spruce", "wikipedia", "bicycle", "hubpages", "boardgamegeek",
                               "lovecardgames", "toycrossing", "mensa", "hearts-template",
                               "allanh", "crcowan"]


def test_an_unknown_preset_is_rejected() -> None:
    with pytest.raises(InputError) as info:
        preset("rummy")
    assert "unknown preset 'rummy'" in str(info.value)
