"""The ``start`` request of ``spec/protocol.md``: written, and read into the state it asks for.

A ``start`` begins a game in one of two forms. A dealt start names the
player count, the ruleset, the deal number, its dealer, the totals before
it and the deal's cards (:data:`START_FIELDS`): the game just after that
deal. A start from a position (protocol version 2, capability
``position``) names the player count, the ruleset and the position
(``spec/position.md``; :data:`POSITION_START_FIELDS`).

Written by :func:`dealt_start` (a deal's cards), :func:`seeded_start` (the
first deal of a game, dealt from a seed by ``spec/deal.md``),
:func:`position_start` (the position of a state the rules reached) and
:func:`position_start_json` (a position and a ruleset already in their JSON
forms). The ruleset is written in its one JSON form
(:meth:`~rules_ref.ruleset.Ruleset.to_dict`, every switch by name); the pipe
leaves out the later switches an adapter does not know
(:func:`.handshake.ruleset_for`).

Read by :func:`checked_start` (a dealt start, field by field),
:func:`start_state` (the state a dealt start describes), :func:`position_state`
(the state a start from a position describes) and :func:`requested_state`
(either). Bad input raises :class:`~rules_ref.errors.InputError` naming the
JSON path of the field.

>>> from rules_ref.ruleset import DEFAULT
>>> msg = seeded_start(6, DEFAULT, 7, dealer=2)
>>> msg["players"], msg["deal_number"], msg["dealer"], msg["totals"]
(6, 1, 2, [0, 0, 0, 0, 0, 0])
>>> state = start_state(msg)
>>> state.players, state.deal_number, state.dealer, state.phase.name
(6, 1, 2, 'PASSING')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import DealCards
from ..cards import Card
from ..deal import FEWEST_PLAYERS, check_player_count, seeded_deal
from ..errors import InputError, SetupError
from ..jsonio.serialize import (
    cards_from_json,
    cards_to_json,
    check_int,
    check_object,
    get_int,
    ruleset_from_json,
)
from ..positions.convert import (
    position_from_json,
    position_of,
    position_to_json,
    state_from_position,
)
from ..ruleset import Ruleset
from ..state import GameState
from ..wording import brief

#: The fields of a dealt ``start`` request (``id`` aside), in the order they are written.
START_FIELDS = ("type", "players", "ruleset", "deal_number", "dealer", "totals", "hands",
                "extras")
#: The fields of a ``start`` request from a position (protocol version 2), in order.
POSITION_START_FIELDS = ("type", "players", "ruleset", "position")


# --- writing ------------------------------------------------------------------------------------


def dealt_start(ruleset: Ruleset, hands: Sequence[Sequence[Card]], extras: Sequence[Card], *,
                deal_number: int = 1, dealer: int = 0,
                totals: Sequence[int] | None = None) -> dict[str, Any]:
    """The ``start`` of a game dealt ``hands`` (one per seat, in the order given) and
    ``extras`` as its deal ``deal_number``, dealt by ``dealer``, with ``totals`` before it
    (zero by default). The player count is the number of hands.

    >>> from rules_ref.cards import parse_cards
    >>> from rules_ref.ruleset import DEFAULT
    >>> msg = dealt_start(DEFAULT, [parse_cards("2C AS"), parse_cards("QS 3H")], [],
    ...                   deal_number=3, dealer=1, totals=[5, 0])
    >>> msg["players"], msg["deal_number"], msg["dealer"], msg["totals"], msg["hands"]
    (2, 3, 1, [5, 0], [['2C', 'AS'], ['QS', '3H']])
    """
    players = len(hands)
    return {"type": "start", "players": players, "ruleset": ruleset.to_dict(),
            "deal_number": deal_number, "dealer": dealer,
            "totals": list(totals) if totals is not None else [0] * players,
            "hands": [cards_to_json(h) for h in hands], "extras": cards_to_json(extras)}


def seeded_start(players: int, ruleset: Ruleset, seed: int, *, dealer: int = 0
                 ) -> dict[str, Any]:
    """The ``start`` of a new game of ``players``: deal 1, dealt by ``dealer`` from ``seed``
    (``spec/deal.md``), totals zero. Any count the game knows is dealt, whether the
    ruleset plays it or not (a start the rules refuse is one to send too)."""
    deal = seeded_deal(seed, players, 1, dealer, FEWEST_PLAYERS)
    return dealt_start(ruleset, deal.hands, deal.extras, dealer=dealer)


def position_start(state: GameState) -> dict[str, Any]:
    """The ``start`` from ``state``'s position, under its ruleset (protocol version 2)."""
    return position_start_json(state.players, state.ruleset.to_dict(),
                               position_to_json(position_of(state)))


def position_start_json(players: int, ruleset: dict[str, Any], position: dict[str, Any]
                        ) -> dict[str, Any]:
    """The ``start`` from a position, its ``ruleset`` and ``position`` given in their JSON
    forms (``spec/position.md``) and written as given."""
    return {"type": "start", "players": players, "ruleset": ruleset, "position": position}


# --- reading ------------------------------------------------------------------------------------


def _start_head(msg: object, where: str, fields: tuple[str, ...]
                ) -> tuple[dict[str, Any], int, Ruleset]:
    """A ``start`` object's fields, its player count and its ruleset, checked.

    The count must be one the game knows (``PLAYERS.COUNT``) and one the
    ruleset plays (``min_players``).
    """
    d = check_object(msg, where, fields, ("id",))
    if d["type"] != "start":
        raise InputError(f"{where}.type: expected 'start', got {brief(d['type'])}")
    try:
        players = check_player_count(get_int(d, "players", where), FEWEST_PLAYERS)
    except SetupError as exc:
        raise InputError(f"{where}.players: {exc}") from None
    ruleset = ruleset_from_json(d["ruleset"], f"{where}.ruleset")
    try:
        check_player_count(players, ruleset.min_players)
    except SetupError as exc:
        raise InputError(f"{where}.players: {exc}") from None
    return d, players, ruleset


def _start_fields(msg: object, where: str) -> tuple[int, Ruleset, int, int, tuple[int, ...],
                                                   DealCards]:
    """A dealt ``start`` read field by field: its player count, ruleset, deal number,
    dealer, totals and cards (see :func:`checked_start`)."""
    d, players, ruleset = _start_head(msg, where, START_FIELDS)
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
    deal = DealCards(tuple(cards_from_json(h, f"{where}.hands[{i}]", 20)
                           for i, h in enumerate(hands)),
                     cards_from_json(d["extras"], f"{where}.extras", 104))
    return players, ruleset, deal_number, dealer, tuple(totals), deal


def checked_start(msg: object, where: str = "start") -> dict[str, Any]:
    """A dealt ``start`` request checked field by field and written again from its fields
    (:func:`dealt_start`): no ``id``, nothing but the protocol's fields, each card in its
    canonical text and every switch named.

    Raises :class:`~rules_ref.errors.InputError` naming the JSON path of the
    first field that is missing, unknown, of the wrong type or out of range
    (a player count outside 6-11, or 5-11 under ``min_players = 5``, cites
    ``PLAYERS.COUNT``). Whether the cards make up the deck is left to
    :func:`start_state`.
    """
    _, ruleset, deal_number, dealer, totals, deal = _start_fields(msg, where)
    return dealt_start(ruleset, deal.hands, deal.extras, deal_number=deal_number,
                       dealer=dealer, totals=totals)


def start_state(msg: object, where: str = "start") -> GameState:
    """The state a dealt ``start`` request describes, dealt and ready for its first action.

    Bad input raises :class:`~rules_ref.errors.InputError` or
    :class:`~rules_ref.errors.SetupError` (a deal that does not make up the
    deck names ``DEAL.SIZE`` or ``DECK.CARDS``); see :func:`checked_start`.
    """
    players, ruleset, deal_number, dealer, totals, deal = _start_fields(msg, where)
    first_dealer = (dealer - (deal_number - 1)) % players
    state = GameState.start(players, ruleset, first_dealer, totals, deal_number)
    state, _ = state.apply(deal)
    return state


def position_state(msg: object, where: str = "start") -> GameState:
    """The state a ``start`` request from a position describes (protocol version 2).

    The position is read and checked by :mod:`rules_ref.positions.convert`; a position
    the rules cannot reach raises :class:`~rules_ref.errors.InputError`
    naming the field.
    """
    d, players, ruleset = _start_head(msg, where, POSITION_START_FIELDS)
    pos = position_from_json(d["position"], f"{where}.position")
    if pos.players != players:
        raise InputError(f"{where}.position.players: {pos.players} players, but the start is "
                         f"for {players}")
    return state_from_position(pos, ruleset)  # checks that the rules reach it


def requested_state(msg: dict[str, Any], where: str = "start") -> GameState:
    """The state any ``start`` request describes: from its position when it holds one
    (:func:`position_state`), else dealt (:func:`start_state`)."""
    return (position_state if "position" in msg else start_state)(msg, where)
