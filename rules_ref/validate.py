"""Checking a recorded game against the rules (``rules-ref validate``).

A game record (``spec/schemas/record.schema.json``, written by
:func:`rules_ref.record.record_from_state`) states every deal's cards,
passes and tricks together with what the recorder *claims*: trick leaders
and winners, card points, scores, totals, the moon and the winners. This
module replays the record through the reference engine and reports
**every** violation, each with its rule ID and its place (deal, trick, card,
seat and JSON path), not just the first:

* the record must have the right shape, else :func:`check_shape` raises
  :class:`~rules_ref.errors.InputError` naming the JSON path (``rules-ref
  validate`` exits 2);
* an illegal play is recorded (:meth:`GameState.violations`) and the game
  goes on with :meth:`GameState.apply_unchecked`, so later violations are
  found too; a card the seat does not hold, a pass of cards not held or a
  deal that does not make up the deck ends the check of that deal, and the
  next deal starts again from the totals the record claims;
* every claim is compared with what the rules give.

Standard library only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from .actions import ChooseMoon, DealCards, MoonChoice, Pass, Play
from .cards import Card, parse_card
from .errors import InputError, RulesRefError, SetupError
from .ruleset import Ruleset
from .serialize import FORMAT_VERSION, RECORD_FORMAT
from .state import GameState, Phase

#: At most this many deals in a record (as many as `rules-ref play` plays before it gives up).
MAX_DEALS = 1000
#: At most this many entries in any other list of a record (cards, hands, passes, tricks,
#: totals): a deal has 104 cards.
MAX_LIST = 104


@dataclass(frozen=True, slots=True)
class RecordViolation:
    """One broken rule, where it happened in the record."""

    rule: str
    message: str
    path: str
    deal: int | None = None
    trick: int | None = None
    card: int | None = None
    seat: int | None = None

    def where(self) -> str:
        parts = []
        if self.deal is not None:
            parts.append(f"deal {self.deal}")
        if self.trick is not None:
            parts.append(f"trick {self.trick}")
        if self.card is not None:
            parts.append(f"card {self.card}")
        text = ", ".join(parts) or "game"
        return f"{text} (seat {self.seat})" if self.seat is not None else text

    def __str__(self) -> str:
        return f"{self.where()}: {self.rule}: {self.message} (at {self.path})"

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message, "path": self.path,
                "deal": self.deal, "trick": self.trick, "card": self.card, "seat": self.seat}


# --- shape ------------------------------------------------------------------------------

_TOP = ("format", "version", "players", "ruleset", "first_dealer", "initial_totals",
        "initial_deal", "deals", "winners")
_DEAL = ("deal_number", "dealer", "hands", "extras", "passes", "tricks", "moon")
_SCORED = ("card_points", "scores", "totals", "uncollected")


def _fields(data: object, path: str, required: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected an object, got {_kind(data)}")
    missing = [k for k in required if k not in data]
    if missing:
        raise InputError(f"{path}: missing {', '.join(missing)}")
    unknown = sorted(str(k) for k in data if k not in required and k not in optional)
    if unknown:
        raise InputError(f"{path}: unknown field(s) {', '.join(unknown)}")
    return data


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def _int(value: object, path: str, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{path}: expected an integer{' or null' if nullable else ''}, "
                         f"got {_kind(value)}")


def _list(value: object, path: str, nullable: bool = False) -> list[Any]:
    if value is None and nullable:
        return []
    if not isinstance(value, list):
        raise InputError(f"{path}: expected a list{' or null' if nullable else ''}, "
                         f"got {_kind(value)}")
    if len(value) > MAX_LIST:
        raise InputError(f"{path}: {len(value)} entries, more than {MAX_LIST}")
    return value


def _ints(value: object, path: str) -> None:
    for i, v in enumerate(_list(value, path)):
        _int(v, f"{path}[{i}]")


def _cards(value: object, path: str, nullable: bool = False) -> None:
    for i, v in enumerate(_list(value, path, nullable)):
        if not isinstance(v, str):
            raise InputError(f"{path}[{i}]: expected a card such as 'QS', got {_kind(v)}")
        try:
            parse_card(v)
        except RulesRefError as exc:
            raise InputError(f"{path}[{i}]: {exc}") from None


def check_shape(data: object) -> dict[str, Any]:
    """Check the JSON shape of a record; raise :class:`InputError` naming the JSON path."""
    top = _fields(data, "record", _TOP, ("seed",))
    if top["format"] != RECORD_FORMAT:
        raise InputError(f"format: expected {RECORD_FORMAT!r}, got {top['format']!r:.60}")
    if top["version"] != FORMAT_VERSION:
        raise InputError(f"version: this validator reads version {FORMAT_VERSION}, "
                         f"got {top['version']!r:.20}")
    for key in ("players", "first_dealer", "initial_deal"):
        _int(top[key], key)
    _int(top.get("seed"), "seed", nullable=True)
    Ruleset.from_dict(top["ruleset"], "ruleset")
    _ints(top["initial_totals"], "initial_totals")
    if len(top["initial_totals"]) != top["players"]:
        raise InputError(f"initial_totals: {len(top['initial_totals'])} totals for "
                         f"{top['players']} players")
    _ints(top["winners"], "winners")
    deals = top["deals"]
    if not isinstance(deals, list):
        raise InputError(f"deals: expected a list, got {_kind(deals)}")
    if len(deals) > MAX_DEALS:
        raise InputError(f"deals: {len(deals)} deals, more than {MAX_DEALS}")
    for di, deal in enumerate(deals):
        p = f"deals[{di}]"
        d = _fields(deal, p, _DEAL, _SCORED)
        _int(d["deal_number"], f"{p}.deal_number")
        _int(d["dealer"], f"{p}.dealer")
        for si, hand in enumerate(_list(d["hands"], f"{p}.hands")):
            _cards(hand, f"{p}.hands[{si}]")
        _cards(d["extras"], f"{p}.extras")
        for si, passed in enumerate(_list(d["passes"], f"{p}.passes", nullable=True)):
            _cards(passed, f"{p}.passes[{si}]", nullable=True)
        for ti, trick in enumerate(_list(d["tricks"], f"{p}.tricks")):
            t = _fields(trick, f"{p}.tricks[{ti}]", ("leader", "cards", "winner"))
            _int(t["leader"], f"{p}.tricks[{ti}].leader")
            _int(t["winner"], f"{p}.tricks[{ti}].winner", nullable=True)
            _cards(t["cards"], f"{p}.tricks[{ti}].cards")
        if d["moon"] is not None:
            m = _fields(d["moon"], f"{p}.moon", ("shooter", "choice"), ("partner",))
            _int(m["shooter"], f"{p}.moon.shooter")
            if "partner" in m:
                _int(m["partner"], f"{p}.moon.partner")
            if m["choice"] not in ("subtract", "add", None):
                raise InputError(f"{p}.moon.choice: expected 'subtract', 'add' or null, "
                                 f"got {m['choice']!r:.40}")
        for key in ("card_points", "scores", "totals"):
            if key in d:
                _ints(d[key], f"{p}.{key}")
        if "uncollected" in d:
            _cards(d["uncollected"], f"{p}.uncollected")
    return top


# --- the rules ----------------------------------------------------------------------------


def _cs(texts: list[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


class _Checker:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.out: list[RecordViolation] = []
        self.players: int = record["players"]
        self.ruleset = Ruleset.from_dict(record["ruleset"], "ruleset")
        self.unscored: set[int] = set()  # deals whose scores cannot be checked

    def add(self, rule: str, message: str, path: str, **where: int | None) -> None:
        self.out.append(RecordViolation(rule, message, path, **where))

    def run(self) -> list[RecordViolation]:
        rec = self.record
        try:
            state = GameState.start(self.players, self.ruleset, rec["first_dealer"],
                                    tuple(rec["initial_totals"]), rec["initial_deal"])
        except SetupError as exc:
            self.add(exc.rule_id or "PLAYERS.COUNT", _bare(exc), "record")
            return self.out
        deals = rec["deals"]
        for di, deal in enumerate(deals):
            after = self.deal(state, di, deal, last=di == len(deals) - 1)
            if after is None:
                return self.out
            state = after
        self.winners(state)
        return self.out

    def resync(self, state: GameState, deal: dict[str, Any], number: int) -> GameState:
        """A fresh game before deal ``number + 1``, from the totals the record claims."""
        totals = deal.get("totals")
        if not isinstance(totals, list) or len(totals) != self.players:
            totals = list(state.totals)
        return GameState.start(self.players, self.ruleset, state.first_dealer,
                               tuple(totals), number + 1)

    def deal(self, state: GameState, di: int, deal: dict[str, Any],
             last: bool) -> GameState | None:
        p = f"deals[{di}]"
        number = state.deal_number + 1
        if state.phase is Phase.GAME_OVER:
            self.add("GAME.END", f"the game ended after deal {state.deal_number}; deal "
                     f"{number} should not have been played", p, deal=number)
            return None
        if deal["deal_number"] != number:
            self.add("DEAL.DEALER", f"recorded as deal {deal['deal_number']}, but it is deal "
                     f"{number} of the game", f"{p}.deal_number", deal=number)
        if deal["dealer"] != state.dealer_of_next_deal:
            self.add("DEAL.DEALER", f"dealer recorded as seat {deal['dealer']}, but deal "
                     f"{number} is dealt by seat {state.dealer_of_next_deal}",
                     f"{p}.dealer", deal=number)
        action = DealCards(tuple(_cs(h) for h in deal["hands"]), _cs(deal["extras"]))
        try:
            state, _ = state.apply(action)
        except SetupError as exc:
            self.add(exc.rule_id or "DEAL.SIZE", f"the deal does not make up the deck: "
                     f"{_bare(exc)}",
                     f"{p}.hands", deal=number)
            return self.resync(state, deal, number)
        after = self.passes(state, p, deal, number)
        if after is None:
            return self.resync(state, deal, number)
        state = after
        after = self.tricks(state, p, deal, number)
        if after is None:
            return self.resync(state, deal, number)
        state = self.moon(after, p, deal, number, last)
        self.scores(state, p, deal, number, last)
        if state.phase not in (Phase.DEALING, Phase.GAME_OVER) and not last:
            if number not in self.unscored:
                self.add("TURN.ORDER", f"deal {number} is not finished ({len(state.tricks)} "
                         f"tricks of {len(state.tricks) + len(state.hands[0])}), but deal "
                         f"{number + 1} follows it", f"{p}.tricks", deal=number)
            return self.resync(state, deal, number)
        return state

    def passes(self, state: GameState, p: str, deal: dict[str, Any],
               number: int) -> GameState | None:
        passes = deal["passes"]
        if state.pass_offset is None:
            if passes is not None and any(x for x in passes):
                self.add("PASS.DIRECTION", f"deal {number} has no passing under pass_cycle "
                         f"{','.join(map(str, self.ruleset.pass_cycle))}, but passes are "
                         "recorded", f"{p}.passes", deal=number)
            return state
        if passes is None or len(passes) != self.players:
            self.add("PASS.CARDS", f"every seat passes on deal {number}, but "
                     f"{'no passes are' if passes is None else f'{len(passes)} passes are'} "
                     "recorded", f"{p}.passes", deal=number)
            return None
        for seat in list(state.waiting_for):
            where = f"{p}.passes[{seat}]"
            passed = passes[seat]
            if passed is None:
                self.add("PASS.CARDS", f"seat {seat} did not pass", where, deal=number,
                         seat=seat)
                return None
            action = Pass(seat, _cs(passed))
            for v in state.violations(action):
                self.add(v.rule_id, v.message, where, deal=number, seat=seat)
            if Counter(action.cards) - Counter(state.hands[seat]):
                return None
            state, _ = state.apply_unchecked(action)
        return state

    def tricks(self, state: GameState, p: str, deal: dict[str, Any],
               number: int) -> GameState | None:
        tricks = deal["tricks"]
        for ti, trick in enumerate(tricks):
            tp = f"{p}.tricks[{ti}]"
            tn = ti + 1
            if state.phase is not Phase.PLAYING:
                self.add("DEAL.SIZE", f"deal {number} has {state.trick_number - 1} tricks; "
                         f"trick {tn} is one too many", tp, deal=number, trick=tn)
                return None
            if trick["leader"] != state.leader:
                rule = ("LEAD.OPENING_LEADER" if tn == 1 else "VOID.LEADER"
                        if state.tricks[-1].winner is None else "TRICK.NEXT_LEADER")
                self.add(rule, f"leader recorded as seat {trick['leader']}, but seat "
                         f"{state.leader} leads trick {tn}", f"{tp}.leader", deal=number,
                         trick=tn)
            for ci, text in enumerate(trick["cards"]):
                cp = f"{tp}.cards[{ci}]"
                seat = state.to_act
                if state.phase is not Phase.PLAYING or seat is None:
                    self.add("TURN.ORDER", f"trick {tn} has more cards than players", cp,
                             deal=number, trick=tn, card=ci + 1)
                    return None
                action = Play(seat, parse_card(text))
                problems = state.violations(action)
                for v in problems:
                    self.add(v.rule_id, v.message, cp, deal=number, trick=tn, card=ci + 1,
                             seat=seat)
                if action.card not in state.hands[seat]:
                    return None
                state, _ = state.apply_unchecked(action)
            complete = len(trick["cards"]) == self.players
            if not complete:
                if ti != len(tricks) - 1:
                    self.add("TURN.ORDER", f"trick {tn} has {len(trick['cards'])} cards, not "
                             f"{self.players}, and more tricks follow", f"{tp}.cards",
                             deal=number, trick=tn)
                    return None
                if trick["winner"] is not None:
                    self.add("TRICK.WINNER", f"trick {tn} is not finished, but a winner is "
                             "recorded", f"{tp}.winner", deal=number, trick=tn)
                continue
            self.winner(state, tp, trick, number, tn)
        return state

    def winner(self, state: GameState, tp: str, trick: dict[str, Any], number: int,
               tn: int) -> None:
        outcome = state.tricks[-1]
        claimed = trick["winner"]
        if claimed == outcome.winner:
            return
        if outcome.winner is None or claimed is None:
            rule = "VOID.TRICK"
            truth = "the trick is void (no uncancelled card of the led suit)" \
                if outcome.winner is None else f"seat {outcome.winner} wins it"
        else:
            pos = (claimed - outcome.leader) % self.players
            card = outcome.cards[pos] if pos < len(outcome.cards) else None
            rule = "TRICK.CANCEL" if card is not None and card in outcome.cancelled \
                else "TRICK.WINNER"
            truth = f"seat {outcome.winner} wins it with {outcome.winning_card}"
            if rule == "TRICK.CANCEL":
                truth += f" ({card} is cancelled)"
        shown = "void" if claimed is None else f"seat {claimed}"
        self.add(rule, f"winner recorded as {shown}, but {truth}", f"{tp}.winner",
                 deal=number, trick=tn)

    def moon(self, state: GameState, p: str, deal: dict[str, Any], number: int,
             last: bool) -> GameState:
        moon = deal["moon"]
        if state.phase is Phase.MOON_CHOICE:
            shooter = state.moon_shooter
            assert shooter is not None
            if moon is None or moon["choice"] is None:
                if last and not self.record["winners"] and not any(k in deal for k in _SCORED):
                    return state  # a game recorded while the shooter is choosing
                self.add("MOON.CHOICE", f"seat {shooter} shot the moon, but no choice is "
                         "recorded", f"{p}.moon", deal=number, seat=shooter)
                self.unscored.add(number)
                return state
            if moon["shooter"] != shooter:
                self.add("MOON.CONDITION", f"the moon is recorded for seat {moon['shooter']}, "
                         f"but seat {shooter} shot it", f"{p}.moon.shooter", deal=number)
            state, _ = state.apply(ChooseMoon(shooter, MoonChoice(moon["choice"])))
            return state
        if state.phase in (Phase.DEALING, Phase.GAME_OVER):
            result = state.deal_results[-1]
            true = (result.moon_shooter,) if result.moon_pair is None else result.moon_pair
            claimed = (None,) if moon is None else (moon["shooter"], *(
                (moon["partner"],) if "partner" in moon else ()))
            if claimed != true:
                who = "the shooters are" if len(true) == 2 else "the shooter is"
                self.add("MOON.CONDITION", f"moon recorded for {_moon_seats(claimed)}, but "
                         f"{who} {_moon_seats(true)}", f"{p}.moon", deal=number)
            elif moon is not None and moon["choice"] is not None:
                self.add("MOON.CHOICE", f"a moon choice is recorded, but moon "
                         f"{self.ruleset.moon} offers none", f"{p}.moon.choice", deal=number)
        elif moon is not None:
            self.add("MOON.CONDITION", "a moon is recorded for an unfinished deal",
                     f"{p}.moon", deal=number)
        return state

    def scores(self, state: GameState, p: str, deal: dict[str, Any], number: int,
               last: bool) -> None:
        if number in self.unscored:
            return
        scored = state.phase in (Phase.DEALING, Phase.GAME_OVER) and \
            state.deal_results and state.deal_results[-1].deal_number == number
        if not scored:
            keys = [k for k in _SCORED if k in deal]
            if keys and last:
                self.add("SCORE.DEAL", f"{', '.join(keys)} recorded for deal {number}, which "
                         "is not finished", f"{p}.{keys[0]}", deal=number)
            return
        result = state.deal_results[-1]
        moon_rule = "MOON.CHOICE" if (result.moon_shooter, result.moon_pair) != (None, None) \
            else "SCORE.DEAL"
        claims = (("card_points", list(result.card_points), "SCORE.CARD_POINTS"),
                  ("scores", list(result.scores), moon_rule),
                  ("totals", list(result.totals), "SCORE.DEAL"))
        for key, truth, rule in claims:
            if key not in deal:
                self.add("SCORE.DEAL", f"deal {number} is finished, but its {key} are not "
                         "recorded", p, deal=number)
                continue
            got = deal[key]
            if len(got) != self.players:
                self.add(rule, f"{key} has {len(got)} entries for {self.players} players",
                         f"{p}.{key}", deal=number)
                continue
            for seat, (claimed, true) in enumerate(zip(got, truth, strict=True)):
                if claimed != true:
                    self.add(rule, f"{key} recorded as {claimed}, but the rules give {true}",
                             f"{p}.{key}[{seat}]", deal=number, seat=seat)
        if "uncollected" in deal:
            claimed_cards = sorted(_cs(deal["uncollected"]))
            if claimed_cards != sorted(result.uncollected):
                self.add("VOID.LAST", f"uncollected cards recorded as "
                         f"{' '.join(map(str, claimed_cards)) or 'none'}, but the rules leave "
                         f"{' '.join(map(str, sorted(result.uncollected))) or 'none'}",
                         f"{p}.uncollected", deal=number)

    def winners(self, state: GameState) -> None:
        claimed = list(self.record["winners"])
        if state.phase is Phase.GAME_OVER:
            if claimed != list(state.winners):
                self.add("GAME.WINNER", f"winners recorded as {_seats(claimed)}, but the "
                         f"lowest total ({min(state.totals)}) belongs to "
                         f"{_seats(state.winners)}", "winners")
        elif claimed:
            self.add("GAME.END", f"winners recorded as {_seats(claimed)}, but the game is not "
                     f"over (highest total {max(state.totals)}, target "
                     f"{self.ruleset.target})", "winners")


def _bare(exc: SetupError) -> str:
    """The message of ``exc`` without its leading rule ID."""
    text = str(exc)
    prefix = f"{exc.rule_id}: "
    return text[len(prefix):] if exc.rule_id and text.startswith(prefix) else text


def _seat(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def _moon_seats(seats: tuple[int | None, ...]) -> str:
    """The seats of a moon as a player says them: "nobody", "seat 2", "seat 2 and seat 5"."""
    return " and ".join(_seat(s) for s in seats)


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "nobody"


def validate_record(data: object) -> list[RecordViolation]:
    """Every violation in a record, in the order of the game.

    Raises :class:`InputError` (naming the JSON path) when the record does
    not have the shape of ``spec/schemas/record.schema.json``.
    """
    return _Checker(check_shape(data)).run()
