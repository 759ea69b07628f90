"""The ambiguities page: one entry per A-xx and per D-xx, from ``spec/ambiguities.toml``.

``.. ambiguity-entries::`` and ``.. decision-entries::`` draw every entry of
the catalogue (read by :func:`rules_ref.ambiguities.read_ambiguities`) as a
section whose anchor is the one the ``:ambiguity:`` and ``:decision:`` roles
link to (``ambiguity-a-04``, ``decision-d-12``). Nothing here words an
entry: the text is the catalogue's, with rule IDs, switches, source keys,
A-xx and D-xx linked as on the rule pages.
"""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.util.docutils import SphinxDirective

from rules_ref.ambiguities import Ambiguity, Catalogue, Decision, read_ambiguities
from rules_ref.errors import InputError

from . import context
from .domain import ChDomain, xref
from .pages import linkify
from .render import para
from .spec import Spec


def catalogue(directive: SphinxDirective) -> Catalogue:
    path = context.spec_dir(directive.env) / "ambiguities.toml"
    try:
        return read_ambiguities(path)
    except InputError as exc:
        raise directive.error(str(exc)) from None


def _field(name: str, *body: nodes.Node) -> nodes.field:
    field = nodes.field()
    field += nodes.field_name(name, name)
    fbody = nodes.field_body()
    for child in body:
        fbody += child
    field += fbody
    return field


def _links(objtype: str, names: Sequence[str], literal: bool) -> nodes.paragraph:
    p = para()
    for i, name in enumerate(names):
        if i:
            p += nodes.Text(", ")
        p += xref(objtype, name, literal=literal)
    if not names:
        p += nodes.emphasis("none", "none")
    return p


def _section(domain: ChDomain, objtype: str, key: str, title: str, docname: str
             ) -> nodes.section:
    node_id = domain.note_object(objtype, key, docname, f"{key}: {title}")
    section = nodes.section(ids=[node_id], classes=["ch-settled-entry"])
    heading = nodes.title()
    heading += nodes.literal(key, key, classes=["ch-rule-id"])
    heading += nodes.Text(f" · {title}")
    section += heading
    return section


def _entry(domain: ChDomain, docname: str, objtype: str, key: str, title: str,
           statement: str, spec: Spec, facts: Sequence[nodes.field],
           rules: Sequence[str]) -> nodes.section:
    """The section of an ambiguity or a decision: its anchor and title, the question or
    summary it opens with, its facts, and the rules that carry it."""
    section = _section(domain, objtype, key, title, docname)
    box = nodes.container(classes=["ch-statement"])
    box += para(*linkify(statement, spec))
    section += box
    listed = nodes.field_list(classes=["ch-facts"])
    for fact in facts:
        listed += fact
    listed += _field("Carried by", _links("rule", rules, literal=True))
    section += listed
    return section


def ambiguity_section(a: Ambiguity, spec: Spec, domain: ChDomain, docname: str
                      ) -> nodes.section:
    if a.quote:
        seed = nodes.container(classes=["ch-seed"])
        seed += para(f"“{a.quote}”", classes=["ch-seed-text"])
        seed += para(f"Sentence{'s' if len(a.seed) > 1 else ''} {', '.join(a.seed)} of the "
                     "reconstructed seed article.", classes=["ch-seed-files"])
    else:
        seed = para(nodes.emphasis("", "The seed says nothing on this."))
    rules = [spec.rule(r) for r in a.rules if r in spec.rule_ids()]
    decisions = list(dict.fromkeys(r.decision for r in rules if r.decision))
    decided = para()
    for i, d in enumerate(decisions):
        decided += nodes.Text(", " if i else "")
        decided += xref("decision", d, literal=False)
    decided += nodes.Text(": " if decisions else "")
    decided += linkify(a.resolution, spec)
    return _entry(domain, docname, "ambiguity", a.id, a.title, a.question, spec, [
        _field("Seed text", seed),
        _field("Translations", para(*linkify(a.translations, spec))),
        _field("Other sources", para(*linkify(a.others, spec))),
        _field("Decision", decided)], a.rules)


def decision_section(d: Decision, spec: Spec, domain: ChDomain, docname: str
                     ) -> nodes.section:
    return _entry(domain, docname, "decision", d.id, d.title, d.summary, spec, [
        _field("Why", para(*linkify(d.why, spec))),
        _field("Settles", _links("ambiguity", d.settles, literal=False))], d.rules)


class CatalogueDirective(SphinxDirective):
    """``.. ambiguity-entries::`` / ``.. decision-entries::``: every A-xx or D-xx entry."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        self.env.note_dependency(str(context.spec_dir(self.env) / "ambiguities.toml"))
        spec = context.spec(self.env)
        domain = self.env.get_domain("ch")
        assert isinstance(domain, ChDomain)
        entries = catalogue(self)
        docname = self.env.docname
        if self.name == "ambiguity-entries":
            return [ambiguity_section(a, spec, domain, docname) for a in entries.ambiguities]
        return [decision_section(d, spec, domain, docname) for d in entries.decisions]
