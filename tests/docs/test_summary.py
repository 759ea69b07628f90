"""The one-page summary shows each rule's statement word for word, less its switch sentences."""

from __future__ import annotations

import pytest

from rules_ref import registry

from . import chdocs

pytest.importorskip("sphinx")
summary = chdocs("summary")


def test_only_the_sentences_about_switches_are_left_out() -> None:
    rule = {r.id: r for r in registry.load().rules}["LEAD.HEARTS"]
    assert summary.default_statement(rule.statement) == rule.statement.split(
        " Under the switch `hearts_broken_by`")[0]
    assert summary.default_statement("A rule. Under the switch `x`, it differs. More.") == (
        "A rule. More.")


def test_every_default_statement_is_its_rule_statement_in_order() -> None:
    for r in registry.load().rules:
        kept = summary.default_statement(r.statement)
        assert "Under the switch" not in kept
        sentences = [s for s in r.statement.split(". ") if "Under the switch" not in s]
        assert kept.rstrip(".") == ". ".join(sentences).rstrip("."), r.id
