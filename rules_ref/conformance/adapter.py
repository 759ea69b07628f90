"""The reference adapter: the reference engine behind ``spec/protocol.md``.

Run it as ``python -m rules_ref.conformance.adapter``. It answers every
request from the reference engine, so ``rules-ref conform`` and
``rules-ref vectors run`` against it must pass; broken variants of it (in
the tests) show that they fail when a rule is broken.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import IO, Any

from ..actions import DealCards
from ..deal import MAX_PLAYERS, MIN_PLAYERS, check_player_count
from ..errors import IllegalAction, InputError, RulesRefError, SetupError
from ..ruleset import Ruleset
from ..serialize import (
    action_from_json,
    brief,
    cards_from_json,
    cards_to_json,
    check_int,
    check_object,
    get_int,
    ruleset_from_json,
)
from ..state import GameState
from .observation import PROTOCOL_NAME, PROTOCOL_VERSION, observe

Observer = Callable[[GameState], dict[str, Any]]

#: The switches of ``spec/variants.toml``, as the ruleset names them.
SWITCHES = tuple(f.name for f in fields(Ruleset))


#: The fields of a ``start`` request (``id`` aside).
START_FIELDS = ("type", "players", "ruleset", "deal_number", "dealer", "totals", "hands",
                "extras")


def start_message(msg: object, where: str = "start") -> dict[str, Any]:
    """A ``start`` request checked field by field, without its ``id``.

    Raises :class:`~rules_ref.errors.InputError` naming the JSON path of the
    first field that is missing, unknown, of the wrong type or out of range
    (a player count outside 6-11 cites ``PLAYERS.COUNT``). Whether the cards
    make up the deck is left to :func:`start_state`.
    """
    d = check_object(msg, where, START_FIELDS, ("id",))
    if d["type"] != "start":
        raise InputError(f"{where}.type: expected 'start', got {brief(d['type'])}")
    try:
        players = check_player_count(get_int(d, "players", where))
    except SetupError as exc:
        raise InputError(f"{where}.players: {exc}") from None
    ruleset = ruleset_from_json(d["ruleset"], f"{where}.ruleset")
    deal_number = get_int(d, "deal_number", where, 1)
    dealer = get_int(d, "dealer", where, 0, players - 1)
    totals = d["totals"]
    if not isinstance(totals, list) or len(totals) != players:
        raise InputError(f"{where}.totals: expected a list of {players} integers")
    for i, total in enumerate(totals):
        check_int(total, f"{where}.totals[{i}]")
    hands = d["hands"]
    if not isinstance(hands, list) or len(hands) != players:
        raise InputError(f"{where}.hands: expected a list of {players} hands")
    return {"type": "start", "players": players, "ruleset": ruleset.to_dict(),
            "deal_number": deal_number, "dealer": dealer, "totals": list(totals),
            "hands": [cards_to_json(cards_from_json(h, f"{where}.hands[{i}]", 17))
                      for i, h in enumerate(hands)],
            "extras": cards_to_json(cards_from_json(d["extras"], f"{where}.extras", 104))}


def start_state(msg: object, where: str = "start") -> GameState:
    """The state a ``start`` request describes, dealt and ready for its first action.

    Bad input raises :class:`~rules_ref.errors.InputError` or
    :class:`~rules_ref.errors.SetupError` (a deal that does not make up the
    deck names ``DEAL.SIZE`` or ``DECK.CARDS``); see :func:`start_message`.
    """
    m = start_message(msg, where)
    players, deal_number = m["players"], m["deal_number"]
    first_dealer = (m["dealer"] - (deal_number - 1)) % players
    state = GameState.start(players, Ruleset.from_dict(m["ruleset"]), first_dealer,
                            tuple(m["totals"]), deal_number)
    hands = tuple(cards_from_json(h, f"{where}.hands[{i}]") for i, h in enumerate(m["hands"]))
    state, _ = state.apply(DealCards(hands, cards_from_json(m["extras"], f"{where}.extras")))
    return state


class ReferenceAdapter:
    """Answers protocol requests; subclasses in the tests break one rule each."""

    name = "rules-ref reference adapter"

    def __init__(self) -> None:
        self.state: GameState | None = None

    def hello(self) -> dict[str, Any]:
        return {"type": "hello", "protocol": PROTOCOL_NAME, "version": PROTOCOL_VERSION,
                "name": self.name,
                "supports": {"players": list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                             "switches": dict.fromkeys(SWITCHES, "any")}}

    def observe(self, state: GameState) -> dict[str, Any]:
        return observe(state)

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        try:
            self.state = start_state(msg)
        except RulesRefError as exc:
            self.state = None
            return {"type": "rejected", "reason": f"cannot start this game: {exc}"}
        return {"type": "observation", **self.observe(self.state)}

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.state is None:
            return {"type": "rejected", "reason": "no game started"}
        try:
            action = action_from_json(msg.get("action"), "action")
            self.state, _ = self.state.apply(action)
        except IllegalAction as exc:
            return {"type": "rejected", "rule": exc.rule_id, "reason": str(exc)}
        except RulesRefError as exc:
            rule = getattr(exc, "rule_id", None)
            return {"type": "rejected", **({"rule": rule} if rule else {}), "reason": str(exc)}
        return {"type": "observation", **self.observe(self.state)}

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg.get("type")
        if kind == "action":
            return self.act(msg)
        if kind == "start":
            return self.start(msg)
        if kind == "hello":
            return self.hello()
        if kind == "bye":
            return {"type": "bye"}
        raise RulesRefError(f"unknown request type {kind!r}")

    def serve(self, stdin: IO[str], stdout: IO[str]) -> int:
        dumps = json.JSONEncoder(separators=(",", ":")).encode
        for line in stdin:
            try:
                msg = json.loads(line)
                answer = {"id": msg.get("id"), **self.handle(msg)}
            except (ValueError, KeyError, TypeError, AttributeError, RulesRefError) as exc:
                print(f"adapter: cannot answer {line[:200]!r}: {exc}", file=sys.stderr)
                return 2
            stdout.write(dumps(answer) + "\n")
            stdout.flush()
            if answer["type"] == "bye":
                return 0
        return 0


def main() -> int:
    return ReferenceAdapter().serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
