"""How deep a JSON text nests, measured before parsing: exact for JSON, bounded for any text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_ref.jsonio.nesting import nests_deeper

#: Strings that hold brackets, quotes and backslashes: none of them is a level.
_TRICKY = st.sampled_from(["[", "]", "{", "}", '"', "\\", '\\"[', "[[[[", '"]"', "a\\", ""])
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | _TRICKY | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TRICKY | st.text(max_size=3),
                                                                inner, max_size=3),
    max_leaves=30)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(_VALUES, st.integers(min_value=0, max_value=8), st.booleans(), st.booleans())
def test_a_json_text_is_deeper_exactly_when_its_value_is(value: Any, limit: int, as_bytes: bool,
                                                        ascii_only: bool) -> None:
    """Invariant: for any JSON text, deeper than ``limit`` iff the value it holds is."""
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert nests_deeper(text.encode() if as_bytes else text, limit) is (_depth(value) > limit)


@pytest.mark.parametrize(("text", "limit", "deeper"), [
    ("[" * 5 + "]" * 5, 5, False),
    ("[" * 6 + "]" * 6, 5, True),
    ("{" * 3 + "[" * 3 + "]" * 3 + "}" * 3, 5, True),
    ("[" * 6, 5, True),                              # never closed: each opener is a level
    ("[]" * 50 + "]", 5, False),                     # a stray closer is no level
    ("][" * 50, 5, False),                           # closers before openers: one level at most
    ('["' + "[" * 50, 5, False),                     # a string left open runs to the end
    ('["' + '\\"' * 1000 + "[" * 50, 5, False),      # escaped quotes do not close it
    ('["\\\\"' + "[" * 50, 5, True),                 # an escaped backslash does not escape
    ('"\\', 0, False),                               # a backslash at the very end
], ids=["5", "6", "mixed", "open", "stray-closer", "closers-first", "open-string",
        "escaped-quotes", "escaped-backslash", "end-backslash"])
def test_text_that_is_not_json_is_measured_as_a_reader_reads_it(text: str, limit: int,
                                                                deeper: bool) -> None:
    assert nests_deeper(text, limit) is deeper
    assert nests_deeper(text.encode(), limit) is deeper


def test_a_long_text_of_escaped_quotes_is_read_in_one_pass() -> None:
    """Each string match succeeds once begun: 200000 escaped quotes are one open string.

    (A pattern that needs a closing quote retries from every escaped quote, and
    takes minutes on this text; this one takes milliseconds.)
    """
    assert nests_deeper(b'"' + b'\\"' * 200_000 + b"[" * 40, 32) is False
    assert nests_deeper(b'"' + b'\\"' * 200_000 + b'"' + b"[" * 40, 32) is True
