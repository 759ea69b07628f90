"""Tests of ``rules_ref.vectors``: the published vectors, their analysis, checks and runs."""
