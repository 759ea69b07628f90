"""Tests of ``rules_ref.reports``: a run's result, its verdict, its merge and its reports."""
