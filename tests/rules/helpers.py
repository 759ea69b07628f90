"""Builders shared by the rule tests: card text, explicit deals, scripted play.

Every position is built from an explicit :class:`~rules_ref.DealCards`, so a
test states the cards it cares about and the rest of the deck is filled in
deterministically (:func:`fill_deal`), or a whole deal is laid out trick by
trick (:func:`scripted_deal`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from itertools import permutations
from typing import Any

import pytest

from rules_ref import (
    DealCards,
    GameState,
    IllegalAction,
    Play,
    Ruleset,
    SetupError,
    parse_card,
    parse_cards,
)
from rules_ref.actions import Action
from rules_ref.cards import Card, Suit, full_deck
from rules_ref.deal import extras_count, hand_size
from rules_ref.events import Event
from rules_ref.ruleset import PassDirection

CardsLike = str | Sequence[Card]

#: The suits of the filler tricks of :func:`scripted_deal`, in the order tried first.
FILL_SUITS = (Suit.C, Suit.D, Suit.S, Suit.H)


def cards(text: CardsLike) -> tuple[Card, ...]:
    """Cards from short text (``"QS 10H 2C"``) or a sequence of cards."""
    return parse_cards(text) if isinstance(text, str) else tuple(text)


def card(text: str) -> Card:
    return parse_card(text)


def multiset(text: CardsLike) -> Counter[Card]:
    return Counter(cards(text))


def no_pass(**switches: Any) -> Ruleset:
    """A ruleset without passing (``pass_cycle = hold``), other switches as given."""
    return Ruleset(pass_cycle=(PassDirection.HOLD,), **switches)


NO_PASS = no_pass()


def _take(pool: Counter[Card], wanted: Sequence[Card], what: str) -> None:
    need = Counter(wanted)
    short = need - pool
    if short:
        raise ValueError(f"{what}: more copies than the deck holds of "
                         f"{' '.join(str(c) for c in sorted(short.elements()))}")
    pool.subtract(need)


def fill_deal(players: int, hands: Mapping[int, CardsLike] | None = None,
              extras: CardsLike | None = None,
              voids: Mapping[int, str] | None = None) -> DealCards:
    """An explicit deal holding the given cards, the rest filled in deterministically.

    ``hands`` gives some cards (or a whole hand) for some seats; ``extras``
    the extras (default: whatever is left over); ``voids`` the suits a seat
    must not be given when its hand is filled (``{2: "SH"}``). Seats with
    voids are filled first, then the others in seat order, each from the
    remaining cards in canonical order.
    """
    size = hand_size(players)
    pool: Counter[Card] = Counter(full_deck())
    out: list[list[Card]] = [[] for _ in range(players)]
    for seat, given in (hands or {}).items():
        out[seat] = list(cards(given))
        if len(out[seat]) > size:
            raise ValueError(f"seat {seat}: {len(out[seat])} cards, more than {size}")
        _take(pool, out[seat], f"seat {seat}")
    fixed_extras = None if extras is None else cards(extras)
    if fixed_extras is not None:
        _take(pool, fixed_extras, "extras")
    void_suits = {seat: {Suit[s] for s in text.upper()} for seat, text in (voids or {}).items()}
    for seat, suits in void_suits.items():
        bad = [c for c in out[seat] if c.suit in suits]
        if bad:
            raise ValueError(f"seat {seat} is void in {suits} but is given {bad}")
    order = sorted(range(players), key=lambda s: (s not in void_suits, s))
    for seat in order:
        need = size - len(out[seat])
        allowed = [c for c in sorted(pool.elements())
                   if c.suit not in void_suits.get(seat, set())][:need]
        if len(allowed) < need:
            raise ValueError(f"seat {seat}: not enough cards left to fill the hand")
        _take(pool, allowed, f"seat {seat}")
        out[seat].extend(allowed)
    rest = tuple(sorted(pool.elements()))
    if fixed_extras is None:
        fixed_extras = rest
    elif rest:
        raise ValueError(f"cards left over: {' '.join(map(str, rest))}")
    if len(fixed_extras) != extras_count(players):
        raise ValueError(f"{len(fixed_extras)} extras, not {extras_count(players)}")
    return DealCards(tuple(tuple(sorted(h)) for h in out), fixed_extras)


def dealt(players: int, hands: Mapping[int, CardsLike] | None = None,
          extras: CardsLike | None = None, voids: Mapping[int, str] | None = None, *,
          ruleset: Ruleset = NO_PASS, first_dealer: int = 0,
          totals: tuple[int, ...] | None = None, next_deal: int = 1) -> GameState:
    """A new game after its deal (see :func:`fill_deal`); by default without passing."""
    state = GameState.start(players, ruleset, first_dealer, totals, next_deal)
    state, _ = state.apply(fill_deal(players, hands, extras, voids))
    return state


def play(state: GameState, text: CardsLike) -> tuple[GameState, tuple[Event, ...]]:
    """Play the cards in order, each by the seat whose turn it is."""
    events: list[Event] = []
    for c in cards(text):
        seat = state.to_act
        assert seat is not None, f"nobody is to act before {c}"
        state, new = state.apply(Play(seat, c))
        events.extend(new)
    return state, tuple(events)


def snapshot(state: GameState) -> dict[str, object]:
    """Every field of a state's value (caches excluded), to show that nothing changed."""
    return {f.name: getattr(state, f.name) for f in fields(GameState) if f.compare}


def assert_illegal(state: GameState, action: Action, rule_id: str) -> IllegalAction:
    """``action`` raises IllegalAction naming ``rule_id`` first and leaves ``state`` as it was."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.rule_id == rule_id, str(info.value)
    assert snapshot(state) == before
    assert state.violations(action)[0].rule_id == rule_id
    return info.value


def refusal(rule_id: str, set_up: Callable[[], object]) -> str:
    """``set_up()`` (a game, a deal) raises SetupError naming ``rule_id``: its message."""
    with pytest.raises(SetupError) as info:
        set_up()
    assert info.value.rule_id == rule_id, str(info.value)
    return str(info.value)


def assert_illegal_cards(state: GameState, seat: int, texts: str, rule_id: str) -> None:
    """Each card of ``texts`` played by ``seat`` is illegal, naming ``rule_id`` (as
    :func:`assert_illegal` checks it)."""
    for c in parse_cards(texts):
        assert_illegal(state, Play(seat, c), rule_id)


# --- whole deals laid out trick by trick ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Script:
    """A whole deal: the cards dealt and every card played, in play order."""

    deal: DealCards
    plays: tuple[Card, ...]


def _filler_chunks(pool: Counter[Card], players: int,
                   suits: Sequence[Suit]) -> list[list[Card]]:
    seq: list[Card] = []
    for suit in suits:
        in_suit = [c for c in pool.elements() if c.suit == suit]
        first = sorted(set(in_suit), key=lambda c: -c.rank)
        second = sorted((Counter(in_suit) - Counter(first)).elements(), key=lambda c: -c.rank)
        seq += first + second
    return [seq[i:i + players] for i in range(0, len(seq), players)]


def _lay_filler(chunk: list[Card], leader: int, players: int,
                reserved: list[set[Suit]]) -> list[tuple[int, Card]] | None:
    """One filler trick in play order as (seat, card), or None if it cannot be legal."""
    suit = chunk[0].suit
    lead = max((c for c in chunk if c.suit == suit), key=lambda c: c.rank)
    if chunk.count(lead) != 1:
        return None
    rest = list(chunk)
    rest.remove(lead)
    seats = [(leader + i) % players for i in range(1, players)]
    same = [c for c in rest if c.suit == suit]
    other = [c for c in rest if c.suit != suit]
    need = [s for s in seats if suit in reserved[s]]
    if len(need) > len(same):
        return None
    given = dict(zip(need, same, strict=False))
    spare = same[len(need):] + other
    for s in seats:
        if s not in given:
            given[s] = spare.pop(0)
    return [(leader, lead)] + [(s, given[s]) for s in seats]


def scripted_deal(players: int, filler_leader: int, head: Sequence[tuple[int, str]] = (),
                  tail: Sequence[tuple[int, str]] = (), extras: CardsLike = "") -> Script:
    """A whole deal: the ``head`` tricks, filler tricks, then the ``tail`` tricks.

    Each head or tail trick is ``(leader, cards in play order)``. The filler
    tricks use every card that is not in a head or tail trick or the extras,
    suit by suit (hearts last when the tail allows it); each is led by
    ``filler_leader`` with the highest card of the led suit in it, unique in
    the trick, so ``filler_leader`` wins them all. A seat that still holds
    the led suit for a tail trick is given a card of that suit, so every
    filler trick follows suit legally.
    """
    n = players
    extra_cards = cards(extras)
    if len(extra_cards) != extras_count(n):
        raise ValueError(f"{len(extra_cards)} extras, not {extras_count(n)}")
    pool: Counter[Card] = Counter(full_deck())
    _take(pool, extra_cards, "extras")
    hands: list[list[Card]] = [[] for _ in range(n)]

    def lay(trick: Sequence[tuple[int, str]]) -> list[Card]:
        played: list[Card] = []
        for leader, text in trick:
            tc = cards(text)
            if len(tc) != n:
                raise ValueError(f"trick {text!r} has {len(tc)} cards, not {n}")
            _take(pool, tc, f"trick {text!r}")
            for i, c in enumerate(tc):
                hands[(leader + i) % n].append(c)
            played.extend(tc)
        return played

    head_plays = lay(head)
    reserved_from = [len(h) for h in hands]
    tail_plays = lay(tail)
    reserved = [{c.suit for c in hands[s][reserved_from[s]:]} for s in range(n)]
    filler: list[tuple[int, Card]] | None = None
    # Hearts last if possible (a Q♠ then breaks hearts before a heart is led).
    for order in sorted(permutations(FILL_SUITS), key=lambda o: o.index(Suit.H) != 3):
        laid = [_lay_filler(chunk, filler_leader, n, reserved)
                for chunk in _filler_chunks(pool, n, order)]
        if all(t is not None for t in laid):
            filler = [p for t in laid if t is not None for p in t]
            break
    if filler is None:
        raise ValueError("no suit order gives legal filler tricks for this tail")
    for seat, c in filler:
        hands[seat].append(c)
    filler_plays = [c for _, c in filler]
    plays = tuple(head_plays + filler_plays + tail_plays)
    deal = DealCards(tuple(tuple(sorted(h)) for h in hands), extra_cards)
    return Script(deal, plays)


def run_script(script: Script, *, ruleset: Ruleset = NO_PASS, first_dealer: int = 0,
               totals: tuple[int, ...] | None = None,
               next_deal: int = 1) -> tuple[GameState, tuple[Event, ...]]:
    """Start a game, deal the script's cards and play every card of it."""
    players = len(script.deal.hands)
    state = GameState.start(players, ruleset, first_dealer, totals, next_deal)
    state, first = state.apply(script.deal)
    state, rest = play(state, script.plays)
    return state, first + rest


# --- three whole 8-player deals (first dealer 7, so seat 0 leads; no extras) ---------------
# Seat 0 wins every filler trick; only the tail tricks differ.

#: Trick 13 is won by seat 3 (A♣ over the led 2♣) with five hearts in it: no moon,
#: card points (47, 0, 0, 5, 0, 0, 0, 0).
SHARED_END = ((0, "2C 5H 6H AC 7H 8H 9H 2D"),)

#: Tricks 12 and 13 are void (the diamonds, then the clubs, all cancel); the 16 cards
#: stay pending at the end, three hearts among them: seat 0 has 49 card points.
VOID_END = ((0, "9D 9D 4D 4D 8S 8S 6D 6D"), (0, "QC 5H KC QC 2H KC 2D 7H"))

#: Seat 0 also wins trick 13 and so collects every card: a moon.
MOON_END = ((0, "QC JC QD QD KS KS QH QH"),)


def eight_player_deal(tail: Sequence[tuple[int, str]], *, ruleset: Ruleset = NO_PASS,
                      totals: tuple[int, ...] | None = None
                      ) -> tuple[GameState, tuple[Event, ...]]:
    """Play a whole 8-player deal ending in ``tail``, first dealer 7."""
    return run_script(scripted_deal(8, 0, tail=tail), ruleset=ruleset, first_dealer=7,
                      totals=totals)
