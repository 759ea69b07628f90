"""One conformance game, drawn decision by decision and played against the adapter.

A :class:`Conversation` takes every decision of the game from a
:class:`.choosers.Chooser` seeded by the game's seed, most games aimed at a
rule's condition (:mod:`.aims`); it draws the ruleset
(:class:`.choosers.RulesetDrawer`), the deals (seeded and
:mod:`~rules_ref.strategies.crafted`), the totals and the actions, legal and illegal
(:mod:`.illegal_kinds`), and plays them through a :class:`.session.Session`.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, Protocol

from ..actions import Action, DealCards, Pass, Play
from ..cards import CARDS, QUEEN_OF_SPADES, Card, Suit
from ..deal import FEWEST_PLAYERS, MAX_PLAYERS, extras_count, seeded_deal
from ..errors import RulesRefError
from ..events import Event
from ..passing import passable
from ..positions.convert import position_of
from ..protocol.observation import CARD_TEXT
from ..protocol.start import dealt_start
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import IN_DEAL, PLAYING, Phase
from ..strategies.crafted import (
    cancelling_suit_deal,
    clubs_in_extras_deal,
    forced_heart_deal,
    mirror_deal,
    moon_deal,
    penalty_follower_deal,
    penalty_leader_deal,
    void_follower_deal,
)
from ..wording import switch_value
from . import illegal_kinds
from .aims import Aim, aim_for, focus_keys, focus_weights, value_of
from .choosers import Chooser, RulesetDrawer
from .kept_deals import sent
from .position_starts import is_moment, starts_again
from .session import Session

#: At most this many deals in one conversation (one game of the search).
MAX_DEALS_PER_GAME = 4
#: Deal numbers of a game's first deal are drawn from 1 to this.
MAX_FIRST_DEAL = 8


def position_record(state: GameState) -> dict[str, Any]:
    """The position of a failure as a replay file and a report show it."""
    from ..positions.text import format_position

    in_deal = state.phase in IN_DEAL
    return {
        "players": state.players,
        "ruleset": state.ruleset.describe(),
        "phase": str(state.phase),
        "deal_number": state.deal_number,
        "dealer": state.dealer,
        "trick_number": state.trick_number if state.phase is Phase.PLAYING else None,
        "to_act": state.to_act,
        "leader": state.leader if state.phase is Phase.PLAYING else None,
        "hands": [[CARD_TEXT[c] for c in h] for h in state.hands] if in_deal else None,
        "trick": [CARD_TEXT[c] for c in state.trick],
        "pending": [CARD_TEXT[c] for c in state.pending] if in_deal else [],
        "hearts_broken": state.hearts_broken,
        "totals": list(state.totals),
        # The position of spec/position.md, to start from (`rules-ref position` reads it).
        "position_text": None if state.phase is Phase.GAME_OVER else format_position(
            position_of(state)),
    }


class GameSource(Protocol):
    """What a conversation asks of the search that runs it."""

    player_choices: tuple[int, ...]
    fixed_ruleset: Ruleset | None
    rulesets: RulesetDrawer

    def tick(self, force: bool = False) -> None: ...


#: The kinds of deal a conversation draws (:mod:`~rules_ref.strategies.crafted`).
DEAL_KINDS = ("seeded", "mirror", "moon", "cancelling-suit", "penalty-leader", "forced-heart",
              "queen-heart", "penalty-follower", "clubs-in-extras", "void-follower")
#: How often each kind of deal is drawn (the rest is spread evenly).
_DEAL_WEIGHTS = {0: 0.25, 1: 0.25, 2: 0.22, 3: 0.08, 4: 0.05, 5: 0.05}
#: The probability of what an aim asks for.
_AIMED = 0.97
#: Draws of a ruleset that may be made before one fits the game's player count.
RULESET_TRIES = 8
#: The share of games aimed at a condition; the others are drawn without a focus.
AIMED_SHARE = 0.75


class NoRuleset(Exception):
    """No ruleset drawn for a game fits its player count: the game is not played."""


class _Scripted(NamedTuple):
    """An action of a deal drawn on the reference alone (:meth:`Conversation.simulate_deal`):
    the kind of an illegal one (else ""), and the state after it with its events (``None``:
    the reference rejects it)."""

    action: Action
    kind: str
    outcome: tuple[GameState, tuple[Event, ...]] | None


@dataclass
class _DealPlan:
    deal: DealCards
    style: str
    shooter: int | None = None
    feeder: int | None = None


def _eventful_first(legal: Sequence[Card], trick: Sequence[Card]) -> Sequence[Card]:
    """The legal cards (in canonical order, as :meth:`.GameState.legal_plays` gives them),
    those that make something happen first.

    A card identical to one in the trick (it cancels), then the Q♠ and the
    hearts, highest first (they break hearts and score), then the rest in
    canonical order. A decision that prefers (``prefer``) takes the first
    candidate, so that the games of a deal made for it (cancelling, a moon)
    reach the rules' rare situations.
    """
    if trick and not set(trick).isdisjoint(legal):  # a card that cancels: few plays
        first = [c for c in legal if c in trick]
        points = [c for c in reversed(legal) if c in _POINT_CARDS and c not in first]
        return first + points + [c for c in legal if c not in first and c not in points]
    if _POINT_CARDS.isdisjoint(legal):  # most plays: nothing to put ahead
        return legal
    # The hearts and the spades are each a run of the canonical order (clubs, diamonds,
    # hearts, spades), found by bisection.
    hearts = bisect_left(legal, _FIRST_HEART)
    spades = bisect_left(legal, _FIRST_SPADE, hearts)
    ahead = legal[hearts:spades][::-1]
    if QUEEN_OF_SPADES in legal:
        queen = legal.index(QUEEN_OF_SPADES, spades)
        return (QUEEN_OF_SPADES, *ahead, *legal[:hearts], *legal[spades:queen],
                *legal[queen + 1:])
    return (*ahead, *legal[:hearts], *legal[spades:])


#: Every card play, by seat and card: a play is a value, drawn at nearly every decision, and
#: made once here rather than at each.
_PLAYS = tuple(tuple(Play(seat, c) for c in CARDS) for seat in range(MAX_PLAYERS))
#: The Q♠ and the hearts, which :func:`_eventful_first` puts ahead of the other cards.
_POINT_CARDS = frozenset((QUEEN_OF_SPADES, *CARDS[Suit.H * 13:Suit.H * 13 + 13]))
_FIRST_HEART = CARDS[Suit.H * 13]
_FIRST_SPADE = CARDS[Suit.S * 13]


class Conversation:
    """One game, drawn decision by decision and played against the adapter.

    The game's first choice is its focus (:mod:`.aims`): one condition of the
    run's catalogue or one pair (a rare condition under a switch value), drawn
    with most weight on those not met yet, whose aim then weights the player
    count, the ruleset, the deal, the totals, the play and the illegal offers.
    """

    def __init__(self, runner: GameSource, seed: int, session: Session) -> None:
        self.runner = runner
        #: The game's seed: every decision of the game is drawn from it.
        self.seed = seed
        self.ch = Chooser(seed)
        self.session = session
        self.offer_illegal = False
        #: True until the game is started again from a position (.position_starts).
        self.start_again = False
        self.plan: _DealPlan | None = None
        self.aim = Aim()
        self._variety = 0
        #: The kind of the last illegal action drawn.
        self.last_kind = ""

    # --- the focus ---

    def draw_focus(self) -> tuple[str | None, Aim]:
        """The condition this game aims at (``None``: no focus) and its aim."""
        runner = self.runner
        players = tuple(runner.player_choices)
        keys = focus_keys(runner.rulesets.catalogue(players, runner.fixed_ruleset),
                          runner.rulesets.scope(players, runner.fixed_ruleset))
        i = self.ch.pick(len(keys) + 1, focus_weights(keys, self.session.stats.exercise))
        if i >= len(keys):
            return None, Aim()
        key = keys[i]
        aim = aim_for(key)
        value = value_of(key)
        if value is not None:
            name, shown = value
            switches = dict(aim.switches)
            switches[name] = lambda v: switch_value(v) == shown
            aim = replace(aim, switches=switches)
        return key, aim

    # --- deals and totals ---

    def draw_deal(self, state: GameState) -> _DealPlan:
        """The next deal of ``state`` (dealing), one the adapter makes (:func:`.kept_deals.sent`)"""
        plan = self._draw_any_deal(state)
        made, same = sent(plan.deal, self.runner.rulesets, state, self.ch, self.session.stats)
        return replace(plan, deal=made) if same else _DealPlan(made, "free")

    def _draw_any_deal(self, state: GameState) -> _DealPlan:
        """The next deal of ``state`` as the search draws it, whatever the adapter makes."""
        ch = self.ch
        n = state.players
        number = state.deal_number + 1
        dealer = state.dealer_of_next_deal
        weights = _DEAL_WEIGHTS
        if self.aim.deal is not None:
            weights = {DEAL_KINDS.index(self.aim.deal): _AIMED}
        kind = DEAL_KINDS[ch.pick(len(DEAL_KINDS), weights)]
        seed = ch.below(1 << 32)
        copy = "copy" if self.aim.copy else "cancel"
        if kind == "moon":
            made = moon_deal(random.Random(seed), n, dealer, number, state.ruleset)
            if made is not None:
                return _DealPlan(made[0], "moon", made[1], made[2])
            kind = "seeded"
        leader = (dealer + 1) % n
        rng = random.Random(seed)
        if kind == "mirror":  # a heart or Q♠ among the extras: where they go shows in points
            return _DealPlan(mirror_deal(rng, n, points_aside=True), copy)
        if kind == "cancelling-suit":
            return _DealPlan(cancelling_suit_deal(rng, n), "cancel")
        if kind == "penalty-leader":
            return _DealPlan(penalty_leader_deal(rng, n, leader), "free")
        if kind in ("forced-heart", "queen-heart"):
            return _DealPlan(forced_heart_deal(rng, n, leader, kind == "queen-heart"), "quiet")
        if kind == "penalty-follower":
            return _DealPlan(penalty_follower_deal(rng, n, leader), "free")
        if kind == "void-follower":
            return _DealPlan(void_follower_deal(rng, n, leader), "free")
        if kind == "clubs-in-extras" and extras_count(n) >= 2:
            return _DealPlan(clubs_in_extras_deal(rng, n), "free")
        d = seeded_deal(seed, n, number, dealer, FEWEST_PLAYERS)
        return _DealPlan(DealCards(d.hands, d.extras), copy if self.aim.copy else "free")

    def draw_totals(self, players: int, target: int) -> tuple[int, ...]:
        ch = self.ch
        style = ch.below(3)
        if style == 0:
            return (0,) * players
        span = max(1, min(target, 60))
        if style == 1:
            value = max(0, target - 1 - ch.below(span))
            return (value,) * players
        return tuple(max(0, target - 1 - ch.below(span)) for _ in range(players))

    def edge_totals(self, scores: Sequence[int], target: int) -> tuple[int, ...] | None:
        """Totals that bring the deal's top scorer exactly to the target, maybe with a tie
        (or, aimed past the target, beyond it).

        Every total stays below the target, as a game still going on has them
        (``GAME.END``), even before a deal in which a seat scores less than
        nothing (the moon's ``subtract``).
        """
        ch = self.ch
        n = len(scores)
        top = max(range(n), key=lambda s: scores[s])
        if scores[top] <= 0 or scores[top] > target:
            return None
        final = [0] * n
        past = 0
        if self.aim.totals == "past":
            past = ch.below(scores[top], prefer=0.0) if ch.flag(_AIMED) else 0
        final[top] = target + min(past, max(0, target - 1))
        others = [s for s in range(n) if s != top]
        tied: tuple[int, ...] = ()
        low = -1
        if ch.flag(_AIMED if self.aim.totals == "tie" else 0.5) and len(others) >= 2:
            tied = (others[0], others[1 + ch.below(len(others) - 1)])
            low = min(target - 1, max(scores[s] for s in tied) + ch.below(5))
            for s in tied:
                final[s] = low
        for s in others:
            if s in tied:
                continue
            lo = max(scores[s], low + 1)
            final[s] = lo + ch.below(max(1, target - lo)) if lo < target else lo
        return tuple(min(target - 1, max(0, f - scores[s])) for s, f in enumerate(final))

    # --- actions ---

    def illegal_action(self, state: GameState) -> Action:
        """An action the reference rejects in ``state``, of a kind drawn from those that exist.

        The aim's kind is drawn most, else a card the seat holds but may not
        play (when there is one) half the time, else the kinds offered least
        so far in the run (:mod:`.illegal_kinds`).
        """
        self._variety += 1
        kinds = illegal_kinds.kinds_for(state)
        offers = self.session.stats.offers
        weights: dict[int, float] = {}
        if self.aim.illegal in kinds:
            weights[kinds.index(self.aim.illegal)] = 0.9
        elif illegal_kinds.FORBIDDEN_CARD in kinds and self._variety % 2:
            weights[kinds.index(illegal_kinds.FORBIDDEN_CARD)] = 0.5
        else:
            counts = [offers.get(k, 0) for k in kinds]
            least = min(counts)
            rare = [i for i, count in enumerate(counts) if count == least]
            weights = dict.fromkeys(rare, 0.8 / len(rare))
        kind = kinds[self.ch.pick(len(kinds), weights)]
        self.last_kind = kind
        return illegal_kinds.make(state, kind, self._variety)

    def _choose(self, legal: int, extra: int, prefer: float) -> int:
        """One of ``legal`` candidates, or (index ``legal``) the illegal one on offer.

        An aim that asks for an illegal kind offers one half of the time.
        """
        if extra and self.aim.illegal is not None:
            return self.ch.pick(legal + 1, {legal: 0.5, 0: 0.5 * prefer})
        return self.ch.below(legal + extra, prefer)

    def next_action(self, state: GameState, offered: bool) -> tuple[Action, bool]:
        """The next action to send: ``(action, True)`` for an illegal one on offer.

        When the game offers illegal actions, one more candidate than the
        legal ones stands for an illegal action (at most one per position).
        """
        plan = self.plan
        style = plan.style if plan is not None else "free"
        extra = 1 if self.offer_illegal and not offered else 0
        if state.phase is PLAYING:
            seat = state.to_act
            assert seat is not None
            trick = state.trick
            legal = _eventful_first(state.legal_plays(), trick)
            prefer = 0.0
            if style in ("cancel", "copy") and trick and legal[0] in trick:
                prefer = 0.998 if style == "copy" else 0.99
            elif style == "moon" and plan is not None and seat == plan.shooter and not trick:
                legal = sorted(legal, reverse=True)
                prefer = 0.99 if self.aim.deal == "moon" else 0.9
            elif style == "quiet":  # hearts and the Q♠ last: a quiet play keeps hearts unbroken
                legal = sorted(legal, key=_POINT_CARDS.__contains__)
                prefer = 0.95
            i = self._choose(len(legal), extra, prefer)
            if i >= len(legal):
                return self.illegal_action(state), True
            return _PLAYS[seat][legal[i]], False
        ch = self.ch
        if state.phase is Phase.PASSING:
            waiting = state.waiting_for
            i = ch.below(len(waiting) + extra)
            if i >= len(waiting):
                return self.illegal_action(state), True
            seat = waiting[i]
            hand = list(passable(state.hands[seat], state.ruleset))
            prefer = 0.0
            if style in ("cancel", "copy") or (style == "moon" and plan is not None
                                               and seat in (plan.shooter, plan.feeder)):
                prefer = 0.95 if style == "moon" else 0.99
            chosen = Pass(seat, tuple(sorted(hand.pop(ch.below(len(hand), prefer)) for _ in
                                             range(state.ruleset.pass_count))))
            if state.violations(chosen):  # a card the ruleset keeps from being passed
                passes = [a for a in state.legal_actions(seat) if isinstance(a, Pass)]
                chosen = passes[0] if passes else chosen
            return chosen, False
        if state.phase is Phase.MOON_CHOICE:
            options = state.legal_actions()
            i = self._choose(len(options), extra, 0.0)
            if i >= len(options):
                return self.illegal_action(state), True
            return options[i], False
        raise RulesRefError(f"no action to draw in the {state.phase} phase")

    def start_again_at(self, state: GameState) -> bool:
        """Start the game again from ``state``'s position if it is its moment; True if done."""
        if not (self.start_again and is_moment(state)):
            return False
        self.start_again = False
        self.session.start_again()
        return True

    def play_deal(self, scripted: list[_Scripted] | None = None,
                  simulated: GameState | None = None) -> None:
        """Play the current deal to its end (scored), drawing or following ``scripted``.

        ``simulated``: the state the script was drawn from, of which the game's
        is the same moment in another game (:meth:`.GameState.in_game`): the
        script's states are taken over, not made again, while the game follows
        them.
        """
        session = self.session
        offered = False
        followed = (simulated, session.state) if simulated is not None else None
        script = iter(scripted or ())
        while True:
            state = session.state
            assert state is not None
            if state.phase not in IN_DEAL:
                return
            if self.start_again and self.start_again_at(state):
                continue
            known = outcome = None
            # a step back after a rejected legal action can outrun the script
            entry = next(script, None)
            kind = ""
            if entry is not None:
                action, kind, outcome = entry
                illegal = bool(kind)
                if outcome is not None and followed is not None and followed[1] is state \
                        and outcome[0].game is followed[0].game:  # not scored: no total read
                    known = (outcome[0].in_game(state.game), outcome[1])
            else:
                action, illegal = self.next_action(state, offered)
                if illegal:
                    kind = self.last_kind
                elif type(action) is Play:  # one of the state's legal plays
                    known = state.apply_unchecked(action)
            accepted = session.act(action, known=known, offer=kind)
            offered = not accepted
            if outcome is not None and known is not None and session.state is known[0]:
                followed = (outcome[0], known[0])
            elif not (entry is not None and outcome is None):  # a rejection moves nothing
                followed = None

    def simulate_deal(self, state: GameState) -> tuple[list[_Scripted], GameState]:
        """Draw a whole deal on the reference alone: the script (:class:`_Scripted`) and the
        state after it."""
        script: list[_Scripted] = []
        offered = False
        offers = self.session.stats.offers.copy()
        while state.phase in IN_DEAL:
            action, illegal = self.next_action(state, offered)
            kind = self.last_kind if illegal else ""
            if illegal:  # the simulation's later draws weigh it, as the game's will
                self.session.stats.offers[kind] += 1
            try:
                after, events = (state.apply_unchecked(action) if not illegal
                                 and type(action) is Play else state.apply(action))
            except RulesRefError:
                script.append(_Scripted(action, kind, None))
                offered = True
                continue
            script.append(_Scripted(action, kind, (after, events)))
            state = after
            offered = False
        self.session.stats.offers = offers  # counted when the script is played (Session.act)
        return script, state

    def offer_between(self) -> None:
        """One illegal action between deals or after the game, then the check it changed nothing."""
        state = self.session.state
        if not self.offer_illegal or state is None:
            return
        self.session.act(self.illegal_action(state), offer=self.last_kind)
        self.session.check_unchanged()

    # --- the game ---

    def draw_ruleset(self, players: int) -> Ruleset:
        """A drawn ruleset that a game of ``players`` can be set up with.

        Some switch values need a large enough table (a pass to the seat k
        places away, say); a ruleset that the game's set-up refuses for this
        player count is drawn again; after :data:`RULESET_TRIES` draws the game
        is not played (:class:`NoRuleset`).
        """
        for _ in range(RULESET_TRIES):
            ruleset = self.runner.rulesets.draw(self.ch, self.aim)
            if players < ruleset.min_players:  # the adapter plays 5: so does its ruleset
                ruleset = replace(ruleset, min_players=players)
            try:
                GameState.start(players, ruleset, 0, (0,) * players, 1)
            except RulesRefError:
                continue
            return ruleset
        raise NoRuleset(f"none of {RULESET_TRIES} rulesets drawn sets up a game of {players} "
                        "players")

    def run(self) -> None:
        runner = self.runner
        self.start_again = starts_again(self.seed, self.session.proc)
        if self.ch.flag(AIMED_SHARE):
            _, self.aim = self.draw_focus()
        ch = self.ch
        aim = self.aim
        choices = runner.player_choices
        fits = [i for i, n in enumerate(choices) if aim.players is not None and aim.players(n)]
        players = choices[ch.pick(len(choices), dict.fromkeys(fits, _AIMED / max(1, len(fits))))]
        if runner.fixed_ruleset is not None:
            ruleset = runner.fixed_ruleset
            if players < ruleset.min_players:  # a count the ruleset does not play
                players = min(p for p in runner.player_choices if p >= ruleset.min_players)
        else:
            ruleset = self.draw_ruleset(players)
        deal_number = 1 + ch.below(MAX_FIRST_DEAL)
        dealer = ch.below(players)
        first_dealer = (dealer - (deal_number - 1)) % players
        zero = GameState.start(players, ruleset, first_dealer, (0,) * players, deal_number)
        self.plan = self.draw_deal(zero)
        self.offer_illegal = ch.flag(_AIMED if aim.illegal else 0.5)
        script: list[_Scripted] | None = None
        simulated: GameState | None = None
        totals: tuple[int, ...] | None = None
        if ch.flag(_AIMED if aim.totals else 0.3):
            simulated, _ = zero.apply(self.plan.deal)
            script, end = self.simulate_deal(simulated)
            if end.deal_results:
                totals = self.edge_totals(end.deal_results[-1].scores, ruleset.target)
        if totals is None:
            totals = self.draw_totals(players, ruleset.target)
        game = GameState.start(players, ruleset, first_dealer, totals, deal_number)
        dealt = (simulated.in_game(game.game) if simulated is not None
                 else game.apply(self.plan.deal)[0])
        start = dealt_start(ruleset, self.plan.deal.hands, self.plan.deal.extras,
                            deal_number=deal_number, dealer=dealer, totals=totals)
        self.play_game(start, script, dealt, simulated)

    def play_game(self, start: dict[str, Any], script: list[_Scripted] | None = None,
                  state: GameState | None = None, simulated: GameState | None = None) -> None:
        """Play the game from ``start``, whose deal is that of ``plan``: its first deal (drawn,
        or following ``script``, drawn from ``simulated``: :meth:`play_deal`), then more
        deals as the chooser and the aim draw them. ``state``: the state ``start``
        describes, when made already.

        The last answers may still be awaited: the caller judges them
        (:meth:`.session.Session.flush`), or leaves them to the next game's
        start (:meth:`.session.Session.send_all`)."""
        runner = self.runner
        ch = self.ch
        aim = self.aim
        self.session.start(start, state=state)
        # the script's states are the game's only while the game is at the state it describes:
        # not after the implementation was followed into a game of its own
        self.play_deal(script, simulated if self.session.state is state else None)
        deals = 1
        while True:
            runner.tick()
            state = self.session.state
            assert state is not None
            if state.phase is Phase.GAME_OVER or deals >= MAX_DEALS_PER_GAME or not ch.flag(
                    _AIMED if aim.deals else 0.7):
                break
            self.start_again_at(state)
            if ch.flag(0.3 if aim.illegal else 0.1):
                self.offer_between()
            state = self.session.state
            assert state is not None
            self.plan = self.draw_deal(state)
            self.session.act(self.plan.deal)
            deals += 1
            self.play_deal()
        self.offer_between()
