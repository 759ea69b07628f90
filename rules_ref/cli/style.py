"""How cards look on the terminal: suit symbols or plain ASCII, with or without colour.

Suit symbols (``Q♠``) are used when the output stream can encode them, and
plain notation (``QS``, ``10H``, ``spec/notation.md``) otherwise or when
``--ascii`` is given. Colours (red hearts and diamonds) only when the
stream is a terminal and ``NO_COLOR`` is not set. :func:`safe_streams`
makes every other character a stream cannot encode harmless, so no
command fails on a console without the symbols.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from ..cards import Card, Suit

_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"

#: Characters the command line prints, and their stand-ins on an output that lacks them.
_FALLBACK = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S",
             "−": "-", "–": "-", "—": "-", "…": "...", "→": "->", "⌊": "floor(", "⌋": ")",
             "“": '"', "”": '"', "‘": "'", "’": "'", "×": "x", "≥": ">=", "≤": "<="}
_ERRORS = "rules_ref_fallback"
#: A suit in words, for an output without the suit symbols ("the highest uncancelled spade").
_SUIT_WORDS = {Suit.C: "club", Suit.D: "diamond", Suit.H: "heart", Suit.S: "spade"}


def _fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    return "".join(_FALLBACK.get(ch, "?") for ch in text), exc.end


codecs.register_error(_ERRORS, _fallback)


def can_encode(stream: TextIO, text: str = "♣♦♥♠") -> bool:
    """True if ``stream``'s encoding has these characters."""
    encoding = getattr(stream, "encoding", None)
    if encoding is None:  # text kept in memory (io.StringIO): anything goes
        return True
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def safe_streams() -> None:
    """Let standard output and error print anything: characters they lack get stand-ins."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and not can_encode(stream, "♣♦♥♠−…"):
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change
                reconfigure(errors=_ERRORS)


def wants_colour(stream: TextIO) -> bool:
    """Colour on a terminal, unless ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"
    except (ValueError, OSError):
        return False


@dataclass(frozen=True, slots=True)
class Style:
    """How cards are written: ``symbols`` (``Q♠`` or ``QS``) and ``colour`` (ANSI)."""

    symbols: bool = True
    colour: bool = False

    @classmethod
    def for_stream(cls, stream: TextIO, ascii_only: bool = False) -> Style:
        return cls(symbols=not ascii_only and can_encode(stream), colour=wants_colour(stream))

    def suit(self, suit: Suit, plural: bool = False) -> str:
        """The suit as its symbol (``♠``), or as a word without symbols (``spade``, ``spades``)."""
        text = suit.symbol if self.symbols else _SUIT_WORDS[suit] + ("s" if plural else "")
        return self._paint(text, suit)

    def card(self, card: Card, mark: str = "") -> str:
        """One card; ``mark`` is ``"cancelled"`` (``[Q♠]``), ``"winner"`` (``Q♠*``) or ``""``."""
        text = card.pretty if self.symbols else str(card)
        if mark == "cancelled":
            return self._paint(f"[{text}]", card.suit, _DIM)
        if mark == "winner":
            return self._paint(f"{text}*", card.suit, _BOLD)
        return self._paint(text, card.suit)

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards) or "-"

    def bold(self, text: str) -> str:
        return f"{_BOLD}{text}{_RESET}" if self.colour else text

    def _paint(self, text: str, suit: Suit, extra: str = "") -> str:
        if not self.colour:
            return text
        red = _RED if suit in (Suit.H, Suit.D) else ""
        return f"{extra}{red}{text}{_RESET}" if red or extra else text


def visible_width(text: str) -> int:
    """The width of ``text`` on the terminal, colour codes not counted."""
    width = 0
    skipping = False
    for ch in text:
        if ch == "\x1b":
            skipping = True
        elif skipping:
            skipping = ch != "m"
        else:
            width += 1
    return width


def pad(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` columns (colour codes not counted)."""
    return " " * max(0, width - visible_width(text)) + text
