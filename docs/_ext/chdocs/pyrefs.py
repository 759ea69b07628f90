"""Resolve Python cross-references the way a reader of the docstrings means them.

Docstrings in ``rules_ref`` write ``:class:`GameState``` in the package's
``__init__``, ``:class:`IllegalAction``` in a module that imported it, and the
package re-exports its main names (``rules_ref.Ruleset``). Sphinx looks such
names up only where they are written; this ``missing-reference`` handler then
finds where each object is documented:

1. import the name (in the context module, or as written) and link to the
   object's home (``obj.__module__`` + ``obj.__qualname__``);
2. else link to the one documented object whose name ends with the target;
3. a type variable or a private name (``_History``) is shown unlinked: it is
   not part of the documented API; so is an object whose home is an external
   package of ``chdocs_external_packages`` reached through an alias (``st.X``
   for ``hypothesis.strategies.X``), exactly as ``nitpick_ignore_regex``
   leaves those packages' names written in full;
4. a module-level alias of the context module (a ``Callable`` type alias, say)
   links to that module.

Anything else stays unresolved, and ``-n`` reports it.
"""

from __future__ import annotations

import importlib
from typing import Any, TypeVar

from docutils import nodes  # type: ignore[import-untyped]
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode

_MISSING = object()


def _lookup(dotted: str) -> object:
    """The object named by a dotted path, importing its longest module prefix; or _MISSING."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        except Exception:  # a module that cannot be imported names nothing here
            return _MISSING
        for attr in parts[cut:]:
            obj = getattr(obj, attr, _MISSING)
            if obj is _MISSING:
                return _MISSING
        return obj
    return _MISSING


def _home(obj: object) -> str | None:
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        return f"{module}.{qualname}"
    return None


def resolve(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref,
            contnode: nodes.Element) -> nodes.Element | None:
    if node.get("refdomain") != "py":
        return None
    target: str = node.get("reftarget", "")
    if not target:
        return None
    py: Any = env.get_domain("py")
    objects: dict[str, Any] = py.objects
    context: str | None = node.get("py:module")
    fromdoc: str = node.get("refdoc", "")

    def link(name: str) -> nodes.Element:
        entry = objects[name]
        ref: nodes.Element = make_refnode(app.builder, fromdoc, entry.docname, entry.node_id,
                                          contnode, name)
        return ref

    candidates = [f"{context}.{target}", target] if context else [target]
    for dotted in candidates:
        obj = _lookup(dotted)
        if obj is _MISSING:
            continue
        if isinstance(obj, TypeVar):
            return contnode
        home = _home(obj)
        if home is not None and home in objects:
            return link(home)
        if home is not None and home.split(".", 1)[0] in app.config.chdocs_external_packages:
            return contnode
    suffix = "." + target
    matches = [name for name, entry in objects.items()
               if name.endswith(suffix) and not getattr(entry, "aliased", False)]
    if len(matches) == 1:
        return link(matches[0])
    if target.rsplit(".", 1)[-1].startswith("_"):
        return contnode
    if context and context in py.modules and "." not in target and \
            _lookup(f"{context}.{target}") is not _MISSING:
        module = py.modules[context]
        ref: nodes.Element = make_refnode(app.builder, fromdoc, module.docname,
                                          module.node_id, contnode, context)
        return ref
    return None
