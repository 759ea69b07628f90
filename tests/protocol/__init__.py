"""Tests of ``rules_ref.protocol``: its messages, the adapter process, the reference adapter."""
