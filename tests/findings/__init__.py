"""Tests of ``rules_ref.findings``: the rule a divergence is named for, its class and its words."""
