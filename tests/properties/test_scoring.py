"""Deal scoring and the end of a deal against the model, on generated collections of cards.

The whole-deal tests reach a moon or a void last trick only some of the
time; here the cards each seat collected (and those nobody collected) are
generated directly, often all 26 hearts with one Q♠ or both, and the last
trick is generated void, so the engine's scoring, moon and settling of the
pending pile meet every case.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_ref.actions import MoonChoice
from rules_ref.cards import Card, Suit, full_deck
from rules_ref.game_end import is_game_over, winners
from rules_ref.pending import settle_pending
from rules_ref.ruleset import Ruleset
from rules_ref.scoring import (
    card_points,
    deal_scores,
    moon_options,
    moon_pair,
    moon_scores,
    moon_shooter,
    pair_moon_scores,
)
from rules_ref.strategies import player_counts, rulesets, trick_cards
from rules_ref.tricks import resolve_trick

from . import examples
from .model import QUEEN_OF_SPADES, Outcome, find_shooter, score, settle, trick_result

Piles = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]


@st.composite
def collections(draw: st.DrawFn, players: int) -> Piles:
    """Every card of a deal in one seat's collected pile or among the uncollected.

    Half the time one seat holds all 26 hearts with one or both Q♠, so that
    a moon and a near miss are both common.
    """
    deck = list(draw(st.permutations(full_deck())))
    piles: list[list[Card]] = [[] for _ in range(players + 1)]  # the last: uncollected
    if draw(st.booleans()):
        seat = draw(st.integers(0, players - 1))
        queens = draw(st.integers(1, 2))
        for c in [c for c in deck if c.suit == Suit.H or c == QUEEN_OF_SPADES]:
            if c == QUEEN_OF_SPADES and queens == 0:
                piles[draw(st.integers(0, players))].append(c)
                continue
            queens -= c == QUEEN_OF_SPADES
            piles[seat].append(c)
        deck = [c for c in deck if c.suit != Suit.H and c != QUEEN_OF_SPADES]
    cuts = sorted(draw(st.lists(st.integers(0, len(deck)), min_size=players,
                                max_size=players)))
    for i, (a, b) in enumerate(zip([0, *cuts], [*cuts, len(deck)], strict=True)):
        piles[i if i < players or draw(st.booleans()) else draw(
            st.integers(0, players - 1))] += deck[a:b]
    return tuple(tuple(p) for p in piles[:players]), tuple(piles[players])


@st.composite
def scored_deals(draw: st.DrawFn) -> tuple[Ruleset, Piles]:
    return draw(rulesets()), draw(collections(draw(player_counts())))


@pytest.mark.untraced
@pytest.mark.rule("SCORE.CARD_POINTS", "SCORE.DEAL", "MOON.CONDITION", "MOON.CHOICE")
@settings(max_examples=examples(1.0))
@given(deal=scored_deals())
def test_deal_scores_match_the_model(deal: tuple[Ruleset, Piles]) -> None:
    rs, (collected, uncollected) = deal
    assert Counter(c for p in collected for c in p) + Counter(uncollected) == Counter(full_deck())
    shooter = moon_shooter(collected)
    assert shooter == find_shooter(collected)
    points, plain = score(collected, None, None, rs)
    assert tuple(card_points(c, rs) for c in collected) == points
    if shooter is None:
        pair = moon_pair(collected, rs)
        assert deal_scores(collected, rs) == points
        assert (deal_scores(collected, rs) if pair is None
                else pair_moon_scores(pair, collected, rs)) == plain
        return
    assert not any(c.suit == Suit.H or c == QUEEN_OF_SPADES for c in uncollected)
    choices: tuple[MoonChoice | None, ...] = moon_options(rs) or (None,)
    for choice in choices:
        assert moon_scores(shooter, choice, collected, rs) == score(
            collected, shooter, choice, rs)[1], f"moon scores with choice {choice}"


@st.composite
def void_endings(draw: st.DrawFn) -> tuple[Ruleset, int, int, tuple[Card, ...], tuple[Card, ...]]:
    players = draw(player_counts())
    last = draw(trick_cards(players).filter(lambda t: trick_result(t)[0] is None))
    rest = Counter(full_deck())
    rest.subtract(last)
    earlier = draw(st.lists(st.sampled_from(sorted(rest.elements())), max_size=3 * players))
    pending = tuple(earlier) + last
    return draw(rulesets()), players, draw(st.integers(0, players - 1)), last, pending


@pytest.mark.untraced
@pytest.mark.rule("VOID.LAST", "VOID.TRICK")
@settings(max_examples=examples(1.0))
@given(ending=void_endings())
def test_cards_pending_at_the_end_go_where_the_model_says(
        ending: tuple[Ruleset, int, int, tuple[Card, ...], tuple[Card, ...]]) -> None:
    rs, players, leader, last, pending = ending
    outcome = resolve_trick(last, leader, players)
    assert outcome.winner is None
    taken, uncollected = settle_pending(pending, outcome, players, rs)
    gains, left = settle(pending, Outcome(leader, last, None), players, rs)
    engine: list[list[Card]] = [[] for _ in range(players)]
    for seat, cards in taken:
        engine[seat] += cards
    assert engine == gains
    assert list(uncollected) == left


@pytest.mark.rule("GAME.END", "GAME.WINNER")
@settings(max_examples=examples(0.5))
@given(totals=st.lists(st.integers(-60, 200), min_size=6, max_size=11),
       target=st.integers(1, 200))
def test_game_end_matches_the_rule(totals: list[int], target: int) -> None:
    over = is_game_over(totals, Ruleset(target=target))
    assert over == any(t >= target for t in totals)
    low = min(totals)
    assert winners(totals) == tuple(i for i, t in enumerate(totals) if t == low)
