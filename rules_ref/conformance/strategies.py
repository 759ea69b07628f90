"""Hypothesis strategies for Cancellation Hearts: rulesets, deals, tricks and policies.

This module drives Hypothesis (the ``conform`` extra). The property tests in
``tests/properties`` build their games from it, and the differential runner
(``rules-ref conform``) counts the rare paths its games went through with
:func:`rare_paths`.

* :func:`rulesets`, :func:`player_counts`, :func:`dealers`,
  :func:`near_target_totals`: the setup of a game.
* :func:`explicit_deals`: uniform random deals. The adversarial deals make
  the rare situations of the rules common: :func:`mirrored_deals` (seats in
  pairs holding identical hands, so that cards cancel trick after trick),
  :func:`void_first_trick_deals`, :func:`void_last_trick_deals`,
  :func:`cancelling_suit_deals` (a suit held only as matched pairs),
  :func:`penalty_leader_deals` (an opening leader with only hearts and Q♠),
  :func:`opening_lead_deals` (an opening leader with mostly the cards the
  opening-lead rules single out),
  :func:`forced_heart_deals` (a leader left with only hearts while hearts
  are unbroken) and :func:`moon_deals` (one seat able to take every card).
  :func:`any_deals` mixes them all. Every deal strategy produces a
  :class:`~rules_ref.actions.DealCards` that makes up the deck (``DEAL.SOURCE``).
  :func:`deal_positions` draws a whole starting position: setup, deal and
  a policy suited to the deal.
* :func:`trick_cards`: complete tricks, rich in identical cards.
* :class:`Policy` and :func:`policies`: seeded choosers of legal actions,
  some biased toward cancelling plays; :func:`play_out` plays a deal to its
  end with one.
* :func:`rare_paths` and :class:`RarePathTally`: which rare situations a
  step of a game went through, read from its events and states, so that a
  test run can show that it exercised them.

The adversarial deals only make a situation likely (most need a
cancelling policy and a deal without passing); whether it happened is
read from the game itself by :func:`rare_paths`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from hypothesis import strategies as st

from .. import events as ev
from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import (
    CARDS,
    QUEEN_OF_SPADES,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    Card,
    Suit,
    card,
    full_deck,
)
from ..deal import MAX_PLAYERS, MIN_PLAYERS, extras_count, hand_size
from ..errors import InputError
from ..policy import choose as reference_choose
from ..ruleset import (
    MAX_PASS_COUNT,
    FirstTrickPoints,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    OpeningLead,
    PassDirection,
    Ruleset,
    presets,
)
from ..state import GameState, Phase

__all__ = [
    "CANCELLED_LEAD",
    "DEAL_KINDS",
    "FORCED_HEART_LEAD",
    "MOON_ADD",
    "MOON_SUBTRACT",
    "OPENING_EXCEPTION",
    "PARTIAL_CANCEL",
    "PENDING_COLLECTED",
    "POLICY_STYLES",
    "RARE_PATHS",
    "TIE",
    "VOID_FIRST_WITH_EXTRAS",
    "VOID_LAST",
    "VOID_TRICK",
    "VOID_TWICE",
    "Chooser",
    "DealPosition",
    "Observer",
    "Policy",
    "RarePathTally",
    "any_deals",
    "cancelling_suit_deals",
    "deal_positions",
    "dealers",
    "deals_with_policies",
    "explicit_deals",
    "forced_heart_deals",
    "mirrored_deals",
    "moon_deals",
    "near_target_totals",
    "opening_lead_deals",
    "penalty_leader_deals",
    "play_out",
    "player_counts",
    "policies",
    "rare_paths",
    "rulesets",
    "switch_values",
    "trick_cards",
    "void_first_trick_deals",
    "void_last_trick_deals",
]

ACE_OF_CLUBS = card(14, Suit.C)


def _is_penalty(c: Card) -> bool:
    return c.suit == Suit.H or c == QUEEN_OF_SPADES


# --- setup ---------------------------------------------------------------------------------

#: Values each switch is drawn from: enums in full, integers from a range
#: that always includes the published values.
_SWITCH_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "pass_count": st.sampled_from((3, 2)) | st.integers(1, MAX_PASS_COUNT),
    "pass_cycle": st.sampled_from(((PassDirection.LEFT, PassDirection.RIGHT),
                                   (PassDirection.HOLD,))) |
    st.lists(st.sampled_from(PassDirection), min_size=1, max_size=5).map(tuple),
    "opening_lead": st.sampled_from(OpeningLead),
    "first_trick_points": st.sampled_from(FirstTrickPoints),
    "hearts_broken_by": st.sampled_from(HeartsBrokenBy),
    "last_trick_void": st.sampled_from(LastTrickVoid),
    "moon": st.sampled_from(Moon),
    "ten_of_diamonds_points": st.sampled_from((0, -10, 10)) | st.integers(-1000, 1000),
    "target": st.sampled_from((150, 100)) | st.integers(1, 300),
}


def switch_values(name: str, supported: object = "any") -> st.SearchStrategy[Any]:
    """Values of switch ``name``: every value, or only those in ``supported``.

    ``supported`` is an adapter's declaration for the switch
    (``spec/protocol.md``, ``hello``): ``"any"``, or a list of values in
    their JSON form.
    """
    if name not in _SWITCH_STRATEGIES:
        raise InputError(f"unknown switch {name!r}; known: {', '.join(_SWITCH_STRATEGIES)}")
    if supported == "any":
        return _SWITCH_STRATEGIES[name]
    if not isinstance(supported, list | tuple) or not supported:
        raise InputError(f"switch {name}: expected \"any\" or a non-empty list of values, "
                         f"got {supported!r:.60}")
    values = [getattr(Ruleset.from_dict({name: v}, f"switch {name}"), name) for v in supported]
    return st.sampled_from(values)


def rulesets(switches: Mapping[str, object] | None = None) -> st.SearchStrategy[Ruleset]:
    """Rulesets: every preset of ``spec/variants.toml`` and any mix of switch values.

    Shrinks toward the default ruleset (the preset ``spruce``). With
    ``switches`` (an adapter's ``supports.switches``), only rulesets inside
    that set are drawn: a switch left out keeps its default value.
    """
    default = Ruleset()
    if switches is None:
        chosen = {name: _SWITCH_STRATEGIES[name] for name in _SWITCH_STRATEGIES}
    else:
        chosen = {name: switch_values(name, switches[name]) if name in switches
                  else st.just(getattr(default, name)) for name in _SWITCH_STRATEGIES}
    mixed = st.fixed_dictionaries(chosen).map(lambda kw: Ruleset(**kw))
    allowed = [rs for rs in presets().values() if _inside(rs, switches)]
    return st.sampled_from(allowed) | mixed if allowed else mixed


def _inside(rs: Ruleset, switches: Mapping[str, object] | None) -> bool:
    """Is every switch of ``rs`` its default or a value in ``switches``?"""
    if switches is None:
        return True
    default = Ruleset()
    for f in fields(Ruleset):
        value = getattr(rs, f.name)
        if value == getattr(default, f.name):
            continue
        supported = switches.get(f.name)
        if supported == "any":
            continue
        if not isinstance(supported, list | tuple) or value not in [
                getattr(Ruleset.from_dict({f.name: v}), f.name) for v in supported]:
            return False
    return True


def player_counts() -> st.SearchStrategy[int]:
    """A legal player count, 6 to 11 (``PLAYERS.COUNT``)."""
    return st.integers(MIN_PLAYERS, MAX_PLAYERS)


def dealers(players: int) -> st.SearchStrategy[int]:
    """A seat of a ``players``-player game, for the first dealer."""
    return st.integers(0, players - 1)


def near_target_totals(players: int, target: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Totals a deal or two short of ``target``, often all equal (so the game may end tied)."""
    low = max(target - 40, -60)
    high = max(target - 1, low)
    equal = st.integers(low, high).map(lambda t: (t,) * players)
    spread = st.tuples(*[st.integers(low, high)] * players)
    return equal | spread


# --- deals ---------------------------------------------------------------------------------


def _deal_cards(hands: Sequence[Sequence[Card]], extras: Sequence[Card]) -> DealCards:
    return DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(extras))


def _split(cards: Sequence[Card], players: int) -> DealCards:
    size = hand_size(players)
    return _deal_cards([cards[i * size:(i + 1) * size] for i in range(players)],
                       cards[players * size:])


def explicit_deals(players: int) -> st.SearchStrategy[DealCards]:
    """Uniformly random deals: the deck shuffled, then cut into hands and extras."""
    return st.permutations(full_deck()).map(lambda deck: _split(deck, players))


@st.composite
def _perturbed(draw: st.DrawFn, deal: DealCards, max_swaps: int) -> DealCards:
    """``deal`` with up to ``max_swaps`` cards exchanged between two hands."""
    hands = [list(h) for h in deal.hands]
    n = len(hands)
    for _ in range(draw(st.integers(0, max_swaps))):
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(0, n - 2))
        b = b + 1 if b >= a else b
        i = draw(st.integers(0, len(hands[a]) - 1))
        j = draw(st.integers(0, len(hands[b]) - 1))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return _deal_cards(hands, deal.extras)


@st.composite
def _mirrored(draw: st.DrawFn, players: int) -> DealCards:
    size = hand_size(players)
    pairs = players // 2
    lone_suit = draw(st.sampled_from(Suit))
    head = draw(st.permutations([c for c in CARDS if c.suit != lone_suit]))
    tail = draw(st.permutations([c for c in CARDS if c.suit == lone_suit]))
    distinct = list(head) + list(tail)
    shift = draw(st.integers(0, players - 1))
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(pairs):
        part = distinct[k * size:(k + 1) * size]
        hands[(k + shift) % players] = list(part)
        hands[(k + pairs + shift) % players] = list(part)
    left = distinct[pairs * size:]
    rest = draw(st.permutations(left + left))
    if players % 2:
        hands[(2 * pairs + shift) % players] = list(rest[:size])
        rest = rest[size:]
    return _deal_cards(hands, rest)


def mirrored_deals(players: int, max_swaps: int = 3) -> st.SearchStrategy[DealCards]:
    """Seats in pairs (seat s and s + ⌊n/2⌋, rotated) holding identical hands.

    Every card a paired seat holds has its twin in the partner's hand, so a
    policy that copies its partner cancels whole tricks (``TRICK.CANCEL``,
    ``VOID.TRICK``). The pairs sit across the table, so passes left, right or
    across keep the hands identical when partners pass alike. With an odd
    count, the unpaired seat holds only cards of one suit (both copies of
    the leftover cards; the rest are the extras), so a lead in another suit
    can still be void. Up to ``max_swaps`` exchanges between hands break
    the symmetry a little (partial cancellation).
    """
    return _mirrored(players).flatmap(lambda d: _perturbed(d, max_swaps))


def void_first_trick_deals(players: int) -> st.SearchStrategy[DealCards]:
    """Mirrored deals with extras (6, 7, 9, 10, 11 players), for a void trick 1 with extras.

    The unpaired seat of an odd count holds a single suit, so a lead in any
    other suit that the pairs cancel is void and the extras join the
    pending pile (``EXTRAS.FIRST_TRICK``).
    """
    if extras_count(players) == 0:
        raise InputError(f"{players} players have no extras")
    return _mirrored(players)


def void_last_trick_deals(players: int) -> st.SearchStrategy[DealCards]:
    """Exactly mirrored deals: with partners copying each other, the last trick is void too."""
    return _mirrored(players)


@st.composite
def cancelling_suit_deals(draw: st.DrawFn, players: int) -> DealCards:
    """One suit held only as matched pairs: for each of its cards, two seats hold one copy each.

    Those seats are paired, and the partners hold the same cards of that
    suit and no other seat holds any of it, so a lead of that suit can
    cancel out entirely (``VOID.TRICK``) when every partner plays the twin.
    """
    size = hand_size(players)
    suit = draw(st.sampled_from(Suit))
    least = -(-13 // size)
    count = draw(st.integers(least, players // 2))
    seats = draw(st.permutations(range(players)))
    ranks = draw(st.permutations([c for c in CARDS if c.suit == suit]))
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k in range(count):
        group = list(ranks[k::count])
        hands[seats[2 * k]] = list(group)
        hands[seats[2 * k + 1]] = list(group)
    rest = list(draw(st.permutations([c for c in full_deck() if c.suit != suit])))
    for hand in hands:
        need = size - len(hand)
        hand.extend(rest[:need])
        rest = rest[need:]
    return _deal_cards(hands, rest)


def _by_seats(order: Sequence[int], pool: Sequence[Card], players: int) -> DealCards:
    size = hand_size(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k, seat in enumerate(order):
        hands[seat] = list(pool[k * size:(k + 1) * size])
    return _deal_cards(hands, pool[players * size:])


@st.composite
def penalty_leader_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds only hearts and Q♠; its neighbours hold most of the rest of them.

    So the opening lead may be any card (``LEAD.OPENING_CARD``), and a pass
    from a neighbour that gets rid of its point cards keeps it so.
    """
    penalty = draw(st.permutations([c for c in full_deck() if _is_penalty(c)]))
    others = draw(st.permutations([c for c in full_deck() if not _is_penalty(c)]))
    rest = draw(st.permutations([s for s in range(players)
                                 if s not in (leader, (leader - 1) % players,
                                              (leader + 1) % players)]))
    order = [leader, (leader - 1) % players, (leader + 1) % players, *rest]
    return _by_seats(order, list(penalty) + list(others), players)


@st.composite
def opening_lead_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds mostly the cards the opening-lead rules single out, and up to two others.

    Those are the hearts, the Q♠, the 10♦ (a scoring card when it counts)
    and the 2♣ (``LEAD.OPENING_CARD`` and the switch ``opening_lead``), so
    that every exception of every opening rule comes up.
    """
    size = hand_size(players)
    special = [c for c in full_deck() if _is_penalty(c) or c in (TEN_OF_DIAMONDS, TWO_OF_CLUBS)]
    plain = [c for c in full_deck() if c not in special]
    others = draw(st.integers(0, 2))
    first = list(draw(st.permutations(special)))
    second = list(draw(st.permutations(plain)))
    hand = first[:size - others] + second[:others]
    rest = list(draw(st.permutations(first[size - others:] + second[others:])))
    seats = draw(st.permutations([s for s in range(players) if s != leader]))
    return _by_seats([leader, *seats], hand + rest, players)


@st.composite
def forced_heart_deals(draw: st.DrawFn, players: int, leader: int) -> DealCards:
    """``leader`` holds the A♣ and otherwise only hearts.

    Both A♣ are the leader's, or one is among the extras, so the leader
    wins its club leads and is then left with only hearts while hearts may
    still be unbroken (``LEAD.HEARTS``).
    """
    size = hand_size(players)
    extras = extras_count(players)
    aces = 1 if extras else 2
    hearts = draw(st.permutations([c for c in full_deck() if c.suit == Suit.H]))
    hand = [ACE_OF_CLUBS] * aces + list(hearts[:size - aces])
    pool = Counter(full_deck())
    pool.subtract(hand)
    rest = list(draw(st.permutations(sorted(pool.elements()))))
    if aces == 1:
        rest.remove(ACE_OF_CLUBS)
        rest.append(ACE_OF_CLUBS)  # dealt last: into the extras
    seats = draw(st.permutations([s for s in range(players) if s != leader]))
    return _by_seats([leader, *seats], hand + rest, players)


@st.composite
def moon_deals(draw: st.DrawFn, players: int, shooter: int) -> DealCards:
    """``shooter`` holds both copies of the top clubs, so it can win every trick it leads.

    When it makes the opening lead and nothing is passed, it collects every
    card of the deal, all 26 hearts and both Q♠ included (``MOON.CONDITION``);
    every other card is dealt at random. With an odd hand, the last club is
    a single copy whose twin is among the extras when the deal has extras.
    """
    size = hand_size(players)
    clubs = [c for c in reversed(CARDS) if c.suit == Suit.C]  # A♣ first
    hand = [c for c in clubs[:size // 2] for _ in range(2)]
    single = clubs[size // 2] if size % 2 else None
    if single is not None:
        hand.append(single)
    pool = Counter(full_deck())
    pool.subtract(hand)
    rest = list(draw(st.permutations(sorted(pool.elements()))))
    if single is not None and extras_count(players):
        rest.remove(single)
        rest.append(single)
    seats = draw(st.permutations([s for s in range(players) if s != shooter]))
    return _by_seats([shooter, *seats], hand + rest, players)


def any_deals(players: int, leader: int) -> st.SearchStrategy[DealCards]:
    """A deal of any kind above; ``leader`` is the seat expected to make the opening lead."""
    return st.one_of(
        explicit_deals(players),
        mirrored_deals(players),
        _mirrored(players),
        cancelling_suit_deals(players),
        penalty_leader_deals(players, leader),
        opening_lead_deals(players, leader),
        forced_heart_deals(players, leader),
        moon_deals(players, leader),
    )


# --- tricks --------------------------------------------------------------------------------


@st.composite
def trick_cards(draw: st.DrawFn, players: int) -> tuple[Card, ...]:
    """A complete trick of ``players`` cards: no card more than twice, many twice.

    Cards come from a small pool so that identical cards (``TRICK.CANCEL``)
    and a cancelled led suit (``VOID.TRICK``) are common.
    """
    distinct = draw(st.integers(max(1, (players + 1) // 2), players))
    pool = draw(st.lists(st.sampled_from(CARDS), min_size=distinct, max_size=distinct,
                         unique=True))
    doubled = draw(st.permutations(pool + pool))
    return tuple(doubled[:players])


# --- policies ------------------------------------------------------------------------------

#: The ways a :class:`Policy` can choose.
POLICY_STYLES = ("uniform", "cancelling", "reference", "mixed")

Chooser = Callable[[GameState], Action]
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
    * ``reference``: the built-in player :func:`rules_ref.policy.choose`.
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
        return Pass(seat, tuple(sorted(self.rng.sample(hand, state.ruleset.pass_count))))

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


def play_out(state: GameState, choose: Chooser, observe: Observer | None = None) -> GameState:
    """Play the deal in progress to its end with ``choose``; return the state after it.

    The deal ends when it has been scored (phase ``dealing``, or
    ``game-over`` when the game ended with it). ``observe`` is called with
    ``(before, action, after, events)`` for every action. A state with no
    deal in progress raises :class:`~rules_ref.errors.InputError`.
    """
    if state.phase not in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE):
        raise InputError(f"no deal is in progress (phase {state.phase})")
    while state.phase in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE):
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
        return _mirrored(players)
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


# --- rare paths ----------------------------------------------------------------------------

PARTIAL_CANCEL = "partially cancelled trick"
CANCELLED_LEAD = "cancelled led card"
VOID_TRICK = "void trick"
VOID_TWICE = "two void tricks in a row"
VOID_FIRST_WITH_EXTRAS = "void first trick with extras"
VOID_LAST = "void last trick"
PENDING_COLLECTED = "pending pile collected"
OPENING_EXCEPTION = "opening-lead exception"
FORCED_HEART_LEAD = "forced heart lead"
MOON_SUBTRACT = "moon, subtract"
MOON_ADD = "moon, add"
TIE = "game ending on a tie"

#: Every rare path :func:`rare_paths` reports, in a stable order.
RARE_PATHS = (PARTIAL_CANCEL, CANCELLED_LEAD, VOID_TRICK, VOID_TWICE, VOID_FIRST_WITH_EXTRAS,
              VOID_LAST, PENDING_COLLECTED, OPENING_EXCEPTION, FORCED_HEART_LEAD,
              MOON_SUBTRACT, MOON_ADD, TIE)


def rare_paths(before: GameState, action: Action, after: GameState,
               events: Sequence[ev.Event]) -> tuple[str, ...]:
    """The rare paths (:data:`RARE_PATHS`) that one applied action went through.

    Read from the events and the states only: a trick's cancelled cards and
    winner from its :class:`~rules_ref.events.TrickWon` or
    :class:`~rules_ref.events.TrickSetAside` and the outcome stored in
    ``after.tricks``; a lead's exception from the leader's hand in ``before``.
    """
    found: list[str] = []
    for e in events:
        if isinstance(e, ev.TrickWon | ev.TrickSetAside):
            outcome = after.tricks[e.trick_number - 1]
            if outcome.cards[0] in outcome.cancelled:
                found.append(CANCELLED_LEAD)
        if isinstance(e, ev.TrickWon) and e.cancelled:
            found.append(PARTIAL_CANCEL)
        elif isinstance(e, ev.TrickSetAside):
            found.append(VOID_TRICK)
            if e.trick_number > 1 and after.tricks[e.trick_number - 2].winner is None:
                found.append(VOID_TWICE)
            if e.trick_number == 1 and any(isinstance(x, ev.ExtrasPending) for x in events):
                found.append(VOID_FIRST_WITH_EXTRAS)
            if not any(after.hands):
                found.append(VOID_LAST)
        elif isinstance(e, ev.PendingCollected):
            found.append(PENDING_COLLECTED)
        elif isinstance(e, ev.MoonChosen) and e.choice is MoonChoice.SUBTRACT:
            found.append(MOON_SUBTRACT)
        elif isinstance(e, ev.MoonChosen) and e.choice is MoonChoice.ADD:
            found.append(MOON_ADD)
        elif isinstance(e, ev.GameOver) and len(e.winners) > 1:
            found.append(TIE)
    if isinstance(action, Play) and before.phase is Phase.PLAYING and not before.trick:
        hand = before.hands[action.seat]
        rs = before.ruleset
        if before.trick_number == 1:
            default_rule = rs.opening_lead is OpeningLead.LEFT_OF_DEALER or (
                rs.opening_lead is OpeningLead.TWO_OF_CLUBS
                and TWO_OF_CLUBS not in hand)
            if default_rule and all(_is_penalty(c) for c in hand):
                found.append(OPENING_EXCEPTION)
        elif (not before.hearts_broken and rs.hearts_broken_by is not HeartsBrokenBy.NOT_NEEDED
              and all(c.suit == Suit.H for c in hand)):
            found.append(FORCED_HEART_LEAD)
    return tuple(found)


class RarePathTally:
    """Counts of the rare paths seen, fed one applied action at a time."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter({name: 0 for name in RARE_PATHS})
        self.actions = 0

    def record(self, before: GameState, action: Action, after: GameState,
               events: Sequence[ev.Event]) -> None:
        """Count the rare paths of one applied action (an :data:`Observer`)."""
        self.actions += 1
        self.counts.update(rare_paths(before, action, after, events))

    def missing(self) -> tuple[str, ...]:
        """The rare paths not seen yet."""
        return tuple(name for name in RARE_PATHS if not self.counts[name])

    def table(self) -> str:
        """The counts, one rare path a line."""
        width = max(len(name) for name in RARE_PATHS)
        lines = [f"{name:<{width}}  {self.counts[name]:>7}" for name in RARE_PATHS]
        lines.append(f"{'actions applied':<{width}}  {self.actions:>7}")
        return "\n".join(lines)
