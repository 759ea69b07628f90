"""Tables at the edge of what the rules allow: starts a conform run offers that must be played.

The other side of :mod:`.refused_tables`. An implementation that gets a
boundary wrong by one refuses a table the rules allow, or starts it under
the wrong seat, and the games the search draws reach such a table only by
chance: at 10 players ``pass_count`` is drawn among nine values and
``pass_forbidden`` among two. So once per run, right after the refused
tables and before the games, the runner offers these starts, built only
from what ``hello`` declares (:func:`edge_starts`):

* for each player count where ``pass_forbidden = two-of-clubs`` and the
  ``pass_count`` of the hand size less 2 are supported: that ``pass_count``,
  the largest the rules allow there (one more is refused, ``PASS.CARDS``);
* where ``opening_lead = two-of-clubs`` and a ``pass_cycle`` that holds at
  deal 1 are supported, at the smallest supported count: a seeded deal in
  which the dealer holds one 2♣ and the seat on the dealer's right the
  other, which ``LEAD.OPENING_LEADER`` makes the opening leader; an engine
  that looks at the dealer first, or stops before the dealer's right, names
  another seat.

Each is judged as any ``start`` is (``Session.start``): the answer must be
the reference's observation. A rejection is the class of a rejected start
the reference plays, under the rules of the table's set-up
(:func:`.refused_tables.rejected_start_rules`); another observation is a
divergence under the rule of what differs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..cards import TWO_OF_CLUBS
from ..deal import Deal, deal_allowed, hand_size, seeded_deal
from ..errors import RulesRefError
from ..protocol.handshake import Supports
from ..protocol.start import dealt_start
from ..ruleset import OpeningLead, PassDirection, PassForbidden, PassStep, Ruleset
from .refused_tables import (
    allowed_values,
    at_count,
    base_ruleset,
    fitting_cycle,
    keyed_start,
    offered_counts,
    refusal,
)

#: Seeded deals tried for the opening-leader table before giving it up.
DEAL_TRIES = 2000


def _playable(supports: Supports, ruleset: Ruleset | None, players: int) -> Ruleset | None:
    """``ruleset`` when the adapter supports it and the reference plays it at ``players``."""
    if ruleset is None or supports.allows(ruleset) or refusal(ruleset, players) is not None:
        return None
    return ruleset


def pass_edge_ruleset(supports: Supports, base: Ruleset, players: int) -> Ruleset | None:
    """The largest ``pass_count`` the rules allow under ``pass_forbidden = two-of-clubs``."""
    forbidden = allowed_values(supports, "pass_forbidden")
    counts = allowed_values(supports, "pass_count")
    edge = hand_size(players) - 2
    if (forbidden is not None and PassForbidden.TWO_OF_CLUBS not in forbidden) or (
            counts is not None and edge not in counts):
        return None
    try:
        ruleset = replace(at_count(base, players), pass_forbidden=PassForbidden.TWO_OF_CLUBS,
                          pass_count=edge)
    except RulesRefError:  # beyond the largest pass_count a ruleset holds (6 to 8 players)
        return None
    return _playable(supports, fitting_cycle(supports, ruleset, players), players)


def _holding_cycle(supports: Supports) -> tuple[PassStep, ...] | None:
    """A supported ``pass_cycle`` whose first deal is held (nobody passes), if any."""
    cycles = allowed_values(supports, "pass_cycle")
    if cycles is None:
        return (PassDirection.HOLD,)
    return next((tuple(c) for c in cycles if c and c[0] is PassDirection.HOLD), None)


def leader_edge_ruleset(supports: Supports, base: Ruleset, players: int) -> Ruleset | None:
    """``opening_lead = two-of-clubs`` with a first deal held, when supported."""
    leads = allowed_values(supports, "opening_lead")
    cycle = _holding_cycle(supports)
    if cycle is None or (leads is not None and OpeningLead.TWO_OF_CLUBS not in leads):
        return None
    ruleset = replace(at_count(base, players), opening_lead=OpeningLead.TWO_OF_CLUBS,
                      pass_cycle=cycle)
    return _playable(supports, ruleset, players)


def dealer_last_deal(players: int, min_players: int, seed: int,
                     constraints: Sequence[str] = ()) -> tuple[int, Deal] | None:
    """A seeded deal 1 where the dealer holds one 2♣ and the seat on its right the other,
    keeping the deal ``constraints`` the adapter declared."""
    rng = random.Random(f"edge-leader:{seed}:{players}")
    for _ in range(DEAL_TRIES):
        dealer = rng.randrange(players)
        deal = seeded_deal(rng.randrange(1 << 32), players, 1, dealer, min_players)
        right = (dealer - 1) % players
        if deal.hands[dealer].count(TWO_OF_CLUBS) == 1 == deal.hands[right].count(
                TWO_OF_CLUBS) and deal_allowed(deal.hands, deal.extras, constraints):
            return dealer, deal
    return None  # pragma: no cover - about one deal in players**2 / 2 has it


def edge_starts(supports: Supports, players: Sequence[int] | None = None,
                seed: int = 0) -> list[dict[str, Any]]:
    """The ``start`` messages of the tables at the edge (see the module's description).

    ``players`` narrows the supported counts (``--players``); empty when no
    such table can be built from the supports.
    """
    counts = offered_counts(supports, players)
    base = base_ruleset(supports)
    out = []
    for n in counts:
        ruleset = pass_edge_ruleset(supports, base, n)
        if ruleset is not None:
            out.append(keyed_start(n, ruleset, f"edge-pass:{seed}:{n}",
                                   supports.deal_constraints))
    for n in counts:
        ruleset = leader_edge_ruleset(supports, base, n)
        found = None if ruleset is None else dealer_last_deal(n, ruleset.min_players, seed,
                                                              supports.deal_constraints)
        if ruleset is not None and found is not None:
            dealer, deal = found
            out.append(dealt_start(ruleset, deal.hands, deal.extras, dealer=dealer))
            break
    return out
