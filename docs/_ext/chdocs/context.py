"""What every generated page shares: the spec, the traceability data and the repository root.

Both are read once per build (the caches are cleared when a build starts).

A generated page depends on files Sphinx does not know about: ``spec/``, the
engine ``rules_ref`` (every trick is played by it), the tests and the vectors.
Its directive calls ``env.note_reread()``; once the page is read,
:func:`depend_on_inputs` turns that into a dependency on those files, so the
page is read again when one of them changes, not on every build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from .spec import Spec, SpecError, load_spec
from .trace import Trace, collect

logger = logging.getLogger(__name__)

_CACHE: dict[str, Any] = {}


def clear() -> None:
    _CACHE.clear()


def root(env: BuildEnvironment) -> Path:
    """The repository root: config ``chdocs_root``, else the parent of the docs directory."""
    configured: str = env.config.chdocs_root
    return Path(configured) if configured else Path(env.srcdir).parent


def spec_dir(env: BuildEnvironment) -> Path:
    return root(env) / "spec"


#: where the inputs of generated pages live, relative to the root, and which files count
INPUTS = (("spec", "*"), ("rules_ref", "*.py"), ("docs/_ext", "*.py"))


def input_files(env: BuildEnvironment) -> list[Path]:
    """Every file a generated page may be derived from: spec, engine, tests and vectors."""
    cached = _CACHE.get("inputs")
    if isinstance(cached, list):
        return cached
    base = root(env)
    found: set[Path] = set()
    for folder, pattern in (*INPUTS, (env.config.chdocs_tests_dir, "*.py"),
                            (env.config.chdocs_vectors_dir, "*.json")):
        top = base / folder
        if top.is_dir():
            found.update(p for p in top.rglob(pattern)
                         if p.is_file() and "__pycache__" not in p.parts)
    files = sorted(found)
    _CACHE["inputs"] = files
    return files


#: the attribute of the saved environment that holds the input files seen when read
INPUTS_SEEN = "chdocs_inputs_seen"


def depend_on_inputs(env: BuildEnvironment) -> None:
    """Pages marked "read again always" depend on the inputs instead (see the module doc)."""
    pages = sorted(env.reread_always)
    if not pages:
        return
    files = input_files(env)
    for docname in pages:
        for path in files:
            env.note_dependency(path, docname=docname)
    env.reread_always.clear()
    setattr(env, INPUTS_SEEN, [str(p) for p in files])


def pages_for_new_inputs(env: BuildEnvironment) -> list[str]:
    """The generated pages, if an input file was added since they were read, else none.

    A changed or removed input is a changed dependency, which Sphinx sees; a
    new file (a new test module, a new vector file) is not, so it is looked for.
    """
    seen = getattr(env, INPUTS_SEEN, None)
    if seen is None or seen == [str(p) for p in input_files(env)]:
        return []
    return generated_pages(env)


def generated_pages(env: BuildEnvironment) -> list[str]:
    """The pages derived from the inputs (their links to other pages' examples and entries
    are filled in when they are written, so they are written again whenever any page is read)."""
    marker = root(env) / "spec" / "rules.toml"
    return sorted(d for d, deps in env.dependencies.items() if marker in deps)


def spec(env: BuildEnvironment) -> Spec:
    cached = _CACHE.get("spec")
    if not isinstance(cached, Spec):
        try:
            cached = load_spec(spec_dir(env))
        except SpecError as exc:
            raise SpecError(f"the site is generated from spec/: {exc}") from None
        _CACHE["spec"] = cached
    return cached


def trace(env: BuildEnvironment) -> Trace:
    cached = _CACHE.get("trace")
    if not isinstance(cached, Trace):
        s = spec(env)
        cached = collect(root(env), s.rule_ids(), [r.id for r in s.rules if r.withdrawn],
                         tests_dir=env.config.chdocs_tests_dir,
                         vectors_dir=env.config.chdocs_vectors_dir)
        _CACHE["trace"] = cached
    return cached
