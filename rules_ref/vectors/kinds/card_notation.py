"""Card notation vectors: card text in and out (``spec/notation.md``)."""

from __future__ import annotations

from ...cards import parse_card
from ...errors import RulesRefError
from ...ruleset import DEFAULT
from ..files import Case
from ..scenario import cards, texts

#: What the kind's file holds (its ``description``).
TEXT = (
    "Card text in and out (spec/notation.md): accepted inputs with their canonical "
    "text and card index, rejected inputs, canonical order.")


def generate() -> list[Case]:
    """Every case of the kind."""
    good = [
        ("2C", "lowest-club", "the lowest club"), ("10H", "ten", "a two-digit ten"),
        ("JD", "jack", "a jack"), ("QS", "queen-of-spades", "the queen of spades"),
        ("AS", "highest-index", "the highest card index"), ("KC", "king", "a king"),
        ("9S", "nine", "a nine"), ("qs", "lower-case", "lower case"),
        ("Qs", "mixed-case-1", "mixed case"), ("qS", "mixed-case-2", "mixed case"),
        ("th", "t-for-ten", "T for ten"), ("Th", "t-for-ten-mixed", "T for ten, mixed case"),
        ("10h", "ten-lower-suit", "ten with a lower-case suit"),
        (" 10\u2665 ", "solid-heart-spaces", "a solid heart symbol inside spaces"),
        ("T\u2661", "outline-heart", "an outline heart symbol"),
        ("Q\u2660", "solid-spade", "a solid spade symbol"),
        ("q\u2664", "outline-spade", "an outline spade symbol"),
        ("A\u2663", "solid-club", "a solid club symbol"),
        ("5\u2667", "outline-club", "an outline club symbol"),
        ("K\u2666", "solid-diamond", "a solid diamond symbol"),
        ("J\u2662", "outline-diamond", "an outline diamond symbol"),
        ("\t7d\n", "tab-newline", "a tab and a newline around"),
        ("ad", "ace-lower-case", "an ace in lower case"),
    ]
    bad = [
        ("", "empty", "empty text"), ("   ", "spaces", "only spaces"), ("1H", "rank-1", "rank 1"),
        ("11H", "rank-11", "rank 11"), ("0H", "rank-0", "rank 0"), ("10", "no-suit", "no suit"),
        ("QX", "unknown-suit", "an unknown suit letter"),
        ("Q S", "inner-space", "a space between rank and suit"),
        ("QSS", "suit-twice", "the suit twice"), ("\u2660Q", "suit-first", "suit before rank"),
        ("Q\u2660\ufe0f", "variation-selector",
         "a suit symbol followed by the emoji variation selector"),
        ("queen of spades", "words", "words"), ("1 0H", "split-rank", "a space inside the rank"),
        ("TT", "t-without-suit", "no suit after T"), ("10HH", "ten-suit-twice", "the suit twice"),
        ("H", "no-rank", "no rank"), ("01H", "leading-zero", "a leading zero"),
        ("QS,", "trailing-comma", "a trailing comma"), ("AS AS", "two-cards", "two cards"),
        ("9\u2665\u2665", "symbol-twice", "the suit symbol twice"),
    ]
    out: list[Case] = []
    for text, slug, why in good:
        c = parse_card(text)
        out.append({"id": f"card-notation/valid-{slug}", "description": f"Accepted: {why}.",
                    "rules": ["DECK.CARDS"], "ruleset": DEFAULT.to_dict(), "players": None,
                    "input": text, "expected": {"canonical": str(c), "index": int(c)}})
    for text, slug, why in bad:
        try:
            parse_card(text)
        except RulesRefError:
            pass
        else:
            raise AssertionError(f"{text!r} was accepted")
        out.append({"id": f"card-notation/invalid-{slug}", "description": f"Rejected: {why}.",
                    "rules": ["DECK.CARDS"], "ruleset": DEFAULT.to_dict(), "players": None,
                    "input": text, "expected": {"rejected": True}})
    order = cards("AS 2C 10H JH 9H 2D QS 2C AC KD")
    out.append({"id": "card-notation/canonical-order", "description":
                "A multiset of cards sorted in canonical order (suit, then rank), copies kept.",
                "rules": ["DECK.CARDS", "DECK.RANKING"], "ruleset": DEFAULT.to_dict(),
                "players": None, "input": texts(order),
                "expected": {"canonical": texts(sorted(order)),
                             "index": [int(c) for c in sorted(order)]}})
    return out
