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
from itertools import combinations
from typing import Any, ClassVar

from . import events as ev
from . import transitions as step
from .actions import Action, ChooseMoon, DealCards, Pass, Play
from .cards import Card, format_cards
from .deal import check_player_count, dealer_for_deal
from .errors import IllegalAction, SetupError, Violation
from .following import first_trick_plays, follows
from .leading import is_opening_lead, leads, opening_leads
from .passing import check_table, may_pass, pass_direction, pass_offset, pass_violations, passable
from .pending import pending_shares
from .ruleset import DEFAULT, Ruleset
from .scoring import card_points, moon_options
from .state_parts import (
    DEAL_FIELDS,
    GAME_FIELDS,
    PLAYING,
    DealPart,
    GamePart,
    History,
    Phase,
    copier,
    copy_deal,
    copy_game,
)
from .state_reading import PartReadings
from .tricks import holds, led_suit, may_act, seat_at


@dataclass(frozen=True, slots=True, eq=False)
class GameState(PartReadings):
    """Everything about a game at one moment. Build one with :meth:`start`.

    Its own fields change with every action; the game as a whole and the
    deal so far are shared parts (:mod:`rules_ref.state_parts`), read
    through the properties of its base,
    :class:`~rules_ref.state_reading.PartReadings`. The cards hidden from
    some seat (hands, passes, extras, and the pending pile that may hold
    the extras) are fields of the state itself.
    """

    game: GamePart
    deal: DealPart
    phase: Phase
    hands: tuple[tuple[Card, ...], ...] = ()
    trick: tuple[Card, ...] = ()
    pending: tuple[Card, ...] = ()
    extras: tuple[Card, ...] = ()
    passes: tuple[tuple[Card, ...] | None, ...] = ()
    history: History | None = field(default=None, repr=False)
    #: The seat to act and its legal plays, computed at most once per state
    #: (``_legal``), only in the ``playing`` phase.
    legal_cache: tuple[int, tuple[Card, ...]] | None = field(default=None, repr=False,
                                                              compare=False)

    # --- construction -----------------------------------------------------------------

    @classmethod
    def start(cls, players: int, ruleset: Ruleset = DEFAULT, first_dealer: int = 0,
              totals: tuple[int, ...] | None = None, next_deal: int = 1) -> GameState:
        """A new game, waiting for its first deal.

        ``totals`` and ``next_deal`` start a game part-way (a deal of a
        recorded game, a conformance position); by default totals are 0 and
        the next deal is deal 1.
        """
        if not isinstance(ruleset, Ruleset):
            raise SetupError("ruleset must be a Ruleset")
        check_player_count(players, ruleset.min_players)
        check_table(ruleset, players)
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
        game = GamePart(ruleset=ruleset, players=players, first_dealer=first_dealer,
                        totals=tuple(totals), initial_totals=tuple(totals),
                        initial_deal=next_deal)
        deal = DealPart(deal_number=next_deal - 1,
                        dealer=dealer_for_deal(first_dealer, next_deal, players))
        return cls(game=game, deal=deal, phase=Phase.DEALING)

    def _with(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (field name -> value), each filed in the part that holds it.

        For the rare changes (a position, a test); the steps of :meth:`apply`
        build the parts they change themselves.
        """
        game = {name: changes.pop(name) for name in GAME_FIELDS & changes.keys()}
        deal = {name: changes.pop(name) for name in DEAL_FIELDS & changes.keys()}
        if game:
            changes["game"] = copy_game(self.game, **game)
        if deal:
            changes["deal"] = copy_deal(self.deal, **deal)
        return self._with_own(**changes)

    def in_game(self, game: GamePart) -> GameState:
        """This moment of the deal in another game: ``game`` (its totals, its scored deals),
        of the same ruleset and table, in place of this state's game part.

        Nothing of a deal's play reads the totals or the deals scored before
        it, so a deal played once to learn what it scores plays the same in a
        game of other totals, until it is scored: the hands, the trick, the deal
        so far, and the seat to act with its legal plays are this state's own.
        """
        if game.ruleset != self.game.ruleset or game.players != self.game.players:
            raise SetupError("a deal goes on in a game of its own ruleset and table alone")
        moved = self._with_own(game=game)
        if self.legal_cache is not None:
            _set_legal_cache(moved, self.legal_cache)
        return moved

    # --- what can be seen from outside ------------------------------------------------------

    @property
    def dealer_of_next_deal(self) -> int:
        """The dealer of the next deal, while in the ``dealing`` phase."""
        return dealer_for_deal(self.game.first_dealer, self.deal.deal_number + 1,
                               self.game.players)

    @property
    def pass_offset(self) -> int | None:
        """Seats to the left this deal's passes travel; ``None`` when nobody passes."""
        return pass_offset(pass_direction(self.deal.deal_number, self.game.ruleset),
                           self.game.players)

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The seats that may act now: several while passing, else one or none."""
        n = self.game.players
        if self.phase is Phase.PASSING:
            first = self.deal.dealer + 1
            return tuple((first + i) % n for i in range(n) if self.passes[(first + i) % n] is None)
        if self.phase is PLAYING:
            return (seat_at(self.deal.leader, len(self.trick), n),)
        if self.phase is Phase.MOON_CHOICE and self.deal.moon_shooter is not None:
            return (self.deal.moon_shooter,)
        return ()

    @property
    def to_act(self) -> int | None:
        """The seat to act; while passing, the first seat (from the dealer's left) yet to pass."""
        if self.phase is PLAYING:
            return seat_at(self.deal.leader, len(self.trick), self.game.players)
        seats = self.waiting_for
        return seats[0] if seats else None

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied since :meth:`start`, in order: the game's replay log."""
        out: list[Action] = []
        node = self.history
        while node is not None:
            if len(node) == 3:
                out.append(Play(node[0], node[1]))
            else:
                out.append(node[0])
            node = node[-1]
        return tuple(reversed(out))

    def current_points(self) -> tuple[int, ...]:
        """Each seat's card points so far in this deal (``SCORE.CARD_POINTS``).

        The points of the cards it collected and, once a void last trick has
        left cards uncollected, its share of their points (only under
        ``last_trick_void = split-points-highest-pair``: :func:`~rules_ref.pending.pending_shares`).
        """
        deal, rs = self.deal, self.game.ruleset
        points = _pile_points(deal.collected, rs)
        if not deal.uncollected or not deal.tricks:
            return points
        shares = pending_shares(deal.uncollected, deal.tricks[-1], self.game.players, rs)
        return tuple(p + share for p, share in zip(points, shares, strict=True))

    # --- legality -----------------------------------------------------------------------

    def play_rules(self, hand: tuple[Card, ...]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
        """The rules that restrict a play from ``hand`` now, in order, each with what it allows.

        On the opening lead of a deal ``LEAD.OPENING_CARD``; on any other
        lead ``LEAD.HEARTS``; when following ``FOLLOW.SUIT`` and then
        ``FOLLOW.FIRST_TRICK``, which narrows what ``FOLLOW.SUIT`` allows.
        The last entry is the set of legal plays.
        """
        rs = self.game.ruleset
        deal = self.deal
        if not self.trick:
            if is_opening_lead(deal.trick_number):
                return (("LEAD.OPENING_CARD", opening_leads(hand, rs)),)
            return (("LEAD.HEARTS", leads(hand, deal.hearts_broken, rs)),)
        suit = led_suit(self.trick)
        following = follows(hand, suit)
        return (("FOLLOW.SUIT", following),
                ("FOLLOW.FIRST_TRICK", first_trick_plays(following, hand, suit,
                                                         deal.trick_number, rs)))

    def legal_plays(self, seat: int | None = None) -> tuple[Card, ...]:
        """The distinct cards the seat to act may play now, in canonical order.

        The last step of :meth:`play_rules`, without repeats; ``()`` for any
        other seat than the one to act, and outside the ``playing`` phase.
        """
        cache = self.legal_cache or self._legal()
        if seat is not None and seat != cache[0]:
            return ()
        return cache[1]

    def _legal(self) -> tuple[int, tuple[Card, ...]]:
        """The seat to act and its legal plays (:meth:`legal_plays`), kept in the state.

        Computed at most once per state (the state's value does not change);
        outside the ``playing`` phase no seat (-1) plays anything.
        """
        if self.phase is not PLAYING:
            return (-1, ())
        actor = seat_at(self.deal.leader, len(self.trick), self.game.players)
        cache = (actor, tuple(dict.fromkeys(self.play_rules(self.hands[actor])[-1][1])))
        _set_legal_cache(self, cache)
        return cache

    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """Every legal action of ``seat`` (default: the seat to act) in this phase.

        In the ``dealing`` and ``game-over`` phases no seat acts: a deal is
        given from outside, and a finished game takes nothing.
        """
        actor = self.to_act if seat is None else seat
        if actor is None or actor not in self.waiting_for:
            return ()
        if self.phase is PLAYING:
            return tuple(Play(actor, c) for c in self.legal_plays(actor))
        if self.phase is Phase.PASSING:
            hand = passable(self.hands[actor], self.game.ruleset)
            combos = dict.fromkeys(combinations(hand, self.game.ruleset.pass_count))
            return tuple(Pass(actor, cards) for cards in combos)
        if self.phase is Phase.MOON_CHOICE:
            return tuple(ChooseMoon(actor, c) for c in moon_options(self.game.ruleset))
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
        if type(action) is Play:
            cache = self.legal_cache or self._legal()
            if action.seat == cache[0] and action.card in cache[1]:
                return ()  # a legal play, the common case: one look at the legal plays
        if not isinstance(action, _ACTION_KINDS):
            return (Violation("TURN.ORDER", f"{action!r} is not an action"),)
        expected = _ACTION_OF_PHASE.get(self.phase)
        if expected is None:
            return (Violation("TURN.ORDER", "the game is over: no action is allowed"),)
        if not isinstance(action, expected):
            return (Violation("TURN.ORDER", f"a {type(action).__name__} action is not allowed "
                              f"in the {self.phase} phase"),)
        if isinstance(action, DealCards):
            return ()  # checked by check_deal, which raises SetupError
        players = self.game.players
        if not isinstance(action.seat, int) or action.seat not in range(players):
            return (Violation("TURN.ORDER", f"seat {action.seat!r} is not a seat of this "
                              f"{players}-player game"),)
        if isinstance(action, Pass):  # every seat passes once, in any order
            if not may_pass(self.passes[action.seat]):
                return (Violation("PASS.EXCHANGE", f"seat {action.seat} has already passed; "
                                  "a pass cannot be changed"),)
            return pass_violations(action.cards, self.hands[action.seat], self.game.ruleset)
        problems = []
        if not may_act(action.seat, self.waiting_for):
            problems.append(Violation("TURN.ORDER", f"it is seat {self.to_act}'s turn, not "
                                      f"seat {action.seat}'s"))
        if isinstance(action, Play):
            hand = self.hands[action.seat]
            if not holds(hand, action.card):
                problems.append(Violation("TURN.OWN_CARD", f"seat {action.seat} does not hold "
                                          f"{action.card}"))
            elif not problems:
                problems.extend(self._play_rule_problems(action.card, hand))
        elif action.choice not in moon_options(self.game.ruleset):
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
        if type(action) is Play:  # the common case, without the call below
            return step.play_card(self, action.seat, action.card,
                                  (action.seat, action.card, self.history))
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> tuple[GameState, tuple[ev.Event, ...]]:
        """Apply ``action`` without the rule checks of :meth:`violations`.

        For a validator that has already recorded an action's violations and
        wants to carry on to find the next ones, and for a caller that took a
        card play from this state's :meth:`legal_plays` (the checks would only
        say again what that list says). The action must still be possible: the
        right phase, a card the seat holds. Games use :meth:`apply`. The steps
        are in :mod:`rules_ref.transitions`.
        """
        if isinstance(action, Play):
            return step.play_card(self, action.seat, action.card,
                                  (action.seat, action.card, self.history))
        history: History = (action, self.history)
        if isinstance(action, Pass):
            return step.pass_cards(self, action.seat, tuple(action.cards), history)
        if isinstance(action, ChooseMoon):
            return step.close_deal(self._with_own(history=history), action.choice, [])
        return step.deal_cards(self, action, history)

    # --- conveniences -------------------------------------------------------------------

    def replay(self, actions: list[Action] | tuple[Action, ...]) -> GameState:
        """Apply ``actions`` in order from this state and return the result."""
        state = self
        for action in actions:
            state, _ = state.apply(action)
        return state

    def card_places(self) -> Iterator[tuple[str, Card]]:
        """Every card of the deal with the place it is in (for conservation checks)."""
        if self.phase is Phase.DEALING and not self.game.deal_results:
            return
        for seat, hand in enumerate(self.hands):
            for c in hand:
                yield f"hand {seat}", c
        for c in self.trick:
            yield "trick", c
        for c in self.pending:
            yield "pending", c
        if self.deal.trick_number <= 1 and not self.deal.tricks:
            for c in self.extras:
                yield "extras", c
        for seat, cards in enumerate(self.deal.collected):
            for c in cards:
                yield f"collected {seat}", c
        for c in self.deal.uncollected:
            yield "uncollected", c

    # --- copies (the speed layer) --------------------------------------------------------

    #: ``state._with_own(name=value, ...)``: a copy with some of the state's own
    #: fields changed, the parts shared, made by a copier generated for this class
    #: (:func:`~rules_ref.state_parts.copier`, which says what it buys).
    _with_own: ClassVar[Callable[..., GameState]]
    #: ``state._after_play(hands, trick, deal, history)``: the copy a card play makes,
    #: the most frequent one, so it takes the fields a play changes in order, without
    #: keywords.
    _after_play: ClassVar[Callable[[GameState, tuple[tuple[Card, ...], ...], tuple[Card, ...],
                                   DealPart, History], GameState]]

    def __str__(self) -> str:
        lines = [f"{self.players} players, deal {self.deal_number}, dealer {self.dealer}, "
                 f"phase {self.phase}, totals {list(self.totals)}"]
        if self.phase in (Phase.PASSING, Phase.PLAYING):
            for seat, hand in enumerate(self.hands):
                lines.append(f"  seat {seat}: {format_cards(hand)}")
            lines.append(f"  trick {self.trick_number} led by {self.leader}: "
                         f"{format_cards(self.trick) or '-'}; pending {len(self.pending)}")
        return "\n".join(lines)


#: The piles :func:`_pile_points` counted last, with their ruleset and points.
_counted: list[Any] = [None, (), ()]


def _pile_points(piles: tuple[tuple[Card, ...], ...], ruleset: Ruleset) -> tuple[int, ...]:
    """The card points of each pile (:func:`~rules_ref.scoring.card_points`).

    Counted again only for the piles that changed since the last count: a
    trick changes its winner's pile alone, the others stay the same objects,
    so an observation after a trick counts one pile where it counted every
    one. The piles counted last are kept, so an identical object is the
    same pile.
    """
    last_rules, last_piles, last_points = _counted
    if last_rules is ruleset and len(last_piles) == len(piles):
        points = tuple(p if pile is was else card_points(pile, ruleset)
                       for pile, was, p in zip(piles, last_piles, last_points, strict=True))
    else:
        points = tuple(card_points(pile, ruleset) for pile in piles)
    _counted[:] = ruleset, piles, points
    return points


_PLAY_MESSAGES = {
    "LEAD.OPENING_CARD": "{card} may not make the opening lead from this hand",
    "LEAD.HEARTS": "{card} may not be led: hearts are not broken and the hand holds a card "
                   "that is not a heart",
    "FOLLOW.SUIT": "{card} does not follow {suit} and the hand holds {suit}",
    "FOLLOW.FIRST_TRICK": "{card} is a point card and may not be discarded on the first trick "
                          "while the hand holds another card",
}

_ACTION_KINDS = (DealCards, Pass, Play, ChooseMoon)
#: The kind of action each phase takes (``TURN.ORDER``); none after the game.
_ACTION_OF_PHASE: dict[Phase, type] = {Phase.DEALING: DealCards, Phase.PASSING: Pass,
                                       Phase.PLAYING: Play, Phase.MOON_CHOICE: ChooseMoon}

GameState._with_own = copier(GameState, skip=("legal_cache",))
GameState._after_play = copier(GameState, skip=("legal_cache",),
                              positional=("hands", "trick", "deal", "history"))
_set_legal_cache = GameState.__dict__["legal_cache"].__set__

__all__ = ["GameState"]
