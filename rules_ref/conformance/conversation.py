"""One conformance game, drawn decision by decision and played against the adapter.

The decisions come from :mod:`.choices` (the :class:`~.choices.Chooser`,
one raw integer at a time, and the rulesets of a
:class:`~.choices.RulesetDrawer`); a :class:`Conversation` draws the deals (seeded and
:mod:`.crafted_deals`), the totals and the actions, legal and illegal, and
plays them through a :class:`.session.Session`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import CARDS, QUEEN_OF_SPADES, Card, Suit
from ..deal import FEWEST_PLAYERS, seeded_deal
from ..errors import RulesRefError
from ..passing import passable
from ..ruleset import (
    Ruleset,
)
from ..serialize import ruleset_to_json
from ..state import GameState, Phase
from .choices import Chooser as Chooser
from .choices import RulesetDrawer as RulesetDrawer
from .crafted_deals import (
    cancelling_suit_deal,
    forced_heart_deal,
    mirror_deal,
    moon_deal,
    penalty_leader_deal,
)
from .observation import CARD_TEXT
from .session import Session

#: At most this many deals in one conversation (one Hypothesis example).
MAX_DEALS_PER_GAME = 4
#: Deal numbers of a game's first deal are drawn from 1 to this.
MAX_FIRST_DEAL = 8


def position_record(state: GameState) -> dict[str, Any]:
    """The position of a failure as a replay file and a report show it."""
    from ..position import format_position

    in_deal = state.phase in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE)
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
            state.position()),
    }


class GameSource(Protocol):
    """What a conversation asks of the search that runs it."""

    player_choices: tuple[int, ...]
    fixed_ruleset: Ruleset | None
    rulesets: RulesetDrawer

    def tick(self, force: bool = False) -> None: ...


_DEAL_KINDS = ("seeded", "mirror", "moon", "cancelling-suit", "penalty-leader", "forced-heart")
#: How often each kind of deal is drawn while generating (the rest is spread evenly).
_DEAL_WEIGHTS = {0: 0.25, 1: 0.25, 2: 0.25, 3: 0.08, 4: 0.06, 5: 0.06}


@dataclass
class _DealPlan:
    deal: DealCards
    style: str
    shooter: int | None = None
    feeder: int | None = None


def _eventful_first(legal: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """The legal cards, those that make something happen first.

    A card identical to one in the trick (it cancels), then the Q♠ and the
    hearts, highest first (they break hearts and score), then the rest in
    canonical order. Every choice shrinks toward the first candidate, so a
    shrunk game reaches the rules' rare situations in as few actions as it can.
    """
    first = [c for c in legal if c in trick] if trick else []
    points = [c for c in reversed(legal) if (_HEARTS_LOW <= c <= _HEARTS_HIGH
                                             or c == QUEEN_OF_SPADES) and c not in first]
    if not first and not points:
        return list(legal)
    return first + points + [c for c in legal if c not in first and c not in points]


_HEARTS_LOW = CARDS[Suit.H * 13]
_HEARTS_HIGH = CARDS[Suit.H * 13 + 12]


class Conversation:
    """One game, drawn decision by decision and played against the adapter."""

    def __init__(self, runner: GameSource, chooser: Chooser, session: Session) -> None:
        self.runner = runner
        self.ch = chooser
        self.session = session
        self.offer_illegal = False
        self.plan: _DealPlan | None = None
        self._variety = 0

    # --- deals and totals ---

    def draw_deal(self, state: GameState) -> _DealPlan:
        """The next deal of ``state`` (in the dealing phase)."""
        ch = self.ch
        n = state.players
        number = state.deal_number + 1
        dealer = state.dealer_of_next_deal
        kind = _DEAL_KINDS[ch.pick(len(_DEAL_KINDS), _DEAL_WEIGHTS)]
        seed = ch.below(1 << 32)
        if kind == "moon":
            made = moon_deal(n, dealer, number, state.ruleset, seed)
            if made is not None:
                return _DealPlan(made[0], "moon", made[1], made[2])
            kind = "seeded"
        leader = (dealer + 1) % n
        if kind == "mirror":
            return _DealPlan(mirror_deal(n, seed), "cancel")
        if kind == "cancelling-suit":
            return _DealPlan(cancelling_suit_deal(n, seed), "cancel")
        if kind == "penalty-leader":
            return _DealPlan(penalty_leader_deal(n, leader, seed), "free")
        if kind == "forced-heart":
            return _DealPlan(forced_heart_deal(n, leader, seed), "free")
        d = seeded_deal(seed, n, number, dealer, FEWEST_PLAYERS)
        return _DealPlan(DealCards(d.hands, d.extras), "free")

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
        """Totals that bring the deal's top scorer exactly to the target, maybe with a tie."""
        n = len(scores)
        top = max(range(n), key=lambda s: scores[s])
        if scores[top] <= 0 or scores[top] > target:
            return None
        final = [0] * n
        final[top] = target
        others = [s for s in range(n) if s != top]
        tied: tuple[int, ...] = ()
        low = -1
        if self.ch.flag(0.5) and len(others) >= 2:
            tied = (others[0], others[1 + self.ch.below(len(others) - 1)])
            low = min(target - 1, max(scores[s] for s in tied) + self.ch.below(5))
            for s in tied:
                final[s] = low
        for s in others:
            if s in tied:
                continue
            lo = max(scores[s], low + 1)
            final[s] = lo + self.ch.below(max(1, target - lo)) if lo < target else lo
        return tuple(max(0, f - scores[s]) for s, f in enumerate(final))

    # --- actions ---

    def illegal_action(self, state: GameState) -> Action:
        """An action the reference rejects in ``state``; the kind varies from offer to offer.

        While playing: a card the seat holds but may not play (not following
        suit, a heart or the opening lead it may not lead) every other time,
        else a card it does not hold, a play out of turn, or a moon choice.
        While passing: a pass of the wrong size, a second pass, or a card not
        held. A moon choice by the wrong seat; any play between deals.
        """
        self._variety += 1
        v = self._variety
        n = state.players
        phase = state.phase
        if phase is Phase.PLAYING:
            seat = state.to_act
            assert seat is not None
            hand = state.hands[seat]
            if v % 2:
                legal = state.legal_plays()
                forbidden = [c for c in dict.fromkeys(hand) if c not in legal]
                if forbidden:
                    return Play(seat, forbidden[v // 2 % len(forbidden)])
            kind = v // 2 % 3
            if kind == 0:
                nxt = state.hands[(seat + 1) % n]
                other = [c for c in nxt if c not in hand] or [c for c in CARDS if c not in hand]
                return Play(seat, other[v % len(other)])
            if kind == 1 and state.hands[(seat + 1) % n]:
                return Play((seat + 1) % n, state.hands[(seat + 1) % n][0])
            return ChooseMoon(seat, MoonChoice.SUBTRACT)
        if phase is Phase.PASSING:
            p = state.ruleset.pass_count
            seat = state.waiting_for[0]
            hand = state.hands[seat]
            kind = v % 3
            passed = [s for s in range(n) if state.passes[s] is not None]
            if kind == 1 and passed:
                s = passed[v % len(passed)]
                return Pass(s, state.hands[s][:p])
            if kind == 2:
                missing = next(c for c in CARDS if c not in hand)
                return Pass(seat, (*hand[:p - 1], missing))
            return Pass(seat, hand[:p + 1] if len(hand) > p else hand[:p - 1])
        if phase is Phase.MOON_CHOICE:
            shooter = state.to_act
            assert shooter is not None
            if v % 2:
                return Play(shooter, CARDS[0])
            return ChooseMoon((shooter + 1) % n, MoonChoice.ADD)
        return Play(v % n, CARDS[v % len(CARDS)])

    def next_action(self, state: GameState, offered: bool) -> tuple[Action, bool]:
        """The next action to send: ``(action, True)`` for an illegal one on offer.

        When the game offers illegal actions, one more candidate than the
        legal ones stands for an illegal action (at most one per position).
        """
        ch = self.ch
        plan = self.plan
        style = plan.style if plan is not None else "free"
        extra = 1 if self.offer_illegal and not offered else 0
        if state.phase is Phase.PLAYING:
            seat = state.to_act
            assert seat is not None
            legal = _eventful_first(state.legal_plays(), state.trick)
            prefer = 0.0
            if style == "cancel" and state.trick and legal[0] in state.trick:
                prefer = 0.99
            elif style == "moon" and plan is not None and seat == plan.shooter and not state.trick:
                legal = sorted(legal, reverse=True)
                prefer = 0.9
            i = ch.below(len(legal) + extra, prefer)
            if i >= len(legal):
                return self.illegal_action(state), True
            return Play(seat, legal[i]), False
        if state.phase is Phase.PASSING:
            waiting = state.waiting_for
            i = ch.below(len(waiting) + extra)
            if i >= len(waiting):
                return self.illegal_action(state), True
            seat = waiting[i]
            hand = list(passable(state.hands[seat], state.ruleset))
            prefer = 0.0
            if style == "cancel" or (style == "moon" and plan is not None
                                     and seat in (plan.shooter, plan.feeder)):
                prefer = 0.99 if style == "cancel" else 0.95
            chosen = [hand.pop(ch.below(len(hand), prefer)) for _ in
                      range(state.ruleset.pass_count)]
            return Pass(seat, tuple(sorted(chosen))), False
        if state.phase is Phase.MOON_CHOICE:
            options = state.legal_actions()
            i = ch.below(len(options) + extra)
            if i >= len(options):
                return self.illegal_action(state), True
            return options[i], False
        raise RulesRefError(f"no action to draw in the {state.phase} phase")

    def play_deal(self, scripted: list[tuple[Action, bool]] | None = None) -> None:
        """Play the current deal to its end (scored), drawing or following ``scripted``."""
        session = self.session
        offered = False
        while True:
            state = session.state
            assert state is not None
            if state.phase not in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE):
                return
            if scripted is not None:
                action, illegal = scripted.pop(0)
            else:
                action, illegal = self.next_action(state, offered)
            if illegal:
                self.session.stats.illegal += 1
            accepted = session.act(action)
            offered = not accepted

    def simulate_deal(self, state: GameState) -> tuple[list[tuple[Action, bool]], GameState]:
        """Draw a whole deal on the reference alone: the script and the state after it."""
        script: list[tuple[Action, bool]] = []
        offered = False
        while state.phase in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE):
            action, illegal = self.next_action(state, offered)
            script.append((action, illegal))
            try:
                state, _ = state.apply(action)
                offered = False
            except RulesRefError:
                offered = True
        return script, state

    # --- the game ---

    def run(self) -> None:
        runner = self.runner
        ch = self.ch
        players = runner.player_choices[ch.below(len(runner.player_choices))]
        if runner.fixed_ruleset is not None:
            ruleset = runner.fixed_ruleset
            if players < ruleset.min_players:  # a count the ruleset does not play
                players = min(p for p in runner.player_choices if p >= ruleset.min_players)
        else:
            ruleset = runner.rulesets.draw_for(ch, players)
            if players < ruleset.min_players:  # the adapter plays 5: so does its ruleset
                ruleset = replace(ruleset, min_players=players)
        deal_number = 1 + ch.below(MAX_FIRST_DEAL)
        dealer = ch.below(players)
        first_dealer = (dealer - (deal_number - 1)) % players
        zero = GameState.start(players, ruleset, first_dealer, (0,) * players, deal_number)
        self.plan = self.draw_deal(zero)
        self.offer_illegal = ch.flag(0.5)
        script: list[tuple[Action, bool]] | None = None
        totals: tuple[int, ...] | None = None
        if ch.flag(0.3):
            dealt, _ = zero.apply(self.plan.deal)
            script, end = self.simulate_deal(dealt)
            if end.deal_results:
                totals = self.edge_totals(end.deal_results[-1].scores, ruleset.target)
        if totals is None:
            totals = self.draw_totals(players, ruleset.target)
        deal = self.plan.deal
        self.session.start({
            "type": "start", "players": players, "ruleset": ruleset_to_json(ruleset),
            "deal_number": deal_number, "dealer": dealer, "totals": list(totals),
            "hands": [[CARD_TEXT[c] for c in h] for h in deal.hands],
            "extras": [CARD_TEXT[c] for c in deal.extras]})
        self.play_deal(script)
        deals = 1
        while True:
            runner.tick()
            state = self.session.state
            assert state is not None
            if state.phase is Phase.GAME_OVER or deals >= MAX_DEALS_PER_GAME or not ch.flag(0.7):
                break
            self.plan = self.draw_deal(state)
            self.session.act(self.plan.deal)
            deals += 1
            self.play_deal()
        state = self.session.state
        if self.offer_illegal and state is not None:
            self.session.stats.illegal += 1
            self.session.act(self.illegal_action(state))
            self.session.check_unchanged()
        self.session.flush()
