"""What a trick decided and what follows it, in the words every reader sees.

The terminal's play log and the site's drawn tricks say who took a trick, or
that nobody did, and who plays next; they take the words from here, so that
they say it alike (and after a void last trick neither says that its leader
leads again). A :class:`Said` is the words and the rule that decides them: the
terminal writes the rule's ID in brackets, the site links it to the rule's
page. Seats, cards and suits come in as their reader shows them (``seat 4`` or
``Al``; ``K♠`` or ``KS``; ``♠`` or ``spade``).

>>> trick_won("seat 4", "K♠", "♠")
Said(words='seat 4 wins with K♠, the highest uncancelled ♠', rule='TRICK.WINNER')
>>> trick_set_aside("heart").words
'no uncancelled heart is left, so nobody wins: the trick is set aside'
>>> after_void_trick("seat 3", last=False)
Said(words='seat 3 leads again', rule='VOID.LEADER')
>>> after_void_trick("seat 3", last=True).words
'the deal is over'
"""

from __future__ import annotations

from typing import NamedTuple


class Said(NamedTuple):
    """Words of a sentence and the rule that decides what they say."""

    words: str
    rule: str


def trick_won(winner: str, card: str, suit: str) -> Said:
    """Who takes a trick: the seat of the highest uncancelled card of the led ``suit``."""
    return Said(f"{winner} wins with {card}, the highest uncancelled {suit}", "TRICK.WINNER")


def trick_set_aside(suit: str) -> Said:
    """A trick with no uncancelled card of the led ``suit``: nobody takes it."""
    return Said(f"no uncancelled {suit} is left, so nobody wins: the trick is set aside",
                "VOID.TRICK")


def after_void_trick(leader: str, last: bool) -> Said:
    """What follows a void trick led by ``leader`` (a seat's name: ``"seat 3"``, ``"Al"``).

    Its leader leads again (``VOID.LEADER``), unless it was the deal's last
    trick: then the deal is over, and ``VOID.LAST`` says where the cards still
    pending go.
    """
    if last:
        return Said("the deal is over", "VOID.LAST")
    return Said(f"{leader} leads again", "VOID.LEADER")
