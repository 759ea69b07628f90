"""The pending pile, the extras, and what happens to cards still pending at the end.

Rules ``VOID.TRICK`` (setting a trick aside), ``VOID.COLLECT``,
``EXTRAS.FIRST_TRICK`` and ``VOID.LAST``.
"""

from __future__ import annotations

from .cards import Card, Suit, penalty_points
from .registry import implements
from .ruleset import LastTrickVoid, Ruleset
from .tricks import TrickOutcome, seat_at


@implements("EXTRAS.FIRST_TRICK")
def extras_join_trick(trick_number: int) -> bool:
    """Do the extras go with this trick? Only with trick 1 (``EXTRAS.FIRST_TRICK``).

    They go to its winner, or into the pending pile with it when it is
    void; they never take part in cancellation or winning.
    """
    return trick_number == 1


@implements("VOID.TRICK", "VOID.COLLECT")
def after_trick(pending: tuple[Card, ...], outcome: TrickOutcome,
                extras: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Return ``(taken, pending)`` after a trick (``VOID.TRICK``, ``VOID.COLLECT``).

    ``taken`` is what its winner takes, ``pending`` what stays pending.

    A won trick's winner takes every pending card, the trick and ``extras``
    (non-empty only on the first trick); a void trick adds its cards in
    play order to the pending pile, followed by the extras on the first
    trick, so the pile keeps the order cards entered it.

    >>> from rules_ref.cards import parse_cards as p
    >>> from rules_ref.tricks import resolve_trick
    >>> void = resolve_trick(p("2C 2C 3C 3C 4H 4H"), 0, 6)
    >>> taken, pile = after_trick((), void, p("AH KH"))
    >>> taken, " ".join(map(str, pile))
    ((), '2C 2C 3C 3C 4H 4H AH KH')
    """
    if outcome.void:
        return (), pending + outcome.cards + extras
    return pending + outcome.cards + extras, ()


@implements("VOID.LAST")
def settle_pending(pending: tuple[Card, ...], last: TrickOutcome, players: int,
                   ruleset: Ruleset) -> tuple[tuple[tuple[int, tuple[Card, ...]], ...],
                                              tuple[Card, ...]]:
    """Who takes the cards still pending when the deal ends (``VOID.LAST``).

    Returns ``(taken, uncollected)``. By default nobody collects them.
    Under ``last_trick_void = leader`` the last trick's leader takes them;
    under ``split-highest-pair`` they are given out alternately, in pile
    order, to the two players of the highest cancelled pair of the led
    suit, starting with the one who played that pair's first card. Under
    ``split-points-highest-pair`` nobody collects the cards, and their
    points are shared out by :func:`pending_shares`.

    >>> from rules_ref.cards import parse_cards as p
    >>> from rules_ref.tricks import resolve_trick
    >>> last = resolve_trick(p("9C 9C 4C 4C 7H 7H"), 3, 6)
    >>> settle_pending(last.cards, last, 6, Ruleset())[0]
    ()
    """
    if not pending:
        return (), ()
    rule = ruleset.last_trick_void
    if rule is LastTrickVoid.LEADER:
        return ((last.leader, pending),), ()
    if rule is LastTrickVoid.SPLIT_HIGHEST_PAIR:
        first, second = highest_cancelled_pair(last, players)
        return ((first, pending[0::2]), (second, pending[1::2])), ()
    return (), pending


@implements("VOID.LAST")
def pending_shares(uncollected: tuple[Card, ...], last: TrickOutcome | None, players: int,
                   ruleset: Ruleset) -> tuple[int, ...]:
    """Each seat's share of the points of the cards nobody collected (``VOID.LAST``).

    All 0 except under ``last_trick_void = split-points-highest-pair``: the
    heart and Q♠ points of the uncollected cards (1 a heart, 13 a Q♠; a 10♦
    scores for nobody) are split evenly between the two players of the
    highest cancelled pair of the led suit in the void last trick ``last``;
    an odd point goes to the one who played that pair's first card. The
    shares are part of those seats' card points for the deal.

    >>> from rules_ref.cards import parse_cards as p
    >>> from rules_ref.tricks import resolve_trick
    >>> last = resolve_trick(p("9C 9C 4C 4C 7H 7H"), 3, 6)
    >>> split = Ruleset(last_trick_void=LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR)
    >>> pending_shares(last.cards + p("QS"), last, 6, split)
    (0, 0, 0, 8, 7, 0)
    >>> pending_shares(last.cards, last, 6, Ruleset())
    (0, 0, 0, 0, 0, 0)
    """
    shares = [0] * players
    points = penalty_points(uncollected)
    if ruleset.last_trick_void is not LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR or not points:
        return tuple(shares)
    assert last is not None, "the void last trick decides who shares its points"
    first, second = highest_cancelled_pair(last, players)
    shares[second] = points // 2
    shares[first] = points - points // 2
    return tuple(shares)


def highest_cancelled_pair(trick: TrickOutcome, players: int) -> tuple[int, int]:
    """The seats (in play order) of the highest cancelled pair of the led suit."""
    suit: Suit = trick.led_suit
    top = max(c for c in trick.cancelled if c.suit == suit)
    positions = [i for i, c in enumerate(trick.cards) if c == top]
    return seat_at(trick.leader, positions[0], players), seat_at(trick.leader, positions[1],
                                                                 players)
