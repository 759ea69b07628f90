"""Words for cards, plays and actions: what a rejected or accepted action was, for a class name.

Shared by :mod:`.words` (the words of a divergence): a card by its kind
(Q♠ and 2♣ by name, a heart), a play by where it falls (opening the deal,
leading before hearts are broken, on the first trick while following suit),
a pass by what marks it, and an action the implementation rejected or
accepted against the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..actions import Action, ChooseMoon, DealCards, Pass, Play
from ..cards import QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, Suit, is_penalty, parse_card
from ..errors import RulesRefError
from ..ruleset import PassForbidden
from ..state import GameState
from ..state_parts import Phase


def card_list(value: object) -> list[Card]:
    out = []
    if isinstance(value, list):
        for t in value:
            try:
                out.append(parse_card(t))
            except (RulesRefError, TypeError, AttributeError):
                continue
    return out


# --- cards and situations --------------------------------------------------------------


def card_kind(card: Card) -> str:
    """A card as the words of a class name it: Q♠ and 2♣ by name, a heart, else a card."""
    if card == QUEEN_OF_SPADES:
        return "Q♠"
    if card == TWO_OF_CLUBS:
        return "2♣"
    if card.suit is Suit.H:
        return "a heart"
    return "a card"


_PRIORITY = ("Q♠", "2♣", "a heart", "a card")


def salient(cards: Sequence[Card]) -> Card:
    """The card that best names a set of differing cards (Q♠, then 2♣, then hearts)."""
    return min(cards, key=lambda c: (_PRIORITY.index(card_kind(c)), c))


def follow_phrase(state: GameState, card: Card, name: str,
                  copies: bool = True) -> tuple[str, str]:
    """A card played to a trick: its name and where it falls (following, void, identical).

    The first trick is named only for a heart or a Q♠ (the cards the first
    trick's rule is about, even when a copy of it is already in the trick, as
    :func:`rules_ref.causes.play_situation_rule` decides), and the card is named
    by kind only where a rule cares about its kind, so one fault gives one phrase.
    ``copies=False``: a copy already in the trick is not named (a card allowed
    that the rules forbid: no rule forbids a card for its copy, so the copy is
    a coincidence there).
    """
    trick = state.trick
    led = trick[0].suit
    seat = state.to_act
    hand = state.hands[seat] if seat is not None else ()
    first = state.trick_number == 1 and is_penalty(card)
    if copies and card in trick and not first:  # on trick 1 the point card's rule decides
        name, where = "a card", "identical to one already in the trick"
    elif card.suit == led:
        where = "while following suit"
        name = name if is_penalty(card) else "a card"
    elif any(c.suit == led for c in hand):
        name, where = "a card of another suit", "while holding the led suit"
        first = False
    else:
        where = "when void in the led suit"
    if first:
        where = "on the first trick " + where
    elif len(trick) > 1 and trick[0] in trick[1:] and (card not in trick or not copies):
        where += " after the led card is cancelled"
    return name, where


def play_phrase(state: GameState, card: Card, name: str, copies: bool = True) -> str:
    """The play of ``card`` (named ``name``) in ``state``, as a verb phrase's object
    (``copies``: as :func:`follow_phrase`)."""
    if state.phase is not Phase.PLAYING:
        return f"a play of {name} during {phase_words(str(state.phase))}"
    if not state.trick:
        if state.trick_number == 1:
            return f"opening the deal with {name}"
        if state.trick_number == 2 and state.tricks and state.tricks[0].winner is None:
            return f"leading {name} after a void first trick"
        if is_penalty(card) and not state.hearts_broken:
            return f"leading {name} before hearts are broken"
        return f"leading {name}"
    name, where = follow_phrase(state, card, name, copies)
    return f"{name} {where}"


def where_detail(state: GameState, card: Card, copies: bool = True) -> str:
    if not state.trick:
        if state.trick_number == 1:
            return "to open the deal"
        if state.trick_number == 2 and state.tricks and state.tricks[0].winner is None:
            return "to lead after a void first trick"
        if is_penalty(card) and not state.hearts_broken:
            return "to lead before hearts are broken"
        return "to lead"
    return follow_phrase(state, card, "", copies)[1]


def phase_words(phase: object) -> str:
    return {"passing": "passing", "playing": "play", "moon-choice": "the moon choice",
            "dealing": "the wait for the next deal", "game-over": "a finished game"}.get(
        str(phase), str(phase))


# --- rejected and accepted actions ----------------------------------------------------------


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen")


def count_words(n: int, noun: str) -> str:
    """``n`` things in words ("one card", "two cards"), so a class's words hold no digits."""
    number = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else "many"
    return f"{number} {noun}{'' if n == 1 else 's'}"


def pass_feature(cards: Sequence[Card], usual: int = 3) -> str:
    """What names a pass in words: its size when not ``usual`` (the ruleset's pass_count), and
    2♣, Q♠, both copies of a card or a heart in it ("a pass of seven cards that contains 2♣")."""
    size = f"a pass of {count_words(len(cards), 'card')}" if len(cards) != usual else "a pass"
    for card, words in ((TWO_OF_CLUBS, "2♣"), (QUEEN_OF_SPADES, "Q♠")):
        if card in cards:
            return f"{size} that contains {words}"
    if any(n > 1 for n in Counter(cards).values()):
        return f"{size} of both copies of a card" if len(cards) == usual else \
            f"{size} with both copies of a card"
    if any(c.suit is Suit.H for c in cards):
        return f"{size} that contains a heart"
    return size


def rejected_words(state: GameState, action: Action | None) -> str:
    if action is None:
        return "rejects the start of a game"
    if isinstance(action, Play):
        return f"rejects {play_phrase(state, action.card, card_kind(action.card))}"
    if isinstance(action, Pass):
        return f"rejects {pass_feature(action.cards, state.ruleset.pass_count)}"
    if isinstance(action, ChooseMoon):
        return f"rejects the moon choice {action.choice}"
    if isinstance(action, DealCards):
        return "rejects the next deal"
    return "rejects a legal action"


def _accepted_play(state: GameState, action: Play, rule: str) -> str:
    card = action.card
    name = card_kind(card)
    if state.phase is not Phase.PLAYING:
        return f"accepts a play during {phase_words(str(state.phase))}"
    if card not in state.hands[action.seat]:
        return "accepts a play of a card the seat does not hold"
    if rule == "TURN.ORDER":
        played = [(state.leader + i) % state.players for i in range(len(state.trick))]
        if action.seat in played:
            return "accepts a second card from one seat in a trick"
        return "accepts a play out of turn"
    return f"accepts {play_phrase(state, card, name, copies=False)}"


def _accepted_pass(state: GameState, action: Pass, rule: str) -> str:
    if state.phase is not Phase.PASSING:
        if state.phase is Phase.PLAYING and state.trick_number == 1 and not state.trick and \
                state.pass_offset is None and not state.tricks:
            return "accepts a pass in a deal without passing"
        return f"accepts a pass during {phase_words(str(state.phase))}"
    if not 0 <= action.seat < state.players:
        return "accepts a pass from a seat that does not exist"
    if state.passes[action.seat] is not None:
        return "accepts a second pass from one seat"
    hand = Counter(state.hands[action.seat])
    over = Counter(action.cards) - hand
    if over:
        if any(hand[c] for c in over):
            return "accepts a pass naming a card more often than the seat holds it"
        return "accepts a pass of a card the seat does not hold"
    if len(action.cards) != state.ruleset.pass_count:
        return f"accepts a pass of {count_words(len(action.cards), 'card')}"
    if state.ruleset.pass_forbidden is PassForbidden.TWO_OF_CLUBS and TWO_OF_CLUBS in action.cards:
        return "accepts a pass that holds a 2♣, which the ruleset forbids passing"
    return f"accepts a pass that breaks {rule}"


def accepted_words(state: GameState, action: Action | None, rules: Sequence[str]) -> str:
    rule = rules[0] if rules else ""
    if action is None:
        return "accepts a game the rules do not allow"
    if isinstance(action, (Play, Pass, ChooseMoon)) and not 0 <= action.seat < state.players:
        return "accepts an action by a seat that does not exist"
    if isinstance(action, Play):
        return _accepted_play(state, action, rule)
    if isinstance(action, Pass):
        return _accepted_pass(state, action, rule)
    if isinstance(action, ChooseMoon):
        if state.phase is not Phase.MOON_CHOICE:
            return f"accepts a moon choice during {phase_words(str(state.phase))}"
        if action.seat != state.moon_shooter:
            return "accepts a moon choice from a seat that did not shoot the moon"
        return f"accepts the moon choice {action.choice}, which the ruleset does not offer"
    if isinstance(action, DealCards):
        if state.phase is not Phase.DEALING:
            return "accepts a deal in the middle of a deal"
        return "accepts a deal that is not the next one"
    return "accepts an illegal action"


