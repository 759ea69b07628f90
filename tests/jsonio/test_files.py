"""Reading and writing files for the command line: each failure is one error naming the path."""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from rules_ref.errors import InputError
from rules_ref.jsonio.files import make_output_dir, read_json_file, write_text_atomic


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(b'{"players": 8}'))
    assert read_json_file("-") == {"players": 8}


def test_a_path_with_a_nul_character(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r": cannot read: embedded null byte$"):
        read_json_file("game\0.json")
    with pytest.raises(InputError, match=r": cannot create the directory: embedded null byte$"):
        make_output_dir(str(tmp_path / "out\0"))


def test_a_file_that_may_not_be_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}")

    def refused(self: Path, *args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refused)
    with pytest.raises(InputError) as caught:
        read_json_file(str(path))
    assert str(caught.value) == f"{path}: permission denied"


def test_no_room_for_the_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkstemp", full)
    target = tmp_path / "a.json"
    with pytest.raises(InputError) as caught:
        write_text_atomic(str(target), "x")
    assert str(caught.value) == f"{target}: cannot write: No space left on device"
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(str(tmp_path / "a.json"), "x")
    assert list(tmp_path.iterdir()) == []
