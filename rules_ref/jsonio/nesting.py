"""How deep lists and objects nest in a JSON text, measured before the text is parsed.

Python's ``json`` reads nested lists and objects by recursion, so a text
nested a few thousand deep reaches the interpreter's recursion limit in the
middle of parsing. That limit is shared with whatever else runs at that
moment (a finaliser, a tracer), which then fails as well, with its own
message on standard error. Every JSON text that comes from outside (an input
file, a line an adapter writes, a request to the reference adapter) is
therefore measured with :func:`nests_deeper` first and refused with one
error when it nests deeper than its kind of text may; ``json`` only ever
reads a text of bounded depth.

The measure works on the text alone, so it also answers for text that is
not JSON: strings are read as JSON reads them (a string left open runs to
the end of the text), and the brackets outside them are counted. It takes
time linear in the text's length for each level of nesting it counts, and
counts at most ``limit + 1`` levels.
"""

from __future__ import annotations

import re

__all__ = ["nests_deeper"]

#: A JSON string, as a reader takes it: from a quote to the next quote not escaped, or to the
#: end of the text when none follows. Every match succeeds once begun, so a text of many
#: escaped quotes is read in one pass.
_STRING = re.compile(rb'"(?:[^"\\]|\\[\s\S])*(?:"|\\?\Z)')
_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"\\')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")


def nests_deeper(text: bytes | str, limit: int) -> bool:
    """True if lists and objects nest more than ``limit`` deep in the JSON text ``text``.

    Brackets inside strings do not count. Text that is not JSON is measured
    all the same: an opening bracket never closed counts as a level, and a
    closing bracket never opened as none.

    >>> nests_deeper(b'{"a": [[1], "[[[["]}', 3)
    False
    >>> nests_deeper(b'{"a": [[1], "[[[["]}', 2)
    True
    >>> nests_deeper("[" * 10_000, 100)
    True
    >>> nests_deeper("[]" * 200 + "]", 1)
    False
    """
    if isinstance(text, str):
        if text.count("[") + text.count("{") <= limit:  # not that many openers at all
            return False
        text = text.encode("utf-8", "surrogatepass")
    # Brackets, quotes and backslashes only, both kinds of bracket made square.
    marks = text.translate(_SQUARE, _NOT_BRACKET_OR_QUOTE)
    if marks.count(b"[") <= limit:  # not that many openers, even counting the strings' own
        return False
    # Strings without brackets or backslashes are left as "", and those pairs go at once.
    # Counted, not replaced (a long text holds thousands of them): every quote is in such a
    # pair when there are twice as many quotes as pairs.
    if b"\\" in marks or marks.count(b'"') != 2 * marks.count(b'""'):
        brackets = _STRING.sub(b"", text).translate(_SQUARE, _NOT_BRACKET)
    else:
        brackets = marks.translate(None, b'"')
    depth = 0  # each round removes every innermost pair, until none is left
    while depth <= limit:
        rest = brackets.replace(b"[]", b"")
        if len(rest) == len(brackets):
            break
        brackets, depth = rest, depth + 1
    return depth + brackets.count(b"[") > limit  # with the levels never closed
