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
