"""The starts a run offered and which the implementation rejected, by what each start holds.

An implementation that rejects a ``start`` the reference plays rejects it for
something the start holds: its player count, a switch's value, the deal it
begins at, its totals, or its deal. One rejected start says nothing about
which; a run's starts together do. :class:`StartTally` counts every start of
a table the rules allow that a run offered (the games' and the tables at the
edge, not the tables the rules refuse nor the starts from a position), by
each of its *features* (:func:`start_features`), and how many of them were
rejected. A feature whose every start was rejected is one the implementation
refuses; :mod:`.start_causes` reads the cause of the rejections from it.

A feature is keyed ``DIMENSION=VALUE``: ``players=11``, ``moon=others-52``
(a switch, its value as ``spec/variants.toml`` writes it), ``deal_number=later``,
``dealer=another``, ``totals=above-zero``, ``pass-edge=yes`` (the largest
``pass_count`` the rules allow under ``pass_forbidden = two-of-clubs``) and one
``deal:FACT=yes`` or ``=no`` for each fact of the deal (:data:`DEAL_FACTS`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, Suit, parse_card
from ..deal import hand_size
from ..errors import RulesRefError
from ..wording import switch_value

Hands = Sequence[Sequence[Card]]


def _twin_hands(hands: Hands, extras: Sequence[Card]) -> bool:
    return len({tuple(sorted(h)) for h in hands}) < len(hands)


def _both_clubs_aside(hands: Hands, extras: Sequence[Card]) -> bool:
    return list(extras).count(TWO_OF_CLUBS) == 2


def _points_only(hands: Hands, extras: Sequence[Card]) -> bool:
    return any(h and all(c.suit is Suit.H or c == QUEEN_OF_SPADES for c in h) for h in hands)


def _one_suit(hands: Hands, extras: Sequence[Card]) -> bool:
    return any(h and len({c.suit for c in h}) == 1 for h in hands)


def _pair_held(hands: Hands, extras: Sequence[Card]) -> bool:
    return any(len(set(h)) < len(h) for h in hands)


#: The facts of a deal an implementation may trip over, each with what it says of the deal.
DEAL_FACTS: dict[str, tuple[Callable[[Hands, Sequence[Card]], bool], str]] = {
    "twin-hands": (_twin_hands, "two seats hold the same hand"),
    "both-2c-aside": (_both_clubs_aside, "both 2♣ lie among the extras"),
    "points-only": (_points_only, "a seat holds only hearts and Q♠"),
    "one-suit": (_one_suit, "a seat holds cards of one suit only"),
    "pair-held": (_pair_held, "a seat holds both copies of a card"),
}


def _cards(texts: object) -> list[Card] | None:
    if not isinstance(texts, list):
        return None
    try:
        return [parse_card(t) for t in texts]
    except (RulesRefError, TypeError, ValueError):
        return None


def start_features(msg: dict[str, Any], dealt: tuple[Hands, Sequence[Card]] | None = None
                   ) -> tuple[str, ...]:
    """The features of a ``start`` message (see the module's description).

    ``dealt``: its hands and extras as cards, when the caller has read them already.
    """
    players = msg.get("players")
    out = [f"players={players}"]
    given = msg.get("ruleset")
    ruleset: dict[str, Any] = given if isinstance(given, dict) else {}
    out += [f"{name}={switch_value(value)}" for name, value in ruleset.items()]
    out.append(f"deal_number={'first' if msg.get('deal_number') == 1 else 'later'}")
    out.append(f"dealer={'seat-0' if msg.get('dealer') == 0 else 'another'}")
    totals = msg.get("totals")
    zero = isinstance(totals, list) and not any(totals)
    out.append(f"totals={'zero' if zero else 'above-zero'}")
    if type(players) is int and ruleset.get("pass_forbidden") == "two-of-clubs":
        try:
            edge = ruleset.get("pass_count") == hand_size(players) - 2
        except RulesRefError:
            edge = False
        out.append(f"pass-edge={'yes' if edge else 'no'}")
    if dealt is None:
        hands = msg.get("hands")
        held = [_cards(h) for h in hands] if isinstance(hands, list) else None
        extras = _cards(msg.get("extras", []))
        if held is not None and extras is not None and all(h is not None for h in held):
            dealt = ([h for h in held if h is not None], extras)
    if dealt is not None:
        out += [f"deal:{name}={'yes' if test(*dealt) else 'no'}"
                for name, (test, _) in DEAL_FACTS.items()]
    return tuple(out)


@dataclass
class StartTally:
    """The starts of tables the rules allow that a run offered, and what became of them.

    ``offered`` and ``rejected`` count the starts by feature; ``starts``,
    ``played`` (answered with an observation) and ``rejections`` count them all.
    """

    starts: int = 0
    played: int = 0
    rejections: int = 0
    offered: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)

    def note(self, msg: dict[str, Any], answer: str,
             dealt: tuple[Hands, Sequence[Card]] | None = None) -> None:
        """One start offered and the kind of its answer (``observation``, ``rejected``…);
        ``dealt``: its hands and extras as cards, if read already."""
        features = start_features(msg, dealt)
        self.starts += 1
        self.offered.update(features)
        if answer == "observation":
            self.played += 1
        elif answer == "rejected":
            self.rejections += 1
            self.rejected.update(features)

    @property
    def all_rejected(self) -> bool:
        """Was every start offered rejected (and at least one offered)?"""
        return self.starts > 0 and self.rejections == self.starts

    def add(self, other: StartTally) -> None:
        self.starts += other.starts
        self.played += other.played
        self.rejections += other.rejections
        self.offered.update(other.offered)
        self.rejected.update(other.rejected)

    def to_json(self) -> dict[str, Any]:
        return {"starts": self.starts, "played": self.played, "rejections": self.rejections,
                "offered": dict(self.offered), "rejected": dict(self.rejected)}

    @classmethod
    def from_json(cls, data: object) -> StartTally:
        if not isinstance(data, dict):
            return cls()
        return cls(int(data.get("starts", 0)), int(data.get("played", 0)),
                   int(data.get("rejections", 0)), Counter(data.get("offered", {})),
                   Counter(data.get("rejected", {})))
