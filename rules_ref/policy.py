"""A simple built-in player, for ``rules-ref play`` and for generating games.

It is not a strong player; it plays legal moves with a few habits of Hearts
players (pass the dangerous cards, duck under the winning card, shed the
queen of spades when void) and breaks ties with a seeded random generator,
so games are varied and reproducible.
"""

from __future__ import annotations

import random

from .actions import Action, ChooseMoon, MoonChoice, Pass, Play
from .cards import QUEEN_OF_SPADES, Card, Suit
from .scoring import moon_scores
from .state import GameState, Phase
from .tricks import cancelled_cards, led_suit


def _danger(c: Card) -> int:
    if c == QUEEN_OF_SPADES:
        return 100
    if c.suit == Suit.S and c.rank > 12:
        return 60 + c.rank
    if c.suit == Suit.H:
        return 30 + c.rank
    return c.rank


def choose(state: GameState, rng: random.Random) -> Action:
    """An action for the seat to act (``state.to_act``)."""
    seat = state.to_act
    assert seat is not None, "nobody is to act"
    if state.phase is Phase.PASSING:
        hand = sorted(state.hands[seat], key=lambda c: (_danger(c), rng.random()), reverse=True)
        return Pass(seat, tuple(sorted(hand[: state.ruleset.pass_count])))
    if state.phase is Phase.MOON_CHOICE:
        return ChooseMoon(seat, _moon_choice(state, seat))
    plays = state.legal_plays()
    if not state.trick:
        low = min(plays, key=lambda c: (_danger(c), rng.random()))
        return Play(seat, low if rng.random() < 0.8 else rng.choice(plays))
    suit = led_suit(state.trick)
    gone = cancelled_cards(state.trick)
    live = [c.rank for c in state.trick if c.suit == suit and c not in gone]
    best = max(live, default=0)
    following = [c for c in plays if c.suit == suit]
    if following:
        under = [c for c in following if c.rank < best]
        pick = max(under) if under else max(following)
        return Play(seat, pick if rng.random() < 0.85 else rng.choice(plays))
    return Play(seat, max(plays, key=lambda c: (_danger(c), rng.random())))


def _moon_choice(state: GameState, seat: int) -> MoonChoice:
    def margin(choice: MoonChoice) -> int:
        scores = moon_scores(seat, choice, state.collected, state.ruleset)
        totals = [t + s for t, s in zip(state.totals, scores, strict=True)]
        return totals[seat] - min(t for i, t in enumerate(totals) if i != seat)

    return min((MoonChoice.SUBTRACT, MoonChoice.ADD), key=margin)
