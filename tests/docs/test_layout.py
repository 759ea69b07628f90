"""The site in headless Chromium: its wide tables and its search, on pages built with its theme.

Each test builds one small site with the site's theme, stylesheet and search scorer,
opens a page at a given window width in Debian's ``chromium`` and reads what the browser
laid out or found. Without Chromium the tests are skipped, saying so.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from . import EXT_DIR, ROOT
from .test_build import _html_build

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.untraced,
              pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (Debian's chromium "
                                 "package) to lay the page out")]

CONF = f"""
import sys
sys.path.insert(0, {str(EXT_DIR)!r})
extensions = ["chdocs"]
chdocs_root = {str(ROOT)!r}
chdocs_strict = False
html_theme = "furo"
html_static_path = [{str(ROOT / "docs" / "_static")!r}]
html_search_scorer = {str(ROOT / "docs" / "_static" / "scorer.js")!r}
"""

#: run in the page once it is laid out: each table's sizes, written where --dump-dom prints them
MEASURE = """<script>addEventListener("load", () => {
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify(Array.from(document.querySelectorAll("table"), (table) => {
    const wrapper = table.closest(".table-wrapper");
    return {classes: table.className, right: table.getBoundingClientRect().right,
            window: document.documentElement.clientWidth, wrapper: wrapper.clientWidth,
            scroll: wrapper.scrollWidth, columns: table.querySelectorAll("thead th").length};
  }));
  document.body.append(out);
});</script>"""


def _dom(html_dir: Path, page: str, width: int) -> str:
    """The page's DOM once Chromium has run its scripts, at ``width`` px."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(html_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    assert CHROMIUM is not None
    try:
        with tempfile.TemporaryDirectory(prefix="ch-layout-") as profile:
            result = subprocess.run(
                [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--hide-scrollbars", f"--user-data-dir={profile}",
                 f"--window-size={width},1000", "--virtual-time-budget=5000", "--dump-dom",
                 f"http://127.0.0.1:{server.server_address[1]}/{page}"],
                capture_output=True, text=True, timeout=120, check=False)
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


#: the page in a frame ``width`` px wide (a headless window is 500 px wide at least), and,
#: once it is measured, its measures copied out of the frame
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="page" src="{page}" style="width:{width}px;height:1000px;border:0"></iframe>
<script>document.getElementById("page").addEventListener("load", (event) => {{
  const measured = event.target.contentDocument.getElementById("measured");
  document.body.append(document.importNode(measured, true));
}});</script></body></html>"""


def _measure(html_dir: Path, page: str, width: int) -> dict[str, dict[str, float]]:
    """Each table of the page, by its first class: its sizes in a window ``width`` px wide."""
    (html_dir / "frame.html").write_text(FRAME.format(page=page, width=width))
    found = re.search(r'<pre id="measured">(.*?)</pre>', _dom(html_dir, "frame.html", width))
    assert found
    return {t["classes"].split()[0]: t for t in json.loads(found.group(1))}


@pytest.fixture(scope="module")
def matrix_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = tmp_path_factory.mktemp("matrix") / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(CONF)
    (docs / "index.rst").write_text("Variants\n========\n\n.. switch-matrix::\n\n"
                                    ".. source-keys::\n\n"
                                    f".. raw:: html\n\n   {MEASURE.replace(chr(10), ' ')}\n")
    # the presets, switches and sources its cells link to are on no page here: each link is
    # drawn as its words alone, as wide as the link
    warnings = _html_build(docs).splitlines()
    assert warnings and all("WARNING: unknown " in w for w in warnings)
    return docs.parent / "html"


def test_the_switch_matrix_shows_every_preset_at_1280_px(matrix_site: Path) -> None:
    """Every column is in the window, and its box needs no sideways scrolling."""
    from rules_ref.ruleset import presets

    m = _measure(matrix_site, "index.html", 1280)["ch-matrix"]
    assert m["columns"] == 2 + len(presets())  # the switch, the default, each preset
    assert m["scroll"] <= m["wrapper"], m
    assert m["right"] <= m["window"], m


@pytest.mark.parametrize("width", [1280, 390])
def test_the_table_of_sources_fits_the_page_addresses_and_all(matrix_site: Path,
                                                              width: int) -> None:
    m = _measure(matrix_site, "index.html", width)["ch-sources"]
    assert m["window"] == width
    assert m["scroll"] <= m["wrapper"], m
    assert m["right"] <= m["window"], m


SEARCHED = """Moon
====

.. raw:: html

   <svg xmlns="http://www.w3.org/2000/svg"><text>lunar</text><text>diagram</text></svg>

A deal where one player takes every heart and both queens of spades is a lunar deal.
"""


def test_a_search_hit_shows_the_pages_words_not_a_diagrams_labels(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(CONF)
    (docs / "index.rst").write_text(SEARCHED)
    assert _html_build(docs) == ""
    dom = _dom(tmp_path / "html", "search.html?q=lunar", 1280)
    snippets = re.findall(r'<p class="context">(.*?)</p>', dom, flags=re.DOTALL)
    assert len(snippets) == 1, dom[-3000:]
    assert snippets[0] == ("Moon\nA deal where one player takes every heart and both queens "
                           'of spades is a <span class="highlighted">lunar</span> deal.')


#: phrases players use, and the rule each is about: the site's search and `rules --search`
#: must both put that rule first (the glossary, spec/glossary.toml, leads there)
COMMON_PHRASES = {
    "set aside": "VOID.TRICK",
    "black maria": "SCORE.CARD_POINTS",
    "kitty": "DEAL.SIZE",
    "shoot the moon": "MOON.CONDITION",
    "queen of spades": "SCORE.CARD_POINTS",
    "renege": "FOLLOW.SUIT",
    "bleeding": "FOLLOW.FIRST_TRICK",
    "break hearts": "HEARTS.BROKEN",
    "pass left": "PASS.DIRECTION",
    "hold hand": "PASS.DIRECTION",
    "the pass": "PASS.CARDS",
    "slam": "MOON.CONDITION",
    "cancelled trick": "VOID.TRICK",
    "who deals": "DEAL.DEALER",
    "no trump": "DECK.RANKING",
    "game over": "GAME.END",
    "penalty cards": "SCORE.CARD_POINTS",
    "duplicate": "TRICK.CANCEL",
    "discard": "FOLLOW.SUIT",
    "104 cards": "DECK.CARDS",
    "running the table": "MOON.CONDITION",
    "first lead": "LEAD.OPENING_LEADER",
    "pending pile": "VOID.TRICK",
}

#: a page of one frame per phrase, each the site's search page; once all have searched, the
#: rules each lists (its first is its answer), written where --dump-dom prints them
SEARCHES = """<!DOCTYPE html><html><body><pre id="found"></pre><script>
const phrases = {phrases};
const found = {{}};
for (const q of phrases) {{
  const frame = document.createElement("iframe");
  frame.src = "search.html?q=" + encodeURIComponent(q);
  frame.addEventListener("load", () => {{
    const hits = frame.contentDocument.querySelectorAll("#ch-rule-hits li");
    found[q] = Array.from(hits, (li) => li.dataset.rule);
    if (Object.keys(found).length === phrases.length) {{
      document.getElementById("found").textContent = JSON.stringify(found);
    }}
  }});
  document.body.append(frame);
}}
</script></body></html>"""


@pytest.fixture(scope="module")
def rules_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rule pages with the site's theme, search and stylesheet."""
    from rules_ref import registry

    docs = tmp_path_factory.mktemp("rules") / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(CONF)
    groups = "\n".join(f".. rule-group:: {g.id}\n" for g in registry.load().groups)
    (docs / "index.rst").write_text(f"Rules\n=====\n\n{groups}\n"
                                    ".. trick:: 2C 3C 4C 5C 6C 7C 8C 9C 10C 10C QC\n"
                                    "   :name: eleven\n\n"
                                    f".. raw:: html\n\n   {TRICK_MEASURE.replace(chr(10), ' ')}\n")
    _html_build(docs)
    return docs.parent / "html"


def test_the_sites_search_puts_first_the_rule_rules_search_puts_first(rules_site: Path) -> None:
    from rules_ref.cli.search import search

    phrases = list(COMMON_PHRASES)
    (rules_site / "searches.html").write_text(SEARCHES.format(phrases=json.dumps(phrases)))
    found = re.search(r'<pre id="found">(.*?)</pre>', _dom(rules_site, "searches.html", 1280))
    assert found and found.group(1), "the searches did not all finish"
    site = json.loads(found.group(1).replace("&amp;", "&"))
    for phrase, rule in COMMON_PHRASES.items():
        command = [hit.rule.id for hit in search(phrase)]
        assert command[0] == rule, (phrase, command[:3])
        # the page lists the first five the command lists, in its order
        assert site[phrase] == command[:5], phrase


#: run in the page once laid out: where each slot of each trick drawn is (its top, its right)
TRICK_MEASURE = """<script>addEventListener("load", () => {
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify(Array.from(document.querySelectorAll(".ch-trick"), (t) =>
    Array.from(t.querySelectorAll(".ch-slot"), (s) => [s.getBoundingClientRect().top,
                                                        s.getBoundingClientRect().right])));
  document.body.append(out);
});</script>"""


def test_an_eleven_card_trick_stays_on_one_line_at_1280_px(rules_site: Path) -> None:
    found = re.search(r'<pre id="measured">(.*?)</pre>', _dom(rules_site, "index.html", 1280))
    assert found
    tricks = [t for t in json.loads(found.group(1)) if len(t) == 11]
    assert tricks, "no trick of 11 cards drawn"
    for slots in tricks:
        assert len({top for top, _ in slots}) == 1, slots
        assert max(right for _, right in slots) <= 1280
