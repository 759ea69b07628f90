"""The pages that answer questions with the reference engine itself, run in the browser.

``.. ask-page:: trick`` (or ``plays``, ``game``) puts on a page the form of
the trick resolver, the legal-plays consultant or the game viewer, and the
script that runs them (``_static/ask/ask.js``). The script loads Pyodide
(the npm package ``pyodide``, pinned in ``package.json`` and installed by the
set-up into ``node_modules``) and the engine from the built site only, and
runs :mod:`rules_ref.cli.pages`: the same commands as the command line.

On a site that sets ``chdocs_pyodide`` (the folder of the npm package, in
``node_modules``), after an HTML build :func:`bundle` copies Pyodide's runtime into
``_static/pyodide/``, writes the engine (``rules_ref`` and the ``spec/`` files it
reads, as the wheel carries them) to ``_static/ask/engine.zip``, and the page
of each rule ID to ``_static/ask/rules.json``, so that a page links every
rule it names. Without Pyodide installed the build warns (an error under
``-W``), naming the command that installs it; so does an ask page on a site
that does not set ``chdocs_pyodide``.
"""

from __future__ import annotations

import html
import json
import shutil
import zipfile
from pathlib import Path

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from rules_ref.deal import MAX_PLAYERS
from rules_ref.ruleset import presets

from . import context
from .domain import ChDomain

logger = logging.getLogger(__name__)

#: the files of the npm package that a page loads (the runtime, the standard library)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: the spec files the engine reads at run time (rules_ref.registry.spec_dir)
SPEC_FILES = "*.toml"
#: a fixed date for the files of the engine's zip, so the same sources give the same bytes
ZIP_DATE = (2026, 1, 1, 0, 0, 0)

LOADING = ("Loading the rules engine: Python and the reference engine run in this page "
           "(about 13 MB the first time, then from the browser's cache)…")

FORMS = {
    "trick": """
<form class="ch-ask-form" id="ask-form" autocomplete="off">
  <label for="ask-cards">The cards of the trick, in play order, the first one led</label>
  <input id="ask-cards" name="cards" type="text" spellcheck="false"
         value="10♠ 9♥ 9♥ 10♠ K♠ 3♠" placeholder="10S 9H 9H 10S KS 3S">
  <p class="ch-ask-hint">Any notation of the rules: <code>QS</code>, <code>10h</code>,
  <code>th</code>, <code>Q♠</code>, separated by spaces or commas. Or pick them:</p>
  <div class="ch-picker" id="ask-picker" aria-label="Pick cards"></div>
  <div class="ch-ask-row">
    <label>Seat of the first card <input id="ask-leader" name="leader" type="number"
           min="0" max="10" value="0"></label>
    <label>Players <select id="ask-players" name="players">
      <option value="">as many as the cards</option>
      {players}
    </select></label>
  </div>
  <div class="ch-ask-row">
    <button type="submit" id="ask-go" disabled>Resolve the trick</button>
    <button type="button" id="ask-clear">Clear the cards</button>
  </div>
</form>""",
    "plays": """
<form class="ch-ask-form" id="ask-form" autocomplete="off">
  <label for="ask-position">A position, as text or JSON
  (<a href="{position_page}">positions</a>)</label>
  <textarea id="ask-position" name="position" rows="4" spellcheck="false"></textarea>
  <div class="ch-ask-row">
    <label>Ruleset <select id="ask-preset" name="preset">{presets}</select></label>
  </div>
  <details class="ch-ask-more"><summary>Or switch values (JSON, as <code>--ruleset</code>
  reads them)</summary>
  <textarea id="ask-switches" name="switches" rows="3" spellcheck="false"
            placeholder='{{"first_trick_points": "allowed"}}'></textarea>
  <p class="ch-ask-hint">When given, these values are the ruleset and the preset is not
  used; a switch not given keeps its default.</p>
  </details>
  <div class="ch-ask-row">
    <button type="submit" id="ask-go" disabled>Which cards may be played?</button>
    <button type="button" id="ask-example" disabled>An example position</button>
  </div>
  <div class="ch-ask-row ch-ask-continue-row">
    <button type="button" id="ask-continue" disabled>Continue from here</button>
    <label>Seed <input id="ask-seed" name="seed" type="number" min="0" value="1"></label>
    <label>You play <select id="ask-seat" name="seat">
      <option value="">no seat (built-in players)</option>
      {seats}
    </select></label>
  </div>
  <p class="ch-ask-hint">Continue from here plays the rest of the deal from the position
  with the built-in players, as <code>rules-ref play --from POSITION --seed SEED</code>
  does; with a seat chosen, you play that seat (<code>--seat N</code>).</p>
  <details class="ch-ask-more" id="ask-builder"><summary>Or build the position from a hand and
  the trick so far</summary>
  <label for="ask-hand">The hand of the seat to play</label>
  <input id="ask-hand" name="hand" type="text" spellcheck="false"
         placeholder="2C 5C 9C 3D 4D 8D QD 2H 5H 9H KH AH 3S 7S 9S">
  <label for="ask-trick">The cards played to the trick so far (none if you lead)</label>
  <input id="ask-trick" name="trick" type="text" spellcheck="false" placeholder="KC 4C">
  <div class="ch-ask-row">
    <label>Trick <input id="ask-trick-number" name="trick_number" type="number" min="1"
           max="20" value="2"></label>
    <label>Players <select id="ask-build-players" name="build_players">{build_players}
    </select></label>
    <label><input id="ask-hearts-broken" name="hearts_broken" type="checkbox"> hearts are
    broken</label>
  </div>
  <p class="ch-ask-hint">The other seats' cards are laid out where the rules allow; the
  position is shown with the answer, to copy.</p>
  <div class="ch-ask-row">
    <button type="button" id="ask-build" disabled>Build it and ask</button>
  </div>
  </details>
</form>""",
    "game": """
<form class="ch-ask-form" id="ask-form" autocomplete="off">
  <label for="ask-game">A game record (<code>rules-ref play --json</code>), a
  <code>conform</code> replay file or a position</label>
  <textarea id="ask-game" name="game" rows="5" spellcheck="false"></textarea>
  <div class="ch-ask-row">
    <label>or open a file <input id="ask-file" name="file" type="file"
           accept=".json,.txt,application/json,text/plain"></label>
  </div>
  <div class="ch-ask-row">
    <button type="submit" id="ask-go" disabled>Show the game</button>
    <button type="button" id="ask-example" disabled>An example game</button>
  </div>
</form>""",
}


class AskPageDirective(SphinxDirective):
    """``.. ask-page:: trick|plays|game``: the form, the engine's status and its answer."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        kind = self.arguments[0]
        if kind not in FORMS:
            raise self.error(f"ask-page: {kind!r} is not one of {', '.join(FORMS)}")
        if not self.config.chdocs_pyodide:
            raise self.error("ask-page: the site sets no chdocs_pyodide (the folder of the npm "
                             "package pyodide), so the page would have no engine to run")
        self.env.note_reread()  # read again when the extension or the engine (presets) change
        up = "../" * self.env.docname.count("/")
        players = "".join(f'<option value="{n}">{n}</option>' for n in range(5, 12))
        options = "".join(f'<option value="{html.escape(name)}">{html.escape(name)}'
                          f'{" (the default)" if i == 0 else ""}</option>'
                          for i, name in enumerate(presets()))
        build_players = "".join(f'<option value="{n}"{" selected" if n == 6 else ""}>{n}'
                                "</option>" for n in range(5, 12))
        seats = "".join(f'<option value="{n}">seat {n}</option>' for n in range(MAX_PLAYERS))
        form = FORMS[kind].format(players=players, presets=options, build_players=build_players,
                                  seats=seats,
                                  position_page=f"{up}implementers/position.html")
        page = (f'<div class="ch-ask" id="ask" data-page="{kind}" data-root="{up}">{form}\n'
                f'<p class="ch-ask-status" id="ask-status" role="status">'
                f"{html.escape(LOADING)}</p>\n"
                '<p class="ch-ask-error" id="ask-error" role="alert" hidden></p>\n'
                '<div class="ch-ask-result" id="ask-result" aria-live="polite"></div>\n'
                '<noscript><p>This page runs the rules engine in the browser and needs '
                "JavaScript.</p></noscript></div>\n"
                f'<script type="module" src="{up}_static/ask/ask.js"></script>')
        return [nodes.raw("", page, format="html")]


def bundle(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build: Pyodide, the engine's zip and the rule links into ``_static``."""
    if exception is not None or app.builder.name != "html" or not app.config.chdocs_pyodide:
        return
    root = context.root(app.env)
    static = Path(app.outdir) / "_static"
    source = Path(app.config.chdocs_pyodide)
    missing = [name for name in PYODIDE_FILES if not (source / name).is_file()]
    if missing:
        logger.warning("ask pages: Pyodide is not installed (%s missing from %s): run `make "
                       ".venv/.installed` or `npm ci`, which install the version pinned in "
                       "package-lock.json", ", ".join(missing), source,
                       type="chdocs", subtype="pyodide")
    else:
        target = static / "pyodide"
        target.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            copy = target / name
            if not copy.is_file() or copy.stat().st_size != (source / name).stat().st_size \
                    or copy.stat().st_mtime < (source / name).stat().st_mtime:
                shutil.copy2(source / name, copy)
    ask = static / "ask"
    ask.mkdir(parents=True, exist_ok=True)
    write_engine(root, ask / "engine.zip")
    domain = app.env.get_domain("ch")
    assert isinstance(domain, ChDomain)
    links = {name: f"{app.builder.get_target_uri(entry.docname)}#{entry.anchor}"
             for name, entry in domain.entries("rule")}
    (ask / "rules.json").write_text(json.dumps(links, indent=0, sort_keys=True),
                                    encoding="utf-8")


def engine_files(root: Path) -> list[tuple[Path, str]]:
    """The engine as the page imports it: each file and its name in the zip."""
    package = root / "rules_ref"
    files = [(p, p.relative_to(root).as_posix()) for p in sorted(package.rglob("*.py"))
             if "__pycache__" not in p.parts]
    files += [(p, f"rules_ref/_spec/{p.name}") for p in sorted((root / "spec").glob(SPEC_FILES))]
    return files


def write_engine(root: Path, out: Path) -> None:
    """The zip of :func:`engine_files`, written only when its bytes change."""
    temp = out.with_suffix(".tmp")
    with zipfile.ZipFile(temp, "w", zipfile.ZIP_DEFLATED) as z:
        for path, name in engine_files(root):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    if out.is_file() and out.read_bytes() == temp.read_bytes():
        temp.unlink()
    else:
        temp.replace(out)
