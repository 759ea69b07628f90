"""Sphinx extension: the Cancellation Hearts rules site, generated from ``spec/`` and the engine.

The modules that need no Sphinx (:mod:`chdocs.spec`, :mod:`chdocs.trace`,
:mod:`chdocs.scenarios`) can be imported on their own: this package imports
Sphinx only when :func:`setup` runs.

After an HTML build, every internal link and search hit of the finished site
is checked (:mod:`chdocs.links`); each one that leads to a missing page or
anchor is a warning, so ``sphinx-build -W`` fails and lists them. Generated
pages are read again only when ``spec/``, the engine, the tests, the vectors or
this extension change (:mod:`chdocs.context`). The highlighted sources and
other pages that are not documents share one sidebar per folder
(:mod:`chdocs.navigation`).

Configuration values (``conf.py``):

``chdocs_root``
    The repository root (default: the parent of the docs directory).
``chdocs_strict``
    When true (the default), every traceability gap (a rule without an
    implementation, a test or a vector, an unknown rule ID in a marker or a
    vector) is a warning, which ``sphinx-build -W`` turns into a failure;
    so is, on a site with an example index, every rule no worked example shows.
    Set it to false only to preview the site while coverage is incomplete:
    the gaps are then logged as information.
``chdocs_tests_dir``, ``chdocs_vectors_dir``
    Where tests and conformance vectors are looked for, relative to the root.
``chdocs_api_package``
    The package whose every module must be documented on some page (API
    pages are checked only when this is set).
``chdocs_pyodide``
    The folder of the npm package ``pyodide`` (in ``node_modules``), for the pages
    that run the engine in the browser (:mod:`chdocs.ask`); empty (the default)
    for a site without them.
``chdocs_external_packages``
    Top-level packages not documented on the site (the standard library,
    Hypothesis): references to their objects through an alias are shown
    unlinked instead of failing the nitpicky build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes  # type: ignore[import-untyped]
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

#: roles usable on every page without the ``ch:`` prefix
GLOBAL_ROLES = ("rule", "switch", "preset", "source", "ambiguity", "decision", "example")


#: whether any page is read in this build (then every generated page is written again)
_READ_THIS_BUILD = False


def _skip(translator: Any, node: nodes.Element) -> None:
    from docutils import nodes

    raise nodes.SkipNode


def _builder_inited(app: Sphinx) -> None:
    from . import context, navigation

    context.clear()
    navigation.clear()
    if app.config.chdocs_pyodide:  # a site with the pages that ask the engine (chdocs.ask)
        app.add_css_file("ask/ask.css")


def _check_examples(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn (an error under ``-W``) for every rule that no worked example shows.

    Only a site with an example index (``.. example-index::``) is held to it.
    """
    from sphinx.util import logging

    from . import context
    from .domain import ChDomain
    from .examples import EXAMPLE_INDEX_KEY
    from .trace import example_problems

    if not any(meta.get(EXAMPLE_INDEX_KEY) for meta in env.metadata.values()):
        return
    domain = env.get_domain("ch")
    assert isinstance(domain, ChDomain)
    spec = context.spec(env)
    examples = {name: entry.rules for name, entry in domain.entries("example")}
    logger = logging.getLogger(__name__)
    for problem in example_problems(spec.rule_ids(), [r.id for r in spec.rules if r.withdrawn],
                                    examples):
        if app.config.chdocs_strict:
            logger.warning("examples: %s", problem, type="chdocs", subtype="example")
        else:
            logger.info("examples (not enforced, chdocs_strict is off): %s", problem)
def _env_updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    from . import context

    context.depend_on_inputs(env)
    return []


def _env_get_outdated(app: Sphinx, env: BuildEnvironment, added: set[str],
                      changed: set[str], removed: set[str]) -> list[str]:
    from . import context

    return context.pages_for_new_inputs(env)


def _env_get_updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    from . import context

    return context.generated_pages(env) if _READ_THIS_BUILD else []


def _env_before_read_docs(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    global _READ_THIS_BUILD
    _READ_THIS_BUILD = bool(docnames)


def _build_finished(app: Sphinx, exception: Exception | None) -> None:
    from pathlib import Path

    from .links import report

    if exception is None and app.builder.name == "html":
        report(Path(app.outdir))


def _doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    from .domain import ChDomain
    from .examples import fill_example_index
    from .pages import fill_rule_examples

    domain = app.env.get_domain("ch")
    assert isinstance(domain, ChDomain)
    fill_rule_examples(doctree, domain, docname, app.builder)
    fill_example_index(doctree, domain, docname, app.builder)


def _viewcode_module(app: Sphinx, modname: str, fullname: str) -> str | None:
    """The module whose source a ``[source]`` link of ``modname.fullname`` shows.

    For the project's modules, always ``modname`` itself: a name a package
    re-exports (``vectors.last_card``) or a type alias (``Step = tuple[...]``,
    whose ``__module__`` is ``builtins``) is then shown without a source link on
    the re-exporting page, and the module that defines it links its own source.
    Following the import instead would tie the defining module's source page to
    the re-exporting page and send its links to anchors that page does not have.
    """
    return modname if modname.startswith("rules_ref") else None


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the domain, roles, directives and checks (imports Sphinx only when called)."""
    from . import navigation, pyrefs, rulesearch
    from .ask import AskPageDirective, bundle
    from .catalogue import CatalogueDirective
    from .diagrams import DealFlowDirective, ProtocolDiagramDirective, TableDiagramDirective
    from .domain import ChDomain, ChRole
    from .examples import (
        DealScenarioDirective,
        ExampleIndexDirective,
        RuleCaseDirective,
        TrickDirective,
        TrickDoctestDirective,
        example_index,
    )
    from .implementations import ImplementationsReportDirective
    from .pages import RuleGroupDirective, RuleIndexDirective, SettledIndexDirective, rule_examples
    from .reference import (
        AutomodulesDirective,
        CliReferenceDirective,
        CliRunDirective,
        ExampleRecordDirective,
        SchemaFilesDirective,
        check_api_coverage,
    )
    from .summary import RuleSummaryDirective
    from .traceability import (
        TraceabilityIndexDirective,
        TraceabilityMatrixDirective,
        check_traceability,
    )
    from .variants import (
        PresetListDirective,
        SourceKeysDirective,
        SwitchListDirective,
        SwitchMatrixDirective,
        UnsupportedListDirective,
    )

    app.add_config_value("chdocs_root", "", "env", types=frozenset({str}))
    app.add_config_value("chdocs_strict", True, "env", types=frozenset({bool}))
    app.add_config_value("chdocs_tests_dir", "tests", "env", types=frozenset({str}))
    app.add_config_value("chdocs_vectors_dir", "spec/vectors", "env", types=frozenset({str}))
    app.add_config_value("chdocs_external_packages", [], "env", types=frozenset({list}))
    app.add_config_value("chdocs_api_package", "", "env", types=frozenset({str}))
    app.add_config_value("chdocs_pyodide", "", "html", types=frozenset({str}))
    app.add_domain(ChDomain)
    for name in GLOBAL_ROLES:
        app.add_role(name, ChRole(name))
    for node_class in (rule_examples, example_index):
        app.add_node(node_class, html=(_skip, None), latex=(_skip, None), text=(_skip, None),
                     man=(_skip, None), texinfo=(_skip, None))
    directives: dict[str, Any] = {
        "rule-group": RuleGroupDirective,
        "rule-index": RuleIndexDirective,
        "rule-summary": RuleSummaryDirective,
        "ambiguity-index": SettledIndexDirective,
        "decision-index": SettledIndexDirective,
        "ambiguity-entries": CatalogueDirective,
        "decision-entries": CatalogueDirective,
        "trick": TrickDirective,
        "trick-doctest": TrickDoctestDirective,
        "deal-scenario": DealScenarioDirective,
        "rule-case": RuleCaseDirective,
        "table-diagram": TableDiagramDirective,
        "deal-flow": DealFlowDirective,
        "protocol-diagram": ProtocolDiagramDirective,
        "example-index": ExampleIndexDirective,
        "example-record": ExampleRecordDirective,
        "source-keys": SourceKeysDirective,
        "switch-matrix": SwitchMatrixDirective,
        "switch-list": SwitchListDirective,
        "preset-list": PresetListDirective,
        "unsupported-list": UnsupportedListDirective,
        "cli-reference": CliReferenceDirective,
        "cli-run": CliRunDirective,
        "schema-files": SchemaFilesDirective,
        "traceability-matrix": TraceabilityMatrixDirective,
        "traceability-index": TraceabilityIndexDirective,
        "automodules": AutomodulesDirective,
        "implementations-report": ImplementationsReportDirective,
        "ask-page": AskPageDirective,
    }
    for name, directive in directives.items():
        app.add_directive(name, directive)
    app.connect("builder-inited", _builder_inited)
    app.connect("env-check-consistency", check_traceability)
    app.connect("env-check-consistency", check_api_coverage)
    app.connect("env-check-consistency", _check_examples)
    app.connect("env-before-read-docs", _env_before_read_docs)
    app.connect("env-get-outdated", _env_get_outdated)
    app.connect("env-updated", _env_updated)
    app.connect("env-get-updated", _env_get_updated)
    app.connect("doctree-resolved", _doctree_resolved)
    app.connect("missing-reference", pyrefs.resolve)
    if "sphinx.ext.viewcode" in app.extensions:
        app.connect("viewcode-follow-imported", _viewcode_module)
    app.connect("build-finished", bundle)
    # the rules' words are written before the links of the built site are checked
    app.connect("build-finished", rulesearch.write_words)
    app.connect("build-finished", _build_finished)
    app.connect("html-page-context", rulesearch.search_page)
    # before the theme draws the sidebar from the toctree (furo's handler, priority 500)
    app.connect("html-page-context", navigation.share_toctree, priority=400)
    app.add_css_file("cards.css")
    return {"version": "1", "env_version": 2, "parallel_read_safe": True,
            "parallel_write_safe": True}
