"""Broken implementations that differ from the reference only where two rare things meet.

Each bug of :data:`BROKEN` shows only when a rare situation of the rules
(a void last trick, a moon, a void trick 1 with its extras, an opening
leader holding nothing but hearts and Q♠) is played under a switch value
other than the default, or when two rare situations meet in one deal. A
run that draws its rulesets itself (no ``--ruleset``, no narrowed
``supports``) has to bring the two together: these adapters measure how
quickly it does (``benchmarks/rare_pairs.py``) and
``tests/exercise/test_rare_pairs.py`` checks that the default budget,
counted in games, finds each one.

Every entry names the rule and the switch of the finding the run must
report. Run one as an adapter::

    python tests/fakes/rare_pair_adapters.py split-points-to-earlier
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.cards import QUEEN_OF_SPADES, Card, Suit, is_penalty
from rules_ref.pending import highest_cancelled_pair
from rules_ref.ruleset import HeartsBrokenBy, LastTrickVoid, Moon, MoonPair, Ruleset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.tricks import TrickOutcome
from tests.fakes.adapter_script import script_command, serve_chosen
from tests.fakes.broken_adapters import replace
from tests.fakes.broken_hooks import Broken, Hooks

#: Every rare-pair bug: name -> (the rule of its finding, the switch of its finding).
BROKEN: dict[str, tuple[str, str]] = {
    "split-points-to-earlier": ("VOID.LAST", "last_trick_void"),
    "leader-leaves-extras": ("VOID.LAST", "last_trick_void"),
    "lone-moon-unseen": ("MOON.CONDITION", "moon_pair"),
    "opening-lead-breaks": ("HEARTS.BROKEN", "hearts_broken_by"),
    "extras-to-earlier": ("VOID.LAST", "last_trick_void"),
    "pair-moon-as-lone": ("MOON.CHOICE", "moon_pair"),
    "forced-queen-breaks": ("HEARTS.BROKEN", "hearts_broken_by"),
}

#: The two rare things each bug needs, in words (for the benchmark's table).
NEEDS: dict[str, str] = {
    "split-points-to-earlier": "a void last trick with points pending, under "
                               "last_trick_void = split-points-highest-pair",
    "leader-leaves-extras": "a void last trick with the extras still pending, under "
                            "last_trick_void = leader",
    "lone-moon-unseen": "a moon shot by one seat, under moon_pair = others-26",
    "opening-lead-breaks": "an opening leader holding only hearts and Q♠, under a "
                           "hearts_broken_by other than heart-or-queen",
    "extras-to-earlier": "a void last trick with the extras still pending, under "
                         "last_trick_void = split-highest-pair",
    "pair-moon-as-lone": "a moon shot by two seats together, under moon = others-52 or "
                         "others-104",
    "forced-queen-breaks": "a Q♠ led by a leader holding only hearts and Q♠ while hearts "
                           "are unbroken, under hearts_broken_by = heart, heart-discard or "
                           "heart-not-led",
}


def split_points_to_earlier() -> None:
    """Under ``split-points-highest-pair`` the seat that played the pair's first card
    scores all the pending points, not its half (``VOID.LAST``)."""
    def make(original: Callable[..., tuple[int, ...]]) -> Callable[..., tuple[int, ...]]:
        def shares(uncollected: tuple[Card, ...], last: TrickOutcome | None, players: int,
                   ruleset: Ruleset) -> tuple[int, ...]:
            split = original(uncollected, last, players, ruleset)
            if (ruleset.last_trick_void is not LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR
                    or last is None or not any(split)):
                return split
            first, _ = highest_cancelled_pair(last, players)
            return tuple(sum(split) if s == first else 0 for s in range(players))
        return shares
    replace("rules_ref.pending", "pending_shares", make)


class _Extras:
    """The extras of the deal being settled, while they wait in the pending pile."""

    pending: tuple[Card, ...] = ()


def _remember_extras() -> None:
    """Note the extras still pending when a deal ends (read from the state, so that a
    start from a position holding them is settled as a played deal is)."""
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def end(state: GameState, last: TrickOutcome, events: list[Any]) -> Any:
            _Extras.pending = state.extras if state.pending_has_extras else ()
            return original(state, last, events)
        return end
    replace("rules_ref.transitions", "end_deal", make)


def leader_leaves_extras() -> None:
    """Under ``last_trick_void = leader`` the leader of the void last trick takes the void
    tricks but not the extras still pending with them: those go uncollected (``VOID.LAST``).

    An engine that keeps the extras apart from the pending pile, and gives the leader only
    the pile.
    """
    def settle(original: Callable[..., Any]) -> Callable[..., Any]:
        def settled(pending: tuple[Card, ...], last: TrickOutcome, players: int,
                    ruleset: Ruleset) -> Any:
            taken, uncollected = original(pending, last, players, ruleset)
            extras, _Extras.pending = _Extras.pending, ()
            if ruleset.last_trick_void is not LastTrickVoid.LEADER or not extras or not taken:
                return taken, uncollected
            rest = list(pending)
            for c in extras:
                rest.remove(c)
            return ((taken[0][0], tuple(rest)),), tuple(extras)
        return settled
    _remember_extras()
    replace("rules_ref.pending", "settle_pending", settle)


class _Ruleset:
    """The ruleset of the deal being settled (``settle_pending`` runs just before the moon
    test, which is not given one)."""

    current: Ruleset | None = None


def lone_moon_unseen() -> None:
    """Under ``moon_pair = others-26`` only two seats together shoot the moon: one seat
    that took every heart and both Q♠ scores its 52 card points (``MOON.CONDITION``).

    An engine whose moon test, once pair moons are on, counts the seats that took points
    and asks for exactly two.
    """
    def remember(original: Callable[..., Any]) -> Callable[..., Any]:
        def settled(pending: tuple[Card, ...], last: TrickOutcome, players: int,
                    ruleset: Ruleset) -> Any:
            _Ruleset.current = ruleset
            return original(pending, last, players, ruleset)
        return settled

    def make(original: Callable[..., int | None]) -> Callable[..., int | None]:
        def shooter(collected: Sequence[Sequence[Card]]) -> int | None:
            rs = _Ruleset.current
            if rs is not None and rs.moon_pair is MoonPair.OTHERS_26:
                return None
            return original(collected)
        return shooter
    replace("rules_ref.pending", "settle_pending", remember)
    replace("rules_ref.scoring", "moon_shooter", make)


def _opening_lead_breaks() -> Hooks:
    """An opening lead of a heart or a Q♠ (from a hand of nothing else) breaks hearts,
    whatever ``hearts_broken_by`` says (``HEARTS.BROKEN``).

    An engine that breaks hearts when a point card opens the deal, having written the
    opening exception apart from the breaking rule.
    """
    def step(after: GameState) -> GameState:
        if (after.phase is Phase.PLAYING and after.trick_number == 1 and len(after.trick) == 1
                and not after.hearts_broken and is_penalty(after.trick[0])
                and after.ruleset.hearts_broken_by is not HeartsBrokenBy.HEART_OR_QUEEN
                and all(is_penalty(c) for c in after.hands[after.leader])):
            return after._with(hearts_broken=True)
        return after
    return Hooks(step=[step])


def extras_to_earlier() -> None:
    """Under ``split-highest-pair`` the extras still pending go, all of them, to the seat
    that played the pair's earlier card; only the void tricks' cards are given out in turn
    (``VOID.LAST``).

    An engine that keeps the extras apart from the pending pile and hands them over as one
    block when the deal ends.
    """
    def settle(original: Callable[..., Any]) -> Callable[..., Any]:
        def settled(pending: tuple[Card, ...], last: TrickOutcome, players: int,
                    ruleset: Ruleset) -> Any:
            extras, _Extras.pending = _Extras.pending, ()
            if ruleset.last_trick_void is not LastTrickVoid.SPLIT_HIGHEST_PAIR or not extras:
                return original(pending, last, players, ruleset)
            rest = list(pending)
            for c in extras:
                rest.remove(c)
            (first, cards), second = original(tuple(rest), last, players, ruleset)[0]
            return ((first, cards + extras), second), ()
        return settled
    _remember_extras()
    replace("rules_ref.pending", "settle_pending", settle)


def pair_moon_as_lone() -> None:
    """A moon two seats shoot together scores as the moon of one seat would under the
    ``moon`` switch: every other seat +52 under ``others-52``, +104 under ``others-104``,
    not +26 (``MOON.CHOICE``, ``moon_pair``).

    An engine that reuses its moon scores for the pair moon.
    """
    def make(original: Callable[..., tuple[int, ...]]) -> Callable[..., tuple[int, ...]]:
        def scores(pair: tuple[int, int], collected: Sequence[Sequence[Card]],
                   ruleset: Ruleset) -> tuple[int, ...]:
            plain = original(pair, collected, ruleset)
            more = {Moon.OTHERS_52: 52, Moon.OTHERS_104: 104}.get(ruleset.moon)
            if more is None:
                return plain
            return tuple(s if seat in pair else s - 26 + more for seat, s in enumerate(plain))
        return scores
    replace("rules_ref.scoring", "pair_moon_scores", make)


def _forced_queen_breaks() -> Hooks:
    """A Q♠ led while hearts are unbroken by a leader holding nothing but hearts and Q♠
    breaks hearts, whatever ``hearts_broken_by`` says (``HEARTS.BROKEN``).

    An engine that opens hearts when the leader has only points left to lead.
    """
    def step(after: GameState) -> GameState:
        if (after.phase is Phase.PLAYING and after.trick_number > 1 and len(after.trick) == 1
                and not after.hearts_broken and after.trick[0] == QUEEN_OF_SPADES
                and after.ruleset.hearts_broken_by is not HeartsBrokenBy.NOT_NEEDED
                and all(is_penalty(c) for c in after.hands[after.leader])
                and any(c.suit is Suit.H for c in after.hands[after.leader])):
            return after._with(hearts_broken=True)
        return after
    return Hooks(step=[step])


#: The rule functions each bug replaces, and the hooks of its adapter.
BUGS: dict[str, tuple[Callable[[], None] | None, Callable[[], Hooks]]] = {
    "split-points-to-earlier": (split_points_to_earlier, Hooks),
    "leader-leaves-extras": (leader_leaves_extras, Hooks),
    "lone-moon-unseen": (lone_moon_unseen, Hooks),
    "opening-lead-breaks": (None, _opening_lead_breaks),
    "extras-to-earlier": (extras_to_earlier, Hooks),
    "pair-moon-as-lone": (pair_moon_as_lone, Hooks),
    "forced-queen-breaks": (None, _forced_queen_breaks),
}


def command(name: str) -> list[str]:
    """The command that runs rare-pair adapter ``name``."""
    return script_command(__file__, name)


def _adapter(name: str) -> Broken:
    engine, hooks = BUGS[name]
    if engine is not None:
        engine()

    class Adapter(Broken):
        pass

    Adapter.hooks = hooks()
    return Adapter()


def _title(name: str) -> str:
    rule, switch = BROKEN[name]
    return f"broken adapter {name} ({rule} under {switch})"


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], BROKEN, __file__, _adapter, _title))
