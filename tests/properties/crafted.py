"""Deal positions built by hand, one for each rare path that random draws reach least often.

Random deals meet a moon, a tie at the game's end, a forced heart lead or an
opening leader holding only penalty cards a few times in a few hundred
examples, so a proof resting on them alone would depend on the size of the
Hypothesis profile. :func:`with_crafted_examples` adds these positions to a
property test as explicit examples (``hypothesis.example``), which run
before the drawn ones in every profile. Between them they go through every
rare path of :data:`~rules_ref.exercise.detect.RARE_PATHS`;
``test_zz_rare_paths.py`` checks that each goes through the paths it is
listed with, so a change that moves one off its path fails by name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import example

from rules_ref.actions import DealCards
from rules_ref.cards import parse_cards
from rules_ref.exercise.detect import (
    CANCELLED_LEAD,
    FORCED_HEART_LEAD,
    MOON_ADD,
    MOON_SUBTRACT,
    OPENING_EXCEPTION,
    PARTIAL_CANCEL,
    PENDING_COLLECTED,
    TIE,
    VOID_FIRST_WITH_EXTRAS,
    VOID_LAST,
    VOID_TRICK,
    VOID_TWICE,
)
from rules_ref.ruleset import PassDirection, Ruleset
from rules_ref.state import GameState
from rules_ref.strategies import DealPosition, Policy
from rules_ref.strategies import crafted as crafted_deals

#: No passing: the crafted hands reach the play as they were dealt.
HOLD = Ruleset(pass_cycle=(PassDirection.HOLD,))

Test = TypeVar("Test", bound=Callable[..., Any])


def mirrored_seven() -> DealCards:
    """Seats 0-2 and 3-5 hold identical hands; seat 6 holds only diamonds.

    Each trick's cards pair off but for seat 6's diamond, which never
    follows the led suit: every trick is void, the first with the extras
    and the last too.
    """
    top = parse_cards("AC KC QC JC 10C 9C 8C AS KS QS JS 10S 9S 8S")
    low = parse_cards("7C 6C 5C 4C 3C 2C 7S 6S 5S 4S 3S 2S AH KH")
    mid = parse_cards("QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 2D 3D 4D")
    lone = parse_cards("5D 5D 6D 6D 7D 7D 8D 8D 9D 9D 10D 10D JD JD")
    extras = parse_cards("QD QD KD KD AD AD")
    return DealCards((top, low, mid, top, low, mid, lone), extras)


def _moon(totals: tuple[int, ...] | None, policy: Policy) -> DealPosition:
    """8 players, seat 7 deals: seat 0 holds the top clubs twice over and takes every trick."""
    made = crafted_deals.moon_deal(random.Random(1), 8, 7, 1, HOLD)
    assert made is not None
    return DealPosition(GameState.start(8, HOLD, 7, totals), made[0], policy, "moon")


def _seven(deal: DealCards, policy: Policy, kind: str) -> DealPosition:
    """7 players, seat 6 deals: seat 0 makes the opening lead."""
    return DealPosition(GameState.start(7, HOLD, 6), deal, policy, kind)


#: Each crafted position, by name, with the rare paths it goes through.
CRAFTED: dict[str, tuple[DealPosition, tuple[str, ...]]] = {
    # the reference player, shooting, takes the 26 points off its own total
    "moon-subtract": (_moon(None, Policy("reference", seed=0)), (MOON_SUBTRACT,)),
    # the uniform player gives the others 26 each; seats 1 and 3 end level on 126, below
    # the shooter's 130, while the others pass the target of 150: two winners
    "moon-add-tie": (_moon((130, 100, 140, 100, 140, 140, 140, 140), Policy("uniform", seed=0)),
                     (MOON_ADD, TIE, PARTIAL_CANCEL)),
    # the opening leader holds only hearts and Q♠; this seed also sets a trick aside and
    # hands its pile to the next trick's winner
    "penalty-leader": (_seven(crafted_deals.penalty_leader_deal(random.Random(2), 7, 0),
                              Policy("uniform", seed=2), "penalty-leader"),
                       (OPENING_EXCEPTION, VOID_TRICK, PENDING_COLLECTED, CANCELLED_LEAD,
                        PARTIAL_CANCEL)),
    # the leader wins its A♣ leads and is left with only hearts, hearts unbroken
    "forced-heart": (_seven(crafted_deals.forced_heart_deal(random.Random(0), 7, 0),
                            Policy("uniform", seed=0), "forced-heart"), (FORCED_HEART_LEAD,)),
    # partners copying each other: every trick void, the first with the extras, the last too
    "all-void": (_seven(mirrored_seven(), Policy("cancelling", seed=3), "mirrored-exact"),
                 (VOID_TRICK, VOID_TWICE, VOID_FIRST_WITH_EXTRAS, VOID_LAST, CANCELLED_LEAD)),
}


def unplayed(policy: Policy) -> Policy:
    """A copy of ``policy`` as it was made: a policy draws from its own generator as it plays.

    A drawn position brings a new policy each time Hypothesis runs it; an
    explicit example brings the same object to every run (a failing one is
    run again to report it), so the tests play a copy.
    """
    return Policy(policy.style, policy.seed)


def with_crafted_examples(**others: Any) -> Callable[[Test], Test]:
    """A decorator adding every crafted position as an explicit example of ``position``.

    ``others`` gives the test's other ``@given`` arguments for these
    examples. Apply it above ``@given``.
    """
    def add(test: Test) -> Test:
        for position, _ in CRAFTED.values():
            test = example(position=position, **others)(test)
        return test

    return add
