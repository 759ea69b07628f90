"""One generator module per vector kind, and the table of them.

Each module has ``TEXT``, the description of its file, and generates its
cases from the reference engine: ``generate()`` for every kind but the
transcripts, whose ``transcript.gen_transcript`` makes the one game of
each entry of ``transcript.TRANSCRIPTS`` (one file per preset).
"""

from __future__ import annotations

from collections.abc import Callable

from ..files import Case
from . import (
    card_notation,
    card_tricks,
    game_end,
    illegal_action,
    legal_plays,
    moon,
    passing,
    perft,
    played,
    scoring,
    seat_view,
    seeded_deal,
    transcript,
    trick,
)

#: Each kind but the transcripts: kind -> the function that generates its cases, in file order.
GENERATORS: dict[str, Callable[[], list[Case]]] = {
    "card-notation": card_notation.generate,
    "seeded-deal": seeded_deal.generate,
    "seat-view": seat_view.generate,
    "passing": passing.generate,
    "legal-plays": lambda: [*legal_plays.generate(), *played.generate("legal-plays")],
    "trick": lambda: [*trick.generate(), *played.generate("trick"), *card_tricks.generate()],
    "scoring": lambda: [*scoring.generate(), *played.generate("scoring")],
    "moon": moon.generate,
    "game-end": game_end.generate,
    "illegal-action": lambda: [*illegal_action.generate(), *played.generate("illegal-action")],
    "perft": perft.generate,
}

#: Each kind -> what its files hold (the file's ``description``).
KIND_TEXT: dict[str, str] = {
    "card-notation": card_notation.TEXT,
    "seeded-deal": seeded_deal.TEXT,
    "seat-view": seat_view.TEXT,
    "passing": passing.TEXT,
    "legal-plays": legal_plays.TEXT,
    "trick": trick.TEXT,
    "scoring": scoring.TEXT,
    "moon": moon.TEXT,
    "game-end": game_end.TEXT,
    "illegal-action": illegal_action.TEXT,
    "perft": perft.TEXT,
    "transcript": transcript.TEXT,
}

__all__ = ["GENERATORS", "KIND_TEXT"]
