"""Tests of ``rules_ref.records``: recorded games, their shape and their validation."""
