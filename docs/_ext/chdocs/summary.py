"""The one-page summary of the default rules: every rule's statement, grouped, for printing.

The statements are those of ``spec/rules.toml``, word for word; only their
sentences about ruleset switches ("Under the switch ...") are left out, since
the summary is of the default rules. The print stylesheet (``cards.css``)
sets the page in two columns on one sheet.
"""

from __future__ import annotations

import re

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.util.docutils import SphinxDirective

from . import context
from .domain import xref
from .pages import linkify
from .render import para

#: a sentence of a statement that speaks of a switch, not of the default rule
SWITCH_SENTENCE = re.compile(r"\s*Under the switch `[^`]+`[^.]*\.")


def default_statement(statement: str) -> str:
    """``statement`` without its sentences about ruleset switches."""
    return SWITCH_SENTENCE.sub("", statement).strip()


class RuleSummaryDirective(SphinxDirective):
    """``.. rule-summary::``: every rule in force, by group, its statement under the default."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        box = nodes.container(classes=["ch-summary"])
        for group in spec.groups:
            rules = [r for r in spec.group_rules(group.id) if not r.withdrawn]
            if not rules:
                continue
            block = nodes.container(classes=["ch-summary-group"])
            block += nodes.rubric(group.title, group.title, classes=["ch-summary-title"])
            for r in rules:
                block += para(nodes.strong(r.title, r.title), " ", xref("rule", r.id), " ",
                              *linkify(default_statement(r.statement), spec),
                              classes=["ch-summary-rule"])
            box += block
        return [box]
