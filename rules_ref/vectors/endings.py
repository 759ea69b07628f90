"""The ends of deals, shared by the kinds that play a deal out.

A scoring, moon or game-end case stands one card short of the end of a
deal; :func:`end_case` plays that card (and the shooter's moon choice, and
the next deal when asked) and compares the scored observation on
:data:`END_FIELDS`. :func:`played` reaches such a position with the
built-in player, :func:`moon_deal` with a shooter who takes every trick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import ChooseMoon, MoonChoice, Play
from ..deal import hand_size
from ..players.game import next_deal
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from ..strategies.crafted import moon_hand
from .files import Case
from .scenario import Scenario, build, controller, policy_play, seeded, texts

#: The fields a case at the end of a deal compares.
END_FIELDS = ("phase", "to_act", "legal", "last_trick", "points", "deal_scores", "totals",
              "winners")


def last_card(sc: Scenario) -> Play:
    """The play of the last card of the deal (the position must be one card short)."""
    seat = sc.state.to_act
    assert seat is not None and sc.state.phase is Phase.PLAYING
    return Play(seat, sc.state.hands[seat][0])


def end_facts(state: GameState) -> dict[str, Any]:
    """What a finished deal left behind: uncollected cards, the shooter, the extras."""
    if state.phase is Phase.MOON_CHOICE:
        return {"uncollected": texts(sorted(state.uncollected)),
                "moon_shooter": state.moon_shooter, "extras": texts(state.extras)}
    r = state.deal_results[-1]
    facts = {"uncollected": texts(sorted(r.uncollected)), "moon_shooter": r.moon_shooter,
             "extras": texts(r.extras), "card_points": list(r.card_points)}
    if r.moon_pair is not None:
        facts["moon_pair"] = list(r.moon_pair)
    return facts


def end_case(sc: Scenario, kind: str, slug: str, description: str, rules: Sequence[str],
             moon: MoonChoice | None = None, then_deal: int | None = None) -> Case:
    """Play the deal's last card (and a moon choice); compare the scored observation."""
    sc.step(last_card(sc), END_FIELDS)
    facts = end_facts(sc.state)
    if moon is not None:
        shooter = sc.state.moon_shooter
        assert shooter is not None
        sc.step(ChooseMoon(shooter, moon), END_FIELDS)
        facts = end_facts(sc.state)
    if then_deal is not None:
        sc.step(next_deal(sc.state, then_deal),
                ("phase", "deal_number", "dealer", "to_act", "waiting_for", "hands",
                 "trick_number", "leader", "trick", "last_trick", "pending", "points",
                 "deal_scores", "totals"))
    return sc.case(kind, slug, description, rules, facts)


def played(players: int, ruleset: Ruleset, seed: int, deal_number: int = 1,
           totals: Sequence[int] | None = None, first_dealer: int = 0) -> Scenario:
    """A seeded deal played by the built-in player up to its last card."""
    sc = seeded(players, ruleset, seed, deal_number, first_dealer, totals)
    policy_play(sc, seed)
    return sc


def dry_scores(sc: Scenario) -> tuple[int, ...]:
    st, _ = sc.state.apply(last_card(sc))
    assert st.deal_results and st.phase is not Phase.MOON_CHOICE
    return st.deal_results[-1].scores


LEADER = Ruleset.from_dict({"last_trick_void": "leader"})
SPLIT = Ruleset.from_dict({"last_trick_void": "split-highest-pair"})
SPLIT_POINTS = Ruleset.from_dict({"last_trick_void": "split-points-highest-pair"})
#: Cards split between two seats (split-highest-pair) that may shoot the moon together.
PAIR_SPLIT = Ruleset.from_dict({"last_trick_void": "split-highest-pair", "moon_pair": "others-26"})
OTHERS_104 = Ruleset.from_dict({"moon": "others-104"})


def moon_deal(ruleset: Ruleset, players: int = 8, shooter_hand: str | None = None,
              extras: str | None = None, fixed: Mapping[int, str] | None = None,
              keep_points: bool = False, totals: Sequence[int] | None = None,
              seed: int = 70) -> Scenario:
    """A built deal in which seat 1 leads every trick with its top clubs and takes all.

    Seat 1 holds ``shooter_hand``, by default the moon hand of the adversarial
    deals (:func:`~rules_ref.strategies.crafted.moon_hand`).
    """
    hand = shooter_hand if shooter_hand is not None else " ".join(
        texts(moon_hand(hand_size(players))))
    sc = build(players, ruleset, {1: hand, **(fixed or {})}, extras=extras,
               totals=totals, seed=seed)
    sc.autoplay(controller(1, keep_points))
    return sc
