"""Who takes this trick: one trick resolved, each step with the rule that decides it.

``rules-ref trick`` prints it and the site's trick resolver draws it.

>>> from rules_ref.cards import parse_cards
>>> a = trick_answer(parse_cards("10S 9H 9H 10S KS 3S"))
>>> for s in a.statements:
...     print(s.text())
Led suit: ♠, the first card's suit (TRICK.LED_SUIT)
Cancelled: 9♥ pair, 10♠ pair (TRICK.CANCEL)
Who takes it: seat 4 wins with K♠, the highest uncancelled ♠ (TRICK.WINNER)
Then: seat 4, the winner, leads the next trick (TRICK.NEXT_LEADER)
Points: 2, cancelled cards included, taken by seat 4 (SCORE.CARD_POINTS)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..deal import FEWEST_PLAYERS, MAX_PLAYERS
from ..errors import InputError
from ..ruleset import DEFAULT, Ruleset
from ..scoring import card_points
from ..tricks import TrickOutcome, next_leader, resolve_trick, seat_at
from ..wording import counted
from ..wording.tricks import Said, after_void_trick, trick_set_aside, trick_won
from .statement import Part, Statement, SuitName

#: The fewest cards of a real trick: one per player, 6 to 11 (5 under a switch).
REAL_TRICK = 6


@dataclass(frozen=True, slots=True)
class TrickAnswer:
    """A resolved trick: the engine's outcome, who played each card, and what it means."""

    outcome: TrickOutcome
    players: int
    seats: tuple[int, ...]
    next_leader: int
    points: int
    statements: tuple[Statement, ...]

    def to_json(self) -> dict[str, Any]:
        o = self.outcome
        return {
            "cards": [str(c) for c in o.cards], "seats": list(self.seats), "players": self.players,
            "led_suit": o.led_suit.name, "cancelled": [str(c) for c in o.cancelled],
            "winner": o.winner,
            "winning_card": None if o.winning_card is None else str(o.winning_card),
            "void": o.void, "next_leader": self.next_leader, "points": self.points,
            "rules": list(dict.fromkeys(r for s in self.statements for r in s.rules)),
            "statements": [s.to_json() for s in self.statements],
        }


def check_trick(cards: Sequence[Card], leader: int, players: int | None) -> int:
    """The number of players of the trick ``cards`` led by ``leader``; ``InputError`` if none.

    A trick has one card per player, at most 11, each card at most twice
    (``DECK.CARDS``); without ``players`` the table is as large as the
    trick and the leader's seat need (at least six seats).
    """
    n = len(cards)
    if not n:
        raise InputError("no card: give the trick's cards in play order, the first one led")
    if n > MAX_PLAYERS:
        raise InputError(f"{n} cards: a trick has one card per player, at most {MAX_PLAYERS}")
    triple = [str(c) for c, k in Counter(cards).items() if k > 2]
    if triple:
        raise InputError(f"DECK.CARDS: the deck holds two copies of each card; "
                         f"{', '.join(triple)} appears more than twice")
    if players is not None:
        if not FEWEST_PLAYERS <= players <= MAX_PLAYERS:
            raise InputError(f"{players} players: the game is for {FEWEST_PLAYERS} to "
                             f"{MAX_PLAYERS} players (PLAYERS.COUNT)")
        if n > players:
            raise InputError(f"{n} cards at {players} players: a trick has one card per "
                             "player")
        if not 0 <= leader < players:
            raise InputError(f"leader {leader} is not a seat (0 to {players - 1})")
        return players
    if not 0 <= leader < max(n, REAL_TRICK):
        raise InputError(f"leader {leader} is not a seat (0 to {max(n, REAL_TRICK) - 1})")
    return max(n, leader + 1)


def trick_answer(cards: Sequence[Card], leader: int = 0, players: int | None = None,
                 ruleset: Ruleset = DEFAULT) -> TrickAnswer:
    """Resolve the trick ``cards`` (in play order, the first led by ``leader``) and say why.

    The points are the ruleset's card points (``SCORE.CARD_POINTS``).
    Bad input raises :class:`InputError` naming the problem (:func:`check_trick`).
    """
    n = check_trick(cards, leader, players)
    t = resolve_trick(cards, leader, n)
    seats = tuple(seat_at(leader, i, n) for i in range(len(cards)))
    after = next_leader(leader, t.winner)
    points = card_points(t.cards, ruleset)
    led = t.led_suit
    said = [Statement("Led suit", (SuitName(led, plural=True), ", the first card's suit"),
                      ("TRICK.LED_SUIT",))]
    if t.cancelled:
        pairs: list[Part] = []
        for i, c in enumerate(t.cancelled):
            pairs += [*([", "] if i else []), c, " pair"]
        said.append(Statement("Cancelled", tuple(pairs), ("TRICK.CANCEL",)))
    else:
        said.append(Statement("Cancelled", ("none, no card was played twice",), ("TRICK.CANCEL",)))
    if t.winner is None:
        # one trick on its own, not the last of a deal: its leader leads again
        said.append(_said("Void", trick_set_aside(SUIT), {SUIT: SuitName(led)}))
        said.append(_said("Then", after_void_trick(f"seat {after}", last=False), {}))
    else:
        assert t.winning_card is not None
        said.append(_said("Who takes it", trick_won(f"seat {t.winner}", CARD, SUIT),
                          {CARD: t.winning_card, SUIT: SuitName(led)}))
        said.append(Statement("Then", (f"seat {after}, the winner, leads the next trick",),
                              ("TRICK.NEXT_LEADER",)))
    said.append(_points(points, t))
    if len(cards) < REAL_TRICK:
        said.append(Statement("Note", (f"{counted(len(cards), 'card')}; a real trick has one "
                                       "card per player, 6 to 11",), ("PLAYERS.COUNT",)))
    return TrickAnswer(t, n, seats, after, points, tuple(said))


#: stand-ins for the card and the suit in the words of rules_ref.wording.tricks, which the
#: statement holds as parts (each reader writes them its own way)
CARD, SUIT = "\x00card\x00", "\x00suit\x00"


def _said(label: str, said: Said, parts: dict[str, Part]) -> Statement:
    """The words of ``said`` as a statement, each stand-in of ``parts`` replaced by its part."""
    out: list[Part] = [said.words]
    for mark, part in parts.items():
        out = [piece for p in out for piece in (
            _split(p, mark, part) if isinstance(p, str) else [p])]
    return Statement(label, tuple(p for p in out if p != ""), (said.rule,))


def _split(text: str, mark: str, part: Part) -> list[Part]:
    pieces: list[Part] = []
    for i, chunk in enumerate(text.split(mark)):
        if i:
            pieces.append(part)
        pieces.append(chunk)
    return pieces


def _points(points: int, t: TrickOutcome) -> Statement:
    if t.winner is not None:
        if not points:
            return Statement("Points", (f"none in the trick, taken by seat {t.winner}",),
                             ("SCORE.CARD_POINTS",))
        return Statement("Points", (f"{points}, cancelled cards included, taken by seat "
                                    f"{t.winner}",), ("SCORE.CARD_POINTS",))
    held = f"{points}, cancelled cards included" if points else "none in the trick"
    return Statement("Points", (f"{held}; the set-aside cards go to the winner of the next "
                                "trick, or to nobody after the deal's last trick",),
                     ("SCORE.CARD_POINTS", "VOID.COLLECT", "VOID.LAST"))
