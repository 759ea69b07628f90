"""The game state: explicit phases, legal actions, and ``apply``.

A :class:`GameState` is immutable. :meth:`GameState.apply` checks an action
against the rules (every violation is reported, see
:meth:`GameState.violations`), and returns a new state and the events the
action caused; an illegal action raises :class:`~rules_ref.errors.IllegalAction`
and changes nothing.

Phases, in the order a deal meets them:

* ``dealing``: between deals (and before the first); the next action is a
  :class:`~rules_ref.actions.DealCards`.
* ``passing``: every seat passes once, in any order (``PASS.EXCHANGE``);
  skipped on a deal without passing.
* ``playing``: one card at a time, in turn (``TURN.ORDER``).
* ``moon-choice``: the shooter picks an option (``MOON.CHOICE``); only when
  someone shot the moon and the ruleset offers a choice.
* ``game-over``: after a deal that brought some total to the target.

>>> from rules_ref.deal import seeded_deal
>>> s = GameState.start(players=8)
>>> d = seeded_deal(seed=1, players=8, deal_number=1, dealer=s.dealer_of_next_deal)
>>> s, events = s.apply(DealCards(d.hands, d.extras))
>>> s.phase, s.deal_number, s.dealer, len(s.legal_actions()) > 0
(<Phase.PASSING: 'passing'>, 1, 0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import TYPE_CHECKING, Any

from . import events as ev
from .actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from .cards import Card, format_cards
from .deal import check_deal, check_player_count, dealer_for_deal
from .errors import IllegalAction, SetupError, Violation
from .following import first_trick_plays, follows
from .game_end import is_game_over, winners
from .leading import breaks_hearts, leads, opening_leader, opening_leads
from .passing import exchange, pass_direction, pass_offset, pass_violations
from .pending import after_trick, extras_join_trick, settle_pending
from .ruleset import DEFAULT, Ruleset
from .scoring import card_points, deal_scores, moon_options, moon_scores, moon_shooter
from .tricks import TrickOutcome, led_suit, next_leader, resolve_trick, seat_at

if TYPE_CHECKING:
    from .position_model import Position


class Phase(StrEnum):
    DEALING = "dealing"
    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon-choice"
    GAME_OVER = "game-over"


@dataclass(frozen=True, slots=True)
class DealResult:
    """A scored deal: what each seat collected and scored, and what nobody took."""

    deal_number: int
    dealer: int
    extras: tuple[Card, ...]
    card_points: tuple[int, ...]
    moon_shooter: int | None
    moon_choice: MoonChoice | None
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    uncollected: tuple[Card, ...]


#: The action log as a persistent linked list of (action, earlier log) pairs:
#: appending an action shares the whole past instead of copying it.
_History = tuple[Action, "_History | None"]


@dataclass(frozen=True, slots=True, eq=False)
class GameState:
    """Everything about a game at one moment. Build one with :meth:`start`."""

    ruleset: Ruleset
    players: int
    first_dealer: int
    phase: Phase
    deal_number: int
    dealer: int
    totals: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...] = ()
    extras: tuple[Card, ...] = ()
    passes: tuple[tuple[Card, ...] | None, ...] = ()
    hearts_broken: bool = False
    trick_number: int = 0
    leader: int = 0
    trick: tuple[Card, ...] = ()
    tricks: tuple[TrickOutcome, ...] = ()
    pending: tuple[Card, ...] = ()
    pending_has_extras: bool = False
    #: The seat that took the extras this deal; ``None`` while they wait, and
    #: when they went uncollected or were split (``VOID.LAST``).
    extras_taken_by: int | None = None
    collected: tuple[tuple[Card, ...], ...] = ()
    uncollected: tuple[Card, ...] = ()
    moon_shooter: int | None = None
    deal_results: tuple[DealResult, ...] = ()
    winners: tuple[int, ...] = ()
    initial_totals: tuple[int, ...] = ()
    initial_deal: int = 1
    history: _History | None = field(default=None, repr=False)
    #: The legal plays, computed at most once per state by :meth:`legal_plays`.
    legal_cache: tuple[Card, ...] | None = field(default=None, repr=False, compare=False)

    # --- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, players: int, ruleset: Ruleset = DEFAULT, first_dealer: int = 0,
              totals: tuple[int, ...] | None = None, next_deal: int = 1) -> GameState:
        """A new game, waiting for its first deal.

        ``totals`` and ``next_deal`` start a game part-way (a deal of a
        recorded game, a conformance position); by default totals are 0 and
        the next deal is deal 1.
        """
        check_player_count(players)
        if not isinstance(ruleset, Ruleset):
            raise SetupError("ruleset must be a Ruleset")
        if (not isinstance(first_dealer, int) or isinstance(first_dealer, bool)
                or not 0 <= first_dealer < players):
            raise SetupError(f"first dealer must be a seat 0..{players - 1}, got {first_dealer!r}",
                             "DEAL.DEALER")
        if not isinstance(next_deal, int) or next_deal < 1:
            raise SetupError(f"deal number must be 1 or more, got {next_deal!r}", "DEAL.DEALER")
        if totals is None:
            totals = (0,) * players
        if len(totals) != players or not all(
                isinstance(t, int) and not isinstance(t, bool) for t in totals):
            raise SetupError(f"totals must be {players} integers")
        return cls(ruleset=ruleset, players=players, first_dealer=first_dealer,
                   phase=Phase.DEALING, deal_number=next_deal - 1,
                   dealer=dealer_for_deal(first_dealer, next_deal, players),
                   totals=tuple(totals), initial_totals=tuple(totals), initial_deal=next_deal)

    @classmethod
    def from_position(cls, position: Position, ruleset: Ruleset = DEFAULT) -> GameState:
        """A game continuing from ``position`` under ``ruleset`` (``spec/position.md``).

        The position is checked first (:func:`rules_ref.position.check_position`);
        the state's action log, tricks and deal results start at the position.
        """
        from .position import state_from_position

        return state_from_position(position, ruleset)

    def position(self) -> Position:
        """This moment of the game as a :class:`~rules_ref.position.Position`."""
        from .position import position_of

        return position_of(self)

    # --- what can be seen from outside ------------------------------------------------------

    @property
    def dealer_of_next_deal(self) -> int:
        """The dealer of the next deal, while in the ``dealing`` phase."""
        return dealer_for_deal(self.first_dealer, self.deal_number + 1, self.players)

    @property
    def pass_offset(self) -> int | None:
        """Seats to the left this deal's passes travel; ``None`` when nobody passes."""
        return pass_offset(pass_direction(self.deal_number, self.ruleset), self.players)

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The seats that may act now: several while passing, else one or none."""
        if self.phase is Phase.PASSING:
            return tuple((self.dealer + 1 + i) % self.players for i in range(self.players)
                         if self.passes[(self.dealer + 1 + i) % self.players] is None)
        if self.phase is Phase.PLAYING:
            return (seat_at(self.leader, len(self.trick), self.players),)
        if self.phase is Phase.MOON_CHOICE and self.moon_shooter is not None:
            return (self.moon_shooter,)
        return ()

    @property
    def to_act(self) -> int | None:
        """The seat to act; while passing, the first seat (from the dealer's left) yet to pass."""
        if self.phase is Phase.PLAYING:
            return (self.leader + len(self.trick)) % self.players
        seats = self.waiting_for
        return seats[0] if seats else None

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied since :meth:`start`, in order: the game's replay log."""
        out = []
        node = self.history
        while node is not None:
            out.append(node[0])
            node = node[1]
        return tuple(reversed(out))

    def current_points(self) -> tuple[int, ...]:
        """Card points each seat has collected so far in this deal."""
        return tuple(card_points(c, self.ruleset) for c in self.collected)

    # --- legality -----------------------------------------------------------------------

    def play_rules(self, hand: tuple[Card, ...]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
        """The rules that restrict a play from ``hand`` now, in order, each with what it allows.

        On the opening lead of a deal ``LEAD.OPENING_CARD``; on any other
        lead ``LEAD.HEARTS``; when following ``FOLLOW.SUIT`` and then
        ``FOLLOW.FIRST_TRICK``, which narrows what ``FOLLOW.SUIT`` allows.
        The last entry is the set of legal plays.
        """
        rs = self.ruleset
        if not self.trick:
            if self.trick_number == 1:
                return (("LEAD.OPENING_CARD", opening_leads(hand, rs)),)
            return (("LEAD.HEARTS", leads(hand, self.hearts_broken, rs)),)
        suit = led_suit(self.trick)
        following = follows(hand, suit)
        return (("FOLLOW.SUIT", following),
                ("FOLLOW.FIRST_TRICK", first_trick_plays(following, hand, suit,
                                                         self.trick_number, rs)))

    def legal_plays(self, seat: int | None = None) -> tuple[Card, ...]:
        """The distinct cards the seat to act may play now, in canonical order.

        The last step of :meth:`play_rules`, without repeats.
        """
        if self.phase is not Phase.PLAYING:
            return ()
        actor = seat_at(self.leader, len(self.trick), self.players)
        if seat is not None and seat != actor:
            return ()
        if self.legal_cache is None:
            plays = tuple(dict.fromkeys(self.play_rules(self.hands[actor])[-1][1]))
            _set_legal_cache(self, plays)  # a cache: the state's value does not change
            return plays
        return self.legal_cache

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every legal action of ``seat`` (default: the seat to act) in this phase.

        In the ``dealing`` and ``game-over`` phases no seat acts: a deal is
        given from outside, and a finished game takes nothing.
        """
        actor = self.to_act if seat is None else seat
        if actor is None or actor not in self.waiting_for:
            return ()
        if self.phase is Phase.PLAYING:
            return tuple(Play(actor, c) for c in self.legal_plays(actor))
        if self.phase is Phase.PASSING:
            hand = self.hands[actor]
            combos = dict.fromkeys(combinations(hand, self.ruleset.pass_count))
            return tuple(Pass(actor, cards) for cards in combos)
        if self.phase is Phase.MOON_CHOICE:
            return tuple(ChooseMoon(actor, c) for c in moon_options(self.ruleset))
        return ()

    def _play_rule_problems(self, card: Card, hand: tuple[Card, ...]) -> list[Violation]:
        for rule_id, allowed in self.play_rules(hand):
            if card not in allowed:
                return [Violation(rule_id, _PLAY_MESSAGES[rule_id].format(
                    card=card, suit=self.trick[0].suit.name if self.trick else ""))]
        return []

    def violations(self, action: object) -> tuple[Violation, ...]:
        """Every rule ``action`` breaks in this state, in the order they are checked.

        Empty when the action is legal. Phase and turn (``TURN.ORDER``) come
        first, then the rules of the action's kind.
        """
        if (type(action) is Play and self.phase is Phase.PLAYING
                and action.seat == seat_at(self.leader, len(self.trick), self.players)
                and action.card in self.legal_plays()):
            return ()
        if not isinstance(action, DealCards | Pass | Play | ChooseMoon):
            return (Violation("TURN.ORDER", f"{action!r} is not an action"),)
        expected = {Phase.DEALING: DealCards, Phase.PASSING: Pass, Phase.PLAYING: Play,
                    Phase.MOON_CHOICE: ChooseMoon}.get(self.phase)
        if expected is None:
            return (Violation("TURN.ORDER", "the game is over: no action is allowed"),)
        if not isinstance(action, expected):
            return (Violation("TURN.ORDER", f"a {type(action).__name__} action is not allowed "
                              f"in the {self.phase} phase"),)
        if isinstance(action, DealCards):
            return ()  # checked by check_deal, which raises SetupError
        problems = []
        if not isinstance(action.seat, int) or action.seat not in range(self.players):
            return (Violation("TURN.ORDER", f"seat {action.seat!r} is not a seat of this "
                              f"{self.players}-player game"),)
        if action.seat not in self.waiting_for:
            if isinstance(action, Pass):
                return (Violation("PASS.EXCHANGE", f"seat {action.seat} has already passed; "
                                  "a pass cannot be changed"),)
            problems.append(Violation("TURN.ORDER", f"it is seat {self.to_act}'s turn, not "
                                      f"seat {action.seat}'s"))
        if isinstance(action, Pass):
            problems.extend(pass_violations(action.cards, self.hands[action.seat], self.ruleset))
        elif isinstance(action, Play):
            hand = self.hands[action.seat]
            if action.card not in hand:
                problems.append(Violation("TURN.ORDER", f"seat {action.seat} does not hold "
                                          f"{action.card}"))
            elif not problems:
                problems.extend(self._play_rule_problems(action.card, hand))
        elif action.choice not in moon_options(self.ruleset):
            problems.append(Violation("MOON.CHOICE", f"{action.choice!r} is not a moon option "
                                      "of this ruleset"))
        return tuple(problems)

    # --- apply --------------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[GameState, tuple[ev.Event, ...]]:
        """The state after ``action`` and the events it caused.

        Raises :class:`IllegalAction` (naming every rule broken) when the
        action is illegal, and :class:`SetupError` for a deal that does not
        make up the deck; ``self`` is unchanged either way.
        """
        problems = self.violations(action)
        if problems:
            raise IllegalAction(problems)
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> tuple[GameState, tuple[ev.Event, ...]]:
        """Apply ``action`` without the rule checks of :meth:`violations`.

        For a validator that has already recorded an action's violations and
        wants to carry on to find the next ones. The action must still be
        possible: the right phase, a card the seat holds. Games use
        :meth:`apply`.
        """
        history: _History = (action, self.history)
        if isinstance(action, Play):
            return self._play(action.seat, action.card, history)
        if isinstance(action, Pass):
            return self._pass(action.seat, tuple(action.cards), history)
        if isinstance(action, ChooseMoon):
            return self._close_deal(self._with(history=history), action.choice, [])
        return self._deal(action, history)

    def _with(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (field name -> value); see :func:`_make_with`."""
        return _with_fields(self, **changes)

    def _deal(self, action: DealCards, history: _History) -> tuple[GameState, tuple[ev.Event, ...]]:
        deal = check_deal(action.hands, action.extras, self.players)
        number = self.deal_number + 1
        dealer = dealer_for_deal(self.first_dealer, number, self.players)
        offset = pass_offset(pass_direction(number, self.ruleset), self.players)
        n = self.players
        state = self._with(
            phase=Phase.PASSING, deal_number=number, dealer=dealer, hands=deal.hands,
            extras=deal.extras, passes=(None,) * n, hearts_broken=False, trick_number=0,
            leader=(dealer + 1) % n, trick=(), tricks=(), pending=(), pending_has_extras=False,
            extras_taken_by=None, collected=((),) * n, uncollected=(), moon_shooter=None,
            history=history)
        events: list[ev.Event] = [ev.DealStarted(number, dealer, offset)]
        if offset is None:
            state = state._begin_play()
        return state, tuple(events)

    def _begin_play(self) -> GameState:
        return self._with(phase=Phase.PLAYING, trick_number=1,
                          leader=opening_leader(self.dealer, self.hands, self.ruleset))

    def _pass(self, seat: int, cards: tuple[Card, ...],
              history: _History) -> tuple[GameState, tuple[ev.Event, ...]]:
        passes = (*self.passes[:seat], tuple(sorted(cards)), *self.passes[seat + 1:])
        offset = self.pass_offset
        assert offset is not None
        events: list[ev.Event] = [ev.CardsPassed(seat, (seat + offset) % self.players)]
        state = self._with(passes=passes, history=history)
        if all(p is not None for p in passes):
            hands = exchange(self.hands, [p for p in passes if p is not None], offset)
            state = state._with(hands=hands)._begin_play()
            events.append(ev.PassesExchanged(self.deal_number))
        return state, tuple(events)

    def _play(self, seat: int, card: Card,
              history: _History) -> tuple[GameState, tuple[ev.Event, ...]]:
        hand = self.hands[seat]
        i = hand.index(card)
        hands = (*self.hands[:seat], hand[:i] + hand[i + 1:], *self.hands[seat + 1:])
        trick = (*self.trick, card)
        played = ev.CardPlayed(seat, card)
        broken = self.hearts_broken
        events: list[ev.Event]
        if not broken and breaks_hearts(card, led_suit(self.trick) if self.trick else None,
                                        self.ruleset):
            broken = True
            events = [played, ev.HeartsBroken(seat, card)]
        elif len(trick) < self.players:
            return _with_fields(self, hands=hands, trick=trick, history=history), (played,)
        else:
            events = [played]
        if len(trick) < self.players:
            return _with_fields(self, hands=hands, trick=trick, hearts_broken=broken,
                                history=history), tuple(events)
        return self._finish_trick(hands, trick, broken, history, events)

    def _finish_trick(self, hands: tuple[tuple[Card, ...], ...], trick: tuple[Card, ...],
                      broken: bool, history: _History,
                      events: list[ev.Event]) -> tuple[GameState, tuple[ev.Event, ...]]:
        outcome = resolve_trick(trick, self.leader, self.players)
        extras = self.extras if extras_join_trick(self.trick_number) else ()
        taken, pending = after_trick(self.pending, outcome, extras)
        collected = self.collected
        extras_taken_by = self.extras_taken_by
        pending_has_extras = self.pending_has_extras
        if outcome.winner is None:
            events.append(ev.TrickSetAside(self.trick_number, outcome.leader, outcome.cancelled))
            if extras:
                pending_has_extras = True
                events.append(ev.ExtrasPending(extras))
        else:
            winner = outcome.winner
            assert outcome.winning_card is not None
            events.append(ev.TrickWon(self.trick_number, winner, outcome.winning_card,
                                      outcome.cancelled))
            if self.pending:
                events.append(ev.PendingCollected(winner, self.pending))
            if extras or pending_has_extras:
                extras_taken_by = winner
                pending_has_extras = False
                if extras:
                    events.append(ev.ExtrasTaken(winner, extras))
            collected = ((*collected[:winner], collected[winner] + taken, *collected[winner + 1:]))
        state = self._with(
            hands=hands, trick=(), hearts_broken=broken, history=history,
            tricks=(*self.tricks, outcome), pending=pending, collected=collected,
            extras_taken_by=extras_taken_by, pending_has_extras=pending_has_extras,
            leader=next_leader(self.leader, outcome.winner), trick_number=self.trick_number + 1)
        if hands[0]:
            return state, tuple(events)
        return state._end_deal(outcome, events)

    def _end_deal(self, last: TrickOutcome,
                  events: list[ev.Event]) -> tuple[GameState, tuple[ev.Event, ...]]:
        taken, uncollected = settle_pending(self.pending, last, self.players, self.ruleset)
        collected = list(self.collected)
        extras_taken_by = self.extras_taken_by
        if self.pending:
            events.append(ev.PendingSettled(taken, uncollected))
            for seat, cards in taken:
                collected[seat] += cards
            if self.pending_has_extras and len(taken) == 1:
                extras_taken_by = taken[0][0]
        state = self._with(pending=(), pending_has_extras=False, uncollected=uncollected,
                           collected=tuple(collected), extras_taken_by=extras_taken_by)
        shooter = moon_shooter(state.collected)
        if shooter is not None:
            events.append(ev.MoonShot(shooter))
            if moon_options(self.ruleset):
                return state._with(phase=Phase.MOON_CHOICE, moon_shooter=shooter), tuple(events)
            state = state._with(moon_shooter=shooter)
        return self._close_deal(state, None, events)

    @staticmethod
    def _close_deal(state: GameState, choice: MoonChoice | None,
                    events: list[ev.Event]) -> tuple[GameState, tuple[ev.Event, ...]]:
        rs = state.ruleset
        points = tuple(card_points(c, rs) for c in state.collected)
        if state.moon_shooter is None:
            scores = deal_scores(state.collected, rs)
        else:
            scores = moon_scores(state.moon_shooter, choice, state.collected, rs)
            events.append(ev.MoonChosen(state.moon_shooter, choice))
        totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
        result = DealResult(state.deal_number, state.dealer, state.extras, points,
                            state.moon_shooter, choice, scores, totals, state.uncollected)
        events.append(ev.DealScored(state.deal_number, points, scores, totals))
        over = is_game_over(totals, rs)
        won = winners(totals) if over else ()
        if over:
            events.append(ev.GameOver(totals, won))
        return state._with(phase=Phase.GAME_OVER if over else Phase.DEALING, totals=totals,
                           deal_results=(*state.deal_results, result),
                           winners=won), tuple(events)

    # --- conveniences -------------------------------------------------------------------

    def replay(self, actions: list[Action] | tuple[Action, ...]) -> GameState:
        """Apply ``actions`` in order from this state and return the result."""
        state = self
        for action in actions:
            state, _ = state.apply(action)
        return state

    def card_places(self) -> Iterator[tuple[str, Card]]:
        """Every card of the deal with the place it is in (for conservation checks)."""
        if self.phase is Phase.DEALING and not self.deal_results:
            return
        for seat, hand in enumerate(self.hands):
            for c in hand:
                yield f"hand {seat}", c
        for c in self.trick:
            yield "trick", c
        for c in self.pending:
            yield "pending", c
        if self.trick_number <= 1 and not self.tricks:
            for c in self.extras:
                yield "extras", c
        for seat, cards in enumerate(self.collected):
            for c in cards:
                yield f"collected {seat}", c
        for c in self.uncollected:
            yield "uncollected", c

    def __str__(self) -> str:
        lines = [f"{self.players} players, deal {self.deal_number}, dealer {self.dealer}, "
                 f"phase {self.phase}, totals {list(self.totals)}"]
        if self.phase in (Phase.PASSING, Phase.PLAYING):
            for seat, hand in enumerate(self.hands):
                lines.append(f"  seat {seat}: {format_cards(hand)}")
            lines.append(f"  trick {self.trick_number} led by {self.leader}: "
                         f"{format_cards(self.trick) or '-'}; pending {len(self.pending)}")
        return "\n".join(lines)


_PLAY_MESSAGES = {
    "LEAD.OPENING_CARD": "{card} may not make the opening lead from this hand",
    "LEAD.HEARTS": "{card} may not be led: hearts are not broken and the hand holds a card "
                   "that is not a heart",
    "FOLLOW.SUIT": "{card} does not follow {suit} and the hand holds {suit}",
    "FOLLOW.FIRST_TRICK": "{card} is a point card and may not be discarded on the first trick "
                          "while the hand holds another card",
}

def _make_with() -> Callable[..., GameState]:
    """Build the copy-with-changes function of :class:`GameState`.

    Every action makes a new state, so copying is the engine's hottest path.
    The generated function sets each field once through its slot, which is
    several times faster than ``dataclasses.replace``; the copy is made before
    anyone can see it, so the state stays immutable from outside.
    """
    names = tuple(n for n in GameState.__dataclass_fields__ if n != "legal_cache")
    params = ", ".join(f"{n}=_KEEP" for n in names)
    body = "".join(f"    _set_{n}(new, self.{n} if {n} is _KEEP else {n})\n" for n in names)
    body += "    _set_legal_cache(new, None)\n"
    source = f"def _with_fields(self, *, {params}):\n    new = _new(_cls)\n{body}    return new\n"
    scope: dict[str, Any] = {"_KEEP": object(), "_new": object.__new__, "_cls": GameState}
    for n in (*names, "legal_cache"):
        scope[f"_set_{n}"] = GameState.__dict__[n].__set__
    exec(source, scope)
    made: Callable[..., GameState] = scope["_with_fields"]
    return made


_with_fields = _make_with()
_set_legal_cache = GameState.__dict__["legal_cache"].__set__




__all__ = ["DealResult", "GameState", "Phase"]
