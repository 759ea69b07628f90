"""Tests of ``rules_ref.jsonio``: JSON in and out, files and serialized states."""
