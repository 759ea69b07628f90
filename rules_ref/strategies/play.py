"""Playing a deal in property tests: policies, playing out, and whole starting positions.

A :class:`Policy` chooses legal actions from a seeded generator (some
styles biased toward cancelling plays); :func:`play_out` plays a deal to
its end with one. :func:`deal_positions` draws a game set up part-way, a
deal and a policy that suits it (:data:`DEAL_KINDS`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from .. import events as ev
from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import (
    Card,
)
from ..errors import InputError
from ..passing import passable
from ..players.policy import choose as reference_choose
from ..ruleset import (
    PassDirection,
    Ruleset,
)
from ..state import GameState
from ..state_parts import IN_DEAL, Phase
from .deals import (
    cancelling_suit_deals,
    explicit_deals,
    forced_heart_deals,
    mirrored_deals,
    mirrored_exact_deals,
    moon_deals,
    opening_lead_deals,
    penalty_leader_deals,
)
from .setups import dealers, near_target_totals, player_counts, rulesets

#: The ways a :class:`Policy` can choose.
POLICY_STYLES = ("uniform", "cancelling", "reference", "mixed")

#: What chooses the next action of a game from its state (a :class:`Policy` is one).
ActionChooser = Callable[[GameState], Action]
Observer = Callable[[GameState, Action, GameState, tuple[ev.Event, ...]], None]


class Policy:
    """Chooses a legal action for whoever is to act, from a seeded random generator.

    Styles (:data:`POLICY_STYLES`):

    * ``uniform``: any legal action, uniformly.
    * ``cancelling``: biased toward duplicates. A seat plays the card its
      mirror partner (a seat whose hand was identical) played to this trick,
      else, usually, a legal card identical to one already in the trick; it
      leads, usually, a card whose twin another seat holds; it passes what
      a seat with an identical hand passed.
    * ``reference``: the built-in player :func:`rules_ref.players.policy.choose`.
    * ``mixed``: one of the above, drawn for each action.
    """

    def __init__(self, style: str = "uniform", seed: int = 0) -> None:
        if style not in POLICY_STYLES:
            raise InputError(f"unknown policy style {style!r}; known: {', '.join(POLICY_STYLES)}")
        self.style = style
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"Policy({self.style!r}, seed={self.seed})"

    def __call__(self, state: GameState) -> Action:
        style = self.style
        if style == "mixed":
            style = self.rng.choice(POLICY_STYLES[:3])
        if style == "reference":
            return reference_choose(state, self.rng)
        seat = state.to_act
        if seat is None:
            raise InputError(f"nobody is to act in the {state.phase} phase")
        if state.phase is Phase.PASSING:
            return self._pass(state, seat, style == "cancelling")
        if state.phase is Phase.MOON_CHOICE:
            return ChooseMoon(seat, self.rng.choice((MoonChoice.SUBTRACT, MoonChoice.ADD)))
        plays = state.legal_plays()
        if style == "cancelling":
            card = self._cancelling_play(state, seat, plays)
            if card is not None:
                return Play(seat, card)
        return Play(seat, self.rng.choice(plays))

    def _pass(self, state: GameState, seat: int, mirror: bool) -> Pass:
        hand = state.hands[seat]
        if mirror:
            for other, given in enumerate(state.passes):
                if given is not None and state.hands[other] == hand:
                    return Pass(seat, given)
        allowed = passable(hand, state.ruleset)
        return Pass(seat, tuple(sorted(self.rng.sample(allowed, state.ruleset.pass_count))))

    def _cancelling_play(self, state: GameState, seat: int,
                         plays: Sequence[Card]) -> Card | None:
        hand = Counter(state.hands[seat])
        n = state.players
        if not state.trick:
            held = [c for c in plays if any(c in h for s, h in enumerate(state.hands)
                                            if s != seat)]
            return self.rng.choice(held) if held and self.rng.random() < 0.8 else None
        for pos, c in enumerate(state.trick):
            other = (state.leader + pos) % n
            if c in plays and Counter(state.hands[other]) + Counter([c]) == hand:
                return c
        twins = [c for c in plays if c in state.trick]
        return self.rng.choice(twins) if twins and self.rng.random() < 0.9 else None


def policies(styles: Iterable[str] = POLICY_STYLES) -> st.SearchStrategy[Policy]:
    """A :class:`Policy` of one of ``styles`` with a drawn seed (shrinks to ``uniform``, 0)."""
    return st.builds(Policy, st.sampled_from(tuple(styles)), st.integers(0, 2**32 - 1))


def play_out(state: GameState, choose: ActionChooser, observe: Observer | None = None) -> GameState:
    """Play the deal in progress to its end with ``choose``; return the state after it.

    The deal ends when it has been scored (phase ``dealing``, or
    ``game-over`` when the game ended with it). ``observe`` is called with
    ``(before, action, after, events)`` for every action. A state with no
    deal in progress raises :class:`~rules_ref.errors.InputError`.
    """
    if state.phase not in IN_DEAL:
        raise InputError(f"no deal is in progress (phase {state.phase})")
    while state.phase in IN_DEAL:
        action = choose(state)
        after, events = state.apply(action)
        if observe is not None:
            observe(state, action, after, events)
        state = after
    return state


# --- positions -----------------------------------------------------------------------------

#: The kinds of deal :func:`deal_positions` draws, and the policy styles that suit each.
DEAL_KINDS: dict[str, tuple[str, ...]] = {
    "random": ("uniform", "reference", "mixed", "cancelling"),
    "mirrored": ("cancelling", "cancelling", "mixed"),
    "mirrored-exact": ("cancelling",),
    "cancelling-suit": ("cancelling", "cancelling", "mixed"),
    "penalty-leader": ("reference", "uniform", "cancelling"),
    "opening-lead": ("uniform", "reference"),
    "forced-heart": ("uniform", "reference", "cancelling"),
    "moon": ("uniform", "cancelling", "reference"),
}


def _deal_of_kind(kind: str, players: int, leader: int) -> st.SearchStrategy[DealCards]:
    if kind == "random":
        return explicit_deals(players)
    if kind == "mirrored":
        return mirrored_deals(players)
    if kind == "mirrored-exact":
        return mirrored_exact_deals(players)
    if kind == "cancelling-suit":
        return cancelling_suit_deals(players)
    if kind == "penalty-leader":
        return penalty_leader_deals(players, leader)
    if kind == "opening-lead":
        return opening_lead_deals(players, leader)
    if kind == "forced-heart":
        return forced_heart_deals(players, leader)
    return moon_deals(players, leader)


@dataclass(frozen=True, slots=True)
class DealPosition:
    """A game waiting for a deal, the deal, and a policy to play it with.

    ``state`` is in the ``dealing`` phase (``GameState.start`` with the
    drawn setup); ``kind`` names the deal strategy (:data:`DEAL_KINDS`).
    """

    state: GameState
    deal: DealCards
    policy: Policy
    kind: str


@st.composite
def deal_positions(draw: st.DrawFn,
                   ruleset: st.SearchStrategy[Ruleset] | None = None) -> DealPosition:
    """A game set up part-way (any dealer, deal number, totals often near the target) and a deal.

    The deal kind and the policy are drawn together so that adversarial
    deals meet policies that bring their situations about. With the default
    ``ruleset`` strategy, an adversarial deal is dealt under a ruleset
    without passing two times in three, since passing scatters the cards
    that the adversarial deals place; a given ``ruleset`` strategy is used
    as it is.
    """
    kind = draw(st.sampled_from(tuple(DEAL_KINDS)))
    players = draw(player_counts())
    rs = draw(rulesets() if ruleset is None else ruleset)
    if ruleset is None and kind != "random" and draw(st.integers(0, 2)):
        rs = replace(rs, pass_cycle=(PassDirection.HOLD,))
    first_dealer = draw(dealers(players))
    totals = draw(st.none() | near_target_totals(players, rs.target))
    next_deal = draw(st.integers(1, 8))
    state = GameState.start(players, rs, first_dealer, totals, next_deal)
    leader = (state.dealer_of_next_deal + 1) % players
    deal, policy = draw(deals_with_policies(players, leader, kind))
    return DealPosition(state, deal, policy, kind)


def deals_with_policies(players: int, leader: int,
                        kind: str | None = None) -> st.SearchStrategy[tuple[DealCards, Policy]]:
    """A deal of ``kind`` (drawn from :data:`DEAL_KINDS` when ``None``) and a policy suiting it.

    ``leader`` is the seat expected to make the opening lead.
    """
    if kind is not None and kind not in DEAL_KINDS:
        raise InputError(f"unknown deal kind {kind!r}; known: {', '.join(DEAL_KINDS)}")
    return _deals_with_policies(players, leader, kind)


@st.composite
def _deals_with_policies(draw: st.DrawFn, players: int, leader: int,
                         kind: str | None) -> tuple[DealCards, Policy]:
    if kind is None:
        kind = draw(st.sampled_from(tuple(DEAL_KINDS)))
    deal = draw(_deal_of_kind(kind, players, leader))
    style = draw(st.sampled_from(DEAL_KINDS[kind]))
    return deal, Policy(style, draw(st.integers(0, 2**32 - 1)))
