"""Game records: a whole game as plain JSON data, and back to actions.

A record (format ``cancellation-hearts-record``, schema
``spec/schemas/record.schema.json``) states the setup, then each deal: the
cards dealt, the passes, the tricks with their leaders and winners, any
moon (its shooter, or the two seats of a moon shot together, and any
choice), and the scores claimed. :func:`record_from_state` writes one
from a played game; :func:`record_actions` turns one back into the action
list that replays it.
"""

from __future__ import annotations

from typing import Any

from ..actions import Action, DealCards, Pass, Play
from ..errors import InputError, RulesRefError
from ..jsonio.serialize import (
    RECORD_FORMAT,
    action_to_json,
    cards_to_json,
    game_head,
)
from ..state import GameState
from ..tricks import seat_at


def record_from_state(state: GameState, seed: int | None = None) -> dict[str, Any]:
    """The record of the game that led to ``state`` (from its action log).

    A record starts between deals, so a game started from a position within
    a deal (:func:`~rules_ref.positions.convert.state_from_position`) has none: that is an
    :class:`~rules_ref.errors.InputError` naming the cause, never a partial record.
    """
    start = GameState.start(state.players, state.ruleset, state.first_dealer,
                            state.initial_totals, state.initial_deal)
    deals: list[dict[str, Any]] = []
    current = start
    for action in state.actions:
        before = current
        try:
            current, _ = current.apply(action)
        except RulesRefError:
            raise _from_position_error() from None
        if isinstance(action, DealCards):
            deals.append({"deal_number": current.deal_number, "dealer": current.dealer,
                          "hands": [cards_to_json(h) for h in action.hands],
                          "extras": cards_to_json(action.extras),
                          "passes": None if current.pass_offset is None else
                          [None] * current.players,
                          "tricks": [], "moon": None})
        elif isinstance(action, Pass):
            deals[-1]["passes"][action.seat] = cards_to_json(action.cards)
        elif isinstance(action, Play):
            tricks = deals[-1]["tricks"]
            if not before.trick:
                tricks.append({"leader": before.leader, "cards": [], "winner": None})
            tricks[-1]["cards"].append(str(action.card))
            if len(tricks[-1]["cards"]) == current.players:
                tricks[-1]["winner"] = current.tricks[-1].winner
        else:  # the only other action: a moon choice
            deals[-1]["moon"] = {"shooter": action.seat, "choice": str(action.choice)}
        if len(current.deal_results) > len(before.deal_results):
            result = current.deal_results[-1]
            if result.moon_shooter is not None and deals[-1]["moon"] is None:
                deals[-1]["moon"] = {"shooter": result.moon_shooter, "choice": None}
            if result.moon_pair is not None:  # a moon shot by two seats (moon_pair)
                deals[-1]["moon"] = {"shooter": result.moon_pair[0], "choice": None,
                                     "partner": result.moon_pair[1]}
            deals[-1]["card_points"] = list(result.card_points)
            deals[-1]["scores"] = list(result.scores)
            deals[-1]["totals"] = list(result.totals)
            deals[-1]["uncollected"] = cards_to_json(result.uncollected)
    if (current.phase, current.deal_number, current.hands, current.trick) != (
            state.phase, state.deal_number, state.hands, state.trick):
        raise _from_position_error()
    return {
        **game_head(RECORD_FORMAT, state),
        "seed": seed,
        "deals": deals,
        "winners": list(state.winners),
    }


def _from_position_error() -> InputError:
    return InputError("this game was started from a position within a deal, and a record "
                      "starts between deals: write the position instead (rules-ref position)")


def deal_actions(deal: dict[str, Any], players: int) -> list[dict[str, Any]]:
    """The JSON actions of one record deal, in the order they were taken.

    Passes come in seat order starting at the dealer's left; plays carry the
    seat implied by the trick's recorded leader and turn order.
    """
    out: list[dict[str, Any]] = [{"type": "deal", "hands": deal["hands"],
                                  "extras": deal["extras"]}]
    passes = deal.get("passes")
    if passes is not None:
        dealer = deal["dealer"]
        for i in range(players):
            seat = (dealer + 1 + i) % players
            if seat < len(passes) and passes[seat] is not None:  # a missing pass is not replayed
                out.append({"type": "pass", "seat": seat, "cards": passes[seat]})
    for trick in deal.get("tricks", []):
        for pos, card in enumerate(trick["cards"]):
            out.append({"type": "play", "seat": seat_at(trick["leader"], pos, players),
                        "card": card})
    moon = deal.get("moon")
    if moon and moon.get("choice") is not None:
        out.append({"type": "moon", "seat": moon["shooter"], "choice": moon["choice"]})
    return out


def record_actions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action of a (well-formed) record as JSON actions, in order."""
    return [a for deal in record["deals"] for a in deal_actions(deal, record["players"])]


def actions_to_json(actions: list[Action] | tuple[Action, ...]) -> list[dict[str, Any]]:
    return [action_to_json(a) for a in actions]
