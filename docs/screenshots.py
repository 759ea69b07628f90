"""Screenshots of the built site in headless Chromium, light and dark, desktop and phone.

Usage (after ``make docs``)::

    python docs/screenshots.py [--out DIR] [--chromium PATH] [--html DIR] [--page NAME=PAGE]

or ``make screenshots``. It serves ``docs/_build/html`` on a local port (no
network), then opens each page below with Chromium three ways: the light
theme, the dark theme (both chosen as a reader does, with the theme switch,
which the site keeps in the browser's storage), and the automatic theme on a
system set to dark (``--force-dark-mode``). Each at 1280 and 390 px wide.
The PNGs land in ``docs/_build/screenshots`` as ``PAGE-MODE-WIDTH.png``, to be
looked at: this is a check by eye, not a test (the widths of the wide tables are
measured by ``tests/docs/test_layout.py``). Then it prints the one-page
summary to ``summary.pdf`` and says how many A4 pages it took (one). Then it
searches the site for "pending pile" as a reader would, shoots the search page
and prints the first hits in order (the void rules should come first).

Last, the pages that run the engine in the browser (``docs/ask``), each with an
answer on it (the question given in the page's address), in the same modes and
widths: these wait for Pyodide to load, so they are driven with selenium and
Debian's ``chromium-driver``, and the time each page took until its engine was
ready is printed.

Chromium is Debian's ``chromium`` package (``apt-get install chromium
chromium-driver``).
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote_plus

DOCS = Path(__file__).resolve().parent

#: name -> page (with its anchor) of the built site
PAGES = {
    "rule": "rules/void.html#void-trick",
    "example": "rules/void.html#example-two-void-tricks",
    "variants": "variants.html#every-switch-every-preset",
    "passing": "rules/passing.html#where-the-cards-go",
    "protocol": "implementers/protocol.html",
    "traceability": "traceability.html",
}
#: name -> page of the site asking the engine a question, answered once the engine is ready
ASK_PAGES = {
    "ask-trick": "ask/trick.html?cards=10S+9H+9H+10S+KS+3S",
    "ask-plays": "ask/plays.html?example",
    "ask-game": "ask/game.html?example&step=24",
}
#: the longest wait for a page's engine and answer (a limit, not a measure)
ASK_PATIENCE = 300
#: mode -> (theme stored as the reader's choice, extra Chromium flags)
MODES: dict[str, tuple[str, tuple[str, ...]]] = {
    "light": ("light", ()),
    "dark": ("dark", ()),
    "system-dark": ("auto", ("--force-dark-mode", "--blink-settings=preferredColorScheme=0")),
}
#: searched for on the search page: its first hits are printed, and it is shot too
SEARCH = "pending pile"
#: width -> window height, in CSS pixels
SIZES = {1280: 1400, 390: 2200}

#: put first in every page served under /__theme/THEME/: the reader's choice of
#: theme, and, as headless Chromium shoots the top of a page whatever its
#: address's anchor, the article's content before that anchor taken out (the
#: page then starts at the anchor, in the page's own layout and styles)
THEME_SCRIPT = """<script>localStorage.setItem("theme", {theme!r});
addEventListener("DOMContentLoaded", () => {{
  let node = location.hash && document.getElementById(location.hash.slice(1));
  while (node && node.tagName !== "ARTICLE") {{
    while (node.previousSibling) node.previousSibling.remove();
    node = node.parentElement;
  }}
}});</script>"""


class Handler(http.server.SimpleHTTPRequestHandler):
    """The built site; under ``/__theme/THEME/`` the same site with THEME chosen.

    The theme keeps the reader's choice in the browser's storage; each page
    served under the prefix stores THEME first, as the theme switch would.
    """

    def do_GET(self) -> None:
        if not self.path.startswith("/__theme/"):
            super().do_GET()
            return
        _, _, theme, rest = self.path.split("/", 3)
        page = rest.split("#", 1)[0].split("?", 1)[0]
        if not page.endswith(".html"):
            self.path = "/" + rest
            super().do_GET()
            return
        path = Path(self.directory) / page
        if not path.is_file():
            self.send_error(404)
            return
        html = path.read_text(encoding="utf-8")
        body = html.replace("<head>", "<head>" + THEME_SCRIPT.format(theme=theme), 1).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def find_chromium(given: str | None) -> str:
    for name in ([given] if given else ["chromium", "chromium-browser", "google-chrome"]):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("screenshots: no Chromium found (install Debian's chromium package, "
                     "or pass --chromium PATH)")


def run_chromium(chromium: str, url: str, flags: Sequence[str]) -> str:
    """Chromium on ``url`` in a fresh profile (nothing carried over); its output."""
    with tempfile.TemporaryDirectory(prefix="ch-chromium-") as profile:
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update",
                   "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
                   "--virtual-time-budget=8000", *flags, url]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                check=False)
    if result.returncode != 0:
        raise SystemExit(f"screenshots: Chromium failed on {url} (exit {result.returncode}): "
                         f"{result.stderr.strip().splitlines()[-1:]}")
    return result.stdout


def shoot(chromium: str, url: str, out: Path, width: int, height: int,
          flags: Sequence[str]) -> None:
    """One screenshot, ``width`` by ``height`` CSS pixels."""
    run_chromium(chromium, url, [f"--window-size={width},{height}", f"--screenshot={out}",
                                 *flags])
    if not out.is_file():
        raise SystemExit(f"screenshots: Chromium wrote no screenshot of {url}")


def pdf_pages(pdf: Path) -> str:
    """How many pages ``pdf`` has (poppler's pdfinfo if installed, else its page objects)."""
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo:
        info = subprocess.run([pdfinfo, str(pdf)], capture_output=True, text=True, check=False)
        for line in info.stdout.splitlines():
            if line.startswith("Pages:"):
                return line.split(":", 1)[1].strip()
    return str(len(re.findall(rb"/Type\s*/Page(?!s)", pdf.read_bytes())))


HIT = re.compile(r'<li[^>]*>\s*<a href="(?P<href>[^"]+)"[^>]*>(?P<title>.*?)</a>', re.DOTALL)


def search_hits(chromium: str, base: str, words: str) -> list[tuple[str, str]]:
    """The search page's hits for ``words``, in order: (link, title)."""
    dom = run_chromium(chromium, f"{base}/search.html?q={quote_plus(words)}", ["--dump-dom"])
    results = dom[dom.find('id="search-results"'):]
    return [(m["href"], html.unescape(re.sub(r"<[^>]+>", "", m["title"])).strip())
            for m in HIT.finditer(results)]


def shoot_ask_pages(chromium: str, base: str, out: Path) -> None:
    """The ask pages, each with its answer, in every mode and width (selenium drives them)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver_path = shutil.which("chromedriver")
    if driver_path is None:
        raise SystemExit("screenshots: no chromedriver for the ask pages (install Debian's "
                         "chromium-driver package)")
    for mode, (theme, flags) in MODES.items():
        with tempfile.TemporaryDirectory(prefix="ch-chromium-") as profile:
            options = webdriver.ChromeOptions()
            options.binary_location = chromium
            for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
                         *flags):
                options.add_argument(flag)
            driver = webdriver.Chrome(options=options, service=Service(driver_path))
            try:
                for name, page in ASK_PAGES.items():
                    driver.get(f"{base}/__theme/{theme}/{page}")
                    WebDriverWait(driver, ASK_PATIENCE).until(
                        lambda d: d.find_element(By.ID, "ask").get_attribute("data-answered"))
                    ready = driver.execute_script("return window.chEngineReadyMs")
                    print(f"{name} ({mode}): engine ready in {ready / 1000:.1f} s")
                    for width, height in SIZES.items():
                        driver.set_window_size(width, height)
                        shot = out / f"{name}-{mode}-{width}.png"
                        driver.save_screenshot(str(shot))
                        print(shot)
            finally:
                driver.quit()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, default=DOCS / "_build" / "html",
                        help="the built site (default: docs/_build/html)")
    parser.add_argument("--out", type=Path, default=DOCS / "_build" / "screenshots",
                        help="where the PNGs go (default: docs/_build/screenshots)")
    parser.add_argument("--chromium", help="the Chromium executable")
    parser.add_argument("--page", action="append", default=[], metavar="NAME=PAGE",
                        help="shoot PAGE (an address in the site, anchor allowed) as NAME "
                             "instead of the pages listed in PAGES; repeatable")
    args = parser.parse_args(argv)
    pages = dict(PAGES)
    if args.page:
        try:
            pages = dict(item.split("=", 1) for item in args.page)
        except ValueError:
            print("screenshots: --page takes NAME=PAGE, e.g. rule=rules/void.html#void-trick",
                  file=sys.stderr)
            return 2
    if not (args.html / "index.html").is_file():
        print(f"screenshots: {args.html} holds no built site; run `make docs` first",
              file=sys.stderr)
        return 2
    chromium = find_chromium(args.chromium)
    args.out.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(Handler, directory=str(args.html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        for name, page in pages.items():
            for mode, (theme, flags) in MODES.items():
                for width, height in SIZES.items():
                    out = args.out / f"{name}-{mode}-{width}.png"
                    shoot(chromium, f"{base}/__theme/{theme}/{page}", out, width, height,
                          flags)
                    print(out)
        out = args.out / "search-light-1280.png"
        shoot(chromium, f"{base}/search.html?q={quote_plus(SEARCH)}", out, 1280, 1400, ())
        print(out)
        pdf = args.out / "summary.pdf"
        run_chromium(chromium, f"{base}/summary.html", ["--no-pdf-header-footer",
                                                        f"--print-to-pdf={pdf}"])
        print(f"{pdf}: {pdf_pages(pdf)} page(s) printed on A4")
        print(f"first hits for {SEARCH!r}:")
        for href, title in search_hits(chromium, base, SEARCH)[:8]:
            print(f"  {title}  ->  {href}")
        if not args.page:
            shoot_ask_pages(chromium, base, args.out)
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
