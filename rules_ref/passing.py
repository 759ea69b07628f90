"""Passing: how many cards, to whom, and the simultaneous exchange.

Rules ``PASS.CARDS``, ``PASS.DIRECTION``, ``PASS.EXCHANGE``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import TWO_OF_CLUBS, Card, format_cards
from .deal import hand_size
from .errors import SetupError, Violation
from .registry import implements
from .ruleset import PassDirection, PassForbidden, PassStep, Ruleset, SeatDistance


@implements("PASS.DIRECTION")
def pass_direction(deal_number: int, ruleset: Ruleset) -> PassStep:
    """The direction of deal ``deal_number`` (1-based) (``PASS.DIRECTION``).

    The ruleset's ``pass_cycle`` repeats from the first deal of the game; by
    default odd deals pass left and even deals right.

    >>> [str(pass_direction(k, Ruleset())) for k in (1, 2, 3, 4)]
    ['left', 'right', 'left', 'right']
    """
    cycle = ruleset.pass_cycle
    return cycle[(deal_number - 1) % len(cycle)]


def seat_distance(step: SeatDistance) -> int:
    """The signed distance of ``left-k`` (+k) or ``right-k`` (−k).

    >>> seat_distance(SeatDistance.LEFT_2), seat_distance(SeatDistance.RIGHT_3)
    (2, -3)
    """
    side, _, k = step.value.partition("-")
    return int(k) if side == "left" else -int(k)


@implements("PASS.DIRECTION")
def check_pass_cycle(ruleset: Ruleset, players: int) -> None:
    """Refuse a ``pass_cycle`` with a step of k seats that a table of ``players`` lacks.

    ``left-k`` and ``right-k`` need k < ``players`` (k from 2 to n − 1): a pass
    k seats away must reach another seat, the seat k places along. Raises
    :class:`~rules_ref.errors.SetupError` naming ``PASS.DIRECTION``.

    >>> from rules_ref.ruleset import Ruleset
    >>> check_pass_cycle(Ruleset.from_dict({"pass_cycle": ["left-5"]}), 6)
    >>> check_pass_cycle(Ruleset.from_dict({"pass_cycle": ["right-6"]}), 6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules_ref.errors.SetupError: PASS.DIRECTION: pass_cycle step right-6 passes 6 seats away, ...
    """
    for step in ruleset.pass_cycle:
        if isinstance(step, SeatDistance) and abs(seat_distance(step)) >= players:
            side = step.value.partition("-")[0]
            raise SetupError(f"pass_cycle step {step} passes {abs(seat_distance(step))} seats "
                             f"away, but a {players}-player table has only {players - 1} other "
                             f"seats ({side}-k needs k from 2 to {players - 1})",
                             "PASS.DIRECTION")


@implements("PASS.CARDS")
def check_pass_forbidden(ruleset: Ruleset, players: int) -> None:
    """Refuse a ruleset under which a hand could hold too few cards it may pass.

    Under ``pass_forbidden = two-of-clubs`` a hand may hold both 2♣, so
    ``pass_count`` must be at most the hand size less 2. Raises
    :class:`~rules_ref.errors.SetupError` naming ``PASS.CARDS``.

    >>> from rules_ref.ruleset import Ruleset
    >>> check_pass_forbidden(Ruleset(pass_count=7, pass_forbidden=PassForbidden.TWO_OF_CLUBS), 11)
    >>> no_2c = Ruleset(pass_count=8, pass_forbidden=PassForbidden.TWO_OF_CLUBS)
    >>> check_pass_forbidden(no_2c, 11)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules_ref.errors.SetupError: PASS.CARDS: pass_count 8 cannot be passed at 11 players ...
    """
    if ruleset.pass_forbidden is PassForbidden.NONE:
        return
    size = hand_size(players)
    if ruleset.pass_count > size - 2:
        raise SetupError(f"pass_count {ruleset.pass_count} cannot be passed at {players} players "
                         f"under pass_forbidden = {ruleset.pass_forbidden}: a hand of {size} "
                         f"cards may hold both 2C, leaving {size - 2} it may pass", "PASS.CARDS")


def check_table(ruleset: Ruleset, players: int) -> None:
    """The passing switches meet the player count: :func:`check_pass_cycle`, then
    :func:`check_pass_forbidden` (the game's set-up calls this before anything is dealt)."""
    check_pass_cycle(ruleset, players)
    check_pass_forbidden(ruleset, players)


@implements("PASS.DIRECTION")
def pass_offset(direction: PassStep, players: int) -> int | None:
    """Seats to the left a pass travels (``PASS.DIRECTION``); ``None`` when nobody passes.

    Left is +1, right is −1 (that is, n−1), across is ⌊n/2⌋, ``left-k`` is +k
    and ``right-k`` is −k (n−k); k is below n (:func:`check_pass_cycle`).

    >>> [pass_offset(d, 7) for d in PassDirection]
    [1, 6, 3, None]
    >>> pass_offset(SeatDistance.LEFT_2, 7), pass_offset(SeatDistance.RIGHT_2, 7)
    (2, 5)
    """
    if isinstance(direction, SeatDistance):
        return seat_distance(direction) % players
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
def passable(hand: Sequence[Card], ruleset: Ruleset) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be among a pass (``PASS.CARDS``), in the hand's order.

    Every card, except a 2♣ under ``pass_forbidden = two-of-clubs``.

    >>> from rules_ref.cards import parse_cards
    >>> no_2c = Ruleset(pass_forbidden=PassForbidden.TWO_OF_CLUBS)
    >>> [str(c) for c in passable(parse_cards("2C 2C 3C QS"), no_2c)]
    ['3C', 'QS']
    """
    if ruleset.pass_forbidden is PassForbidden.TWO_OF_CLUBS:
        return tuple(c for c in hand if c != TWO_OF_CLUBS)
    return tuple(hand)


@implements("PASS.CARDS")
def pass_violations(cards: Sequence[Card], hand: Sequence[Card],
                    ruleset: Ruleset) -> tuple[Violation, ...]:
    """What is wrong with passing ``cards`` from ``hand`` (``PASS.CARDS``); empty if legal.

    A pass is exactly ``pass_count`` cards, all from the passer's own hand
    (both copies of a card may be passed only if both are held). Under
    ``pass_forbidden = two-of-clubs`` no 2♣ may be among them.

    >>> from rules_ref.cards import parse_cards
    >>> pass_violations(parse_cards("QS QS 2H"), parse_cards("QS QS 2H 3C"), Ruleset())
    ()
    >>> [str(v) for v in pass_violations(parse_cards("AS"), parse_cards("QS 2H"), Ruleset())]
    ['PASS.CARDS: a pass is 3 cards, not 1', 'PASS.CARDS: AS is not in the hand']
    >>> no_2c = Ruleset(pass_forbidden=PassForbidden.TWO_OF_CLUBS)
    >>> [str(v) for v in pass_violations(parse_cards("2C 3C 4C"), parse_cards("2C 3C 4C"), no_2c)]
    ['PASS.CARDS: a 2C may not be passed (pass_forbidden = two-of-clubs)']
    """
    problems = []
    if len(cards) != ruleset.pass_count:
        problems.append(Violation("PASS.CARDS",
                                  f"a pass is {ruleset.pass_count} cards, not {len(cards)}"))
    held = list(hand)
    missing = []
    for c in cards:  # each card passed takes one copy from the hand
        if c in held:
            held.remove(c)
        else:
            missing.append(c)
    if missing:
        problems.append(Violation("PASS.CARDS",
                                  f"{format_cards(sorted(missing))} "
                                  f"{'is' if len(missing) == 1 else 'are'} not in the hand"))
    if ruleset.pass_forbidden is PassForbidden.TWO_OF_CLUBS and TWO_OF_CLUBS in cards:
        problems.append(Violation("PASS.CARDS", "a 2C may not be passed "
                                  "(pass_forbidden = two-of-clubs)"))
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
