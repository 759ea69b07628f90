"""Small broken engines played in this process, one step at a time, for the findings' tests.

Each is the reference with one rule function replaced while a step is applied
(:func:`broken`, undone after it): the step a broken implementation takes from
the reference's state, and the answer it gives (:func:`answer`). :func:`failure_of`
makes the :class:`~rules_ref.findings.failure.Failure` a conform run records for
it, from a start at the reference's position, so that the findings read it as
they read a run's.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from functools import cache
from typing import Any

from rules_ref.actions import Action, DealCards
from rules_ref.cards import Card
from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.classes import Findings
from rules_ref.findings.failure import Failure
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.players.game import game_steps
from rules_ref.protocol.observation import observe
from rules_ref.protocol.start import dealt_start, position_start, requested_state
from rules_ref.ruleset import Ruleset
from rules_ref.state import GameState
from rules_ref.tricks import TrickOutcome

Fault = Callable[[], AbstractContextManager[None]]


@contextmanager
def broken(module: str, name: str, make: Callable[[Any], Any]) -> Iterator[None]:
    """Rule function ``module.name`` replaced by ``make(original)`` wherever the engine
    imported it, until the block ends."""
    original = getattr(importlib.import_module(module), name)
    touched = [m for m in list(sys.modules.values())
               if getattr(m, "__name__", "").startswith("rules_ref")
               and getattr(m, name, None) is original]
    replacement = make(original)
    for m in touched:
        setattr(m, name, replacement)
    try:
        yield
    finally:
        for m in touched:
            setattr(m, name, original)


def void_won_by_leader() -> AbstractContextManager[None]:
    """A trick nobody wins goes to the seat that led it."""
    def make(original: Callable[..., int | None]) -> Callable[..., int | None]:
        def winner(cards: Sequence[Card], cancelled: frozenset[Card] | None = None) -> int | None:
            pos = original(cards, cancelled)
            return 0 if pos is None else pos
        return winner
    return broken("rules_ref.tricks", "winning_position", make)


def pair_not_cancelled(card: str) -> Fault:
    """A pair of ``card`` (text, "10S") does not cancel."""
    def fault() -> AbstractContextManager[None]:
        def make(original: Callable[..., frozenset[Card]]) -> Callable[..., frozenset[Card]]:
            return lambda cards: frozenset(c for c in original(cards) if str(c) != card)
        return broken("rules_ref.tricks", "cancelled_cards", make)
    return fault


def card_scored(card: str, change: int) -> Fault:
    """Every copy of ``card`` (text, "5H") scores ``change`` points more (fewer, below 0)."""
    def fault() -> AbstractContextManager[None]:
        def make(original: Callable[..., int]) -> Callable[..., int]:
            def card_points(cards: Sequence[Card], ruleset: Ruleset) -> int:
                cards = tuple(cards)
                return original(cards, ruleset) + change * sum(str(c) == card for c in cards)
            return card_points
        return broken("rules_ref.scoring", "card_points", make)
    return fault


def void_last_to_leader() -> AbstractContextManager[None]:
    """The cards a void last trick leaves pending go to its leader, whatever the ruleset."""
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def settle(pending: tuple[Card, ...], last: TrickOutcome, players: int,
                   ruleset: Ruleset) -> Any:
            return (((last.leader, pending),), ()) if pending else original(
                pending, last, players, ruleset)
        return settle
    return broken("rules_ref.pending", "settle_pending", make)


def plays_values(before: GameState, action: Action, **values: Any) -> dict[str, Any]:
    """The observation an engine answers that plays switch ``values`` in place of the
    ruleset it was sent (its own rules)."""
    ruleset = Ruleset.from_dict({**before.ruleset.to_dict(), **values})
    after, _ = before._with(ruleset=ruleset).apply(action)
    return observe(after)


def answer(fault: Fault, before: GameState, action: Action) -> dict[str, Any]:
    """The observation the broken engine answers to ``action`` from ``before``."""
    with fault():
        after, _ = before.apply(action)
        return observe(after)


def failure_of(before: GameState, action: Action, actual: dict[str, Any]) -> Failure:
    """The failure a run records when the answer to ``action`` from ``before`` is ``actual``
    (the game started at ``before``'s position, as a shrunk example is)."""
    start = position_start(before)
    state = requested_state(start)
    after, _ = state.apply(action)
    expected = observe(after)
    rules, fields, others = observation_rules(state, action, after, expected, actual)
    differing = fields + others
    return Failure("disagreement", rules, "the observation differs", start, [],
                   action_to_json(action), {}, {f: expected[f] for f in differing},
                   {f: actual.get(f) for f in differing}, fields, others,
                   reference={"type": "observation", **expected})


def error_on_deal(state: GameState, hands: Sequence[Sequence[Card]],
                  extras: Sequence[Card]) -> Failure:
    """The failure of an implementation that reports an internal error when dealt ``hands``
    and ``extras``: at the start of a game (``state`` in its ``dealing`` phase before deal
    1), or on the ``deal`` action from ``state``'s position (a later deal)."""
    error = {"type": "error", "message": "no seat holds 2C"}
    if state.game.deal_results:
        deal = DealCards(tuple(map(tuple, hands)), tuple(extras))
        return Failure("error", ["DEAL.SOURCE"], "internal error", position_start(state), [],
                       action_to_json(deal), {}, {}, error)
    start = dealt_start(state.ruleset, hands, extras, dealer=state.dealer_of_next_deal)
    return Failure("error", ["PLAYERS.COUNT"], "internal error", start, [], None, {}, {},
                   error)


@cache
def reference_step(players: int, seed: int, index: int) -> tuple[GameState, Action]:
    """The state before action ``index`` of the reference's game ``seed``, and the action."""
    for i, (before, action, _, _) in enumerate(game_steps(players, seed=seed)):
        if i == index:
            return before, action
    raise AssertionError("the game is shorter")


def findings_of(*cases: tuple[Fault, tuple[int, int, int]]) -> list[dict[str, Any]]:
    """The findings (their JSON) of a run that met each broken engine's answer at its
    reference step ``(players, seed, index)``, one game each, in order."""
    found = Findings()
    for game, (fault, where) in enumerate(cases):
        before, action = reference_step(*where)
        found.record(failure_of(before, action, answer(fault, before, action)), game, 0.0)
    return [c.to_json() for c in found.ordered()]
