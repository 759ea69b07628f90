"""Tests of ``rules_ref.fit``: the ruleset an implementation plays, found by ``rules-ref fit``."""
