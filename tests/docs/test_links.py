"""The check over the built site finds exactly the internal links that lead nowhere.

A small site is written by hand: pages in two folders, links with and
without anchors, a stylesheet, links out of the site, and a search index.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import chdocs

links = chdocs("links")

SEARCH_INDEX = {
    "docnames": ["index", "rules/void"],
    "objnames": {"0": ["ch", "rule", "rule"], "1": ["ch", "example", "worked example"]},
    "objects": {
        "Void": [[1, 0, 0, "void-trick", "trick"], [1, 0, 0, "void-gone", "gone"]],
        "": [[1, 1, 1, "-", "two-voids"], [1, 1, 1, "", "void-last"]],
    },
    "alltitles": {"Home": [[0, None]], "Examples": [[1, "examples"]],
                  "Lost": [[1, "lost"]]},
}


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "html"
    (site / "rules").mkdir(parents=True)
    (site / "_static").mkdir()
    (site / "_static" / "cards.css").write_text("")
    (site / "index.html").write_text(
        '<html><head><link rel="stylesheet" href="_static/cards.css">'
        '<link rel="stylesheet" href="_static/gone.css"></head><body id="top">'
        '<a href="rules/void.html#void-trick">ok</a>'
        '<a href="rules/void.html#VOID.TRICK">ok, the ID as anchor</a>'
        '<a href="rules/void.html#void-gone">no such anchor</a>'
        '<a href="rules/moon.html">no such page</a>'
        '<a href="#top">ok</a><a href="#">ok</a><a href="#nowhere">no anchor here</a>'
        '<a href="https://example.org/x.html#y">outside</a><a href="mailto:a@b">mail</a>'
        '<a href="rules/">no index page in rules/</a>'
        '<a name="old-anchor"></a><a data-name="not-an-anchor" data-href="nothing.html"></a>'
        '<a href="#not-an-anchor">no anchor: a data- attribute is not a name</a>'
        '</body></html>')
    (site / "rules" / "void.html").write_text(
        '<html><body><section id="void-trick"><span id="VOID.TRICK"></span>'
        '<div id="example-two-voids"></div><div id="examples"></div>'
        '<a href="../index.html#old-anchor">ok, a named anchor</a>'
        '<a href="../index.html?highlight=x#top">ok, with a query</a>'
        '<a href="../../elsewhere.html">out of the site</a>'
        '<a href="void.html#void%2Dtrick">ok, escaped</a>'
        '</section></body></html>')
    (site / "searchindex.js").write_text(f"Search.setIndex({json.dumps(SEARCH_INDEX)})")
    return site


def test_every_dead_internal_link_and_search_hit_is_listed_once(tmp_path: Path) -> None:
    assert [str(d) for d in links.dead_links(_site(tmp_path))] == [
        "index.html: #not-an-anchor (no anchor #not-an-anchor on index.html)",
        "index.html: #nowhere (no anchor #nowhere on index.html)",
        "index.html: _static/gone.css (no page _static/gone.css)",
        "index.html: rules/ (no page rules/index.html)",
        "index.html: rules/moon.html (no page rules/moon.html)",
        "index.html: rules/void.html#void-gone (no anchor #void-gone on rules/void.html)",
        "rules/void.html: ../../elsewhere.html (no page ../elsewhere.html: outside the site)",
        "searchindex.js (search hit 'Lost'): rules/void.html#lost "
        "(no anchor #lost on rules/void.html)",
        "searchindex.js (search hit 'Void.gone'): rules/void.html#void-gone "
        "(no anchor #void-gone on rules/void.html)",
        "searchindex.js (search hit 'void-last'): rules/void.html#void-last "
        "(no anchor #void-last on rules/void.html)",
    ]


def test_a_site_whose_links_all_lead_somewhere_has_no_dead_link(tmp_path: Path) -> None:
    site = tmp_path / "html"
    site.mkdir()
    (site / "index.html").write_text('<p id="a"><a href="#a">a</a><a href="other.html">b</a>')
    (site / "other.html").write_text('<a href="index.html#a">back</a>')
    assert links.dead_links(site) == []
