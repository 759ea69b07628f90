"""Conformance vectors: generated from the reference, frozen in ``spec/vectors/``.

A vector file is plain JSON (``spec/schemas/vectors.schema.json``) holding
the cases of one *kind*; ``spec/vectors/README.md`` is the runner contract
that says how to read and apply each kind. This module

* generates every file from the reference engine
  (``rules-ref vectors generate [--out DIR]``, default ``spec/vectors/v1``),
  deterministically: fixed seeds, hand-built positions, sorted keys;
* loads them (:func:`load_dir`);
* checks them (:func:`check_dir`, ``rules-ref vectors check``): the schema
  (when ``jsonschema`` is installed), unique ids, rule and switch-value
  coverage, and that the reference still agrees with every expected value.

Positions are protocol ``start`` messages plus an action prefix, so any
implementation can reach them through the adapter protocol
(``spec/protocol.md``); :mod:`rules_ref.conformance.vector_runner` replays
them.
"""

from __future__ import annotations

import json
import random
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import events as ev
from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import QUEEN_OF_SPADES, Card, Suit, full_deck, parse_card, parse_cards
from ..deal import (
    dealer_for_deal,
    draw_below,
    extras_count,
    hand_size,
    seeded_deal,
    shuffled_deck,
)
from ..errors import IllegalAction, InputError, RulesRefError, SetupError
from ..game import game_steps, next_deal
from ..passing import pass_direction, pass_offset
from ..policy import choose
from ..registry import load as load_registry
from ..registry import spec_dir
from ..ruleset import DEFAULT, Ruleset, preset, presets
from ..serialize import action_to_json
from ..state import GameState, Phase
from ..view import seat_view
from .adapter import start_state
from .observation import observe

Json = Any
Case = dict[str, Any]

FORMAT = "cancellation-hearts-vectors"
#: The version of the runner contract (spec/vectors/README.md) the files follow.
CONTRACT_VERSION = 1
#: The version of the vector content; bumped whenever generated content changes.
VECTORS_VERSION = 1

#: Kinds that replay through the adapter protocol, in file order.
PROTOCOL_KINDS = ("passing", "legal-plays", "trick", "scoring", "moon", "game-end",
                  "illegal-action", "perft", "transcript")
#: Kinds for an implementation's own unit tests (the protocol cannot express them).
UNIT_KINDS = ("card-notation", "seeded-deal", "seat-view")
KINDS = UNIT_KINDS + PROTOCOL_KINDS


def default_dir() -> Path:
    """``spec/vectors/v1``: where the frozen vectors live."""
    return spec_dir() / "vectors" / "v1"


def schema_path() -> Path:
    return spec_dir() / "schemas" / "vectors.schema.json"


# --- deterministic JSON -----------------------------------------------------------------


def _flat(value: object) -> bool:
    """A list written on one line: scalars, or lists of scalars."""
    if not isinstance(value, list):
        return False
    return all(not isinstance(v, dict | list) or (
        isinstance(v, list) and all(not isinstance(w, dict | list) for w in v)) for v in value)


def _inline_dict(value: dict[str, Any]) -> str | None:
    if not all(not isinstance(v, dict | list) or _flat(v) for v in value.values()):
        return None
    text = json.dumps(value, sort_keys=True, separators=(", ", ": "))
    return text if len(text) <= 100 else None


def _fmt(value: object, level: int) -> str:
    pad = " " * (level + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        short = _inline_dict(value) if level > 1 else None
        if short is not None:
            return short
        items = [f"{pad}{json.dumps(k)}: {_fmt(value[k], level + 1)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + " " * level + "}"
    if isinstance(value, list):
        if not value or _flat(value):
            return json.dumps(value, separators=(", ", ": "))
        return "[\n" + ",\n".join(pad + _fmt(v, level + 1) for v in value) + "\n" + \
            " " * level + "]"
    return json.dumps(value)


def dumps(document: object) -> str:
    """The canonical text of a vector file: sorted keys, one object per line, ASCII."""
    return _fmt(document, 0) + "\n"


# --- building positions -----------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def texts(cs: Sequence[Card]) -> list[str]:
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
        self.start: dict[str, Any] = {
            "type": "start", "players": players, "ruleset": ruleset.to_dict(),
            "deal_number": deal_number, "dealer": dealer,
            "totals": list(totals) if totals is not None else [0] * players,
            "hands": [texts(sorted(h)) for h in hands], "extras": texts(extras)}
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
        from ..serialize import action_from_json

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
    dealer = dealer_for_deal(first_dealer, deal_number, players)
    d = seeded_deal(seed, players, deal_number, dealer)
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


# --- the kinds --------------------------------------------------------------------------


def trick_facts(state: GameState) -> dict[str, Any]:
    t = state.tricks[-1]
    return {"led_suit": t.led_suit.name, "cancelled": texts(t.cancelled), "void": t.void,
            "winning_card": None if t.winning_card is None else str(t.winning_card)}


TRICK_FIELDS = ("phase", "to_act", "trick_number", "leader", "trick", "hearts_broken",
                "last_trick", "pending", "points")
END_FIELDS = ("phase", "to_act", "legal", "last_trick", "points", "deal_scores", "totals",
              "winners")


def gen_card_notation() -> list[Case]:
    good = [
        ("2C", "lowest-club", "the lowest club"), ("10H", "ten", "a two-digit ten"),
        ("JD", "jack", "a jack"), ("QS", "queen-of-spades", "the queen of spades"),
        ("AS", "highest-index", "the highest card index"), ("KC", "king", "a king"),
        ("9S", "nine", "a nine"), ("qs", "lower-case", "lower case"),
        ("Qs", "mixed-case-1", "mixed case"), ("qS", "mixed-case-2", "mixed case"),
        ("th", "t-for-ten", "T for ten"), ("Th", "t-for-ten-mixed", "T for ten, mixed case"),
        ("10h", "ten-lower-suit", "ten with a lower-case suit"),
        (" 10\u2665 ", "solid-heart-spaces", "a solid heart symbol inside spaces"),
        ("T\u2661", "outline-heart", "an outline heart symbol"),
        ("Q\u2660", "solid-spade", "a solid spade symbol"),
        ("q\u2664", "outline-spade", "an outline spade symbol"),
        ("A\u2663", "solid-club", "a solid club symbol"),
        ("5\u2667", "outline-club", "an outline club symbol"),
        ("K\u2666", "solid-diamond", "a solid diamond symbol"),
        ("J\u2662", "outline-diamond", "an outline diamond symbol"),
        ("\t7d\n", "tab-newline", "a tab and a newline around"),
        ("ad", "ace-lower-case", "an ace in lower case"),
    ]
    bad = [
        ("", "empty", "empty text"), ("   ", "spaces", "only spaces"), ("1H", "rank-1", "rank 1"),
        ("11H", "rank-11", "rank 11"), ("0H", "rank-0", "rank 0"), ("10", "no-suit", "no suit"),
        ("QX", "unknown-suit", "an unknown suit letter"),
        ("Q S", "inner-space", "a space between rank and suit"),
        ("QSS", "suit-twice", "the suit twice"), ("\u2660Q", "suit-first", "suit before rank"),
        ("Q\u2660\ufe0f", "variation-selector",
         "a suit symbol followed by the emoji variation selector"),
        ("queen of spades", "words", "words"), ("1 0H", "split-rank", "a space inside the rank"),
        ("TT", "t-without-suit", "no suit after T"), ("10HH", "ten-suit-twice", "the suit twice"),
        ("H", "no-rank", "no rank"), ("01H", "leading-zero", "a leading zero"),
        ("QS,", "trailing-comma", "a trailing comma"), ("AS AS", "two-cards", "two cards"),
        ("9\u2665\u2665", "symbol-twice", "the suit symbol twice"),
    ]
    out: list[Case] = []
    for text, slug, why in good:
        c = parse_card(text)
        out.append({"id": f"card-notation/valid-{slug}", "description": f"Accepted: {why}.",
                    "rules": ["DECK.CARDS"], "ruleset": DEFAULT.to_dict(), "players": None,
                    "input": text, "expected": {"canonical": str(c), "index": int(c)}})
    for text, slug, why in bad:
        try:
            parse_card(text)
        except RulesRefError:
            pass
        else:
            raise AssertionError(f"{text!r} was accepted")
        out.append({"id": f"card-notation/invalid-{slug}", "description": f"Rejected: {why}.",
                    "rules": ["DECK.CARDS"], "ruleset": DEFAULT.to_dict(), "players": None,
                    "input": text, "expected": {"rejected": True}})
    order = cards("AS 2C 10H JH 9H 2D QS 2C AC KD")
    out.append({"id": "card-notation/canonical-order", "description":
                "A multiset of cards sorted in canonical order (suit, then rank), copies kept.",
                "rules": ["DECK.CARDS", "DECK.RANKING"], "ruleset": DEFAULT.to_dict(),
                "players": None, "input": texts(order),
                "expected": {"canonical": texts(sorted(order)),
                             "index": [int(c) for c in sorted(order)]}})
    return out


SEEDED_DEALS = [
    # seed, players, deal number, dealer; the first, 42/8/2/1 and 2**64-1/11/3/5 are the
    # worked values of spec/deal.md
    (0, 6, 1, 0), (1, 6, 2, 1), (42, 7, 1, 0), (7, 7, 3, 5), (1, 8, 1, 0), (42, 8, 2, 1),
    (123456789, 9, 1, 8), (0xDEADBEEF, 9, 4, 2), (99, 10, 1, 0), (18446744073709551615, 10, 2, 9),
    (0x0123456789ABCDEF, 11, 1, 0), (18446744073709551615, 11, 3, 5), (5, 11, 1000, 3),
]


def gen_seeded_deal() -> list[Case]:
    out: list[Case] = []
    for seed, n, k, dealer in SEEDED_DEALS:
        d = seeded_deal(seed, n, k, dealer)
        out.append({
            "id": f"seeded-deal/s{seed}-p{n}-d{k}-dealer{dealer}",
            "description": f"Seed {seed}, {n} players, deal {k}, dealer {dealer}: "
                           f"{hand_size(n)} cards each and {extras_count(n)} extras.",
            "rules": ["DEAL.SOURCE", "DEAL.SIZE", "DECK.CARDS"], "ruleset": DEFAULT.to_dict(),
            "players": n,
            "input": {"seed": str(seed), "players": n, "deal_number": k, "dealer": dealer},
            "expected": {"deck": texts(shuffled_deck(seed, k)),
                         "hands": [texts(h) for h in d.hands], "extras": texts(d.extras)}})
    bad = [("-1", 6, "DEAL.SOURCE", "a negative seed"),
           ("18446744073709551616", 6, "DEAL.SOURCE", "a seed of 2**64"),
           ("1", 5, "PLAYERS.COUNT", "5 players"), ("1", 12, "PLAYERS.COUNT", "12 players")]
    for seed_text, n, rule, why in bad:
        try:
            seeded_deal(int(seed_text), n, 1, 0)
        except SetupError as exc:
            assert exc.rule_id == rule
        else:
            raise AssertionError(why)
        out.append({
            "id": f"seeded-deal/reject-{why.replace(' ', '-').replace('*', '')}",
            "description": f"Rejected: {why}.", "rules": [rule], "ruleset": DEFAULT.to_dict(),
            "players": n,
            "input": {"seed": seed_text, "players": n, "deal_number": 1, "dealer": 0},
            "expected": {"rejected": True, "rule": rule}})
    return out


def gen_passing() -> list[Case]:
    out: list[Case] = []

    def passing_case(slug: str, description: str, sc: Scenario, rules: Sequence[str],
                     order: Sequence[int] | None = None, take: Mapping[int, str] | None = None,
                     ) -> None:
        st = sc.state
        offset = st.pass_offset
        targets = [None if offset is None else (s + offset) % st.players
                   for s in range(st.players)]
        direction = str(pass_direction(st.deal_number, st.ruleset))
        if offset is None:
            sc.check(("phase", "waiting_for", "to_act", "leader", "hands"))
        else:
            seats = order if order is not None else list(st.waiting_for)
            for i, seat in enumerate(seats):
                hand = sc.state.hands[seat]
                chosen = cards(take[seat]) if take and seat in take else \
                    hand[:: max(1, len(hand) // st.ruleset.pass_count)][:st.ruleset.pass_count]
                last = i == len(seats) - 1
                sc.step(Pass(seat, tuple(sorted(chosen))),
                        ("phase", "waiting_for", "to_act", "leader", "hands") if last
                        else ("phase", "waiting_for", "to_act"))
        out.append(sc.case("passing", slug, description, rules,
                           {"direction": direction, "targets": targets}))

    base = ("PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE")
    passing_case("default-deal1-left-p6", "Deal 1 passes left: 3 cards to seat +1.",
                 seeded(6, DEFAULT, 11), base)
    passing_case("default-deal2-right-p7", "Deal 2 passes right: 3 cards to seat -1; the "
                 "dealer has moved one seat left.", seeded(7, DEFAULT, 12, deal_number=2),
                 (*base, "DEAL.DEALER"))
    passing_case("default-deal3-left-p11", "Deal 3 passes left again (left, right, left, ...).",
                 seeded(11, DEFAULT, 13, deal_number=3, first_dealer=4), base)
    passing_case("any-order-p8", "Seats may pass in any order; the cards move only when the "
                 "last seat has passed.", seeded(8, DEFAULT, 14),
                 (*base, "TURN.ORDER"), order=[5, 0, 3, 1, 7, 2, 6, 4])
    hands, extras = fill_hands(6, {1: "QS QS AH AH 2C", 2: "KH 2C 3C"}, seed=15)
    passing_case("both-copies-and-points-p6", "Both copies of a card, hearts and QS may be "
                 "passed.", Scenario(6, DEFAULT, hands, extras), base,
                 take={1: "QS QS AH", 2: "KH 2C 3C"})
    passing_case("hold-bicycle-p6", "Under pass_cycle [hold] nobody passes: play starts at "
                 "once.", seeded(6, preset("bicycle"), 16), ("PASS.DIRECTION",))
    passing_case("right-every-deal-hubpages-p9", "Under pass_cycle [right] deal 1 passes right.",
                 seeded(9, preset("hubpages"), 17), base)
    passing_case("two-left-boardgamegeek-p10", "Under pass_count 2 and pass_cycle [left], "
                 "deal 2 passes 2 cards left.", seeded(10, preset("boardgamegeek"), 18,
                                                       deal_number=2), base)
    lcg = preset("lovecardgames")
    passing_case("cycle4-deal2-right-p8", "Four-step cycle: deal 2 passes right.",
                 seeded(8, lcg, 19, deal_number=2), base)
    passing_case("cycle4-deal3-across-p9", "Four-step cycle: deal 3 passes across, "
                 "floor(9/2) = 4 seats left.", seeded(9, lcg, 20, deal_number=3), base)
    passing_case("cycle4-deal3-across-p10", "Four-step cycle: deal 3 passes across, 5 seats.",
                 seeded(10, preset("hearts-template"), 21, deal_number=3), base)
    passing_case("cycle4-deal4-hold-p7", "Four-step cycle: deal 4 holds.",
                 seeded(7, lcg, 22, deal_number=4), ("PASS.DIRECTION",))
    passing_case("cycle4-deal5-left-p7", "Four-step cycle: deal 5 starts the cycle again, left.",
                 seeded(7, lcg, 23, deal_number=5), base)
    return out


def legal_case(sc: Scenario, slug: str, description: str, rules: Sequence[str],
               offer: int = 99) -> Case:
    """Check ``to_act`` and ``legal``, then offer each forbidden card and expect a rejection."""
    sc.check(("phase", "to_act", "trick_number", "leader", "trick", "hearts_broken", "legal"))
    st = sc.state
    seat = st.to_act
    assert seat is not None
    forbidden: dict[str, str] = {}
    for c in dict.fromkeys(st.hands[seat]):
        if c not in st.legal_plays() and len(forbidden) < offer:
            forbidden[str(c)] = sc.reject(Play(seat, c))[0]
    return sc.case("legal-plays", slug, description, rules, {"forbidden": forbidden})


def gen_legal_plays() -> list[Case]:
    out: list[Case] = []
    d = DEFAULT
    sc = build(6, d, {1: "2C 3C QS AH KH 9D"}, seed=31)
    out.append(legal_case(sc, "opening-no-points-p6", "The opening lead may not be a heart or a "
                          "QS while the hand holds another card.", ["LEAD.OPENING_CARD"]))
    sc = build(6, d, {1: "QS QS AH AH KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 7H"}, seed=32)
    out.append(legal_case(sc, "opening-only-points-p6", "An opening leader holding only hearts "
                          "and QS may lead any card.", ["LEAD.OPENING_CARD"]))
    hub = preset("hubpages")
    sc = build(6, hub, {1: "10D 2C AH QS 5D"}, seed=33)
    out.append(legal_case(sc, "opening-no-scoring-10d-hubpages", "Under left-of-dealer-no-"
                          "scoring with a scoring 10D, the 10D may not open either.",
                          ["LEAD.OPENING_CARD", "SCORE.CARD_POINTS"]))
    noscore = Ruleset.from_dict({"opening_lead": "left-of-dealer-no-scoring"})
    sc = build(7, noscore, {1: "10D 2C AH QS"}, seed=34)
    out.append(legal_case(sc, "opening-no-scoring-10d-zero-p7", "Under left-of-dealer-no-"
                          "scoring with ten_of_diamonds_points 0, the 10D is not a scoring card "
                          "and may open.", ["LEAD.OPENING_CARD"]))
    sc = build(6, hub, {1: "QS QS 10D 10D AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"}, seed=35)
    out.append(legal_case(sc, "opening-only-scoring-hubpages", "Under left-of-dealer-no-"
                          "scoring, a hand of scoring cards only may lead any card.",
                          ["LEAD.OPENING_CARD"]))
    lcg = preset("lovecardgames")
    sc = build(6, lcg, {3: "2C", 5: "2C"}, seed=36)
    out.append(legal_case(sc, "two-of-clubs-leader-p6", "Under two-of-clubs, the first seat "
                          "from the dealer's left holding a 2C leads it.",
                          ["LEAD.OPENING_LEADER", "LEAD.OPENING_CARD"]))
    sc = build(7, lcg, {}, extras="2C 2C 3C 4C 5C 6C", seed=37)
    out.append(legal_case(sc, "two-of-clubs-in-extras-p7", "Under two-of-clubs with both 2C "
                          "among the extras, the dealer's left leads under the default "
                          "restriction.", ["LEAD.OPENING_LEADER", "LEAD.OPENING_CARD"]))
    hearts14 = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH"
    sc = build(6, d, {1: f"5C QS QS {hearts14}", 2: "5C", 3: "7C", 4: "7C", 5: "9C",
                      0: "9C"}, seed=38)
    sc.play("5C", "5C", "7C", "7C", "9C", "9C")
    out.append(legal_case(sc, "after-void-trick1-queen-only-p6", "After a void trick 1 its "
                          "leader leads again under LEAD.HEARTS: with only hearts and QS and "
                          "hearts unbroken, only a QS.",
                          ["VOID.LEADER", "LEAD.HEARTS", "VOID.TRICK"]))
    trick1 = {1: "3C", 2: "4C", 3: "5C", 4: "6C", 5: "7C"}
    sc = build(6, d, {**trick1, 0: "AC QS AH KH 2D"}, seed=39)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    out.append(legal_case(sc, "lead-hearts-unbroken-p6", "Hearts unbroken: a heart may not be "
                          "led from a hand holding other cards; a QS may.",
                          ["LEAD.HEARTS", "TRICK.NEXT_LEADER"]))
    sc = build(6, d, {**trick1, 0: "AC " + "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H KH QH JH"},
               seed=40)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    out.append(legal_case(sc, "lead-hearts-only-hearts-p6", "Hearts unbroken, but the leader "
                          "holds only hearts: hearts may be led.", ["LEAD.HEARTS"]))
    q_trick = {1: "3C", 2: "4C", 3: "QS", 4: "6C", 5: "7C", 0: "AC AH KH 2D"}
    sc = build(6, d, q_trick, voids={3: "C"}, seed=41)
    sc.play("3C", "4C", "QS", "6C", "7C", "AC")
    out.append(legal_case(sc, "broken-by-queen-p6", "A QS discarded to a trick breaks hearts: "
                          "hearts may be led.", ["HEARTS.BROKEN", "LEAD.HEARTS"]))
    heart_only = Ruleset.from_dict({"hearts_broken_by": "heart"})
    sc = build(6, heart_only, q_trick, voids={3: "C"}, seed=41)
    sc.play("3C", "4C", "QS", "6C", "7C", "AC")
    out.append(legal_case(sc, "not-broken-by-queen-heart-p6", "Under hearts_broken_by heart, "
                          "a QS does not break hearts.", ["HEARTS.BROKEN", "LEAD.HEARTS"]))
    discard = Ruleset.from_dict({"hearts_broken_by": "heart-discard"})
    sc = build(7, discard, {1: "3C", 2: "4C", 3: "2H", 4: "6C", 5: "7C", 6: "8C",
                            0: "AC AH KH 2D"}, voids={3: "C"}, seed=42)
    sc.play("3C", "4C", "2H", "6C", "7C", "8C", "AC")
    out.append(legal_case(sc, "broken-by-discard-heart-discard-p7", "Under hearts_broken_by "
                          "heart-discard, a heart discarded to a club trick breaks hearts.",
                          ["HEARTS.BROKEN", "LEAD.HEARTS"]))
    led = {1: "AH AH KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 7H QS QS", 2: "2H", 3: "3H",
           4: "4H", 5: "5H", 0: "6H"}
    for rs, slug, desc in (
            (discard, "not-broken-by-led-heart-heart-discard-p6",
             "Under hearts_broken_by heart-discard, hearts led and followed do not break "
             "hearts: the leader of only hearts and QS must lead a QS."),
            (d, "broken-by-led-heart-p6", "Hearts led and followed break hearts (default): "
             "the leader may lead anything.")):
        sc = build(6, rs, led, seed=43)
        sc.play("AH", "2H", "3H", "4H", "5H", "6H")
        out.append(legal_case(sc, slug, desc, ["HEARTS.BROKEN", "LEAD.HEARTS",
                                               "LEAD.OPENING_CARD"]))
    mensa = preset("mensa")
    sc = build(6, mensa, {**trick1, 0: "AC QS AH KH 2D"}, seed=39)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    out.append(legal_case(sc, "lead-hearts-not-needed-mensa", "Under hearts_broken_by "
                          "not-needed a heart may be led at any time.",
                          ["LEAD.HEARTS", "HEARTS.BROKEN"]))
    sc = build(6, mensa, {1: "2C 3C QS AH KH 9D"}, seed=31)
    out.append(legal_case(sc, "opening-not-needed-mensa", "Under hearts_broken_by not-needed "
                          "the opening lead keeps its own restriction.",
                          ["LEAD.OPENING_CARD"]))
    sc = build(6, d, {1: "5C AH KH 3D", 2: "5C", 3: "2H", 4: "2H", 5: "9D", 0: "JD"},
               voids={3: "C", 4: "C", 5: "C", 0: "C"}, seed=44)
    sc.play("5C", "5C", "2H", "2H", "9D", "JD")
    out.append(legal_case(sc, "broken-by-cancelled-heart-p6", "Hearts cancelled in a void "
                          "trick still break hearts.",
                          ["HEARTS.BROKEN", "LEAD.HEARTS", "TRICK.CANCEL", "VOID.LEADER"]))
    sc = build(6, d, {1: "9D", 2: "9D 2D KD AS QS 3H"}, seed=45)
    sc.play("9D")
    out.append(legal_case(sc, "follow-suit-p6", "Holding the led suit, only that suit may be "
                          "played, including a card identical to the lead.", ["FOLLOW.SUIT"]))
    sc = build(8, d, {1: "9D", 2: "QS AH 2C 3S"}, voids={2: "D"}, seed=46)
    sc.play("9D")
    out.append(legal_case(sc, "follow-void-any-p8", "Without the led suit any card may be "
                          "played, point cards included on trick 1 (default).",
                          ["FOLLOW.SUIT", "FOLLOW.FIRST_TRICK"]))
    sc = build(9, d, {1: "9D", 2: "9D", 3: "2D 3C AH"}, seed=47)
    sc.play("9D", "9D")
    out.append(legal_case(sc, "led-suit-after-cancel-p9", "The led card is cancelled, but its "
                          "suit stays the led suit: diamonds must still be followed.",
                          ["TRICK.LED_SUIT", "FOLLOW.SUIT", "TRICK.CANCEL"]))
    sc = build(8, d, {1: "9D", 2: "9D", 3: "AC", 4: "2D 3C KC"}, voids={3: "D"}, seed=51)
    sc.play("9D", "9D", "AC")
    out.append(legal_case(sc, "led-suit-after-cancel-and-discard-p8", "The led card is "
                          "cancelled and a club is discarded: diamonds stay the led suit and "
                          "must be followed.",
                          ["TRICK.LED_SUIT", "FOLLOW.SUIT", "TRICK.CANCEL"]))
    tpl = preset("hearts-template")
    sc = build(6, tpl, {1: "2C 2C", 2: "QS AH 3D 4S"}, voids={2: "C"}, seed=48)
    sc.play("2C")
    out.append(legal_case(sc, "first-trick-forbidden-template", "Under first_trick_points "
                          "forbidden, no heart or QS may be discarded on trick 1.",
                          ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT", "LEAD.OPENING_LEADER"]))
    sc = build(6, tpl, {1: "2C 2C", 2: "QS QS AH AH KH KH QH QH JH JH 10H 10H 9H 9H 8H 8H 7H"},
               seed=49)
    sc.play("2C")
    out.append(legal_case(sc, "first-trick-forbidden-only-points-template", "Under "
                          "first_trick_points forbidden, a hand of only hearts and QS may "
                          "discard any of them on trick 1.", ["FOLLOW.FIRST_TRICK"]))
    sc = build(6, tpl, {1: "2C 2C", 2: "3D QS AH 4D", 3: "4C", 4: "5C", 5: "6C",
                        0: "AC KC"}, voids={2: "C"}, seed=50)
    sc.play("2C", "4D", "4C", "5C", "6C", "AC", "KC", "2C")
    out.append(legal_case(sc, "first-trick-forbidden-trick2-template", "Under "
                          "first_trick_points forbidden, trick 2 carries no restriction.",
                          ["FOLLOW.FIRST_TRICK"]))
    return out


def trick_case(sc: Scenario, last: str, slug: str, description: str,
               rules: Sequence[str]) -> Case:
    sc.step_play(last, TRICK_FIELDS)
    return sc.case("trick", slug, description, rules, trick_facts(sc.state))


def gen_trick() -> list[Case]:
    out: list[Case] = []
    d = DEFAULT
    sc = build(6, d, {1: "9C", 2: "10C", 3: "JC", 4: "3C", 5: "2C", 0: "4C"},
               extras="AH 5H", seed=61)
    sc.play("9C", "10C", "JC", "3C", "2C")
    out.append(trick_case(sc, "4C", "highest-wins-takes-extras-p6", "The highest card of the "
                          "led suit wins (J over 10 over 9) and the extras go with trick 1.",
                          ["TRICK.WINNER", "DECK.RANKING", "TRICK.NEXT_LEADER",
                           "EXTRAS.FIRST_TRICK", "TURN.ORDER"]))
    sc = build(6, d, {0: "10S", 1: "9H", 2: "9H", 3: "10S", 4: "KS", 5: "3S"},
               voids={1: "S", 2: "S"}, extras="2D 3D", dealer=5, seed=62)
    sc.play("10S", "9H", "9H", "10S", "KS")
    out.append(trick_case(sc, "3S", "seed-example-p6", "The seed's example: 10S 9H 9H 10S KS "
                          "3S; both pairs cancel and KS wins.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "TRICK.LED_SUIT", "HEARTS.BROKEN"]))
    sc = build(7, d, {1: "KD", 2: "AD", 3: "5D", 4: "AD", 5: "2D", 6: "QD", 0: "3D"},
               extras="2H 3H 4H 5H 6H 7H", seed=63)
    sc.play("KD", "AD", "5D", "AD", "2D", "QD")
    out.append(trick_case(sc, "3D", "highest-cancelled-p7", "Both aces cancel; the king wins "
                          "and takes 6 extras.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "EXTRAS.FIRST_TRICK"]))
    sc = build(8, d, {1: "4S", 2: "2S", 3: "AH", 4: "AD", 5: "3S", 6: "5S", 7: "KC", 0: "2S"},
               voids={3: "S", 4: "S", 7: "S"}, seed=64)
    sc.play("4S", "2S", "AH", "AD", "3S", "5S", "KC")
    out.append(trick_case(sc, "2S", "no-trumps-p8", "Higher cards of other suits never win: "
                          "5S wins over AH, AD and KC.",
                          ["DECK.RANKING", "TRICK.WINNER", "TRICK.CANCEL"]))
    void6 = {1: "5C 8D", 2: "5C 9D", 3: "9D 10D", 4: "KS 3D", 5: "2D 4D", 0: "JD 6D"}
    cvoid = {3: "C", 4: "C", 5: "C", 0: "C"}
    sc = build(6, d, void6, voids=cvoid, extras="QH AH", seed=65)
    sc.play("5C", "5C", "9D", "KS", "2D")
    out.append(trick_case(sc, "JD", "void-trick1-extras-pending-p6", "Both 5C cancel and no "
                          "other club is played: trick 1 is void, its cards and the extras go "
                          "to the pending pile, and its leader leads again.",
                          ["VOID.TRICK", "VOID.LEADER", "EXTRAS.FIRST_TRICK", "TRICK.CANCEL"]))
    sc = build(6, d, void6, voids=cvoid, extras="QH AH", seed=65)
    sc.play("5C", "5C", "9D", "KS", "2D", "JD", "8D", "9D", "10D", "3D", "4D")
    out.append(trick_case(sc, "6D", "collect-pending-with-extras-p6", "The winner of trick 2 "
                          "collects the pending trick 1 and the extras with it.",
                          ["VOID.COLLECT", "EXTRAS.FIRST_TRICK", "TRICK.WINNER"]))
    two_voids = {1: "6C 7C 8C", 2: "6C 7C 9C", 3: "2D 4S 2H", 4: "3D 5S 3H", 5: "4D 6S QS",
                 6: "5D 7S 4H", 7: "2S 8S 5H", 0: "3S 9S 6H"}
    sc = build(8, d, two_voids, voids={s: "C" for s in (3, 4, 5, 6, 7, 0)}, seed=66)
    sc.play("6C", "6C", "2D", "3D", "4D", "5D", "2S", "3S")
    sc.play("7C", "7C", "4S", "5S", "6S", "7S", "8S", "9S")
    sc.play("8C", "9C", "2H", "3H", "QS", "4H", "5H")
    out.append(trick_case(sc, "6H", "collect-two-voids-p8", "Two void tricks in a row, then "
                          "a trick with a winner, who collects both.",
                          ["VOID.COLLECT", "VOID.TRICK", "VOID.LEADER", "TRICK.WINNER",
                           "SCORE.CARD_POINTS"]))
    sc = build(8, d, {1: "9D", 2: "9D", 3: "AC", 4: "2D", 5: "KC", 6: "3D", 7: "4S", 0: "5C"},
               voids={3: "D", 5: "D", 7: "D", 0: "D"}, seed=70)
    sc.play("9D", "9D", "AC", "2D", "KC", "3D", "4S")
    out.append(trick_case(sc, "5C", "led-card-cancelled-p8", "The led 9D is cancelled and "
                          "higher clubs follow, but diamonds stay the led suit: 3D wins.",
                          ["TRICK.LED_SUIT", "TRICK.CANCEL", "TRICK.WINNER"]))
    sc = build(9, d, {1: "8C", 2: "8C", 3: "KC", 4: "KC", 5: "3C", 6: "9C", 7: "2H", 8: "2H",
                      0: "4C"}, voids={7: "C", 8: "C"}, extras="AH KH QH JH 10H", seed=67)
    sc.play("8C", "8C", "KC", "KC", "3C", "9C", "2H", "2H")
    out.append(trick_case(sc, "4C", "three-pairs-p9", "Three pairs cancel (the lead, the "
                          "highest club and an off-suit pair); 9C wins.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "TRICK.LED_SUIT"]))
    sc = build(11, d, {1: "AC", 2: "AC", 3: "KC", 4: "KC", 5: "QC", 6: "QC", 7: "JC", 8: "2D",
                       9: "QS", 10: "QS", 0: "3D"}, voids={8: "C", 9: "C", 10: "C", 0: "C"},
               extras="2S 3S 4S 5S 6S", seed=68)
    sc.play("AC", "AC", "KC", "KC", "QC", "QC", "JC", "2D", "QS", "QS")
    out.append(trick_case(sc, "3D", "cancelled-queens-score-p11", "The three highest clubs "
                          "cancel, JC wins and takes both cancelled QS: 26 points.",
                          ["TRICK.CANCEL", "TRICK.WINNER", "SCORE.CARD_POINTS"]))
    sc = build(10, d, {1: "2C", 2: "2C", 3: "3C", 4: "3C", 5: "AD", 6: "AD", 7: "KH", 8: "KH",
                       9: "QS", 0: "QS"}, voids={s: "C" for s in (5, 6, 7, 8, 9, 0)},
               extras="4H 5H 6H 7H", seed=69)
    sc.play("2C", "2C", "3C", "3C", "AD", "AD", "KH", "KH", "QS")
    out.append(trick_case(sc, "QS", "void-all-paired-p10", "Every card of trick 1 is paired: "
                          "void; the trick and the 4 extras are pending, and the cancelled KH "
                          "and QS break hearts.",
                          ["VOID.TRICK", "TRICK.CANCEL", "HEARTS.BROKEN", "EXTRAS.FIRST_TRICK"]))
    return out


def last_card(sc: Scenario) -> Play:
    """The play of the last card of the deal (the position must be one card short)."""
    seat = sc.state.to_act
    assert seat is not None and sc.state.phase is Phase.PLAYING
    return Play(seat, sc.state.hands[seat][0])


def end_facts(state: GameState) -> dict[str, Any]:
    """What a finished deal left behind: uncollected cards, the shooter, the extras."""
    if state.phase is Phase.MOON_CHOICE:
        return {"uncollected": texts(sorted(state.uncollected)),
                "moon_shooter": state.moon_shooter, "extras": texts(state.extras)}
    r = state.deal_results[-1]
    return {"uncollected": texts(sorted(r.uncollected)), "moon_shooter": r.moon_shooter,
            "extras": texts(r.extras), "card_points": list(r.card_points)}


def end_case(sc: Scenario, kind: str, slug: str, description: str, rules: Sequence[str],
             moon: MoonChoice | None = None, then_deal: int | None = None) -> Case:
    """Play the deal's last card (and a moon choice); compare the scored observation."""
    sc.step(last_card(sc), END_FIELDS)
    facts = end_facts(sc.state)
    if moon is not None:
        shooter = sc.state.moon_shooter
        assert shooter is not None
        sc.step(ChooseMoon(shooter, moon), END_FIELDS)
        facts = end_facts(sc.state)
    if then_deal is not None:
        sc.step(next_deal(sc.state, then_deal),
                ("phase", "deal_number", "dealer", "to_act", "waiting_for", "hands",
                 "trick_number", "leader", "trick", "last_trick", "pending", "points",
                 "deal_scores", "totals"))
    return sc.case(kind, slug, description, rules, facts)


def played(players: int, ruleset: Ruleset, seed: int, deal_number: int = 1,
           totals: Sequence[int] | None = None, first_dealer: int = 0) -> Scenario:
    """A seeded deal played by the built-in player up to its last card."""
    sc = seeded(players, ruleset, seed, deal_number, first_dealer, totals)
    policy_play(sc, seed)
    return sc


def dry_scores(sc: Scenario) -> tuple[int, ...]:
    st, _ = sc.state.apply(last_card(sc))
    assert st.deal_results and st.phase is not Phase.MOON_CHOICE
    return st.deal_results[-1].scores


SPLIT = Ruleset.from_dict({"last_trick_void": "split-highest-pair"})
OTHERS_104 = Ruleset.from_dict({"moon": "others-104"})


def gen_scoring() -> list[Case]:
    out: list[Case] = []
    d = DEFAULT
    sc = played(8, d, 3, deal_number=4, totals=[10, 0, 25, 3, 40, 7, 0, 12])
    out.append(end_case(sc, "scoring", "ordinary-then-next-deal-p8", "An ordinary deal 4: "
                        "card points become deal scores and are added to the totals; deal 5 "
                        "is then dealt by the next seat and passes left.",
                        ["SCORE.CARD_POINTS", "SCORE.DEAL", "GAME.END", "DEAL.DEALER",
                         "PASS.DIRECTION"], then_deal=3))
    sc = played(9, d, 9)
    out.append(end_case(sc, "scoring", "extras-with-points-p9", "The winner of trick 1 took "
                        "the 5 extras, a QS and two hearts among them, and scores them.",
                        ["EXTRAS.FIRST_TRICK", "SCORE.CARD_POINTS", "SCORE.DEAL"]))
    base = played(8, d, 119)
    out.append(end_case(base.copy(), "scoring", "last-trick-void-nobody-p8", "The last trick "
                        "is void: its cards are collected by nobody and score nothing.",
                        ["VOID.LAST", "VOID.TRICK", "SCORE.DEAL", "MOON.CONDITION"]))
    out.append(end_case(base.with_setup(preset("wikipedia")), "scoring",
                        "last-trick-void-leader-wikipedia-p8", "Under last_trick_void leader, "
                        "the leader of the void last trick collects it.", ["VOID.LAST"]))
    out.append(end_case(base.with_setup(SPLIT), "scoring", "last-trick-void-split-p8",
                        "Under last_trick_void split-highest-pair, the pending cards are dealt "
                        "alternately to the two players of the highest cancelled pair of the "
                        "led suit.", ["VOID.LAST"]))
    sc = played(6, d, 14)
    out.append(end_case(sc, "scoring", "last-trick-void-queen-uncollected-p6", "A QS in the "
                        "void last trick is uncollected: the card points sum to 52 less its "
                        "13 and the hearts with it.", ["VOID.LAST", "SCORE.DEAL",
                                                        "SCORE.CARD_POINTS"]))
    sc = played(6, preset("hubpages"), 4, totals=[20, 35, 0, 12, 50, 3])
    out.append(end_case(sc, "scoring", "ten-of-diamonds-hubpages-p6", "Under "
                        "ten_of_diamonds_points -10, each 10D collected counts -10.",
                        ["SCORE.CARD_POINTS", "SCORE.DEAL"]))
    sc = played(10, d, 21)
    out.append(end_case(sc, "scoring", "ordinary-p10", "An ordinary 10-player deal with 4 "
                        "extras.", ["SCORE.CARD_POINTS", "SCORE.DEAL", "EXTRAS.FIRST_TRICK"]))
    return out


MOON_HAND_13 = "AC AC KC KC QC QC JC JC 10C 10C 9C 9C 8C"


def moon_deal(ruleset: Ruleset, players: int = 8, shooter_hand: str = MOON_HAND_13,
              extras: str | None = None, fixed: Mapping[int, str] | None = None,
              keep_points: bool = False, totals: Sequence[int] | None = None,
              seed: int = 70) -> Scenario:
    """A built deal in which seat 1 leads every trick with its top clubs and takes all."""
    sc = build(players, ruleset, {1: shooter_hand, **(fixed or {})}, extras=extras,
               totals=totals, seed=seed)
    sc.autoplay(controller(1, keep_points))
    return sc


NEAR_MOON_X = {5: "8C 7C 7C 6C 6C 5C 5C 4C 4C 3C 3C 2C 2C"}


def gen_moon() -> list[Case]:
    out: list[Case] = []
    d = DEFAULT
    for choice in (MoonChoice.SUBTRACT, MoonChoice.ADD):
        out.append(end_case(moon_deal(d), "moon", f"choice-{choice}-p8", f"Seat 1 collects "
                            f"every heart and both QS and chooses {choice}.",
                            ["MOON.CONDITION", "MOON.CHOICE", "SCORE.DEAL"], moon=choice))
    out.append(end_case(moon_deal(preset("boardgamegeek")), "moon", "others-52-boardgamegeek-p8",
                        "Under moon others-52 there is no choice: every other player scores "
                        "+52.", ["MOON.CHOICE", "MOON.CONDITION"]))
    out.append(end_case(moon_deal(OTHERS_104), "moon", "others-104-p8", "Under moon others-104 "
                        "every other player scores +104.", ["MOON.CHOICE", "MOON.CONDITION"]))
    out.append(end_case(moon_deal(preset("hubpages")), "moon", "subtract-with-10d-hubpages-p8",
                        "A moon under ten_of_diamonds_points -10: the 10D points still count "
                        "beside the moon score.",
                        ["MOON.CHOICE", "SCORE.CARD_POINTS", "MOON.CONDITION"],
                        moon=MoonChoice.SUBTRACT))
    out.append(end_case(moon_deal(d, 9, "AC AC KC KC QC QC JC JC 10C 10C 9C",
                                  extras="AH KH QH QS 2H"), "moon", "through-extras-p9",
                        "The shooter's moon counts a QS and hearts that came with the extras.",
                        ["MOON.CONDITION", "EXTRAS.FIRST_TRICK", "MOON.CHOICE"],
                        moon=MoonChoice.ADD))
    near = moon_deal(d, fixed=NEAR_MOON_X, keep_points=True, seed=71)
    out.append(end_case(near.copy(), "moon", "void-last-trick-no-moon-p8", "Seat 1 takes 12 "
                        "tricks, but the void last trick holds hearts that nobody collects: "
                        "no moon.", ["MOON.CONDITION", "VOID.LAST", "SCORE.DEAL"]))
    out.append(end_case(near.with_setup(preset("wikipedia")), "moon",
                        "void-last-trick-leader-moon-wikipedia-p8", "Under last_trick_void "
                        "leader, seat 1 also collects the void last trick and shoots the moon.",
                        ["MOON.CONDITION", "VOID.LAST", "MOON.CHOICE"], moon=MoonChoice.SUBTRACT))
    out.append(end_case(near.with_setup(SPLIT), "moon", "void-last-trick-split-no-moon-p8",
                        "Under last_trick_void split-highest-pair, the last trick is split "
                        "between the two 8C players: no moon.",
                        ["MOON.CONDITION", "VOID.LAST"]))
    return out


def gen_game_end() -> list[Case]:
    out: list[Case] = []
    d = DEFAULT
    base = played(8, d, 3)
    scores = dry_scores(base)
    top = max(range(8), key=lambda s: (scores[s], -s))
    rest = [s for s in range(8) if s != top]

    def totals_for(top_final: int, low: Sequence[int] = ()) -> list[int]:
        t = [60 + 7 * i for i in range(8)]
        for s in low:
            t[s] = 40 - scores[s]
        t[top] = top_final - scores[top]
        return t

    out.append(end_case(base.with_setup(totals=totals_for(150)), "game-end",
                        "reaches-target-exactly-p8", "A total reaches exactly 150 after the "
                        "deal: the game ends and the lowest total wins.",
                        ["GAME.END", "GAME.WINNER", "SCORE.DEAL"]))
    out.append(end_case(base.with_setup(totals=totals_for(149)), "game-end", "just-below-p8",
                        "The highest total is 149 after the deal: the game goes on.",
                        ["GAME.END"]))
    out.append(end_case(base.with_setup(totals=totals_for(170, rest[:2])), "game-end",
                        "tie-for-lowest-p8", "Two players tie for the lowest total: both "
                        "win.", ["GAME.WINNER", "GAME.END"]))
    out.append(end_case(base.with_setup(totals=totals_for(170, rest[:3])), "game-end",
                        "three-way-tie-p8", "Three players tie for the lowest total: all "
                        "three win.", ["GAME.WINNER", "GAME.END"]))
    hub = played(8, preset("hubpages"), 3)
    hs = dry_scores(hub)
    htop = max(range(8), key=lambda s: (hs[s], -s))
    t = [30 + 5 * i for i in range(8)]
    t[htop] = 100 - hs[htop]
    out.append(end_case(hub.with_setup(totals=t), "game-end", "target-100-hubpages-p8",
                        "Under target 100 the game ends when a total reaches 100.",
                        ["GAME.END", "GAME.WINNER"]))
    one = Ruleset.from_dict({"target": 1})
    out.append(end_case(played(7, one, 5), "game-end", "target-1-p7", "Under target 1 the "
                        "first deal that gives anyone a point ends the game; the lowest "
                        "total wins.", ["GAME.END", "GAME.WINNER"]))
    out.append(end_case(moon_deal(d, totals=[130, 100, 130, 128, 140, 131, 135, 129]),
                        "game-end", "moon-add-ends-game-p8", "The shooter's add choice "
                        "pushes the others past 150: the game ends after the moon choice "
                        "and the shooter wins.", ["GAME.END", "MOON.CHOICE", "GAME.WINNER"],
                        moon=MoonChoice.ADD))
    out.append(end_case(moon_deal(d, totals=[149, 10, 100, 90, 80, 70, 60, 50]), "game-end",
                        "moon-subtract-negative-p8", "A subtract choice takes the shooter's "
                        "total below zero; nobody reaches the target, so the game goes on.",
                        ["MOON.CHOICE", "GAME.END", "SCORE.DEAL"], moon=MoonChoice.SUBTRACT))
    sc = build(6, d, {1: "9C", 2: "10C", 3: "JC", 4: "3C", 5: "2C", 0: "4C"},
               extras="AH 5H", totals=[149, 149, 149, 149, 149, 149], seed=61)
    sc.play("9C", "10C", "JC", "3C", "2C")
    sc.step_play("4C", ("phase", "to_act", "points", "deal_scores", "totals", "winners"))
    out.append(sc.case("game-end", "not-during-a-deal-p6", "Points collected during a deal "
                       "do not end the game before the deal is scored.", ["GAME.END"]))
    return out


def _not_held(hand: Sequence[Card]) -> Card:
    return next(c for c in sorted(set(full_deck())) if c not in hand)


def gen_illegal_action() -> list[Case]:
    out: list[Case] = []
    d = DEFAULT

    def bad(sc: Scenario, action: Action, slug: str, description: str,
            rules: Sequence[str]) -> None:
        sc = sc.copy()
        got = sc.reject(action)
        assert got[0] in rules, (slug, got)
        out.append(sc.case("illegal-action", slug, description, rules))

    follow = build(6, d, {1: "9D", 2: "9D 2D KD AS QS 3H"}, seed=45)
    follow.play("9D")
    bad(follow, Play(2, parse_card("AS")), "follow-suit-p6", "Seat 2 holds diamonds and "
        "plays a spade.", ["FOLLOW.SUIT"])
    bad(follow, Play(3, follow.state.hands[3][0]), "wrong-seat-p6", "Seat 3 plays out of "
        "turn.", ["TURN.ORDER"])
    bad(follow, Play(2, _not_held(follow.state.hands[2])), "card-not-held-p6", "Seat 2 plays "
        "a card it does not hold.", ["TURN.ORDER"])
    bad(follow, Play(6, parse_card("2C")), "no-such-seat-p6", "Seat 6 does not exist in a "
        "6-player game.", ["TURN.ORDER", "PLAYERS.COUNT"])
    bad(follow, Pass(2, follow.state.hands[2][:3]), "pass-while-playing-p6", "A pass during "
        "play.", ["TURN.ORDER"])
    opening = build(6, d, {1: "2C 3C QS AH KH 9D"}, seed=31)
    bad(opening, Play(1, parse_card("AH")), "opening-heart-p6", "The opening lead is a heart "
        "from a hand holding clubs.", ["LEAD.OPENING_CARD"])
    bad(opening, Play(1, parse_card("QS")), "opening-queen-p6", "The opening lead is a QS "
        "from a hand holding clubs.", ["LEAD.OPENING_CARD"])
    bad(opening, ChooseMoon(1, MoonChoice.ADD), "moon-while-playing-p6", "A moon choice "
        "during play.", ["TURN.ORDER", "MOON.CHOICE"])
    bad(opening, next_deal(GameState.start(6), 1), "deal-while-playing-p6", "A deal during "
        "play.", ["TURN.ORDER", "DEAL.SOURCE"])
    trick1 = {1: "3C", 2: "4C", 3: "5C", 4: "6C", 5: "7C"}
    sc = build(6, d, {**trick1, 0: "AC QS AH KH 2D"}, seed=39)
    sc.play("3C", "4C", "5C", "6C", "7C", "AC")
    bad(sc, Play(0, parse_card("AH")), "lead-heart-unbroken-p6", "A heart led before hearts "
        "are broken, from a hand holding other cards.", ["LEAD.HEARTS"])
    bad(sc, Play(1, sc.state.hands[1][0]), "winner-leads-p6", "After a won trick, a seat "
        "other than the winner leads.", ["TURN.ORDER", "TRICK.NEXT_LEADER"])
    hearts14 = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH"
    sc = build(6, d, {1: f"5C QS QS {hearts14}", 2: "5C", 3: "7C", 4: "7C", 5: "9C",
                      0: "9C"}, seed=38)
    sc.play("5C", "5C", "7C", "7C", "9C", "9C")
    bad(sc, Play(1, parse_card("KH")), "heart-after-void-trick1-p6", "After a void trick 1, "
        "its leader leads a heart while holding a QS and hearts are unbroken.",
        ["LEAD.HEARTS", "VOID.LEADER"])
    bad(sc, Play(2, sc.state.hands[2][0]), "void-trick-wrong-leader-p6", "After a void trick, "
        "a seat other than its leader leads.", ["TURN.ORDER", "VOID.LEADER"])
    tpl = preset("hearts-template")
    sc = build(6, tpl, {1: "2C 2C", 2: "QS AH 3D 4S"}, voids={2: "C"}, seed=48)
    sc.play("2C")
    bad(sc, Play(2, parse_card("QS")), "first-trick-queen-template", "Under "
        "first_trick_points forbidden, a QS discarded on trick 1.", ["FOLLOW.FIRST_TRICK"])
    bad(sc, Play(2, parse_card("AH")), "first-trick-heart-template", "Under "
        "first_trick_points forbidden, a heart discarded on trick 1.", ["FOLLOW.FIRST_TRICK"])
    lcg = preset("lovecardgames")
    sc = build(6, lcg, {3: "2C", 5: "2C"}, seed=36)
    bad(sc, Play(3, sc.state.hands[3][1]), "two-of-clubs-other-card", "Under two-of-clubs, "
        "the holder of a 2C opens with another card.", ["LEAD.OPENING_CARD"])
    bad(sc, Play(1, sc.state.hands[1][0]), "two-of-clubs-wrong-leader", "Under two-of-clubs, "
        "the dealer's left opens although it holds no 2C.",
        ["TURN.ORDER", "LEAD.OPENING_LEADER"])
    sc = build(6, preset("hubpages"), {1: "10D 2C AH QS 5D"}, seed=33)
    bad(sc, Play(1, parse_card("10D")), "opening-ten-of-diamonds-hubpages", "Under "
        "left-of-dealer-no-scoring with a scoring 10D, the 10D opens.",
        ["LEAD.OPENING_CARD", "SCORE.CARD_POINTS"])
    passing = seeded(6, d, 11)
    h1 = passing.state.hands[1]
    bad(passing, Play(1, h1[0]), "play-while-passing-p6", "A play during the passing phase.",
        ["TURN.ORDER"])
    bad(passing, Pass(1, h1[:2]), "pass-two-cards-p6", "A pass of 2 cards when the ruleset "
        "passes 3.", ["PASS.CARDS"])
    bad(passing, Pass(1, h1[:4]), "pass-four-cards-p6", "A pass of 4 cards.", ["PASS.CARDS"])
    bad(passing, Pass(1, (*h1[:2], _not_held(h1))), "pass-card-not-held-p6", "A pass of a "
        "card the seat does not hold.", ["PASS.CARDS"])
    single = next(c for c in h1 if h1.count(c) == 1)
    bad(passing, Pass(1, (single, single, h1[-1] if h1[-1] != single else h1[0])),
        "pass-both-copies-holding-one-p6", "A pass of both copies of a card of which the "
        "seat holds one.", ["PASS.CARDS"])
    twice = passing.copy()
    twice.pre(Pass(1, h1[:3]))
    bad(twice, Pass(1, h1[3:6]), "pass-twice-p6", "A seat passes a second time: a pass once "
        "given cannot be changed.", ["PASS.EXCHANGE"])
    bgg = seeded(8, preset("boardgamegeek"), 12)
    bad(bgg, Pass(1, bgg.state.hands[1][:3]), "pass-three-of-two-boardgamegeek", "Under "
        "pass_count 2, a pass of 3 cards.", ["PASS.CARDS"])
    hold = seeded(7, preset("bicycle"), 13)
    bad(hold, Pass(1, hold.state.hands[1][:3]), "pass-under-hold-bicycle", "Under "
        "pass_cycle [hold] there is no passing phase.", ["TURN.ORDER", "PASS.DIRECTION"])
    moon = moon_deal(d)
    moon.pre(last_card(moon))
    bad(moon, ChooseMoon(2, MoonChoice.ADD), "moon-by-other-seat-p8", "A seat other than the "
        "shooter makes the moon choice.", ["TURN.ORDER", "MOON.CHOICE"])
    bad(moon, Play(1, parse_card("2C")), "play-during-moon-choice-p8", "A play while the "
        "moon choice is awaited.", ["TURN.ORDER", "MOON.CHOICE"])
    moon52 = moon_deal(preset("boardgamegeek"))
    moon52.pre(last_card(moon52))
    bad(moon52, ChooseMoon(1, MoonChoice.SUBTRACT), "moon-choice-without-choice-"
        "boardgamegeek", "Under moon others-52 there is no choice to make.",
        ["TURN.ORDER", "MOON.CHOICE"])
    scored = played(8, d, 3)
    scored.pre(last_card(scored))
    good = next_deal(scored.state, 3)
    short = DealCards((good.hands[0][1:], (*good.hands[1], good.hands[0][0]), *good.hands[2:]),
                      good.extras)
    bad(scored, short, "deal-wrong-sizes-p8", "A deal whose hands are not all 13 cards.",
        ["DEAL.SIZE"])
    three = DealCards(((*good.hands[0][1:], good.hands[1][0]), *good.hands[1:]), good.extras)
    bad(scored, three, "deal-card-three-times-p8", "A deal that holds one card three times "
        "and another once.", ["DECK.CARDS"])
    bad(scored, Play(1, parse_card("2C")), "play-between-deals-p8", "A play after the deal is "
        "scored, before the next deal.", ["TURN.ORDER"])
    over = played(8, d, 3).with_setup(totals=[60, 131, 87, 81, 91, 95, 117, 111])
    over.pre(last_card(over))
    assert over.state.phase is Phase.GAME_OVER
    bad(over, next_deal(over.state, 3), "deal-after-game-over-p8", "A deal after the game is "
        "over.", ["TURN.ORDER", "GAME.END"])
    bad(over, Play(1, parse_card("2C")), "play-after-game-over-p8", "A play after the game "
        "is over.", ["TURN.ORDER", "GAME.END"])
    return out


def perft(state: GameState, depth: int) -> tuple[int, dict[str, int], int]:
    """Leaf count, per-first-card counts, and internal nodes (the cost of a protocol replay)."""
    internal = 0

    def count(st: GameState, d: int) -> int:
        nonlocal internal
        plays = st.legal_plays()
        if d == 1:
            return len(plays)
        internal += 1
        total = 0
        for c in plays:
            seat = st.to_act
            assert seat is not None
            total += count(st.apply_unchecked(Play(seat, c))[0], d - 1)
        return total

    divide: dict[str, int] = {}
    seat = state.to_act
    assert seat is not None
    for c in state.legal_plays():
        divide[str(c)] = count(state.apply_unchecked(Play(seat, c))[0], depth - 1) \
            if depth > 1 else 1
    return sum(divide.values()), divide, internal + 1


def perft_case(sc: Scenario, depth: int, slug: str, description: str,
               rules: Sequence[str]) -> Case:
    nodes, divide, _ = perft(sc.state, depth)
    case = sc.case("perft", slug, description, rules, depth=depth,
                   expected={"nodes": nodes, "divide": divide})
    del case["steps"]
    return case


def _first_with(sc: Scenario, seed: int, ok: Callable[[GameState], bool]) -> Scenario:
    """Play on with the built-in player until ``ok`` holds (deterministic)."""
    rng = random.Random(seed)
    while not ok(sc.state):
        assert sc.state.phase in (Phase.PASSING, Phase.PLAYING)
        sc.pre(choose(sc.state, rng))
    return sc


def _cancel_possible(st: GameState) -> bool:
    if st.phase is not Phase.PLAYING or not st.trick or st.trick_number < 2:
        return False
    seat = st.to_act
    assert seat is not None
    return any(c in st.trick for c in st.legal_plays()) and len(st.trick) <= 3


def gen_perft() -> list[Case]:
    out: list[Case] = []
    d = DEFAULT
    sc = _first_with(seeded(6, d, 7), 7, lambda s: s.phase is Phase.PLAYING and len(s.trick) == 3)
    out.append(perft_case(sc, 4, "mid-trick1-p6", "Trick 1 half played: the rest of the trick "
                          "and the next lead.", ["FOLLOW.SUIT", "TRICK.WINNER",
                                                 "TRICK.NEXT_LEADER", "LEAD.HEARTS",
                                                 "TRICK.CANCEL"]))
    sc = _first_with(seeded(8, d, 2), 2, _cancel_possible)
    out.append(perft_case(sc, 4, "cancel-possible-p8", "Mid-trick, the seat to act can cancel "
                          "a card on the table.", ["TRICK.CANCEL", "FOLLOW.SUIT",
                                                   "TRICK.WINNER", "VOID.TRICK"]))
    sc = build(7, d, {1: "5C", 2: "5C", 3: "7C", 4: "7C", 5: "9C", 6: "9C", 0: "2D"},
               voids={0: "C"}, seed=81)
    sc.play("5C", "5C", "7C", "7C", "9C", "9C")
    out.append(perft_case(sc, 3, "void-trick-completes-p7", "The last card completes a void "
                          "trick; its leader leads again.", ["VOID.TRICK", "VOID.LEADER",
                                                               "LEAD.HEARTS", "FOLLOW.SUIT"]))
    sc = _first_with(seeded(6, d, 8), 8, lambda s: s.phase is Phase.PLAYING)
    out.append(perft_case(sc, 3, "opening-lead-p6", "From the opening lead.",
                          ["LEAD.OPENING_CARD", "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK"]))
    sc = _first_with(seeded(11, d, 9), 9,
                     lambda s: s.phase is Phase.PLAYING and s.trick_number == 2
                     and len(s.trick) == 8)
    out.append(perft_case(sc, 4, "trick2-end-p11", "The end of trick 2 and the start of "
                          "trick 3 at 11 players.", ["FOLLOW.SUIT", "TRICK.NEXT_LEADER",
                                                     "TRICK.CANCEL", "LEAD.HEARTS"]))
    tpl = preset("hearts-template")
    sc = _first_with(seeded(6, tpl, 10), 10,
                     lambda s: s.phase is Phase.PLAYING and len(s.trick) == 2)
    out.append(perft_case(sc, 3, "first-trick-forbidden-template", "Trick 1 under "
                          "first_trick_points forbidden and the two-of-clubs lead.",
                          ["FOLLOW.FIRST_TRICK", "FOLLOW.SUIT", "LEAD.OPENING_CARD"]))
    mensa = preset("mensa")
    sc = _first_with(seeded(9, mensa, 11), 11,
                     lambda s: s.phase is Phase.PLAYING and s.trick_number == 2
                     and len(s.trick) == 7)
    out.append(perft_case(sc, 4, "not-needed-mensa-p9", "End of trick 2 and the next lead "
                          "under hearts_broken_by not-needed.",
                          ["LEAD.HEARTS", "HEARTS.BROKEN", "FOLLOW.SUIT"]))
    return out


TRANSCRIPTS = [
    # preset, players, game seed, first dealer, deals from the end (None: the whole game)
    ("spruce", 8, 15, 0, None),
    ("hubpages", 11, 15, 3, None),
    ("bicycle", 6, 13, 0, None),
    ("toycrossing", 7, 4, 2, 2),
    ("wikipedia", 9, 5, 0, 2),
    ("boardgamegeek", 10, 6, 1, 2),
    ("lovecardgames", 8, 7, 0, 3),
    ("mensa", 9, 8, 4, 2),
    ("hearts-template", 10, 9, 0, 3),
]


#: Rules every game exercises; EVENT_RULES add those of the rarer events.
TRANSCRIPT_RULES = ("DECK.CARDS", "DECK.RANKING", "DEAL.SIZE", "DEAL.DEALER", "PASS.DIRECTION",
                    "TURN.ORDER", "LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "LEAD.HEARTS",
                    "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK", "TRICK.LED_SUIT", "TRICK.WINNER",
                    "TRICK.NEXT_LEADER", "SCORE.CARD_POINTS", "SCORE.DEAL", "MOON.CONDITION",
                    "GAME.END", "GAME.WINNER")
EVENT_RULES: dict[str, tuple[str, ...]] = {
    "CardsPassed": ("PASS.CARDS", "PASS.EXCHANGE"),
    "HeartsBroken": ("HEARTS.BROKEN",),
    "TrickSetAside": ("VOID.TRICK", "VOID.LEADER"),
    "PendingCollected": ("VOID.COLLECT",),
    "ExtrasTaken": ("EXTRAS.FIRST_TRICK",),
    "ExtrasPending": ("EXTRAS.FIRST_TRICK",),
    "PendingSettled": ("VOID.LAST",),
    "MoonShot": ("MOON.CHOICE",),
}


def gen_transcript(name: str, players: int, seed: int, first_dealer: int,
                   last: int | None) -> Case:
    rs = preset(name)
    steps = list(game_steps(players, seed, rs, first_dealer))
    deals = [i for i, (_, a, _, _) in enumerate(steps) if isinstance(a, DealCards)]
    first = 0 if last is None else deals[-last]
    before, action, after, _ = steps[first]
    assert isinstance(action, DealCards)
    sc = Scenario(players, rs, action.hands, action.extras, after.deal_number, after.dealer,
                  before.totals)
    sc.check()
    for _, a, st, _ in steps[first + 1:]:
        checkpoint = (isinstance(a, DealCards | ChooseMoon)
                      or (isinstance(a, Play) and not st.trick)
                      or (isinstance(a, Pass) and st.phase is not Phase.PASSING)
                      or st.phase is Phase.GAME_OVER)
        sc.step(a, None, compare=checkpoint)
    assert sc.state.phase is Phase.GAME_OVER
    span = "the whole game" if last is None else f"the last {last} deals"
    deals_played = sc.state.deal_number - sc.start["deal_number"] + 1
    rules = set(TRANSCRIPT_RULES)
    for _, _, _, events in steps[first:]:
        for e in events:
            rules.update(EVENT_RULES.get(type(e).__name__, ()))
            if isinstance(e, ev.TrickWon | ev.TrickSetAside) and e.cancelled:
                rules.add("TRICK.CANCEL")
    return sc.case("transcript", f"{name}-p{players}-s{seed}",
                   f"Preset {name}, {players} players, game seed {seed}: {span} "
                   f"({deals_played} deals from deal {sc.start['deal_number']}), played by the "
                   "built-in player.", sorted(rules), preset=name, seed=str(seed))


def view_json(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see (VIEW.SEAT), in the form of the seat-view vectors."""
    v = seat_view(state, seat)
    return {
        "seat": seat, "phase": str(v.phase), "deal_number": v.deal_number, "dealer": v.dealer,
        "to_act": v.to_act, "hand": texts(v.hand),
        "passed": None if v.passed is None else texts(v.passed), "passed_to": v.passed_to,
        "passed_seats": list(v.passed_seats),
        "received": None if v.received is None else texts(v.received),
        "received_from": v.received_from,
        "hand_sizes": list(v.hand_sizes), "hearts_broken": v.hearts_broken,
        "tricks": [{"number": t.number, "leader": t.leader, "cards": texts(t.cards),
                    "winner": t.winner} for t in v.tricks],
        "trick": texts(v.current_trick),
        "pending_face_up": texts(sorted(v.pending_cards_seen)),
        "pending_face_down": v.pending_hidden, "extras_count": v.extras_count,
        "extras": None if v.extras is None else texts(v.extras), "totals": list(v.totals),
        "deal_scores": None if v.last_deal is None else list(v.last_deal.scores)}


def gen_seat_view() -> list[Case]:
    out: list[Case] = []

    def view(sc: Scenario, seat: int, slug: str, description: str) -> None:
        case = sc.case("seat-view", slug, description, ["VIEW.SEAT"], seat=seat,
                       expected=view_json(sc.state, seat))
        del case["steps"]
        out.append(case)

    sc = seeded(6, DEFAULT, 91)
    sc.pre(Pass(1, sc.state.hands[1][:3]))
    sc.pre(Pass(2, sc.state.hands[2][-3:]))
    view(sc, 2, "passing-after-own-pass-p6", "While passing: seat 2 sees its own pass and "
         "target and which seats have passed, not what they passed.")
    view(sc, 4, "passing-before-own-pass-p6", "While passing: seat 4 has not passed yet.")
    sc = build(7, DEFAULT, {}, seed=92)
    view(sc, 3, "after-exchange-p7", "After the exchange: seat 3 sees the cards it received "
         "and from whom.")
    sc = build(6, DEFAULT, {1: "5C 8D", 2: "5C 9D", 3: "9D 10D", 4: "KS 3D", 5: "2D 4D",
                            0: "JD 6D"}, voids={3: "C", 4: "C", 5: "C", 0: "C"},
               extras="QH AH", seed=65)
    sc.play("5C", "5C", "9D", "KS", "2D", "JD", "8D")
    view(sc, 4, "extras-pending-face-down-p6", "After a void trick 1: its cards are pending "
         "face up, the extras with them stay face down.")
    sc = played(9, DEFAULT, 9)
    sc.pre(last_card(sc))
    view(sc, 0, "deal-scored-extras-shown-p9", "After the deal is scored, the extras are "
         "shown to every seat.")
    sc = seeded(8, preset("bicycle"), 93)
    sc.play(str(sc.state.legal_plays()[0]))
    view(sc, 5, "hold-no-pass-bicycle-p8", "Under pass_cycle [hold], nobody passed.")
    return out


# --- files ------------------------------------------------------------------------------

KIND_TEXT = {
    "card-notation": "Card text in and out (spec/notation.md): accepted inputs with their "
                     "canonical text and card index, rejected inputs, canonical order.",
    "seeded-deal": "The portable seeded deal (spec/deal.md): seed, players, deal number and "
                   "dealer give the shuffled deck, the hands and the extras.",
    "seat-view": "What one seat may see (VIEW.SEAT) in a position.",
    "passing": "Pass directions and targets, passing in any order, the simultaneous exchange.",
    "legal-plays": "The legal cards of the seat to act in a position; every other card it "
                   "holds is offered and must be rejected.",
    "trick": "The last card of a trick: winner, cancellation, void tricks, the pending pile "
             "and the extras.",
    "scoring": "The last card of a deal: card points, deal scores, totals, cards nobody "
               "collects; the next deal.",
    "moon": "Deals in which one player collects every heart and both QS, or nearly.",
    "game-end": "The end of the game: the target, the winners and ties.",
    "illegal-action": "Actions the rules forbid, each with the rule it breaks.",
    "perft": "The number of legal play sequences of a given depth from a position, with a "
             "per-first-card breakdown.",
    "transcript": "A whole game, or its last deals: every action and the full observation at "
                  "each checkpoint.",
}

GENERATORS: dict[str, Callable[[], list[Case]]] = {
    "card-notation": gen_card_notation,
    "seeded-deal": gen_seeded_deal,
    "seat-view": gen_seat_view,
    "passing": gen_passing,
    "legal-plays": gen_legal_plays,
    "trick": gen_trick,
    "scoring": gen_scoring,
    "moon": gen_moon,
    "game-end": gen_game_end,
    "illegal-action": gen_illegal_action,
    "perft": gen_perft,
}


def document(kind: str, cases: list[Case], description: str | None = None) -> dict[str, Any]:
    return {"format": FORMAT, "contract_version": CONTRACT_VERSION,
            "vectors_version": VECTORS_VERSION, "kind": kind,
            "description": description or KIND_TEXT[kind], "cases": cases}


def build_files() -> dict[str, str]:
    """Every vector file: file name -> text."""
    files: dict[str, str] = {}
    for kind, gen in GENERATORS.items():
        files[f"{kind}.json"] = dumps(document(kind, gen()))
    for name, players, seed, dealer, last in TRANSCRIPTS:
        case = gen_transcript(name, players, seed, dealer, last)
        files[f"transcript-{name}.json"] = dumps(document(
            "transcript", [case], f"{KIND_TEXT['transcript']} {case['description']}"))
    return files


def generate(out: Path) -> list[Path]:
    """Write every vector file into ``out`` (created if missing); return the paths.

    Vector files of ``out`` that the reference no longer generates are removed,
    so that a directory never keeps stale cases; other files are left alone.
    """
    from ..cli.io import make_output_dir, write_text_atomic

    make_output_dir(str(out))
    written = []
    for name, text in build_files().items():
        path = out / name
        write_text_atomic(str(path), text)
        written.append(path)
    for path in sorted(out.glob("*.json")):
        if path not in written and _is_vector_file(path):
            path.unlink()
    return written


def _is_vector_file(path: Path) -> bool:
    from ..cli.io import read_json_file

    if path.is_symlink() or not path.is_file():
        return False
    try:
        data = read_json_file(str(path))
    except RulesRefError:
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


# --- loading and checking ---------------------------------------------------------------


@dataclass(frozen=True)
class VectorFile:
    path: Path
    data: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.data.get("kind"))

    @property
    def cases(self) -> list[Case]:
        cases = self.data.get("cases")
        return cases if isinstance(cases, list) else []


#: Bounds on a vector file (``spec/limits.md``).
MAX_CASES_PER_FILE = 10_000
#: At most this many prefix actions, and this many steps, in one case.
MAX_CASE_ACTIONS = 10_000
#: The deepest perft case a runner walks.
MAX_PERFT_DEPTH = 5


def load_dir(directory: Path) -> list[VectorFile]:
    """Every ``*.json`` vector file of ``directory``, in name order.

    Each file is read as ``rules_ref.cli.io.read_json_file`` reads JSON
    (a size limit, UTF-8, JSON only); a file that cannot be read, or is not
    a JSON object, raises :class:`InputError` naming it. The cases are not
    checked here: see :func:`file_problems` and :func:`require_valid`.
    """
    from ..cli.io import is_dir, read_json_file, shown_path

    if not is_dir(directory):
        raise InputError(f"{shown_path(str(directory))}: no such vectors directory")
    try:
        paths = sorted(directory.glob("*.json"))
    except OSError as exc:
        raise InputError(f"{directory}: cannot list the directory: {exc.strerror}") from None
    files = []
    for path in paths:
        data = read_json_file(str(path))
        if not isinstance(data, dict):
            raise InputError(f"{path}: a vector file is a JSON object")
        files.append(VectorFile(path, data))
    if not files:
        raise InputError(f"{directory}: holds no vector files (*.json)")
    return files


_COMMON = ("id", "description", "rules", "ruleset", "players")
_CASE_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "card-notation": ((*_COMMON, "input", "expected"), ()),
    "seeded-deal": ((*_COMMON, "input", "expected"), ()),
    "seat-view": ((*_COMMON, "start", "prefix", "seat", "expected"), ("facts",)),
    "perft": ((*_COMMON, "start", "prefix", "depth", "expected"), ("facts",)),
    "transcript": ((*_COMMON, "start", "prefix", "steps"), ("facts", "preset", "seed")),
}
_STEPS_FIELDS = ((*_COMMON, "start", "prefix", "steps"), ("facts",))


def _text_list(value: object, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{where}: expected a list of text")


def _actions(value: object, where: str) -> None:
    from ..serialize import action_from_json

    if not isinstance(value, list):
        raise InputError(f"{where}: expected a list of actions")
    if len(value) > MAX_CASE_ACTIONS:
        raise InputError(f"{where}: {len(value)} actions, more than {MAX_CASE_ACTIONS}")
    for i, a in enumerate(value):
        action_from_json(a, f"{where}[{i}]")


def _expect(value: object, where: str) -> None:
    from ..serialize import check_object

    if not isinstance(value, dict) or len(value) != 1:
        raise InputError(f"{where}: expected {{\"observation\": {{...}}}} or "
                         f"{{\"rejected\": {{...}}}}")
    if "observation" in value:
        if not isinstance(value["observation"], dict):
            raise InputError(f"{where}.observation: expected an object of fields")
        return
    if "rejected" not in value:
        raise InputError(f"{where}: expected observation or rejected, got "
                         f"{', '.join(map(str, value))[:40]}")
    r = check_object(value["rejected"], f"{where}.rejected", ("rule",), ("rules",))
    if not isinstance(r["rule"], str):
        raise InputError(f"{where}.rejected.rule: expected a rule ID")
    if "rules" in r:
        _text_list(r["rules"], f"{where}.rejected.rules")


def check_case(kind: str, case: object, where: str) -> None:
    """Raise :class:`InputError` naming the JSON path of what is wrong with a case's shape.

    The shape is what the runners rely on (``spec/vectors/README.md``); the
    values are judged by :func:`check_dir` (the reference must agree).
    """
    from ..serialize import check_int, check_object
    from .adapter import start_message

    required, optional = _CASE_FIELDS.get(kind, _STEPS_FIELDS)
    c = check_object(case, where, required, optional)
    if not isinstance(c["id"], str):
        raise InputError(f"{where}.id: expected text")
    if not isinstance(c["description"], str):
        raise InputError(f"{where}.description: expected text")
    _text_list(c["rules"], f"{where}.rules")
    Ruleset.from_dict(c["ruleset"], f"{where}.ruleset")
    if c["players"] is not None:
        check_int(c["players"], f"{where}.players")
    if kind == "card-notation":
        if not isinstance(c["input"], str):
            _text_list(c["input"], f"{where}.input")
        return
    if kind == "seeded-deal":
        inp = check_object(c["input"], f"{where}.input",
                           ("seed", "players", "deal_number", "dealer"))
        if not isinstance(inp["seed"], str):
            raise InputError(f"{where}.input.seed: expected the seed as decimal text")
        for key in ("players", "deal_number", "dealer"):
            check_int(inp[key], f"{where}.input.{key}")
        return
    start_message(c["start"], f"{where}.start")
    _actions(c["prefix"], f"{where}.prefix")
    if kind == "seat-view":
        check_int(c["seat"], f"{where}.seat", 0, 10)
        return
    if kind == "perft":
        check_int(c["depth"], f"{where}.depth", 1, MAX_PERFT_DEPTH)
        e = check_object(c["expected"], f"{where}.expected", ("divide", "nodes"))
        check_int(e["nodes"], f"{where}.expected.nodes", 0)
        divide = e["divide"]
        if not isinstance(divide, dict):
            raise InputError(f"{where}.expected.divide: expected an object of counts")
        for card, count in divide.items():
            check_int(count, f"{where}.expected.divide.{card}", 0)
        return
    steps = c["steps"]
    if not isinstance(steps, list):
        raise InputError(f"{where}.steps: expected a list of steps")
    if len(steps) > MAX_CASE_ACTIONS:
        raise InputError(f"{where}.steps: {len(steps)} steps, more than {MAX_CASE_ACTIONS}")
    for i, step in enumerate(steps):
        sw = f"{where}.steps[{i}]"
        st = check_object(step, sw, ("action",), ("expect",))
        if st["action"] is not None:
            _actions([st["action"]], f"{sw}.action")
        if "expect" in st and st["expect"] is not None:
            _expect(st["expect"], f"{sw}.expect")


def file_problems(f: VectorFile) -> tuple[list[str], list[Case]]:
    """What is wrong with the shape of a vector file, and its cases of the right shape."""
    name = f.path.name
    data = f.data
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        return [f"{name}: kind: {str(kind)[:40]!r} is not one of {', '.join(KINDS)}"], []
    cases = data.get("cases")
    if not isinstance(cases, list):
        return [f"{name}: cases: expected a list of cases"], []
    if len(cases) > MAX_CASES_PER_FILE:
        return [f"{name}: cases: {len(cases)} cases, more than {MAX_CASES_PER_FILE}"], []
    problems, good = [], []
    for i, case in enumerate(cases):
        try:
            check_case(kind, case, f"cases[{i}]")
        except RulesRefError as exc:
            problems.append(f"{name}: {exc}")
        else:
            good.append(case)
    return problems, good


def require_valid(files: Sequence[VectorFile], kinds: Sequence[str] | None = None) -> None:
    """Raise :class:`InputError` at the first problem of shape in the files of ``kinds``."""
    for f in files:
        if kinds is not None and f.kind in KINDS and f.kind not in kinds:
            continue  # a file of another kind, not run: its cases are not read
        problems, _ = file_problems(f)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise InputError(f"{f.path.parent}/{problems[0]}{more}")


def iter_cases(files: Sequence[VectorFile], kinds: Sequence[str] | None = None,
               ) -> Iterator[tuple[VectorFile, Case]]:
    for f in files:
        if kinds is None or f.kind in kinds:
            for case in f.cases:
                yield f, case


def schema_validator() -> Callable[[object], list[str]] | None:
    """A function listing schema errors, or ``None`` when ``jsonschema`` is not installed."""
    try:
        import jsonschema
    except ImportError:
        return None
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)

    def errors(data: object) -> list[str]:
        found = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
        return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}"
                for e in found[:5]]

    return errors


SCHEMA_NEEDS_DEV = ("schema validation skipped: it needs the jsonschema package "
                    "(pip install 'rules-ref[dev]'); every other check ran")


@dataclass
class CheckReport:
    problems: list[str]
    notes: list[str]
    files: int
    cases: int


def _switch_values() -> list[tuple[str, Json, tuple[str, ...]]]:
    with (spec_dir() / "variants.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return [(s["name"], v["value"], tuple(s["rules"])) for s in data["switch"]
            for v in s["value"]]


def check_dir(directory: Path, replay: bool = True) -> CheckReport:
    """Self-check the vectors of ``directory`` (see the module docstring)."""
    loaded = load_dir(directory)
    problems: list[str] = []
    files = []
    for f in loaded:
        shape, good = file_problems(f)
        problems.extend(shape)
        files.append(VectorFile(f.path, {**f.data, "cases": good}))
    notes: list[str] = []
    validate = schema_validator()
    if validate is None:
        notes.append(SCHEMA_NEEDS_DEV)
    registry_ids = [r.id for r in load_registry().rules]
    seen: dict[str, str] = {}
    covered: set[str] = set()
    n_cases = 0
    for f in files:
        name = f.path.name
        if validate is not None:
            original = next(x for x in loaded if x.path == f.path)
            problems.extend(f"{name}: schema: {e}" for e in validate(original.data))
        if f.data.get("contract_version") != CONTRACT_VERSION:
            problems.append(f"{name}: contract_version {f.data.get('contract_version')!r}, "
                            f"this runner follows {CONTRACT_VERSION}")
        if f.kind not in KINDS:
            problems.append(f"{name}: unknown kind {f.kind!r}")
        for case in f.cases:
            n_cases += 1
            cid = str(case.get("id"))
            if cid in seen:
                problems.append(f"{name}: duplicate id {cid} (also in {seen[cid]})")
            seen[cid] = name
            if not cid.startswith(f"{f.kind}/"):
                problems.append(f"{name}: id {cid} does not start with {f.kind}/")
            for rule in case.get("rules", []):
                if rule not in registry_ids:
                    problems.append(f"{name}: {cid} cites unknown rule {rule}")
                if f.kind != "transcript":
                    covered.add(rule)
            if f.kind in PROTOCOL_KINDS and isinstance(case.get("start"), dict) and (
                    case["start"].get("players") != case.get("players")
                    or case["start"].get("ruleset") != case.get("ruleset")):
                problems.append(f"{name}: {cid}: players/ruleset differ from its start message")
    problems.extend(f"rule {r} is covered by no vector (transcripts aside)"
                    for r in registry_ids if r not in covered)
    targeted = [c for f, c in iter_cases(files) if f.kind != "transcript"]
    for switch, value, rules in _switch_values():
        if not any(c.get("ruleset", {}).get(switch) == value
                   and set(rules) & set(c.get("rules", [])) for c in targeted):
            problems.append(f"switch {switch} = {value!r} is covered by no targeted vector citing "
                            f"{', '.join(rules)}")
    for name, rs in presets().items():
        hits = [c for f, c in iter_cases(files, ["transcript"]) if c.get("preset") == name]
        if not hits:
            problems.append(f"preset {name} has no transcript")
        problems.extend(f"{c['id']}: ruleset is not preset {name}" for c in hits
                        if c.get("ruleset") != rs.to_dict())
    if replay:
        problems.extend(replay_reference(files))
    return CheckReport(problems, notes, len(files), n_cases + sum(
        len(f.cases) - len(g.cases) for f, g in zip(loaded, files, strict=True)))


def replay_reference(files: Sequence[VectorFile]) -> list[str]:
    """Every case, checked against the reference engine: the vectors must still hold."""
    from .vector_runner import FAIL, InProcess, run_case

    problems = []
    driver = InProcess()
    for f, case in iter_cases(files):
        try:
            if f.kind in PROTOCOL_KINDS:
                outcome = run_case(driver, case)
                if outcome.status == FAIL:
                    problems.append(f"{f.path.name}: the reference disagrees: {outcome.line()}")
            else:
                got = unit_expected(f.kind, case)
                if got != case.get("expected"):
                    problems.append(f"{f.path.name}: {case['id']}: the reference now gives "
                                    f"{json.dumps(got)[:200]}")
        except (RulesRefError, KeyError, TypeError, ValueError) as exc:
            problems.append(f"{f.path.name}: {case.get('id')}: cannot replay: {exc}")
    return problems


def unit_expected(kind: str, case: Case) -> Json:
    """What the reference gives for a case of a unit kind (card notation, seeded deal, view)."""
    if kind == "card-notation":
        text = case["input"]
        if isinstance(text, list):
            order = sorted(parse_card(t) for t in text)
            return {"canonical": texts(order), "index": [int(c) for c in order]}
        try:
            c = parse_card(text)
        except RulesRefError:
            return {"rejected": True}
        return {"canonical": str(c), "index": int(c)}
    if kind == "seeded-deal":
        inp = case["input"]
        try:
            d = seeded_deal(int(inp["seed"]), inp["players"], inp["deal_number"], inp["dealer"])
        except SetupError as exc:
            return {"rejected": True, "rule": exc.rule_id}
        return {"deck": texts(shuffled_deck(int(inp["seed"]), inp["deal_number"])),
                "hands": [texts(h) for h in d.hands], "extras": texts(d.extras)}
    if kind == "seat-view":
        from ..serialize import action_from_json

        state = start_state(case["start"])
        for a in case["prefix"]:
            state, _ = state.apply(action_from_json(a))
        return view_json(state, case["seat"])
    raise InputError(f"{kind} is not a unit kind")
