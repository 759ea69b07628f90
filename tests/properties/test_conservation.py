"""Every card in exactly one place, and a game rebuilt from its action log, on fixed games.

The game machine (``test_game_machine.py``) checks these after every action
of drawn games; here they are checked on the crafted positions of
:mod:`tests.properties.crafted`, which between them put cards in every
place a card can be (a hand, the trick, the extras, the pending pile, a
collected pile, the pile of a void last trick that nobody collects), so
what they cover does not depend on what the machine happens to draw.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules_ref.actions import Action
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.strategies import play_out

from . import invariants as inv
from .crafted import CRAFTED, unplayed


def _places(state: GameState) -> Counter[str]:
    return Counter(place.split()[0] for place, _ in state.card_places())


def test_no_card_has_a_place_before_the_first_deal() -> None:
    assert list(GameState.start(7).card_places()) == []


@pytest.mark.rule("DECK.CARDS")
@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_every_card_has_one_place_at_every_step_and_the_log_replays(name: str) -> None:
    position = CRAFTED[name][0]
    seen: Counter[str] = Counter()
    steps: list[Action] = []

    def observe(before: GameState, action: Action, after: GameState, events: object) -> None:
        inv.card_conservation(after)
        seen.update(_places(after).keys())
        steps.append(action)

    dealt, _ = position.state.apply(position.deal)
    inv.card_conservation(dealt)
    end = play_out(dealt, unplayed(position.policy), observe)
    assert end.phase in (Phase.DEALING, Phase.GAME_OVER)
    inv.same_state(dealt.replay(steps), end, "replaying the deal's actions")
    inv.replay_rebuilds(end)
    # every crafted deal passes through hands, tricks and collected or uncollected piles
    assert {"hand", "trick"} <= set(seen)
    assert seen.keys() & {"collected", "uncollected"}


def test_the_all_void_deal_puts_cards_in_the_extras_pending_and_uncollected_piles() -> None:
    # seven players: six extras, every trick void (crafted.mirrored_seven), so nobody
    # ever collects a card and the last void trick leaves the whole deck uncollected
    position = CRAFTED["all-void"][0]
    dealt, _ = position.state.apply(position.deal)
    assert _places(dealt) == {"hand": 98, "extras": 6}
    after_first: list[Counter[str]] = []

    def observe(before: GameState, action: Action, after: GameState, events: object) -> None:
        if after.trick_number == 2 and not after.trick:
            after_first.append(_places(after))

    end = play_out(dealt, unplayed(position.policy), observe)
    assert after_first[0] == {"hand": 91, "pending": 13}
    assert _places(end) == {"uncollected": 104}
