"""Did you mean: the names of a closed set closest to one that was mistyped.

Every message that refuses a name from a closed set (a preset, a switch, a
switch value, a command, an option, a rule ID) offers the closest names
with :func:`did_you_mean`, so a mistyped name reads the same everywhere.
Standard library only; ``difflib`` is imported when a name is refused, not
when the engine loads (an adapter's start pays for its imports).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: How alike a name must be to be offered (:class:`difflib.SequenceMatcher` ratio).
CUTOFF = 0.6
#: Names offered beside the closest must be at most this much less alike.
NEAR = 0.1


def closest(typed: object, names: Iterable[str], limit: int = 3) -> list[str]:
    """The names most like ``typed``, most alike first; a name differing only in case first.

    >>> closest("Wikipedia", ["spruce", "wikipedia", "mensa"])
    ['wikipedia']
    >>> closest("hubpage", ["spruce", "hubpages", "mensa"])
    ['hubpages']
    >>> closest("xyz", ["spruce", "hubpages"])
    []
    """
    import difflib

    if not isinstance(typed, str) or not typed.strip():
        return []
    pool = list(dict.fromkeys(names))
    folded = typed.strip().casefold().replace("_", "-")
    same = [n for n in pool if n.casefold().replace("_", "-") == folded]
    if same:
        return same[:limit]
    keyed = {n.casefold().replace("_", "-"): n for n in pool}

    def likeness(key: str) -> float:
        return difflib.SequenceMatcher(None, folded, key).ratio()

    ranked = sorted((k for k in keyed if likeness(k) >= CUTOFF), key=lambda k: -likeness(k))
    # only the names nearly as close as the closest: 'lft' is 'left', not also 'left-8'
    return [keyed[k] for k in ranked if likeness(k) >= likeness(ranked[0]) - NEAR][:limit]


def did_you_mean(typed: object, names: Iterable[str]) -> str:
    """``"; did you mean wikipedia?"`` (to end a message), or ``""`` when no name is close.

    The names are not quoted: a message quotes only what was typed.

    >>> did_you_mean("Wikipedia", ["spruce", "wikipedia"])
    '; did you mean wikipedia?'
    >>> did_you_mean("moon-par", ["moon_pair", "moon_pairs", "target"])
    '; did you mean moon_pair or moon_pairs?'
    >>> did_you_mean("zzz", ["moon"])
    ''
    """
    return offer(closest(typed, names))


def offer(found: Sequence[str]) -> str:
    """``"; did you mean A, B or C?"`` for names already found, or ``""`` for none.

    >>> offer(["TRICK.CANCEL"]), offer([])
    ('; did you mean TRICK.CANCEL?', '')
    """
    if not found:
        return ""
    words = found[0] if len(found) == 1 else ", ".join(found[:-1]) + " or " + found[-1]
    return f"; did you mean {words}?"
