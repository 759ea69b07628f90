"""Tests of ``rules_ref.positions``: a position's text, its checks, and games started from it."""
