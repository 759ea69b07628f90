"""The rule pages, the rule index, and the ambiguity and decision indexes.

All text comes from ``spec/rules.toml`` (and, for source keys and switches,
``spec/sources.toml`` and ``spec/variants.toml``); nothing here words a rule.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from docutils import nodes  # type: ignore[import-untyped]
from sphinx import addnodes
from sphinx.builders import Builder
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode, nested_parse_with_titles

from rules_ref.registry import Rule

from . import context
from .domain import ChDomain, implementation_xref, xref
from .render import para, text
from .spec import Spec, format_value
from .trace import Trace

#: spec files that the site shows as pages of its own
SPEC_PAGES = {"spec/deal.md": "implementers/deal", "spec/notation.md": "implementers/notation",
              "spec/protocol.md": "implementers/protocol",
              "spec/implementing.md": "implementers/guide",
              "spec/position.md": "implementers/position", "spec/limits.md": "limits"}


class rule_examples(nodes.General, nodes.Element):  # type: ignore[misc]
    """Placeholder: the worked examples of a rule, filled in once every page is read."""


def linkify(source: str, spec: Spec) -> list[nodes.Node]:
    """Spec prose as nodes, with rule IDs, switches, source keys, A-xx and D-xx linked."""
    rule_ids = set(spec.rule_ids())
    switches = {s.name for s in spec.switches}
    keys = sorted((k.key for k in spec.sources), key=len, reverse=True)
    pattern = re.compile(
        r"`(?P<code>[^`]+)`"
        r"|(?P<rule>\b[A-Z]+\.[A-Z0-9_]+\b)"
        r"|(?P<amb>\bA-\d\d\b)"
        r"|(?P<dec>\bD-\d\d\b)"
        r"|(?P<spec>\bspec/[a-z]+\.md\b)"
        + (r"|(?<![\w-])(?P<key>" + "|".join(map(re.escape, keys)) + r")(?![\w-])"
           if keys else ""))
    out: list[nodes.Node] = []
    pos = 0
    for m in pattern.finditer(source):
        kind = m.lastgroup
        token = m.group(0)
        node: nodes.Node | None = None
        if kind == "code":
            code = m.group("code")
            node = xref("switch", code) if code in switches else nodes.literal(code, code)
        elif kind == "rule" and token in rule_ids:
            node = xref("rule", token)
        elif kind == "amb":
            node = xref("ambiguity", token, literal=False)
        elif kind == "dec":
            node = xref("decision", token, literal=False)
        elif kind == "spec" and token in SPEC_PAGES:
            node = addnodes.pending_xref("", refdomain="std", reftype="doc",
                                         reftarget="/" + SPEC_PAGES[token], refexplicit=True,
                                         refwarn=True)
            node += nodes.literal(token, token)
        elif kind == "key":
            node = xref("source", token, literal=False)
        if node is None:
            continue
        out.append(nodes.Text(source[pos:m.start()]))
        out.append(node)
        pos = m.end()
    out.append(nodes.Text(source[pos:]))
    return [n for n in out if not (isinstance(n, nodes.Text) and not n.astext())]


def _comma_list(items: Sequence[nodes.Node], empty: str) -> list[nodes.Node]:
    if not items:
        return [nodes.emphasis(empty, empty)]
    out: list[nodes.Node] = []
    for i, item in enumerate(items):
        if i:
            out.append(nodes.Text(", "))
        out.append(item)
    return out


def _field(name: str, body: list[nodes.Node] | nodes.Node, classes: Sequence[str] = ()
           ) -> nodes.field:
    field = nodes.field(classes=list(classes))
    field += nodes.field_name(name, name)
    fbody = nodes.field_body()
    for child in body if isinstance(body, list) else [body]:
        fbody += child if isinstance(child, nodes.Element) and not isinstance(
            child, nodes.Inline) else para(child)
    field += fbody
    return field


def folded(body: nodes.Element, summary: str) -> list[nodes.Node]:
    """``body`` folded under a summary line in HTML (``<details>``); as is elsewhere."""
    opening = f'<details class="ch-fold"><summary>{html.escape(summary)}</summary>'
    return [nodes.raw("", opening, format="html"),
            body,
            nodes.raw("", "</details>", format="html")]


def _seed_sources(rule: Rule, spec: Spec) -> list[nodes.Node]:
    quoted = [s for s in rule.sources if s.text]
    if not quoted:
        return [para(nodes.emphasis("", "Not in the seed text"), ": a project decision (",
                     xref("decision", rule.decision, literal=False), ").")]
    out: list[nodes.Node] = []
    for s in quoted:
        quote = nodes.container(classes=["ch-seed"])
        quote += para(f"“{s.text}”", classes=["ch-seed-text"])
        files = ", ".join(f"{f} ({spec.seed_languages[f]})" if f in spec.seed_languages else f
                          for f in s.seeds)
        quote += para(f"Sentence {s.sentence} of the reconstructed seed article; seed files: "
                      f"{files}.", classes=["ch-seed-files"])
        out.append(quote)
    return out


def _switches(rule: Rule, spec: Spec) -> list[nodes.Node]:
    if not rule.switches:
        return [para("None: every ruleset plays this rule as stated.")]
    items = nodes.bullet_list(classes=["ch-compact"])
    for name in rule.switches:
        li = nodes.list_item()
        try:
            sw = spec.switch(name)
        except KeyError:
            li += para(xref("switch", name))
        else:
            others = [format_value(v.value) for v in sw.values if v.value != sw.default]
            tail = f"; published alternatives: {'; '.join(others)}" if others else ""
            li += para(xref("switch", name), f" (default {format_value(sw.default)}{tail})")
        items += li
    return [items]


def _evidence(rule: Rule, trace: Trace) -> list[nodes.field]:
    impls = [implementation_xref(q) for q in trace.implementations.get(rule.id, [])]
    fields = [_field("Implemented by", [para(*_comma_list(impls, "no implementation"))],
                     classes=[] if impls else ["ch-gap"])]
    # The tests and vectors are listed on the rule's traceability page: listed here, their
    # names would be the words the search shows for the rule's page.
    tests = len(trace.tests.get(rule.id, []))
    vectors = len(trace.vectors.get(rule.id, []))
    listed = xref("evidence", rule.id, "listed on its traceability page", literal=False)
    fields.append(_field("Tests and vectors", [para(
        f"{tests} test{'s' if tests != 1 else ''}, {vectors} vector{'s' if vectors != 1 else ''}"
        " (", listed, ")")], classes=[] if tests and vectors else ["ch-gap"]))
    return fields


def rule_section(rule: Rule, spec: Spec, trace: Trace, domain: ChDomain, docname: str
                 ) -> nodes.section:
    node_id = domain.note_object("rule", rule.id, docname, f"{rule.id}: {rule.title}")
    section = nodes.section(ids=[node_id, rule.id], classes=["ch-rule"])
    title = nodes.title()
    title += nodes.literal(rule.id, rule.id, classes=["ch-rule-id"])
    title += nodes.Text(f" · {rule.title}")
    section += title
    if rule.withdrawn:
        section += para(nodes.strong("", "Withdrawn."), " This ID stays reserved.",
                        classes=["ch-withdrawn"])
    statement = nodes.container(classes=["ch-statement"])
    statement += para(*linkify(rule.statement, spec))
    section += statement
    # What a player reads: the rule, where to see it played, why it is so, and
    # whether other tables play it otherwise.
    facts = nodes.field_list(classes=["ch-facts"])
    facts += _field("Examples", [rule_examples(rule_id=rule.id)])
    facts += _field("Why", [para(*linkify(rule.why, spec))])
    facts += _field("Other tables", _switches(rule, spec))
    section += facts
    # What a consultant or an implementer looks up, folded away.
    record = nodes.field_list(classes=["ch-facts", "ch-record"])
    record += _field("Seed text", _seed_sources(rule, spec))
    settles = [xref("ambiguity", a, literal=False) for a in rule.settles]
    record += _field("Settles", [para(*_comma_list(settles, "no ambiguity: the seed is clear"),
                                      " — decision ", xref("decision", rule.decision,
                                                           literal=False))])
    evidence = _evidence(rule, trace)
    for field in evidence:
        record += field
    section += folded(record, _record_summary(rule, trace))
    return section


def _record_summary(rule: Rule, trace: Trace) -> str:
    """The line a folded record shows: what it holds, with its counts."""
    seed = "seed text" if any(s.text for s in rule.sources) else "not in the seed text"
    parts = [seed, f"decision {rule.decision}"]
    impls = len(trace.implementations.get(rule.id, []))
    tests = len(trace.tests.get(rule.id, []))
    vectors = len(trace.vectors.get(rule.id, []))
    parts.append(f"{impls} function{'s' if impls != 1 else ''}")
    parts.append(f"{tests} test{'s' if tests != 1 else ''}")
    parts.append(f"{vectors} vector{'s' if vectors != 1 else ''}")
    return "Sources and evidence: " + ", ".join(parts)


class RuleGroupDirective(SphinxDirective):
    """``.. rule-group:: GROUP``: the page of one rule group, its rules in order.

    The directive's content (examples, doctests) is placed after the rules,
    inside the page; its section titles become sub-sections of the page.
    """

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        spec = context.spec(self.env)
        group_id = self.arguments[0]
        groups = {g.id: g for g in spec.groups}
        if group_id not in groups:
            raise self.error(f"unknown rule group {group_id!r}; spec/rules.toml has "
                             f"{', '.join(groups)}")
        self.env.note_reread()
        domain = self.env.get_domain("ch")
        assert isinstance(domain, ChDomain)
        section = nodes.section(ids=[f"group-{group_id}"], classes=["ch-group"])
        section += nodes.title(groups[group_id].title, groups[group_id].title)
        rules = spec.group_rules(group_id)
        intro = nodes.paragraph()
        intro += nodes.Text(f"{len(rules)} rule{'s' if len(rules) != 1 else ''}, from "
                            "spec/rules.toml: ")
        intro += _comma_list([xref("rule", r.id) for r in rules], "")
        intro += nodes.Text(".")
        section += intro
        trace = context.trace(self.env)
        for r in rules:
            section += rule_section(r, spec, trace, domain, self.env.docname)
        if self.content:
            nested_parse_with_titles(self.state, self.content, section, self.content_offset)
        return [section]


class RuleIndexDirective(SphinxDirective):
    """``.. rule-index::``: every rule, by group, as a table of IDs and titles."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        table = nodes.table(classes=["ch-rule-index"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (30, 45, 25):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row([para("Rule ID"), para("Title"), para("Switches")])
        group += head
        body = nodes.tbody()
        titles = {g.id: g.title for g in spec.groups}
        current = None
        for r in spec.rules:
            if r.group != current:
                current = r.group
                entry = nodes.entry(morecols=2, classes=["ch-group-row"])
                entry += para(nodes.strong(titles[current], titles[current]))
                row = nodes.row()
                row += entry
                body += row
            body += _row([para(xref("rule", r.id)), para(r.title),
                          para(*_comma_list([xref("switch", s) for s in r.switches], "—"))])
        group += body
        return [table]


def _row(cells: Sequence[nodes.Node]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell
        row += entry
    return row


class SettledIndexDirective(SphinxDirective):
    """``.. ambiguity-index::`` / ``.. decision-index::``: A-xx or D-xx, with the rules for each.

    Derived from the ``settles`` and ``decision`` keys of ``spec/rules.toml``.
    """

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        domain = self.env.get_domain("ch")
        assert isinstance(domain, ChDomain)
        objtype = "ambiguity" if self.name == "ambiguity-index" else "decision"
        index: dict[str, list[Rule]] = {}
        for r in spec.rules:
            for key in (r.settles if objtype == "ambiguity" else (r.decision,)):
                if key:
                    index.setdefault(key, []).append(r)
        out = nodes.definition_list(classes=["ch-settled"])
        for key in sorted(index, key=lambda k: (k[:2], int(k[2:]) if k[2:].isdigit() else 0)):
            rules = index[key]
            title = f"{key}: " + "; ".join(r.title for r in rules)
            node_id = domain.note_object(objtype, key, self.env.docname, title)
            item = nodes.definition_list_item(ids=[node_id])
            item += nodes.term(key, key)
            definition = nodes.definition()
            bullets = nodes.bullet_list(classes=["ch-compact"])
            for r in rules:
                li = nodes.list_item()
                li += para(xref("rule", r.id), f" · {r.title}")
                bullets += li
            definition += bullets
            item += definition
            out += item
        if objtype == "ambiguity":
            numbers = {int(k[2:]) for k in index if k[2:].isdigit()}
            top = max(numbers, default=0)
            open_ones = [f"A-{n:02d}" for n in range(1, top + 1) if n not in numbers]
            note = para(f"{len(index)} ambiguities are settled by a rule. ")
            if open_ones:
                note += text("Settled by no rule (they need no rule of their own): "
                             f"{', '.join(open_ones)}.")
            return [note, out]
        return [out]


def fill_rule_examples(doctree: nodes.document, domain: ChDomain, fromdocname: str,
                       builder: Builder) -> None:
    """Replace each :class:`rule_examples` placeholder by links to that rule's examples."""
    for node in list(doctree.findall(rule_examples)):
        found = domain.examples_for(node["rule_id"])
        if not found:
            node.replace_self(para(nodes.emphasis("", "none drawn")))
            continue
        items = nodes.bullet_list(classes=["ch-compact"])
        for _name, entry in found:
            inner = nodes.inline(entry.title, entry.title)
            li = nodes.list_item()
            li += para(make_refnode(builder, fromdocname, entry.docname, entry.anchor, inner,
                                    entry.title))
            items += li
        node.replace_self(items)
