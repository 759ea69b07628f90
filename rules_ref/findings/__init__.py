"""The findings of a conform run: what differed, under which rules, in which words.

Everything here judges one disagreement between an implementation and the
reference, or a run's set of them; nothing here talks to an adapter
(that is :mod:`rules_ref.protocol`) or draws games (:mod:`rules_ref.conform`).

* :mod:`.failure`: one disagreement (:class:`Failure`) and a run's counters (:class:`Stats`);
* :mod:`.attribution` and :mod:`.score_attribution`: the rules a disagreement
  falls under (the vectors' runner names its rules the same way);
* :mod:`.words` and :mod:`.action_words`: what differs, in words;
* :mod:`.classes`: the divergence classes a run's failures group into;
* :mod:`.expect`: declared deviations (``conform --expect``);
* :mod:`.replay`: what a replay file holds, read and checked (``rules-ref show``
  reads one without Hypothesis; playing it again is :mod:`rules_ref.conform.rerun`).
"""

from __future__ import annotations

from .attribution import accepted_illegal_rules, observation_rules, rejected_legal_rules
from .classes import DivergenceClass, Divergences, class_of, key_of
from .expect import Expectation, expect_document, read_expectations
from .failure import COUNTS, FAILURE_KINDS, Failure, FoundFailure, Stats, describe_action
from .replay import MAX_REPLAY_ACTIONS, REPLAY_FORMAT, REPLAY_VERSION, read_replay
from .words import divergence_detail, divergence_words, governing_switch

__all__ = ["COUNTS", "FAILURE_KINDS", "MAX_REPLAY_ACTIONS", "REPLAY_FORMAT", "REPLAY_VERSION",
           "DivergenceClass", "Divergences", "Expectation", "Failure", "FoundFailure", "Stats",
           "accepted_illegal_rules", "class_of", "describe_action", "divergence_detail",
           "divergence_words", "expect_document", "governing_switch", "key_of",
           "observation_rules", "read_expectations", "read_replay", "rejected_legal_rules"]
