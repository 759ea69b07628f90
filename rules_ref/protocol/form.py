"""Slips in an answer's form, told apart from differences in the rules.

Some fields of an observation have a form the protocol fixes (``spec/protocol.md``,
"The observation"): every hand and the pending pile in canonical order, ``legal`` the
distinct playable cards, the trick in play order, ``last_trick`` kept until the next
trick completes. An answer whose field holds what the reference's holds, only
permuted, with a card listed twice, or (``last_trick``) left out, breaks no rule:
the adapter writes the answer in another form. :func:`form_slip` says so, in one
message naming the field, the form and the fix; the runner reports it once, as an
adapter fault of kind ``form``, never as a rule difference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

#: Each field whose form the protocol fixes: (the form, the fix).
FORMS: dict[str, tuple[str, str]] = {
    "waiting_for": ("the seats yet to pass, from the dealer's left going left",
                    "list the seats from the dealer's left, going left"),
    "legal": ("the distinct cards to_act may play, each once, in canonical order (in "
              "moon-choice the options subtract, add, in that order)",
              "list each card once, even when the seat holds both copies, in canonical order"),
    "hands": ("every hand in canonical order (clubs, diamonds, hearts, spades; 2 to A)",
              "sort each hand into canonical order before sending it"),
    "trick": ("the cards on the table in the order they were played",
              "keep the trick's cards in the order they were played"),
    "last_trick": ("the most recent complete trick of the deal, kept until the next one "
                   "completes (null only before trick 1 is complete, between deals and "
                   "after a start from a position until a trick completes), its cards in "
                   "play order",
                   "keep the last complete trick when the table is cleared, until the next "
                   "trick completes"),
    "pending": ("the pending pile in canonical order",
                "sort the pending pile into canonical order"),
    "winners": ("the winning seats in seat order", "list the winners in seat order"),
}

#: The first words of every message of a slip in form.
HEAD = "your answer is not in the protocol's form"


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _seats(seats: list[int]) -> str:
    return f"seat{'s' if len(seats) > 1 else ''} {_listed([str(s) for s in seats])}"


def _permuted(expected: object, got: object) -> bool:
    return (isinstance(expected, list) and isinstance(got, list) and expected != got
            and all(isinstance(x, str | int) for x in (*expected, *got))
            and Counter(expected) == Counter(got))


def slip(field: str, expected: object, got: object) -> str | None:
    """What is wrong with the form of ``got`` where the reference answers ``expected`` in
    ``field`` (``None``: no slip of form; the values differ otherwise, or not at all).

    >>> slip("hands", [["2C", "3C"], ["4D"]], [["3C", "2C"], ["4D"]])
    'hands lists the cards of seat 0 in another order'
    >>> slip("legal", ["5C", "9C"], ["5C", "5C", "9C"])
    'legal lists 5C twice'
    >>> slip("last_trick", {"number": 1, "leader": 0, "cards": ["2C"], "winner": 0}, None)
    'last_trick is null where the reference keeps the last complete trick'
    >>> slip("hands", [["2C", "3C"]], [["2C", "4C"]]) is None
    True
    """
    if field not in FORMS or expected == got:
        return None
    if field == "last_trick":
        if got is None and expected is not None:
            return "last_trick is null where the reference keeps the last complete trick"
        if isinstance(expected, dict) and isinstance(got, dict) \
                and {k: v for k, v in got.items() if k != "cards"} \
                == {k: v for k, v in expected.items() if k != "cards"} \
                and _permuted(expected.get("cards"), got.get("cards")):
            return "last_trick lists the trick's cards in another order"
        return None
    if field == "hands":
        if not isinstance(expected, list) or not isinstance(got, list) \
                or len(expected) != len(got):
            return None
        seats = [s for s, (e, g) in enumerate(zip(expected, got, strict=True)) if e != g]
        if seats and all(_permuted(expected[s], got[s]) for s in seats):
            return f"hands lists the cards of {_seats(seats)} in another order"
        return None
    if _permuted(expected, got):
        what = "seats" if field in ("waiting_for", "winners") else "cards"
        return f"{field} lists the same {what} in another order"
    if field == "legal" and isinstance(expected, list) and isinstance(got, list) \
            and len(set(expected)) == len(expected) and len(got) > len(expected) \
            and all(isinstance(x, str) for x in got) and set(got) == set(expected):
        twice = [c for c, n in Counter(got).items() if n > 1]
        return f"legal lists {_listed(twice)} twice"
    return None


def form_slip(expected: Mapping[str, Any], got: Mapping[str, Any],
              fields: Iterable[str] | None = None) -> str | None:
    """The message of a slip in form, when every field of ``fields`` (default: those of
    ``expected``) in which ``got`` differs from ``expected`` differs only in form;
    ``None`` when none differs, or one differs in what it says (a rule difference).

    >>> print(form_slip({"pending": ["2C", "QS"], "phase": "playing"},
    ...                 {"pending": ["QS", "2C"], "phase": "playing"}))
    your answer is not in the protocol's form: pending lists the same cards in another order \
(the form: the pending pile in canonical order); fix: sort the pending pile into canonical order
    >>> form_slip({"pending": ["2C"], "points": [1]}, {"pending": ["2C"], "points": [2]}) is None
    True
    """
    names = list(expected) if fields is None else list(fields)
    differing = [f for f in names if f in got and expected.get(f) != got.get(f)]
    slips = [(f, slip(f, expected.get(f), got.get(f))) for f in differing]
    if not slips or any(what is None for _, what in slips):
        return None
    return "; ".join(f"{HEAD}: {what} (the form: {FORMS[f][0]}); fix: {FORMS[f][1]}"
                     for f, what in slips)
