"""Hypothesis strategies for a game's setup: rulesets, player counts, dealers, totals.

:func:`rulesets` draws presets and mixes of switch values, inside what an
adapter supports when given its ``switches``; :func:`near_target_totals`
draws totals often just below the target, so that games end soon.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from ..deal import MAX_PLAYERS
from ..errors import InputError, SetupError
from ..passing import check_table
from ..protocol.handshake import unsupported_switches
from ..ruleset import (
    MAX_PASS_COUNT,
    FirstTrickPoints,
    FirstTrickTwoOfClubs,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    MoonPair,
    OpeningLead,
    PassDirection,
    PassForbidden,
    Ruleset,
    SeatDistance,
    presets,
)

#: The seat distances every table of 5 or more players has (k up to 4).
_NEAR = tuple(d for d in SeatDistance if int(d.value.partition("-")[2]) <= 4)

#: Values each switch is drawn from: enums in full, integers from a range
#: that always includes the published values.
_SWITCH_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "min_players": st.sampled_from((6, 5)),
    "pass_count": st.sampled_from((3, 2)) | st.integers(1, MAX_PASS_COUNT),
    "pass_cycle": st.sampled_from(((PassDirection.LEFT, PassDirection.RIGHT),
                                   (PassDirection.HOLD,))) |
    st.lists(st.sampled_from(PassDirection), min_size=1, max_size=5).map(tuple) |
    st.lists(st.sampled_from((*PassDirection, *_NEAR)), min_size=1, max_size=8).map(tuple),
    "pass_forbidden": st.sampled_from(PassForbidden),
    "opening_lead": st.sampled_from(OpeningLead),
    "first_trick_points": st.sampled_from(FirstTrickPoints),
    "first_trick_two_of_clubs": st.sampled_from(FirstTrickTwoOfClubs),
    "hearts_broken_by": st.sampled_from(HeartsBrokenBy),
    "last_trick_void": st.sampled_from(LastTrickVoid),
    "moon": st.sampled_from(Moon),
    "moon_pair": st.sampled_from(MoonPair),
    "ten_of_diamonds_points": st.sampled_from((0, -10, 10)) | st.integers(-1000, 1000),
    "target": st.sampled_from((150, 100)) | st.integers(1, 300),
}


def switch_values(name: str, supported: object = "any") -> st.SearchStrategy[Any]:
    """Values of switch ``name``: every value, or only those in ``supported``.

    ``supported`` is an adapter's declaration for the switch
    (``spec/protocol.md``, ``hello``): ``"any"``, or a list of values in
    their JSON form.
    """
    if name not in _SWITCH_STRATEGIES:
        raise InputError(f"unknown switch {name!r}; known: {', '.join(_SWITCH_STRATEGIES)}")
    if supported == "any":
        return _SWITCH_STRATEGIES[name]
    if not isinstance(supported, list | tuple) or not supported:
        raise InputError(f"switch {name}: expected \"any\" or a non-empty list of values, "
                         f"got {supported!r:.60}")
    values = [getattr(Ruleset.from_dict({name: v}, f"switch {name}"), name) for v in supported]
    return st.sampled_from(values)


def rulesets(switches: Mapping[str, object] | None = None) -> st.SearchStrategy[Ruleset]:
    """Rulesets: every preset of ``spec/variants.toml`` and any mix of switch values.

    Shrinks toward the default ruleset (the preset ``spruce``). With
    ``switches`` (an adapter's ``supports.switches``), only rulesets inside
    that set are drawn: a switch left out keeps its default value.
    """
    default = Ruleset()
    if switches is None:
        chosen = {name: _SWITCH_STRATEGIES[name] for name in _SWITCH_STRATEGIES}
    else:
        chosen = {name: switch_values(name, switches[name]) if name in switches
                  else st.just(getattr(default, name)) for name in _SWITCH_STRATEGIES}
    mixed = st.fixed_dictionaries(chosen).map(lambda kw: Ruleset(**kw)).filter(fits_every_count)
    allowed = [rs for rs in presets().values() if _inside(rs, switches)]
    return st.sampled_from(allowed) | mixed if allowed else mixed


def fits_every_count(rs: Ruleset) -> bool:
    """Can a game of every player count it plays, ``min_players`` to 11, be set up under ``rs``?

    The passing switches are the ones that depend on the count
    (:func:`rules_ref.passing.check_table`); ``min_players`` and 11 players
    bound them.
    """
    try:
        check_table(rs, rs.min_players)
        check_table(rs, MAX_PLAYERS)
    except SetupError:
        return False
    return True


def _inside(rs: Ruleset, switches: Mapping[str, object] | None) -> bool:
    """Is ``rs`` supported by ``switches``?

    (:func:`~rules_ref.protocol.handshake.unsupported_switches` is empty.)
    """
    return switches is None or not unsupported_switches(rs, switches)


def player_counts(min_players: int = 6) -> st.SearchStrategy[int]:
    """A legal player count, ``min_players`` (6 by default, or 5) to 11 (``PLAYERS.COUNT``)."""
    return st.integers(min_players, MAX_PLAYERS)


def dealers(players: int) -> st.SearchStrategy[int]:
    """A seat of a ``players``-player game, for the first dealer."""
    return st.integers(0, players - 1)


def near_target_totals(players: int, target: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Totals a deal or two short of ``target``, often all equal (so the game may end tied)."""
    low = max(target - 40, -60)
    high = max(target - 1, low)
    equal = st.integers(low, high).map(lambda t: (t,) * players)
    spread = st.tuples(*[st.integers(low, high)] * players)
    return equal | spread
