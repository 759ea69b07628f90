"""Rule-aimed generation: which game to draw to reach one condition of a rule.

Each game of a conform run may have a *focus*, one condition of
:mod:`~rules_ref.exercise.catalogue`'s catalogue or one pair of
:mod:`~rules_ref.exercise.pairs` (a rare condition under one value of a
switch: :func:`focus_keys`); :func:`aim_for` says what makes it likely (an
:class:`Aim`: a kind of crafted deal, switch values, player counts, totals
at the target, faithful copying of partners' cards, illegal offers; a
pair's aim is its condition's with the switch held at the pair's value).
:func:`focus_weights` is the scheduler: it puts most of the weight on the
conditions and pairs the run has not met yet, the conditions first, so that
a short run reaches every rule and then every rare situation under every
value that decides something in it, and spreads the weight over all of them
afterwards.

The focus is drawn as one choice among the catalogue's conditions, and an
aim only changes the *weights* of later choices, never what a choice means.
So a game depends on what the run has seen before it; what it found is kept
as its start and its actions, which replay it alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from ..deal import extras_count
from ..exercise import catalogue as ex
from ..exercise import pairs as ep
from ..ruleset import (
    FirstTrickPoints,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    MoonPair,
    OpeningLead,
    PassForbidden,
)
from ..wording import switch_value
from . import illegal_kinds as ik


@dataclass(frozen=True)
class Aim:
    """What makes a condition likely; an empty aim leaves the game as drawn."""

    #: The kind of deal (``conversation.DEAL_KINDS``).
    deal: str | None = None
    #: Per switch, a test of the values that serve the condition.
    switches: dict[str, Callable[[Any], bool]] = field(default_factory=dict)
    #: A test of the player counts that serve it.
    players: Callable[[int], bool] | None = None
    #: "edge": totals that reach the target with this deal; "tie": the same with a tie.
    totals: str | None = None
    #: Partners copy each other's cards almost always (mirror deals).
    copy: bool = False
    #: Offer illegal actions, this kind the most.
    illegal: str | None = None
    #: Play more than one deal.
    deals: bool = False


def _is(*values: Any) -> Callable[[Any], bool]:
    return lambda v: v in values


def _not(*values: Any) -> Callable[[Any], bool]:
    return lambda v: v not in values


def _even(n: int) -> bool:
    return n % 2 == 0


def _even_extras(n: int) -> bool:
    return n % 2 == 0 and extras_count(n) > 0


def _hold(cycle: Any) -> bool:
    return all(str(d) == "hold" for d in cycle)


_LOD = _is(OpeningLead.LEFT_OF_DEALER, OpeningLead.LEFT_OF_DEALER_NO_SCORING)
#: The first_trick_points values that ban a heart or a Q♠ from trick 1.
_BANS = _is(FirstTrickPoints.FORBIDDEN, FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING)
_NO_TWO = _not(OpeningLead.TWO_OF_CLUBS)
_NEEDED = _not(HeartsBrokenBy.NOT_NEEDED)
#: A void last trick: partners copying each other all deal long.
_MIRROR_LAST = Aim(deal="mirror", players=_even, copy=True)

#: The aims of the conditions that a random game seldom reaches.
_AIMS: dict[str, Aim] = {
    ex.OPEN_ONLY_POINTS: Aim(deal="penalty-leader", switches={"opening_lead": _LOD,
                                                              "pass_cycle": _hold}),
    ex.LEADER_NO_TWO: Aim(deal="clubs-in-extras", players=lambda n: extras_count(n) >= 2,
                          switches={"opening_lead": _is(OpeningLead.TWO_OF_CLUBS)}),
    ex.OPEN_TWO_CANCEL: Aim(deal="seeded", copy=True,
                            switches={"opening_lead": _is(OpeningLead.TWO_OF_CLUBS)}),
    ex.HEART_LED_FORCED: Aim(deal="forced-heart", switches={"hearts_broken_by": _NEEDED,
                                                            "pass_cycle": _hold}),
    ex.QUEEN_LED_FORCED: Aim(deal="queen-heart", switches={"hearts_broken_by": _NEEDED,
                                                           "pass_cycle": _hold}),
    ex.HEART_LED_FREE: Aim(switches={"hearts_broken_by": _is(HeartsBrokenBy.NOT_NEEDED)}),
    ex.NOT_BROKEN: Aim(switches={"hearts_broken_by": _is(HeartsBrokenBy.HEART,
                                                         HeartsBrokenBy.HEART_DISCARD)}),
    ex.BROKEN_QUEEN: Aim(switches={"hearts_broken_by": _is(HeartsBrokenBy.HEART_OR_QUEEN)}),
    ex.FIRST_ONLY_POINTS: Aim(deal="penalty-follower", switches={
        "first_trick_points": _BANS, "pass_cycle": _hold,
        "opening_lead": _LOD}),
    ex.FIRST_DISCARD_OTHER: Aim(switches={"first_trick_points": _BANS}),
    ex.FIRST_FOLLOW_KEPT: Aim(switches={
        "first_trick_points": _is(FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING),
        "opening_lead": _LOD}),
    ex.FIRST_DISCARD_POINTS: Aim(switches={"first_trick_points": _is(FirstTrickPoints.ALLOWED)}),
    ex.PASS_FORBIDDEN_NAMED: Aim(illegal=ik.PASS_FORBIDDEN,
                                 switches={"pass_forbidden": _is(PassForbidden.TWO_OF_CLUBS)}),
    ex.FIRST_REJECTED: Aim(deal="void-follower", illegal=ik.FORBIDDEN_CARD,
                           switches={"first_trick_points": _BANS,
                                     "pass_cycle": _hold, "opening_lead": _LOD}),
    ex.VOID_LAST: _MIRROR_LAST,
    ex.SHORT_52: Aim(deal="mirror", players=_even, copy=True,
                     switches={"last_trick_void": _is(LastTrickVoid.NOBODY)}),
    ex.VOID_LAST_EXTRAS: Aim(deal="mirror", players=_even_extras, copy=True),
    ex.EXTRAS_PENDING: Aim(deal="mirror", players=_even_extras, copy=True),
    ex.COLLECT_EXTRAS: Aim(deal="mirror",
                           players=lambda n: n % 2 == 1 and extras_count(n) > 0, copy=True),
    ex.BROKEN_CANCELLED: Aim(deal="mirror", copy=True),
    ex.COLLECT_ONE: Aim(deal="mirror", copy=True),
    ex.COLLECT_MANY: Aim(deal="mirror", copy=True),
    ex.VOID_FIRST_LEADS: Aim(deal="mirror", copy=True),
    ex.MOON: Aim(deal="moon", switches={"opening_lead": _NO_TWO}),
    ex.MOON_ADD: Aim(deal="moon", switches={"moon": _is(Moon.CHOICE_26),
                                            "opening_lead": _NO_TWO}),
    ex.MOON_SUBTRACT: Aim(deal="moon", switches={"moon": _is(Moon.CHOICE_26),
                                                 "opening_lead": _NO_TWO}),
    ex.PAIR_MOON: Aim(deal="moon", switches={"moon_pair": _is(MoonPair.OTHERS_26),
                                             "opening_lead": _NO_TWO}),
    ex.MOON_OTHER_SEAT: Aim(deal="moon", illegal=ik.MOON_OTHER_SEAT,
                            switches={"moon": _is(Moon.CHOICE_26), "opening_lead": _NO_TWO}),
    ex.END_EXACT: Aim(totals="edge"),
    ex.END_PAST: Aim(totals="past"),
    ex.WINS_TIED: Aim(totals="tie"),
    ex.WINS_ALONE: Aim(totals="edge"),
    ex.NEXT_DEALER: Aim(deals=True),
    ex.UNBROKEN_NEW_DEAL: Aim(deals=True),
    ex.DEAL_REJECTED: Aim(deals=True, illegal=ik.BAD_DEAL),
    ex.AFTER_END: Aim(totals="edge", illegal=ik.AFTER_END),
    ex.PASS_AGAIN: Aim(illegal=ik.PASS_AGAIN),
    ex.PASS_BOTH: Aim(deal="mirror"),
}

#: The illegal kind each rejection condition needs.
_REJECTIONS = {
    ex.PASS_SIZE: ik.PASS_SIZE,
    ex.PASS_TWICE_NAMED: ik.PASS_TWICE,
    ex.PASS_NOT_HELD: ik.PASS_NOT_HELD,
    ex.OUT_OF_TURN: ik.OUT_OF_TURN,
    ex.PLAYED_ALREADY: ik.PLAYED_ALREADY,
    ex.NO_SUCH_SEAT: ik.NO_SUCH_SEAT,
    ex.NOT_HELD: ik.CARD_NOT_HELD,
    ex.OPEN_REJECTED: ik.FORBIDDEN_CARD,
    ex.HEART_LED_REJECTED: ik.FORBIDDEN_CARD,
    ex.REVOKE_REJECTED: ik.FORBIDDEN_CARD,
}


#: The illegal kind that offers each action of another phase's kind.
_PHASE_KINDS = {
    ("play", "passing"): ik.PLAY_WHILE_PASSING,
    ("moon choice", "passing"): ik.MOON_WHILE_PASSING,
    ("pass", "playing"): ik.PASS_WHILE_PLAYING,
    ("moon choice", "playing"): ik.MOON_WHILE_PLAYING,
    ("play", "moon-choice"): ik.PLAY_WHILE_CHOOSING,
    ("play", "dealing"): ik.PLAY_BETWEEN_DEALS,
}


def _phase_aim(action: str, phase: str) -> Aim:
    kind = _PHASE_KINDS.get((action, phase), ik.DEAL_MID_DEAL)
    if phase == "moon-choice":
        return Aim(deal="moon", illegal=kind, switches={"moon": _is(Moon.CHOICE_26),
                                                       "opening_lead": _NO_TWO})
    if phase == "dealing":
        return Aim(deals=True, illegal=kind)
    if phase == "passing":
        return Aim(illegal=kind, switches={"pass_cycle": lambda c: not _hold(c)})
    return Aim(illegal=kind)


def aim_for(key: str) -> Aim:
    """The aim of one condition key of the catalogue, or of a pair (an empty aim if it needs
    none)."""
    pair = ep.parts(key)
    if pair is not None:
        return _pair_aim(*pair)
    rule, words = key.split(": ", 1)
    for (action, phase), phrase in ex.WRONG_PHASE.items():
        if words == phrase:
            return _phase_aim(action, phase)
    if words in _AIMS:
        return _AIMS[words]
    if words in _REJECTIONS:
        return Aim(illegal=_REJECTIONS[words])
    if words.startswith("under "):
        switch, _, _value = words[len("under "):].partition(" = ")
        return _value_aim(switch)
    if rule == "PLAYERS.COUNT" or rule == "DEAL.SIZE":
        count = int(words.split()[0] if rule == "DEAL.SIZE" else words.split()[3])
        return Aim(players=lambda n: n == count)
    if rule == "PASS.DIRECTION":
        direction = words.rsplit(" ", 1)[-1]
        return Aim(switches={"pass_cycle": lambda cycle: direction in (str(d) for d in cycle)})
    return Aim()


def _value_aim(switch: str) -> Aim:
    """The aim of a switch value: the game of the rule the switch governs (value set apart)."""
    if switch == "last_trick_void":
        return _MIRROR_LAST
    if switch == "moon":
        return Aim(deal="moon", switches={"opening_lead": _NO_TWO})
    if switch == "target":
        return Aim(totals="edge")
    if switch == "first_trick_points":
        return Aim(deal="mirror")
    return Aim()


def _pair_aim(condition: str, switch: str, shown: str) -> Aim:
    """The aim of a pair: its condition's, with ``switch`` held at the value ``shown``.

    A 2♣ opening leaves the opening lead to the seat left of the dealer only when
    both 2♣ can lie among the extras: a moon under it is aimed at such tables.
    """
    aim = aim_for(condition)
    switches = dict(aim.switches)
    switches[switch] = lambda v: switch_value(v) == shown
    players = aim.players
    if switch == "opening_lead" and shown.startswith("two-of-clubs") and aim.deal == "moon":
        players = _two_extras
    return replace(aim, switches=switches, players=players)


def _two_extras(n: int) -> bool:
    return extras_count(n) >= 2


def focus_keys(catalogue: tuple[str, ...], scope: ex.Scope) -> tuple[str, ...]:
    """What a game may aim at: the catalogue's conditions, then the pairs of ``scope``."""
    key = (catalogue, scope.players, tuple((k, tuple(v)) for k, v in scope.values.items()))
    keys = _FOCUS.get(key)
    if keys is None:
        keys = _FOCUS[key] = catalogue + ep.reachable_pairs(scope)
    return keys


#: The focus keys of each catalogue and scope (a run draws from one or two).
_FOCUS: dict[tuple[Any, ...], tuple[str, ...]] = {}


def value_of(key: str) -> tuple[str, str] | None:
    """``(switch, shown value)`` of a switch-value condition key, else ``None``."""
    words = key.split(": ", 1)[1]
    if not words.startswith("under "):
        return None
    switch, _, value = words[len("under "):].partition(" = ")
    return switch, value


#: The share of the weight on the conditions and pairs not met yet.
MISSING_SHARE = 0.9
#: Of that share, the part on the pairs while conditions of the catalogue are missing too.
PAIR_SHARE = 0.5
#: The share on all conditions once every one has been exercised.
SPREAD_SHARE = 0.6


#: A pair is aimed at until it has been met this often: met once, it may have been met in
#: a game that showed nothing of it (extras without points, say).
PAIR_TIMES = 2


@cache
def _pairs(keys: tuple[str, ...]) -> tuple[bool, ...]:
    """Which of ``keys`` are pairs (:func:`focus_weights`): read once per set of focus keys,
    where each game read them again."""
    return tuple(ex.is_pair(k) for k in keys)


def focus_weights(keys: Sequence[str], seen: Counter[str]) -> dict[int, float]:
    """Weights of the focus choice: index ``len(keys)`` stands for no focus.

    The keys not met yet (a pair: not :data:`PAIR_TIMES` times) share
    :data:`MISSING_SHARE`: the conditions alone while every pair has been met,
    the pairs alone once every condition has, else the pairs
    :data:`PAIR_SHARE` of it; once every key has been met, all share
    :data:`SPREAD_SHARE`.
    """
    pair = _pairs(tuple(keys))
    get = seen.get
    missing = [i for i, k in enumerate(keys) if get(k, 0) < (PAIR_TIMES if pair[i] else 1)]
    if not missing:
        if not keys:
            return {}
        return dict.fromkeys(range(len(keys)), SPREAD_SHARE / len(keys))
    pairs = [i for i in missing if pair[i]]
    conditions = [i for i in missing if not pair[i]]
    if not pairs or not conditions:
        return dict.fromkeys(missing, MISSING_SHARE / len(missing))
    weights = dict.fromkeys(conditions, MISSING_SHARE * (1 - PAIR_SHARE) / len(conditions))
    weights.update(dict.fromkeys(pairs, MISSING_SHARE * PAIR_SHARE / len(pairs)))
    return weights
