"""Rulesets: every variant switch of ``spec/variants.toml`` as a named parameter.

A :class:`Ruleset` holds one value per switch. The default values are the
reference ruleset, named after its source (``spruce``); the presets bundle
the values each published source states and fill its silences with the
default. Switches change behaviour only through the rule functions that read
them; the engine itself never branches on a preset.

>>> [str(d) for d in Ruleset().pass_cycle]
['left', 'right']
>>> preset("hubpages").target
100
>>> Ruleset.from_dict({"target": 100}) == Ruleset(target=100)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from typing import Any

from .errors import InputError
from .registry import spec_toml
from .wording import brief, json_kind, switch_value
from .wording.suggest import did_you_mean


class PassDirection(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"


class SeatDistance(StrEnum):
    """A pass to the seat k places away (``left-k``: seat + k; ``right-k``: seat − k), k ≥ 2.

    One seat away is ``left`` or ``right`` (:class:`PassDirection`); k must be
    less than the game's player count (:func:`rules_ref.passing.check_pass_cycle`).
    """

    LEFT_2 = "left-2"
    LEFT_3 = "left-3"
    LEFT_4 = "left-4"
    LEFT_5 = "left-5"
    LEFT_6 = "left-6"
    LEFT_7 = "left-7"
    LEFT_8 = "left-8"
    LEFT_9 = "left-9"
    LEFT_10 = "left-10"
    RIGHT_2 = "right-2"
    RIGHT_3 = "right-3"
    RIGHT_4 = "right-4"
    RIGHT_5 = "right-5"
    RIGHT_6 = "right-6"
    RIGHT_7 = "right-7"
    RIGHT_8 = "right-8"
    RIGHT_9 = "right-9"
    RIGHT_10 = "right-10"


#: One step of ``pass_cycle``: a direction, or a distance in seats.
PassStep = PassDirection | SeatDistance
#: The largest distance ``left-k`` or ``right-k`` takes (an 11-player table).
MAX_SEAT_DISTANCE = 10


class PassForbidden(StrEnum):
    NONE = "none"
    TWO_OF_CLUBS = "two-of-clubs"


class FirstTrickTwoOfClubs(StrEnum):
    FREE = "free"
    MUST_PLAY = "must-play"


class OpeningLead(StrEnum):
    LEFT_OF_DEALER = "left-of-dealer"
    LEFT_OF_DEALER_NO_SCORING = "left-of-dealer-no-scoring"
    TWO_OF_CLUBS = "two-of-clubs"
    TWO_OF_CLUBS_DEALT = "two-of-clubs-dealt"


class FirstTrickPoints(StrEnum):
    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"
    FORBIDDEN_EVEN_FOLLOWING = "forbidden-even-following"


class HeartsBrokenBy(StrEnum):
    HEART_OR_QUEEN = "heart-or-queen"
    HEART = "heart"
    HEART_DISCARD = "heart-discard"
    HEART_NOT_LED = "heart-not-led"
    NOT_NEEDED = "not-needed"


class LastTrickVoid(StrEnum):
    NOBODY = "nobody"
    LEADER = "leader"
    SPLIT_HIGHEST_PAIR = "split-highest-pair"
    SPLIT_POINTS_HIGHEST_PAIR = "split-points-highest-pair"


class Moon(StrEnum):
    CHOICE_26 = "choice-26"
    OTHERS_52 = "others-52"
    OTHERS_104 = "others-104"


class MoonPair(StrEnum):
    NONE = "none"
    OTHERS_26 = "others-26"


#: The caps of the switches, as ``spec/variants.toml`` defines them (the ``min``
#: and ``max`` of its integer switches, the description of ``pass_cycle``).
MIN_PLAYERS_LOW = 5  # the smallest min_players (PLAYERS.COUNT)
MIN_PLAYERS_HIGH = 6  # the default and largest min_players
MAX_PASS_COUNT = 9  # the smallest hand (11 players)
MAX_PASS_CYCLE = 16
MAX_TEN_OF_DIAMONDS = 1000
MAX_TARGET = 10**9


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One value per variant switch; the defaults are the reference ruleset."""

    min_players: int = MIN_PLAYERS_HIGH
    pass_count: int = 3
    pass_cycle: tuple[PassStep, ...] = (PassDirection.LEFT, PassDirection.RIGHT)
    pass_forbidden: PassForbidden = PassForbidden.NONE
    opening_lead: OpeningLead = OpeningLead.LEFT_OF_DEALER
    first_trick_points: FirstTrickPoints = FirstTrickPoints.ALLOWED
    first_trick_two_of_clubs: FirstTrickTwoOfClubs = FirstTrickTwoOfClubs.FREE
    hearts_broken_by: HeartsBrokenBy = HeartsBrokenBy.HEART_OR_QUEEN
    last_trick_void: LastTrickVoid = LastTrickVoid.NOBODY
    moon: Moon = Moon.CHOICE_26
    moon_pair: MoonPair = MoonPair.NONE
    ten_of_diamonds_points: int = 0
    target: int = 150

    def __post_init__(self) -> None:
        problems = _check(self)
        if problems:
            raise InputError("bad ruleset: " + "; ".join(problems))

    def to_dict(self) -> dict[str, Any]:
        """The ruleset as JSON-ready data (every switch, by name)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [str(v) for v in value]
            elif isinstance(value, StrEnum):
                value = str(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: object, where: str = "ruleset") -> Ruleset:
        """Build a ruleset from JSON data; missing switches take the default.

        Unknown switches and bad values raise :class:`InputError` naming them.
        """
        if not isinstance(data, dict):
            raise InputError(f"{where}: expected an object of switches, got {json_kind(data)}")
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            shown = ", ".join(brief(k) for k in unknown[:5])
            more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            hint = did_you_mean(unknown[0], known) if len(unknown) == 1 else ""
            raise InputError(f"{where}: unknown switch(es) {shown}{more} (known: "
                             f"{', '.join(known)}){hint}")
        kwargs: dict[str, Any] = {}
        for name, value in data.items():
            kwargs[name] = _convert(name, value, f"{where}.{name}")
        return cls(**kwargs)

    def describe(self) -> str:
        """One line: the preset name when it matches one, else the switches that differ."""
        for name, rs in presets().items():
            if rs == self:
                return name
        diffs = [f"{name}={switch_value(value)}" for name, value in self.changed().items()]
        return "custom: " + ", ".join(diffs)

    def changed(self) -> dict[str, Any]:
        """The switches set apart from the default, each with its value as :meth:`to_dict`
        writes it, in the order of the switches.

        >>> Ruleset(target=100).changed()
        {'target': 100}
        """
        return Ruleset.changed_in(self.to_dict())

    @staticmethod
    def changed_in(data: Mapping[str, Any]) -> dict[str, Any]:
        """The switches a ruleset's JSON form (:meth:`to_dict`, a ``start`` message's
        ``ruleset``) sets apart from the default, with their values, in its order.

        A switch it leaves out is at the default, so it is not named; a name
        that is no switch has no default, so it is.

        >>> Ruleset.changed_in({"pass_cycle": ["left", "right"], "target": 100, "x": 1})
        {'target': 100, 'x': 1}
        """
        default = _default_json()
        return {name: value for name, value in data.items()
                if name not in default or value != default[name]}


_ENUMS: dict[str, type[StrEnum]] = {
    "pass_forbidden": PassForbidden,
    "opening_lead": OpeningLead,
    "first_trick_points": FirstTrickPoints,
    "first_trick_two_of_clubs": FirstTrickTwoOfClubs,
    "hearts_broken_by": HeartsBrokenBy,
    "last_trick_void": LastTrickVoid,
    "moon": Moon,
    "moon_pair": MoonPair,
}

#: What a step of ``pass_cycle`` may be, for error messages.
STEPS_TEXT = ("left, right, across, hold, or left-k or right-k (k seats away, k from 2 to "
              f"{MAX_SEAT_DISTANCE})")


def pass_step(text: object) -> PassStep | None:
    """The step of ``pass_cycle`` that ``text`` names, or ``None`` if it names none.

    >>> pass_step("left"), pass_step("right-3"), pass_step("left-1")
    (<PassDirection.LEFT: 'left'>, <SeatDistance.RIGHT_3: 'right-3'>, None)
    """
    if not isinstance(text, str):
        return None
    if text in PassDirection._value2member_map_:
        return PassDirection(text)
    if text in SeatDistance._value2member_map_:
        return SeatDistance(text)
    return None


#: The bounds of the integer switches (their ``min`` and ``max`` in ``spec/variants.toml``).
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "min_players": (MIN_PLAYERS_LOW, MIN_PLAYERS_HIGH),
    "pass_count": (1, MAX_PASS_COUNT),
    "ten_of_diamonds_points": (-MAX_TEN_OF_DIAMONDS, MAX_TEN_OF_DIAMONDS),
    "target": (1, MAX_TARGET),
}


def _convert(name: str, value: object, where: str) -> object:
    if name in _ENUMS:
        enum = _ENUMS[name]
        if not isinstance(value, str) or value not in enum._value2member_map_:
            allowed = ", ".join(e.value for e in enum)
            hint = did_you_mean(value, enum._value2member_map_)
            raise InputError(f"{where}: {brief(value)} is not one of {allowed}{hint}")
        return enum(value)
    if name == "pass_cycle":
        if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_PASS_CYCLE:
            raise InputError(f"{where}: expected a list of 1 to {MAX_PASS_CYCLE} directions, "
                             f"got {brief(value)}")
        out = []
        for i, v in enumerate(value):
            step = pass_step(v)
            if step is None:
                hint = did_you_mean(v, [*PassDirection._value2member_map_,
                                        *SeatDistance._value2member_map_])
                raise InputError(f"{where}[{i}]: {brief(v)} is not a pass direction ("
                                 f"{STEPS_TEXT}){hint}")
            out.append(step)
        return tuple(out)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{where}: expected an integer, got {brief(value)}")
    low, high = INT_BOUNDS[name]
    if not low <= value <= high:
        raise InputError(f"{where}: {brief(value)} is out of range (expected an integer from "
                         f"{low} to {high})")
    return value


def _check(rs: Ruleset) -> list[str]:
    problems = []
    if not isinstance(rs.min_players, int) or isinstance(rs.min_players, bool) or not (
            MIN_PLAYERS_LOW <= rs.min_players <= MIN_PLAYERS_HIGH):
        problems.append(f"min_players must be {MIN_PLAYERS_LOW} or {MIN_PLAYERS_HIGH}, "
                        f"got {brief(rs.min_players)}")
    if not isinstance(rs.pass_count, int) or not 1 <= rs.pass_count <= MAX_PASS_COUNT:
        problems.append(f"pass_count must be an integer from 1 to {MAX_PASS_COUNT}, "
                        f"got {brief(rs.pass_count)}")
    if not isinstance(rs.pass_cycle, tuple) or not 1 <= len(rs.pass_cycle) <= MAX_PASS_CYCLE \
            or not all(isinstance(d, PassDirection | SeatDistance) for d in rs.pass_cycle):
        problems.append(f"pass_cycle must be 1 to {MAX_PASS_CYCLE} of {STEPS_TEXT}")
    for name, enum in _ENUMS.items():
        if not isinstance(getattr(rs, name), enum):
            problems.append(f"{name} must be one of {', '.join(e.value for e in enum)}")
    if not isinstance(rs.ten_of_diamonds_points, int) or isinstance(
            rs.ten_of_diamonds_points, bool) or abs(rs.ten_of_diamonds_points) > \
            MAX_TEN_OF_DIAMONDS:
        problems.append(f"ten_of_diamonds_points must be an integer from "
                        f"-{MAX_TEN_OF_DIAMONDS} to {MAX_TEN_OF_DIAMONDS}")
    if not isinstance(rs.target, int) or isinstance(rs.target, bool) or not (
            1 <= rs.target <= MAX_TARGET):
        problems.append(f"target must be a positive integer up to {MAX_TARGET}, got "
                        f"{brief(rs.target)}")
    return problems


DEFAULT = Ruleset()

#: The switches that decide only what is passed: they cannot matter where nobody passes.
PASSING_SWITCHES = ("pass_count", "pass_forbidden")


def moot_switches(cycles: object) -> tuple[str, ...]:
    """The switches that cannot matter under the declared ``pass_cycle`` values ``cycles``.

    ``cycles`` is a ``hello``'s or a run's list of cycles (JSON or ruleset
    form), or ``"any"``. Where every declared cycle only holds, nobody ever
    passes, so the switches of :data:`PASSING_SWITCHES` change no game: an
    engine of such rules is neither asked for their values nor told that they
    went untested.

    >>> moot_switches([["hold"]]), moot_switches([["hold"], ["left", "hold"]])
    (('pass_count', 'pass_forbidden'), ())
    >>> moot_switches("any"), moot_switches([(PassDirection.HOLD,)])
    ((), ('pass_count', 'pass_forbidden'))
    """
    if not isinstance(cycles, list | tuple) or not cycles:
        return ()
    if all(isinstance(c, list | tuple) and all(str(d) == PassDirection.HOLD for d in c)
           for c in cycles):
        return PASSING_SWITCHES
    return ()


@cache
def _default_json() -> dict[str, Any]:
    """The default ruleset's JSON form (read, never changed)."""
    return DEFAULT.to_dict()


@cache
def presets() -> dict[str, Ruleset]:
    """The named presets of ``spec/variants.toml``, the default (``spruce``) first."""
    data = spec_toml("variants.toml")
    return {p["name"]: Ruleset.from_dict(p.get("values", {}), f"preset {p['name']}")
            for p in data["preset"]}


def preset(name: str) -> Ruleset:
    """The preset of this name; :class:`InputError` listing the names if unknown."""
    table = presets()
    if name not in table:
        raise InputError(f"unknown preset {brief(name)} (known: {', '.join(table)})"
                         f"{did_you_mean(name, table)}")
    return table[name]
