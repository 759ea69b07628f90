"""Checking a recorded game against the rules (``rules-ref validate``).

A game record (``spec/schemas/record.schema.json``, written by
:func:`rules_ref.records.record.record_from_state`) states every deal's cards,
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
* every claim is compared with what the rules give, and where a claim is wrong the check
  looks past it to its cause, with the attribution ``rules-ref conform`` uses
  (:mod:`rules_ref.causes`): cards played by seats that do not hold them after the
  exchange the rules make, but would after another, are passes that went the wrong way
  (:func:`pass_direction`); the legal cards a recording engine offered (a record's
  optional ``legal``) are compared with the rules' (:func:`offered_cards`); wrong card
  points are traced to the cards that carry them (:func:`card_point_cause`).

An :class:`Observer` given to :func:`validate_record` follows the check as it
goes: each action replayed (with the events it caused), each violation found
and each deal started again from the recorded totals. ``rules-ref show``
draws a record so, the record's claims beside what the rules say.

Standard library only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .. import events as ev
from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import Card, parse_card
from ..causes import parcel_words, play_situation_rule, trace_points
from ..errors import SetupError
from ..passing import exchange
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from ..transitions import begin_play
from ..wording import direction_words
from .shape import SCORED, check_shape


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


class Observer(Protocol):
    """What follows a check of a record (:func:`validate_record`), in the order of the game."""

    def step(self, before: GameState, action: Action, after: GameState,
             events: Sequence[ev.Event]) -> object:
        """An action of the record was replayed (checked or, when illegal, unchecked)."""

    def violation(self, found: RecordViolation) -> None:
        """A violation was found (right after the action or claim it is about)."""

    def resumed(self, state: GameState) -> None:
        """The deal could not be replayed to its end: the next starts from the recorded totals."""


# --- the rules ----------------------------------------------------------------------------


def _cs(texts: list[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


class _Checker:
    def __init__(self, record: dict[str, Any], observer: Observer | None = None) -> None:
        self.record = record
        self.observer = observer
        self.out: list[RecordViolation] = []
        self.players: int = record["players"]
        self.ruleset = Ruleset.from_dict(record["ruleset"], "ruleset")
        self.unscored: set[int] = set()  # deals whose scores cannot be checked
        #: The totals the record claims before the next deal, and the rules' own.
        self.claimed: tuple[int, ...] = tuple(record["initial_totals"])
        self.true: tuple[int, ...] = tuple(record["initial_totals"])
        #: The deal after which the recorded totals reached the target (the game is over).
        self.over_after: int | None = None

    def add(self, rule: str, message: str, path: str, **where: int | None) -> None:
        found = RecordViolation(rule, message, path, **where)
        self.out.append(found)
        if self.observer is not None:
            self.observer.violation(found)

    def apply(self, state: GameState, action: Action, checked: bool = True) -> GameState:
        """``state`` after ``action`` (:meth:`GameState.apply`, or ``apply_unchecked``)."""
        after, events = state.apply(action) if checked else state.apply_unchecked(action)
        if self.observer is not None:
            self.observer.step(state, action, after, events)
        return after

    def run(self) -> list[RecordViolation]:
        rec = self.record
        try:
            state = GameState.start(self.players, self.ruleset, rec["first_dealer"],
                                    tuple(rec["initial_totals"]), rec["initial_deal"])
        except SetupError as exc:
            rule = exc.rule_id or "PLAYERS.COUNT"
            self.add(rule, _bare(exc), "players" if rule == "PLAYERS.COUNT" else "ruleset")
            return self.out
        deals = rec["deals"]
        for di, deal in enumerate(deals):
            after = self.deal(state, di, deal, last=di == len(deals) - 1)
            if after is None:
                return self.out
            state = after
        self.winners(state)
        return self.out

    def resync(self, state: GameState, deal: dict[str, Any], number: int,
               checked: bool = False) -> GameState:
        """A fresh game before deal ``number + 1``, from the totals the record claims.

        ``checked``: the deal's totals were checked (and the chains of totals
        moved on); otherwise both chains start again from the claimed totals.
        """
        totals = deal.get("totals")
        if not isinstance(totals, list) or len(totals) != self.players:
            totals = list(state.totals)
        if max(totals) >= self.ruleset.target:
            self.over_after = number  # resumed past the target: the game is over
        if not checked:
            self.claimed = self.true = tuple(totals)
        resumed = GameState.start(self.players, self.ruleset, state.first_dealer,
                                  tuple(totals), number + 1)
        if self.observer is not None and not checked:
            self.observer.resumed(resumed)
        return resumed

    def deal(self, state: GameState, di: int, deal: dict[str, Any],
             last: bool) -> GameState | None:
        p = f"deals[{di}]"
        number = state.deal_number + 1
        if state.phase is Phase.GAME_OVER or self.over_after is not None:
            why = "" if state.phase is Phase.GAME_OVER else (
                f" (the recorded totals reach the target, {self.ruleset.target})")
            self.add("GAME.END", f"the game ended after deal {state.deal_number}{why}; deal "
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
            state = self.apply(state, action)
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
        claimed = deal.get("totals")
        if state.phase in (Phase.DEALING, Phase.GAME_OVER) and isinstance(claimed, list) and \
                len(claimed) == self.players and tuple(claimed) != state.totals and not last:
            # one score difference is one report: later deals go on from the recorded totals
            return self.resync(state, deal, number, checked=True)
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
        offset = state.pass_offset
        if passes is None and held(state, deal["tricks"]):
            self.add("PASS.DIRECTION", f"deal {number} passes "
                     f"{direction_words(offset, self.players)} under pass_cycle "
                     f"{','.join(map(str, self.ruleset.pass_cycle))}, but no passes are "
                     "recorded: the deal was played without passing", f"{p}.passes",
                     deal=number)
            return begin_play(state)  # check the deal as it was played
        if passes is None or len(passes) != self.players:
            shown = "no passes are" if passes is None else count(len(passes), "pass is",
                                                                  "passes are")
            self.add("PASS.CARDS", f"every seat passes on deal {number}, but {shown} recorded",
                     f"{p}.passes", deal=number)
            return None
        dealt = state.hands
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
            state = self.apply(state, action, checked=False)
        went = pass_direction(dealt, [_cs(x) for x in passes], offset, state, deal["tricks"])
        if went is not None:
            other, state = went
            self.add("PASS.DIRECTION", pass_direction_message(number, offset, other,
                                                              self.players),
                     f"{p}.passes", deal=number)
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
                offered = trick.get("legal")
                if isinstance(offered, list) and ci < len(offered) and offered[ci] is not None:
                    for rule, message in offered_cards(state, offered[ci]):
                        self.add(rule, message, f"{tp}.legal[{ci}]", deal=number, trick=tn,
                                 card=ci + 1, seat=seat)
                action = Play(seat, parse_card(text))
                problems = state.violations(action)
                for v in problems:
                    self.add(v.rule_id, v.message, cp, deal=number, trick=tn, card=ci + 1,
                             seat=seat)
                if action.card not in state.hands[seat]:
                    return None
                state = self.apply(state, action, checked=False)
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
                if last and not self.record["winners"] and not any(k in deal for k in SCORED):
                    return state  # a game recorded while the shooter is choosing
                self.add("MOON.CHOICE", f"seat {shooter} shot the moon, but no choice is "
                         "recorded", f"{p}.moon", deal=number, seat=shooter)
                self.unscored.add(number)
                return state
            if moon["shooter"] != shooter:
                self.add("MOON.CONDITION", f"the moon is recorded for seat {moon['shooter']}, "
                         f"but seat {shooter} shot it", f"{p}.moon.shooter", deal=number)
            state = self.apply(state, ChooseMoon(shooter, MoonChoice(moon["choice"])))
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
        """Compare the deal's claimed scores: each difference once, at its cause.

        Card points are compared with the rules' and traced to the cards
        that carry them; the scores are checked from the recorded card points
        (a score that follows a wrong card point is not wrong again), and the
        totals from the recorded totals before the deal plus the recorded
        scores (or the rules' own totals).
        """
        if number in self.unscored:
            return
        scored = state.phase in (Phase.DEALING, Phase.GAME_OVER) and \
            state.deal_results and state.deal_results[-1].deal_number == number
        if not scored:
            keys = [k for k in SCORED if k in deal]
            if keys and last:
                self.add("SCORE.DEAL", f"{', '.join(keys)} recorded for deal {number}, which "
                         "is not finished", f"{p}.{keys[0]}", deal=number)
            return
        result = state.deal_results[-1]
        claims: dict[str, list[int] | None] = {}
        for key in ("card_points", "scores", "totals"):
            got = deal.get(key)
            if got is None:
                self.add("SCORE.DEAL", f"deal {number} is finished, but its {key} are not "
                         "recorded", p, deal=number)
            elif len(got) != self.players:
                self.add("SCORE.DEAL", f"{key} has {len(got)} entries for {self.players} "
                         "players", f"{p}.{key}", deal=number)
                got = None
            claims[key] = got
        points, scores, totals = claims["card_points"], claims["scores"], claims["totals"]
        true_points = list(result.card_points)
        if points is not None and points != true_points:
            rule, why = card_point_cause(state, points, true_points)
            self.differ(rule, "card_points", points, true_points, p, number, why)
        moon = deal["moon"]
        true_moon = (result.moon_shooter,) if result.moon_pair is None else result.moon_pair
        claimed_moon = (None,) if moon is None else (moon["shooter"], *(
            (moon["partner"],) if "partner" in moon else ()))
        if true_moon == (None,) and moon is None:
            # no moon: a deal score is the card points (as recorded, when they are recorded)
            want, rule = (points if points is not None else true_points), "SCORE.DEAL"
        elif true_moon != (None,) and claimed_moon == tuple(true_moon):
            want, rule = list(result.scores), "MOON.CHOICE"
        else:
            want, rule = None, ""  # the moon itself is reported (MOON.CONDITION)
        if scores is not None and want is not None and scores != want and (
                scores != list(result.scores)):
            self.differ(rule, "scores", scores, want, p, number,
                        "" if rule == "MOON.CHOICE" or want == true_points else
                        " (the recorded card points)")
        basis = scores if scores is not None else list(result.scores)
        chain = [t + s for t, s in zip(self.claimed, basis, strict=True)]
        true = [t + s for t, s in zip(self.true, result.scores, strict=True)]
        if totals is not None and totals != chain and totals != true:
            self.differ("SCORE.DEAL", "totals", totals, chain, p, number,
                        " (the recorded totals before the deal plus its recorded scores)")
        self.claimed = tuple(totals if totals is not None else chain)
        self.true = tuple(true)
        if "uncollected" in deal:
            claimed_cards = sorted(_cs(deal["uncollected"]))
            if claimed_cards != sorted(result.uncollected):
                self.add("VOID.LAST", f"uncollected cards recorded as "
                         f"{' '.join(map(str, claimed_cards)) or 'none'}, but the rules leave "
                         f"{' '.join(map(str, sorted(result.uncollected))) or 'none'}",
                         f"{p}.uncollected", deal=number)

    def differ(self, rule: str, key: str, claimed: list[int], truth: list[int], p: str,
               number: int, why: str = "") -> None:
        """One report for a list of per-seat values that differs, at its one seat if only one."""
        seats = [s for s, (c, t) in enumerate(zip(claimed, truth, strict=True)) if c != t]
        if len(seats) == 1:
            s = seats[0]
            self.add(rule, f"{key} recorded as {claimed[s]}, but the rules give {truth[s]}"
                     f"{why}", f"{p}.{key}[{s}]", deal=number, seat=s)
            return
        self.add(rule, f"{key} recorded as {claimed}, but the rules give {truth}{why}",
                 f"{p}.{key}", deal=number)

    def winners(self, state: GameState) -> None:
        """The winners, from the recorded totals (a wrong total is reported once, at its deal)."""
        claimed = list(self.record["winners"])
        totals = self.claimed
        if totals == state.totals:
            over = state.phase is Phase.GAME_OVER or self.over_after is not None
        else:
            over = state.phase in (Phase.DEALING, Phase.GAME_OVER) and (
                max(totals) >= self.ruleset.target)
        truth = [s for s, t in enumerate(totals) if t == min(totals)]
        if over:
            if claimed != truth:
                self.add("GAME.WINNER", f"winners recorded as {_seats(claimed)}, but the "
                         f"lowest total ({min(totals)}) belongs to {_seats(truth)}",
                         "winners")
        elif claimed:
            self.add("GAME.END", f"winners recorded as {_seats(claimed)}, but the game is not "
                     f"over (highest total {max(totals)}, target "
                     f"{self.ruleset.target})", "winners")


def _bare(exc: SetupError) -> str:
    """The message of ``exc`` without its leading rule ID."""
    text = str(exc)
    prefix = f"{exc.rule_id}: "
    return text[len(prefix):] if exc.rule_id and text.startswith(prefix) else text


def _seat(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def count(n: int, one: str, many: str) -> str:
    """``n`` with the singular or plural words: "1 pass is", "2 passes are"."""
    return f"{n} {one if n == 1 else many}"


def _moon_seats(seats: tuple[int | None, ...]) -> str:
    """The seats of a moon as a player says them: "nobody", "seat 2", "seat 2 and seat 5"."""
    return " and ".join(_seat(s) for s in seats)


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "nobody"


def validate_record(data: object, observer: Observer | None = None) -> list[RecordViolation]:
    """Every violation in a record, in the order of the game.

    Raises :class:`InputError` (naming the JSON path) when the record does
    not have the shape of ``spec/schemas/record.schema.json``. ``observer``
    follows the check as it goes.
    """
    return _Checker(check_shape(data), observer).run()
