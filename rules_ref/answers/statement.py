"""A statement of an answer: a label, words with cards and suits in them, the rules that decide.

The words are kept as parts (text, :class:`~rules_ref.cards.Card`,
:class:`SuitName`), not as one string, so each reader draws the cards its own way:
the command line with its style (symbols or ASCII,
colour on a terminal), the site's pages as red or black card text with each rule
ID a link to its page. :meth:`Statement.text` is the line the command line
prints with the suit symbols and no colour, which is also what a page shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, Suit


@dataclass(frozen=True, slots=True)
class SuitName:
    """A suit named in a statement: its symbol, or in words ``spade`` (``spades`` if plural)."""

    suit: Suit
    plural: bool = False


#: One piece of a statement's words.
Part = str | Card | SuitName


def cards_parts(cards: Sequence[Card]) -> tuple[Part, ...]:
    """``cards`` as parts separated by spaces."""
    parts: list[Part] = []
    for i, c in enumerate(cards):
        if i:
            parts.append(" ")
        parts.append(c)
    return tuple(parts)


def _symbol_card(c: Card) -> str:
    return c.pretty


def _symbol_suit(s: SuitName) -> str:
    return s.suit.symbol


@dataclass(frozen=True, slots=True)
class Statement:
    """``LABEL: WORDS (RULE, RULE)``: one thing an answer says, and the rules that say it.

    Without a label the words stand alone (``May not play 3♥: …``, where the
    card belongs to the label).
    """

    label: str
    parts: tuple[Part, ...]
    rules: tuple[str, ...] = ()

    def text(self, card: Callable[[Card], str] = _symbol_card,
             suit: Callable[[SuitName], str] = _symbol_suit) -> str:
        """The statement as one line, each card and suit written by ``card`` and ``suit``."""
        words = "".join(card(p) if isinstance(p, Card) else suit(p) if isinstance(p, SuitName)
                        else p for p in self.parts)
        rules = f" ({', '.join(self.rules)})" if self.rules else ""
        return f"{self.label}: {words}{rules}" if self.label else f"{words}{rules}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the label, the parts (text, ``{"card": "KS"}``, ``{"suit": "S"}``),
        the rules and the whole line as :meth:`text` writes it."""
        parts: list[Any] = [{"card": str(p)} if isinstance(p, Card) else
                            {"suit": p.suit.name} if isinstance(p, SuitName) else p
                            for p in self.parts]
        return {"label": self.label, "parts": parts, "rules": list(self.rules),
                "text": self.text()}
