"""The causes ``rules-ref validate`` names in a record: passes, offered cards and scores.

The checks of :mod:`rules_ref.validate` that look past a claim to its
cause, with the attribution ``rules-ref conform`` uses
(:mod:`rules_ref.causes`):

* :func:`pass_direction`: cards played by seats that, after the exchange
  the rules make, do not hold them, but would after an exchange in another
  direction: the passes went the wrong way (``PASS.DIRECTION``);
* :func:`offered_cards`: the legal cards a recording engine offered at a
  decision (a record's optional ``legal``), compared with the rules', so an
  engine stricter (or looser) than the rules shows;
* :func:`card_point_cause`: wrong card points traced to the cards that
  carry them.

Standard library only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .actions import Play
from .cards import Card, parse_card
from .causes import direction_words, parcel_words, play_situation_rule, trace_points
from .passing import exchange
from .state import GameState


def played_by_seat(tricks: Sequence[dict[str, Any]], players: int) -> list[Counter[Card]]:
    """The cards each seat plays in a deal's recorded tricks (seats from the recorded leaders)."""
    out: list[Counter[Card]] = [Counter() for _ in range(players)]
    for trick in tricks:
        for i, text in enumerate(trick["cards"]):
            out[(trick["leader"] + i) % players][parse_card(text)] += 1
    return out


def held(state: GameState, tricks: Sequence[dict[str, Any]]) -> bool:
    """Does every seat hold, as dealt, every card the record shows it playing?"""
    played = played_by_seat(tricks, state.players)
    return all(not played[s] - Counter(state.hands[s]) for s in range(state.players))


def pass_direction(dealt: tuple[tuple[Card, ...], ...], passes: Sequence[Sequence[Card]],
                   offset: int, after: GameState,
                   tricks: Sequence[dict[str, Any]]) -> tuple[int, GameState] | None:
    """The offset the passes went by when it is not ``offset``, and the state with those hands.

    None when every card played is held after the rules' exchange, or when
    no other direction explains the cards played either.
    """
    n = len(dealt)
    played = played_by_seat(tricks, n)
    if all(not played[s] - Counter(after.hands[s]) for s in range(n)):
        return None
    for other in range(1, n):
        if other == offset:
            continue
        moved = exchange(dealt, passes, other)
        if all(not played[s] - Counter(moved[s]) for s in range(n)):
            return other, after._with(hands=moved)
    return None


def pass_direction_message(number: int, offset: int, other: int, players: int) -> str:
    return (f"the cards played show that the passes of deal {number} went "
            f"{direction_words(other, players)}, but deal {number} passes "
            f"{direction_words(offset, players)}")


def offered_cards(state: GameState, offered: Sequence[str]) -> list[tuple[str, str]]:
    """What the recording engine offered the seat to act that the rules do not: (rule, message)."""
    seat = state.to_act
    give = {parse_card(t) for t in offered}
    truth = set(state.legal_plays())
    out = []
    missing = sorted(truth - give)
    if missing:
        card = missing[0]
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        out.append((play_situation_rule(state, card)[-1],
                    f"seat {seat} was not offered {card.pretty}{more}, which the rules allow "
                    "here: the recording engine is stricter than the rules"))
    extra = sorted(give - truth)
    if extra and seat is not None:
        card = extra[0]
        rules = [v.rule_id for v in state.violations(Play(seat, card))] or ["TURN.ORDER"]
        more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
        out.append((rules[0], f"seat {seat} was offered {card.pretty}{more}, which the rules "
                    "forbid here"))
    return out


def card_point_cause(state: GameState, claimed: Sequence[int],
                     truth: Sequence[int]) -> tuple[str, str]:
    """The rule of wrong card points and the words saying which cards' points went elsewhere."""
    diff = [c - t for c, t in zip(claimed, truth, strict=True)]
    rules = trace_points(state, diff)
    if not rules:
        return "SCORE.CARD_POINTS", ""
    words = parcel_words(rules[0])
    return rules[0], f": the points of {words} are counted elsewhere" if words else ""
