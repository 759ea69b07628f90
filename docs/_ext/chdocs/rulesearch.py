"""The site's search finds rules by the words players use, ranked as ``rules-ref rules --search``.

The search page of the site lists, above the pages Sphinx finds, the rules
that :func:`rules_ref.cli.search.search` ranks for the words searched: a
common name of ``spec/glossary.toml`` (``black maria``, ``set aside``,
``kitty``) leads to its rules first, then the rules whose title, ID or
statement hold the words. After an HTML build :func:`write_words` writes what
that ranking reads to ``_static/rule-words.js`` (the rules, the glossary and
the words too common to count) and copies the ranking, kept beside this
extension, to ``_static/rulesearch.js``; the search page loads both. One glossary, read
by both; ``tests/docs/test_layout.py`` checks that the page and the command
put the same rule first for a list of common phrases.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from rules_ref import registry
from rules_ref.cli.search import STOPWORDS

from .domain import ChDomain

#: the data file the search page loads, in the site's _static folder
WORDS_FILE = "rule-words.js"
#: the ranking in the browser, kept beside this extension and copied into the site's _static
RANKING = Path(__file__).parent / "static" / "rulesearch.js"


def rule_words(links: dict[str, str]) -> dict[str, Any]:
    """What the ranking reads: each rule (with the address of its page), each common name."""
    return {
        "stopwords": sorted(STOPWORDS),
        "glossary": [{"term": t.term, "aliases": list(t.aliases), "rules": list(t.rules)}
                     for t in registry.glossary()],
        "rules": [{"id": r.id, "title": r.title, "statement": r.statement,
                   "href": links.get(r.id, "")} for r in registry.load().rules],
    }


def write_words(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build: ``_static/rule-words.js``, the rules and the glossary."""
    if exception is not None or app.builder.name != "html":
        return
    domain = app.env.get_domain("ch")
    assert isinstance(domain, ChDomain)
    links = {name: f"{app.builder.get_target_uri(entry.docname)}#{entry.anchor}"
             for name, entry in domain.entries("rule")}
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    data = json.dumps(rule_words(links), ensure_ascii=False, sort_keys=True)
    (static / WORDS_FILE).write_text(f"window.chRuleWords = {data};\n", encoding="utf-8")
    # the ranking travels with this extension, so any site built with it has the file it links
    shutil.copyfile(RANKING, static / RANKING.name)


def search_page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                doctree: object) -> None:
    """On the search page only: the rules' words and the ranking that reads them."""
    if pagename == "search":
        app.add_js_file(WORDS_FILE)
        app.add_js_file("rulesearch.js")
