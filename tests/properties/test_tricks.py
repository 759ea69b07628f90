"""Trick resolution against the model, on generated tricks rich in identical cards.

Each trick is resolved by the engine twice: by ``resolve_trick`` alone, and
played as trick 1 of a real deal (through ``GameState.apply_unchecked``, so
that any trick can be played), where the winner must also take the extras,
or the trick and the extras must wait in the pending pile.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_ref.actions import DealCards, Play
from rules_ref.cards import Card, full_deck
from rules_ref.deal import hand_size
from rules_ref.ruleset import PassDirection, Ruleset
from rules_ref.state import GameState
from rules_ref.strategies import player_counts, trick_cards
from rules_ref.tricks import resolve_trick

from . import examples
from . import invariants as inv
from .model import trick_result

NO_PASSING = Ruleset(pass_cycle=(PassDirection.HOLD,))


@st.composite
def tricks(draw: st.DrawFn) -> tuple[int, int, tuple[Card, ...]]:
    players = draw(player_counts())
    return players, draw(st.integers(0, players - 1)), draw(trick_cards(players))


@pytest.mark.rule("TRICK.LED_SUIT", "TRICK.CANCEL", "TRICK.WINNER", "VOID.TRICK", "TURN.ORDER",
                  "DECK.RANKING")
@settings(max_examples=examples(1.0))
@given(trick=tricks())
def test_resolve_trick_matches_the_model(trick: tuple[int, int, tuple[Card, ...]]) -> None:
    players, leader, cards = trick
    outcome = resolve_trick(cards, leader, players)
    inv.trick_matches_model(cards, outcome.winner, outcome.cancelled, leader, players)
    pos, gone = trick_result(cards)
    assert outcome.cancelled == tuple(sorted(gone))
    assert outcome.led_suit == cards[0].suit
    assert outcome.winning_card == (None if pos is None else cards[pos])
    assert outcome.void == (pos is None)


def _deal_holding(cards: tuple[Card, ...], leader: int, players: int,
                  rest: list[Card]) -> DealCards:
    size = hand_size(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, c in enumerate(cards):
        hands[(leader + i) % players].append(c)
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(rest))


@pytest.mark.untraced
@pytest.mark.rule("TRICK.CANCEL", "TRICK.WINNER", "VOID.TRICK", "VOID.LEADER",
                  "TRICK.NEXT_LEADER", "EXTRAS.FIRST_TRICK")
@settings(max_examples=examples(0.5))
@given(trick=tricks(), data=st.data())
def test_first_trick_in_a_deal_matches_the_model(trick: tuple[int, int, tuple[Card, ...]],
                                                 data: st.DataObject) -> None:
    players, leader, cards = trick
    remaining = Counter(full_deck())
    remaining.subtract(cards)
    rest = data.draw(st.permutations(sorted(remaining.elements())))
    deal = _deal_holding(cards, leader, players, list(rest))
    state, _ = GameState.start(players, NO_PASSING, (leader - 1) % players).apply(deal)
    assert state.leader == leader
    for i, c in enumerate(cards):
        state, _ = state.apply_unchecked(Play((leader + i) % players, c))
    pos, _ = trick_result(cards)
    (outcome,) = state.tricks
    inv.trick_matches_model(cards, outcome.winner, outcome.cancelled, leader, players)
    taken = Counter(cards) + Counter(deal.extras)
    if pos is None:
        assert state.pending == cards + deal.extras
        assert state.leader == leader
        assert not any(state.collected)
    else:
        winner = (leader + pos) % players
        assert state.pending == ()
        assert state.leader == winner
        assert Counter(state.collected[winner]) == taken
