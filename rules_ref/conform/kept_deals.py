"""Deals drawn for an adapter that declares deal constraints (``spec/deal.md``, section 8).

The search draws deals built to order (a seat able to take every card, a void first
trick, …); some break a constraint the adapter declared, a moon deal giving the
shooter both 2♣ for one. :func:`kept` moves the fewest cards that make such a deal
keep the constraints, so that what it was built for survives (a shooter given another
club for a 2♣ still takes every trick); the runner sends the deal only when
:func:`rules_ref.deal.deal_allowed` says it may.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import DealCards
from ..cards import QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, Suit, is_heart
from ..deal import FEWEST_PLAYERS, broken_constraints, deal_allowed, seeded_deal
from ..errors import RulesRefError
from ..findings.failure import Stats
from ..state import GameState
from .choosers import Chooser, RulesetDrawer

#: Swaps made, at most, to bring a deal within the constraints.
MAX_SWAPS = 6


def _points(c: Card) -> bool:
    return is_heart(c) or c == QUEEN_OF_SPADES


def _swap(hands: list[list[Card]], seat: int, card: Card, avoid: Sequence[int],
          wanted: Sequence[bool]) -> bool:
    """Swap ``card`` of hand ``seat`` for a card of another hand, not of the seats ``avoid``:
    a card of the same suit first, never a 2♣ nor a heart or Q♠ (``wanted`` per seat:
    that the seat must keep a card other than a heart or Q♠ after the swap)."""
    others = [s for s in range(len(hands)) if s != seat and s not in avoid]
    for same_suit in (True, False):
        for other in others:
            free = [c for c in hands[other] if c != TWO_OF_CLUBS and not _points(c)
                    and (c.suit == card.suit) == same_suit]
            if not free or (wanted[other] and sum(not _points(c) for c in hands[other]) < 2):
                continue
            give = free[0]
            hands[other].remove(give)
            hands[other].append(card)
            hands[seat].remove(card)
            hands[seat].append(give)
            return True
    return False


def kept(deal: DealCards, constraints: Sequence[str]) -> DealCards | None:
    """``deal`` changed by the fewest swaps that make it keep ``constraints``; ``None`` when
    a few swaps do not.

    >>> from rules_ref.deal import seeded_deal
    >>> d = seeded_deal(0, 6, 1, 0)  # seat 0 holds both 2♣
    >>> [h.count(TWO_OF_CLUBS) for h in d.hands]
    [2, 0, 0, 0, 0, 0]
    >>> k = kept(DealCards(d.hands, d.extras), ["two-of-clubs-apart"])
    >>> [h.count(TWO_OF_CLUBS) for h in k.hands], sorted(sum(k.hands, k.extras)) == sorted(
    ...     sum(d.hands, d.extras))
    ([1, 1, 0, 0, 0, 0], True)
    """
    hands = [list(h) for h in deal.hands]
    extras = list(deal.extras)
    wanted = ["no-hand-of-only-points" in constraints] * len(hands)
    for _ in range(MAX_SWAPS):
        broken = broken_constraints(hands, extras, constraints)
        if not broken:
            return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))
        holders = [s for s, h in enumerate(hands) if TWO_OF_CLUBS in h]
        if broken[0] == "two-of-clubs-apart":
            seat = next(s for s, h in enumerate(hands) if h.count(TWO_OF_CLUBS) == 2)
            done = _swap(hands, seat, TWO_OF_CLUBS, holders, wanted)
        elif broken[0] == "two-of-clubs-dealt":
            hands.append(extras)  # the extras as one more "hand", left out of the choice
            done = _swap(hands, len(hands) - 1, TWO_OF_CLUBS,
                         holders if "two-of-clubs-apart" in constraints else (),
                         [*wanted, False])
            extras = hands.pop()
        else:
            seat = next(s for s, h in enumerate(hands) if all(_points(c) for c in h))
            card = min(c for c in hands[seat] if c.suit == Suit.H) if any(
                is_heart(c) for c in hands[seat]) else hands[seat][0]
            done = _swap(hands, seat, card, (), wanted)
        if not done:
            return None
    return None


class NoDeal(RulesRefError):
    """No deal drawn keeps the adapter's deal constraints (a seeded deal nearly always does)."""


#: Seeded deals drawn, at most, to find one that keeps the declared deal constraints.
DEAL_TRIES = 64


def sent(deal: DealCards, drawer: RulesetDrawer, state: GameState, ch: Chooser,
         stats: Stats) -> tuple[DealCards, bool]:
    """The deal to send for ``deal``, drawn as the next deal of ``state``, to an adapter that
    declares the deal constraints of ``drawer``; True when it is ``deal``, as drawn or
    changed by :func:`kept`.

    A deal that breaks a constraint is never sent: ``stats`` counts it under
    each constraint it breaks; the fewest swaps of cards that keep them are made,
    else seeded deals (their seeds drawn by ``ch``) are drawn until one keeps them.
    """
    constraints = drawer.deal_constraints
    counts = stats.constrained
    broken = broken_constraints(deal.hands, deal.extras, constraints)  # () for no constraint
    if not broken:
        return deal, True
    counts.update(broken)
    made = kept(deal, constraints)
    if made is not None:
        return made, True
    for _ in range(DEAL_TRIES):
        d = seeded_deal(ch.below(1 << 32), state.players, state.deal_number + 1,
                        state.dealer_of_next_deal, FEWEST_PLAYERS)
        if deal_allowed(d.hands, d.extras, constraints):
            return DealCards(d.hands, d.extras), False
    raise NoDeal(f"no deal of {state.players} players drawn in {DEAL_TRIES} tries keeps "
                 f"the declared deal constraints ({', '.join(constraints)})")
