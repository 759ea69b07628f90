"""A position's JSON form (``spec/position.md``), and the way to and from a game state.

The JSON form (:func:`position_to_json`, :func:`position_from_json`, schema
``spec/schemas/position.schema.json``) is one of a position's two equal forms;
the other is its one-line text (:mod:`~rules_ref.positions.text`). Reading either form checks that
the rules can reach the position (:func:`~rules_ref.positions.check.check_position`).

>>> from rules_ref.players.game import game_steps
>>> from rules_ref.positions import format_position, parse_position
>>> steps = game_steps(players=6, seed=7)
>>> state = [after for _, _, after, _ in steps][40]
>>> pos = position_of(state)
>>> position_from_json(position_to_json(pos)) == pos == parse_position(format_position(pos))
True
>>> position_of(state_from_position(pos)) == pos
True
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..deal import dealer_for_deal, hand_size
from ..errors import InputError
from ..jsonio.serialize import card_from_json, check_int, check_object
from ..passing import remove_cards
from ..ruleset import DEFAULT, Ruleset
from ..state import GameState
from ..state_parts import Phase
from ..wording import brief
from ..wording.suggest import did_you_mean
from .check import check_position
from .model import (
    MAX_DEAL_NUMBER,
    MAX_TOTAL,
    POSITION_PHASES,
    Extras,
    ExtrasPlace,
    Position,
)

FIELDS = ("players", "deal_number", "dealer", "phase", "hands", "passes", "trick_number",
          "leader", "trick", "hearts_broken", "pending", "extras", "collected", "uncollected",
          "moon_shooter", "totals")
EXTRAS_FIELDS = ("cards", "place", "seat")


# --- JSON -----------------------------------------------------------------------------------


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def position_to_json(pos: Position) -> dict[str, Any]:
    """The JSON form of ``pos`` (``spec/position.md``): every field, always in this order."""
    extras = None if pos.extras is None else {
        "cards": _cards(pos.extras.cards), "place": str(pos.extras.place),
        "seat": pos.extras.seat}
    return {
        "players": pos.players,
        "deal_number": pos.deal_number,
        "dealer": pos.dealer,
        "phase": str(pos.phase),
        "hands": [_cards(h) for h in pos.hands],
        "passes": None if pos.passes is None else [None if p is None else _cards(p)
                                                   for p in pos.passes],
        "trick_number": pos.trick_number,
        "leader": pos.leader,
        "trick": _cards(pos.trick),
        "hearts_broken": pos.hearts_broken,
        "pending": _cards(pos.pending),
        "extras": extras,
        "collected": [_cards(c) for c in pos.collected],
        "uncollected": _cards(pos.uncollected),
        "moon_shooter": pos.moon_shooter,
        "totals": list(pos.totals),
    }


def _card_list(data: object, where: str, sort: bool) -> tuple[Card, ...]:
    if not isinstance(data, list):
        raise InputError(f"{where}: expected a list of cards, got {brief(data)}")
    if len(data) > 104:
        raise InputError(f"{where}: {len(data)} cards, more than the 104 of the deck")
    cards = tuple(card_from_json(c, f"{where}[{i}]") for i, c in enumerate(data))
    return tuple(sorted(cards)) if sort else cards


def _lists(data: object, where: str, optional: bool = False) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise InputError(f"{where}: expected a list with one entry per seat, got {brief(data)}")
    if len(data) > 11:
        raise InputError(f"{where}: {len(data)} entries, more than the 11 seats of the largest "
                         "game")
    return tuple(None if optional and entry is None else _card_list(entry, f"{where}[{i}]", True)
                 for i, entry in enumerate(data))


def _opt_int(data: object, where: str) -> int | None:
    return None if data is None else check_int(data, where)


def position_from_json(data: object, where: str = "position") -> Position:
    """Read the JSON form of a position and check it (:func:`check_position`, no ruleset).

    Multisets given out of canonical order are sorted; anything else that is
    wrong raises :class:`InputError` naming the JSON path and the reason.
    """
    d = check_object(data, where, FIELDS)
    phase_text = d["phase"]
    phases = {str(p): p for p in POSITION_PHASES}
    if not isinstance(phase_text, str) or phase_text not in phases:
        raise InputError(f"{where}.phase: {brief(phase_text)} is not one of "
                         f"{', '.join(phases)}{did_you_mean(phase_text, phases)}")
    totals = d["totals"]
    if not isinstance(totals, list) or len(totals) > 11:
        raise InputError(f"{where}.totals: expected a list of one integer per seat, got "
                         f"{brief(totals)}")
    broken = d["hearts_broken"]
    if not isinstance(broken, bool):
        raise InputError(f"{where}.hearts_broken: expected true or false, got {brief(broken)}")
    passes = None if d["passes"] is None else _lists(d["passes"], f"{where}.passes", True)
    pos = Position(
        players=check_int(d["players"], f"{where}.players"),
        deal_number=check_int(d["deal_number"], f"{where}.deal_number", 1, MAX_DEAL_NUMBER),
        dealer=check_int(d["dealer"], f"{where}.dealer"),
        phase=phases[phase_text],
        totals=tuple(check_int(t, f"{where}.totals[{i}]", -MAX_TOTAL, MAX_TOTAL)
                     for i, t in enumerate(totals)),
        hands=_lists(d["hands"], f"{where}.hands"),
        passes=passes,
        trick_number=_opt_int(d["trick_number"], f"{where}.trick_number"),
        leader=_opt_int(d["leader"], f"{where}.leader"),
        trick=_card_list(d["trick"], f"{where}.trick", False),
        hearts_broken=broken,
        pending=_card_list(d["pending"], f"{where}.pending", False),
        extras=_extras_from_json(d["extras"], f"{where}.extras"),
        collected=_lists(d["collected"], f"{where}.collected"),
        uncollected=_card_list(d["uncollected"], f"{where}.uncollected", True),
        moon_shooter=_opt_int(d["moon_shooter"], f"{where}.moon_shooter"),
    )
    try:
        return check_position(pos)
    except InputError as exc:
        raise InputError(f"{where}.{exc}") from None


def _extras_from_json(data: object, where: str) -> Extras | None:
    if data is None:
        return None
    d = check_object(data, where, EXTRAS_FIELDS)
    places = {str(p): p for p in ExtrasPlace}
    if not isinstance(d["place"], str) or d["place"] not in places:
        raise InputError(f"{where}.place: {brief(d['place'])} is not one of "
                         f"{', '.join(places)}{did_you_mean(d['place'], places)}")
    return Extras(_card_list(d["cards"], f"{where}.cards", False), places[d["place"]],
                  _opt_int(d["seat"], f"{where}.seat"))


# --- game states ----------------------------------------------------------------------------


def position_of(state: GameState) -> Position:
    """The position of ``state``: the moment :func:`state_from_position` continues from.

    A finished game has no position (nothing continues from it): that raises
    :class:`InputError`.
    """
    n = state.players
    if state.phase is Phase.GAME_OVER:
        raise InputError("phase: the game is over: a finished game has no position to "
                         "continue from")
    if state.phase is Phase.DEALING:
        return Position(n, state.deal_number + 1, state.dealer_of_next_deal, Phase.DEALING,
                        state.totals)
    common: dict[str, Any] = {
        "players": n, "deal_number": state.deal_number, "dealer": state.dealer,
        "phase": state.phase, "totals": state.totals, "hearts_broken": state.hearts_broken,
        "extras": _extras_of(state),
        "collected": tuple(tuple(sorted(c)) for c in state.collected)}
    if state.phase is Phase.PASSING:
        hands = tuple(h if p is None else remove_cards(h, p)
                      for h, p in zip(state.hands, state.passes, strict=True))
        return Position(**common, hands=hands, passes=state.passes)
    if state.phase is Phase.PLAYING:
        return Position(**common, hands=state.hands, trick_number=state.trick_number,
                        leader=state.leader, trick=state.trick, pending=state.pending)
    return Position(**common, hands=state.hands, uncollected=tuple(sorted(state.uncollected)),
                    moon_shooter=state.moon_shooter)


def _extras_of(state: GameState) -> Extras:
    cards = state.extras
    if not cards:
        return Extras((), ExtrasPlace.NONE)
    if state.phase is Phase.PASSING or (state.phase is Phase.PLAYING and state.trick_number == 1):
        return Extras(cards, ExtrasPlace.FACE_DOWN)
    if state.pending_has_extras:
        return Extras(cards, ExtrasPlace.PENDING)
    if state.extras_taken_by is not None:
        return Extras(cards, ExtrasPlace.TAKEN, state.extras_taken_by)
    if state.uncollected:
        return Extras(cards, ExtrasPlace.UNCOLLECTED)
    return Extras(cards, ExtrasPlace.SPLIT)


def state_from_position(pos: Position, ruleset: Ruleset = DEFAULT) -> GameState:
    """A game state at ``pos`` under ``ruleset`` (the inverse of :func:`position_of`).

    Checks the position first (:func:`check_position` with the ruleset). The
    state has no history before the position: its action log starts there,
    and so do its tricks and deal results.
    """
    if not isinstance(ruleset, Ruleset):
        raise InputError("ruleset must be a Ruleset")
    check_position(pos, ruleset)
    n = pos.players
    first_dealer = (pos.dealer - (pos.deal_number - 1)) % n
    start = GameState.start(n, ruleset, first_dealer, pos.totals, pos.deal_number)
    if pos.phase is Phase.DEALING:
        return start
    extras = pos.extras
    assert extras is not None and dealer_for_deal(first_dealer, pos.deal_number, n) == pos.dealer
    fields: dict[str, Any] = {
        "phase": pos.phase, "deal_number": pos.deal_number, "dealer": pos.dealer,
        "extras": extras.cards, "hearts_broken": pos.hearts_broken, "collected": pos.collected,
        "extras_taken_by": extras.seat, "leader": (pos.dealer + 1) % n,
        "passes": (None,) * n}
    if pos.phase is Phase.PASSING:
        assert pos.passes is not None
        fields["passes"] = pos.passes
        fields["hands"] = tuple(h if p is None else tuple(sorted(h + p))
                                for h, p in zip(pos.hands, pos.passes, strict=True))
    elif pos.phase is Phase.PLAYING:
        assert pos.trick_number is not None
        fields.update(hands=pos.hands, trick_number=pos.trick_number, leader=pos.leader,
                      trick=pos.trick, pending=pos.pending,
                      pending_has_extras=extras.place is ExtrasPlace.PENDING)
    else:
        fields.update(hands=pos.hands, trick_number=hand_size(n) + 1,
                      uncollected=pos.uncollected, moon_shooter=pos.moon_shooter)
    return start._with(**fields)


__all__ = ["FIELDS", "position_from_json", "position_of", "position_to_json",
           "state_from_position"]
