"""A case's route to its moment under another ruleset: the deal, its dealer and its passes.

Most protocol cases test a moment of play (a trick, a legal-play list, the
end of a deal): what they check is the hands once the first deal's passes
are made and the cards played since. How those hands were reached (which
cards were dealt, in which direction and how many were passed, who dealt)
is the case's *route*, not its subject. Under another ruleset the same
moment is reached by another route: with no passing, the hands after the
passes are dealt directly; with another direction or count, a deal is built
that the engine's own passes turn into them; under another opening lead, the
dealer is the one whose seat, under that rule, leads the case's first trick.

:func:`rerouted` builds that route (``spec/vectors/README.md``, "Rerouting"),
the same for every runner: the moment's hands ``H`` are kept; each seat
``s`` passes to its target ``t`` the last ``pass_count`` cards (in card
order) of ``H[t]`` other than a 2♣ (a 2♣ never moves, so the seat dealt it is
the seat holding it); the hand dealt to ``s`` is ``H[s]`` without what ``s``
receives and with what it gives; the passes are made from the dealer's left.
Dealers are tried from the case's own, in seat order, and the first under
which the reference's leader of the first trick is the case's is taken.
:func:`reroutable` says which cases have a route to rebuild.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..actions import Pass
from ..cards import TWO_OF_CLUBS, Card
from ..errors import RulesRefError
from ..jsonio.serialize import action_from_json, action_to_json
from ..passing import pass_direction, pass_offset, passable
from ..protocol.start import dealt_start, start_state
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from .files import Case

Json = Any


def _is_pass(action: Json) -> bool:
    return isinstance(action, dict) and action.get("type") == "pass"


def _passes(case: Case) -> int:
    """How many of the prefix's actions are the first deal's passes."""
    n = 0
    for action in case["prefix"]:
        if not _is_pass(action):
            break
        n += 1
    return n


def reroutable(case: Case) -> bool:
    """Does ``case`` have a route to rebuild?

    It does when it starts from a dealt ``start`` (not from a position), its
    first deal's passes (if any) are the only passes before its first play,
    and its prefix reaches the first deal's play: its steps then test the
    moment, not the passing.
    """
    start = case.get("start")
    if not isinstance(start, dict) or "hands" not in start or "steps" not in case:
        return False
    if any(_is_pass(s.get("action")) for s in case["steps"]):
        return False
    return _moment(case) is not None


def _moment(case: Case) -> tuple[tuple[tuple[Card, ...], ...], int] | None:
    """The hands once the first deal's passes are made, and who leads its first trick."""
    return _moment_of(_key(case))


def _key(case: Case) -> str:
    import json

    return json.dumps({"start": case["start"], "prefix": case["prefix"][:_passes(case)]},
                      sort_keys=True)


@lru_cache(maxsize=4096)
def _moment_of(key: str) -> tuple[tuple[tuple[Card, ...], ...], int] | None:
    import json

    data = json.loads(key)
    try:
        state = start_state(data["start"])
        for action in data["prefix"]:
            state, _ = state.apply(action_from_json(action))
    except RulesRefError:
        return None
    if state.phase is not Phase.PLAYING or state.to_act is None:
        return None
    return state.hands, state.to_act


def _gives(hands: tuple[tuple[Card, ...], ...], offset: int, ruleset: Ruleset
           ) -> list[tuple[Card, ...]] | None:
    """What each seat passes: the last cards of its target's hand that may move."""
    n, k = len(hands), ruleset.pass_count
    out = []
    for seat in range(n):
        movable = [c for c in passable(sorted(hands[(seat + offset) % n]), ruleset)
                   if c != TWO_OF_CLUBS]
        if len(movable) < k:
            return None
        out.append(tuple(movable[-k:]))
    return out


def _route(case: Case, ruleset: Ruleset, dealer: int,
           hands: tuple[tuple[Card, ...], ...]) -> tuple[dict[str, Any], list[Json]] | None:
    """The ``start`` and the passes that reach ``hands`` under ``ruleset`` dealt by ``dealer``."""
    start = case["start"]
    n = len(hands)
    offset = pass_offset(pass_direction(int(start["deal_number"]), ruleset), n)
    dealt: list[list[Card]] = [list(h) for h in hands]
    passes: list[Json] = []
    if offset is not None:
        give = _gives(hands, offset, ruleset)
        if give is None:
            return None
        for seat in range(n):
            dealt[seat] = list(hands[seat])
            for c in give[(seat - offset) % n]:
                dealt[seat].remove(c)
            dealt[seat].extend(give[seat])
        passes = [action_to_json(Pass((dealer + 1 + i) % n, tuple(sorted(give[(dealer + 1 + i)
                                                                          % n]))))
                  for i in range(n)]
    new = dealt_start(ruleset, [sorted(h) for h in dealt],
                      [c for c in _cards(start["extras"])],
                      deal_number=int(start["deal_number"]), dealer=dealer,
                      totals=start.get("totals"))
    return new, passes


def _cards(texts: list[str]) -> list[Card]:
    from ..cards import parse_card

    return [parse_card(t) for t in texts]


def _leader(start: dict[str, Any], passes: list[Json]) -> int | None:
    try:
        state: GameState = start_state(start)
        for action in passes:
            state, _ = state.apply(action_from_json(action))
    except RulesRefError:
        return None
    return state.to_act if state.phase is Phase.PLAYING else None


def rerouted(case: Case, ruleset: Mapping[str, Json]) -> Case | None:
    """``case`` reaching its moment under ``ruleset`` (its JSON form), or ``None``.

    ``None`` when the case has no route to rebuild (:func:`reroutable`) or
    none reaches its moment: no dealer makes its first trick's leader lead,
    or a hand holds too few cards that may be passed. The case's own route
    is kept when it still serves (same passes, same dealer).
    """
    if not reroutable(case):
        return None
    moment = _moment(case)
    if moment is None:
        return None
    hands, leader = moment
    try:
        rules = Ruleset.from_dict(dict(ruleset))
    except (RulesRefError, ValueError, TypeError):
        return None
    n = len(hands)
    own = int(case["start"]["dealer"])
    rest = case["prefix"][_passes(case):]
    for dealer in [(own + i) % n for i in range(n)]:
        route = _route(case, rules, dealer, hands)
        if route is None:
            return None
        start, passes = route
        if _leader(start, passes) == leader:
            rs = dict(ruleset)
            return {**case, "ruleset": rs, "start": {**start, "ruleset": rs},
                    "prefix": [*passes, *rest]}
    return None
