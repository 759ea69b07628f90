"""The variants page: ``spec/variants.toml`` and the source keys of ``spec/sources.toml``.

``.. source-keys::``, ``.. switch-matrix::``, ``.. switch-list::``,
``.. preset-list::`` and ``.. unsupported-list::``.
"""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.util.docutils import SphinxDirective

from . import context
from .domain import ChDomain, xref
from .pages import linkify
from .render import field, para, text
from .spec import Citation, Preset, Spec, Switch, format_value


def _table(widths: Sequence[int], header: Sequence[str], rows: Sequence[Sequence[nodes.Node]],
           classes: Sequence[str] = ()) -> nodes.table:
    table = nodes.table(classes=list(classes))
    group = nodes.tgroup(cols=len(widths))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += _row([para(h) for h in header])
    body = nodes.tbody()
    group += body
    for cells in rows:
        body += _row(cells)
    return table


def _row(cells: Sequence[nodes.Node]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += cell if isinstance(cell, nodes.Body) else para(cell)
        row += entry
    return row


def _url(url: str) -> nodes.Node:
    if not url:
        return nodes.Text("—")
    return nodes.reference(url, url, refuri=url)


def _citation(c: Citation) -> list[nodes.Node]:
    out: list[nodes.Node] = [xref("source", c.key, literal=False)]
    if c.note:
        out.append(nodes.Text(f": {c.note}"))
    return out


def _domain(directive: SphinxDirective) -> ChDomain:
    domain = directive.env.get_domain("ch")
    assert isinstance(domain, ChDomain)
    return domain


def _object_section(directive: SphinxDirective, kind: str, name: str,
                    label: str) -> tuple[nodes.section, nodes.title]:
    """The section of one switch or preset: its anchor noted in the domain, its name as title."""
    node_id = _domain(directive).note_object(kind, name, directive.env.docname, label)
    section = nodes.section(ids=[node_id], classes=[f"ch-{kind}"])
    title = nodes.title()
    title += nodes.literal(name, name)
    section += title
    return section, title


def _value_text(value: object) -> str:
    return format_value(value) if value is not None else "—"


class SourceKeysDirective(SphinxDirective):
    """``.. source-keys::``: the published sources of ``spec/sources.toml``, each an anchor."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        domain = _domain(self)
        rows = []
        for s in spec.sources:
            node_id = domain.note_object("source", s.key, self.env.docname,
                                         f"{s.key}: {s.title}")
            key = para(nodes.strong(s.key, s.key))
            key["ids"] = [node_id]
            source = nodes.container()
            source += para(s.title)
            if s.text:
                source += para(s.text, classes=["ch-note"])
            rows.append([key, source, para(_url(s.url))])
        return [_table((12, 48, 40), ("Key", "Source", "Address"), rows,
                       classes=["ch-sources"])]


class SwitchMatrixDirective(SphinxDirective):
    """``.. switch-matrix::``: every switch against every preset, with citations.

    Each preset column names its source under the preset; a cell holds the value alone,
    so that eleven presets fit beside the switches at 1280 px. A value its column's source
    is not cited for (under the switch's values) is marked.
    """

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        header = ["Switch", "default", *(p.name for p in spec.presets)]
        rows = []
        for sw in spec.switches:
            name = xref("switch", sw.name)
            literal = name.next_node(nodes.literal)
            literal.clear()
            for i, part in enumerate(sw.name.split("_")):  # may break after an underscore
                if i:
                    literal += [nodes.Text("_"), nodes.raw("", "<wbr>", format="html")]
                literal += nodes.Text(part)
            cells: list[nodes.Node] = [para(name, classes=["ch-switch-name"]),
                                       para(*_value_lines(sw.default), classes=["ch-default"])]
            for p in spec.presets:
                cells.append(_matrix_cell(sw, p))
            rows.append(cells)
        table = _table([16, 10] + [8] * len(spec.presets), header, rows,
                       classes=["ch-matrix"])
        # header cells link to the presets and name their sources
        head_row = table.next_node(nodes.thead).next_node(nodes.row)
        for entry, preset in zip(list(head_row.children)[2:], spec.presets, strict=True):
            entry.clear()
            heading = para(xref("preset", preset.name, literal=False))
            for c in preset.sources:
                heading += nodes.Text(" · ")
                heading += xref("source", c.key, literal=False)
            entry += heading
        legend = para("A column is a preset, and under its name the source it plays; a value "
                      "is the one the preset sets, which its source states unless it is marked "
                      f"{UNCITED} (then the preset's note, under Presets, says why it is set "
                      "so); “·” means the preset keeps the default, because its source is "
                      "silent or states the default itself.", classes=["ch-note"])
        return [legend, table]


#: the mark of a value a preset sets that its source is not cited for
UNCITED = "◇"


def _value_lines(value: object) -> list[str | nodes.Node]:
    """A value for a narrow cell: a list breaks after each comma; a word after a hyphen."""
    text = _value_text(value)
    out: list[str | nodes.Node] = []
    for i, item in enumerate(text.split(", ")):
        if i:
            out.append(nodes.raw("", ",<br>", format="html"))
            out.append(nodes.raw("", ", ", format="text"))
        out.append(nodes.Text(item))
    return out


def _matrix_cell(sw: Switch, p: Preset) -> nodes.paragraph:
    """The value ``p`` sets, or "·" where it keeps the default (also when it names it)."""
    if sw.name in p.values and p.values[sw.name] != sw.default:
        value = p.values[sw.name]
        cell = nodes.paragraph(classes=["ch-set"])
        strong = nodes.strong()
        strong += text(*_value_lines(value))
        cell += strong
        keys = {c.key for c in p.sources}
        cited = any(c.key in keys for v in sw.values if v.value == value for c in v.sources)
        if not cited:
            cell += nodes.inline(UNCITED, f" {UNCITED}", classes=["ch-uncited"])
        return cell
    cell = nodes.paragraph(classes=["ch-filled"])
    cell += nodes.inline("·", "·", classes=["ch-dot"])
    return cell


class SwitchListDirective(SphinxDirective):
    """``.. switch-list::``: one section per switch, with its values and their sources."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        out: list[nodes.Node] = []
        for sw in spec.switches:
            section, _ = _object_section(self, "switch", sw.name, f"switch {sw.name}")
            section += para(*linkify(sw.description, spec))
            facts = nodes.field_list(classes=["ch-facts"])
            facts += field("Type", para(_type_text(sw)))
            facts += field("Default", para(nodes.literal("", _value_text(sw.default))))
            rules: list[nodes.Node] = []
            for i, r in enumerate(sw.rules):
                if i:
                    rules.append(nodes.Text(", "))
                rules.append(xref("rule", r))
            facts += field("Changes", para(*rules))
            section += facts
            rows = []
            for v in sw.values:
                sources = nodes.bullet_list(classes=["ch-compact"])
                for c in v.sources:
                    li = nodes.list_item()
                    li += para(*_citation(c))
                    sources += li
                rows.append([para(nodes.literal("", _value_text(v.value))),
                             para(*linkify(v.meaning, spec)), sources])
            section += _table((20, 45, 35), ("Value", "Meaning", "Sources"), rows,
                              classes=["ch-values"])
            out.append(section)
        return out


def _type_text(sw: Switch) -> str:
    if sw.type != "integer":
        return sw.type
    low = "" if sw.minimum is None else f"{sw.minimum}"
    high = "" if sw.maximum is None else f"{sw.maximum}"
    if low and high:
        return f"integer, {low} to {high}"
    if low:
        return f"integer, {low} or more"
    return "integer"


class PresetListDirective(SphinxDirective):
    """``.. preset-list::``: one section per preset."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec = context.spec(self.env)
        out: list[nodes.Node] = []
        for p in spec.presets:
            section, title = _object_section(self, "preset", p.name,
                                             f"preset {p.name}: {p.title}")
            title += nodes.Text(f" · {p.title}")
            facts = nodes.field_list(classes=["ch-facts"])
            cites: list[nodes.Node] = []
            for c in p.sources:
                cites += [xref("source", c.key, literal=False), nodes.Text(" "),
                          _url(c.url), nodes.Text(" ")]
            facts += field("Source", para(*cites))
            if p.values:
                items: list[nodes.Node] = []
                for i, (name, value) in enumerate(p.values.items()):
                    if i:
                        items.append(nodes.Text("; "))
                    items += [xref("switch", name), nodes.Text(" = "),
                              nodes.literal("", _value_text(value))]
                facts += field("Sets", para(*items))
            else:
                facts += field("Sets", para("nothing: every switch at its default"))
            filled: list[nodes.Node] = []
            for i, name in enumerate(p.filled):
                if i:
                    filled.append(nodes.Text(", "))
                filled.append(xref("switch", name))
            facts += field("Default for", para(*filled) if filled else para("—"))
            facts += field("Command line", para(nodes.literal(
                "", f"rules-ref play --preset {p.name}")))
            section += facts
            section += para(*linkify(p.note, spec))
            out.append(section)
        return out


class UnsupportedListDirective(SphinxDirective):
    """``.. unsupported-list::``: what published sources do that no ruleset expresses."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        spec: Spec = context.spec(self.env)
        rows = [[para(xref("source", u.source, literal=False)), para(*linkify(u.feature, spec)),
                 para(*linkify(u.reason, spec))] for u in spec.unsupported]
        return [_table((12, 40, 48), ("Source", "Feature", "Why it is not supported"), rows,
                       classes=["ch-unsupported"])]
