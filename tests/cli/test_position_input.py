"""Reading a position from a file or standard input: each unreadable input refused in one line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rules_ref.cli.position import MAX_POSITION_INPUT, read_position
from rules_ref.errors import InputError


def _refused(words: list[str]) -> str:
    with pytest.raises(InputError) as caught:
        read_position(words)
    return str(caught.value)


def test_a_file_larger_than_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * (MAX_POSITION_INPUT + 1))
    assert _refused([str(big)]).endswith(
        f"big.txt: larger than {MAX_POSITION_INPUT} bytes (the limit of a position input)")


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"6 1 0 \xff")
    assert _refused([str(bad)]).endswith("bad.txt: not UTF-8 text (byte 6)")


def test_a_missing_file(tmp_path: Path) -> None:
    assert _refused([str(tmp_path / "none.txt")]).endswith(
        "none.txt: no such file (give a position text in quotes, a file, or - for standard "
        "input)")


def test_a_directory(tmp_path: Path) -> None:
    assert _refused([str(tmp_path)]).endswith(": is a directory, not a position file")


def test_a_text_too_long_for_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"7" * 100_000)))
    message = _refused([])
    assert message.startswith("standard input: 100000 characters, more than the ")
    assert message.endswith(" of a position text")
