"""Scoring a deal: card points, deal scores and the moon.

Rules ``SCORE.CARD_POINTS``, ``SCORE.DEAL``, ``MOON.CONDITION``,
``MOON.CHOICE``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import MoonChoice
from .cards import TEN_OF_DIAMONDS, Card, penalty_points
from .errors import IllegalAction, Violation
from .registry import implements
from .ruleset import Moon, MoonPair, Ruleset

PENALTY_POINTS = 52  # 26 hearts x 1 + 2 queens of spades x 13


def bonus_points(cards: Sequence[Card], ruleset: Ruleset) -> int:
    """Points of the other scoring cards the ruleset names (the 10♦ switch)."""
    return ruleset.ten_of_diamonds_points * cards.count(TEN_OF_DIAMONDS)


@implements("SCORE.CARD_POINTS")
def card_points(cards: Sequence[Card], ruleset: Ruleset) -> int:
    """A player's card points for the cards they collected (``SCORE.CARD_POINTS``).

    1 per heart and 13 per Q♠; under ``ten_of_diamonds_points`` each 10♦
    adds that many.

    >>> from rules_ref.cards import parse_cards as p
    >>> card_points(p("QS QS 2H 10D"), Ruleset())
    27
    >>> card_points(p("10D"), Ruleset(ten_of_diamonds_points=-10))
    -10
    """
    return penalty_points(cards) + bonus_points(cards, ruleset)


@implements("SCORE.DEAL")
def deal_scores(collected: Sequence[Sequence[Card]], ruleset: Ruleset) -> tuple[int, ...]:
    """Deal scores without a moon: each player's card points (``SCORE.DEAL``)."""
    return tuple(card_points(cards, ruleset) for cards in collected)


@implements("MOON.CONDITION")
def moon_shooter(collected: Sequence[Sequence[Card]]) -> int | None:
    """The seat that collected all 26 hearts and both Q♠, if any (``MOON.CONDITION``).

    Nobody shoots the moon when any of those cards went uncollected.
    """
    for seat, cards in enumerate(collected):
        if penalty_points(cards) == PENALTY_POINTS:  # 52 points: every heart and both Q♠
            return seat
    return None


@implements("MOON.CONDITION")
def moon_pair(collected: Sequence[Sequence[Card]], ruleset: Ruleset) -> tuple[int, int] | None:
    """The two seats that shot the moon together, in seat order, if any (``MOON.CONDITION``).

    Only under ``moon_pair = others-26``: exactly two seats collected hearts
    or Q♠, and between them all 26 hearts and both Q♠ (any split, 51 + 1
    included). A single seat with all of them is a moon of one
    (:func:`moon_shooter`), never a pair.

    >>> from rules_ref.cards import parse_cards as p
    >>> from rules_ref.cards import QUEEN_OF_SPADES as qs
    >>> hearts = [c for c in p("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")] * 2
    >>> pair = Ruleset(moon_pair=MoonPair.OTHERS_26)
    >>> moon_pair([hearts, [], [qs, qs]], pair), moon_pair([hearts, [], [qs, qs]], Ruleset())
    ((0, 2), None)
    >>> moon_pair([hearts[1:], [hearts[0]], [qs, qs]], pair) is None
    True
    """
    if ruleset.moon_pair is MoonPair.NONE:
        return None
    holders = [seat for seat, cards in enumerate(collected) if penalty_points(cards)]
    if len(holders) != 2:
        return None
    if sum(penalty_points(collected[seat]) for seat in holders) == PENALTY_POINTS:
        return holders[0], holders[1]
    return None


@implements("MOON.CHOICE")
def pair_moon_scores(pair: tuple[int, int], collected: Sequence[Sequence[Card]],
                     ruleset: Ruleset) -> tuple[int, ...]:
    """Deal scores after a moon shot by two seats together (``MOON.CHOICE``, ``moon_pair``).

    No choice is made: both seats of the pair score 0 and every other seat
    +26, replacing the heart and Q♠ points; other scoring cards (the 10♦
    switch) still count.

    >>> pair_moon_scores((0, 2), [[], [], [], []], Ruleset(moon_pair=MoonPair.OTHERS_26))
    (0, 26, 0, 26)
    """
    return tuple((0 if seat in pair else 26) + bonus_points(cards, ruleset)
                 for seat, cards in enumerate(collected))


@implements("MOON.CHOICE")
def moon_options(ruleset: Ruleset) -> tuple[MoonChoice, ...]:
    """The choices a shooter must make (``MOON.CHOICE``); empty when there is a single outcome.

    >>> [str(c) for c in moon_options(Ruleset())]
    ['subtract', 'add']
    """
    return (MoonChoice.SUBTRACT, MoonChoice.ADD) if ruleset.moon is Moon.CHOICE_26 else ()


@implements("MOON.CHOICE")
def needs_moon_choice(shooter: int | None, ruleset: Ruleset) -> bool:
    """Must the deal wait for the shooter's choice before it is scored?

    Only when someone shot the moon (``shooter`` is a seat) and the
    ruleset offers the shooter a choice (``MOON.CHOICE`` in ``spec/rules.toml``).

    >>> needs_moon_choice(3, Ruleset()), needs_moon_choice(None, Ruleset())
    (True, False)
    >>> needs_moon_choice(3, Ruleset(moon=Moon.OTHERS_52))
    False
    """
    return shooter is not None and bool(moon_options(ruleset))


@implements("MOON.CHOICE")
def moon_scores(shooter: int, choice: MoonChoice | None, collected: Sequence[Sequence[Card]],
                ruleset: Ruleset) -> tuple[int, ...]:
    """Deal scores after a moon (``MOON.CHOICE``).

    The moon replaces the heart and Q♠ points: under the default, ``subtract``
    gives the shooter −26 and everyone else 0, ``add`` gives the shooter 0 and
    everyone else +26; ``others-52`` and ``others-104`` give every other
    player +52 or +104. Other scoring cards (the 10♦ switch) still count.

    ``choice`` is the shooter's: it must be one of :func:`moon_options` when
    the ruleset offers a choice, and ``None`` when it does not. Nothing is
    ever chosen for the shooter: any other ``choice`` raises
    :class:`~rules_ref.errors.IllegalAction` naming ``MOON.CHOICE``.

    >>> moon_scores(0, MoonChoice.ADD, [[], [], []], Ruleset())
    (0, 26, 26)
    >>> moon_scores(0, None, [[], [], []], Ruleset())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules_ref.errors.IllegalAction: MOON.CHOICE: seat 0 shot the moon and must choose ...
    """
    options = moon_options(ruleset)
    if options and choice not in options:
        given = "has made no choice" if choice is None else f"chose {choice}"
        raise IllegalAction((Violation("MOON.CHOICE", (
            f"seat {shooter} shot the moon and must choose {' or '.join(options)}, but "
            f"{given}; there is no default")),))
    if not options and choice is not None:
        raise IllegalAction((Violation("MOON.CHOICE", (
            f"under moon = {ruleset.moon} the shooter has no choice to make, but "
            f"{choice} was given")),))
    if ruleset.moon is Moon.CHOICE_26:
        shooter_score, others = (-26, 0) if choice is MoonChoice.SUBTRACT else (0, 26)
    else:
        shooter_score, others = 0, (52 if ruleset.moon is Moon.OTHERS_52 else 104)
    return tuple(
        (shooter_score if seat == shooter else others) + bonus_points(cards, ruleset)
        for seat, cards in enumerate(collected)
    )
