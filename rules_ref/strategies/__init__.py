"""Hypothesis strategies for Cancellation Hearts: rulesets, deals, tricks and policies.

This module drives Hypothesis (the ``conform`` extra). The property tests in
``tests/properties`` build their games from it, and the differential runner
(``rules-ref conform``) counts the rare paths its games went through with
:func:`rare_paths`.

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
* :func:`rare_paths` and :class:`RarePathTally`: which rare situations a
  step of a game went through, read from its events and states, so that a
  test run can show that it exercised them.

The adversarial deals only make a situation likely (most need a
cancelling policy and a deal without passing); whether it happened is
read from the game itself by :func:`rare_paths`.

This module gathers the public names in one place; they live in
:mod:`.setups`, :mod:`.deals`, :mod:`.play` and :mod:`.situations`; the
adversarial deals the search plays are :mod:`.crafted`.
"""

from __future__ import annotations

# The signatures shown with the re-exported names (in the API pages) name st.SearchStrategy.
from hypothesis import strategies as st  # noqa: F401

from .deals import ACE_OF_CLUBS as ACE_OF_CLUBS
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
from .situations import CANCELLED_LEAD as CANCELLED_LEAD
from .situations import FORCED_HEART_LEAD as FORCED_HEART_LEAD
from .situations import MOON_ADD as MOON_ADD
from .situations import MOON_SUBTRACT as MOON_SUBTRACT
from .situations import OPENING_EXCEPTION as OPENING_EXCEPTION
from .situations import PARTIAL_CANCEL as PARTIAL_CANCEL
from .situations import PENDING_COLLECTED as PENDING_COLLECTED
from .situations import RARE_PATHS as RARE_PATHS
from .situations import TIE as TIE
from .situations import VOID_FIRST_WITH_EXTRAS as VOID_FIRST_WITH_EXTRAS
from .situations import VOID_LAST as VOID_LAST
from .situations import VOID_TRICK as VOID_TRICK
from .situations import VOID_TWICE as VOID_TWICE
from .situations import RarePathTally as RarePathTally
from .situations import rare_paths as rare_paths

__all__ = [
    "CANCELLED_LEAD",
    "DEAL_KINDS",
    "FORCED_HEART_LEAD",
    "MOON_ADD",
    "MOON_SUBTRACT",
    "OPENING_EXCEPTION",
    "PARTIAL_CANCEL",
    "PENDING_COLLECTED",
    "POLICY_STYLES",
    "RARE_PATHS",
    "TIE",
    "VOID_FIRST_WITH_EXTRAS",
    "VOID_LAST",
    "VOID_TRICK",
    "VOID_TWICE",
    "ActionChooser",
    "DealPosition",
    "Observer",
    "Policy",
    "RarePathTally",
    "any_deals",
    "cancelling_suit_deals",
    "deal_positions",
    "dealers",
    "deals_with_policies",
    "explicit_deals",
    "forced_heart_deals",
    "mirrored_deals",
    "moon_deals",
    "near_target_totals",
    "opening_lead_deals",
    "penalty_leader_deals",
    "play_out",
    "player_counts",
    "policies",
    "rare_paths",
    "rulesets",
    "switch_values",
    "trick_cards",
    "void_first_trick_deals",
    "void_last_trick_deals",
]
