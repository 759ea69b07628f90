"""Tests that reach the branches the rule, property and hostile tests leave untaken.

Each asserts exact values and names the rules it checks; together with the
rest of the suite they hold branch coverage of ``rules_ref`` above the floor
of ``pyproject.toml`` (``[tool.coverage.report] fail_under``).
"""
