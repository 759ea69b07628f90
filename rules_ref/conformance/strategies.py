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
:mod:`.setup_strategies`, :mod:`.deal_strategies`, :mod:`.play_strategies`
and :mod:`.rare_path_counts`.
"""

from __future__ import annotations

# The signatures shown with the re-exported names (in the API pages) name st.SearchStrategy.
from hypothesis import strategies as st  # noqa: F401

from .deal_strategies import ACE_OF_CLUBS as ACE_OF_CLUBS
from .deal_strategies import any_deals as any_deals
from .deal_strategies import cancelling_suit_deals as cancelling_suit_deals
from .deal_strategies import explicit_deals as explicit_deals
from .deal_strategies import forced_heart_deals as forced_heart_deals
from .deal_strategies import mirrored_deals as mirrored_deals
from .deal_strategies import moon_deals as moon_deals
from .deal_strategies import opening_lead_deals as opening_lead_deals
from .deal_strategies import penalty_leader_deals as penalty_leader_deals
from .deal_strategies import trick_cards as trick_cards
from .deal_strategies import void_first_trick_deals as void_first_trick_deals
from .deal_strategies import void_last_trick_deals as void_last_trick_deals
from .play_strategies import DEAL_KINDS as DEAL_KINDS
from .play_strategies import POLICY_STYLES as POLICY_STYLES
from .play_strategies import Chooser as Chooser
from .play_strategies import DealPosition as DealPosition
from .play_strategies import Observer as Observer
from .play_strategies import Policy as Policy
from .play_strategies import deal_positions as deal_positions
from .play_strategies import deals_with_policies as deals_with_policies
from .play_strategies import play_out as play_out
from .play_strategies import policies as policies
from .rare_path_counts import CANCELLED_LEAD as CANCELLED_LEAD
from .rare_path_counts import FORCED_HEART_LEAD as FORCED_HEART_LEAD
from .rare_path_counts import MOON_ADD as MOON_ADD
from .rare_path_counts import MOON_SUBTRACT as MOON_SUBTRACT
from .rare_path_counts import OPENING_EXCEPTION as OPENING_EXCEPTION
from .rare_path_counts import PARTIAL_CANCEL as PARTIAL_CANCEL
from .rare_path_counts import PENDING_COLLECTED as PENDING_COLLECTED
from .rare_path_counts import RARE_PATHS as RARE_PATHS
from .rare_path_counts import TIE as TIE
from .rare_path_counts import VOID_FIRST_WITH_EXTRAS as VOID_FIRST_WITH_EXTRAS
from .rare_path_counts import VOID_LAST as VOID_LAST
from .rare_path_counts import VOID_TRICK as VOID_TRICK
from .rare_path_counts import VOID_TWICE as VOID_TWICE
from .rare_path_counts import RarePathTally as RarePathTally
from .rare_path_counts import rare_paths as rare_paths
from .setup_strategies import dealers as dealers
from .setup_strategies import near_target_totals as near_target_totals
from .setup_strategies import player_counts as player_counts
from .setup_strategies import rulesets as rulesets
from .setup_strategies import switch_values as switch_values

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
    "Chooser",
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
