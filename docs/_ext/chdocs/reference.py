"""Reference pages generated from the code and the files of the repository.

``.. cli-reference::`` (from :func:`rules_ref.cli.build_parser`),
``.. schema-files::`` (every JSON Schema under ``spec/schemas/``),
``.. example-record::`` (the game record of a worked deal) and
``.. cli-run::`` (a command of ``rules-ref`` and what it prints, run at build time).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator

from docutils import nodes  # type: ignore[import-untyped]
from docutils.statemachine import StringList  # type: ignore[import-untyped]
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from rules_ref.records.record import record_from_state

from . import context
from .domain import ChDomain
from .render import para
from .scenarios import SCENARIOS, play
from .trace import import_all

logger = logging.getLogger(__name__)

HELP_WIDTH = "88"


def _help(parser: argparse.ArgumentParser) -> str:
    """``parser.format_help()`` at a fixed width, whatever the terminal."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH
    try:
        return parser.format_help()
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def subcommands(parser: argparse.ArgumentParser
                ) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of every subcommand, in the order the CLI lists them."""
    for action in parser._actions:  # argparse offers no public way to list subparsers
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _literal(text: str, language: str = "text") -> nodes.literal_block:
    block = nodes.literal_block(text, text)
    block["language"] = language
    return block


class CliReferenceDirective(SphinxDirective):
    """``.. cli-reference::``: the help of ``rules-ref`` and of every subcommand."""

    def run(self) -> list[nodes.Node]:
        from rules_ref.cli import build_parser

        self.env.note_reread()
        parser = build_parser()
        domain = self.env.get_domain("ch")
        assert isinstance(domain, ChDomain)
        out: list[nodes.Node] = [_literal(_help(parser).rstrip())]
        for name, summary, sub in subcommands(parser):
            command = f"rules-ref {name}"
            node_id = domain.note_object("command", name, self.env.docname,
                                         f"{command}: {summary}")
            section = nodes.section(ids=[node_id], classes=["ch-command"])
            title = nodes.title()
            title += nodes.literal(command, command)
            section += title
            if summary:
                section += para(summary[:1].upper() + summary[1:] + ".")
            section += _literal(_help(sub).rstrip())
            out.append(section)
        return out


class SchemaFilesDirective(SphinxDirective):
    """``.. schema-files::``: every ``*.json`` under ``spec/schemas/``, shown in full."""

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        root = context.root(self.env)
        base = root / "spec" / "schemas"
        files = sorted(base.rglob("*.json")) if base.is_dir() else []
        if not files:
            return [para(nodes.emphasis("", "spec/schemas/ holds no schema yet."))]
        out: list[nodes.Node] = []
        for path in files:
            rel = path.relative_to(root).as_posix()
            self.env.note_dependency(str(path))
            text = path.read_text(encoding="utf-8")
            section = nodes.section(ids=[nodes.make_id("schema-" + rel)], classes=["ch-schema"])
            section += nodes.title(rel, "", nodes.literal(rel, rel))
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                logger.warning("%s is not valid JSON: %s", rel, exc,
                               location=self.get_location(), type="chdocs", subtype="schema")
                data = {}
            about = [str(data[k]) for k in ("title", "description")
                     if isinstance(data, dict) and isinstance(data.get(k), str)]
            if about:
                section += para(" — ".join(about))
            section += _literal(text.rstrip(), "json")
            out.append(section)
        return out


COMPACT_WIDTH = 100


def compact_json(data: object, indent: int = 0) -> str:
    """JSON with every value that fits in :data:`COMPACT_WIDTH` columns on one line."""
    pad = " " * indent
    inner = " " * (indent + 2)
    flat = json.dumps(data, ensure_ascii=False)
    if len(flat) + indent <= COMPACT_WIDTH:
        return flat
    if isinstance(data, dict) and data:
        items = [f"{inner}{json.dumps(k)}: {compact_json(v, indent + 2)}" for k, v in
                 data.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(data, list) and data and any(isinstance(v, dict | list) for v in data):
        items = [f"{inner}{compact_json(v, indent + 2)}" for v in data]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(data, ensure_ascii=False)


class CliRunDirective(SphinxDirective):
    """``.. cli-run:: ARGS``: ``rules-ref ARGS`` and its output, run when the site is built.

    The command runs in a child process on the repository's engine, with UTF-8
    output and no terminal; a command that exits with a status other than 0
    (or the status given as ``:status:``) fails the build.
    """

    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"status": int}  # noqa: RUF012 (docutils reads it from the class)

    def run(self) -> list[nodes.Node]:
        self.env.note_reread()
        args = shlex.split(self.arguments[0])
        root = context.root(self.env)
        env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(root),
               "NO_COLOR": "1", "COLUMNS": HELP_WIDTH}
        result = subprocess.run([sys.executable, "-m", "rules_ref", *args], cwd=root, env=env,
                                capture_output=True, text=True, encoding="utf-8",
                                timeout=300, check=False)
        expected = self.options.get("status", 0)
        if result.returncode != expected:
            raise self.error(f"rules-ref {self.arguments[0]} exited with status "
                             f"{result.returncode}, not {expected}: "
                             f"{(result.stderr or result.stdout).strip()[-300:]}")
        shown = f"$ rules-ref {self.arguments[0]}\n{result.stdout}{result.stderr}".rstrip()
        return [_literal(shown, "console")]


class ExampleRecordDirective(SphinxDirective):
    """``.. example-record:: SCENARIO``: the game record of a worked deal, as JSON."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in SCENARIOS:
            raise self.error(f"unknown scenario {name!r}; known: {', '.join(SCENARIOS)}")
        self.env.note_reread()
        record = record_from_state(play(SCENARIOS[name]).state)
        return [_literal(compact_json(record), "json")]


class AutomodulesDirective(SphinxDirective):
    """``.. automodules:: PACKAGE``: ``automodule`` for every module below the package.

    A module added to the package appears without editing the page.
    """

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        package = self.arguments[0]
        self.env.note_reread()
        source = self.get_source_info()[0]
        out: list[nodes.Node] = []
        for name in import_all(package):
            if name == package:
                continue
            section = nodes.section(ids=[nodes.make_id(f"api-{name}")])
            section += nodes.title(name, "", nodes.literal(name, name))
            self.state.nested_parse(StringList([f".. automodule:: {name}"], source=source),
                                    self.content_offset, section)
            out.append(section)
        return out


#: modules documented elsewhere than in the API pages: the command line has its own page
API_EXEMPT = ("rules_ref.cli",)


def check_api_coverage(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn for every module of the package ``chdocs_api_package`` that no page documents."""
    package: str = app.config.chdocs_api_package
    if not package:
        return
    py: object = env.get_domain("py")
    documented = set(getattr(py, "modules", {}))
    for name in import_all(package):
        if name.startswith(API_EXEMPT) or name in documented:
            continue
        logger.warning("API reference: module %s is documented on no page of docs/api/",
                       name, location="api/index", type="chdocs", subtype="api")
