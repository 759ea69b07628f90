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

#: run in the page once it is laid out: the sizes, written where --dump-dom prints them
MEASURE = """<script>addEventListener("load", () => {
  const table = document.querySelector("table.ch-matrix");
  const wrapper = table.closest(".table-wrapper");
  const box = table.getBoundingClientRect();
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify({
    window: document.documentElement.clientWidth, right: box.right,
    wrapper: wrapper.clientWidth, scroll: wrapper.scrollWidth,
    columns: table.querySelectorAll("thead th").length});
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


def _measure(html_dir: Path, page: str, width: int) -> dict[str, float]:
    found = re.search(r'<pre id="measured">(.*?)</pre>', _dom(html_dir, page, width))
    assert found
    measured: dict[str, float] = json.loads(found.group(1))
    return measured


@pytest.fixture(scope="module")
def matrix_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = tmp_path_factory.mktemp("matrix") / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(CONF)
    (docs / "index.rst").write_text("Variants\n========\n\n.. switch-matrix::\n\n"
                                    f".. raw:: html\n\n   {MEASURE.replace(chr(10), ' ')}\n")
    # the presets, switches and sources its cells link to are on no page here: each link is
    # drawn as its words alone, as wide as the link
    warnings = _html_build(docs).splitlines()
    assert warnings and all("WARNING: unknown " in w for w in warnings)
    return docs.parent / "html"


def test_the_switch_matrix_shows_every_preset_at_1280_px(matrix_site: Path) -> None:
    """Every column is in the window, and its box needs no sideways scrolling."""
    from rules_ref.ruleset import presets

    m = _measure(matrix_site, "index.html", 1280)
    assert m["columns"] == 2 + len(presets())  # the switch, the default, each preset
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
