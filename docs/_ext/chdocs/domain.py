"""The ``ch`` domain: rule IDs, switches, presets, sources, ambiguities and examples.

Every object is a search-index entry (so the built-in search finds
``TRICK.CANCEL`` as an object, not only as words on a page) and a target for
the ``:rule:``, ``:switch:``, ``:preset:``, ``:source:``, ``:ambiguity:``,
``:decision:`` and ``:example:`` roles, which work on every page without a
domain prefix.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from typing import Any, ClassVar, NamedTuple

from docutils import nodes  # type: ignore[import-untyped]
from docutils.utils.smartquotes import smartyPants  # type: ignore[import-untyped]
from sphinx import addnodes
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util.nodes import make_refnode

DOMAIN = "ch"

#: object type -> (label shown in search results, prefix of the HTML anchor)
OBJECT_TYPES: dict[str, tuple[str, str]] = {
    "rule": ("rule", ""),
    "switch": ("ruleset switch", "switch-"),
    "preset": ("preset", "preset-"),
    "source": ("rule source", "source-"),
    "ambiguity": ("ambiguity of the seed text", "ambiguity-"),
    "decision": ("project decision", "decision-"),
    "example": ("worked example", "example-"),
    "command": ("command", "cli-"),
    "evidence": ("traceability of a rule", "trace-"),
}


def anchor(objtype: str, name: str) -> str:
    """The HTML id of an object: a stable slug, e.g. ``trick-cancel`` for ``TRICK.CANCEL``."""
    slug: str = nodes.make_id(name)
    return OBJECT_TYPES[objtype][1] + slug


class Entry(NamedTuple):
    docname: str
    anchor: str
    title: str  # shown as the link's hover text
    rules: tuple[str, ...]  # for examples: the rules they illustrate
    line: int = 0  # where on its page it is defined (orders examples)


class ChRole(XRefRole):
    """A cross-reference into the ``ch`` domain, usable without the domain prefix."""

    def __init__(self, objtype: str) -> None:
        super().__init__(warn_dangling=True)
        self.objtype = objtype

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        self.name = f"{DOMAIN}:{self.objtype}"
        return super().run()

    def process_link(self, env: BuildEnvironment, refnode: nodes.Element,
                     has_explicit_title: bool, title: str, target: str) -> tuple[str, str]:
        return title, target.strip()


def xref(objtype: str, target: str, text: str | None = None,
         literal: bool = True) -> addnodes.pending_xref:
    """A reference node to a ``ch`` object, for generated content."""
    inner_cls = nodes.literal if literal else nodes.inline
    ref: addnodes.pending_xref = addnodes.pending_xref(
        "", refdomain=DOMAIN, reftype=objtype, reftarget=target, refexplicit=text is not None,
        refwarn=True)
    ref += inner_cls(text or target, text or target,
                     classes=["xref", DOMAIN, f"{DOMAIN}-{objtype}"])
    return ref


class ChDomain(Domain):
    name = DOMAIN
    label = "Cancellation Hearts"
    object_types: ClassVar[dict[str, ObjType]] = {
        t: ObjType(label, t) for t, (label, _) in OBJECT_TYPES.items()}
    roles: ClassVar[dict[str, Any]] = {t: ChRole(t) for t in OBJECT_TYPES}
    initial_data: ClassVar[dict[str, Any]] = {"objects": {}}
    dangling_warnings: ClassVar[dict[str, str]] = {
        "rule": "unknown rule ID %(target)s (not in spec/rules.toml)",
        "switch": "unknown switch %(target)s (not in spec/variants.toml)",
        "preset": "unknown preset %(target)s (not in spec/variants.toml)",
        "source": "unknown source key %(target)s (not in spec/sources.toml)",
        "ambiguity": "%(target)s is settled by no rule of spec/rules.toml",
        "decision": "%(target)s is the decision of no rule of spec/rules.toml",
        "example": "unknown worked example %(target)s",
        "command": "unknown command %(target)s",
        "evidence": "%(target)s is on no traceability page",
    }

    @property
    def objects(self) -> dict[tuple[str, str], Entry]:
        objects: dict[tuple[str, str], Entry] = self.data["objects"]
        return objects

    def note_object(self, objtype: str, name: str, docname: str, title: str,
                    rules: tuple[str, ...] = (), line: int = 0) -> str:
        """Record an object defined on ``docname``; return its anchor."""
        node_id = anchor(objtype, name)
        self.objects[objtype, name] = Entry(docname, node_id, title, rules, line)
        return node_id

    def clear_doc(self, docname: str) -> None:
        for key, entry in list(self.objects.items()):
            if entry.docname == docname:
                del self.objects[key]

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key, entry in otherdata["objects"].items():
            if entry.docname in docnames:
                self.objects[key] = entry

    def examples_for(self, rule_id: str) -> list[tuple[str, Entry]]:
        """The examples that illustrate ``rule_id``, in the order the site reads."""
        order = reading_order(self.env)
        return sorted(((name, e) for (t, name), e in self.objects.items()
                       if t == "example" and rule_id in e.rules),
                      key=lambda x: (order.get(x[1].docname, len(order)), x[1].line))

    def entries(self, objtype: str) -> list[tuple[str, Entry]]:
        return sorted((name, e) for (t, name), e in self.objects.items() if t == objtype)

    def resolve_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder,
                     typ: str, target: str, node: addnodes.pending_xref,
                     contnode: nodes.Element) -> nodes.reference | None:
        if typ == "impl":
            return resolve_implementation(env, fromdocname, builder, target, contnode)
        entry = self.objects.get((typ, target))
        if entry is None:
            return None
        if typ == "example" and not node.get("refexplicit"):
            contnode = nodes.inline(entry.title, entry.title, classes=["ch-example-ref"])
        return make_refnode(builder, fromdocname, entry.docname, entry.anchor, contnode,
                            entry.title)

    def resolve_any_xref(self, env: BuildEnvironment, fromdocname: str, builder: Builder,
                         target: str, node: addnodes.pending_xref,
                         contnode: nodes.Element) -> list[tuple[str, nodes.reference]]:
        found = []
        for objtype in OBJECT_TYPES:
            entry = self.objects.get((objtype, target))
            if entry is not None:
                found.append((f"{DOMAIN}:{objtype}",
                              make_refnode(builder, fromdocname, entry.docname, entry.anchor,
                                           contnode, entry.title)))
        return found

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        """Search entries: rules first (priority 0), the rest after (1); a rule's
        traceability section is none (-1).

        A rule is shown with its title (``VOID.COLLECT: The next winner
        collects the pending pile``), so the search finds it by the words of
        its title as well as by its ID. Every other object is shown by its
        name: the search index shortens an anchor ``TYPE-NAME`` and the search
        page rebuilds it from the shown name, so a shown name other than the
        name (an example's title, say) would open at a missing anchor.

        A title is shown with the page's typographic quotes (``The shooter’s
        choice``, as its heading reads): Sphinx escapes a shown name for HTML
        in the index and the search page escapes it again, so a straight
        quote would be shown as ``&#x27;``.
        """
        for (objtype, name), entry in self.objects.items():
            shown = smartyPants(entry.title, "qDe", "en") if objtype == "rule" else name
            # a rule's traceability is found as its page's text, not as a second entry
            priority = 0 if objtype == "rule" else -1 if objtype == "evidence" else 1
            yield name, shown, objtype, entry.docname, entry.anchor, priority


def reading_order(env: BuildEnvironment) -> dict[str, int]:
    """Docname -> its position in the table of contents, from the root document down."""
    order: dict[str, int] = {}

    def visit(docname: str) -> None:
        if docname in order:
            return
        order[docname] = len(order)
        for child in env.toctree_includes.get(docname, []):
            visit(child)

    visit(env.config.root_doc)
    return order



def resolve_implementation(env: BuildEnvironment, fromdocname: str, builder: Builder,
                           target: str, contnode: nodes.Element) -> nodes.Element:
    """Link a function's qualified name to its API entry, else to its module's, else none.

    Every implementation is listed even when it has no API entry of its own
    (a private helper, say); then the link goes to the module.
    """
    py: Any = env.get_domain("py")
    obj = py.objects.get(target)
    if obj is not None:
        ref: nodes.Element = make_refnode(builder, fromdocname, obj.docname, obj.node_id,
                                          contnode, target)
        return ref
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = py.modules.get(".".join(parts[:cut]))
        if module is not None:
            ref = make_refnode(builder, fromdocname, module.docname, module.node_id, contnode,
                               target)
            return ref
    return contnode


def resolved_link(domain: ChDomain, builder: Builder, fromdocname: str, objtype: str,
                  name: str) -> nodes.Element:
    """A finished link to a ``ch`` object, for content made after references are resolved."""
    inner = nodes.literal(name, name, classes=["xref", DOMAIN, f"{DOMAIN}-{objtype}"])
    entry = domain.objects.get((objtype, name))
    if entry is None:
        return inner
    ref: nodes.Element = make_refnode(builder, fromdocname, entry.docname, entry.anchor, inner,
                                      entry.title)
    return ref


def implementation_xref(qualname: str) -> addnodes.pending_xref:
    ref: addnodes.pending_xref = addnodes.pending_xref(
        "", refdomain=DOMAIN, reftype="impl", reftarget=qualname, refexplicit=True)
    ref += nodes.literal(qualname, qualname, classes=["xref", "py", "py-func"])
    return ref


def all_names(domain: ChDomain, objtype: str) -> Iterable[str]:
    return (name for (t, name) in domain.objects if t == objtype)
