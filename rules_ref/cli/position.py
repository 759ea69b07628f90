"""``rules-ref position``: print a position as a table, or convert it between text and JSON.

Also the ``--at D.T`` option of ``play`` and ``validate``: the
position at the start of that trick of that deal, found by
:func:`print_position_at` in the states of a game (``spec/position.md``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..cards import Card
from ..errors import InputError, RulesRefError
from ..jsonio.files import parse_json_text, read_input_bytes, shown_path
from ..positions.check import check_position
from ..positions.convert import position_from_json, position_of, position_to_json
from ..positions.model import MAX_POSITION_TEXT, ExtrasPlace, Position, pending_tricks
from ..positions.text import format_position, parse_position
from ..ruleset import Ruleset
from ..scoring import card_points
from ..state import GameState
from ..state_parts import Phase
from ..tricks import seat_at
from ..wording import counted, json_kind
from .common import add_ruleset_arguments, ruleset_from_args

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("position position.txt", "a position (spec/position.md) drawn as a table"),
    ("position position.txt --json", "the same position as JSON"),
    ("position position.json --text", "a JSON position as its one line of text"),
    ("position position.txt --preset wikipedia", "also check it against a preset"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", nargs="*", metavar="POSITION",
                   help="a position text or JSON (spec/position.md), a file holding one, or - "
                        "for standard input (the default); text or JSON is recognised")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the position as JSON")
    form.add_argument("--text", action="store_true", help="print the position's text")
    form.add_argument("--short", action="store_true", help="print the short form of the text")
    add_ruleset_arguments(p)
    p.epilog = ("With --preset or --ruleset the position is also checked against that "
                "ruleset, as a game starting from it would be.")


#: The largest position input read from a file or standard input (a position is ~3 KB).
MAX_POSITION_INPUT = 1024 * 1024


def read_position(words: list[str]) -> Position:
    """The position given as words of text, a file name, ``-`` or nothing (standard input).

    An empty word is an empty position text, not the file of no name.
    Text or JSON is recognised by its first character (``{`` for JSON).
    """
    if len(words) > 1 or (words and (not words[0].strip() or " " in words[0].strip() or
                                     words[0].lstrip().startswith("{"))):
        where, text = "position", " ".join(words)
    else:
        where = "standard input" if not words or words == ["-"] else shown_path(words[0])
        text = _read_input(words[0] if words else "-", where)
    stripped = text.strip()
    if not stripped:
        raise InputError(f"{where}: empty: give a position (spec/position.md) as its one line "
                         "of text or its JSON, a file holding one, or - for standard input")
    if stripped.startswith(("{", "[", '"')) or stripped in ("null", "true", "false"):
        data = parse_json_text(stripped, where)
        if not isinstance(data, dict):
            raise InputError(f"{where}: the JSON is {json_kind(data)}, but a position is a "
                             "JSON object (spec/position.md)")
        if "format" in data:
            raise InputError(f"{where}: a file of format {str(data['format'])[:60]!r}, not a "
                             "position (`rules-ref show` reads records and replay files; "
                             "`rules-ref validate RECORD --at D.T` gives the position of a record)")
        return position_from_json(data, where)
    if len(stripped) > MAX_POSITION_TEXT:
        raise InputError(f"{where}: {len(stripped)} characters, more than the "
                         f"{MAX_POSITION_TEXT} of a position text")
    if "\n" in stripped:
        raise InputError(f"{where}: a position text is one line, this is "
                         f"{stripped.count(chr(10)) + 1}")
    try:
        return parse_position(stripped)
    except RulesRefError as exc:
        raise InputError(f"{where}: {exc}") from None


def _read_input(path: str, where: str) -> str:
    raw = read_input_bytes(path, where, MAX_POSITION_INPUT, "position",
                           missing="no such file (give a position text in quotes, a file, or "
                                   "- for standard input)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: not UTF-8 text (byte {exc.start})") from None


def run(args: argparse.Namespace) -> int:
    pos = read_position(args.position)
    explicit = args.preset is not None or args.ruleset is not None
    ruleset = ruleset_from_args(args)
    if explicit:
        check_position(pos, ruleset)
    if args.json:
        print(json.dumps(position_to_json(pos)))
    elif args.text or args.short:
        print(format_position(pos, short=args.short))
    else:
        print(describe_position(pos, ruleset))
    return 0


# --- the table ------------------------------------------------------------------------------


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(c.pretty for c in cards) or "-"


def describe_position(pos: Position, ruleset: Ruleset) -> str:
    """The position as a table a person reads: hands, trick, pending pile, points, totals."""
    n = pos.players
    head = f"{n} players, deal {pos.deal_number}, dealer seat {pos.dealer}, phase {pos.phase}"
    totals = "Totals:        " + "  ".join(f"{s}: {t}" for s, t in enumerate(pos.totals))
    if pos.phase is Phase.DEALING:
        return "\n".join([head + " (the deal is not dealt yet)", totals, format_position(pos)])
    lines = [head]
    if pos.phase is Phase.PLAYING:
        to_play = seat_at(pos.leader or 0, len(pos.trick), n)
        lines[0] += (f", trick {pos.trick_number} led by seat {pos.leader}, seat {to_play} to "
                     f"{'play' if pos.trick else 'lead'}; hearts "
                     f"{'broken' if pos.hearts_broken else 'not broken'}")
    elif pos.phase is Phase.MOON_CHOICE:
        lines[0] += f"; seat {pos.moon_shooter} shot the moon and chooses"
    points = [card_points(c, ruleset) for c in pos.collected]
    width = max([len(_cards(h)) for h in pos.hands] + [4])
    lines.append(f"seat  {'hand'.ljust(width)}  points  collected")
    for seat in range(n):
        hand = _cards(pos.hands[seat]) if pos.phase is not Phase.MOON_CHOICE else "-"
        mark = ""
        if pos.passes is not None:
            passed = pos.passes[seat]
            mark = "  (to pass)" if passed is None else f"  (passed {_cards(passed)})"
        lines.append(f"{seat:4}  {hand.ljust(width)}  {points[seat]:6}  "
                     f"{counted(len(pos.collected[seat]), 'card')}{mark}")
    if pos.phase is Phase.PLAYING:
        lines.extend(_table_trick(f"Trick {pos.trick_number}:", pos.trick, pos.leader or 0, n))
        tricks = pending_tricks(pos)
        if pos.pending:
            lines.append(f"Pending:       {counted(len(pos.pending), 'card')}, "
                         f"{counted(len(tricks), 'set-aside trick')} led by seat {pos.leader} "
                         "(VOID.TRICK)")
            for i, cards in enumerate(tricks):
                lines.extend(_table_trick(f"  set aside {i + 1}:", cards, pos.leader or 0, n))
        else:
            lines.append("Pending:       -")
    if pos.uncollected:
        lines.append(f"Uncollected:   {_cards(pos.uncollected)} (VOID.LAST)")
    lines.append("Extras:        " + _extras_line(pos))
    lines.append(totals)
    lines.append(format_position(pos))
    return "\n".join(lines)


def _table_trick(title: str, cards: tuple[Card, ...], leader: int, n: int) -> list[str]:
    if not cards:
        return [f"{title:<15}- (seat {leader} to lead)"]
    texts = [c.pretty for c in cards]
    seats = [str(seat_at(leader, i, n)) for i in range(len(cards))]
    widths = [max(len(t), len(s)) for t, s in zip(texts, seats, strict=True)]
    return [f"{title:<15}" + " ".join(t.rjust(w) for t, w in zip(texts, widths, strict=True)),
            f"{'  seat':<15}" + " ".join(s.rjust(w) for s, w in zip(seats, widths, strict=True))]


def _extras_line(pos: Position) -> str:
    x = pos.extras
    if x is None or x.place is ExtrasPlace.NONE:
        return "none"
    where = {ExtrasPlace.FACE_DOWN: "face down", ExtrasPlace.PENDING: "in the pending pile",
             ExtrasPlace.TAKEN: f"taken by seat {x.seat}",
             ExtrasPlace.UNCOLLECTED: "collected by nobody",
             ExtrasPlace.SPLIT: "split between two seats"}[x.place]
    return f"{_cards(x.cards)} ({where})"


# --- --at D.T ------------------------------------------------------------------------


def at_arg(text: str) -> tuple[int, int]:
    """``D.T``, deal D and trick T, as two numbers from 1 (an argparse type)."""
    deal, dot, trick = text.partition(".")
    if (not dot or not deal.isdigit() or not trick.isdigit() or len(text) > 20
            or int(deal) < 1 or int(trick) < 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not D.T, deal D and trick T (e.g. 3.5: "
                                         "deal 3, trick 5; both from 1)")
    return int(deal), int(trick)


def add_at_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--at", type=at_arg, default=None, metavar="D.T",
                   help="print the position at the start of trick T of deal D "
                        "(spec/position.md) instead; with --json as JSON")


def print_position_at(states: Iterable[GameState], at: tuple[int, int], as_json: bool) -> int:
    """Print the position of the first state at the start of trick ``at``; 0, or InputError."""
    deal, trick = at
    last: GameState | None = None
    for state in states:
        last = state
        if (state.phase is Phase.PLAYING and state.deal_number == deal
                and state.trick_number == trick and not state.trick):
            pos = position_of(state)
            print(json.dumps(position_to_json(pos)) if as_json else format_position(pos))
            return 0
        if state.deal_number > deal:
            break
    reached = "" if last is None else (f"; the game reached deal {last.deal_number}"
                                       + (f", trick {last.trick_number}"
                                          if last.phase is Phase.PLAYING else ""))
    raise InputError(f"--at {deal}.{trick}: the game never reaches the start of trick {trick} "
                     f"of deal {deal}{reached}")


def game_states(steps: Iterable[tuple[GameState, Any, GameState, Any]]) -> Iterator[GameState]:
    """The states of a game from its steps (``players.game.game_steps``), the last included."""
    last: GameState | None = None
    for before, _, after, _ in steps:
        yield before
        last = after
    if last is not None:
        yield last


def record_states(record: dict[str, Any]) -> Iterator[GameState]:
    """Every state of a well-formed game record, replayed; an illegal action is an error."""
    from ..jsonio.serialize import action_from_json
    from ..records.record import record_actions
    from ..records.shape import check_shape

    rec = check_shape(record)
    state = GameState.start(rec["players"], Ruleset.from_dict(rec["ruleset"]),
                            rec["first_dealer"], tuple(rec["initial_totals"]),
                            rec["initial_deal"])
    yield state
    for i, data in enumerate(record_actions(rec)):
        action = action_from_json(data, f"action {i + 1}")
        try:
            state, _ = state.apply(action)
        except RulesRefError as exc:
            raise InputError(f"the record breaks the rules at deal {state.deal_number} before "
                             f"the position asked for ({exc}); `validate` without --at lists "
                             "every violation") from None
        yield state
