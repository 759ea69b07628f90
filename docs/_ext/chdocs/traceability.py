"""The traceability pages: for every rule, the code that implements it, its tests and vectors.

``.. traceability-matrix:: GROUP`` is the page of one rule group: a section per rule in
force, each registered as the rule's ``evidence`` (the rule's own page links to it
instead of listing hundreds of test names, which the search would show as the words of
the rule). ``.. traceability-index::`` is the front page: the counts, every gap, and each
group with its counts and its page; a group that no page shows is a warning, so is a rule
shown twice.
"""

from __future__ import annotations

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from rules_ref.registry import Rule

from . import context
from .domain import ChDomain, implementation_xref, xref
from .render import field, para
from .spec import Spec
from .trace import Trace

logger = logging.getLogger(__name__)


def _domain(env: BuildEnvironment) -> ChDomain:
    domain = env.get_domain("ch")
    assert isinstance(domain, ChDomain)
    return domain


def counts(rules: tuple[Rule, ...], trace: Trace) -> str:
    """``N rules in force: I implemented, T with tests, V with vectors.``"""
    covered = {what: sum(1 for r in rules if table.get(r.id)) for what, table in (
        ("implemented", trace.implementations), ("tested", trace.tests),
        ("vectors", trace.vectors))}
    return (f"{len(rules)} rule{'s' if len(rules) != 1 else ''} in force: "
            f"{covered['implemented']} implemented, {covered['tested']} with tests, "
            f"{covered['vectors']} with vectors.")


def _in_force(spec: Spec, group: str) -> tuple[Rule, ...]:
    return tuple(r for r in spec.group_rules(group) if not r.withdrawn)


class TraceabilityMatrixDirective(SphinxDirective):
    """``.. traceability-matrix:: GROUP``: each rule of the group, its code, tests and vectors."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        trace = context.trace(self.env)
        group = self.arguments[0]
        if group not in {g.id for g in spec.groups}:
            raise self.error(f"traceability-matrix: unknown rule group {group!r}; known: "
                             f"{', '.join(g.id for g in spec.groups)}")
        rules = _in_force(spec, group)
        out: list[nodes.Node] = [para(counts(rules, trace), classes=["ch-summary"])]
        domain = _domain(self.env)
        for r in rules:
            node_id = domain.note_object("evidence", r.id, self.env.docname,
                                         f"{r.id}: {r.title}")
            section = nodes.section(ids=[node_id], classes=["ch-trace"])
            title = nodes.title()
            title += xref("rule", r.id)
            title += nodes.Text(f" · {r.title}")
            section += title
            fields = nodes.field_list(classes=["ch-facts"])
            impls = trace.implementations.get(r.id, [])
            fields += field("Code", _items([implementation_xref(q) for q in impls]))
            fields += field(f"Tests ({len(trace.tests.get(r.id, []))})",
                             _items([nodes.literal(t.label, t.label)
                                     for t in trace.tests.get(r.id, [])]))
            fields += field(f"Vectors ({len(trace.vectors.get(r.id, []))})",
                             _items([nodes.literal(v.label, v.label)
                                     for v in trace.vectors.get(r.id, [])]))
            section += fields
            out.append(section)
        return out


class TraceabilityIndexDirective(SphinxDirective):
    """``.. traceability-index::``: the counts, the gaps, and each group's page."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        trace = context.trace(self.env)
        out: list[nodes.Node] = [para(counts(spec.rules_in_force(), trace),
                                      classes=["ch-summary"])]
        if trace.problems:
            box = nodes.container(classes=["ch-gaps"])
            box += para(nodes.strong("", f"{len(trace.problems)} gaps"))
            items = nodes.bullet_list()
            for problem in trace.problems:
                li = nodes.list_item()
                li += para(problem)
                items += li
            box += items
            out.append(box)
        items = nodes.bullet_list(classes=["ch-compact"])
        for g in spec.groups:
            rules = _in_force(spec, g.id)
            if not rules:
                continue
            li = nodes.list_item()
            first = rules[0].id
            link = xref("evidence", first, g.title, literal=False)
            tests = sum(len(trace.tests.get(r.id, [])) for r in rules)
            vectors = sum(len(trace.vectors.get(r.id, [])) for r in rules)
            li += para(link, f": {', '.join(r.id for r in rules)} "
                       f"({tests} test marks, {vectors} vector cases)")
            items += li
        out.append(items)
        return out


def _items(children: list[nodes.Node]) -> nodes.Node:
    if not children:
        return para(nodes.emphasis("", "none"), classes=["ch-gap"])
    items = nodes.bullet_list(classes=["ch-compact", "ch-evidence"])
    for child in children:
        li = nodes.list_item()
        li += para(child)
        items += li
    return items


def check_traceability(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn (an error under ``-W``) for every traceability gap, and, on a site with
    traceability pages, for every rule in force that none of them shows."""
    trace = context.trace(env)
    strict: bool = app.config.chdocs_strict
    location = "traceability" if "traceability" in env.found_docs else None
    problems = list(trace.problems)
    shown = {name for name, _ in _domain(env).entries("evidence")}
    if shown:
        problems += [f"{r.id} is on no traceability page (.. traceability-matrix:: {r.group})"
                     for r in context.spec(env).rules_in_force() if r.id not in shown]
    for problem in problems:
        if strict:
            logger.warning("traceability: %s", problem, location=location, type="chdocs",
                           subtype="traceability")
        else:
            logger.info("traceability (not enforced, chdocs_strict is off): %s", problem,
                        location=location)
