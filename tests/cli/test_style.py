"""Output styles: stand-ins for characters an output lacks, colour only on a terminal."""

from __future__ import annotations

import io

import pytest

from rules_ref.cli import style
from rules_ref.cli.style import can_encode, safe_streams, wants_colour


def test_characters_an_output_lacks_get_stand_ins() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii", errors=style._ERRORS)
    stream.write("Q♠ − 10♥ … x")
    stream.flush()
    assert raw.getvalue() == b"QS - 10H ... x"


def test_a_decoding_error_is_not_given_a_stand_in() -> None:
    with pytest.raises(UnicodeDecodeError):
        b"\xff".decode("utf-8", errors=style._ERRORS)


def test_can_encode() -> None:
    assert can_encode(io.StringIO()) is True
    assert can_encode(io.TextIOWrapper(io.BytesIO(), encoding="ascii")) is False
    assert can_encode(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")) is True


def test_safe_streams_reconfigures_an_ascii_output(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", io.StringIO())
    safe_streams()
    assert out.errors == style._ERRORS
    out.write("♣")
    out.flush()
    assert raw.getvalue() == b"C"


class _Tty(io.StringIO):
    def __init__(self, answer: bool | Exception) -> None:
        super().__init__()
        self.answer = answer

    def isatty(self) -> bool:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert wants_colour(_Tty(True)) is True
    assert wants_colour(_Tty(False)) is False
    assert wants_colour(_Tty(ValueError("closed"))) is False
    monkeypatch.setenv("TERM", "dumb")
    assert wants_colour(_Tty(True)) is False
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm")
    assert wants_colour(_Tty(True)) is False


def test_colour_codes_take_no_width() -> None:
    assert style.visible_width("\x1b[1;31mQ♠\x1b[0m 10") == 5
