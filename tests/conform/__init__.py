"""Tests of ``rules_ref.conform``: the conform runner, its games, tables, shards and shrinking."""
