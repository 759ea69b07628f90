"""The check over the built HTML: no internal link or search hit to a missing page or anchor.

Sphinx checks the references it resolves, but not a raw ``href``, an anchor
that a generated page links to by name, or the anchors the search index
sends a reader to. This module reads the finished site (standard library
only, so it can be run and tested without Sphinx): every ``href``/``src``
that stays inside the site must name a file that exists and, when it has a
fragment, an ``id`` (or ``name``) on that page; every object and title of
``searchindex.js`` must open at an anchor that exists.

After an HTML build, :func:`report` logs each dead link as a warning (so
``sphinx-build -W`` fails, listing them all).
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

#: the elements whose ``href`` or ``src`` points at another file
LINK_ATTRS = ("a", "link", "img", "script", "iframe")


@dataclass(frozen=True, slots=True, order=True)
class DeadLink:
    page: str  # the page holding the link, relative to the site root
    target: str  # the link as written
    problem: str  # "no page X" or "no anchor #Y on X"

    def __str__(self) -> str:
        return f"{self.page}: {self.target} ({self.problem})"


#: Sphinx writes every attribute value in double quotes, so three patterns find
#: what the check needs: ids, the names of ``<a name>`` anchors, and links
ID = re.compile(r'<[a-zA-Z][^>\s]*\s(?:[^>]*?\s)?id="([^"]*)"')
A_NAME = re.compile(r'<a\s(?:[^>]*?\s)?name="([^"]*)"', re.IGNORECASE)
LINK = re.compile(r"<(?:" + "|".join(LINK_ATTRS) + r')\s(?:[^>]*?\s)?(?:href|src)="([^"]*)"',
                  re.IGNORECASE)
#: what is not markup: comments, and the text of scripts and styles
SKIP = re.compile(r"<!--.*?-->|(<script\b[^>]*>).*?</script>|(<style\b[^>]*>).*?</style>",
                  re.DOTALL | re.IGNORECASE)


@dataclass(slots=True)
class _Page:
    ids: set[str]
    links: list[str]


def _parse(text: str) -> _Page:
    """The ids (and ``<a name>``) and the links of one page."""
    text = SKIP.sub(lambda m: (m.group(1) or m.group(2) or ""), text)
    ids = {html.unescape(v) for v in ID.findall(text)}
    ids.update(html.unescape(v) for v in A_NAME.findall(text))
    return _Page(ids, [html.unescape(v) for v in LINK.findall(text)])


def _read_pages(site: Path) -> dict[str, _Page]:
    return {path.relative_to(site).as_posix(): _parse(path.read_text(encoding="utf-8",
                                                                       errors="replace"))
            for path in sorted(site.rglob("*.html"))}


def _internal(link: str) -> bool:
    parts = urlsplit(link)
    return not (parts.scheme or parts.netloc or link.startswith(("//", "javascript:")))


def _check(site: Path, pages: dict[str, _Page], page: str, link: str) -> str | None:
    """The problem with ``link`` found on ``page``, or None if it leads somewhere."""
    parts = urlsplit(link)
    fragment = unquote(parts.fragment)
    if parts.path:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(parts.path)))
        if parts.path.endswith("/"):
            target = posixpath.join(target, "index.html")
    else:
        target = page
    if target.startswith("../") or target == "..":
        return f"no page {target}: outside the site"
    if target not in pages:
        if (site / target).is_file():
            return None  # a file other than a page (a stylesheet, an image)
        return f"no page {target}"
    if fragment and fragment not in pages[target].ids:
        return f"no anchor #{fragment} on {target}"
    return None


def _search_links(site: Path) -> list[tuple[str, str]]:
    """Where each hit of ``searchindex.js`` opens: (what it is, link from the site root)."""
    path = site / "searchindex.js"
    if not path.is_file():
        return []
    raw = path.read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(raw[raw.index("(") + 1:raw.rindex(")")])
    docnames: list[str] = data["docnames"]
    objnames: dict[str, list[str]] = data["objnames"]
    out: list[tuple[str, str]] = []
    for prefix, entries in data["objects"].items():
        for doc, objtype, _priority, anchor, name in entries:
            fullname = f"{prefix}.{name}" if prefix else name
            if anchor == "":
                anchor = fullname
            elif anchor == "-":
                anchor = f"{objnames[str(objtype)][1]}-{fullname}"
            out.append((f"search hit {fullname!r}", f"{docnames[doc]}.html#{anchor}"))
    for title, hits in data["alltitles"].items():
        for doc, anchor in hits:
            link = f"{docnames[doc]}.html" + (f"#{anchor}" if anchor else "")
            out.append((f"search hit {title!r}", link))
    return out


def dead_links(site: Path) -> list[DeadLink]:
    """Every internal link of the built site ``site`` that leads nowhere, sorted."""
    pages = _read_pages(site)
    dead: set[DeadLink] = set()
    for page, content in pages.items():
        for link in content.links:
            if not _internal(link):
                continue
            problem = _check(site, pages, page, link)
            if problem:
                dead.add(DeadLink(page, link, problem))
    for what, link in _search_links(site):
        problem = _check(site, pages, "searchindex.js", link)
        if problem:
            dead.add(DeadLink(f"searchindex.js ({what})", link, problem))
    return sorted(dead)


def report(site: Path) -> list[DeadLink]:
    """Log each dead link of ``site`` as a warning (Sphinx's logger); return them."""
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    dead = dead_links(site)
    for link in dead:
        logger.warning("dead internal link: %s", link, type="chdocs", subtype="links")
    if dead:
        logger.warning("%d dead internal link(s) in the built site", len(dead),
                       type="chdocs", subtype="links")
    return dead
