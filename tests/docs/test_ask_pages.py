"""The pages that ask the engine, in a real browser: each answers as the command line does.

A small site is built with the ``chdocs`` extension (the rule pages, the three
pages of ``docs/ask``), served from 127.0.0.1 and opened in headless Chromium
(Debian's ``chromium`` and ``chromium-driver``, driven by selenium), one browser
for the module. Each page is used as a reader uses it (typing, picking cards,
choosing a preset, opening a file) and what it shows is compared, line for line,
with what ``rules-ref`` prints for the same input, bad input included. Once the
engine is loaded the server refuses every request and the page still answers;
and the browser asked for nothing outside the site.

Without Chromium (``.ci/run`` installs it where it can) the tests are skipped,
and the skip says why.
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import shutil
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules_ref import registry
from rules_ref.actions import Play
from rules_ref.players.game import game_steps
from rules_ref.records.record import record_from_state
from rules_ref.ruleset import preset

from .. import untraced
from ..cli.helpers import program, run
from ..cli.test_plays import FIRST_TRICK
from . import EXT_DIR, ROOT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                       reason="the browser tests need Chromium and ChromeDriver (Debian: "
                              "apt-get install chromium chromium-driver; .ci/run installs them)"),
    pytest.mark.untraced,
]
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

#: the flags that run Chromium here: no sandbox (root), nothing fetched on its own
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1400")
#: the longest wait for the engine to load, or for an answer (a limit, not a measure)
PATIENCE = 240
DATA = ROOT / "tests" / "cli" / "data"

CONF = f"""
import sys
sys.path.insert(0, {str(EXT_DIR)!r})
extensions = ["chdocs"]
chdocs_root = {str(ROOT)!r}
chdocs_strict = False
chdocs_pyodide = {str(ROOT / "node_modules" / "pyodide")!r}
html_static_path = [{str(ROOT / "docs" / "_static")!r}]
"""


def _build(out: Path) -> Path:
    """The rule pages and the ask pages, built as the site builds them; the HTML folder."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    docs = out / "docs"
    (docs / "implementers").mkdir(parents=True)
    shutil.copytree(ROOT / "docs" / "ask", docs / "ask")
    (docs / "conf.py").write_text(CONF)
    (docs / "implementers" / "position.rst").write_text("Positions\n=========\n")
    groups = "\n".join(f".. rule-group:: {g.id}\n" for g in registry.load().groups)
    (docs / "index.rst").write_text(f"Rules\n=====\n\n{groups}\n.. toctree::\n\n   ask/trick\n"
                                    "   ask/plays\n   ask/game\n   implementers/position\n")
    with docutils_namespace():
        Sphinx(str(docs), str(docs), str(out / "html"), str(out / "doctrees"), "html",
               status=None, warning=io.StringIO(), freshenv=True).build()
    return out / "html"


class Site(http.server.SimpleHTTPRequestHandler):
    """The built site; every path asked for is noted, and while ``offline`` none is served."""

    asked: list[str]
    offline: list[bool]

    def do_GET(self) -> None:
        self.asked.append(self.path)
        if self.offline[0]:
            self.send_error(503, "offline")
            return
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Site]]:
    assert (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), (
        "Pyodide is not installed: `make .venv/.installed` installs it (npm ci)")
    with untraced.untraced():
        html = _build(tmp_path_factory.mktemp("site"))
    handler = type("Handler", (Site,), {"asked": [], "offline": [False]})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(html)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler  # type: ignore[misc]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    with tempfile.TemporaryDirectory(prefix="ch-browser-") as profile:
        for flag in (*FLAGS, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        try:
            yield driver
        finally:
            driver.quit()


def _open(browser: WebDriver, base: str, page: str) -> None:
    """Open an ask page and wait until its engine is loaded (unless it is open already)."""
    if browser.current_url.split("?")[0] == f"{base}/ask/{page}.html":
        return  # the question is kept in the address after "?"
    browser.get(f"{base}/ask/{page}.html")
    box = browser.find_element(By.ID, "ask")
    assert "Loading the rules engine" in browser.find_element(By.ID, "ask-status").text or \
        box.get_attribute("data-ready")
    WebDriverWait(browser, PATIENCE).until(lambda _: box.get_attribute("data-ready"))
    status = browser.find_element(By.ID, "ask-status").text
    assert box.get_attribute("data-ready") == "true", status
    assert status.startswith("The rules engine is ready (loaded in ")


def _answered(browser: WebDriver, act: Any) -> None:
    """Do ``act`` (a click, a file chosen) and wait until the page has drawn its answer."""
    box = browser.find_element(By.ID, "ask")
    before = box.get_attribute("data-answered")
    act()
    WebDriverWait(browser, PATIENCE).until(lambda _: box.get_attribute("data-answered") != before)


def _submit(browser: WebDriver) -> None:
    _answered(browser, browser.find_element(By.ID, "ask-go").click)


def _answer(browser: WebDriver) -> list[str]:
    """The lines of the answer shown (no error line with them)."""
    error = browser.find_element(By.ID, "ask-error")
    assert not error.is_displayed(), error.text
    return [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#ask-result li")]


def _error(browser: WebDriver) -> str:
    """The error line shown (and nothing in the answer's place)."""
    line = browser.find_element(By.ID, "ask-error")
    assert line.is_displayed()
    assert browser.find_elements(By.CSS_SELECTOR, "#ask-result *") == []
    return line.text


def _type(field: WebElement, text: str) -> None:
    field.clear()
    field.send_keys(text)


@pytest.mark.rule("TRICK.CANCEL", "TRICK.WINNER", "TRICK.NEXT_LEADER", "SCORE.CARD_POINTS")
def test_the_trick_resolver_answers_as_rules_ref_trick(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str]) -> None:
    base, server = site
    _open(browser, base, "trick")
    cards = browser.find_element(By.ID, "ask-cards")
    _type(cards, "10s 9h")
    for card in ("9H", "10S", "KS", "3S"):  # picked, as a reader clicks them
        browser.find_element(By.CSS_SELECTOR, f'#ask-picker [data-card="{card}"]').click()
    assert cards.get_attribute("value") == "10s 9h 9♥ 10♠ K♠ 3♠"
    server.offline[0] = True  # once loaded, the page needs nothing more from the site
    try:
        _submit(browser)
        shown = _answer(browser)
    finally:
        server.offline[0] = False
    code, out, err = run(["trick", "10s", "9h", "9♥", "10♠", "K♠", "3♠"], capsys)
    assert (code, err) == (0, "")
    assert shown == out.splitlines()[1:]
    assert shown[2] == "Who takes it: seat 4 wins with K♠, the highest uncancelled ♠ (TRICK.WINNER)"
    slots = browser.find_elements(By.CSS_SELECTOR, "#ask-result .ch-slot")
    seats = [s.find_element(By.CLASS_NAME, "ch-seat").text for s in slots]
    faces = [s.find_element(By.CLASS_NAME, "ch-card").text.replace("\n", "") for s in slots]
    assert "  ".join(f"{seat}: {face}" for seat, face in zip(seats, faces, strict=True)) == \
        out.splitlines()[0]
    marks = [(s.get_attribute("class") or "").split() for s in slots]
    assert [("ch-cancelled" in m, "ch-winner" in m) for m in marks] == [(True, False)] * 4 + [
        (False, True), (False, False)]
    link = browser.find_element(By.LINK_TEXT, "TRICK.CANCEL").get_attribute("href")
    assert link is not None and link.endswith("#trick-cancel")
    with urllib.request.urlopen(link) as page:
        assert 'id="trick-cancel"' in page.read().decode("utf-8")


@pytest.mark.rule("VOID.TRICK", "VOID.LEADER")
def test_the_trick_resolver_says_who_leads_after_a_void_trick_and_refuses_bad_cards(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str]) -> None:
    base, _ = site
    _open(browser, base, "trick")
    _type(browser.find_element(By.ID, "ask-cards"), "9H 9H 10H 10H 3C 5D QS")
    _type(browser.find_element(By.ID, "ask-leader"), "2")
    Select(browser.find_element(By.ID, "ask-players")).select_by_value("8")
    _submit(browser)
    shown = _answer(browser)
    code, out, _ = run(["trick", "9H", "9H", "10H", "10H", "3C", "5D", "QS", "--leader", "2",
                        "--players", "8"], capsys)
    assert code == 0
    assert shown == out.splitlines()[1:]
    assert shown[3] == "Then: seat 2 leads again (VOID.LEADER)"
    for bad in (["10S", "1H"], ["QS"] * 3, ["QS", "KS", "AS", "2C", "3C", "4C", "5C", "6C", "7C",
                                            "8C"]):
        _type(browser.find_element(By.ID, "ask-cards"), " ".join(bad))
        _submit(browser)
        code, out, err = run(["trick", *bad, "--leader", "2", "--players", "8"], capsys)
        assert (code, out) == (2, "")
        assert f"rules-ref trick: error: {_error(browser)}\n" == err


def _plays_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run(["plays", *args], capsys)


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "LEAD.OPENING_LEADER")
def test_the_legal_plays_page_answers_as_rules_ref_plays(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base, _ = site
    _open(browser, base, "plays")
    _type(browser.find_element(By.ID, "ask-position"), FIRST_TRICK)
    Select(browser.find_element(By.ID, "ask-preset")).select_by_value("hearts-template")
    _submit(browser)
    shown = _answer(browser)
    code, out, _ = _plays_cli([FIRST_TRICK, "--preset", "hearts-template"], capsys)
    assert code == 0
    assert shown == out.splitlines()
    assert shown[3].startswith("May not play 3♥: 3H is a point card")
    legal = browser.find_elements(By.CSS_SELECTOR, "#ask-result .ch-ask-hand .ch-legal")
    assert len(legal) == 11
    # the same position under the default rules is refused, in the line the command prints
    Select(browser.find_element(By.ID, "ask-preset")).select_by_value("spruce")
    _submit(browser)
    code, out, err = _plays_cli([FIRST_TRICK, "--preset", "spruce"], capsys)
    assert (code, out) == (2, "")
    assert f"rules-ref plays: error: {_error(browser)}\n" == err
    # switch values instead of a preset: the page reads them as --ruleset reads a file
    switches = json.dumps(preset("hearts-template").to_dict())
    browser.find_element(By.CSS_SELECTOR, ".ch-ask-more > summary").click()
    _type(browser.find_element(By.ID, "ask-switches"), switches)
    _submit(browser)
    shown = _answer(browser)
    (tmp_path / "switches.json").write_text(switches)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _plays_cli([FIRST_TRICK, "--ruleset", "switches.json"], capsys)
    assert code == 0
    assert shown == out.splitlines()
    _type(browser.find_element(By.ID, "ask-switches"), '{"first_trick_points": "sometimes"}')
    _submit(browser)
    (tmp_path / "switches.json").write_text('{"first_trick_points": "sometimes"}')
    code, out, err = _plays_cli([FIRST_TRICK, "--ruleset", "switches.json"], capsys)
    assert (code, out) == (2, "")
    assert f"rules-ref plays: error: {_error(browser)}\n" == err
    # the button pressed with the box empty: what to type instead, as the command says it
    _type(browser.find_element(By.ID, "ask-switches"), "")
    browser.find_element(By.ID, "ask-position").clear()
    _submit(browser)
    code, out, err = _plays_cli(["", "--preset", "spruce"], capsys)
    assert (code, out) == (2, "")
    assert f"rules-ref plays: error: {_error(browser)}\n" == err
    assert _error(browser).startswith("position: empty: give a position (spec/position.md) as ")


@pytest.mark.rule("FOLLOW.SUIT", "TURN.ORDER")
def test_the_legal_plays_page_builds_a_position_as_rules_ref_plays_does(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str]) -> None:
    base, _ = site
    _open(browser, base, "plays")
    browser.execute_script("document.getElementById('ask-switches').value = ''")  # the preset
    browser.find_element(By.CSS_SELECTOR, "#ask-builder > summary").click()
    hand = "2C 5C 9C 3D 4D 8D QD 2H 5H 9H KH AH 3S"
    _type(browser.find_element(By.ID, "ask-hand"), hand)
    _type(browser.find_element(By.ID, "ask-trick"), "KC 4C 7H")
    _type(browser.find_element(By.ID, "ask-trick-number"), "2")
    Select(browser.find_element(By.ID, "ask-build-players")).select_by_value("7")
    browser.find_element(By.ID, "ask-hearts-broken").click()
    _answered(browser, browser.find_element(By.ID, "ask-build").click)
    shown = _answer(browser)
    code, out, _ = _plays_cli(["--hand", hand, "--trick", "KC 4C 7H", "--trick-number", "2",
                               "--players", "7", "--hearts-broken", "--preset", "spruce"],
                              capsys)
    assert code == 0
    position = browser.find_element(By.CSS_SELECTOR, "#ask-result .ch-ask-position").text
    assert [position, *shown] == out.splitlines()
    assert browser.find_element(By.ID, "ask-position").get_attribute("value") == \
        position.removeprefix("Position: ")
    _type(browser.find_element(By.ID, "ask-hand"), "2C 5C")
    _answered(browser, browser.find_element(By.ID, "ask-build").click)
    code, out, err = _plays_cli(["--hand", "2C 5C", "--trick", "KC 4C 7H", "--trick-number",
                                 "2", "--players", "7", "--hearts-broken"], capsys)
    assert (code, out) == (2, "")
    assert f"rules-ref plays: error: {_error(browser)}\n" == err


def _log(browser: WebDriver) -> list[str]:
    return browser.find_element(By.ID, "ask-log").text.splitlines()


def _viewer_file(browser: WebDriver, path: Path) -> None:
    """Open ``path`` with the page's file chooser, and wait for its steps or its error."""
    chooser = browser.find_element(By.ID, "ask-file")
    _answered(browser, lambda: chooser.send_keys(str(path)))


@pytest.mark.rule("GAME.END", "FOLLOW.SUIT", "VOID.TRICK")
def test_the_game_viewer_steps_through_files_as_rules_ref_show_prints_them(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base, _ = site
    *_, (_, _, last, _) = game_steps(players=6, seed=3)
    record: dict[str, Any] = record_from_state(last, seed=3)
    (tmp_path / "game.json").write_text(json.dumps(record))
    tampered = json.loads(json.dumps(record))
    trick = tampered["deals"][0]["tricks"][2]["cards"]
    trick[1], trick[2] = trick[2], trick[1]
    (tmp_path / "tampered.json").write_text(json.dumps(tampered))
    (tmp_path / "replay.json").write_bytes((DATA / "replay-void-trick.json").read_bytes())
    monkeypatch.chdir(tmp_path)
    _open(browser, base, "game")
    for name in ("game.json", "tampered.json", "replay.json"):
        _viewer_file(browser, tmp_path / name)
        browser.find_element(By.ID, "ask-last").click()
        code, out, _ = run(["show", name], capsys)
        assert _log(browser) == out.splitlines(), name
        if name != "replay.json":
            code, out, _ = run(["validate", name], capsys)
            verdict = browser.find_element(By.ID, "ask-violations")
            assert [li.text for li in verdict.find_elements(By.TAG_NAME, "li")] == \
                out.splitlines()
            assert code == (0 if name == "game.json" else 1)
    # stepping: the first complete trick is drawn as the record has it
    _viewer_file(browser, tmp_path / "game.json")
    browser.find_element(By.ID, "ask-next-trick").click()
    slots = browser.find_elements(By.CSS_SELECTOR, ".ch-ask-view .ch-slot")
    first = record["deals"][0]["tricks"][0]
    faces = [s.find_element(By.CLASS_NAME, "ch-card").get_attribute("title") for s in slots]
    assert faces == first["cards"]
    winner = [s.find_element(By.CLASS_NAME, "ch-seat").text for s in slots
              if "ch-winner" in (s.get_attribute("class") or "").split()]
    assert winner == ([] if first["winner"] is None else [f"seat {first['winner']}"])
    # a pasted file that is none of the three kinds: the line show prints
    _type(browser.find_element(By.ID, "ask-game"), "{}")
    _submit(browser)
    (tmp_path / "pasted.json").write_text("{}")
    code, out, err = run(["show", "pasted.json"], capsys)
    assert (code, out) == (2, "")
    assert f"rules-ref show: error: {_error(browser)}\n" == err


def test_the_pages_asked_for_nothing_outside_the_site(site: tuple[str, Site],
                                                       browser: WebDriver) -> None:
    base, server = site
    urls = []
    log: list[dict[str, Any]] = browser.get_log("performance")  # type: ignore[no-untyped-call]
    for entry in log:
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    # the browser's own pages (chrome://) are no request; everything else is one
    network = [u for u in urls if not u.startswith(("chrome:", "chrome-untrusted:", "about:"))]
    assert f"{base}/_static/ask/engine.zip" in network
    assert [u for u in network if not u.startswith((base + "/", "data:", "blob:"))] == []
    assert "/_static/pyodide/pyodide.asm.wasm" in server.asked
    assert "/_static/ask/engine.zip" in server.asked


def _continued(browser: WebDriver) -> tuple[list[list[str]], list[str]]:
    """The tricks the page drew after Continue from here (their cards), and its log."""
    error = browser.find_element(By.ID, "ask-error")
    assert not error.is_displayed(), error.text
    tricks = [[c.get_attribute("title") or "" for c in t.find_elements(By.CLASS_NAME, "ch-card")]
              for t in browser.find_elements(By.CSS_SELECTOR, "#ask-tricks .ch-trick")]
    return tricks, browser.find_element(By.ID, "ask-continue-log").text.splitlines()


@pytest.mark.rule("TURN.ORDER", "FOLLOW.SUIT", "SCORE.DEAL")
def test_continue_from_here_plays_the_deal_on_as_rules_ref_play_from(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str]) -> None:
    """The rest of the deal: the cards of ``play --from POSITION --seed 4``, its log line for
    line up to the deal's scores; the address alone gives the same again."""
    from rules_ref.cli.play_from import rest_of_deal, start_state
    from rules_ref.positions import parse_position

    base, _ = site
    code, position, _ = run(["play", "--players", "6", "--seed", "3", "--at", "1.2"], capsys)
    assert code == 0
    position = position.strip()
    _open(browser, base, "plays")
    browser.execute_script("document.getElementById('ask-switches').value = ''")
    _type(browser.find_element(By.ID, "ask-position"), position)
    Select(browser.find_element(By.ID, "ask-preset")).select_by_value("spruce")
    _type(browser.find_element(By.ID, "ask-seed"), "4")
    Select(browser.find_element(By.ID, "ask-seat")).select_by_value("")
    _answered(browser, browser.find_element(By.ID, "ask-continue").click)
    tricks, log = _continued(browser)
    code, out, _ = run(["play", "--from", position, "--seed", "4", "--preset", "spruce"], capsys)
    assert code == 0
    cli = out.splitlines()
    # the command plays on to the end of the game: the page's log is its start, to the scores
    assert cli[:len(log)] == log
    assert log[-4].strip() == "Deal 1 scores (SCORE.DEAL):"
    assert cli[len(log):len(log) + 2] == ["", "Deal 2: seat 1 deals 17 cards to each player"]
    played = rest_of_deal(start_state(parse_position(position), preset("spruce")), 4).steps
    complete = [[str(c) for c in (*before.trick, action.card)]
                for before, action, _, _ in played
                if isinstance(action, Play) and len(before.trick) + 1 == before.players]
    assert tricks == complete and len(tricks) == 16  # tricks 2 to 17 of the deal
    # the address holds the question: opened afresh, it plays the same deal again
    address = browser.current_url
    assert "continue=1" in address and "seed=4" in address
    browser.get("about:blank")
    browser.get(address)
    box = browser.find_element(By.ID, "ask")
    WebDriverWait(browser, PATIENCE).until(lambda _: box.get_attribute("data-answered"))
    assert _continued(browser) == (tricks, log)


@pytest.mark.rule("TURN.ORDER", "FOLLOW.SUIT")
def test_continue_from_here_with_a_seat_asks_the_reader_and_keeps_their_moves(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str]) -> None:
    base, _ = site
    code, position, _ = run(["play", "--players", "6", "--seed", "3", "--at", "1.2"], capsys)
    position = position.strip()
    _open(browser, base, "plays")
    browser.execute_script("document.getElementById('ask-switches').value = ''")
    _type(browser.find_element(By.ID, "ask-position"), position)
    Select(browser.find_element(By.ID, "ask-preset")).select_by_value("spruce")
    _type(browser.find_element(By.ID, "ask-seed"), "4")
    Select(browser.find_element(By.ID, "ask-seat")).select_by_value("2")
    _answered(browser, browser.find_element(By.ID, "ask-continue").click)
    box = browser.find_element(By.ID, "ask")
    assert box.get_attribute("data-waiting") == "playing"
    legal = [b.get_attribute("data-card") for b in
             browser.find_elements(By.CSS_SELECTOR, "#ask-turn .ch-pick:not([disabled])")]
    code, out, _ = run(["plays", position, "--json"], capsys)  # seat 2 leads trick 2
    assert (code, json.loads(out)["seat"]) == (0, 2)
    assert legal == json.loads(out)["legal"]  # hearts not broken: no heart may be led
    _answered(browser, browser.find_element(By.CSS_SELECTOR,
                                            f'#ask-turn [data-card="{legal[0]}"]').click)
    assert f"moves={legal[0]}" in browser.current_url
    tricks, log = _continued(browser)
    assert tricks[0][0] == legal[0]  # the card picked led trick 2
    # the same card typed at the command line's --seat: its log holds the page's, in order,
    # between its questions to the person, and it stops at the same next question
    done = program(["play", "--from", position, "--seed", "4", "--seat", "2", "--preset",
                    "spruce"],
                   stdin=f"{legal[0]}\n")
    assert done.returncode == 1 and "end of input" in done.stderr
    printed = iter(done.stdout.splitlines())
    assert all(any(line == shown for shown in printed) for line in log)
    assert box.get_attribute("data-waiting") == "playing"


@pytest.mark.rule("TURN.OWN_CARD")
def test_the_game_viewer_starts_at_the_first_card_and_jumps_to_a_deal_and_a_violation(
        site: tuple[str, Site], browser: WebDriver, capsys: pytest.CaptureFixture[str],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base, _ = site
    *_, (_, _, last, _) = game_steps(players=6, seed=3)
    record: dict[str, Any] = record_from_state(last, seed=3)
    trick = record["deals"][1]["tricks"][2]["cards"]  # deal 2, trick 3: two cards swapped
    trick[1], trick[2] = trick[2], trick[1]
    (tmp_path / "tampered.json").write_text(json.dumps(record))
    monkeypatch.chdir(tmp_path)
    _open(browser, base, "game")
    _viewer_file(browser, tmp_path / "tampered.json")
    box = browser.find_element(By.ID, "ask")

    def title() -> str:
        return browser.find_element(By.CSS_SELECTOR, ".ch-ask-view .ch-example-title").text

    # the first step shown is the first card played, not the table before the deal
    assert title().startswith("Deal 1, trick 1: playing (step ")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".ch-ask-view .ch-slot")) == 1
    # a complete trick is titled with its own number, not the next one's
    browser.find_element(By.ID, "ask-next-trick").click()
    assert title().startswith("Deal 1, trick 1: playing (step ")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".ch-ask-view .ch-slot")) == 6
    # the row of buttons stays one row at 1280 px
    buttons = browser.find_elements(By.CSS_SELECTOR, "#ask-nav button")
    assert [b.text for b in buttons][-1] == "Last »"
    assert len({b.location["y"] for b in buttons}) == 1
    Select(browser.find_element(By.ID, "ask-jump")).select_by_visible_text("Deal 2")
    assert title().startswith("Deal 2")
    # the violation validate finds: its step, the action the rules refuse
    code, out, _ = run(["validate", "tampered.json", "--json"], capsys)
    found = json.loads(out)["violations"]
    assert code == 1 and [(v["deal"], v["trick"], v["card"]) for v in found] == [(2, 3, 2)]
    choice = Select(browser.find_element(By.ID, "ask-violation"))
    assert choice.options[1].text == "deal 2, trick 3, card 2 (seat 3): TURN.OWN_CARD"
    choice.select_by_index(1)
    step = int(box.get_attribute("data-step") or 0)
    assert title() == f"Deal 2, trick 3: playing (step {step} of {step})"
    assert browser.find_element(By.ID, "ask-step-log").text.endswith(
        f"breaks a rule: {found[0]['rule']}: {found[0]['message']}")
    browser.find_element(By.ID, "ask-first").click()
    browser.find_element(By.CSS_SELECTOR, "#ask-violations .ch-ask-jump").click()
    assert box.get_attribute("data-step") == str(step)


def test_the_viewers_continue_opens_the_plays_page_at_the_step_shown(
        site: tuple[str, Site], browser: WebDriver, tmp_path: Path) -> None:
    from rules_ref.cli import pages

    base, _ = site
    *_, (_, _, last, _) = game_steps(players=6, seed=3)
    text = json.dumps(record_from_state(last, seed=3))
    (tmp_path / "game.json").write_text(text)
    _open(browser, base, "game")
    _viewer_file(browser, tmp_path / "game.json")
    browser.find_element(By.ID, "ask-next-trick").click()
    step = int(browser.find_element(By.ID, "ask").get_attribute("data-step") or 0)
    browser.find_element(By.ID, "ask-continue").click()
    WebDriverWait(browser, PATIENCE).until(lambda _: "/ask/plays.html?" in browser.current_url)
    box = browser.find_element(By.ID, "ask")
    WebDriverWait(browser, PATIENCE).until(lambda _: box.get_attribute("data-answered"))
    at = json.loads(pages.position_at(text, "game.json", step))
    assert browser.find_element(By.ID, "ask-position").get_attribute("value") == at["position"]
    assert json.loads(browser.find_element(By.ID, "ask-switches").get_attribute("value")
                      or "") == at["ruleset"]
    tricks, log = _continued(browser)
    assert log[-4].strip() == "Deal 1 scores (SCORE.DEAL):"
    assert len(tricks) == 16  # 17 tricks of 6 players, the first one shown in the viewer
