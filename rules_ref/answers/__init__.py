"""Answers to a player's questions, in the one form the command line prints and the site draws.

Who takes this trick (:func:`trick_answer`, ``rules-ref trick`` and the
trick resolver page); which cards the seat to play may play in a position, and
the rule that forbids each other card (:func:`plays_answer`, ``rules-ref plays``
and the legal-plays page), in a position given whole or built from a hand and
the trick so far (:func:`build_position`). Each answer is a list of :class:`Statement`: a
label, words with the cards in them, and the rule IDs that decide it.
"""

from .building import build_position
from .plays import PlaysAnswer, plays_answer
from .statement import Part, Statement, SuitName, cards_parts
from .trick import TrickAnswer, check_trick, trick_answer

__all__ = ["Part", "PlaysAnswer", "Statement", "SuitName", "TrickAnswer", "build_position",
           "cards_parts", "check_trick", "plays_answer", "trick_answer"]
