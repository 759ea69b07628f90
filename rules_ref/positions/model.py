"""The data of a position (``spec/position.md``): what the rules need to continue a game.

A :class:`Position` is a moment of a game within a deal (or between two
deals) with everything the rules need to carry on from there and nothing
else: no history, no ruleset (the ruleset travels beside it). It is a
plain value; :func:`rules_ref.positions.check.check_position` says whether
the rules can reach it, and :mod:`rules_ref.positions.convert` converts it to and
from JSON, text and :class:`~rules_ref.state.GameState`. This module also
holds what the checks read off a position (its set-aside tricks, the cards
played so far).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from ..cards import CARDS, Card, Suit
from ..errors import PositionError
from ..state_parts import Phase

#: The phases a position may be in (a finished game has nothing to continue).
POSITION_PHASES = (Phase.DEALING, Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE)
#: Bounds of the numbers of a position (``spec/limits.md``).
MAX_DEAL_NUMBER = 10**9
MAX_TOTAL = 10**12
#: The longest position text accepted (a real one is under 700 characters).
MAX_POSITION_TEXT = 4000


class ExtrasPlace(StrEnum):
    """Where the extras of the deal are (``EXTRAS.FIRST_TRICK``, ``VOID.LAST``)."""

    #: The deal has no extras (104 is a multiple of the player count).
    NONE = "none"
    #: Face down, waiting for the first trick.
    FACE_DOWN = "face-down"
    #: In the pending pile: the first trick was void (and every trick since).
    PENDING = "pending"
    #: Taken by the seat ``Extras.seat``, inside its collected cards.
    TAKEN = "taken"
    #: Left in the pending pile at the end of the deal: collected by nobody.
    UNCOLLECTED = "uncollected"
    #: Left pending at the end and split between two seats (``split-highest-pair``).
    SPLIT = "split"


@dataclass(frozen=True, slots=True)
class Extras:
    """The extras: the cards (in deal order), where they are, and who took them."""

    cards: tuple[Card, ...]
    place: ExtrasPlace
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Position:
    """A position: see ``spec/position.md`` for every field in every phase.

    Multisets (hands, passes, collected, uncollected) are sorted in canonical
    card order; ``trick`` is in play order; ``pending`` in the order the cards
    entered the pile (trick by trick, each in play order, the extras right
    after the first trick when it was void); the extras in deal order.
    In the ``dealing`` phase ``deal_number`` and ``dealer`` are those of the
    deal about to be dealt.
    """

    players: int
    deal_number: int
    dealer: int
    phase: Phase
    totals: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...] = ()
    passes: tuple[tuple[Card, ...] | None, ...] | None = None
    trick_number: int | None = None
    leader: int | None = None
    trick: tuple[Card, ...] = ()
    hearts_broken: bool = False
    pending: tuple[Card, ...] = ()
    extras: Extras | None = None
    collected: tuple[tuple[Card, ...], ...] = ()
    uncollected: tuple[Card, ...] = ()
    moon_shooter: int | None = None


# --- what the checks read from a position ---------------------------------------------------

#: Suit names in the words of a card player, for messages.
SUIT_NAME = {Suit.C: "club", Suit.D: "diamond", Suit.H: "heart", Suit.S: "spade"}


def fail(field: str, reason: str) -> PositionError:
    """The error refusing a position: ``FIELD: REASON``, citing the first rule the reason names.

    >>> fail("pending", "not a void trick: 9H wins it (TRICK.WINNER, VOID.TRICK)").rule_id
    'TRICK.WINNER'
    >>> fail("hands", "3 hands for 8 players").rule_id is None
    True
    """
    cited = _CITED.search(reason)
    return PositionError(f"{field}: {reason}", cited.group(1) if cited else None)


#: The rule IDs closing a reason: ``(RULE.ID)`` or ``(RULE.ID, OTHER.ID)``.
_CITED = re.compile(r"\(([A-Z]+\.[A-Z_]+)(?:, [A-Z]+\.[A-Z_]+)*\)$")


def pending_tricks(pos: Position) -> list[tuple[Card, ...]]:
    """The set-aside tricks of the pending pile, each in play order (without the extras)."""
    n = pos.players
    pile = pos.pending
    if pos.extras is not None and pos.extras.place is ExtrasPlace.PENDING:
        pile = pile[:n] + pile[n + len(pos.extras.cards):]
    return [pile[i:i + n] for i in range(0, len(pile), n)]


def played_cards(pos: Position) -> Counter[Card]:
    """The cards played to tricks so far this deal: the deck less hands, passes and extras."""
    counts = Counter({c: 2 for c in CARDS})
    for cards in pos.hands:
        counts.subtract(cards)
    for p in pos.passes or ():
        counts.subtract(p or ())
    if pos.extras is not None:
        counts.subtract(pos.extras.cards)
    return +counts


__all__ = [
    "MAX_DEAL_NUMBER",
    "MAX_POSITION_TEXT",
    "MAX_TOTAL",
    "POSITION_PHASES",
    "SUIT_NAME",
    "Extras",
    "ExtrasPlace",
    "Position",
    "fail",
    "pending_tricks",
    "played_cards",
]
