"""Hypothesis strategies for Cancellation Hearts: rulesets, deals, tricks and policies.

Its strategies drive Hypothesis (the ``dev`` extra). The property tests in
``tests/properties`` build their games from it, and the differential runner
(``rules-ref conform``) draws its adversarial deals from :mod:`.crafted`.

* :func:`rulesets`, :func:`player_counts`, :func:`dealers`,
  :func:`near_target_totals`: the setup of a game.
* :func:`explicit_deals`: uniform random deals. The adversarial deals make
  the rare situations of the rules common: :func:`mirrored_deals` (seats in
  pairs holding identical hands, so that cards cancel trick after trick),
  :func:`void_first_trick_deals`, :func:`void_last_trick_deals`,
  :func:`cancelling_suit_deals` (a suit held only as matched pairs),
  :func:`penalty_leader_deals` (an opening leader with only hearts and Q♠),
  :func:`opening_lead_deals` (an opening leader with mostly the cards the
  opening-lead rules single out),
  :func:`forced_heart_deals` (a leader left with only hearts while hearts
  are unbroken) and :func:`moon_deals` (one seat able to take every card).
  :func:`any_deals` mixes them all. Every deal strategy produces a
  :class:`~rules_ref.actions.DealCards` that makes up the deck (``DEAL.SOURCE``).
  :func:`deal_positions` draws a whole starting position: setup, deal and
  a policy suited to the deal.
* :func:`trick_cards`: complete tricks, rich in identical cards.
* :class:`Policy` and :func:`policies`: seeded choosers of legal actions,
  some biased toward cancelling plays; :func:`play_out` plays a deal to its
  end with one.
* :class:`RarePathTally`: how often a run of games went through each rare
  situation of the rules (the named conditions
  :data:`~rules_ref.exercise.detect.RARE_PATHS`, read from each step's
  events and states), so that a test run can show that it exercised them.

The adversarial deals only make a situation likely (most need a
cancelling policy and a deal without passing); whether it happened is
read from the game itself (:func:`rules_ref.exercise.detect.rare_paths`).

This module gathers the public names in one place; they live in
:mod:`.setups`, :mod:`.deals`, :mod:`.play` and :mod:`.situations`. The
adversarial deals are built once, in :mod:`.crafted`, from any source of
choices: a seeded generator in the search, a Hypothesis draw here.

The names below are loaded from their modules on first use, so that the
modules that need no Hypothesis (:mod:`.crafted`, which the vectors' moon
deals read too, and :mod:`.situations`) load without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import names_on_first_use

if TYPE_CHECKING:
    from .crafted import ACE_OF_CLUBS as ACE_OF_CLUBS
    from .deals import any_deals as any_deals
    from .deals import cancelling_suit_deals as cancelling_suit_deals
    from .deals import explicit_deals as explicit_deals
    from .deals import forced_heart_deals as forced_heart_deals
    from .deals import mirrored_deals as mirrored_deals
    from .deals import moon_deals as moon_deals
    from .deals import opening_lead_deals as opening_lead_deals
    from .deals import penalty_leader_deals as penalty_leader_deals
    from .deals import trick_cards as trick_cards
    from .deals import void_first_trick_deals as void_first_trick_deals
    from .deals import void_last_trick_deals as void_last_trick_deals
    from .play import DEAL_KINDS as DEAL_KINDS
    from .play import POLICY_STYLES as POLICY_STYLES
    from .play import ActionChooser as ActionChooser
    from .play import DealPosition as DealPosition
    from .play import Observer as Observer
    from .play import Policy as Policy
    from .play import deal_positions as deal_positions
    from .play import deals_with_policies as deals_with_policies
    from .play import play_out as play_out
    from .play import policies as policies
    from .setups import dealers as dealers
    from .setups import near_target_totals as near_target_totals
    from .setups import player_counts as player_counts
    from .setups import rulesets as rulesets
    from .setups import switch_values as switch_values
    from .situations import RarePathTally as RarePathTally

#: Each public name and the module of this package that defines it.
OWNERS = {
    "ACE_OF_CLUBS": "crafted",
    "any_deals": "deals",
    "cancelling_suit_deals": "deals",
    "explicit_deals": "deals",
    "forced_heart_deals": "deals",
    "mirrored_deals": "deals",
    "moon_deals": "deals",
    "opening_lead_deals": "deals",
    "penalty_leader_deals": "deals",
    "trick_cards": "deals",
    "void_first_trick_deals": "deals",
    "void_last_trick_deals": "deals",
    "ActionChooser": "play",
    "DEAL_KINDS": "play",
    "DealPosition": "play",
    "Observer": "play",
    "POLICY_STYLES": "play",
    "Policy": "play",
    "deal_positions": "play",
    "deals_with_policies": "play",
    "play_out": "play",
    "policies": "play",
    "dealers": "setups",
    "near_target_totals": "setups",
    "player_counts": "setups",
    "rulesets": "setups",
    "switch_values": "setups",
    "RarePathTally": "situations",
}

__all__ = sorted(OWNERS)

__getattr__ = names_on_first_use(__name__, OWNERS)
