"""The one-line text of a position (``spec/position.md``, "Text form").

Fields are separated by spaces, seats by ``/``, and a list of cards is
written as its cards in canonical notation one after another (``3C3C10DQS``)
or, in the short form, with each run of cards of one suit written as its
ranks and the suit once, ``T`` standing for 10 (``33CTDQS``). Both forms read back the same way;
:func:`format_position` writes the long form unless asked for the short one.

>>> from rules_ref.positions.model import Extras, ExtrasPlace, Position
>>> from rules_ref.state import Phase
>>> format_position(Position(8, 2, 1, Phase.DEALING, (0, 5, 26, 0, 13, 0, 0, 8)))
'8 2 1 dealing 0,5,26,0,13,0,0,8'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import RANK_TEXT, Card, Suit, card
from ..errors import InputError
from ..state_parts import Phase
from ..wording import counted
from ..wording.suggest import did_you_mean
from .check import check_position
from .model import MAX_POSITION_TEXT, MAX_TOTAL, POSITION_PHASES, Extras, ExtrasPlace, Position

#: The fields of the text in each phase, after ``players deal_number dealer phase``.
TEXT_FIELDS: dict[Phase, tuple[str, ...]] = {
    Phase.DEALING: ("totals",),
    Phase.PASSING: ("hands", "passes", "extras", "totals"),
    Phase.PLAYING: ("hands", "trick", "hearts_broken", "pending", "extras", "collected",
                    "totals"),
    Phase.MOON_CHOICE: ("hearts_broken", "extras", "collected", "uncollected", "moon_shooter",
                        "totals"),
}
EMPTY = "-"
HEARTS = {True: "broken", False: "unbroken"}
_SUIT_IN = {"C": Suit.C, "D": Suit.D, "H": Suit.H, "S": Suit.S, "♣": Suit.C, "♦": Suit.D,
            "♥": Suit.H, "♠": Suit.S, "♧": Suit.C, "♢": Suit.D, "♡": Suit.H, "♤": Suit.S}
_RANK_IN = {text: rank for rank, text in RANK_TEXT.items() if rank != 10} | {"T": 10}


# --- writing --------------------------------------------------------------------------------


def format_cards_compact(cards: Sequence[Card], short: bool = False) -> str:
    """A list of cards as one field: ``3C3C10DQS``, short ``33CTDQS``, ``-`` when empty."""
    if not cards:
        return EMPTY
    if not short:
        return "".join(str(c) for c in cards)
    out: list[str] = []
    for i, c in enumerate(cards):
        out.append("T" if c.rank == 10 else RANK_TEXT[c.rank])
        if i + 1 == len(cards) or cards[i + 1].suit != c.suit:
            out.append(c.suit.name)
    return "".join(out)


def format_position(pos: Position, short: bool = False) -> str:
    """The text of ``pos``: one line, one text per position (the short form if ``short``)."""
    def cards(cs: Sequence[Card]) -> str:
        return format_cards_compact(cs, short)

    def seats(lists: Sequence[Sequence[Card] | None]) -> str:
        return "/".join(EMPTY if cs is None else cards(cs) for cs in lists)

    def extras() -> str:
        x = pos.extras
        if x is None or x.place is ExtrasPlace.NONE:
            return EMPTY
        place = str(x.seat) if x.place is ExtrasPlace.TAKEN else str(x.place)
        return f"{cards(x.cards)}@{place}"

    values: dict[str, Callable[[], str]] = {
        "hands": lambda: seats(pos.hands),
        "passes": lambda: seats(pos.passes or ()),
        "trick": lambda: f"{pos.trick_number}@{pos.leader}:{cards(pos.trick)}",
        "hearts_broken": lambda: HEARTS[pos.hearts_broken],
        "pending": lambda: cards(pos.pending),
        "extras": extras,
        "collected": lambda: seats(pos.collected),
        "uncollected": lambda: cards(pos.uncollected),
        "moon_shooter": lambda: str(pos.moon_shooter),
        "totals": lambda: ",".join(str(t) for t in pos.totals),
    }
    head = [str(pos.players), str(pos.deal_number), str(pos.dealer), str(pos.phase)]
    return " ".join(head + [values[f]() for f in TEXT_FIELDS[pos.phase]])


# --- reading --------------------------------------------------------------------------------


def _brief(text: str, limit: int = 30) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def parse_cards_compact(text: str, field: str) -> tuple[Card, ...]:
    """Read one list of cards (long or short form, ``-`` for none); ``field`` names it in errors."""
    if text == EMPTY:
        return ()
    out: list[Card] = []
    ranks: list[int] = []
    upper = text.upper()
    i = 0
    while i < len(upper):
        ch = upper[i]
        if ch == ",":
            if ranks:
                raise InputError(f"{field}: {_brief(text)}: ranks before a comma need a suit")
            i += 1
            continue
        if ch in _SUIT_IN:
            if not ranks:
                raise InputError(f"{field}: {_brief(text)}: suit {text[i]!r} has no rank "
                                 "before it")
            out.extend(card(r, _SUIT_IN[ch]) for r in ranks)
            ranks = []
            i += 1
            continue
        if upper.startswith("10", i):
            ranks.append(10)
            i += 2
            continue
        if ch in _RANK_IN:
            ranks.append(_RANK_IN[ch])
            i += 1
            continue
        raise InputError(f"{field}: {_brief(text)}: {text[i]!r} is not a rank (2-10, J, Q, K, "
                         "A, or T) or a suit (C, D, H, S)")
    if ranks:
        raise InputError(f"{field}: {_brief(text)}: the last rank(s) have no suit after them")
    if len(out) > 104:
        raise InputError(f"{field}: {len(out)} cards, more than the 104 of the deck")
    return tuple(out)


def _int(text: str, field: str, low: int, high: int) -> int:
    body = text[1:] if text.startswith("-") else text
    if not body.isdigit() or not body.isascii() or len(body) > len(str(max(-low, high))):
        raise InputError(f"{field}: {_brief(text)} is not an integer from {low} to {high}")
    value = int(text)
    if not low <= value <= high:
        raise InputError(f"{field}: {value} is out of range (expected from {low} to {high})")
    return value


def _seats(text: str, field: str, optional: bool = False) -> tuple[tuple[Card, ...] | None, ...]:
    parts = text.split("/")
    if len(parts) > 11:
        raise InputError(f"{field}: {len(parts)} seats, more than the 11 of the largest game")
    return tuple(None if optional and part == EMPTY else
                 tuple(sorted(parse_cards_compact(part, f"{field}[{i}]")))
                 for i, part in enumerate(parts))


def _full(lists: tuple[tuple[Card, ...] | None, ...]) -> tuple[tuple[Card, ...], ...]:
    return tuple(cs or () for cs in lists)


def _trick(text: str) -> tuple[int, int, tuple[Card, ...]]:
    number, at, rest = text.partition("@")
    leader, colon, cards = rest.partition(":")
    if not at or not colon:
        raise InputError(f"trick: {_brief(text)} is not NUMBER@LEADER:CARDS (e.g. 5@4:5S5SKS)")
    return (_int(number, "trick_number", 0, 99), _int(leader, "leader", 0, 99),
            parse_cards_compact(cards, "trick"))


def _extras(text: str) -> Extras:
    if text == EMPTY:
        return Extras((), ExtrasPlace.NONE)
    cards, at, place = text.rpartition("@")
    if not at:
        raise InputError(f"extras: {_brief(text)} is not CARDS@PLACE (e.g. 4C9H@face-down) "
                         "or '-'")
    parsed = parse_cards_compact(cards, "extras.cards")
    if place.isdigit():
        return Extras(parsed, ExtrasPlace.TAKEN, _int(place, "extras.seat", 0, 99))
    places = [p for p in ExtrasPlace if p not in (ExtrasPlace.NONE, ExtrasPlace.TAKEN)]
    if place not in places:
        raise InputError(f"extras.place: {_brief(place)} is not a seat number or one of "
                         f"{', '.join(places)}{did_you_mean(place, places)}")
    return Extras(parsed, ExtrasPlace(place))


def parse_position(text: str) -> Position:
    """Read a position text (long or short form) and check it (:func:`check_position`)."""
    if not isinstance(text, str):
        raise InputError(f"position text: expected text, got {type(text).__name__}")
    if len(text) > MAX_POSITION_TEXT:
        raise InputError(f"position text: {len(text)} characters, more than {MAX_POSITION_TEXT}")
    words = text.split()
    if len(words) < 4:
        raise InputError("position text: expected PLAYERS DEAL DEALER PHASE and the fields of "
                         f"the phase, got {counted(len(words), 'field')}")
    phases = {str(p): p for p in POSITION_PHASES}
    if words[3] not in phases:
        raise InputError(f"phase: {_brief(words[3])} is not one of {', '.join(phases)}"
                         f"{did_you_mean(words[3], phases)}")
    phase = phases[words[3]]
    names = TEXT_FIELDS[phase]
    if len(words) != 4 + len(names):
        raise InputError(f"position text: {len(words)} fields, but a {phase} position has "
                         f"{4 + len(names)}: PLAYERS DEAL DEALER PHASE "
                         f"{' '.join(n.upper() for n in names)}")
    field = dict(zip(names, words[4:], strict=True))
    kwargs: dict[str, object] = {}
    if "hands" in field:
        kwargs["hands"] = _full(_seats(field["hands"], "hands"))
    if "passes" in field:
        kwargs["passes"] = _seats(field["passes"], "passes", optional=True)
    if "trick" in field:
        kwargs["trick_number"], kwargs["leader"], kwargs["trick"] = _trick(field["trick"])
    if "hearts_broken" in field:
        word = field["hearts_broken"]
        if word not in ("broken", "unbroken"):
            raise InputError(f"hearts_broken: {_brief(word)} is not 'broken' or 'unbroken'"
                             f"{did_you_mean(word, ('broken', 'unbroken'))}")
        kwargs["hearts_broken"] = word == "broken"
    if "pending" in field:
        kwargs["pending"] = parse_cards_compact(field["pending"], "pending")
    if "extras" in field:
        kwargs["extras"] = _extras(field["extras"])
    if "collected" in field:
        kwargs["collected"] = _full(_seats(field["collected"], "collected"))
    if "uncollected" in field:
        kwargs["uncollected"] = tuple(sorted(parse_cards_compact(field["uncollected"],
                                                                 "uncollected")))
    if "moon_shooter" in field:
        kwargs["moon_shooter"] = _int(field["moon_shooter"], "moon_shooter", 0, 99)
    parts = field["totals"].split(",")
    if len(parts) > 11:
        raise InputError(f"totals: {len(parts)} totals, more than the 11 seats of the largest game")
    totals = tuple(_int(t, f"totals[{i}]", -MAX_TOTAL, MAX_TOTAL) for i, t in enumerate(parts))
    players = _int(words[0], "players", 0, 99)
    if phase is Phase.PASSING:
        kwargs["collected"] = ((),) * len(field["hands"].split("/"))
    if phase is Phase.MOON_CHOICE:
        kwargs["hands"] = ((),) * len(field["collected"].split("/"))
    pos = Position(players=players, deal_number=_int(words[1], "deal_number", 1, 10**9),
                   dealer=_int(words[2], "dealer", 0, 99), phase=phase, totals=totals,
                   **kwargs)  # type: ignore[arg-type]
    return check_position(pos)
