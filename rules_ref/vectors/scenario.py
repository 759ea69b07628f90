"""Building the positions of the vectors: hand-built deals, seeded deals, scripted play.

A :class:`Scenario` is a position the adapter protocol can reach (a
``start`` message and a prefix of accepted actions) and the steps that
follow it, each step's expectation read from the reference engine as the
step is applied. :func:`build` makes a deal whose hands after the passes
hold given cards, :func:`seeded` a seeded deal (``spec/deal.md``); play
goes on with scripted cards (``Scenario.play``), the built-in player
(:func:`policy_play`) or a chooser (:func:`controller`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..actions import Action, Pass, Play
from ..cards import QUEEN_OF_SPADES, Card, Suit, full_deck, parse_card, parse_cards
from ..deal import dealer_for_deal, draw_below, extras_count, hand_size, seeded_deal
from ..errors import IllegalAction, InputError, SetupError
from ..jsonio.serialize import action_from_json, action_to_json
from ..passing import pass_direction, pass_offset
from ..players.policy import choose
from ..protocol.observation import observe
from ..protocol.start import dealt_start, start_state
from ..ruleset import DEFAULT, Ruleset
from ..state import GameState
from ..state_parts import Phase
from .files import Case


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated card text."""
    return parse_cards(text)


def texts(cs: Sequence[Card]) -> list[str]:
    """Cards as canonical text, in the order given."""
    return [str(c) for c in cs]


def _remove(hand: Sequence[Card], cs: Sequence[Card]) -> list[Card]:
    rest = list(hand)
    for c in cs:
        rest.remove(c)
    return rest


class Rng:
    """A portable choice source (SplitMix64 of ``spec/deal.md``) for building positions."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def below(self, m: int) -> int:
        self.state, j = draw_below(self.state, m)
        return j

    def shuffle(self, items: list[Card]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def fill_hands(players: int, fixed: Mapping[int, str], voids: Mapping[int, str] | None = None,
               extras: str | None = None, seed: int = 0,
               ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """A deal whose hands hold ``fixed`` cards, with seats void in the suits ``voids`` names.

    The rest of the deck is spread by a seeded shuffle; ``extras`` fixes the
    extras (else they are what is left over).
    """
    voids = voids or {}
    size, n_extras = hand_size(players), extras_count(players)
    hands = {s: list(cards(fixed.get(s, ""))) for s in range(players)}
    ex = list(cards(extras)) if extras is not None else []
    pool = Counter(full_deck())
    for cs in [*hands.values(), ex]:
        need = Counter(cs)
        if need - pool:
            raise InputError(f"fixed cards exceed the deck: {need - pool}")
        pool -= need
    rest = sorted(pool.elements())
    Rng(seed).shuffle(rest)
    rest.sort(key=lambda c: -sum(1 for s in voids if c.suit.name in voids[s]))
    for c in rest:
        open_seats = [s for s in range(players)
                      if len(hands[s]) < size and c.suit.name not in voids.get(s, "")]
        if open_seats:
            seat = max(open_seats, key=lambda s: (size - len(hands[s]), -s))
            hands[seat].append(c)
        elif extras is None and len(ex) < n_extras:
            ex.append(c)
        else:
            raise InputError(f"cannot place {c}: every seat with room is void in its suit")
    for s, h in hands.items():
        if len(h) != size:
            raise InputError(f"seat {s} has {len(h)} cards")
        if any(c.suit.name in voids.get(s, "") for c in h):
            raise InputError(f"seat {s} is not void in {voids[s]}")
    return tuple(tuple(sorted(hands[s])) for s in range(players)), tuple(ex)


class Scenario:
    """A position (a ``start`` message and a prefix of actions) and the steps that follow it."""

    def __init__(self, players: int, ruleset: Ruleset, hands: Sequence[Sequence[Card]],
                 extras: Sequence[Card], deal_number: int = 1, dealer: int = 0,
                 totals: Sequence[int] | None = None) -> None:
        self.players = players
        self.ruleset = ruleset
        self.start = dealt_start(ruleset, [sorted(h) for h in hands], extras,
                                 deal_number=deal_number, dealer=dealer, totals=totals)
        self.state = start_state(self.start)
        self.prefix: list[dict[str, Any]] = []
        self.steps: list[dict[str, Any]] = []

    def copy(self) -> Scenario:
        new = object.__new__(Scenario)
        new.__dict__.update(self.__dict__)
        new.prefix = list(self.prefix)
        new.steps = list(self.steps)
        return new

    def with_setup(self, ruleset: Ruleset | None = None,
                   totals: Sequence[int] | None = None) -> Scenario:
        """The same cards and prefix under another ruleset or other starting totals.

        The prefix must stay legal under the new setup.
        """
        new = Scenario(self.players, ruleset or self.ruleset,
                       [cards(" ".join(h)) for h in self.start["hands"]],
                       cards(" ".join(self.start["extras"])), self.start["deal_number"],
                       self.start["dealer"], totals if totals is not None
                       else self.start["totals"])
        for a in self.actions_so_far():
            new.pre(a)
        return new

    def actions_so_far(self) -> list[Action]:
        return [action_from_json(a) for a in self.prefix]

    # --- the prefix -----------------------------------------------------------------------

    def pre(self, action: Action) -> None:
        assert not self.steps, "the prefix comes before the steps"
        self.state, _ = self.state.apply(action)
        self.prefix.append(action_to_json(action))

    def play(self, *cs: str) -> None:
        for text in cs:
            seat = self.state.to_act
            assert seat is not None
            self.pre(Play(seat, parse_card(text)))

    def autoplay(self, chooser: Callable[[GameState], Card], leave: int = 1) -> None:
        """Play on with ``chooser`` until ``leave`` cards remain in the deal."""
        while self.state.phase is Phase.PLAYING and \
                sum(len(h) for h in self.state.hands) > leave:
            seat = self.state.to_act
            assert seat is not None
            self.pre(Play(seat, chooser(self.state)))

    # --- the steps ------------------------------------------------------------------------

    def seen(self, fields: Sequence[str] | None) -> dict[str, Any]:
        obs = observe(self.state)
        return obs if fields is None else {f: obs[f] for f in fields}

    def check(self, fields: Sequence[str] | None = None) -> None:
        """A step with no action: compare the current observation."""
        self.steps.append({"action": None, "expect": {"observation": self.seen(fields)}})

    def step(self, action: Action, fields: Sequence[str] | None = None,
             compare: bool = True) -> None:
        self.state, _ = self.state.apply(action)
        step: dict[str, Any] = {"action": action_to_json(action)}
        if compare:
            step["expect"] = {"observation": self.seen(fields)}
        self.steps.append(step)

    def step_play(self, text: str, fields: Sequence[str] | None = None) -> None:
        seat = self.state.to_act
        assert seat is not None
        self.step(Play(seat, parse_card(text)), fields)

    def reject(self, action: Action) -> list[str]:
        rules = rejection(self.state, action)
        self.steps.append({"action": action_to_json(action),
                           "expect": {"rejected": {"rule": rules[0], "rules": rules}}})
        return rules

    def case(self, kind: str, slug: str, description: str, rules: Sequence[str],
             facts: dict[str, Any] | None = None, **extra: Any) -> Case:
        out: Case = {"id": f"{kind}/{slug}", "description": description,
                     "rules": sorted(set(rules)), "ruleset": self.ruleset.to_dict(),
                     "players": self.players, "start": self.start, "prefix": self.prefix,
                     "steps": self.steps, **extra}
        if facts:
            out["facts"] = facts
        return out


def rejection(state: GameState, action: Action) -> list[str]:
    """The rules the reference cites when it rejects ``action`` (it must reject it)."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        return list(exc.rule_ids)
    except SetupError as exc:
        return [exc.rule_id or "DEAL.SOURCE"]
    raise AssertionError(f"{action} is legal")


def build(players: int, ruleset: Ruleset = DEFAULT, fixed: Mapping[int, str] | None = None,
          voids: Mapping[int, str] | None = None, extras: str | None = None,
          deal_number: int = 1, dealer: int = 0, totals: Sequence[int] | None = None,
          seed: int = 0) -> Scenario:
    """A position at the start of play whose hands *after the passes* hold ``fixed``.

    The passes of the deal are in the prefix: each seat passes cards that
    its target ends up holding anyway, so the hands after the exchange are
    exactly the ones built.
    """
    post, ex = fill_hands(players, fixed or {}, voids, extras, seed)
    offset = pass_offset(pass_direction(deal_number, ruleset), players)
    if offset is None:
        return Scenario(players, ruleset, post, ex, deal_number, dealer, totals)
    k = ruleset.pass_count
    give = [post[(s + offset) % players][-k:] for s in range(players)]
    pre = [_remove(post[s], give[(s - offset) % players]) + list(give[s])
           for s in range(players)]
    sc = Scenario(players, ruleset, pre, ex, deal_number, dealer, totals)
    for i in range(players):
        seat = (dealer + 1 + i) % players
        sc.pre(Pass(seat, tuple(sorted(give[seat]))))
    assert sc.state.hands == post
    return sc


def seeded(players: int, ruleset: Ruleset, seed: int, deal_number: int = 1,
           first_dealer: int = 0, totals: Sequence[int] | None = None) -> Scenario:
    """The seeded deal ``deal_number`` of game seed ``seed``, before its passes."""
    dealer = dealer_for_deal(first_dealer, deal_number, players)
    d = seeded_deal(seed, players, deal_number, dealer, ruleset.min_players)
    return Scenario(players, ruleset, d.hands, d.extras, deal_number, dealer, totals)


def policy_play(sc: Scenario, seed: int, leave: int = 1) -> None:
    """Pass and play with the built-in player (seeded) until ``leave`` cards remain."""
    rng = random.Random(seed)
    while sc.state.phase is Phase.PASSING:
        sc.pre(choose(sc.state, rng))
    sc.autoplay(lambda s: _policy_card(s, rng), leave)


def _policy_card(state: GameState, rng: random.Random) -> Card:
    action = choose(state, rng)
    assert isinstance(action, Play)
    return action.card


def is_points(c: Card) -> bool:
    """A heart or a QS."""
    return c.suit == Suit.H or c == QUEEN_OF_SPADES


def controller(shooter: int, keep_points: bool) -> Callable[[GameState], Card]:
    """A chooser for built deals: the shooter leads its highest card; the others follow low.

    When not following suit, the others shed point cards first
    (``keep_points`` False) or last (True).
    """

    def pick(state: GameState) -> Card:
        plays = state.legal_plays()
        if state.to_act == shooter:
            return max(plays, key=lambda c: (c.rank, c))
        if state.trick and any(c.suit == state.trick[0].suit for c in plays):
            return min(plays, key=lambda c: (c.rank, c))
        return min(plays, key=lambda c: (is_points(c) == keep_points, c))

    return pick

