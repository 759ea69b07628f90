"""Where an implementation out of step after a divergence is brought back (``spec/protocol.md``).

The moments offered (:func:`resumes_at`): the start of a trick or of a phase,
never a state of the passing phase after a pass. Their kinds
(:func:`moment_kind`), which a run stops offering once refused
(:class:`Moments`, tested with the engine that refuses them in
``test_never_passing``). Without positions, the reference follows an
implementation that went into the first trick with other hands
(:func:`follow_to_first_trick`), follows its scores where it scored a deal
without the moon choice the reference waits for (:func:`follow_between_deals`),
and sends it the next deal as a ``start`` (:func:`is_deal_start`).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_ref.actions import Pass, Play
from rules_ref.cards import QUEEN_OF_SPADES, Suit, full_deck
from rules_ref.conform.resync import (
    follow_between_deals,
    follow_to_first_trick,
    is_deal_start,
    moment_kind,
    resumes_at,
)
from rules_ref.players.game import game_steps
from rules_ref.positions.convert import state_from_position
from rules_ref.positions.model import Extras, ExtrasPlace, Position
from rules_ref.protocol.observation import observe
from rules_ref.ruleset import DEFAULT, PassDirection
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

STEPS = list(game_steps(6, 3))
#: The state after the first deal, in the passing phase, and the one after its last pass.
DEALT = STEPS[0][2]
FIRST_TRICK = next(after for before, _, after, _ in STEPS
                   if before.phase is Phase.PASSING and after.phase is Phase.PLAYING)


@pytest.mark.rule("PASS.EXCHANGE")
def test_the_moments_offered_are_trick_and_phase_starts_never_a_pass_within_passing() -> None:
    # invariant, over every action of a game of several deals: a pass is a moment only
    # when it ends the passing phase, a play only when it completes a trick, a deal and
    # a moon choice always (a new phase)
    kinds = {"pass": 0, "play": 0, "deal": 0}
    for before, action, after, _ in STEPS:
        offered = resumes_at(before, after)
        if isinstance(action, Pass):
            kinds["pass"] += 1
            assert offered == (after.phase is not Phase.PASSING)
        elif isinstance(action, Play):
            kinds["play"] += 1
            assert offered == (not after.trick)
        else:
            kinds["deal"] += 1
            assert offered
    assert min(kinds.values()) > 0
    # the passes of the first deal: only the last is a moment
    first = [resumes_at(b, a) for b, action, a, _ in STEPS[1:7]]
    assert first == [False] * 5 + [True] and STEPS[6][2] is FIRST_TRICK


def test_each_moment_has_its_kind() -> None:
    kinds = {moment_kind(after) for _, _, after, _ in STEPS if after.phase is not Phase.GAME_OVER}
    assert {"passing", "trick", "mid-trick", "between deals"} <= kinds
    assert moment_kind(DEALT) == "passing" and moment_kind(FIRST_TRICK) == "trick"


@pytest.mark.rule("PASS.DIRECTION", "LEAD.OPENING_LEADER")
def test_an_implementation_that_did_not_pass_is_followed_into_the_first_trick() -> None:
    # the implementation kept the dealt hands and leads the first trick
    held = replace(DEFAULT, pass_cycle=(PassDirection.HOLD,))
    kept = GameState.start(6, held).apply(STEPS[0][1])[0]
    seen = observe(kept)
    followed = follow_to_first_trick(DEALT, seen)
    assert followed is not None and followed.ruleset == DEFAULT
    assert followed.phase is Phase.PLAYING and followed.trick_number == 1
    assert followed.hands == DEALT.hands and observe(followed) == seen
    # the reference, once it has passed, follows as well
    assert follow_to_first_trick(FIRST_TRICK, seen) is not None
    # an observation that is not the first trick about to be led is not followed
    assert follow_to_first_trick(DEALT, observe(DEALT)) is None
    assert follow_to_first_trick(DEALT, {**seen, "to_act": (seen["to_act"] + 1) % 6}) is None
    assert follow_to_first_trick(DEALT, {**seen, "totals": [1] * 6}) is None
    assert follow_to_first_trick(DEALT, {**seen, "hands": [["2C"]] * 6}) is None


@pytest.mark.rule("MOON.CHOICE")
def test_a_deal_scored_without_the_moon_choice_is_followed_to_the_next_deal() -> None:
    # seat 0 took every heart and both Q♠ in four tricks, seat 1 the nine others
    deck = sorted(full_deck())
    taken = [c for c in deck if c.suit is Suit.H or c == QUEEN_OF_SPADES]
    rest = [c for c in deck if c not in taken]
    taken, rest = taken + rest[:4], rest[4:]
    moon = state_from_position(Position(
        8, 1, 0, Phase.MOON_CHOICE, (0,) * 8, hands=((),) * 8, hearts_broken=True,
        extras=Extras((), ExtrasPlace.NONE), collected=(tuple(taken), tuple(rest), *[()] * 6),
        moon_shooter=0))
    seen = {**observe(moon), "phase": "dealing", "totals": [52] * 8}
    followed = follow_between_deals(moon, {}, seen)
    assert followed is not None and followed.phase is Phase.DEALING
    assert followed.totals == (52,) * 8
    assert followed.dealer_of_next_deal == moon.dealer_of_next_deal
    assert follow_between_deals(moon, {}, {**seen, "phase": "game-over"}) is None
    assert follow_between_deals(moon, {}, None) is None


def test_a_deal_start_is_a_deal_just_dealt() -> None:
    assert is_deal_start(DEALT)
    assert not is_deal_start(STEPS[1][2])  # one seat has passed
    assert not is_deal_start(FIRST_TRICK)  # the cards were passed
    held = replace(DEFAULT, pass_cycle=(PassDirection.HOLD,))
    assert is_deal_start(GameState.start(6, held).apply(STEPS[0][1])[0])
