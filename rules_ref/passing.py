"""Passing: how many cards, to whom, and the simultaneous exchange.

Rules ``PASS.CARDS``, ``PASS.DIRECTION``, ``PASS.EXCHANGE``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .cards import Card, format_cards
from .errors import Violation
from .registry import implements
from .ruleset import PassDirection, Ruleset


@implements("PASS.DIRECTION")
def pass_direction(deal_number: int, ruleset: Ruleset) -> PassDirection:
    """The direction of deal ``deal_number`` (1-based) (``PASS.DIRECTION``).

    The ruleset's ``pass_cycle`` repeats from the first deal of the game; by
    default odd deals pass left and even deals right.

    >>> [str(pass_direction(k, Ruleset())) for k in (1, 2, 3, 4)]
    ['left', 'right', 'left', 'right']
    """
    cycle = ruleset.pass_cycle
    return cycle[(deal_number - 1) % len(cycle)]


@implements("PASS.DIRECTION")
def pass_offset(direction: PassDirection, players: int) -> int | None:
    """Seats to the left a pass travels (``PASS.DIRECTION``); ``None`` when nobody passes.

    Left is +1, right is −1 (that is, n−1), across is ⌊n/2⌋.

    >>> [pass_offset(d, 7) for d in PassDirection]
    [1, 6, 3, None]
    """
    if direction is PassDirection.LEFT:
        return 1
    if direction is PassDirection.RIGHT:
        return players - 1
    if direction is PassDirection.ACROSS:
        return players // 2
    return None


@implements("PASS.DIRECTION")
def pass_target(seat: int, deal_number: int, players: int, ruleset: Ruleset) -> int | None:
    """The seat that receives ``seat``'s pass on deal ``deal_number`` (``PASS.DIRECTION``).

    >>> [pass_target(0, k, 8, Ruleset()) for k in (1, 2)]
    [1, 7]
    """
    offset = pass_offset(pass_direction(deal_number, ruleset), players)
    return None if offset is None else (seat + offset) % players


@implements("PASS.CARDS")
def pass_violations(cards: Sequence[Card], hand: Sequence[Card],
                    ruleset: Ruleset) -> tuple[Violation, ...]:
    """What is wrong with passing ``cards`` from ``hand`` (``PASS.CARDS``); empty if legal.

    A pass is exactly ``pass_count`` cards, all from the passer's own hand
    (both copies of a card may be passed only if both are held).

    >>> from rules_ref.cards import parse_cards
    >>> pass_violations(parse_cards("QS QS 2H"), parse_cards("QS QS 2H 3C"), Ruleset())
    ()
    >>> [str(v) for v in pass_violations(parse_cards("AS"), parse_cards("QS 2H"), Ruleset())]
    ['PASS.CARDS: a pass is 3 cards, not 1', 'PASS.CARDS: AS is not in the hand']
    """
    problems = []
    if len(cards) != ruleset.pass_count:
        problems.append(Violation("PASS.CARDS",
                                  f"a pass is {ruleset.pass_count} cards, not {len(cards)}"))
    missing = Counter(cards) - Counter(hand)
    if missing:
        problems.append(Violation("PASS.CARDS",
                                  f"{format_cards(sorted(missing.elements()))} "
                                  f"{'is' if missing.total() == 1 else 'are'} not in the hand"))
    return tuple(problems)


@implements("PASS.EXCHANGE")
def may_pass(given: Sequence[Card] | None) -> bool:
    """May a seat whose pass so far is ``given`` (``None``: not yet passed) pass now?

    Every seat passes once, in any order, and a pass once given can be
    neither changed nor withdrawn (``PASS.EXCHANGE`` in ``spec/rules.toml``).

    >>> from rules_ref.cards import parse_cards
    >>> may_pass(None), may_pass(parse_cards("2C 3C 4C"))
    (True, False)
    """
    return given is None


def remove_cards(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    """``hand`` less one copy of each card in ``cards`` (which it must hold)."""
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


@implements("PASS.EXCHANGE")
def exchange(hands: tuple[tuple[Card, ...], ...], passes: Sequence[Sequence[Card]],
             offset: int) -> tuple[tuple[Card, ...], ...]:
    """The hands after every pass moves at once (``PASS.EXCHANGE``).

    Each seat gives its pass to the seat ``offset`` to its left and receives
    from the seat ``offset`` to its right; nothing moves until every seat
    has passed, so no pass depends on cards received.

    >>> from rules_ref.cards import parse_cards as p
    >>> [" ".join(map(str, h)) for h in exchange((p("2C 3C"), p("2D 3D")), (p("2C"), p("3D")), 1)]
    ['3C 3D', '2C 2D']
    """
    n = len(hands)
    return tuple(
        tuple(sorted(remove_cards(hands[seat], passes[seat]) + tuple(passes[(seat - offset) % n])))
        for seat in range(n)
    )
