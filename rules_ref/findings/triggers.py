"""What triggers an implementation's internal error: the facts of its moment, read by evidence.

An implementation that reports an internal error (protocol version 2's
``error``) fails at one moment of a game, and what makes it fail is a fact
of that moment: a deal whose extras hold both 2♣, a trick whose two Q♠
cancel, a void trick, a void last trick, a moon. The same fact met at a
start and at a later deal, on the first trick or the last, is one cause.

* :func:`step_facts`: the facts of one moment (a start that deals, or an
  action the reference applied), the most general first (:data:`FACTS`,
  then each pair that cancels, in the deck's order). A start from a
  position, a pass, a play that does not end a trick hold none.
* A fact is *cleared* when the implementation went through a moment that
  holds it as the reference did (:attr:`~.failure.Stats.cleared`): it is
  not what makes the implementation fail.
* A finding of internal errors keeps the facts all its occurrences share;
  after the search :mod:`.error_causes` names it by the one no answer
  cleared (its *trigger*).

>>> from rules_ref.cards import parse_card
>>> [f.words for f in deal_facts([parse_card("2C"), parse_card("2C"), parse_card("5H")])]
['a 2♣ lies among the extras', 'both 2♣ lie among the extras']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action, ChooseMoon, DealCards, Play
from ..cards import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, parse_card
from ..errors import RulesRefError
from ..state import GameState
from ..state_parts import Phase
from ..wording.slips import TRIGGER_FACTS, cancel_fact_words


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of a moment that may make an implementation fail: its stable name, the rule
    it belongs to and its words (``the two Q♠ cancel``)."""

    name: str
    rule: str
    words: str


#: The facts of a moment, the most general first: (name, rule); words in
#: :data:`~rules_ref.wording.slips.TRIGGER_FACTS`. A pair that cancels follows them
#: (:func:`cancel_fact`).
_RULES = (
    ("extras-two-of-clubs", "EXTRAS.FIRST_TRICK"),
    ("extras-both-two-of-clubs", "EXTRAS.FIRST_TRICK"),
    ("extras-queen", "EXTRAS.FIRST_TRICK"),
    ("extras-both-queens", "EXTRAS.FIRST_TRICK"),
    ("trick-end", "TRICK.WINNER"),
    ("led-cancelled", "TRICK.LED_SUIT"),
    ("void-trick", "VOID.TRICK"),
    ("pending-collected", "VOID.COLLECT"),
    ("void-first-extras", "EXTRAS.FIRST_TRICK"),
    ("deal-end", "SCORE.DEAL"),
    ("void-last", "VOID.LAST"),
    ("moon", "MOON.CONDITION"),
    ("moon-pair", "MOON.CONDITION"),
    ("game-end", "GAME.END"),
)
FACTS: dict[str, Fact] = {name: Fact(name, rule, TRIGGER_FACTS[name]) for name, rule in _RULES}
_CANCEL = "cancel:"
#: The facts each fact is a case of (a void last trick is a void trick and a deal's end; a
#: pair that cancels, a trick's end: :func:`ancestors`).
_PARENTS = {
    "extras-both-two-of-clubs": ("extras-two-of-clubs",),
    "extras-both-queens": ("extras-queen",),
    "led-cancelled": ("trick-end",),
    "void-trick": ("led-cancelled",),
    "pending-collected": ("trick-end",),
    "void-first-extras": ("void-trick",),
    "void-last": ("void-trick", "deal-end"),
    "moon": ("deal-end",),
    "moon-pair": ("moon",),
    "game-end": ("deal-end",),
}


def ancestors(name: str) -> frozenset[str]:
    """The facts the fact ``name`` is a case of, however far up.

    >>> sorted(ancestors("void-last"))
    ['deal-end', 'led-cancelled', 'trick-end', 'void-trick']
    """
    if name.startswith(_CANCEL):
        return frozenset({"trick-end"})
    out: set[str] = set()
    for parent in _PARENTS.get(name, ()):
        out |= {parent} | ancestors(parent)
    return frozenset(out)


#: Every fact's place in the order facts are tried: the general first, then the pairs.
ORDER = {name: i for i, name in enumerate(
    [*FACTS, *(_CANCEL + str(c) for c in CARDS)])}


def cancel_fact(card: Card) -> Fact:
    """The fact of a trick in which the two copies of ``card`` cancel (``TRICK.CANCEL``)."""
    return Fact(_CANCEL + str(card), "TRICK.CANCEL", cancel_fact_words(card.pretty))


def fact_named(name: str) -> Fact:
    """The fact of a name :func:`step_facts` gives."""
    if name.startswith(_CANCEL):
        return cancel_fact(parse_card(name.removeprefix(_CANCEL)))
    return FACTS[name]


def deal_facts(extras: Sequence[Card]) -> list[Fact]:
    """The facts of a deal whose extras are ``extras``."""
    twos, queens = list(extras).count(TWO_OF_CLUBS), list(extras).count(QUEEN_OF_SPADES)
    held = {"extras-two-of-clubs": twos >= 1, "extras-both-two-of-clubs": twos == 2,
            "extras-queen": queens >= 1, "extras-both-queens": queens == 2}
    return [FACTS[name] for name, yes in held.items() if yes]


def step_facts(before: GameState, action: Action | None,
               after: GameState | None = None) -> list[Fact]:
    """The facts of one moment, most general first: a start that deals (``action`` None,
    ``before`` its state), or ``action`` applied to ``before`` (``after``: the state it
    leads to, made here when not given; an action the reference rejects holds none)."""
    if action is None:
        if before.phase in (Phase.PASSING, Phase.PLAYING) and not before.tricks \
                and not before.trick:
            return deal_facts(before.extras)
        return []
    if isinstance(action, DealCards):
        return deal_facts(action.extras)
    ends_trick = type(action) is Play and len(before.trick) + 1 == before.players
    if not ends_trick and not isinstance(action, ChooseMoon):
        return []
    if after is None:
        try:
            after, _ = before.apply(action)
        except RulesRefError:  # a moment the reference refuses holds no fact
            return []
    out = _trick_facts(before, after) if ends_trick else []
    if after.phase is not Phase.PLAYING:
        out += _deal_end_facts(after)
    return sorted(out, key=lambda f: ORDER[f.name])


def _trick_facts(before: GameState, after: GameState) -> list[Fact]:
    trick = after.tricks[-1]
    out = [FACTS["trick-end"]]
    if trick.void:
        out.append(FACTS["void-trick"])
        if trick.cards and len(after.tricks) == 1 and before.extras:
            out.append(FACTS["void-first-extras"])
        if after.phase is not Phase.PLAYING:
            out.append(FACTS["void-last"])
    elif len(after.tricks) > 1 and after.tricks[-2].void:
        out.append(FACTS["pending-collected"])
    if trick.cards and trick.cards[0] in trick.cancelled:
        out.append(FACTS["led-cancelled"])
    out += [cancel_fact(c) for c in trick.cancelled]
    return out


def _deal_end_facts(after: GameState) -> list[Fact]:
    out = [FACTS["deal-end"]]
    if after.phase is Phase.MOON_CHOICE:
        out.append(FACTS["moon"])
    elif after.deal_results:
        result = after.deal_results[-1]
        if result.moon_shooter is not None:
            out.append(FACTS["moon"])
        if result.moon_pair is not None:
            out.append(FACTS["moon-pair"])
    if after.phase is Phase.GAME_OVER:
        out.append(FACTS["game-end"])
    return out
