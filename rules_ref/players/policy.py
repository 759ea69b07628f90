"""Simple built-in players, for ``rules-ref play`` and for generating games.

:func:`choose` is not a strong player; it plays legal moves with a few
habits of Hearts players (pass the dangerous cards, duck under the winning
card, shed the queen of spades when void) and breaks ties with a seeded
random generator, so games are varied and reproducible. The conformance
vectors and ``rules-ref conform`` use it, so its choices never change.

:func:`choose_bold` plays like it, except that a seat with a strong hand
tries to take every point card (shooting the moon); ``rules-ref play`` uses
it, so that moons appear in ordinary games.
"""

from __future__ import annotations

import random

from ..actions import Action, ChooseMoon, MoonChoice, Pass, Play
from ..cards import QUEEN_OF_SPADES, Card, Suit
from ..passing import passable
from ..scoring import moon_scores
from ..state import GameState
from ..state_parts import Phase
from ..tricks import cancelled_cards, led_suit


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
        hand = sorted(passable(state.hands[seat], state.ruleset),
                      key=lambda c: (_danger(c), rng.random()), reverse=True)
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


# --- a player that sometimes shoots the moon ----------------------------------------------

#: A hand with at least this share of high cards (Q, K, A, and hearts of 10 or more) per
#: card held tries for the moon.
BOLD_SHARE = 0.5


def _strength(hand: tuple[Card, ...]) -> int:
    return sum(1 for c in hand if c.rank >= 12 or (c.suit == Suit.H and c.rank >= 10))


def _others_scored(state: GameState, seat: int) -> bool:
    """True once a point card has gone anywhere but to ``seat`` this deal."""
    from ..cards import is_penalty

    if any(is_penalty(c) for i, pile in enumerate(state.collected) if i != seat for c in pile):
        return True
    return any(is_penalty(c) for c in state.uncollected)


def shooting(state: GameState, seat: int) -> bool:
    """Whether ``seat`` is going for the moon now: a strong hand, and nobody else has points."""
    hand = state.hands[seat]
    if not hand or _others_scored(state, seat):
        return False
    return _strength(hand) >= BOLD_SHARE * len(hand)


def choose_bold(state: GameState, rng: random.Random) -> Action:
    """Like :func:`choose`, but a seat with a strong hand tries to take every point card.

    The attempt is decided afresh at each action from what the seat can see
    (its hand, and whether anyone else has taken a point card), so the player
    keeps no memory; it gives up as soon as another seat takes points.
    ``rules-ref play`` uses this player so that moons appear in ordinary
    games; :func:`choose` (which the conformance vectors use) is unchanged.
    """
    seat = state.to_act
    assert seat is not None, "nobody is to act"
    if state.phase is Phase.MOON_CHOICE or not shooting(state, seat):
        return choose(state, rng)
    if state.phase is Phase.PASSING:
        low = sorted(passable(state.hands[seat], state.ruleset),
                     key=lambda c: (c.rank, c.suit == Suit.H, rng.random()))
        return Pass(seat, tuple(sorted(low[: state.ruleset.pass_count])))
    plays = state.legal_plays()
    if not state.trick:
        return Play(seat, max(plays, key=lambda c: (c.rank, c.suit == Suit.H, rng.random())))
    suit = led_suit(state.trick)
    following = [c for c in plays if c.suit == suit]
    if following:
        return Play(seat, max(following, key=lambda c: (c.rank, rng.random())))
    return Play(seat, min(plays, key=lambda c: (_danger(c) >= 30, c.rank, rng.random())))
