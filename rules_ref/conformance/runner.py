"""The differential runner behind ``rules-ref conform``.

It drives an implementation through its adapter (``spec/protocol.md``) and
the reference engine side by side, over games that Hypothesis generates,
and compares every observation field by field. A disagreement is shrunk by
Hypothesis to a minimal game (fewest deals and actions), attributed to the
rules it falls under (:mod:`.attribution`) and written as a replay file.

One Hypothesis example is one adapter conversation: a ``start`` (a deal,
with a ruleset, a deal number, a dealer and totals), then actions until the
game ends or a few deals have been played. The adapter process stays alive
for the whole run; it is restarted only after it died or broke the protocol.

Games are built from choices that Hypothesis makes one raw decision at a
time (a switch value, a seat, a card, whether to offer an illegal action),
so shrinking a game shortens it and makes each choice the first candidate,
and Hypothesis cannot splice parts of one long game into another (which
would seldom fit). The deals come from the portable seeded shuffle and from
adversarial deals (identical hands, a suit held in matched pairs, a leader
with only point cards, a seat that can take every trick); the candidate
cards are ordered so that the first ones make something happen. The rare
situations a run went through are counted with :func:`.strategies.rare_paths`.

This module needs Hypothesis (the ``conform`` extra).
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, Verbosity, given, settings
from hypothesis import Phase as HPhase
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Flaky

from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import CARDS, QUEEN_OF_SPADES, Card, Suit, full_deck
from ..deal import extras_count, hand_size, seeded_deal
from ..errors import InputError, RulesRefError, SetupError
from ..passing import pass_direction, pass_offset
from ..registry import rule_ids
from ..ruleset import (
    FirstTrickPoints,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    OpeningLead,
    PassDirection,
    Ruleset,
    presets,
)
from ..serialize import ruleset_to_json
from ..state import GameState, Phase
from .adapter import SWITCHES, start_message, start_state
from .observation import CARD_TEXT
from .observation import PROTOCOL_VERSIONS as PROTOCOL_VERSIONS
from .process import (
    DEFAULT_TIMEOUT,
    AdapterFault,
    AdapterProcess,
)
from .process import Supports as Supports
from .process import parse_supports as parse_supports
from .process import switch_values as _switch_values
from .session import COUNTS, Failure, FoundFailure, Session, Stats, describe_action

_rare_paths: Callable[..., tuple[str, ...]] | None
RARE_PATHS: tuple[str, ...]
try:
    from .strategies import RARE_PATHS
    from .strategies import rare_paths as _rare_paths
except ImportError:  # pragma: no cover - the module ships with the package
    _rare_paths, RARE_PATHS = None, ()

REPLAY_FORMAT = "cancellation-hearts-conform-replay"
REPLAY_VERSION = 1

#: At most this many deals in one conversation (one Hypothesis example).
MAX_DEALS_PER_GAME = 4
#: Deal numbers of a game's first deal are drawn from 1 to this.
MAX_FIRST_DEAL = 8
SHRINK_SECONDS_MIN = 10.0


# --- rulesets and deals ---------------------------------------------------------------------


_L, _R, _A, _H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD
#: For a switch an adapter supports with any value: the values drawn, the default
#: first; ``None`` stands for a random integer of the switch's range.
_ANY_VALUES: dict[str, list[Any]] = {
    "pass_count": [3, 2, 1, 4, 5, 6, 7, 8, 9],
    "pass_cycle": [(_L, _R), (_H,), (_R,), (_L,), (_L, _R, _A, _H), (_A,), (_R, _L, _H)],
    "opening_lead": list(OpeningLead),
    "first_trick_points": list(FirstTrickPoints),
    "hearts_broken_by": list(HeartsBrokenBy),
    "last_trick_void": list(LastTrickVoid),
    "moon": list(Moon),
    "ten_of_diamonds_points": [0, -10, 10, -1],
    "target": [150, 100, 50, 26, 13, 1, None],
}
_TARGET_RANGE = 300


class RulesetDrawer:
    """Rulesets inside what an adapter supports, drawn one raw choice per switch.

    A preset (every preset the adapter supports, the default first) or a mix
    of switch values; shrinks toward the default ruleset. Raw choices, not
    nested strategies, keep Hypothesis from splicing one game's ruleset into
    another (a game is long, and a spliced one seldom fits its choices).
    """

    def __init__(self, supports: Supports) -> None:
        default = Ruleset()
        self.values: list[tuple[str, list[Any]]] = []
        for name in SWITCHES:
            declared = supports.switches.get(name)
            base = getattr(default, name)
            if declared == "any":
                values = list(_ANY_VALUES[name])
            elif declared is None:
                values = [base]
            else:
                values = _switch_values(name, declared)
                if base in values:
                    values.remove(base)
                    values.insert(0, base)
            self.values.append((name, values))
        self.presets = [rs for rs in presets().values() if not supports.allows(rs)]

    def draw(self, ch: Chooser) -> Ruleset:
        if self.presets and not ch.flag(0.65):
            return self.presets[ch.below(len(self.presets))]
        chosen: dict[str, Any] = {}
        for name, values in self.values:
            value = values[ch.below(len(values), prefer=0.5)]
            if value is None:
                value = 1 + ch.below(_TARGET_RANGE)
            chosen[name] = value
        return Ruleset(**chosen)


def _dealt(hands: Sequence[Sequence[Card]], extras: Sequence[Card]) -> DealCards:
    return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))


def _fill(hands: list[list[Card]], rest: list[Card], size: int) -> DealCards:
    """Fill every hand up to ``size`` from ``rest`` in order; what is left is the extras."""
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    return _dealt(hands, rest)


def mirror_deal(players: int, seed: int) -> DealCards:
    """Seats ``s`` and ``s + ⌊n/2⌋`` hold identical hands (an odd seat out holds the rest).

    With partners copying each other, whole tricks cancel (``TRICK.CANCEL``,
    ``VOID.TRICK``), the last one too (``VOID.LAST``).
    """
    size = hand_size(players)
    pairs = players // 2
    rng = random.Random(seed)
    distinct = list(CARDS)
    rng.shuffle(distinct)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(pairs):
        part = distinct[k * size:(k + 1) * size]
        hands[k] = list(part)
        hands[k + pairs] = list(part)
    rest = distinct[pairs * size:] * 2
    rng.shuffle(rest)
    if players % 2:
        hands[players - 1] = rest[:size]
        rest = rest[size:]
    return _dealt(hands, rest)


def cancelling_suit_deal(players: int, seed: int) -> DealCards:
    """One suit held only as matched pairs: partners hold the same cards of it, nobody else any."""
    size = hand_size(players)
    rng = random.Random(seed)
    suit = Suit(rng.randrange(4))
    count = rng.randint(-(-13 // size), players // 2)
    seats = list(range(players))
    rng.shuffle(seats)
    ranks = [c for c in CARDS if c.suit == suit]
    rng.shuffle(ranks)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(count):
        group = ranks[k::count]
        hands[seats[2 * k]] = list(group)
        hands[seats[2 * k + 1]] = list(group)
    rest = [c for c in full_deck() if c.suit != suit]
    rng.shuffle(rest)
    return _fill(hands, rest, size)


def penalty_leader_deal(players: int, leader: int, seed: int) -> DealCards:
    """``leader`` holds only hearts and Q♠, its neighbours most of the rest of them.

    So the opening lead may be any card (``LEAD.OPENING_CARD``), and a later
    lead while hearts are unbroken must be a Q♠ (``LEAD.HEARTS``).
    """
    size = hand_size(players)
    rng = random.Random(seed)
    penalty = [c for c in full_deck() if c.suit == Suit.H or c == QUEEN_OF_SPADES]
    others = [c for c in full_deck() if not (c.suit == Suit.H or c == QUEEN_OF_SPADES)]
    rng.shuffle(penalty)
    rng.shuffle(others)
    order = [leader, (leader - 1) % players, (leader + 1) % players]
    order += [s for s in range(players) if s not in order]
    pool = penalty + others
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k, seat in enumerate(order):
        hands[seat] = pool[k * size:(k + 1) * size]
    return _dealt(hands, pool[players * size:])


def forced_heart_deal(players: int, leader: int, seed: int) -> DealCards:
    """``leader`` holds the A♣ (both, or one with the other among the extras) and hearts.

    It wins its club leads and is then left with only hearts, maybe while
    hearts are unbroken (``LEAD.HEARTS``).
    """
    size = hand_size(players)
    rng = random.Random(seed)
    ace = CARDS[12]
    aces = 1 if extras_count(players) else 2
    hearts = [c for c in full_deck() if c.suit == Suit.H]
    rng.shuffle(hearts)
    hand = [ace] * aces + hearts[:size - aces]
    rest = [c for c in full_deck() if c.suit != Suit.H and c != ace] + hearts[size - aces:]
    rng.shuffle(rest)
    if aces == 1:
        rest.append(ace)  # dealt last: among the extras
    hands: list[list[Card]] = [[] for _ in range(players)]
    hands[leader] = hand
    seats = [s for s in range(players) if s != leader]
    for k, seat in enumerate(seats):
        hands[seat] = rest[k * size:(k + 1) * size]
    return _dealt(hands, rest[(players - 1) * size:])


def moon_deal(players: int, dealer: int, deal_number: int, ruleset: Ruleset,
              seed: int) -> tuple[DealCards, int, int | None] | None:
    """A deal in which the opening leader can take every trick: ``(deal, shooter, feeder)``.

    The shooter (left of the dealer) holds the highest clubs, both copies of
    each; the feeder, the seat that passes to the shooter, holds the lowest
    clubs, so that a pass of its lowest cards hands the shooter only clubs
    that nobody can beat once the others are out of clubs. The remaining
    clubs go to the extras first. ``None`` when the opening lead cannot be
    the shooter's (a 2♣ opening with no room for both 2♣ among the extras).
    """
    n = players
    size = hand_size(n)
    room = extras_count(n)
    shooter = (dealer + 1) % n
    two_clubs = ruleset.opening_lead is OpeningLead.TWO_OF_CLUBS
    if two_clubs and room < 2:
        return None
    offset = pass_offset(pass_direction(deal_number, ruleset), n)
    feeder = None if offset is None else (shooter - offset) % n
    rng = random.Random(seed)
    clubs = [c for c in reversed(CARDS) if c.suit == Suit.C for _ in range(2)]
    hands: list[list[Card]] = [[] for _ in range(n)]
    extras: list[Card] = []
    hands[shooter] = clubs[:size]
    low = clubs[size:]
    if two_clubs:
        low = low[:-2]
        extras = list(clubs[-2:])
    if feeder is not None and feeder != shooter:
        take = low[-size:]
        hands[feeder] = list(take)
        low = low[:len(low) - len(take)]
    space = room - len(extras)
    extras.extend(low[:space])
    low = low[space:]
    avoid = {shooter, feeder}
    if feeder is not None and offset is not None:
        avoid.add((feeder - offset) % n)
    others = [s for s in range(n) if s not in avoid] or [s for s in range(n) if s != shooter]
    rng.shuffle(others)
    for i, c in enumerate(low):
        hands[others[i % len(others)]].append(c)
    rest = [c for c in full_deck() if c.suit != Suit.C]
    rng.shuffle(rest)
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    extras.extend(rest)
    deal = DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))
    return deal, shooter, feeder


# --- choices --------------------------------------------------------------------------------


class Chooser:
    """The decisions of one game, drawn from Hypothesis one integer at a time.

    Every decision shrinks toward 0, the first candidate. ``prefer`` puts
    that much probability on the first candidate while generating (the
    planned or adversarial choice), the rest spread over the others.
    """

    def __init__(self, data: Any) -> None:
        self._data = data
        conjecture = getattr(data, "conjecture_data", None)
        raw = getattr(conjecture, "draw_integer", None)
        self._raw: Callable[..., int] | None = raw if callable(raw) else None

    def below(self, n: int, prefer: float = 0.0) -> int:
        """A number from 0 to ``n - 1`` (0 without a draw when ``n`` is 1)."""
        if n <= 1:
            return 0
        if self._raw is not None:
            if prefer > 0.0:
                return self._raw(0, n - 1, weights={0: prefer})
            return self._raw(0, n - 1)
        value: int = self._data.draw(st.integers(0, n - 1))
        return value

    def pick(self, n: int, weights: dict[int, float]) -> int:
        """A number from 0 to ``n - 1``, drawn with these probabilities while generating."""
        if self._raw is not None:
            return self._raw(0, n - 1, weights=weights)
        return self.below(n)

    def flag(self, p: float) -> bool:
        """True with probability ``p`` while generating; shrinks to False."""
        return self.below(2, prefer=1.0 - p) == 1


class _Stop(KeyboardInterrupt):
    """Ends the search at once (time budget, another job found a failure).

    A :class:`KeyboardInterrupt`, because that is what Hypothesis lets through
    at once, without recording the example as a result of the game.
    """


class _Abort(KeyboardInterrupt):
    """An adapter fault that shrinking cannot help with (a timeout); see :class:`_Stop`."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.summary)
        self.failure = failure


# --- one conversation ------------------------------------------------------------------------


def _position(state: GameState) -> dict[str, Any]:
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


# --- drawing a game -----------------------------------------------------------------------


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

    def __init__(self, runner: Runner, chooser: Chooser, session: Session) -> None:
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
        d = seeded_deal(seed, n, number, dealer)
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
            hand = list(state.hands[seat])
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
        else:
            ruleset = runner.rulesets.draw(ch)
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


# --- the search -----------------------------------------------------------------------------


@dataclass
class Config:
    """What ``rules-ref conform`` was asked to do."""

    command: list[str]
    examples: int = 100
    max_seconds: float = 60.0
    seed: int = 0
    players: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = 1
    ruleset: Ruleset | None = None
    shrink_seconds: float | None = None  # None: half of max_seconds, at least SHRINK_SECONDS_MIN
    #: Actions per batch request; None: :data:`.session.BATCH_SIZE` when the adapter
    #: declares batches, 0: one action request each (as in protocol version 1).
    batch: int | None = None
    #: The protocol versions offered in the hello.
    versions: tuple[int, ...] = PROTOCOL_VERSIONS

    @property
    def shrink_budget(self) -> float:
        if self.shrink_seconds is not None:
            return self.shrink_seconds
        return max(SHRINK_SECONDS_MIN, self.max_seconds / 2)


@dataclass
class Outcome:
    """The result of a search or a replay."""

    stats: Stats
    seconds: float
    supports: Supports | None = None
    failure: Failure | None = None
    fault: AdapterFault | None = None
    notes: list[str] = field(default_factory=list)
    stopped: str = ""  # why the search ended early ("time", "")
    examples_run: int = 0


class Runner:
    """One search: an adapter process, a Hypothesis run, and what it found."""

    def __init__(self, config: Config, examples: int | None = None, seed: int | None = None,
                 on_progress: Callable[[Stats, float], None] | None = None,
                 should_stop: Callable[[], bool] | None = None,
                 on_first_failure: Callable[[], None] | None = None) -> None:
        self.config = config
        self.examples = config.examples if examples is None else examples
        self.seed = config.seed if seed is None else seed
        self.stats = Stats()
        self.notes: list[str] = []
        self.proc: AdapterProcess | None = None
        self.supports: Supports | None = None
        self.fixed_ruleset = config.ruleset
        self.player_choices: tuple[int, ...] = ()
        self.rulesets = RulesetDrawer(Supports("", (), {}))
        self.known_rules = frozenset(rule_ids())
        self.best: Failure | None = None
        self.last: Failure | None = None
        self.first_failure_at: float | None = None
        self.started = time.monotonic()
        self._on_progress = on_progress
        self._should_stop = should_stop
        self._on_first_failure = on_first_failure
        self._last_tick = 0.0
        self.examples_run = 0

    # --- the adapter ---

    def connect(self) -> Supports:
        """Start the adapter and check its handshake (faults raise :class:`AdapterFault`)."""
        self.proc = AdapterProcess(self.config.command, self.config.timeout)
        hello = self.proc.hello(self.config.versions)
        try:
            supports = parse_supports(hello)
        except AdapterFault as fault:
            raise self.proc.fault(fault.kind, fault.detail) from None
        if self.supports is None:
            self.supports = supports
            self._configure(supports)
        return supports

    def _configure(self, supports: Supports) -> None:
        wanted = self.config.players
        if wanted is not None:
            if wanted not in supports.players:
                raise InputError(f"the adapter does not support {wanted} players (it supports "
                                 f"{', '.join(map(str, supports.players))})")
            self.player_choices = (wanted,)
        else:
            self.player_choices = supports.players
        if self.fixed_ruleset is not None:
            outside = supports.allows(self.fixed_ruleset)
            if outside:
                raise InputError(f"the adapter does not support the ruleset asked for: "
                                 f"{', '.join(outside)} (it declares "
                                 f"{supports.switches or 'only the default values'})")
        else:
            self.rulesets = RulesetDrawer(supports)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None

    def _ensure_adapter(self) -> AdapterProcess:
        if self.proc is None or not self.proc.alive():
            if self.proc is not None:
                self.proc.close()
            self.stats.restarts += 1
            self.connect()
        assert self.proc is not None
        return self.proc

    # --- progress and budget ---

    def tick(self, force: bool = False) -> None:
        now = time.monotonic()
        if self._on_progress is not None and (force or now - self._last_tick > 0.2):
            self._last_tick = now
            self._on_progress(self.stats, now - self.started)

    def _check_budget(self) -> None:
        now = time.monotonic()
        if self.first_failure_at is not None:
            if now - self.first_failure_at > self.config.shrink_budget:
                raise _Stop("shrink-time")
            return
        if now - self.started > self.config.max_seconds:
            raise _Stop("time")
        if self._should_stop is not None and self._should_stop():
            raise _Stop("stopped")

    # --- one example ---

    def _record(self, failure: Failure) -> None:
        self.last = failure
        if self.best is None or failure.size < self.best.size:
            self.best = failure
        if self.first_failure_at is None:
            self.first_failure_at = time.monotonic()
            if self._on_first_failure is not None:
                self._on_first_failure()

    def example(self, data: Any) -> None:
        """One Hypothesis example: one conversation with the adapter."""
        self._check_budget()
        self.examples_run += 1
        try:
            proc = self._ensure_adapter()
        except AdapterFault as fault:
            raise _Abort(Failure(kind="fault", rules=[], summary=str(fault), start={},
                                 actions=[], failing=None, position={}, expected={}, actual={},
                                 fault=fault.to_json())) from None
        self.stats.games += 1
        session = Session(proc, self.stats, self.known_rules, position=_position,
                          batch=self.config.batch)
        conversation = Conversation(self, Chooser(data), session)
        try:
            conversation.run()
        except FoundFailure as found:
            self._record(found.failure)
            raise
        except AdapterFault as fault:
            failure = session.fault_failure(fault)
            self.close()
            if fault.kind in ("timeout", "start", "handshake"):
                raise _Abort(failure) from None
            self._record(failure)
            raise FoundFailure(failure) from None
        finally:
            session.abandon()
            for note in session.notes:
                if len(self.notes) < 5:
                    self.notes.append(note)

    def search(self) -> Outcome:
        """Run the search; the adapter must be connected (:meth:`connect`)."""
        stopped = ""

        @hypothesis_seed(self.seed)
        @settings(max_examples=self.examples, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                  phases=(HPhase.generate, HPhase.shrink), report_multiple_bugs=False,
                  derandomize=False)
        @given(st.data())
        def conform(data: Any) -> None:
            self.example(data)

        failure: Failure | None = None
        try:
            with fewer_collections():
                conform()
        except FoundFailure:
            failure = self.last
        except Flaky:
            failure = self.best
            if failure is not None:
                failure.note = ("the failure did not happen again when the same game was "
                                "replayed: the implementation may keep state between games")
        except _Abort as abort:
            failure = abort.failure
        except _Stop as stop:
            stopped = str(stop)
            failure = self.best
            if failure is not None and stopped == "shrink-time":
                failure.note = "shrinking stopped at the time limit; the game may not be minimal"
        if failure is not None and failure.batched:
            failure = self._pinpoint(failure)
        self.tick(force=True)
        return Outcome(self.stats, time.monotonic() - self.started, self.supports, failure,
                       notes=self.notes, stopped=stopped if failure is None else "",
                       examples_run=self.examples_run)

    def _pinpoint(self, failure: Failure) -> Failure:
        """A fault during a batch, found again one action per request: at its very action.

        The game is played again on a fresh adapter without batches; if the
        fault comes again (an adapter that crashes on a play, say), that report
        names the action. A fault of the batch itself, or a timeout, stays as
        it was.
        """
        kind = (failure.fault or {}).get("kind")
        if kind in ("batch", "capability", "timeout") or not failure.start:
            return failure
        from ..serialize import action_from_json

        self.close()  # the adapter broke the protocol: the replay starts its own
        config = replace(self.config, batch=0)
        actions = [action_from_json(a) for a in failure.actions]
        again = run_replay(config, failure.start, actions)
        found = again.failure
        if found is None or found.kind != "fault":
            return failure
        found.note = failure.note
        return found


@contextlib.contextmanager
def fewer_collections(young: int = 20_000) -> Any:
    """Collect garbage less often while a search runs (restored afterwards).

    A search makes many short-lived objects (states, observations, answers)
    and few cycles; with the default threshold the collector, and the
    callbacks Hypothesis hangs on it, ran thousands of times a second. The
    objects alive before the search are frozen out of the collector's scans.
    """
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(old[0], young), old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def run_search(config: Config, on_progress: Callable[[Stats, float], None] | None = None
               ) -> Outcome:
    """``rules-ref conform`` in this process: connect, search, always close the adapter."""
    runner = Runner(config, on_progress=on_progress)
    try:
        try:
            runner.connect()
        except AdapterFault as fault:
            return Outcome(runner.stats, time.monotonic() - runner.started, None, fault=fault)
        return runner.search()
    finally:
        runner.close()


# --- parallel jobs --------------------------------------------------------------------------


def job_seed(seed: int, index: int) -> int:
    """The Hypothesis seed of job ``index`` of a run with ``seed``."""
    return seed * 64 + index


def _job_main(config: Config, index: int, examples: int, counters: Any, stop: Any,
              results: Any) -> None:
    import signal

    def on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    base = index * len(COUNTS)

    def progress(stats: Stats, seconds: float) -> None:
        for k, name in enumerate(COUNTS):
            counters[base + k] = getattr(stats, name)

    runner = Runner(config, examples=examples, seed=job_seed(config.seed, index),
                    on_progress=progress, should_stop=stop.is_set, on_first_failure=stop.set)
    result: dict[str, Any]
    try:
        try:
            supports = runner.connect()
        except AdapterFault as fault:
            result = {"fault": fault.to_json(), "stats": {}}
        else:
            outcome = runner.search()
            result = {"stats": {name: getattr(outcome.stats, name) for name in COUNTS},
                      "rare": dict(outcome.stats.rare),
                      "failure": None if outcome.failure is None else outcome.failure.to_json(),
                      "notes": outcome.notes, "stopped": outcome.stopped,
                      "examples_run": outcome.examples_run,
                      "supports": {"name": supports.name, "players": list(supports.players),
                                   "switches": supports.switches, "version": supports.version,
                                   "capabilities": list(supports.capabilities)}}
    except InputError as exc:
        result = {"error": str(exc), "stats": {}}
    except KeyboardInterrupt:
        result = {"error": "interrupted", "stats": {}}
    finally:
        runner.close()
    # JSON text, so that what crosses between the processes is plain data.
    results.put((index, _json_line(result)))


def run_jobs(config: Config, on_progress: Callable[[Stats, float], None] | None = None
             ) -> Outcome:
    """``rules-ref conform --jobs N``: N processes, each with its own adapter and seed slice."""
    import multiprocessing as mp
    import queue as queue_mod

    ctx = mp.get_context("fork")
    jobs = config.jobs
    width = len(COUNTS)
    counters = ctx.Array("q", jobs * width, lock=False)
    stop = ctx.Event()
    results = ctx.Queue()
    started = time.monotonic()
    share = [config.examples // jobs + (1 if i < config.examples % jobs else 0)
             for i in range(jobs)]
    procs = [ctx.Process(target=_job_main, args=(config, i, max(1, share[i]), counters, stop,
                                                 results), daemon=True)
             for i in range(jobs)]
    got: dict[int, dict[str, Any]] = {}
    try:
        for p in procs:
            p.start()
        while len(got) < jobs:
            try:
                index, text = results.get(timeout=0.2)
                got[index] = json.loads(text)
            except queue_mod.Empty:
                if not any(p.is_alive() for p in procs) and results.empty():
                    break
            if on_progress is not None:
                total = Stats()
                for i in range(jobs):
                    total.add(Stats(*counters[i * width:(i + 1) * width]))
                on_progress(total, time.monotonic() - started)
        for p in procs:
            p.join(timeout=5)
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
    return merge_jobs(got, jobs, time.monotonic() - started)


def merge_jobs(got: dict[int, dict[str, Any]], jobs: int, seconds: float) -> Outcome:
    """One outcome from the jobs' results: summed counts, the smallest failure."""
    stats = Stats()
    failures: list[Failure] = []
    notes: list[str] = []
    supports: Supports | None = None
    fault: AdapterFault | None = None
    stopped = ""
    examples_run = 0
    for index in range(jobs):
        result = got.get(index)
        if result is None:
            raise RulesRefError(f"conform job {index} ended without a result")
        if "error" in result:
            raise InputError(result["error"])
        if result.get("fault") is not None:
            f = result["fault"]
            fault = AdapterFault(f["kind"], f["message"], f.get("stdout", []),
                                 f.get("stderr", ""), f.get("exit_status"))
            continue
        stats.add(Stats(**result["stats"], rare=Counter(result.get("rare", {}))))
        examples_run += result.get("examples_run", 0)
        if result.get("failure") is not None:
            failures.append(Failure.from_json(result["failure"]))
        notes.extend(result.get("notes", []))
        stopped = stopped or result.get("stopped", "")
        if supports is None and result.get("supports"):
            s = result["supports"]
            supports = Supports(s["name"], tuple(s["players"]), s["switches"],
                                s.get("version", 1), tuple(s.get("capabilities", ())))
    failure = None
    if failures:
        faults = [f for f in failures if f.kind == "disagreement"] or failures
        failure = min(faults, key=lambda f: f.size)
    return Outcome(stats, seconds, supports, failure, fault, notes[:5],
                   stopped if failure is None else "", examples_run)


# --- replay ---------------------------------------------------------------------------------


def replay_document(failure: Failure, config: Config, supports: Supports | None) -> dict[str, Any]:
    """The replay file of a failure (``--replay``)."""
    return {
        "format": REPLAY_FORMAT, "version": REPLAY_VERSION,
        "kind": failure.kind, "rules": failure.rules, "summary": failure.summary,
        "adapter": supports.name if supports is not None else "",
        "seed": config.seed,
        "start": failure.start, "actions": failure.actions,
        "position": failure.position,
        "expected": failure.expected, "actual": failure.actual,
        "fields": failure.fields, "others": failure.others,
        "expected_answer": failure.reference,
        "fault": failure.fault,
    }


#: At most this many actions in a replay file (a conformance game has a few hundred).
MAX_REPLAY_ACTIONS = 10_000


def read_replay(data: object, where: str) -> tuple[dict[str, Any], list[Action]]:
    """The start message and the actions of a replay document, checked.

    Only ``format``, ``version``, ``start`` and ``actions`` are read; the
    start is rebuilt from its checked fields (so nothing but the protocol's
    fields is sent), and it must be a game the reference can set up.
    """
    from ..serialize import action_from_json

    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise InputError(f"{where}: not a {REPLAY_FORMAT} file (no \"format\": "
                         f"\"{REPLAY_FORMAT}\")")
    if data.get("version") != REPLAY_VERSION or type(data.get("version")) is not int:
        raise InputError(f"{where}: replay version {data.get('version')!r:.20} is not "
                         f"{REPLAY_VERSION}")
    if "start" not in data:
        raise InputError(f"{where}: missing start")
    start = start_message(data["start"], f"{where}.start")
    try:
        start_state(start, f"{where}.start")
    except SetupError as exc:
        raise InputError(f"{where}.start: {exc}") from None
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise InputError(f"{where}.actions: expected a list of actions")
    if len(raw) > MAX_REPLAY_ACTIONS:
        raise InputError(f"{where}.actions: {len(raw)} actions, more than {MAX_REPLAY_ACTIONS}")
    return start, [action_from_json(a, f"{where}.actions[{i}]") for i, a in enumerate(raw)]


def run_replay(config: Config, start: dict[str, Any], actions: list[Action]) -> Outcome:
    """Play a replay file's game against the adapter; the first disagreement is the outcome."""
    stats = Stats()
    began = time.monotonic()
    proc: AdapterProcess | None = None
    supports: Supports | None = None
    session: Session | None = None
    try:
        proc = AdapterProcess(config.command, config.timeout)
        supports = parse_supports(proc.hello(config.versions))
        stats.games = 1
        session = Session(proc, stats, frozenset(rule_ids()), check_every=1,
                          position=_position, batch=config.batch)
        session.start(start)
        for action in actions:
            session.act(action)
        session.flush()
    except FoundFailure as found:
        return Outcome(stats, time.monotonic() - began, supports, found.failure,
                       notes=session.notes if session else [])
    except AdapterFault as fault:
        if session is not None and session.start_msg:
            return Outcome(stats, time.monotonic() - began, supports,
                           session.fault_failure(fault), fault=fault)
        return Outcome(stats, time.monotonic() - began, supports, fault=fault)
    finally:
        if proc is not None:
            proc.close()
    return Outcome(stats, time.monotonic() - began, supports,
                   notes=session.notes if session else [])


# --- reports --------------------------------------------------------------------------------


def _json_line(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def format_failure(failure: Failure) -> list[str]:
    """The report of a failure, as lines of text."""
    lines = []
    deals, actions = failure.size
    what = {"fault": "ADAPTER FAULT during a game",
            "error": "INTERNAL ERROR reported by the implementation"}.get(failure.kind,
                                                                          "DISAGREEMENT")
    lines.append(f"{what} (the game: {deals} deal(s), {actions} action(s) after the start)")
    if failure.rules:
        lines.append(f"  rule(s): {', '.join(failure.rules)}   (see: rules-ref rules "
                     f"{failure.rules[0]})")
    lines.append(f"  {failure.summary}")
    pos = failure.position
    if pos:
        where = (f"  position: {pos.get('players')} players, ruleset {pos.get('ruleset')}, "
                 f"deal {pos.get('deal_number')} (dealer {pos.get('dealer')}), "
                 f"phase {pos.get('phase')}")
        if pos.get("trick_number") is not None:
            where += f", trick {pos['trick_number']}"
        if pos.get("to_act") is not None:
            where += f", seat {pos['to_act']} to act"
        lines.append(where)
        if pos.get("hands"):
            lines.append("  hands:")
            for seat, hand in enumerate(pos["hands"]):
                lines.append(f"    seat {seat}: {' '.join(hand) or '-'}")
        if pos.get("phase") == "playing":
            lines.append(f"  trick so far (led by seat {pos.get('leader')}): "
                         f"{' '.join(pos.get('trick', [])) or '-'}")
        if pos.get("pending"):
            lines.append(f"  pending: {' '.join(pos['pending'])}")
        lines.append(f"  totals: {pos.get('totals')}")
    lines.append(f"  action: {describe_action(failure.failing)}"
                 + (f"   {_json_line(failure.failing)}" if failure.failing else ""))
    if failure.kind == "fault" and failure.fault:
        f = failure.fault
        lines.append(f"  fault: {f.get('kind')}: {f.get('message')}")
    elif failure.fields or failure.others:
        for name in failure.fields + failure.others:
            tag = "" if name in failure.fields else " (consequence)"
            lines.append(f"  {name}{tag}:")
            lines.append(f"    reference:      {_json_line(failure.expected.get(name))}")
            lines.append(f"    implementation: {_json_line(failure.actual.get(name))}")
    else:
        lines.append(f"  reference:      {_json_line(failure.expected)}")
        lines.append(f"  implementation: {_json_line(failure.actual)}")
    if failure.note:
        lines.append(f"  note: {failure.note}")
    return lines


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else math.inf


def summary_dict(outcome: Outcome, config: Config, verdict: str,
                 replay_path: str | None = None) -> dict[str, Any]:
    s = outcome.stats
    out: dict[str, Any] = {
        "verdict": verdict,
        "adapter": outcome.supports.name if outcome.supports else None,
        "seed": config.seed,
        "games": s.games, "deals": s.deals, "actions_compared": s.actions,
        "illegal_offered": s.illegal, "rule_citations_differing": s.citations,
        "adapter_restarts": s.restarts,
        "seconds": round(outcome.seconds, 3),
        "deals_per_second": round(rate(s.deals, outcome.seconds), 1),
        "actions_per_second": round(rate(s.actions, outcome.seconds), 1),
        "examples": config.examples, "jobs": config.jobs,
        "players": [config.players] if config.players else (
            list(outcome.supports.players) if outcome.supports else []),
        "ruleset": config.ruleset.to_dict() if config.ruleset else "drawn",
        "stopped": outcome.stopped or None,
        "notes": outcome.notes,
        "rare_paths": {name: s.rare.get(name, 0) for name in RARE_PATHS},
    }
    if outcome.failure is not None:
        out["failure"] = outcome.failure.to_json()
        out["rules"] = outcome.failure.rules
    if outcome.fault is not None and outcome.failure is None:
        out["fault"] = outcome.fault.to_json()
    if replay_path is not None:
        out["replay"] = replay_path
    return out


def env_seed() -> int:
    """A fresh seed for a run that was not given one."""
    return int.from_bytes(os.urandom(4), "big")
