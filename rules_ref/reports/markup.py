"""A document as a list of blocks, written out as Markdown or as one self-contained HTML page.

The blocks are few (:class:`Heading`, :class:`Para`, :class:`Table`,
:class:`Pre`, :class:`Items`) and their inline text is plain strings,
:class:`Code` and in-page :class:`Link` pieces; :func:`markdown` and
:func:`html_page` escape everything they are given, so text an adapter
wrote (its name, its answers) never becomes markup. The HTML page carries
its style inside and links nothing outside itself. ``rules-ref conform
--report`` (:mod:`.document`) writes its reports with them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Code:
    """Text shown as code (a command, a rule ID, a card list)."""

    text: str


@dataclass(frozen=True, slots=True)
class Link:
    """A link to a part of the same page (``#anchor``); plain text in Markdown."""

    text: str
    anchor: str


#: Inline text: plain strings, :class:`Code` and :class:`Link` pieces.
Inline = str | Code | Link | list[str | Code | Link]


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading of ``level`` 1 to 3; ``anchor`` is its id on an HTML page."""

    level: int
    text: str
    anchor: str = ""


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph."""

    text: Inline


@dataclass(frozen=True, slots=True)
class Table:
    """A table: its header cells and its rows."""

    header: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]


@dataclass(frozen=True, slots=True)
class Pre:
    """Lines shown as they are, in a fixed-width font (a drawn game, commands)."""

    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Items:
    """A list of items."""

    items: tuple[Inline, ...]


Block = Heading | Para | Table | Pre | Items


# --- writing ----------------------------------------------------------------------------

def _md_text(text: str) -> str:
    """Plain text in Markdown: what could start markup escaped (``_`` inside a word cannot)."""
    out = []
    for i, ch in enumerate(text):
        inside_word = (ch == "_" and 0 < i < len(text) - 1 and text[i - 1].isalnum()
                       and text[i + 1].isalnum())
        if ch in "\r\n":
            out.append(" ")
        elif (ch in "\\`*_[]<>|" and not inside_word) or (ch == "#" and i == 0):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _md_code(text: str) -> str:
    text = text.replace("\n", " ")
    fence = "`"
    while fence in text:
        fence += "`"
    return f"{fence} {text} {fence}" if text.startswith("`") or text.endswith("`") or \
        len(fence) > 1 else f"{fence}{text}{fence}"


def _md_inline(value: Inline) -> str:
    parts = value if isinstance(value, list) else [value]
    return "".join(_md_code(p.text) if isinstance(p, Code) else
                   _md_text(p.text) if isinstance(p, Link) else _md_text(p) for p in parts)


def markdown(blocks: Sequence[Block]) -> str:
    """The blocks as Markdown (CommonMark with GitHub tables)."""
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out += ["#" * b.level + " " + _md_text(b.text), ""]
        elif isinstance(b, Para):
            out += [_md_inline(b.text), ""]
        elif isinstance(b, Table):
            out.append("| " + " | ".join(_md_text(h) or " " for h in b.header) + " |")
            out.append("|" + "---|" * len(b.header))
            out += ["| " + " | ".join(_md_inline(c) for c in row) + " |" for row in b.rows]
            out.append("")
        elif isinstance(b, Pre):
            fence = "```"
            while any(fence in line for line in b.lines):
                fence += "`"
            out += [fence + "text", *b.lines, fence, ""]
        else:
            out += ["- " + _md_inline(i) for i in b.items]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _html_inline(value: Inline) -> str:
    parts = value if isinstance(value, list) else [value]
    return "".join(f"<code>{html.escape(p.text)}</code>" if isinstance(p, Code)
                   else f'<a href="#{html.escape(p.anchor)}">{html.escape(p.text)}</a>'
                   if isinstance(p, Link) else html.escape(p) for p in parts)


#: The page's style: light, or dark where the reader's system asks for it; a ``<pre>`` block
#: keeps its lines (a drawn game is aligned in columns) and scrolls sideways when they are
#: wider than the page, and a wide table scrolls the same way. On a narrow screen (a phone)
#: a table's rows are stacked, each cell under its column's name, and a long code in a cell
#: (a command line, a file's path) breaks where it must.
_STYLE = """:root{color-scheme:light dark}
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
color:#222;background:#fff;line-height:1.4}table{border-collapse:collapse;margin:.5rem 0 1rem;
display:block;max-width:100%;overflow-x:auto}
td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}
td code{overflow-wrap:anywhere}
@media (max-width:40rem){thead{display:none}tr{display:block;border-top:1px solid #ccc;
padding:.3rem 0}td{display:block;border:none;padding:.1rem .3rem}
td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}
pre{background:#f6f6f6;padding:.6rem;max-width:100%;overflow-x:auto;font-size:.9rem}
code{background:#f3f3f3;padding:0 .2rem}a{color:#0550ae}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#161616}
td,th{border-color:#444}pre{background:#222}code{background:#2a2a2a}a{color:#7cb7ff}}"""


def html_page(blocks: Sequence[Block], title: str) -> str:
    """The blocks as one self-contained HTML page (its style inside, no outside link)."""
    body: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            anchor = f' id="{html.escape(b.anchor)}"' if b.anchor else ""
            body.append(f"<h{b.level}{anchor}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_html_inline(b.text)}</p>")
        elif isinstance(b, Table):
            head = "".join(f"<th>{html.escape(h)}</th>" for h in b.header)
            labels = [f' data-label="{html.escape(h)}"' if h else "" for h in b.header]
            rows = "".join("<tr>" + "".join(f"<td{label}>{_html_inline(c)}</td>"
                                            for label, c in zip(labels, row, strict=False))
                           + "</tr>" for row in b.rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(b, Pre):
            body.append("<pre>" + html.escape("\n".join(b.lines)) + "</pre>")
        else:
            body.append("<ul>" + "".join(f"<li>{_html_inline(i)}</li>" for i in b.items)
                        + "</ul>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")
