"""More broken implementations: every rule ID broken, engines that score at the end, several faults.

Beside :mod:`tests.fakes.broken_adapters`, each entry of :data:`BROKEN`
names a realistic bug and the rules it breaks, the one a conform run must
name first (from a fixed seed) listed first. A bug is made in one of two
ways, often both:

* a rule function of the reference engine replaced in this process only
  (:func:`tests.fakes.broken_adapters.replace`), so the broken engine
  plays on from its own state and observes it honestly;
* a hook of the :class:`~tests.fakes.broken_hooks.Broken` adapter:
  an action the engine refuses or takes without changing anything, an
  observation it reports its own way (an engine that scores only at the end
  of a deal, from the tricks it recorded), or a step it takes by itself.

Several bugs combine into one adapter (``+`` in :data:`BUGS`), as a real
engine has more than one fault. Run one as an adapter::

    python tests/fakes/broken_adapters_more.py ace-low
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.actions import Action, DealCards, MoonChoice, Pass, Play
from rules_ref.cards import QUEEN_OF_SPADES, Card, Suit, full_deck, is_penalty, parse_card
from rules_ref.deal import check_deal, hand_size
from rules_ref.errors import RulesRefError, SetupError
from rules_ref.ruleset import FirstTrickPoints, Ruleset
from rules_ref.scoring import card_points
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.tricks import cancelled_cards, led_suit
from tests.fakes.adapter_script import script_command, serve_chosen
from tests.fakes.broken_adapters import replace
from tests.fakes.broken_hooks import Broken, Hooks, Ignore

TWO_OF_CLUBS = parse_card("2C")


# --- engine bugs: rule functions replaced -------------------------------------------------


def ace_low() -> None:
    """The ace ranks below the 2 (``DECK.RANKING``)."""
    def make(original: Callable[..., int | None]) -> Callable[..., int | None]:
        def winning(cards: Sequence[Card], cancelled: frozenset[Card] | None = None) -> int | None:
            suit = led_suit(cards)
            gone = cancelled_cards(cards) if cancelled is None else cancelled
            live = [i for i, c in enumerate(cards) if c.suit == suit and c not in gone]
            if not live:
                return None
            return max(live, key=lambda i: 1 if cards[i].rank == 14 else cards[i].rank)
        return winning
    replace("rules_ref.tricks", "winning_position", make)


def any_suit_wins() -> None:
    """The highest uncancelled card of any suit wins a trick that has one (``TRICK.WINNER``)."""
    def make(original: Callable[..., int | None]) -> Callable[..., int | None]:
        def winning(cards: Sequence[Card], cancelled: frozenset[Card] | None = None) -> int | None:
            if original(cards, cancelled) is None:
                return None
            gone = cancelled_cards(cards) if cancelled is None else cancelled
            live = [i for i, c in enumerate(cards) if c not in gone]
            return max(live, key=lambda i: (cards[i].rank, -i))
        return winning
    replace("rules_ref.tricks", "winning_position", make)


def _first_trick_ban(always: bool) -> None:
    def make(original: Callable[..., tuple[Card, ...]]) -> Callable[..., tuple[Card, ...]]:
        def plays(allowed: tuple[Card, ...], hand: tuple[Card, ...], suit: Suit,
                  trick_number: int, ruleset: Ruleset) -> tuple[Card, ...]:
            plays = original(allowed, hand, suit, trick_number, ruleset)
            if trick_number != 1 or (ruleset.first_trick_points is FirstTrickPoints.ALLOWED
                                     and not always):
                return plays
            # the ban on points applies to following suit as well
            return tuple(c for c in plays if not is_penalty(c)) or plays
        return plays
    replace("rules_ref.following", "first_trick_plays", make)


def first_trick_ban_following() -> None:
    """Under ``first_trick_points = forbidden`` the point ban holds while following suit too."""
    _first_trick_ban(always=False)


def first_trick_ban_always() -> None:
    """Hearts and Q♠ are banned from trick 1 whatever the ruleset says (``FOLLOW.FIRST_TRICK``)."""
    _first_trick_ban(always=True)


def dealer_stays() -> None:
    """The deal never moves on: the first dealer deals every deal (``DEAL.DEALER``)."""
    replace("rules_ref.deal", "dealer_for_deal",
            lambda _: lambda first_dealer, deal_number, players: first_dealer)


def no_moon() -> None:
    """Nobody ever shoots the moon (``MOON.CONDITION``)."""
    replace("rules_ref.scoring", "moon_shooter", lambda _: lambda collected: None)


def moon_at_once() -> None:
    """A moon is scored at once as ``subtract``: the shooter is never asked (``MOON.CHOICE``)."""
    replace("rules_ref.scoring", "needs_moon_choice", lambda _: lambda shooter, ruleset: False)

    def make(original: Callable[..., tuple[int, ...]]) -> Callable[..., tuple[int, ...]]:
        def scores(shooter: int, choice: MoonChoice | None, collected: Sequence[Sequence[Card]],
                   ruleset: Ruleset) -> tuple[int, ...]:
            try:
                return original(shooter, choice, collected, ruleset)
            except RulesRefError:
                return original(shooter, MoonChoice.SUBTRACT, collected, ruleset)
        return scores
    replace("rules_ref.scoring", "moon_scores", make)


def lead_breaks_nothing() -> None:
    """A heart that is led does not break hearts; only one played to a trick does."""
    def make(original: Callable[..., bool]) -> Callable[..., bool]:
        def breaks(card: Card, led: Suit | None, ruleset: Ruleset) -> bool:
            return led is not None and original(card, led, ruleset)
        return breaks
    replace("rules_ref.leading", "breaks_hearts", make)


def queen_is_a_heart() -> None:
    """A Q♠ may not be led before hearts are broken, like a heart (``LEAD.HEARTS``)."""
    def make(original: Callable[..., tuple[Card, ...]]) -> Callable[..., tuple[Card, ...]]:
        def leads(hand: tuple[Card, ...], hearts_broken: bool,
                  ruleset: Ruleset) -> tuple[Card, ...]:
            allowed = original(hand, hearts_broken, ruleset)
            if hearts_broken:
                return allowed
            return tuple(c for c in allowed if c != QUEEN_OF_SPADES) or allowed
        return leads
    replace("rules_ref.leading", "leads", make)


# --- adapter bugs: hooks on actions and observations --------------------------------------

def _refuse_pass_with(card: Card) -> Hooks:
    def refuse(state: GameState, action: Action) -> str | None:
        return "PASS.CARDS" if isinstance(action, Pass) and card in action.cards else None
    return Hooks(refuse=[refuse])


def _pass_three_always() -> Hooks:
    def refuse(state: GameState, action: Action) -> str | None:
        return "PASS.CARDS" if isinstance(action, Pass) and len(action.cards) != 3 else None
    return Hooks(refuse=[refuse])


def _only(rule: str) -> Ignore:
    def ok(state: GameState, action: Action) -> bool:
        return [v.rule_id for v in state.violations(action)] == [rule]
    return ok


def _second_pass_ignored() -> Hooks:
    def ok(state: GameState, action: Action) -> bool:
        return isinstance(action, Pass) and _only("PASS.EXCHANGE")(state, action)
    return Hooks(ignore=[ok])


def _out_of_turn_ignored() -> Hooks:
    def ok(state: GameState, action: Action) -> bool:
        return isinstance(action, Play) and _only("TURN.ORDER")(state, action)
    return Hooks(ignore=[ok])


def _card_not_held_ignored() -> Hooks:
    """A play of a card the seat does not hold is accepted (and changes nothing)."""
    def ok(state: GameState, action: Action) -> bool:
        return isinstance(action, Play) and _only("TURN.OWN_CARD")(state, action)
    return Hooks(ignore=[ok])


def _exchange_each_pass() -> Hooks:
    """Each pass moves its cards to the receiver at once, before the others have passed."""
    def rewrite(adapter: Broken, state: GameState, obs: dict[str, Any]) -> None:
        offset = state.pass_offset
        if state.phase is not Phase.PASSING or offset is None:
            return
        hands = [list(h) for h in state.hands]
        for seat, passed in enumerate(state.passes):
            if passed is None:
                continue
            for card in passed:
                hands[seat].remove(card)
                hands[(seat + offset) % state.players].append(card)
        obs["hands"] = [[str(c) for c in sorted(h)] for h in hands]
    return Hooks(rewrite=[rewrite])


def _seats_from_leader() -> Hooks:
    """Hands are listed from the seat left of the dealer, as the engine numbers its seats."""
    def rewrite(adapter: Broken, state: GameState, obs: dict[str, Any]) -> None:
        hands = obs.get("hands")
        if isinstance(hands, list):
            k = (state.dealer + 1) % state.players
            obs["hands"] = hands[k:] + hands[:k]
    return Hooks(rewrite=[rewrite])


def _extra_in_hand() -> Hooks:
    """The engine deals the first extra to seat 0 and keeps seat 0's first card as an extra."""
    def change(state: GameState, action: Action) -> Action:
        if not isinstance(action, DealCards) or not action.extras or not action.hands:
            return action
        first = action.hands[0]
        if action.extras[0] in first:
            return action
        hand0 = tuple(sorted((*first[1:], action.extras[0])))
        return DealCards((hand0, *action.hands[1:]), (first[0], *action.extras[1:]))
    return Hooks(change=[change])


def _deal_cards_unchecked() -> Hooks:
    """A deal is checked for its sizes only: one of the right sizes whose cards are not the
    two packs is taken, the engine dealing its own deck cut in order instead."""
    def change(state: GameState, action: Action) -> Action:
        if not isinstance(action, DealCards) or state.phase is not Phase.DEALING:
            return action
        try:
            check_deal(action.hands, action.extras, state.players)
        except SetupError as exc:
            if exc.rule_id == "DECK.CARDS":
                deck = sorted(full_deck())
                size = hand_size(state.players)
                return DealCards(tuple(tuple(deck[i * size:(i + 1) * size])
                                       for i in range(state.players)),
                                 tuple(deck[size * state.players:]))
        return action
    return Hooks(change=[change])


def _short_deal() -> Hooks:
    """The engine counts one trick too few: the last cards are played out by themselves."""
    def step(state: GameState) -> GameState:
        if state.phase is not Phase.PLAYING or state.trick or state.trick_number < 2:
            return state
        if any(len(h) != 1 for h in state.hands):
            return state
        while state.phase is Phase.PLAYING:
            seat = state.to_act
            assert seat is not None
            state, _ = state.apply(Play(seat, state.hands[seat][0]))
        return state
    return Hooks(step=[step])


def _void_first_opening() -> Hooks:
    """The lead after a void trick 1 is restricted as an opening lead (no heart, no Q♠)."""
    def restricted(state: GameState) -> bool:
        return (state.phase is Phase.PLAYING and not state.trick and state.trick_number == 2
                and bool(state.tricks) and state.tricks[0].winner is None)

    def allowed(state: GameState) -> list[Card]:
        seat = state.to_act
        assert seat is not None
        legal = list(state.legal_plays())
        return [c for c in legal if not is_penalty(c)] or legal

    def rewrite(adapter: Broken, state: GameState, obs: dict[str, Any]) -> None:
        if restricted(state):
            obs["legal"] = [str(c) for c in allowed(state)]

    def refuse(state: GameState, action: Action) -> str | None:
        if restricted(state) and isinstance(action, Play) and action.card not in allowed(state):
            return "LEAD.OPENING_CARD"
        return None
    return Hooks(refuse=[refuse], rewrite=[rewrite])


def _two_clubs_forced(leader_too: bool = True) -> Hooks:
    """On trick 1 a seat that holds a 2♣ must play it, leading or following: the
    ``first_trick_two_of_clubs = must-play`` switch of FOLLOW.FIRST_TRICK, always on, and
    (``leader_too``) the opening lead held to a 2♣ as well, which that switch leaves to
    ``opening_lead``."""
    def forced(state: GameState) -> bool:
        seat = state.to_act
        return (state.phase is Phase.PLAYING and state.trick_number == 1 and seat is not None
                and TWO_OF_CLUBS in state.hands[seat] and (leader_too or bool(state.trick)))

    def rewrite(adapter: Broken, state: GameState, obs: dict[str, Any]) -> None:
        if forced(state):
            obs["legal"] = [str(TWO_OF_CLUBS)]

    def refuse(state: GameState, action: Action) -> str | None:
        if forced(state) and isinstance(action, Play) and action.card != TWO_OF_CLUBS:
            return "LEAD.OPENING_CARD" if not state.trick else "FOLLOW.FIRST_TRICK"
        return None
    return Hooks(refuse=[refuse], rewrite=[rewrite])


def _totals_rotated() -> Hooks:
    """Each deal's scores are added to the totals one seat to the left."""
    def rewrite(adapter: Broken, state: GameState, obs: dict[str, Any]) -> None:
        if state.phase not in (Phase.DEALING, Phase.GAME_OVER) or not state.deal_results:
            return
        scores = list(state.deal_results[-1].scores)
        shifted = scores[-1:] + scores[:-1]
        obs["totals"] = [t - s + r for t, s, r in zip(obs["totals"], scores, shifted,
                                                       strict=True)]
    return Hooks(rewrite=[rewrite])


# --- engines that score only at the end of a deal ------------------------------------------

#: How an end-of-deal scorer collects the cards: (state, seat) -> the cards it scores.
Collect = Callable[[GameState], list[list[Card]]]


def _won_tricks(state: GameState, cancelled: bool, pending: bool, extras: bool,
                last_void_to: str | None) -> list[list[Card]]:
    """Each seat's cards as an engine that walks the deal's tricks at the end collects them."""
    got: list[list[Card]] = [[] for _ in range(state.players)]
    pile: list[Card] = []
    last_winner: int | None = None
    for i, t in enumerate(state.tricks):
        extra = list(state.extras) if i == 0 else []
        if t.winner is None:
            pile += list(t.cards) + extra
            continue
        got[t.winner] += [c for c in t.cards if cancelled or c not in t.cancelled]
        if pending:
            got[t.winner] += pile
        if extras:
            got[t.winner] += extra
        pile = []
        last_winner = t.winner
    if pile and last_void_to == "last-winner" and last_winner is not None:
        got[last_winner] += pile
    elif pile:
        for seat, cards in enumerate(state.collected):  # as the rules settle them
            mine = list(cards)
            for c in got[seat]:
                if c in mine:
                    mine.remove(c)
            got[seat] += [c for c in mine if c in pile]
    return got


def _end_scoring(collect: Collect, points_too: bool,
                 value: Callable[[Sequence[Card], Ruleset], int] = card_points,
                 own_last_void: bool = False) -> Hooks:
    """An engine that scores a deal at its end from the tricks it recorded.

    ``points_too``: its ``points`` at the end of the deal are its own
    count (else it shows the running points the rules give, and the
    difference shows in the deal scores only). A deal whose last trick is
    void is scored by the rules (VOID.LAST, whatever ``last_trick_void``
    says) unless ``own_last_void``: that is where this engine's fault is.
    """
    def rewrite(adapter: Broken, state: GameState, obs: dict[str, Any]) -> None:
        if state.phase not in (Phase.DEALING, Phase.GAME_OVER) or not state.deal_results:
            return
        result = state.deal_results[-1]
        if result.moon_shooter is not None or result.deal_number != state.deal_number:
            return
        if result.moon_pair is not None:
            return
        if state.tricks and state.tricks[-1].winner is None and not own_last_void:
            return
        if obs.get("deal_scores") is None or len(state.tricks) != hand_size(state.players):
            return  # started from a position within the deal: its own tricks are not all known
        mine = [value(cards, state.ruleset) for cards in collect(state)]
        diff = [m - s for m, s in zip(mine, result.scores, strict=True)]
        obs["deal_scores"] = mine
        if points_too:
            obs["points"] = mine
        obs["totals"] = [t + d for t, d in zip(obs["totals"], diff, strict=True)]
    return Hooks(rewrite=[rewrite])


def _queen_ten(cards: Sequence[Card], ruleset: Ruleset) -> int:
    return card_points(cards, ruleset) - 3 * list(cards).count(QUEEN_OF_SPADES)


_ALL = {"cancelled": True, "pending": True, "extras": True, "last_void_to": None}


def _collector(**changes: Any) -> Collect:
    options = {**_ALL, **changes}
    return lambda state: _won_tricks(state, **options)


# --- the table -------------------------------------------------------------------------------

#: Every bug: name -> (engine changes, adapter hooks).
BUGS: dict[str, tuple[tuple[Callable[[], None], ...], Callable[[], Hooks]]] = {
    "ace-low": ((ace_low,), Hooks),
    "any-suit-wins": ((any_suit_wins,), Hooks),
    "first-trick-ban-following": ((first_trick_ban_following,), Hooks),
    "first-trick-ban-always": ((first_trick_ban_always,), Hooks),
    "dealer-stays": ((dealer_stays,), Hooks),
    "no-moon": ((no_moon,), Hooks),
    "moon-at-once": ((moon_at_once,), Hooks),
    "lead-breaks-nothing": ((lead_breaks_nothing,), Hooks),
    "queen-is-a-heart": ((queen_is_a_heart,), Hooks),
    "pass-no-two-of-clubs": ((), lambda: _refuse_pass_with(TWO_OF_CLUBS)),
    "pass-three-always": ((), _pass_three_always),
    "second-pass-ignored": ((), _second_pass_ignored),
    "out-of-turn-ignored": ((), _out_of_turn_ignored),
    "card-not-held-ignored": ((), _card_not_held_ignored),
    "exchange-each-pass": ((), _exchange_each_pass),
    "seats-from-leader": ((), _seats_from_leader),
    "extra-in-hand": ((), _extra_in_hand),
    "deal-cards-unchecked": ((), _deal_cards_unchecked),
    "short-deal": ((), _short_deal),
    "void-first-opening": ((), _void_first_opening),
    "two-of-clubs-forced": ((), _two_clubs_forced),
    "two-of-clubs-forced-followers": ((), lambda: _two_clubs_forced(leader_too=False)),
    "totals-rotated": ((), _totals_rotated),
    "end-pending-lost": ((), lambda: _end_scoring(_collector(pending=False), False)),
    "end-extras-lost": ((), lambda: _end_scoring(_collector(extras=False), False)),
    "end-cancelled-lost": ((), lambda: _end_scoring(_collector(cancelled=False), True)),
    "end-last-void-to-winner": ((), lambda: _end_scoring(
        _collector(last_void_to="last-winner"), True, own_last_void=True)),
    "end-queen-ten": ((), lambda: _end_scoring(_collector(), True, _queen_ten)),
}

#: Every broken adapter: name -> the rules it breaks, the one named first (fixed seed) first.
BROKEN: dict[str, tuple[str, ...]] = {
    "ace-low": ("DECK.RANKING",),
    "any-suit-wins": ("TRICK.WINNER",),
    "first-trick-ban-following": ("FOLLOW.FIRST_TRICK",),
    "first-trick-ban-always": ("FOLLOW.FIRST_TRICK",),
    "dealer-stays": ("DEAL.DEALER",),
    "no-moon": ("MOON.CONDITION",),
    "moon-at-once": ("MOON.CHOICE",),
    "lead-breaks-nothing": ("HEARTS.BROKEN",),
    "queen-is-a-heart": ("LEAD.HEARTS",),
    "pass-no-two-of-clubs": ("PASS.CARDS",),
    "pass-three-always": ("PASS.CARDS",),
    "second-pass-ignored": ("PASS.EXCHANGE",),
    "out-of-turn-ignored": ("TURN.ORDER",),
    "card-not-held-ignored": ("TURN.OWN_CARD",),
    "exchange-each-pass": ("PASS.EXCHANGE",),
    "seats-from-leader": ("PLAYERS.COUNT",),
    "extra-in-hand": ("DEAL.SOURCE",),
    "deal-cards-unchecked": ("DECK.CARDS",),
    "short-deal": ("DEAL.SIZE",),
    "void-first-opening": ("VOID.LEADER",),
    "two-of-clubs-forced": ("FOLLOW.FIRST_TRICK", "LEAD.OPENING_CARD"),
    "two-of-clubs-forced-followers": ("FOLLOW.FIRST_TRICK",),
    "totals-rotated": ("SCORE.DEAL",),
    "end-pending-lost": ("VOID.COLLECT",),
    "end-extras-lost": ("EXTRAS.FIRST_TRICK",),
    "end-cancelled-lost": ("TRICK.CANCEL",),
    "end-last-void-to-winner": ("VOID.LAST",),
    "end-queen-ten": ("SCORE.CARD_POINTS",),
    # several faults at once
    # the forced 2♣ shows on the opening lead (LEAD.OPENING_CARD) and on a follower's card
    # (FOLLOW.FIRST_TRICK): two classes of one fault
    "pass-no-two-of-clubs+two-of-clubs-forced+lead-breaks-nothing": (
        "PASS.CARDS", "LEAD.OPENING_CARD", "FOLLOW.FIRST_TRICK", "HEARTS.BROKEN"),
    "first-trick-ban-always+dealer-stays": ("DEAL.DEALER", "FOLLOW.FIRST_TRICK"),
    "end-pending-lost+ace-low+totals-rotated": ("DECK.RANKING", "VOID.COLLECT", "SCORE.DEAL"),
}

#: Rules no broken adapter can show a conform run, with the reason: rule -> why.
KNOWN_MISSES: dict[str, str] = {
    "VIEW.SEAT": "the adapter protocol observes the whole game, not what one seat may see; "
                 "the seat-view vectors check rules_ref.view instead (spec/vectors/README.md)",
}


def command(name: str) -> list[str]:
    """The command that runs broken adapter ``name``."""
    return script_command(__file__, name)


def build(name: str) -> type[Broken]:
    """Break the engine as ``name`` says and return its adapter class."""
    hooks = Hooks()
    for part in name.split("+"):
        engine, make = BUGS[part]
        for change in engine:
            change()
        hooks.add(make())
    return type("BrokenAdapter", (Broken,), {"hooks": hooks, "name": _title(name)})


def _title(name: str) -> str:
    return f"broken adapter {name}"


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], BROKEN, __file__, lambda name: build(name)(), _title))
