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

:func:`fails` applies each fault to a case's last trick, read from the
case (its prefix and its observation), not from the engine's own code;
:func:`card_matrix` counts, for each card and fault, the cases it fails, and
:func:`card_gaps` names each card and fault that no case catches (``rules-ref
vectors generate`` prints them; ``rules-ref vectors check`` and the tests
fail on a gap).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import CARDS, QUEEN_OF_SPADES, Card, Suit, parse_card
from .files import Case
from .position_forms import is_position_start
from .requirements import end_of_prefix

#: The faults of one card, in the order the matrix prints them.
FAULTS = ("cancel", "rank", "points", "breaks")


def _last_trick(case: Case) -> tuple[list[Card], int, int | None, bool, bool] | None:
    """A trick case's last trick: its cards, its leader, its winner's position (``None``: void),
    whether hearts were broken before it (for a position-start form: at its position, the
    trick's other cards played) and after it; ``None`` for any other case."""
    steps = case.get("steps")
    if not isinstance(steps, list) or len(steps) != 1:
        return None
    seen = (steps[0].get("expect") or {}).get("observation") or {}
    trick = seen.get("last_trick")
    if not isinstance(trick, dict) or "hearts_broken" not in seen:
        return None
    cards = [parse_card(c) for c in trick["cards"]]
    earlier = len(cards) - 1  # the trick's cards before its last, at the end of the prefix
    if is_position_start(case["start"]) and not case["prefix"]:
        # a position-start form: its position holds the trick's other cards, played
        before = end_of_prefix(case)
        if before is None or list(before.trick) != cards[:-1]:
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
    return cards, leader, position, before.hearts_broken, bool(seen["hearts_broken"])


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


def fails(case: Case, card: Card, fault: str) -> bool:
    """Does an engine with ``fault`` of ``card`` (and right about every other card) fail
    ``case``? Only a trick case can say; any other case answers ``False``."""
    last = _last_trick(case)
    if last is None:
        return False
    cards, _, winner, broken_before, broken_after = last
    if card not in cards:
        return False
    ranks = {c: float(c.rank) for c in CARDS}
    everything = frozenset(CARDS)
    if fault == "cancel":
        return _winner(cards, everything - {card}, ranks) != winner
    if fault == "rank":  # one place lower; the 2 one place higher
        return _winner(cards, everything, {**ranks, card: card.rank + (1.5 if card.rank == 2
                                                                        else -1.5)}) != winner
    if fault == "points":
        return winner is not None
    if fault == "breaks":
        return (card.suit == Suit.H and not broken_before and broken_after
                and all(c == card for c in cards if _breaks(c)))
    raise ValueError(f"unknown fault {fault!r}")


def card_matrix(cases: Sequence[Case]) -> dict[str, dict[Card, int]]:
    """Each fault -> each card it applies to -> how many cases fail under it."""
    trick_cases = [c for c in cases if str(c["id"]).startswith("trick/")
                   and _last_trick(c) is not None]
    out: dict[str, dict[Card, int]] = {}
    for fault in FAULTS:
        applies = [c for c in CARDS if fault != "breaks" or c.suit == Suit.H]
        out[fault] = {c: sum(1 for case in trick_cases if fails(case, c, fault))
                      for c in applies}
    return out


def card_gaps(cases: Sequence[Case]) -> list[str]:
    """Each card and fault that no trick case fails under."""
    return [f"no trick vector fails when the {card} alone is wrong ({fault})"
            for fault, counts in card_matrix(cases).items()
            for card, n in counts.items() if n == 0]


def card_lines(cases: Sequence[Case]) -> list[str]:
    """The single-card faults as text: per fault, the cards caught and the fewest cases."""
    lines = ["single-card faults: for each fault of one card, how many trick vectors fail"]
    for fault, counts in card_matrix(cases).items():
        caught = sum(1 for n in counts.values() if n)
        least = min(counts.values(), default=0)
        lines.append(f"  {fault}: {caught} of {len(counts)} cards caught, the least by "
                     f"{least} vector{'s' if least != 1 else ''}")
    missing = card_gaps(cases)
    lines.append(f"{len(missing)} card gap{'s' if len(missing) != 1 else ''}"
                 + (": " + "; ".join(missing) if missing else ""))
    return lines
