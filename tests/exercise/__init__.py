"""Tests of ``rules_ref.exercise``: the conditions of every rule, the rare pairs, a run's tally."""
