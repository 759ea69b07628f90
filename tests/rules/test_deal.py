"""Dealing: DEAL.SIZE, DEAL.SOURCE, DEAL.DEALER."""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref import DealCards, GameState, seeded_deal
from rules_ref.cards import CARDS, Card, full_deck
from rules_ref.deal import dealer_for_deal, extras_count, hand_size, splitmix64
from rules_ref.events import DealStarted, TrickSetAside, TrickWon
from rules_ref.players.game import game_steps

from .helpers import NO_PASS, fill_deal, refusal, run_script, scripted_deal, snapshot

SIZES = {6: (17, 2), 7: (14, 6), 8: (13, 0), 9: (11, 5), 10: (10, 4), 11: (9, 5)}


@pytest.mark.rule("DEAL.SIZE")
@pytest.mark.parametrize("players", sorted(SIZES))
def test_hand_size_and_extras_by_player_count(players: int) -> None:
    assert (hand_size(players), extras_count(players)) == SIZES[players]


@pytest.mark.rule("DEAL.SIZE", "DEAL.SOURCE")
@pytest.mark.parametrize("players", sorted(SIZES))
def test_a_seeded_deal_has_equal_hands_and_the_extras(players: int) -> None:
    size, extras = SIZES[players]
    state = GameState.start(players)
    d = seeded_deal(seed=2024, players=players, deal_number=1, dealer=0)
    state, _ = state.apply(DealCards(d.hands, d.extras))
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.extras) == extras


@pytest.mark.rule("DEAL.SIZE")
def test_a_deal_has_as_many_tricks_as_a_hand_has_cards() -> None:
    script = scripted_deal(8, 0, tail=[(0, "2C 5H 6H AC 7H 8H 9H 2D")])
    _, events = run_script(script, first_dealer=7)
    tricks = [e for e in events if isinstance(e, TrickWon | TrickSetAside)]
    assert [e.trick_number for e in tricks] == list(range(1, 14))


@pytest.mark.rule("DEAL.SIZE", "DEAL.SOURCE")
def test_an_explicit_deal_with_a_wrong_hand_size_is_rejected() -> None:
    good = fill_deal(6)
    hands = (good.hands[0] + good.extras[:1], *good.hands[1:])  # 18 cards, 1 extra
    state = GameState.start(6)
    before = snapshot(state)
    message = refusal("DEAL.SIZE", lambda: state.apply(DealCards(hands, good.extras[1:])))
    assert "seat 0 holds 18 cards, not 17" in message
    assert "1 extras, not 2" in message
    assert snapshot(state) == before


@pytest.mark.rule("DEAL.SIZE", "DEAL.SOURCE")
def test_an_explicit_deal_with_a_wrong_number_of_hands_is_rejected() -> None:
    good = fill_deal(7)
    message = refusal("DEAL.SIZE", lambda: GameState.start(6).apply(good))
    assert "7 hands for 6 players" in message


@pytest.mark.rule("DEAL.SOURCE")
def test_an_explicit_deal_is_dealt_as_given() -> None:
    deal = fill_deal(7, {3: "QS QS AH"}, extras="2C 9D 2C KH 5S 9D")
    state, events = GameState.start(7, NO_PASS).apply(deal)
    assert state.hands == deal.hands
    assert state.extras == deal.extras  # the extras keep their order
    assert events == (DealStarted(1, 0, None),)


# An independent transcription of spec/deal.md, to check the engine against.
M64 = (1 << 64) - 1


def _spec_next(state: list[int]) -> int:
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & M64
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _spec_deal(seed: int, k: int, n: int, d: int) -> tuple[list[list[Card]], list[Card]]:
    state = [seed ^ ((k * 0xD1B54A32D192ED03) & M64)]
    deck = [p % 52 for p in range(104)]
    for i in range(103, 0, -1):
        m = i + 1
        limit = (1 << 64) - ((1 << 64) % m)
        while True:
            x = _spec_next(state)
            if x < limit:
                break
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
    h = 104 // n
    hands: list[list[Card]] = [[] for _ in range(n)]
    for r in range(h):
        for t in range(n):
            hands[(d + 1 + t) % n].append(CARDS[deck[r * n + t]])
    return [sorted(x) for x in hands], [CARDS[i] for i in deck[h * n:]]


@pytest.mark.rule("DEAL.SOURCE")
def test_splitmix64_self_check_values_of_the_spec() -> None:
    g = splitmix64(0)
    assert [next(g) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                           0x06C45D188009454F]
    g = splitmix64(1234567)
    assert [next(g) for _ in range(3)] == [6457827717110365317, 3203168211198807973,
                                           9817491932198370423]


@pytest.mark.rule("DEAL.SOURCE", "DEAL.SIZE")
@pytest.mark.parametrize(("seed", "k", "n", "dealer"), [
    (0, 1, 6, 0), (1, 1, 8, 0), (42, 3, 7, 2), (2**64 - 1, 2, 11, 10), (987654321, 12, 9, 4),
    (7, 1, 10, 9),
])
def test_the_seeded_deal_follows_spec_deal_md(seed: int, k: int, n: int, dealer: int) -> None:
    d = seeded_deal(seed=seed, players=n, deal_number=k, dealer=dealer)
    hands, extras = _spec_deal(seed, k, n, dealer)
    assert [list(h) for h in d.hands] == hands
    assert list(d.extras) == extras
    assert Counter(c for h in d.hands for c in h) + Counter(d.extras) == Counter(full_deck())


@pytest.mark.rule("DEAL.SOURCE")
@pytest.mark.parametrize("seed", [-1, 2**64, True, "1"])
def test_a_seed_out_of_range_is_rejected(seed: object) -> None:
    refusal("DEAL.SOURCE", lambda: seeded_deal(
        seed=seed, players=6, deal_number=1, dealer=0))  # type: ignore[arg-type]


@pytest.mark.rule("DEAL.DEALER")
def test_dealer_of_deal_k() -> None:
    assert [dealer_for_deal(0, k, 6) for k in range(1, 9)] == [0, 1, 2, 3, 4, 5, 0, 1]
    assert [dealer_for_deal(9, k, 11) for k in range(1, 5)] == [9, 10, 0, 1]


@pytest.mark.rule("DEAL.DEALER")
def test_the_deal_moves_one_seat_left_each_deal_over_a_whole_game() -> None:
    dealers = [e.dealer for _, _, _, events in game_steps(6, seed=5, first_dealer=4)
               for e in events if isinstance(e, DealStarted)]
    assert len(dealers) >= 3
    assert dealers == [(4 + i) % 6 for i in range(len(dealers))]


@pytest.mark.rule("DEAL.DEALER")
def test_the_dealer_rotates_between_scripted_deals() -> None:
    script = scripted_deal(8, 0, tail=[(0, "2C 5H 6H AC 7H 8H 9H 2D")])
    state, _ = run_script(script, first_dealer=7)
    assert state.dealer == 7
    assert state.dealer_of_next_deal == 0
    state, events = state.apply(fill_deal(8))
    assert events[0] == DealStarted(2, 0, None)
    assert (state.dealer, state.to_act) == (0, 1)


@pytest.mark.rule("DEAL.DEALER")
def test_the_first_dealer_defaults_to_seat_0() -> None:
    state, _ = GameState.start(9, NO_PASS).apply(fill_deal(9))
    assert state.dealer == 0


@pytest.mark.rule("DEAL.DEALER")
@pytest.mark.parametrize("first_dealer", [-1, 6, 7])
def test_a_first_dealer_that_is_not_a_seat_is_rejected(first_dealer: int) -> None:
    refusal("DEAL.DEALER", lambda: GameState.start(6, first_dealer=first_dealer))
