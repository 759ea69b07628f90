"""Sphinx configuration of the Cancellation Hearts rules reference.

The site is generated from ``spec/`` and the reference engine by the
``chdocs`` extension in ``docs/_ext``. It builds offline: no intersphinx, no
assets from the network.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))

project = "Cancellation Hearts rules reference"
author = "The rules-ref project"
copyright = "the rules-ref project"
release = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "sphinx.ext.doctest",
    "myst_parser",
    "chdocs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# reports/implementations.md is the report of `make peers` for reading in the repository; the
# site draws the same report from its JSON (implementations.rst)
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store", "reports/implementations.md"]
templates_path: list[str] = []
html_static_path = ["_static"]

html_theme = "furo"
html_title = "Cancellation Hearts rules"
# a pair of identical hearts struck through, drawn for the site (no outside asset)
html_favicon = "_static/favicon.svg"
html_theme_options = {
    "navigation_with_keys": True,
}
# Rule pages first in the search for the words of a rule (see the file).
html_search_scorer = str(DOCS / "_static" / "scorer.js")
html_show_sourcelink = False
html_copy_source = False

nitpicky = True
# The standard library and Hypothesis are not documented here (the build is
# offline, without intersphinx): their names in type hints are the only
# references left unresolved.
EXTERNAL_PACKAGES = sorted(sys.stdlib_module_names | {"hypothesis"})
nitpick_ignore_regex = [
    ("py:.*", r"(" + "|".join(EXTERNAL_PACKAGES) + r")\..*"),
]

autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_preserve_defaults = True
autodoc_default_options = {"members": True, "show-inheritance": True}
autoclass_content = "both"
add_module_names = False
# The contents of an API page list its modules, not each of their thousand-odd functions and
# classes (found by the search, and from each rule's page); every page's navigation is built
# from these contents, so listing the objects made the build a quarter slower.
toc_object_entries = False

myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# Docstring examples in rules_ref are run by `pytest --doctest-modules rules_ref`
# with their module's names; the doctest builder runs the `.. doctest::` blocks
# of the pages.
doctest_test_doctest_blocks = ""
doctest_global_setup = """
from rules_ref import *
from rules_ref.cards import parse_cards, parse_card
from rules_ref.ruleset import PassDirection
from rules_ref.tricks import resolve_trick
"""

chdocs_root = str(ROOT)
# Pyodide, installed by the set-up from package-lock.json (npm ci): the pages of docs/ask run
# the engine in the browser with it, from the built site's own files
chdocs_pyodide = str(ROOT / "node_modules" / "pyodide")
chdocs_api_package = "rules_ref"
chdocs_external_packages = EXTERNAL_PACKAGES
