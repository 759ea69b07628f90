"""Broken implementations: the reference adapter with one rule of the engine broken.

Each entry of :data:`BROKEN` names a realistic bug and the rule it breaks.
Most bugs are made by replacing one rule function of the reference engine
in this process only, so the broken engine stays consistent with itself: it
plays on from its own (wrong) state and observes it honestly, as a real
implementation with that bug would. Two keep the engine and misjudge an
action when it is applied (:data:`ADAPTERS`): their legal lists are right,
so only the illegal actions the runner offers, or a legal one it sends,
show the bug.

Run one as an adapter::

    python tests/fakes/broken_adapters.py cancel-ignored

``rules-ref conform`` must catch every one of them and name its rule.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.actions import MoonChoice
from rules_ref.cards import QUEEN_OF_SPADES, Card, Suit
from rules_ref.errors import RulesRefError
from rules_ref.jsonio.serialize import action_from_json
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.ruleset import (
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    OpeningLead,
    PassDirection,
    Ruleset,
)
from rules_ref.tricks import TrickOutcome, cancelled_cards
from tests.fakes.adapter_script import script_command, serve_chosen

#: Every broken adapter: name -> the rule ID it breaks.
BROKEN: dict[str, str] = {
    "cancel-ignored": "TRICK.CANCEL",
    "void-discarded": "VOID.TRICK",
    "void-leader-highest": "VOID.LEADER",
    "extras-lost": "EXTRAS.FIRST_TRICK",
    "queen-no-break": "HEARTS.BROKEN",
    "opening-hearts": "LEAD.OPENING_CARD",
    "lead-hearts-unbroken": "LEAD.HEARTS",
    "no-follow-suit": "FOLLOW.SUIT",
    "pass-always-left": "PASS.DIRECTION",
    "moon-swapped": "MOON.CHOICE",
    "game-end-strict": "GAME.END",
    "single-winner": "GAME.WINNER",
    "last-void-to-leader": "VOID.LAST",
    "pending-kept": "VOID.COLLECT",
    "led-suit-first-live": "TRICK.LED_SUIT",
    "led-cancelled-void": "TRICK.LED_SUIT",
    "winner-left-leads": "TRICK.NEXT_LEADER",
    "dealer-leads": "LEAD.OPENING_LEADER",
    "queen-ten": "SCORE.CARD_POINTS",
    # the legal lists are right, but an action is judged wrongly when it is applied
    "follow-unchecked": "FOLLOW.SUIT",
    "twin-refused": "TRICK.CANCEL",
}


def replace(module: str, name: str, make: Callable[[Any], Any]) -> None:
    """Replace rule function ``module.name`` wherever the engine has imported it.

    ``make`` receives the original function and returns the broken one. A
    name the engine no longer has raises, so a renamed function cannot
    silently leave the engine unbroken.
    """
    home = importlib.import_module(module)
    original = getattr(home, name)
    broken = make(original)
    state = importlib.import_module("rules_ref.state")
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("rules_ref") and getattr(
                mod, name, None) is original:
            setattr(mod, name, broken)
    used = [m for m in ("rules_ref.state", module) if getattr(
        importlib.import_module(m), name, None) is broken]
    if not used or (hasattr(state, name) and getattr(state, name) is not broken):
        raise SystemExit(f"broken adapter: could not replace {module}.{name}")


class _LastTrick:
    """The last trick the engine resolved (for bugs that need its cards and seats)."""

    outcome: TrickOutcome | None = None
    players = 0


def _remember_tricks() -> None:
    def make(original: Callable[..., TrickOutcome]) -> Callable[..., TrickOutcome]:
        def resolve(cards: Sequence[Card], leader: int, players: int) -> TrickOutcome:
            outcome = original(cards, leader, players)
            _LastTrick.outcome = outcome
            _LastTrick.players = players
            return outcome
        return resolve
    replace("rules_ref.tricks", "resolve_trick", make)


# --- the bugs --------------------------------------------------------------------------------


def cancel_ignored() -> None:
    """Identical cards do not cancel: the first copy of the highest card wins."""
    replace("rules_ref.tricks", "cancelled_cards", lambda _: lambda cards: frozenset())


def void_discarded() -> None:
    """A trick without a winner is thrown away instead of waiting in the pending pile."""
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def after(pending: tuple[Card, ...], outcome: TrickOutcome,
                  extras: tuple[Card, ...]) -> Any:
            if outcome.void:
                return (), pending + extras
            return original(pending, outcome, extras)
        return after
    replace("rules_ref.pending", "after_trick", make)


def void_leader_highest() -> None:
    """After a void trick, the seat that played the highest card of the led suit leads."""
    _remember_tricks()

    def make(original: Callable[[int, int | None], int]) -> Callable[[int, int | None], int]:
        def leader_next(leader: int, winner: int | None) -> int:
            t = _LastTrick.outcome
            if winner is not None or t is None:
                return original(leader, winner)
            suit = t.cards[0].suit
            best = max(range(len(t.cards)),
                       key=lambda i: (t.cards[i].suit == suit, t.cards[i].rank, -i))
            return (t.leader + best) % _LastTrick.players
        return leader_next
    replace("rules_ref.tricks", "next_leader", make)


def extras_lost() -> None:
    """The extras never go with the first trick: nobody ever takes them."""
    replace("rules_ref.pending", "extras_join_trick", lambda _: lambda trick_number: False)


def queen_no_break() -> None:
    """Only a heart breaks hearts; a Q♠ played to a trick does not."""
    def make(original: Callable[..., bool]) -> Callable[..., bool]:
        def breaks(card: Card, led: Suit | None, ruleset: Ruleset) -> bool:
            if ruleset.hearts_broken_by is HeartsBrokenBy.HEART_OR_QUEEN:
                return card.suit == Suit.H
            return original(card, led, ruleset)
        return breaks
    replace("rules_ref.leading", "breaks_hearts", make)


def opening_hearts() -> None:
    """The opening lead may be a heart (only a Q♠ is kept back)."""
    def make(original: Callable[..., tuple[Card, ...]]) -> Callable[..., tuple[Card, ...]]:
        def opening(hand: Sequence[Card], ruleset: Ruleset) -> tuple[Card, ...]:
            if ruleset.opening_lead is OpeningLead.LEFT_OF_DEALER:
                return tuple(c for c in hand if c != QUEEN_OF_SPADES) or tuple(hand)
            return original(hand, ruleset)
        return opening
    replace("rules_ref.leading", "opening_leads", make)


def lead_hearts_unbroken() -> None:
    """After the opening lead, any card may be led, hearts broken or not."""
    replace("rules_ref.leading", "leads",
            lambda _: lambda hand, hearts_broken, ruleset: hand)


def no_follow_suit() -> None:
    """Following suit is not enforced: any card may be played to a trick."""
    replace("rules_ref.following", "follows", lambda _: lambda hand, led_suit: hand)


def pass_always_left() -> None:
    """Every deal that passes passes to the left."""
    def make(original: Callable[..., PassDirection]) -> Callable[..., PassDirection]:
        def direction(deal_number: int, ruleset: Ruleset) -> PassDirection:
            d = original(deal_number, ruleset)
            return d if d is PassDirection.HOLD else PassDirection.LEFT
        return direction
    replace("rules_ref.passing", "pass_direction", make)


def moon_swapped() -> None:
    """The two moon options are scored the wrong way round."""
    def make(original: Callable[..., tuple[int, ...]]) -> Callable[..., tuple[int, ...]]:
        def scores(shooter: int, choice: MoonChoice | None, collected: Sequence[Sequence[Card]],
                   ruleset: Ruleset) -> tuple[int, ...]:
            if ruleset.moon is Moon.CHOICE_26 and choice is not None:
                choice = (MoonChoice.ADD if choice is MoonChoice.SUBTRACT
                          else MoonChoice.SUBTRACT)
            return original(shooter, choice, collected, ruleset)
        return scores
    replace("rules_ref.scoring", "moon_scores", make)


def game_end_strict() -> None:
    """The game ends only when a total passes the target, not when it reaches it."""
    replace("rules_ref.game_end", "is_game_over",
            lambda _: lambda totals, ruleset: max(totals) > ruleset.target)


def single_winner() -> None:
    """Players tied for the lowest total do not share the win: the first seat wins."""
    replace("rules_ref.game_end", "winners",
            lambda _: lambda totals: (list(totals).index(min(totals)),))


def last_void_to_leader() -> None:
    """Cards pending at the end of a deal go to the leader of the void last trick."""
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def settle(pending: tuple[Card, ...], last: TrickOutcome, players: int,
                   ruleset: Ruleset) -> Any:
            if pending and ruleset.last_trick_void is LastTrickVoid.NOBODY:
                return ((last.leader, pending),), ()
            return original(pending, last, players, ruleset)
        return settle
    replace("rules_ref.pending", "settle_pending", make)


def pending_kept() -> None:
    """The winner of a trick takes only that trick: the pending pile stays pending."""
    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def after(pending: tuple[Card, ...], outcome: TrickOutcome,
                  extras: tuple[Card, ...]) -> Any:
            if outcome.void:
                return original(pending, outcome, extras)
            return outcome.cards + extras, pending
        return after
    replace("rules_ref.pending", "after_trick", make)


def led_suit_first_live() -> None:
    """Once the led card is cancelled, the suit of the first uncancelled card is led."""
    def make(original: Callable[[Sequence[Card]], Suit]) -> Callable[[Sequence[Card]], Suit]:
        def led(cards: Sequence[Card]) -> Suit:
            for c in cards:
                if list(cards).count(c) == 1:
                    return c.suit
            return original(cards)
        return led
    replace("rules_ref.tricks", "led_suit", make)


def led_cancelled_void() -> None:
    """Once the led card is cancelled no suit is led: the trick is void, where another card
    of the led suit wins it (the reverse of ``led-suit-first-live``)."""
    def make(original: Callable[..., int | None]) -> Callable[..., int | None]:
        def winner(cards: Sequence[Card], cancelled: frozenset[Card] | None = None) -> int | None:
            gone = cancelled_cards(cards) if cancelled is None else cancelled
            return None if cards[0] in gone else original(cards, gone)
        return winner
    replace("rules_ref.tricks", "winning_position", make)


def winner_left_leads() -> None:
    """The seat to the left of a trick's winner leads the next trick."""
    _remember_tricks()

    def make(original: Callable[[int, int | None], int]) -> Callable[[int, int | None], int]:
        def leader_next(leader: int, winner: int | None) -> int:
            if winner is None:
                return original(leader, winner)
            return (winner + 1) % _LastTrick.players
        return leader_next
    replace("rules_ref.tricks", "next_leader", make)


def dealer_leads() -> None:
    """The dealer, not the seat to the dealer's left, makes the opening lead."""
    replace("rules_ref.leading", "opening_leader",
            lambda _: lambda dealer, hands, ruleset, dealt=None: dealer)


def queen_ten() -> None:
    """A Q♠ counts 10 points instead of 13."""
    def penalty(cards: Sequence[Card]) -> int:
        return sum(1 for c in cards if c.suit == Suit.H) + 10 * list(cards).count(
            QUEEN_OF_SPADES)
    replace("rules_ref.scoring", "penalty_points", lambda _: penalty)


class FollowUnchecked(ReferenceAdapter):
    """A play is applied without checking that it follows suit (the legal lists are right)."""

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        state = self.state
        if state is not None:
            try:
                action = action_from_json(msg["action"])
            except RulesRefError:
                return super().act(msg)
            if [v.rule_id for v in state.violations(action)] == ["FOLLOW.SUIT"]:
                self.state, _ = state.apply_unchecked(action)
                return {"type": "observation", **self.observe(self.state)}
        return super().act(msg)


class TwinRefused(ReferenceAdapter):
    """A card identical to one already in the trick is refused (the legal lists are right)."""

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        state = self.state
        action = msg.get("action", {})
        if (state is not None and action.get("type") == "play"
                and action.get("card") in [str(c) for c in state.trick]):
            return {"type": "rejected", "reason": "that card is already on the table"}
        return super().act(msg)


ADAPTERS: dict[str, type[ReferenceAdapter]] = {
    "follow-unchecked": FollowUnchecked,
    "twin-refused": TwinRefused,
}

BREAK: dict[str, Callable[[], None]] = {
    "cancel-ignored": cancel_ignored,
    "void-discarded": void_discarded,
    "void-leader-highest": void_leader_highest,
    "extras-lost": extras_lost,
    "queen-no-break": queen_no_break,
    "opening-hearts": opening_hearts,
    "lead-hearts-unbroken": lead_hearts_unbroken,
    "no-follow-suit": no_follow_suit,
    "pass-always-left": pass_always_left,
    "moon-swapped": moon_swapped,
    "game-end-strict": game_end_strict,
    "single-winner": single_winner,
    "last-void-to-leader": last_void_to_leader,
    "pending-kept": pending_kept,
    "led-suit-first-live": led_suit_first_live,
    "led-cancelled-void": led_cancelled_void,
    "winner-left-leads": winner_left_leads,
    "dealer-leads": dealer_leads,
    "queen-ten": queen_ten,
}


def command(name: str) -> list[str]:
    """The command that runs broken adapter ``name``."""
    return script_command(__file__, name)


def _adapter(name: str) -> ReferenceAdapter:
    if name in BREAK:
        BREAK[name]()
    return ADAPTERS.get(name, ReferenceAdapter)()


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], BROKEN, __file__, _adapter,
                          lambda name: f"broken adapter {name} ({BROKEN[name]})"))
