"""Faults of one card: which trick cases an engine wrong about a single card fails.

An engine can be right about every rule and wrong about one card: its two
10♠ do not cancel, it ranks the 7♦ below the 6♦, it counts the 9♥ as no
point, the 4♥ does not break hearts. A trick case (a trick's last card and
what the protocol shows after it) fails under such a fault when the trick
the fault resolves differs from the one expected:

* ``cancel``: the two copies of the card do not cancel (``TRICK.CANCEL``):
  another winner, or none where the case has one;
* ``rank``: the card ranks one place lower in its suit, a 2 one place
  higher (``DECK.RANKING``): another winner;
* ``points``: the card's points are off by one (``SCORE.CARD_POINTS``; a
  card worth nothing worth one): the trick has a winner, who takes the card;
* ``breaks``: a heart that does not break hearts (``HEARTS.BROKEN``): the
  trick breaks hearts, and only copies of that card could.

:func:`trick_fails` applies each fault to a case's last trick (:func:`last_trick`), read from the
case (its prefix and its observation), not from the engine's own code;
:func:`card_matrix` counts, for each card and fault, the cases it fails, and
:func:`card_gaps` names each card and fault that no case catches (``rules-ref
vectors generate`` prints them; ``rules-ref vectors check`` and the tests
fail on a gap).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..cards import CARDS, QUEEN_OF_SPADES, Card, Suit, parse_card
from .files import Case
from .position_forms import is_position_start
from .requirements import end_of_prefix

#: The faults of one card, in the order the matrix prints them.
FAULTS = ("cancel", "rank", "points", "breaks")


class LastTrick(NamedTuple):
    """A trick case's last trick, as the case shows it."""

    cards: tuple[Card, ...]
    leader: int
    #: The winner's position in the trick (``None``: void).
    winner: int | None
    #: Whether hearts were broken before the trick (for a position-start form: at its
    #: position, the trick's other cards played) and after it.
    broken_before: bool
    broken_after: bool


def last_trick(case: Case) -> LastTrick | None:
    """A trick case's last trick, read from its prefix and its observation; ``None`` for any
    other case."""
    steps = case.get("steps")
    if not isinstance(steps, list) or len(steps) != 1:
        return None
    seen = (steps[0].get("expect") or {}).get("observation") or {}
    trick = seen.get("last_trick")
    if not isinstance(trick, dict) or "hearts_broken" not in seen:
        return None
    cards = tuple(parse_card(c) for c in trick["cards"])
    earlier = len(cards) - 1  # the trick's cards before its last, at the end of the prefix
    if is_position_start(case["start"]) and not case["prefix"]:
        # a position-start form: its position holds the trick's other cards, played
        before = end_of_prefix(case)
        if before is None or tuple(before.trick) != cards[:-1]:
            return None
    elif len(case["prefix"]) < earlier:
        return None
    else:
        before = end_of_prefix({**case, "prefix": case["prefix"][:len(case["prefix"]) - earlier]})
    if before is None:
        return None
    leader, winner = int(trick["leader"]), trick["winner"]
    n = int(case["players"])
    position = None if winner is None else (int(winner) - leader) % n
    return LastTrick(cards, leader, position, before.hearts_broken, bool(seen["hearts_broken"]))


def _winner(cards: Sequence[Card], cancels: frozenset[Card], rank_of: dict[Card, float],
            ) -> int | None:
    """The position of the highest card of the led suit that no pair cancels."""
    suit = cards[0].suit
    twice = {c for c in cards if cards.count(c) == 2 and c in cancels}
    best: int | None = None
    for i, c in enumerate(cards):
        if c.suit == suit and c not in twice and (best is None
                                                  or rank_of[c] > rank_of[cards[best]]):
            best = i
    return best


def _breaks(card: Card) -> bool:
    return card.suit == Suit.H or card == QUEEN_OF_SPADES


#: Each card's rank, as a number a fault can move by half a place.
_RANKS = {c: float(c.rank) for c in CARDS}
_EVERY_CARD = frozenset(CARDS)


def trick_fails(trick: LastTrick, card: Card, fault: str) -> bool:
    """Does an engine with ``fault`` of ``card`` (and right about every other card) resolve
    ``trick`` otherwise than the case shows it?"""
    cards, winner = trick.cards, trick.winner
    if card not in cards:
        return False
    if fault == "cancel":
        return _winner(cards, _EVERY_CARD - {card}, _RANKS) != winner
    if fault == "rank":  # one place lower; the 2 one place higher
        return _winner(cards, _EVERY_CARD, {**_RANKS, card: card.rank + (
            1.5 if card.rank == 2 else -1.5)}) != winner
    if fault == "points":
        return winner is not None
    if fault == "breaks":
        return (card.suit == Suit.H and not trick.broken_before and trick.broken_after
                and all(c == card for c in cards if _breaks(c)))
    raise ValueError(f"unknown fault {fault!r}")


def fails(case: Case, card: Card, fault: str) -> bool:
    """Does an engine with ``fault`` of ``card`` (and right about every other card) fail
    ``case``? Only a trick case can say; any other case answers ``False``."""
    trick = last_trick(case)
    return trick is not None and trick_fails(trick, card, fault)


def card_matrix(cases: Sequence[Case]) -> dict[str, dict[Card, int]]:
    """Each fault -> each card it applies to -> how many cases fail under it."""
    tricks = [t for c in cases if str(c["id"]).startswith("trick/")
              for t in [last_trick(c)] if t is not None]
    out: dict[str, dict[Card, int]] = {}
    for fault in FAULTS:
        applies = [c for c in CARDS if fault != "breaks" or c.suit == Suit.H]
        out[fault] = {c: sum(1 for t in tricks if trick_fails(t, c, fault)) for c in applies}
    return out


def card_gaps(cases: Sequence[Case]) -> list[str]:
    """Each card and fault that no trick case fails under."""
    return _gaps(card_matrix(cases))


def _gaps(matrix: dict[str, dict[Card, int]]) -> list[str]:
    return [f"no trick vector fails when the {card} alone is wrong ({fault})"
            for fault, counts in matrix.items() for card, n in counts.items() if n == 0]


def card_lines(cases: Sequence[Case]) -> list[str]:
    """The single-card faults as text: per fault, the cards caught and the fewest cases."""
    lines = ["single-card faults: for each fault of one card, how many trick vectors fail"]
    matrix = card_matrix(cases)
    for fault, counts in matrix.items():
        caught = sum(1 for n in counts.values() if n)
        least = min(counts.values(), default=0)
        lines.append(f"  {fault}: {caught} of {len(counts)} cards caught, the least by "
                     f"{least} vector{'s' if least != 1 else ''}")
    missing = _gaps(matrix)
    lines.append(f"{len(missing)} card gap{'s' if len(missing) != 1 else ''}"
                 + (": " + "; ".join(missing) if missing else ""))
    return lines
