"""What an implementation does when it plays a rule otherwise, as a player says it.

The words of each alternative to a rule (:mod:`rules_ref.findings.alternatives`): a
common slip, by its name, and another value of a switch; and what a finding says when
no alternative gives the implementation's answer. The findings and every report read
them from here.

>>> slip_words("void-kept-by-leader")
'gives a trick nobody wins to the seat that led it'
>>> value_words("moon", "others-52", "The others score 52. The shooter scores 0.")
'plays as if moon were others-52: the others score 52.'
"""

from __future__ import annotations

import re

#: Each slip, by name: what the implementation does.
_SLIPS = {
    "pair-not-cancelled": "lets a pair of identical cards stand without cancelling them",
    "void-kept-by-leader": "gives a trick nobody wins to the seat that led it",
    "void-kept-by-last-winner": "gives a trick nobody wins to the winner of the trick before",
    "led-suit-first-live": "takes the suit of the first card not cancelled as the led suit",
    "led-card-cancelled-void": "lets nobody win a trick whose led card is cancelled",
    "ace-low": "ranks the ace below the two",
    "cancelled-points-lost": "does not count the points of cancelled cards",
    "extras-lost": "never gives the extras to anybody",
    "pending-kept": "does not give the cards of tricks nobody won to the next trick's winner",
    "void-first-as-opening": "restricts the lead after a first trick nobody won as it "
                             "restricts the opening lead",
    "moon-without-choice": "scores a moon without waiting for the shooter's choice",
}

#: What a finding says when no alternative gives the implementation's answer.
UNEXPLAINED = ("no other value of a switch nor common slip gives this answer: the rule is "
               "read from the fields that differ")


def card_value_words(card: str, points: int) -> str:
    """What an implementation that scores ``card`` (its words, ``4♠``) at ``points`` does.

    >>> card_value_words("4♠", 1)
    'scores 4♠ at 1 point'
    >>> card_value_words("Q♠", 12)
    'scores Q♠ at 12 points'
    """
    return f"scores {card} at {points} point{'' if abs(points) == 1 else 's'}"


def slip_words(slip: str) -> str:
    """What the implementation does under slip ``slip``."""
    return _SLIPS[slip]


def slip_names() -> tuple[str, ...]:
    """The name of every slip, in the order the findings try them."""
    return tuple(_SLIPS)


def value_words(switch: str, value: str, meaning: str) -> str:
    """What the implementation does when it plays ``value`` (as text) of ``switch``: the
    first sentence of the value's meaning (``spec/variants.toml``)."""
    first = re.split(r"(?<=\.) (?=[A-Z])", meaning, maxsplit=1)[0]
    said = first[:1].lower() + first[1:] if first[1:2].islower() or first[1:2] == " " \
        else first
    return f"plays as if {switch} were {value}" + (f": {said}" if said else "")


#: The facts of a moment that may trigger an implementation's internal error, as a player
#: says them, by name (:mod:`rules_ref.findings.triggers`; a pair that cancels:
#: :func:`cancel_fact_words`).
TRIGGER_FACTS = {
    "extras-two-of-clubs": "a 2♣ lies among the extras",
    "extras-both-two-of-clubs": "both 2♣ lie among the extras",
    "extras-queen": "a Q♠ lies among the extras",
    "extras-both-queens": "both Q♠ lie among the extras",
    "trick-end": "a trick ends",
    "void-trick": "a trick is void",
    "pending-collected": "a trick's winner collects the cards of a void trick",
    "void-first-extras": "the first trick is void and the extras wait with it",
    "led-cancelled": "the led card is cancelled",
    "deal-end": "a deal ends",
    "void-last": "the last trick of a deal is void",
    "moon": "a player shoots the moon",
    "moon-pair": "two players shoot the moon together",
    "game-end": "the game ends",
}


def cancel_fact_words(card: str) -> str:
    """The fact of a trick in which the two copies of ``card`` (its text, ``Q♠``) cancel."""
    return f"the two {card} cancel"


def error_words(fact: str) -> str:
    """The words of an internal error that a fact of its moment (its words) triggers."""
    return f"reports an internal error when {fact}"
