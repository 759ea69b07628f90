"""JSON forms of cards, rulesets, actions, states and game records.

Every ``*_to_json`` function returns plain data (dicts, lists, strings,
integers) ready for :func:`json.dumps`; every ``*_from_json`` function
reads it back, checks it, and raises :class:`~rules_ref.errors.InputError`
naming the JSON path of the first problem. States are stored as their
action log and rebuilt by replaying it, so a state round-trips exactly.

>>> from rules_ref.actions import Play
>>> from rules_ref.cards import parse_card
>>> action_to_json(Play(3, parse_card("QS")))
{'type': 'play', 'seat': 3, 'card': 'QS'}
>>> action_from_json({'type': 'play', 'seat': 3, 'card': 'qs'})
Play(seat=3, card=Card('QS'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import CARDS, Card, parse_card
from ..errors import InputError, RulesRefError, SetupError
from ..ruleset import Ruleset
from ..state import GameState
from ..wording import brief, json_kind

STATE_FORMAT = "cancellation-hearts-state"
RECORD_FORMAT = "cancellation-hearts-record"
FORMAT_VERSION = 1
#: At most this many actions in a state document (a game of 1000 deals has about 130000).
MAX_STATE_ACTIONS = 200_000


def check_object(data: object, where: str, required: tuple[str, ...],
                 optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """``data`` if it is an object with every ``required`` key and no key outside ``optional``."""
    if not isinstance(data, dict):
        raise InputError(f"{where}: expected an object, got {json_kind(data)}")
    missing = [k for k in required if k not in data]
    if missing:
        raise InputError(f"{where}: missing {', '.join(missing)}")
    unknown = sorted(str(k) for k in data if k not in required and k not in optional)
    if unknown:
        shown = ", ".join(brief(k, 40) for k in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise InputError(f"{where}: unknown field(s) {shown}{more}")
    return data


_obj = check_object


def check_int(value: object, where: str, low: int | None = None,
              high: int | None = None) -> int:
    """``value`` if it is an integer (not a boolean) from ``low`` to ``high``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{where}: expected an integer, got {brief(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"from {low} to {high}" if low is not None and high is not None
                  else f"at least {low}" if low is not None else f"at most {high}")
        raise InputError(f"{where}: {brief(value)} is out of range (expected {bounds})")
    return value


def get_int(data: dict[str, Any], key: str, where: str, low: int | None = None,
            high: int | None = None) -> int:
    """The integer ``data[key]``, checked as :func:`check_int` does."""
    return check_int(data[key], f"{where}.{key}", low, high)


def card_from_json(data: object, where: str) -> Card:
    if not isinstance(data, str):
        raise InputError(f"{where}: expected a card string, got {brief(data)}")
    try:
        return parse_card(data)
    except RulesRefError as exc:
        raise InputError(f"{where}: {exc}") from None


def cards_from_json(data: object, where: str, limit: int = 104) -> tuple[Card, ...]:
    if not isinstance(data, list):
        raise InputError(f"{where}: expected a list of cards, got {json_kind(data)}")
    if len(data) > limit:
        raise InputError(f"{where}: {len(data)} cards, more than {limit}")
    try:  # every card in canonical notation, the common case: one look-up each
        return tuple(map(_CANONICAL.__getitem__, data))
    except (KeyError, TypeError):  # another notation, or not a card: each one read and named
        return tuple(card_from_json(c, f"{where}[{i}]") for i, c in enumerate(data))


def cards_to_json(cards: Sequence[Card]) -> list[str]:
    return [_TEXT[c] for c in cards]


#: Each card by its canonical text, and the text of each card (indexed by the card).
_CANONICAL: dict[str, Card] = {str(c): c for c in CARDS}
_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)


def ruleset_from_json(data: object, where: str = "ruleset") -> Ruleset:
    return Ruleset.from_dict(data, where)


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {"type": "play", "seat": action.seat, "card": str(action.card)}
    if isinstance(action, Pass):
        return {"type": "pass", "seat": action.seat, "cards": cards_to_json(action.cards)}
    if isinstance(action, ChooseMoon):
        return {"type": "moon", "seat": action.seat, "choice": str(action.choice)}
    return {"type": "deal", "hands": [cards_to_json(h) for h in action.hands],
            "extras": cards_to_json(action.extras)}


def action_from_json(data: object, where: str = "action") -> Action:
    if not isinstance(data, dict) or "type" not in data:
        raise InputError(f"{where}: expected an object with a 'type'")
    kind = data["type"]
    if kind == "play":
        d = _obj(data, where, ("type", "seat", "card"))
        return Play(get_int(d, "seat", where, 0, 10), card_from_json(d["card"], f"{where}.card"))
    if kind == "pass":
        d = _obj(data, where, ("type", "seat", "cards"))
        return Pass(get_int(d, "seat", where, 0, 10), cards_from_json(d["cards"],
                                                                       f"{where}.cards", 20))
    if kind == "moon":
        d = _obj(data, where, ("type", "seat", "choice"))
        choice = d["choice"]
        if choice not in ("subtract", "add"):
            raise InputError(f"{where}.choice: {brief(choice)} is not one of subtract, add")
        return ChooseMoon(get_int(d, "seat", where, 0, 10), MoonChoice(choice))
    if kind == "deal":
        d = _obj(data, where, ("type", "hands", "extras"))
        hands = d["hands"]
        if not isinstance(hands, list) or len(hands) > 11:
            raise InputError(f"{where}.hands: expected a list of at most 11 hands")
        return DealCards(tuple(cards_from_json(h, f"{where}.hands[{i}]", 20)
                               for i, h in enumerate(hands)),
                         cards_from_json(d["extras"], f"{where}.extras", 104))
    raise InputError(f"{where}.type: {brief(kind)} is not one of deal, pass, play, moon")


def game_head(form: str, state: GameState) -> dict[str, Any]:
    """What a state file and a game record (format ``form``) open with: the game's set-up."""
    return {"format": form, "version": FORMAT_VERSION, "players": state.players,
            "ruleset": state.ruleset.to_dict(), "first_dealer": state.first_dealer,
            "initial_totals": list(state.initial_totals), "initial_deal": state.initial_deal}


def state_to_json(state: GameState) -> dict[str, Any]:
    """A state as its setup and action log, with a readable summary."""
    return {
        **game_head(STATE_FORMAT, state),
        "actions": [action_to_json(a) for a in state.actions],
        "summary": {
            "phase": str(state.phase),
            "deal_number": state.deal_number,
            "dealer": state.dealer,
            "to_act": state.to_act,
            "trick_number": state.trick_number,
            "totals": list(state.totals),
        },
    }


def state_from_json(data: object, where: str = "state") -> GameState:
    """Rebuild a state by replaying its action log; the summary must agree."""
    d = _obj(data, where, ("format", "version", "players", "ruleset", "first_dealer",
                           "initial_totals", "initial_deal", "actions"), ("summary",))
    if d["format"] != STATE_FORMAT or d["version"] != FORMAT_VERSION:
        raise InputError(f"{where}: not a {STATE_FORMAT} version {FORMAT_VERSION} document")
    totals = d["initial_totals"]
    if not isinstance(totals, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in totals):
        raise InputError(f"{where}.initial_totals: expected a list of integers")
    ruleset = ruleset_from_json(d["ruleset"], f"{where}.ruleset")
    try:
        state = GameState.start(get_int(d, "players", where), ruleset,
                                get_int(d, "first_dealer", where), tuple(totals),
                                get_int(d, "initial_deal", where, 1))
    except SetupError as exc:
        raise InputError(f"{where}: {exc}") from None
    actions = d["actions"]
    if not isinstance(actions, list):
        raise InputError(f"{where}.actions: expected a list")
    if len(actions) > MAX_STATE_ACTIONS:
        raise InputError(f"{where}.actions: {len(actions)} actions, more than "
                         f"{MAX_STATE_ACTIONS}")
    for i, a in enumerate(actions):
        try:
            state, _ = state.apply(action_from_json(a, f"{where}.actions[{i}]"))
        except RulesRefError as exc:
            raise InputError(f"{where}.actions[{i}]: {exc}") from None
    if "summary" in d and d["summary"] != state_to_json(state)["summary"]:
        raise InputError(f"{where}.summary: does not match the state its actions produce")
    return state


def describe_action_json(action: dict[str, Any]) -> str:
    """A JSON action in words, for reports (works on malformed actions too)."""
    kind = action.get("type")
    if kind == "play":
        return f"seat {action.get('seat')} plays {action.get('card')}"
    if kind == "pass":
        return f"seat {action.get('seat')} passes {' '.join(map(str, action.get('cards', [])))}"
    if kind == "moon":
        return f"seat {action.get('seat')} chooses moon option {action.get('choice')}"
    if kind == "deal":
        return "the next deal is dealt"
    return str(action)
