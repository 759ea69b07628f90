"""An internal error is filed under what triggers it: the fact its occurrences share that no
moment the implementation went through as the reference did clears
(rules_ref.findings.error_causes).

Each failure is an ``error`` answer at a moment of a seeded game (a trick whose two Q♠
cancel, void or won; a void last trick; a deal whose extras hold both 2♣, at a start and at
a later deal); the run's evidence is the ``cleared`` counter of facts met without an error.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest

from rules_ref.actions import Action, Play
from rules_ref.cards import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card
from rules_ref.deal import seeded_deal
from rules_ref.exercise.detect import rules_at_work
from rules_ref.findings.classes import Findings
from rules_ref.findings.error_causes import keys_of, settle_errors
from rules_ref.findings.failure import Failure
from rules_ref.findings.triggers import step_facts
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.players.game import game_steps
from rules_ref.protocol.start import position_start
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from tests.fakes.slip_engines import error_on_deal

Moment = tuple[GameState, Action]
QUEENS = "TRICK.CANCEL: reports an internal error when the two Q♠ cancel"


@cache
def _trick_end(players: int, seed: int, test: Callable[[GameState], bool]) -> Moment:
    """The first play of a seeded game that ends a trick ``test`` accepts (the state after)."""
    for before, action, after, _ in game_steps(players, seed=seed):
        if type(action) is Play and len(before.trick) + 1 == players and test(after):
            return before, action
    raise AssertionError("no such trick in the game")


def _queens(void: bool) -> Callable[[GameState], bool]:
    def test(after: GameState) -> bool:
        trick = after.tricks[-1]
        return QUEEN_OF_SPADES in trick.cancelled and trick.void is void
    return test


def _void_last(after: GameState) -> bool:
    return after.phase is not Phase.PLAYING and after.tricks[-1].void


#: A trick whose two Q♠ cancel, void and won; a void last trick (8 players).
QUEENS_VOID = (8, 36, _queens(True))
QUEENS_WON = (8, 1, _queens(False))
VOID_LAST = (8, 28, _void_last)


def error_at(before: GameState, action: Action) -> Failure:
    """The failure of an ``error`` answer to ``action`` from ``before``'s position."""
    return Failure("error", rules_at_work(before, action), "internal error",
                   position_start(before), [], action_to_json(action), {}, {},
                   {"type": "error", "message": "boom"})


def _settled(failures: list[Failure], cleared: Counter[str]) -> list[tuple[str, int]]:
    found = Findings()
    for game, failure in enumerate(failures):
        found.record(failure, game, 0.0)
    settle_errors(found, cleared)
    for c in found.ordered():  # each example names the finding's rule first
        assert [f.rules[0] for f in (c.first, c.smallest, *c.by_players.values())
                if f is not None] == [c.rule] * (2 + len(c.by_players))
    return [(c.key, c.count) for c in found.ordered()]


@pytest.mark.rule("TRICK.CANCEL")
def test_the_two_queens_cancelling_are_one_class_on_a_void_trick_and_a_won_one() -> None:
    void, won = _trick_end(*QUEENS_VOID), _trick_end(*QUEENS_WON)
    failures = [error_at(*void), error_at(*won)]
    # a trick's end explains both as well, but the queens are the particular case of it
    assert _settled(failures, Counter()) == [(QUEENS, 2)]
    assert _settled(failures, Counter({"trick-end": 40})) == [(QUEENS, 2)]


@pytest.mark.rule("VOID.LAST")
def test_a_void_last_trick_is_named_unless_one_was_met_without_an_error() -> None:
    before, action = _trick_end(*VOID_LAST)
    # the most particular of the facts it holds: not the void trick nor the deal's end
    assert _settled([error_at(before, action)], Counter()) == [
        ("VOID.LAST: reports an internal error when the last trick of a deal is void", 1)]
    # a void last trick met without an error: the pair that cancels first, in deck order
    cleared = Counter({"trick-end": 40, "led-cancelled": 5, "void-trick": 3, "deal-end": 2,
                       "void-last": 1})
    after, _ = before.apply(action)
    first = min(after.tricks[-1].cancelled, key=CARDS.index)
    assert _settled([error_at(before, action)], cleared) == [
        (f"TRICK.CANCEL: reports an internal error when the two {first.pretty} cancel", 1)]


@pytest.mark.rule("VOID.TRICK")
def test_errors_whose_every_fact_was_cleared_keep_the_rules_of_the_step() -> None:
    before, action = _trick_end(*QUEENS_WON)
    failure = error_at(before, action)
    cleared = Counter(f.name for f in step_facts(before, action))
    assert _settled([failure], cleared) == [
        (f"{failure.rules[0]}: reports an internal error on a play", 1)]


def _both_twos_among_extras(players: int) -> tuple[list[list[Card]], list[Card]]:
    """A deal of ``players`` whose extras hold both 2♣."""
    deal = seeded_deal(3, players, 1, 0)
    hands = [list(h) for h in deal.hands]
    extras = list(deal.extras)
    spare = [i for i, c in enumerate(extras) if c != TWO_OF_CLUBS]
    for hand in hands:
        while TWO_OF_CLUBS in hand:
            k = spare.pop()
            hand[hand.index(TWO_OF_CLUBS)] = extras[k]
            extras[k] = TWO_OF_CLUBS
    assert extras.count(TWO_OF_CLUBS) == 2
    return hands, extras


@pytest.mark.rule("EXTRAS.FIRST_TRICK")
def test_an_internal_error_is_blamed_on_the_deal_that_triggers_it_at_a_start_or_later() -> None:
    hands, extras = _both_twos_among_extras(7)
    later = next(after for _, _, after, _ in game_steps(7, seed=2)
                 if after.phase is Phase.DEALING and after.game.deal_results)
    failures = [error_on_deal(GameState.start(7), hands, extras),
                error_on_deal(later, hands, extras)]
    assert _settled(failures, Counter()) == [
        ("EXTRAS.FIRST_TRICK: reports an internal error when both 2♣ lie among the extras", 2)]
    # an error also when one 2♣ lies among the extras: that explains every error
    one = extras.index(TWO_OF_CLUBS)
    hands[0][0], extras[one] = extras[one], hands[0][0]
    assert extras.count(TWO_OF_CLUBS) == 1
    failures.append(error_on_deal(GameState.start(7), hands, extras))
    assert _settled(failures, Counter()) == [
        ("EXTRAS.FIRST_TRICK: reports an internal error when a 2♣ lies among the extras", 3)]


def test_a_shrunk_game_shows_the_class_of_its_trigger() -> None:
    void, won = _trick_end(*QUEENS_VOID), _trick_end(*QUEENS_WON)
    assert QUEENS in keys_of(error_at(*void))
    assert QUEENS in keys_of(error_at(*won))
    assert QUEENS not in keys_of(error_at(*_trick_end(*VOID_LAST)))
