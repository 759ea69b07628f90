"""What follows a trick, in the words every reader sees.

The terminal's play log and the site's drawn deals both say who plays next
after a trick; they take the words from here, so that after a void last trick
neither says that its leader leads again. A :class:`Said` is the words and the
rule that decides them: the terminal writes the rule's ID in brackets, the
site links it to the rule's page.

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


def after_void_trick(leader: str, last: bool) -> Said:
    """What follows a void trick led by ``leader`` (a seat's name: ``"seat 3"``, ``"Al"``).

    Its leader leads again (``VOID.LEADER``), unless it was the deal's last
    trick: then the deal is over, and ``VOID.LAST`` says where the cards still
    pending go.
    """
    if last:
        return Said("the deal is over", "VOID.LAST")
    return Said(f"{leader} leads again", "VOID.LEADER")
