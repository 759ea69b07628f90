"""Stateful test: whole games through the public API, legal and illegal actions.

:class:`GameMachine` starts games from drawn setups (any ruleset, player
count, first dealer, totals near the target), deals adversarial deals and
plays them with drawn policies one action, one trick or one deal at a time.
After every action, and in a rule of its own, it tries one illegal action of
each applicable kind (``invariants.illegal_actions``), and it offers deals
that do not make up the deck and actions of the wrong kind. Every invariant
of ``invariants.py`` is checked after every action (the costly ones, such as
serialization round trips, replay and seat views, after every rule).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import ClassVar

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from rules_ref.actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from rules_ref.cards import CARDS
from rules_ref.events import Event
from rules_ref.ruleset import PassDirection
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.strategies import (
    Policy,
    RarePathTally,
    dealers,
    deals_with_policies,
    explicit_deals,
    near_target_totals,
    play_out,
    player_counts,
    rulesets,
)

from . import examples
from . import invariants as inv
from .model import ModelDeal

MAX_DEALS_PER_GAME = 3
IN_DEAL = (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE)


def _in_deal(m: GameMachine) -> bool:
    return m.state.phase in IN_DEAL


def _may_deal(m: GameMachine) -> bool:
    return m.state.phase is Phase.DEALING and m.deals < MAX_DEALS_PER_GAME


def _game_done(m: GameMachine) -> bool:
    return m.state.phase is Phase.GAME_OVER or (
        m.state.phase is Phase.DEALING and m.deals >= MAX_DEALS_PER_GAME)


class GameMachine(RuleBasedStateMachine):
    #: Where the rare paths met are counted (a subclass binds the session's tally).
    tally = RarePathTally()
    #: The rules that illegal actions were rejected under, over every run.
    rejections: ClassVar[Counter[str]] = Counter()

    def __init__(self) -> None:
        super().__init__()
        self.state = GameState.start(6)
        self.model: ModelDeal | None = None
        self.policy = Policy()
        self.rng = random.Random(0)
        self.deals = 0

    # --- setup and legal play -----------------------------------------------------------

    def _new_game(self, data: st.DataObject) -> None:
        players = data.draw(player_counts(), label="players")
        ruleset = data.draw(rulesets(), label="ruleset")
        if data.draw(st.integers(0, 2), label="without passing") == 0:
            ruleset = replace(ruleset, pass_cycle=(PassDirection.HOLD,))
        first_dealer = data.draw(dealers(players), label="first dealer")
        totals = data.draw(st.none() | near_target_totals(players, ruleset.target),
                           label="totals")
        next_deal = data.draw(st.integers(1, 4), label="next deal")
        self.state = GameState.start(players, ruleset, first_dealer, totals, next_deal)
        self.model = None
        self.deals = 0
        self.rng = random.Random(data.draw(st.integers(0, 2**32 - 1),
                                           label="seed of views and illegal actions"))

    @initialize(data=st.data())
    def start_game(self, data: st.DataObject) -> None:
        self._new_game(data)

    @precondition(_game_done)
    @rule(data=st.data())
    def new_game(self, data: st.DataObject) -> None:
        self._new_game(data)

    def _observe(self, before: GameState, action: Action, after: GameState,
                 events: tuple[Event, ...]) -> None:
        self.model = inv.check_step(before, action, after, events, self.model)
        self.tally.record(before, action, after, events)
        self.rejections.update(inv.illegal_actions_rejected(after, self.model, self.rng))
        self.state = after

    def _apply(self, action: Action) -> None:
        after, events = self.state.apply(action)
        self._observe(self.state, action, after, events)

    @precondition(_may_deal)
    @rule(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        s = self.state
        leader = (s.dealer_of_next_deal + 1) % s.players
        deal, self.policy = data.draw(deals_with_policies(s.players, leader), label="deal")
        self.deals += 1
        self._apply(deal)

    @precondition(_in_deal)
    @rule()
    def act(self) -> None:
        self._apply(self.policy(self.state))

    @precondition(_in_deal)
    @rule()
    def finish_trick(self) -> None:
        done = len(self.state.tricks) + 1
        while self.state.phase in IN_DEAL and len(self.state.tricks) < done:
            self._apply(self.policy(self.state))

    @precondition(_in_deal)
    @rule()
    def finish_deal(self) -> None:
        play_out(self.state, self.policy, self._observe)

    # --- illegal actions ----------------------------------------------------------------

    @rule(seed=st.integers(0, 2**32 - 1))
    def try_illegal_actions(self, seed: int) -> None:
        self.rejections.update(
            inv.illegal_actions_rejected(self.state, self.model, random.Random(seed)))

    @rule(data=st.data())
    def action_of_the_wrong_kind(self, data: st.DataObject) -> None:
        s = self.state
        seat = data.draw(st.integers(0, s.players - 1))
        card = data.draw(st.sampled_from(CARDS))
        kinds: list[object] = [Play(seat, card), Pass(seat, (card,) * s.ruleset.pass_count),
                               ChooseMoon(seat, MoonChoice.ADD), "not an action"]
        if s.phase is not Phase.DEALING:
            kinds.append(data.draw(explicit_deals(s.players)))
        wanted = {Phase.PLAYING: Play, Phase.PASSING: Pass, Phase.MOON_CHOICE: ChooseMoon}
        wrong = [a for a in kinds if s.phase is Phase.GAME_OVER
                 or not isinstance(a, wanted.get(s.phase, DealCards))]
        wrong.append(Play(s.players + data.draw(st.integers(0, 5)), card))  # no such seat
        inv.rejected(s, data.draw(st.sampled_from(wrong)), "TURN.ORDER")
        self.rejections["TURN.ORDER"] += 1

    @precondition(_may_deal)
    @rule(data=st.data(), kind=st.sampled_from(("size", "cards")))
    def deal_that_is_not_the_deck(self, data: st.DataObject, kind: str) -> None:
        s = self.state
        deal = data.draw(explicit_deals(s.players))
        hands = [list(h) for h in deal.hands]
        if kind == "size":
            hands[1].append(hands[0].pop())
            rule_id = "DEAL.SIZE"
        else:
            old = hands[0][0]
            hands[0][0] = data.draw(st.sampled_from([c for c in CARDS if c != old]))
            rule_id = "DECK.CARDS"
        bad = DealCards(tuple(tuple(h) for h in hands), deal.extras)
        inv.bad_deal_rejected(s, bad, rule_id)
        self.rejections[rule_id] += 1

    # --- invariants ---------------------------------------------------------------------

    @invariant()
    def card_conservation(self) -> None:
        inv.card_conservation(self.state, self.model)

    @invariant()
    def cancellation(self) -> None:
        inv.cancellation(self.state)

    @invariant()
    def turn_order(self) -> None:
        inv.turn_order(self.state)

    @invariant()
    def hand_sizes(self) -> None:
        inv.hand_sizes(self.state)

    @invariant()
    def legal_action_exists(self) -> None:
        inv.legal_action_exists(self.state)

    @invariant()
    def passes_listed(self) -> None:
        inv.passes_listed(self.state)

    @invariant()
    def matches_model(self) -> None:
        if self.model is not None:
            inv.matches_model(self.model, self.state)

    @invariant()
    def serialization_round_trip(self) -> None:
        inv.round_trip(self.state)

    @invariant()
    def replay_rebuilds(self) -> None:
        inv.replay_rebuilds(self.state)

    @invariant()
    def seat_views_hide(self) -> None:
        inv.seat_views_hide(self.state, self.rng)


@pytest.mark.untraced  # coverage stopped: see [tool.coverage.run] in pyproject.toml
@pytest.mark.rule("TURN.ORDER", "DECK.CARDS", "DEAL.SIZE", "DEAL.SOURCE", "DEAL.DEALER",
                  "PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE", "LEAD.OPENING_LEADER",
                  "LEAD.OPENING_CARD", "LEAD.HEARTS", "HEARTS.BROKEN", "FOLLOW.SUIT",
                  "FOLLOW.FIRST_TRICK", "TRICK.LED_SUIT", "TRICK.CANCEL", "TRICK.WINNER",
                  "TRICK.NEXT_LEADER", "VOID.TRICK", "VOID.LEADER", "VOID.COLLECT",
                  "VOID.LAST", "EXTRAS.FIRST_TRICK", "SCORE.CARD_POINTS", "SCORE.DEAL",
                  "MOON.CONDITION", "MOON.CHOICE", "GAME.END", "GAME.WINNER", "VIEW.SEAT")
def test_game_machine(rare_path_tally: RarePathTally, rejection_tally: Counter[str]) -> None:
    class TalliedGameMachine(GameMachine):
        tally = rare_path_tally
        rejections = rejection_tally

    run_state_machine_as_test(TalliedGameMachine, settings=settings(max_examples=examples(0.5)))
