"""Faults of the rules that the findings' catalogue of slips does not cover.

The catalogue (:mod:`rules_ref.findings.alternatives`) reads a rule otherwise
by another value of a switch or by a common slip of a trick's resolution,
of what its winner collects, or of a moon. Many rules have neither: who
wins a trick of several suits, who leads after a trick, whose turn it is,
what a hand must follow. Each :class:`Fault` here is a plausible way to
play one of them otherwise, as an engine changed in one place would:

* ``rule-not-enforced``: the engine accepts every action that breaks this
  rule alone and lists every card it alone forbids as legal;
* ``winner-any-suit`` (``TRICK.WINNER``): the highest card not cancelled
  wins, whatever its suit;
* ``leader-rotates`` and ``leader-stays`` (``TRICK.NEXT_LEADER``): the
  seat after a trick's leader leads the next trick, or its leader again, not
  its winner;
* ``card-not-breaking`` (``HEARTS.BROKEN``): the card that broke hearts
  never does;
* ``opening-lead-strict`` (``LEAD.OPENING_CARD``): no heart nor Q♠ opens a
  deal, even from a hand of only those;
* ``hearts-lead-strict`` (``LEAD.HEARTS``): no heart is led before hearts
  are broken, even from a hand of hearts only;
* ``first-trick-every-trick`` and ``first-trick-no-exception``
  (``FOLLOW.FIRST_TRICK``): the first trick's restriction on every trick;
  on trick 1, without its exception for a hand of only such cards;
* ``target-exceeded`` and ``game-ends-mid-deal`` (``GAME.END``): the game
  ends only when a total passes the target, not when it reaches it; it ends
  as soon as the points collected reach it, before the deal is scored.

A fault changes what the engine lists as legal (``legal``), what it
accepts (``accepts``), the state an accepted action leaves
(``after``) or what it shows (``seen``); the reference
does the rest (:func:`faults_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..actions import Action, Play
from ..cards import Card, Suit, cards_of_suit, is_penalty
from ..errors import RulesRefError
from ..following import first_trick_plays, follows
from ..ruleset import FirstTrickPoints, HeartsBrokenBy
from ..state import GameState
from ..state_parts import Phase
from ..transitions import play_card
from ..tricks import TrickOutcome, cancelled_cards, led_suit, seat_at
from .requirements import rejected_rules

Json = Any


@dataclass(frozen=True, slots=True)
class Fault:
    """One way to play ``rule`` otherwise, named ``slip``; ``card`` the card it is about.

    ``accepts``: whether it accepts an action (``None``: as its legal plays say, for a
    play of the seat to act, else as the reference does); ``legal``: the cards it lists
    as legal in a state of play (``None``: the reference's); ``after``: the state an accepted action
    leaves, from the state before, the action and the reference's state after;
    ``seen``: what it changes in an observation.
    """

    rule: str
    slip: str
    card: str | None = None
    legal: Callable[[GameState], tuple[Card, ...] | None] | None = None
    accepts: Callable[[GameState, Json], bool | None] | None = None
    after: Callable[[GameState, Action, GameState], GameState] | None = None
    seen: Callable[[GameState], dict[str, Json]] | None = None


# --- a rule not enforced ---------------------------------------------------------------------


def _only(state: GameState, action: Action, rule: str) -> bool:
    return {v.rule_id for v in state.violations(action)} == {rule}


def not_enforced(rule: str) -> Fault:
    """The engine accepts what ``rule`` alone forbids."""
    def legal(state: GameState) -> tuple[Card, ...] | None:
        seat = state.to_act
        if state.phase is not Phase.PLAYING or seat is None:
            return None
        more = {c for c in state.hands[seat] if _only(state, Play(seat, c), rule)}
        return tuple(sorted(set(state.legal_plays()) | more))

    def accepts(state: GameState, action: Json) -> bool | None:
        return True if rejected_rules(state, action) == [rule] else None

    return Fault(rule, "rule-not-enforced", legal=legal, accepts=accepts)


# --- tricks ----------------------------------------------------------------------------------


def _completes(before: GameState, action: Action) -> bool:
    return (isinstance(action, Play) and before.phase is Phase.PLAYING
            and len(before.trick) + 1 == before.players)


def _any_suit(before: GameState, action: Action, after: GameState) -> GameState:
    if not isinstance(action, Play) or not _completes(before, action):
        return after
    trick = (*before.trick, action.card)
    gone = cancelled_cards(trick)
    live = [i for i, c in enumerate(trick) if c not in gone]
    if not live:
        return after
    best = max(live, key=lambda i: (trick[i].rank, -i))
    winner = seat_at(before.leader, best, before.players)
    if after.tricks and after.tricks[-1].winner == winner:
        return after
    outcome = TrickOutcome(before.leader, trick, led_suit(trick), tuple(sorted(gone)), winner,
                           trick[best])
    try:
        return play_card(before, action.seat, action.card,
                         (action.seat, action.card, before.history), outcome)[0]
    except (RulesRefError, ValueError):
        return after


def _next_leader(step: int) -> Callable[[GameState, Action, GameState], GameState]:
    """A trick won leaves the next lead to the seat ``step`` places after its leader."""
    def after(before: GameState, action: Action, state: GameState) -> GameState:
        if not _completes(before, action) or state.phase is not Phase.PLAYING \
                or state.tricks[-1].winner is None:
            return state
        return state._with(leader=(before.leader + step) % before.players)

    return after


# --- hearts ----------------------------------------------------------------------------------


def _breakers(walk: Iterator[tuple[GameState, Action, GameState]]) -> list[Card]:
    """The cards that broke hearts in a game (each once, in order)."""
    out: list[Card] = []
    for before, action, after in walk:
        if isinstance(action, Play) and not before.hearts_broken and after.hearts_broken \
                and action.card not in out:
            out.append(action.card)
    return out


def not_breaking(card: Card) -> Fault:
    """The engine where ``card`` never breaks hearts."""
    def after(before: GameState, action: Action, state: GameState) -> GameState:
        if isinstance(action, Play) and action.card == card and not before.hearts_broken \
                and state.hearts_broken and state.phase is Phase.PLAYING:
            return state._with(hearts_broken=False)
        return state

    return Fault("HEARTS.BROKEN", "card-not-breaking", str(card), after=after)


def _strict_opening(state: GameState) -> tuple[Card, ...] | None:
    if state.phase is not Phase.PLAYING or state.trick or state.trick_number != 1:
        return None
    return tuple(c for c in state.legal_plays() if not is_penalty(c))


def _strict_leads(state: GameState) -> tuple[Card, ...] | None:
    if state.phase is not Phase.PLAYING or state.trick or state.trick_number <= 1 \
            or state.hearts_broken or state.ruleset.hearts_broken_by is HeartsBrokenBy.NOT_NEEDED:
        return None
    return tuple(c for c in state.legal_plays() if c.suit is not Suit.H)


# --- the first trick -------------------------------------------------------------------------


def _every_trick(state: GameState) -> tuple[Card, ...] | None:
    seat = state.to_act
    if state.phase is not Phase.PLAYING or not state.trick or state.trick_number <= 1 \
            or seat is None:
        return None
    hand, suit = state.hands[seat], led_suit(state.trick)
    return tuple(dict.fromkeys(first_trick_plays(follows(hand, suit), hand, suit, 1,
                                                 state.ruleset)))


def _no_exception(state: GameState) -> tuple[Card, ...] | None:
    seat = state.to_act
    rs = state.ruleset
    if state.phase is not Phase.PLAYING or not state.trick or state.trick_number != 1 \
            or seat is None or rs.first_trick_points is FirstTrickPoints.ALLOWED:
        return None
    hand, suit = state.hands[seat], led_suit(state.trick)
    if rs.first_trick_points is FirstTrickPoints.FORBIDDEN and cards_of_suit(hand, suit):
        return None
    return tuple(c for c in state.legal_plays() if not is_penalty(c))


# --- the end of the game ---------------------------------------------------------------------


def _exceeded(state: GameState) -> dict[str, Json]:
    if state.phase is Phase.GAME_OVER and max(state.totals) == state.ruleset.target:
        return {"phase": "dealing", "winners": []}
    return {}


def _mid_deal(state: GameState) -> dict[str, Json]:
    if state.phase is not Phase.PLAYING:
        return {}
    points = state.current_points()
    if any(t + p >= state.ruleset.target for t, p in zip(state.totals, points, strict=True)):
        return {"phase": "game-over"}
    return {}


def faults_of(rule: str, walk: Callable[[], Iterator[tuple[GameState, Action, GameState]]]
              ) -> Iterator[Fault]:
    """The faults of ``rule`` this module adds to the catalogue's, the rule not enforced
    last; ``walk`` replays the reference's game of the case (for the cards it names)."""
    if rule == "TRICK.WINNER":
        yield Fault(rule, "winner-any-suit", after=_any_suit)
    if rule == "TRICK.NEXT_LEADER":
        yield Fault(rule, "leader-rotates", after=_next_leader(1))
        yield Fault(rule, "leader-stays", after=_next_leader(0))
    if rule == "HEARTS.BROKEN":
        yield from (not_breaking(c) for c in _breakers(walk()))
    if rule == "LEAD.OPENING_CARD":
        yield Fault(rule, "opening-lead-strict", legal=_strict_opening)
    if rule == "LEAD.HEARTS":
        yield Fault(rule, "hearts-lead-strict", legal=_strict_leads)
    if rule == "FOLLOW.FIRST_TRICK":
        yield Fault(rule, "first-trick-every-trick", legal=_every_trick)
        yield Fault(rule, "first-trick-no-exception", legal=_no_exception)
    if rule == "GAME.END":
        yield Fault(rule, "target-exceeded", seen=_exceeded)
        yield Fault(rule, "game-ends-mid-deal", seen=_mid_deal)
    yield not_enforced(rule)


__all__ = ["Fault", "faults_of", "not_breaking", "not_enforced"]
