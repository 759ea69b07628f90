"""The docs build fails on a traceability gap and on a drawn example the engine contradicts.

A small Sphinx project is built with the ``chdocs`` extension against a copy
of ``spec/`` and fake tests and vectors, once with every rule covered (no
warning at all) and once with gaps (each gap is a warning, which the real
build's ``-W`` turns into a failure).
"""

from __future__ import annotations

import html
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from rules_ref import registry

from . import EXT_DIR, ROOT, chdocs

sphinx_application = pytest.importorskip("sphinx.application")
docutils_namespace = pytest.importorskip("sphinx.util.docutils").docutils_namespace
trace = chdocs("trace")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

CONF = f"""
import sys
sys.path.insert(0, {str(EXT_DIR)!r})
extensions = ["chdocs"]
nitpicky = True
chdocs_root = {{root!r}}
"""

INDEX = """
Test site
=========

{groups}

Examples
========

.. trick:: 10S 9H 9H 10S KS 3S
   :expect: {expect}

Indexes
=======

.. traceability-index::

{matrices}

.. ambiguity-index::

.. decision-index::

.. switch-list::

.. source-keys::

.. toctree::

   implementers/deal
   implementers/notation
   implementers/protocol
"""


def _rules() -> list[str]:
    return [r.id for r in registry.load().rules if r.status != "withdrawn"]


def _project(tmp_path: Path, tested: list[str], expect: str) -> Path:
    root = tmp_path / "repo"
    (root / "spec" / "vectors").mkdir(parents=True)
    for name in ("rules.toml", "variants.toml", "sources.toml"):
        shutil.copy(ROOT / "spec" / name, root / "spec" / name)
    (root / "spec" / "vectors" / "all.json").write_text(json.dumps(
        {"cases": [{"id": "everything", "rules": _rules()}]}))
    (root / "tests").mkdir()
    marks = ", ".join(f'"{r}"' for r in tested)
    (root / "tests" / "test_all.py").write_text(
        f"import pytest\n\n@pytest.mark.rule({marks})\ndef test_all() -> None: ...\n")
    (root / "docs" / "implementers").mkdir(parents=True)
    for page in ("deal", "notation", "protocol"):
        (root / "docs" / "implementers" / f"{page}.rst").write_text(f"{page}\n{'=' * 8}\n")
    (root / "docs" / "conf.py").write_text(CONF.format(root=str(root)))
    groups = "\n".join(f".. rule-group:: {g.id}\n" for g in registry.load().groups)
    matrices = "\n".join(f".. traceability-matrix:: {g.id}\n" for g in registry.load().groups)
    (root / "docs" / "index.rst").write_text(INDEX.format(groups=groups, expect=expect,
                                                          matrices=matrices))
    return root


def _build(root: Path) -> str:
    warnings = io.StringIO()
    with docutils_namespace():
        app = sphinx_application.Sphinx(
            str(root / "docs"), str(root / "docs"), str(root / "out"), str(root / "doctrees"),
            "dummy", status=None, warning=warnings, freshenv=True)
        app.build()
    return ANSI.sub("", warnings.getvalue())


def _dummy_build(root: Path) -> Any:
    """The Sphinx application, after a fresh build of ``root`` with the dummy builder."""
    with docutils_namespace():
        app = sphinx_application.Sphinx(
            str(root / "docs"), str(root / "docs"), str(root / "out"), str(root / "doctrees"),
            "dummy", status=None, warning=io.StringIO(), freshenv=True)
        app.build()
    return app


@pytest.fixture
def every_rule_implemented(monkeypatch: pytest.MonkeyPatch) -> None:
    """Implementations as complete as the fake tests and vectors, whatever the engine's state."""
    monkeypatch.setattr(trace, "implementations",
                        lambda package="rules_ref": {r: ["rules_ref.tricks"] for r in _rules()})


@pytest.mark.untraced
@pytest.mark.usefixtures("every_rule_implemented")
def test_complete_coverage_and_a_true_example_build_without_a_warning(tmp_path: Path) -> None:
    assert _build(_project(tmp_path, _rules(), "winner KS seat 4")) == ""


@pytest.mark.untraced
@pytest.mark.usefixtures("every_rule_implemented")
def test_a_rule_without_a_test_and_a_false_example_are_warnings(tmp_path: Path) -> None:
    tested = [r for r in _rules() if r != "VOID.LAST"] + ["NOPE.NOPE"]
    lines = _build(_project(tmp_path, tested, "void")).splitlines()
    assert [line.split("WARNING: ", 1)[1] for line in lines] == [
        "trick 10S 9H 9H 10S KS 3S: the page expects 'void' but the engine says "
        "'winner KS seat 4' [chdocs.example]",
        "traceability: VOID.LAST has no test [chdocs.traceability]",
        "traceability: unknown rule ID 'NOPE.NOPE' cited by a test "
        "tests/test_all.py::test_all [chdocs.traceability]",
    ]


@pytest.mark.untraced
@pytest.mark.usefixtures("every_rule_implemented")
def test_a_rule_on_no_traceability_page_is_a_warning(tmp_path: Path) -> None:
    root = _project(tmp_path, _rules(), "winner KS seat 4")
    index = root / "docs" / "index.rst"
    index.write_text(index.read_text().replace(".. traceability-matrix:: void\n", ""))
    void = [r.id for r in registry.load().rules if r.group == "void" and r.status != "withdrawn"]
    lines = _build(root).splitlines()
    assert [line.split("WARNING: ", 1)[1] for line in lines if "traceability:" in line] == [
        f"traceability: {r} is on no traceability page (.. traceability-matrix:: void) "
        "[chdocs.traceability]" for r in void]
    assert len(void) == 4


@pytest.mark.untraced
@pytest.mark.usefixtures("every_rule_implemented")
def test_a_rule_names_its_tests_on_its_traceability_page_not_on_its_own(
        tmp_path: Path) -> None:
    """The search shows a page's words around a hit: test names are not a rule's words."""
    doctree = _dummy_build(_project(tmp_path, _rules(), "winner KS seat 4")).env.get_doctree(
        "index")
    docutils_nodes = pytest.importorskip("docutils.nodes")
    sections = [n for n in doctree.findall(docutils_nodes.section)]
    rules = [n for n in sections if "ch-rule" in n["classes"]]
    traced = [n for n in sections if "ch-trace" in n["classes"]]
    assert len(rules) == len(traced) == len(_rules())
    test = "tests/test_all.py::test_all"
    assert [n["ids"][0] for n in rules if test in n.astext()] == []
    assert [n["ids"][0] for n in traced if test not in n.astext()] == []
    assert "1 test, 1 vector (listed on its traceability page)" in rules[0].astext()


LINK_CONF = f"""
import sys
sys.path.insert(0, {str(EXT_DIR)!r})
extensions = ["chdocs"]
chdocs_root = {str(ROOT)!r}
chdocs_strict = False
html_static_path = ["_static"]
"""

LINK_INDEX = """
A page with links
=================

.. raw:: html

   <p id="here"><a href="#here">here</a> <a href="gone.html#x">gone</a>
   <a href="index.html#nowhere">nowhere</a> <a href="https://example.org/">out</a></p>
"""


def _html_docs(tmp_path: Path, conf: str, index: str) -> Path:
    """A docs directory of ``conf.py``, ``index.rst`` and the stylesheet chdocs adds."""
    docs = tmp_path / "docs"
    (docs / "_static").mkdir(parents=True)
    (docs / "conf.py").write_text(conf)
    (docs / "index.rst").write_text(index)
    (docs / "_static" / "cards.css").write_text("")
    return docs


def _html_build(docs: Path) -> str:
    """Build ``docs`` as HTML into ``html`` beside it; the warnings."""
    warnings = io.StringIO()
    with docutils_namespace():
        app = sphinx_application.Sphinx(
            str(docs), str(docs), str(docs.parent / "html"), str(docs.parent / "doctrees"),
            "html", status=None, warning=warnings, freshenv=True)
        app.build()
    return ANSI.sub("", warnings.getvalue())


@pytest.mark.untraced  # coverage stopped: see [tool.coverage.run] in pyproject.toml
def test_an_html_build_warns_once_for_each_dead_internal_link(tmp_path: Path) -> None:
    docs = _html_docs(tmp_path, LINK_CONF, LINK_INDEX)
    lines = _html_build(docs).splitlines()
    assert [line.split("WARNING: ", 1)[1] for line in lines] == [
        "dead internal link: index.html: gone.html#x (no page gone.html) [chdocs.links]",
        "dead internal link: index.html: index.html#nowhere (no anchor #nowhere on index.html) "
        "[chdocs.links]",
        "2 dead internal link(s) in the built site [chdocs.links]",
    ]


def _read_docs(root: Path) -> list[str]:
    """Build ``root`` again on its saved environment; the pages read this time."""
    read: list[str] = []
    with docutils_namespace():
        app = sphinx_application.Sphinx(
            str(root / "docs"), str(root / "docs"), str(root / "out"), str(root / "doctrees"),
            "dummy", status=None, warning=io.StringIO(), freshenv=False)
        app.connect("env-before-read-docs", lambda app, env, docnames: read.extend(docnames))
        app.build()
    return sorted(read)


@pytest.mark.untraced
@pytest.mark.usefixtures("every_rule_implemented")
def test_generated_pages_are_read_again_only_when_an_input_changes(tmp_path: Path) -> None:
    root = _project(tmp_path, _rules(), "winner KS seat 4")
    assert _read_docs(root) == ["implementers/deal", "implementers/notation",
                                "implementers/protocol", "index"]
    assert _read_docs(root) == []
    test_all = root / "tests" / "test_all.py"
    test_all.write_text(test_all.read_text() + "\n")
    assert _read_docs(root) == ["index"]
    (root / "tests" / "test_more.py").write_text("def test_more() -> None: ...\n")
    assert _read_docs(root) == ["index"]
    assert _read_docs(root) == []
    (root / "tests" / "test_more.py").unlink()
    assert _read_docs(root) == ["index"]


@pytest.mark.untraced
@pytest.mark.usefixtures("every_rule_implemented")
def test_search_entries_open_at_their_anchors_and_rules_show_their_titles(
        tmp_path: Path) -> None:
    app = _dummy_build(_project(tmp_path, _rules(), "winner KS seat 4"))
    entries = {(kind, name): (shown, anchor) for name, shown, kind, _doc, anchor, _prio
               in app.env.get_domain("ch").get_objects()}
    title = {r.id: r.title for r in registry.load().rules}["VOID.LAST"]
    assert entries["rule", "VOID.LAST"] == (f"VOID.LAST: {title}", "void-last")
    # as the heading reads; a straight quote would be escaped twice and shown as &#x27;
    assert entries["rule", "MOON.CHOICE"] == ("MOON.CHOICE: The shooter’s choice",
                                              "moon-choice")
    assert [shown for shown, _ in entries.values() if html.escape(shown) != shown] == []
    examples = [(name, shown, anchor) for (kind, name), (shown, anchor) in entries.items()
                if kind == "example"]
    assert len(examples) == 1
    # the search index shortens "example-NAME" and the search page rebuilds it from the shown
    # name, so the shown name must be the name
    assert all(shown == name and anchor == f"example-{name}" for name, shown, anchor in examples)


PROTOCOL_CONF = f"""
import sys
sys.path.insert(0, {str(EXT_DIR)!r})
extensions = ["myst_parser", "chdocs"]
chdocs_root = {str(ROOT)!r}
chdocs_strict = False
html_static_path = ["_static"]
"""


@pytest.mark.untraced
def test_the_protocol_page_shows_the_conversation_before_its_first_section(
        tmp_path: Path) -> None:
    """The real page: the spec's introduction, the diagram, then every section of the spec once."""
    (tmp_path / "spec").mkdir()
    shutil.copy(ROOT / "spec" / "protocol.md", tmp_path / "spec" / "protocol.md")
    docs = _html_docs(tmp_path, PROTOCOL_CONF,
                      "Index\n=====\n\n.. toctree::\n\n   implementers/protocol\n")
    (docs / "implementers").mkdir()
    shutil.copy(ROOT / "docs" / "implementers" / "protocol.md", docs / "implementers")
    assert _html_build(docs) == ""
    page = (tmp_path / "html" / "implementers" / "protocol.html").read_text(encoding="utf-8")
    spec = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")
    # the end of the introduction's first line, after its last markup
    intro = re.split(r"[`*]", spec.split("\n## ", 1)[0].splitlines()[2])[-1].strip()
    assert len(intro) > 10
    sections = re.findall(r"^## (.+)$", spec, flags=re.MULTILINE)
    headings = re.findall(r"<h2>(.*?)<a class=\"headerlink\"", page)
    assert headings == ["The conversation at a glance", *sections]
    diagram = page.index('class="ch-diagram"')
    assert page.index(intro) < diagram < page.index("<h2>Transport<")


DOCTEST_CONF = LINK_CONF + """
extensions = ["sphinx.ext.doctest", "chdocs"]
doctest_global_setup = "from rules_ref.cards import parse_cards\\n"
doctest_global_setup += "from rules_ref.tricks import resolve_trick"
"""

DOCTEST_INDEX = """
Tricks
======

.. trick:: 10S 4S 8S 10S JH 2S
   :name: cancelled-lead
   :leader: 2

.. trick-doctest:: cancelled-lead

   >>> t.winner, str(t.winning_card)
   ({winner}, '8S')
{more}"""


def _doctest(tmp_path: Path, winner: int, more: str = "") -> tuple[int, str, str]:
    """Run the doctest builder on the page; its status, its report and its warnings."""
    docs = _html_docs(tmp_path, DOCTEST_CONF, DOCTEST_INDEX.format(winner=winner, more=more))
    warnings = io.StringIO()
    with docutils_namespace():
        app = sphinx_application.Sphinx(
            str(docs), str(docs), str(tmp_path / "doctest"), str(tmp_path / "doctrees"),
            "doctest", status=None, warning=warnings, freshenv=True)
        app.build()
    report = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8")
    return app.statuscode, report, ANSI.sub("", warnings.getvalue())


@pytest.mark.untraced
@pytest.mark.rule("TRICK.WINNER")
def test_a_trick_doctest_resolves_the_trick_as_drawn(tmp_path: Path) -> None:
    """Its cards, leader and player count are the drawing's: led by seat 2, 8♠ is seat 4's."""
    status, report, warnings = _doctest(tmp_path / "right", 4)
    assert (status, warnings) == (0, "")
    assert "    2 tests\n    0 failures in tests" in report  # the trick, then the question
    status, report, _ = _doctest(tmp_path / "wrong", 2)  # seat 2 would win if seat 0 led
    assert status == 1 and "1 failure in tests" in report


@pytest.mark.untraced
def test_a_trick_doctest_of_no_drawn_trick_is_an_error(tmp_path: Path) -> None:
    _, _, warnings = _doctest(tmp_path, 4, "\n.. trick-doctest:: nowhere\n\n   >>> t\n")
    assert [w.split(": ", 2)[-1] for w in warnings.splitlines() if "trick-doctest" in w] == [
        "trick-doctest: no trick named 'nowhere' is drawn above it on this page [docutils]"]


def test_no_page_resolves_a_trick_by_hand() -> None:
    """Every doctest of a drawn trick comes from its drawing (``trick-doctest``)."""
    pages = [p for p in (ROOT / "docs").rglob("*.rst") if "_build" not in p.parts]
    assert [str(p.relative_to(ROOT)) for p in pages if "resolve_trick(" in p.read_text()] == []
