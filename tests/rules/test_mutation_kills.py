"""Tests written for mutants the rest of the suite let survive (docs/reports/mutation.md).

Each test pins the exact result of a function that the rule tables and
properties did not call or did not check closely enough; the mutant it kills
is named in ``tools/mutation/explanations.toml``.
"""

from __future__ import annotations

import pytest

from rules_ref.actions import DealCards
from rules_ref.cards import Suit, is_black_maria, is_heart, parse_card, parse_cards
from rules_ref.deal import MASK64, check_deal, draw_below, seeded_deal, splitmix64_step
from rules_ref.errors import CardNotationError, SetupError
from rules_ref.following import may_discard_on_first_trick, may_follow_with
from rules_ref.leading import may_lead, may_open_with
from rules_ref.ruleset import FirstTrickPoints, Ruleset
from rules_ref.state import GameState


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
