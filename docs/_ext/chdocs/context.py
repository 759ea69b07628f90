"""What every generated page shares: the spec, the traceability data and the repository root.

Both are read once per build (the caches are cleared when a build starts).
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
