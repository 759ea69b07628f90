"""The findings of a conform run: what differed, under which rules, in which words.

Everything here judges one disagreement between an implementation and the
reference, or a run's set of them; nothing here talks to an adapter
(that is :mod:`rules_ref.protocol`) or draws games (:mod:`rules_ref.conform`).

* :mod:`.failure`: one disagreement (:class:`Failure`) and a run's counters (:class:`Stats`);
* :mod:`.alternatives`: each rule's plausible alternatives (every value of its switches,
  the common slips) and those that, applied to the reference, give an implementation's
  answer: the rule a disagreement is named by, the switch named only where its value
  does;
* :mod:`.attribution`: the rules a disagreement falls under, its scores too (the
  vectors' runner names its rules the same way), read from the fields that differ
  where no alternative gives the answer;
* :mod:`.words` and :mod:`.action_words`: what differs, in words;
* :mod:`.classes`: the findings a run's failures group into (:class:`Finding`: the
  rule, the switch that decides it, what differs in words, its facets), and the
  words every report renders for one (:func:`finding_lines`);
* :mod:`.triggers` and :mod:`.error_causes`: the facts of the moment of an internal
  error, and the one the run's evidence names as what triggers it;
* :mod:`.expect`: declared deviations (``conform --expect``);
* :mod:`.replay`: what a replay file holds, read and checked (``rules-ref show``
  reads one without the search, and tells one by the format
  :mod:`rules_ref.jsonio.replay_file` names; playing it again is
  :mod:`rules_ref.conform.rerun`).
"""

from __future__ import annotations

from ..jsonio.replay_file import MAX_REPLAY_ACTIONS, REPLAY_FORMAT, REPLAY_VERSION
from .alternatives import Alternative, explaining, explaining_values, switch_alternatives
from .attribution import accepted_illegal_rules, observation_rules, rejected_legal_rules
from .classes import Finding, Findings, class_of, finding_lines, key_of
from .expect import Expectation, expect_document, read_expectations
from .failure import COUNTS, FAILURE_KINDS, Failure, FoundFailure, Stats, describe_action
from .replay import read_replay
from .words import Facet, deciding_switch, divergence_detail, divergence_words, facet_of

__all__ = ["COUNTS", "FAILURE_KINDS", "MAX_REPLAY_ACTIONS", "REPLAY_FORMAT", "REPLAY_VERSION",
           "Alternative", "Expectation", "Facet", "Failure", "Finding", "Findings", "FoundFailure",
           "Stats",
           "accepted_illegal_rules", "class_of", "deciding_switch", "describe_action",
           "divergence_detail", "divergence_words", "expect_document", "explaining",
           "explaining_values", "facet_of",
           "finding_lines", "key_of", "observation_rules", "read_expectations", "read_replay",
           "rejected_legal_rules", "switch_alternatives"]
