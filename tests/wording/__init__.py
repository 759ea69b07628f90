"""Tests of ``rules_ref.wording``: the words every reader shares, said alike everywhere."""
