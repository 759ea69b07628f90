"""One navigation tree per folder for the HTML pages that are not documents.

The theme draws the whole site's table of contents in every page's sidebar,
resolving the toctree again for each page. For a page that is not one of the
documents (a module's highlighted source written by ``sphinx.ext.viewcode``,
the index, the search page) nothing in that tree is marked as the current
page, and its links differ only by the folder the page is written to: every
such page of one folder gets the same HTML. It is resolved once per folder
and the others reuse it (the site is byte for byte the same, built in less
time: there are about twice as many source pages as documents).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: The toctree HTML of the pages that are not documents, by (folder, arguments).
_SHARED: dict[tuple[str, str], str] = {}


def clear() -> None:
    _SHARED.clear()


def share_toctree(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                  doctree: object) -> None:
    """Give a page that is not a document the toctree of its folder (``html-page-context``)."""
    toctree = context.get("toctree")
    if pagename in app.env.all_docs or not callable(toctree):
        return
    folder = posixpath.dirname(pagename)
    resolve: Callable[..., str] = toctree

    def shared(**kwargs: Any) -> str:
        key = (folder, repr(sorted(kwargs.items())))
        if key not in _SHARED:
            _SHARED[key] = resolve(**kwargs)
        return _SHARED[key]

    context["toctree"] = shared
