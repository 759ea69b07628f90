"""Tests written for mutants the rest of the suite let survive (docs/reports/mutation.md).

Each test pins the exact result of a function that the rule tables and
properties did not call or did not check closely enough; the mutant it kills
is named in ``tools/mutation/explanations.toml``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref.actions import DealCards, Play
from rules_ref.cards import (
    Suit,
    full_deck,
    is_black_maria,
    is_heart,
    outranks,
    parse_card,
    parse_cards,
)
from rules_ref.deal import (
    MASK64,
    check_deal,
    draw_below,
    seeded_deal,
    splitmix64_step,
)
from rules_ref.errors import CardNotationError, SetupError, Violation
from rules_ref.following import may_discard_on_first_trick, may_follow_with
from rules_ref.leading import may_lead, may_open_with
from rules_ref.positions.convert import position_of, state_from_position
from rules_ref.ruleset import FirstTrickPoints, Ruleset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.view import seat_view

from .helpers import NO_PASS, dealt, play, scripted_deal


@pytest.mark.rule("DECK.CARDS")
def test_hearts_and_the_black_maria_are_told_apart_from_other_cards() -> None:
    assert [is_heart(parse_card(t)) for t in ("2H", "AH", "2S", "QS")] == [True, True, False,
                                                                            False]
    assert [is_black_maria(parse_card(t)) for t in ("QS", "QH", "KS", "2C")] == [True, False,
                                                                                  False, False]


@pytest.mark.rule("DECK.CARDS")
def test_a_card_for_people_shows_its_suit_symbol() -> None:
    assert [parse_card(t).pretty for t in ("QS", "10H", "2C", "AD")] == ["Q♠", "10♥", "2♣", "A♦"]


@pytest.mark.rule("LEAD.OPENING_CARD")
def test_may_open_with_answers_for_one_card() -> None:
    hand = parse_cards("QS 2C 5H")
    assert [may_open_with(parse_card(t), hand, Ruleset()) for t in ("2C", "QS", "5H")] == [
        True, False, False]
    assert may_open_with(parse_card("QS"), parse_cards("QS 2H"), Ruleset()) is True


@pytest.mark.rule("LEAD.HEARTS")
def test_may_lead_answers_for_one_card() -> None:
    hand = parse_cards("2H QS")  # unsorted on purpose: may_lead sorts
    assert [may_lead(parse_card(t), hand, False, Ruleset()) for t in ("QS", "2H")] == [True,
                                                                                        False]
    assert may_lead(parse_card("2H"), hand, True, Ruleset()) is True


@pytest.mark.rule("FOLLOW.SUIT")
def test_may_follow_with_answers_for_one_card() -> None:
    assert may_follow_with(parse_card("QS"), parse_cards("QS 3C"), Suit.C) is False
    assert may_follow_with(parse_card("3C"), parse_cards("QS 3C"), Suit.C) is True
    assert may_follow_with(parse_card("QS"), parse_cards("QS 3D"), Suit.C) is True


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_may_discard_on_first_trick_answers_for_one_card() -> None:
    strict = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN)
    hand = parse_cards("QS 3D")
    assert [may_discard_on_first_trick(parse_card(t), hand, Suit.C, 1, strict)
            for t in ("QS", "3D")] == [False, True]
    assert may_discard_on_first_trick(parse_card("QS"), hand, Suit.C, 2, strict) is True
    assert may_discard_on_first_trick(parse_card("QS"), hand, Suit.C, 1, Ruleset()) is True


def test_a_state_as_text_shows_every_hand_and_the_trick_while_cards_are_in_play() -> None:
    # Not a rule: the text a person debugging a game reads (str(state)).
    state = GameState.start(6)
    assert str(state) == "6 players, deal 0, dealer 0, phase dealing, totals [0, 0, 0, 0, 0, 0]"
    deal = seeded_deal(seed=1, players=6, deal_number=1, dealer=0)
    state, _ = state.apply(DealCards(deal.hands, deal.extras))
    assert str(state).splitlines() == [
        "6 players, deal 1, dealer 0, phase passing, totals [0, 0, 0, 0, 0, 0]",
        "  seat 0: 2C 4C 6C 7C 7C 3D 6D 9D 9D 6H 6H 7H KH 4S 7S 8S 9S",
        "  seat 1: 4C 8C 9C QC KC 5D 7D 10D JD 4H 9H QH KH 2S 8S 9S QS",
        "  seat 2: 5C 10C QC KC 2D 5D 7D 8D QD KD 4H 7H 8H AH 7S 10S AS",
        "  seat 3: 2C AC 3D 10D JD KD 2H 8H 9H AH 5S 6S JS JS QS KS AS",
        "  seat 4: 3C 5C 6C 8C 9C JC 2D 4D 8D AD AD 5H 5H JH JH 4S 5S",
        "  seat 5: 3C 10C JC AC 4D 6D QD 2H 3H 10H 10H QH 2S 3S 3S 6S KS",
        "  trick 0 led by 1: -; pending 0",
    ]


@pytest.mark.rule("DEAL.SOURCE")
def test_a_draw_in_the_rejection_region_is_drawn_again() -> None:
    # This state's next output is 2**64 - 1; 2**64 mod 104 = 16, so every output from
    # 2**64 - 16 up is rejected (spec/deal.md) and the second output decides: 97.
    state = 3558559446808474027
    after_one, first = splitmix64_step(state)
    assert first == MASK64
    after_two, second = splitmix64_step(after_one)
    assert (second % 104, after_two) == (97, 7913245011745319381)
    assert draw_below(state, 104) == (7913245011745319381, 97)


@pytest.mark.rule("DECK.CARDS")
def test_a_long_non_text_card_is_shown_cut_to_twenty_characters() -> None:
    shown = []
    for value in (12345678901234567890, 123456789012345678901):  # 20 and 21 characters
        with pytest.raises(CardNotationError) as caught:
            parse_card(value)  # type: ignore[arg-type]
        shown.append(str(caught.value))
    assert shown == ["12345678901234567890 is not a card: expected text such as 'QS' or '10H'",
                     "12345678901234567890… is not a card: expected text such as 'QS' or '10H'"]


@pytest.mark.rule("TURN.ORDER")
def test_nobody_has_a_legal_play_outside_the_playing_phase() -> None:
    state = GameState.start(6)
    assert state.legal_plays() == ()
    deal = seeded_deal(seed=1, players=6, deal_number=1, dealer=0)
    state, _ = state.apply(DealCards(deal.hands, deal.extras))
    assert state.phase == "passing"
    assert state.legal_plays() == ()
    assert state.legal_plays(1) == ()


@pytest.mark.rule("DEAL.DEALER")
@pytest.mark.parametrize(("next_deal", "shown"), [(0, "0"), (-3, "-3"), ("2", "'2'")])
def test_a_game_cannot_start_before_deal_one(next_deal: object, shown: str) -> None:
    with pytest.raises(SetupError) as caught:
        GameState.start(6, next_deal=next_deal)  # type: ignore[arg-type]
    assert (caught.value.rule_id, str(caught.value)) == (
        "DEAL.DEALER", f"DEAL.DEALER: deal number must be 1 or more, got {shown}")


@pytest.mark.rule("PLAYERS.COUNT")
@pytest.mark.parametrize("totals", [(0,) * 5, (0,) * 7, (0, 0, 0, 0, 0, "x"),
                                    (0, 0, 0, 0, 0, True)])
def test_a_game_part_way_needs_one_integer_total_per_player(totals: tuple[object, ...]) -> None:
    with pytest.raises(SetupError) as caught:
        GameState.start(6, totals=totals)  # type: ignore[arg-type]
    assert str(caught.value) == "totals must be 6 integers"


@pytest.mark.rule("DECK.CARDS")
def test_long_card_text_is_shown_cut_to_twenty_characters() -> None:
    shown = []
    for text in ("A" * 20, "A" * 21):
        with pytest.raises(CardNotationError) as caught:
            parse_card(text)
        shown.append(str(caught.value))
    assert shown == [f"'{'A' * 20}' is not a card: longer than 8 characters",
                     f"'{'A' * 20}…' is not a card: longer than 8 characters"]


@pytest.mark.rule("DECK.CARDS")
def test_eight_characters_of_text_are_read_as_a_card_and_nine_are_too_long() -> None:
    shown = []
    for text in ("ABCDEFGH", "ABCDEFGHI"):
        with pytest.raises(CardNotationError) as caught:
            parse_card(text)
        shown.append(str(caught.value))
    assert shown == ["'ABCDEFGH' is not a card: rank 'ABCDEFG' is not one of 2-10, J, Q, K, A "
                     "(or T)", "'ABCDEFGHI' is not a card: longer than 8 characters"]


@pytest.mark.rule("DECK.CARDS")
def test_a_deal_with_many_wrong_counts_shows_the_first_eight() -> None:
    two = parse_card("2C")
    with pytest.raises(SetupError) as caught:
        check_deal([[two] * 17] * 6, [two] * 2, 6)
    assert (caught.value.rule_id, str(caught.value)) == (
        "DECK.CARDS", "DECK.CARDS: bad deal: the deal must hold every card exactly twice; wrong "
        "counts: 2C x104, 3C x0, 4C x0, 5C x0, 6C x0, 7C x0, 8C x0, 9C x0 …")


@pytest.mark.rule("DECK.RANKING")
def test_a_card_does_not_outrank_its_own_copy() -> None:
    assert [outranks(parse_card(a), parse_card(b)) for a, b in
            (("AH", "AH"), ("2C", "2C"), ("AH", "KH"))] == [False, False, True]


class _Unshowable:
    def __repr__(self) -> str:
        raise ValueError("no text")


@pytest.mark.rule("DECK.CARDS")
def test_a_non_text_card_that_cannot_be_shown_is_named_by_its_type() -> None:
    with pytest.raises(CardNotationError) as caught:
        parse_card(_Unshowable())  # type: ignore[arg-type]
    assert str(caught.value) == ("<_Unshowable> is not a card: expected text such as 'QS' or "
                                 "'10H'")


@pytest.mark.rule("DECK.CARDS")
@pytest.mark.parametrize("text", ["", "   "])
def test_empty_text_is_not_a_card(text: str) -> None:
    with pytest.raises(CardNotationError) as caught:
        parse_card(text)
    assert str(caught.value) == "empty text is not a card: expected text such as 'QS' or '10H'"


@pytest.mark.rule("DECK.CARDS")
def test_a_good_rank_with_an_unknown_suit_is_refused_naming_the_suit() -> None:
    with pytest.raises(CardNotationError) as caught:
        parse_card("QX")
    assert str(caught.value) == ("'QX' is not a card: suit 'X' is not one of C, D, H, S "
                                 "(or ♣♦♥♠)")


def _refused_deck(taken: str, added: str) -> str:
    """The message for an 8-player deal whose deck lost ``taken`` and gained ``added``."""
    deck = list(full_deck())
    for c in parse_cards(taken):
        deck.remove(c)
    deck.extend(parse_cards(added))
    with pytest.raises(SetupError) as caught:
        check_deal([deck[i * 13:i * 13 + 13] for i in range(8)], [], 8)
    assert caught.value.rule_id == "DECK.CARDS"
    return str(caught.value)


@pytest.mark.rule("DECK.CARDS")
def test_eight_wrong_counts_are_all_shown_and_a_ninth_is_left_to_an_ellipsis() -> None:
    head = "DECK.CARDS: bad deal: the deal must hold every card exactly twice; wrong counts: "
    assert [_refused_deck("2C 3C 4C 5C", "2D 3D 4D 5D"),
            _refused_deck("2C 3C 4C 5C 6C", "2D 3D 4D 5D 2D")] == [
        head + "2C x1, 3C x1, 4C x1, 5C x1, 2D x3, 3D x3, 4D x3, 5D x3",
        head + "2C x1, 3C x1, 4C x1, 5C x1, 6C x1, 2D x4, 3D x3, 4D x3 …"]


@pytest.mark.rule("DEAL.SOURCE")
def test_draws_up_to_the_limit_are_kept_and_from_the_limit_up_are_drawn_again() -> None:
    # Generator states (found by inverting SplitMix64) whose next output is 2**64 - k. For
    # m = 104 the limit is 2**64 - 16 (2**64 mod 104 = 16): outputs below it are kept (x mod
    # 104), outputs from it up are rejected and the next output decides (spec/deal.md).
    states = {20: 5977129990079584137, 17: 8612849474949488056, 16: 9221024062816390653,
              10: 15682122605645459958}
    assert {k: splitmix64_step(s)[1] for k, s in states.items()} == {
        k: (1 << 64) - k for k in states}
    assert {k: draw_below(s, 104) for k, s in states.items()} == {
        20: (17377844809402782622, 100),  # kept: (2**64 - 20) mod 104
        17: (1566820220563134925, 103),  # kept: the last output below the limit
        16: (13575709627753236007, 88),  # the limit itself: drawn again
        10: (1590064096872753696, 50),  # drawn again
    }


@pytest.mark.rule("PLAYERS.COUNT")
def test_a_game_needs_a_ruleset() -> None:
    with pytest.raises(SetupError) as caught:
        GameState.start(6, ruleset="default")  # type: ignore[arg-type]
    assert str(caught.value) == "ruleset must be a Ruleset"


def test_a_state_copied_with_a_game_field_changes_it() -> None:
    # Not a rule: GameState._with, the copy used to set up positions and tests.
    state = GameState.start(6)._with(totals=(1, 2, 3, 4, 5, 6), trick_number=3)
    assert (state.totals, state.trick_number, state.initial_totals) == (
        (1, 2, 3, 4, 5, 6), 3, (0, 0, 0, 0, 0, 0))


def _passing(passed: tuple[int, ...] = ()) -> GameState:
    """Seeded deal 1 of a 6-player game (dealer 0, passes go one seat left), some seats passed."""
    state = GameState.start(6)
    deal = seeded_deal(seed=1, players=6, deal_number=1, dealer=0)
    state, _ = state.apply(DealCards(deal.hands, deal.extras))
    for seat in passed:
        state, _ = state.apply(state.legal_actions(seat)[0])
    return state


@pytest.mark.rule("PASS.EXCHANGE")
def test_seats_pass_in_turn_from_the_dealers_left_and_a_seat_that_passed_is_done() -> None:
    before = _passing()
    after = _passing((2,))
    assert (before.waiting_for, before.to_act) == ((1, 2, 3, 4, 5, 0), 1)
    assert (after.waiting_for, after.to_act) == ((1, 3, 4, 5, 0), 1)
    # Seat 3 holds 16 different cards and a second JS: C(16, 3) + 15 passes of 3.
    assert (after.legal_actions(2), len(after.legal_actions(3))) == ((), 575)


@pytest.mark.rule("VIEW.SEAT")
def test_while_passing_a_seat_sees_who_passed_and_where_its_own_pass_goes() -> None:
    state = _passing((2,))
    views = [seat_view(state, seat) for seat in (2, 3)]
    assert [(v.passed_to, v.passed_seats) for v in views] == [(3, (2,)), (None, (2,))]


@pytest.mark.rule("VIEW.SEAT", "EXTRAS.FIRST_TRICK", "VOID.TRICK")
def test_a_second_void_trick_shows_all_its_cards_after_the_hidden_extras() -> None:
    # Two void tricks wait: the first one's cards, the extras (face down), the second's.
    hands = {1: "5C 4D", 2: "5C 4D", 4: "9C 7D", 5: "3C 8D", 0: "3C 8D"}
    a = dealt(6, {**hands, 3: "9C AS KD 2D 7D"}, extras="2H 3H")
    b = dealt(6, {**hands, 3: "9C 2H 3H 2D 7D"}, extras="AS KD")
    a, _ = play(a, "5C 5C 9C 9C 3C 3C 4D 4D 7D 7D 8D 8D")
    b, _ = play(b, "5C 5C 9C 9C 3C 3C 4D 4D 7D 7D 8D 8D")
    view = seat_view(a, 0)
    assert view == seat_view(b, 0)
    assert view.pending_hidden == 2
    assert view.pending_cards_seen == parse_cards("5C 5C 9C 9C 3C 3C 4D 4D 7D 7D 8D 8D")
    assert [t.winner for t in view.tricks] == [None, None]


@pytest.mark.rule("FOLLOW.SUIT")
def test_a_play_that_does_not_follow_names_the_led_suit_not_the_last_card_played() -> None:
    state = dealt(6, hands={1: "2C", 2: "3D", 3: "5C 4D"}, voids={2: "C"})
    state, _ = play(state, "2C 3D")
    assert state.violations(Play(3, parse_card("4D"))) == (
        Violation("FOLLOW.SUIT", "4D does not follow C and the hand holds C"),)


@pytest.mark.rule("TURN.ORDER")
def test_something_that_is_not_an_action_is_refused_as_such() -> None:
    state = GameState.start(6)
    assert state.violations("nonsense") == (
        Violation("TURN.ORDER", "'nonsense' is not an action"),)


# Trick 1 is void (every club cancels; the extras wait in the pending pile), seat 4 wins
# trick 2 and takes the pile, seat 5 wins trick 3; seat 5 wins the filler tricks after.
_VOID_THEN_TWO_WINNERS = scripted_deal(6, 5, head=[(1, "5C 5C 9C 9C 3C 3C"),
                                                   (1, "2D 3D 4D KD 5D 6D"),
                                                   (4, "2S AS 3S 4S 5S 6S")], extras="7H 8H")


def _void_then_two_winners(plays: int) -> GameState:
    state = GameState.start(6, NO_PASS)
    state, _ = state.apply(_VOID_THEN_TWO_WINNERS.deal)
    state, _ = play(state, _VOID_THEN_TWO_WINNERS.plays[:plays])
    return state


@pytest.mark.rule("VIEW.SEAT")
def test_a_void_trick_is_shown_collected_by_the_next_winner_not_a_later_one() -> None:
    state = _void_then_two_winners(18)
    assert [t.collected_by for t in seat_view(state, 0).tricks] == [(4,), (4,), (5,)]


@pytest.mark.rule("EXTRAS.FIRST_TRICK")
@pytest.mark.parametrize(("plays", "trick_number", "places"), [
    (6, 2, {"hand": 96, "pending": 8}),  # the void trick 1 and the extras wait
    (18, 4, {"hand": 84, "collected": 20}),  # seat 4 took them with trick 2
])
def test_a_state_from_a_position_past_the_first_trick_lists_each_card_once(
        plays: int, trick_number: int, places: dict[str, int]) -> None:
    # The state starts at the position, so it has no tricks; its extras are still recorded
    # (for the views) but lie in the pending pile or a collected pile, and are listed there.
    state = state_from_position(position_of(_void_then_two_winners(plays)), NO_PASS)
    assert (state.trick_number, state.tricks, state.extras) == (
        trick_number, (), parse_cards("7H 8H"))
    assert Counter(place.split()[0] for place, _ in state.card_places()) == places


@pytest.mark.rule("VIEW.SEAT")
def test_between_deals_a_seat_sees_the_extras_and_scores_of_the_last_deal() -> None:
    state = GameState.start(6, NO_PASS)
    for number in (1, 2):
        deal = seeded_deal(seed=5, players=6, deal_number=number,
                           dealer=state.dealer_of_next_deal)
        state, _ = state.apply(DealCards(deal.hands, deal.extras))
        while state.phase is Phase.PLAYING or state.phase is Phase.MOON_CHOICE:
            state, _ = state.apply(state.legal_actions()[0])
    view = seat_view(state, 0)
    assert (state.phase, [r.extras for r in state.deal_results]) == (
        Phase.DEALING, [parse_cards("AH 5H"), parse_cards("KS 6D")])
    assert (view.extras, view.last_deal) == (parse_cards("KS 6D"), state.deal_results[1])
