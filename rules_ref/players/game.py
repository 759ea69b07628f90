"""Playing whole games: seeded deals plus a policy, to the end of the game.

>>> final = play_game(players=8, seed=1)
>>> final.phase.value, len(final.winners) >= 1
('game-over', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from ..actions import Action, DealCards
from ..deal import check_seed, seeded_deal
from ..errors import SetupError
from ..events import Event
from ..ruleset import DEFAULT, Ruleset
from ..state import GameState
from ..state_parts import Phase
from .policy import choose

MAX_DEALS = 1000

Policy = Callable[[GameState, random.Random], Action]


def next_deal(state: GameState, seed: int) -> DealCards:
    """The seeded deal (``spec/deal.md``) that comes next in ``state``'s game."""
    d = seeded_deal(seed, state.players, state.deal_number + 1, state.dealer_of_next_deal,
                    state.ruleset.min_players)
    return DealCards(d.hands, d.extras)


def game_steps(players: int, seed: int, ruleset: Ruleset = DEFAULT, first_dealer: int = 0,
               policy: Policy = choose, max_deals: int = MAX_DEALS,
               ) -> Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]:
    """Play a game, yielding ``(before, action, after, events)`` for every action.

    Deals come from ``seed`` by the portable shuffle; ``policy`` (seeded
    from the same ``seed``) chooses every other action.
    """
    yield from steps_from(GameState.start(players, ruleset, first_dealer), seed, policy,
                          max_deals)


def steps_from(state: GameState, seed: int, policy: Policy = choose, max_deals: int = MAX_DEALS,
               ) -> Iterator[tuple[GameState, Action, GameState, tuple[Event, ...]]]:
    """Play on from ``state`` to the end of the game, yielding the steps as :func:`game_steps`.

    The deals after ``state`` are the seeded deals of ``seed`` for their deal
    numbers, and ``policy`` draws from a generator seeded with ``seed`` alone:
    the same state and seed always give the same actions; at most ``max_deals``
    deals are dealt. From a game's start this is :func:`game_steps`.
    """
    check_seed(seed)
    rng = random.Random(seed)
    first = state.deal_number
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.DEALING:
            if state.deal_number - first >= max_deals:
                raise SetupError(f"the game did not end within {max_deals} deals")
            action: Action = next_deal(state, seed)
        else:
            action = policy(state, rng)
        after, events = state.apply(action)
        yield state, action, after, events
        state = after


def play_game(players: int, seed: int, ruleset: Ruleset = DEFAULT, first_dealer: int = 0,
              policy: Policy = choose, max_deals: int = MAX_DEALS) -> GameState:
    """Play a whole game and return its final state."""
    final = GameState.start(players, ruleset, first_dealer)
    for _, _, after, _ in game_steps(players, seed, ruleset, first_dealer, policy, max_deals):
        final = after
    return final
