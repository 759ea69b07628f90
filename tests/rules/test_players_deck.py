"""Players and deck: PLAYERS.COUNT, DECK.CARDS, DECK.RANKING."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref import DealCards, GameState
from rules_ref.cards import CARDS, RANKS, Suit, full_deck, outranks
from rules_ref.deal import seeded_deal
from rules_ref.tricks import resolve_trick

from .helpers import card, cards, dealt, fill_deal, play, refusal, snapshot


@pytest.mark.rule("PLAYERS.COUNT")
@pytest.mark.parametrize("players", [6, 7, 8, 9, 10, 11])
def test_six_to_eleven_players_start_a_game(players: int) -> None:
    state = GameState.start(players)
    assert state.players == players
    assert state.totals == (0,) * players


@pytest.mark.rule("PLAYERS.COUNT")
@pytest.mark.parametrize("players", [-6, 0, 1, 4, 5, 12, 13, 104])
def test_any_other_player_count_is_rejected(players: int) -> None:
    message = refusal("PLAYERS.COUNT", lambda: GameState.start(players))
    assert message.startswith("PLAYERS.COUNT: ")


@pytest.mark.rule("PLAYERS.COUNT")
@pytest.mark.parametrize("players", [True, 8.0, "8", None])
def test_a_player_count_that_is_not_an_integer_is_rejected(players: object) -> None:
    refusal("PLAYERS.COUNT", lambda: GameState.start(players))  # type: ignore[arg-type]


@pytest.mark.rule("PLAYERS.COUNT")
@pytest.mark.parametrize("players", [4, 12])
def test_a_seeded_deal_for_a_wrong_count_is_rejected(players: int) -> None:
    refusal("PLAYERS.COUNT",
            lambda: seeded_deal(seed=1, players=players, deal_number=1, dealer=0))


@pytest.mark.rule("DECK.CARDS")
def test_the_deck_is_two_copies_of_each_of_the_52_cards() -> None:
    deck = full_deck()
    assert len(deck) == 104
    assert len(CARDS) == 52
    assert Counter(deck) == Counter({c: 2 for c in CARDS})
    assert {(c.rank, c.suit) for c in CARDS} == {(r, s) for r in RANKS for s in Suit}


def _with_one_card_replaced(deal: DealCards, seat: int, old: str, new: str) -> DealCards:
    hand = list(deal.hands[seat])
    hand[hand.index(card(old))] = card(new)
    hands = tuple(tuple(sorted(hand)) if s == seat else h for s, h in enumerate(deal.hands))
    return DealCards(hands, deal.extras)


@pytest.mark.rule("DECK.CARDS", "DEAL.SOURCE")
def test_a_deal_that_does_not_make_up_the_deck_is_rejected_and_changes_nothing() -> None:
    good = fill_deal(6, {0: "2C 3C"})
    bad = _with_one_card_replaced(good, 0, "3C", "2C")  # 2C three times, 3C once
    state = GameState.start(6)
    before = snapshot(state)
    message = refusal("DECK.CARDS", lambda: state.apply(bad))
    assert "2C x3" in message
    assert "3C x1" in message
    assert snapshot(state) == before


@pytest.mark.rule("DECK.CARDS")
def test_a_card_missing_from_the_deal_is_rejected() -> None:
    good = fill_deal(8, {0: "AS"})
    bad = _with_one_card_replaced(good, 0, "AS", "KS")  # AS once, KS three times
    message = refusal("DECK.CARDS", lambda: GameState.start(8).apply(bad))
    assert "AS x1" in message


@pytest.mark.rule("DECK.CARDS")
def test_a_play_names_a_card_not_a_copy() -> None:
    # Seat 1, left of dealer 0, makes the opening lead holding both copies of 4C.
    state = dealt(6, {1: "4C 4C"})
    assert state.hands[1].count(card("4C")) == 2
    state, _ = play(state, "4C")
    assert state.hands[1].count(card("4C")) == 1
    assert state.trick == cards("4C")


@pytest.mark.rule("DECK.RANKING")
def test_ranks_order_from_ace_down_to_two() -> None:
    order = cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    for i, low in enumerate(order):
        for high in order[i + 1:]:
            assert outranks(high, low)
            assert not outranks(low, high)


@pytest.mark.rule("DECK.RANKING")
def test_cards_of_different_suits_never_outrank_each_other() -> None:
    assert not outranks(card("AS"), card("2H"))
    assert not outranks(card("2H"), card("AS"))


@pytest.mark.rule("DECK.RANKING", "TRICK.WINNER")
@pytest.mark.parametrize(("trick", "winner"), [
    ("JS QS 10S KS 9S 8S", 4),   # K beats Q, J, 10, 9, 8 (leader seat 1)
    ("JS QS 10S KS AS 8S", 5),   # A beats K
    ("10S 9S 8S 7S 6S JS", 0),   # J beats 10 (the sixth card is seat 0's)
    ("3S 2S 2C 2D 2H 2H", 1),    # only spades can win: 3S over 2S
])
def test_the_highest_rank_of_the_led_suit_wins_in_play(trick: str, winner: int) -> None:
    played = cards(trick)  # in play order from seat 1, the dealer's left
    hands = {(1 + i) % 6: played[i:i + 1] for i in range(6)}
    voids = {(1 + i) % 6: "S" for i in range(6) if played[i].suit != Suit.S}
    state = dealt(6, hands, "2D 3D", voids)
    state, _ = play(state, trick)
    assert state.tricks[-1].winner == winner


@pytest.mark.rule("DECK.RANKING")
def test_there_are_no_trumps() -> None:
    t = resolve_trick(cards("2C AS AH AD KS 3D"), leader=0, players=6)
    assert t.winner == 0
    assert t.winning_card == card("2C")
