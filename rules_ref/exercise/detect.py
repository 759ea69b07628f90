"""Which conditions of :mod:`~rules_ref.exercise.catalogue` one step of a game went through.

:func:`step_conditions` reads them from the reference's states and events
of an applied action (never from how the game was drawn);
:func:`rejected_conditions` from an action the reference rejected and the
state it was offered in; :func:`start_conditions` from a game's start.
The rare paths of the rules (:data:`RARE_PATHS`) are named conditions
among those a step went through (:func:`rare_paths`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from .. import events as ev
from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import (
    PENALTY_OF,
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    Card,
    Suit,
    cards_of_suit,
    is_penalty,
)
from ..errors import RulesRefError, Violation
from ..passing import pass_direction
from ..ruleset import FirstTrickPoints, HeartsBrokenBy, OpeningLead, PassForbidden, Ruleset
from ..state import GameState
from ..state_parts import PLAYING, Phase
from . import catalogue as ex
from .catalogue import count_condition, direction_condition, size_condition, value_condition
from .pairs import pair_conditions

_TWO = OpeningLead.TWO_OF_CLUBS
_FORBIDDEN = (FirstTrickPoints.FORBIDDEN, FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING)
_EVEN_FOLLOWING = FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING
_NOT_NEEDED = HeartsBrokenBy.NOT_NEEDED
_ACTION_WORDS = {Play: "play", Pass: "pass", ChooseMoon: "moon choice", DealCards: "deal"}


def _key(rule: str, words: str) -> str:
    return f"{rule}: {words}"


#: The keys of the conditions most card plays go through, built once rather than at every
#: play.
_VIEW_PLAYING = _key("VIEW.SEAT", ex.VIEW_PLAYING)
_FOLLOWS = _key("FOLLOW.SUIT", ex.FOLLOWS)
_DISCARDS = _key("FOLLOW.SUIT", ex.DISCARDS)
_PLAYS_IDENTICAL = _key("FOLLOW.SUIT", ex.PLAYS_IDENTICAL)
_PLAY_TWICE = _key("DECK.CARDS", ex.PLAY_TWICE)


def start_conditions(state: GameState) -> list[str]:
    """The conditions of a game's start (a deal): its player count and deal size."""
    out = [count_condition(state.players), size_condition(state.players),
           _key("DEAL.SOURCE", ex.DEAL_ACCEPTED),
           value_condition("min_players", state.ruleset.min_players)]
    out += _dealt(state)
    return out


def _dealt(state: GameState) -> list[str]:
    out = []
    if not state.extras:
        out.append(_key("EXTRAS.FIRST_TRICK", ex.NO_EXTRAS))
    if any(len(set(h)) < len(h) for h in state.hands):
        out.append(_key("DECK.CARDS", ex.HAND_TWICE))
    if state.phase is Phase.PASSING:
        out.append(_key("VIEW.SEAT", ex.VIEW_PASSING))
    if state.phase is Phase.PASSING or state.phase is Phase.PLAYING:
        offset = state.pass_offset
        if offset is not None or state.phase is Phase.PLAYING:
            out.append(direction_condition(pass_direction(state.deal_number, state.ruleset)))
            out.append(value_condition("pass_cycle", state.ruleset.pass_cycle))
    return out


def step_conditions(before: GameState, action: Action, after: GameState,
                    events: Sequence[ev.Event]) -> list[str]:
    """The conditions an action the reference applied went through, and the pairs it met
    (:mod:`.pairs`: a rare condition under a switch value)."""
    rs = before.game.ruleset
    if type(action) is Play:  # most steps
        out = _played(before, action, after, rs)
        if after.phase is PLAYING:
            out.append(_VIEW_PLAYING)
    elif isinstance(action, DealCards):
        out = [_key("DEAL.SOURCE", ex.DEAL_ACCEPTED), size_condition(before.players)]
        if before.deal_results:
            out.append(_key("DEAL.DEALER", ex.NEXT_DEALER))
            out.append(_key("HEARTS.BROKEN", ex.UNBROKEN_NEW_DEAL))
        out += _dealt(after)
    elif isinstance(action, Pass):
        out = _passed(before, action)
    elif isinstance(action, ChooseMoon):
        out = [_key("MOON.CHOICE", ex.MOON_ADD if action.choice is MoonChoice.ADD
                    else ex.MOON_SUBTRACT)]
    else:
        out = []
    if len(events) > 1 or type(action) is not Play:  # a card played alone: its event only
        played = ev.CardPlayed
        for e in events:
            if type(e) is not played:  # every play's event names nothing: _played's do
                out += _event(before, after, e, events, rs)
    out += pair_conditions(out, rs)
    return out


def _passed(before: GameState, action: Pass) -> list[str]:
    out = [value_condition("pass_count", before.ruleset.pass_count),
           value_condition("pass_forbidden", before.ruleset.pass_forbidden)]
    cards = action.cards
    if len(set(cards)) < len(cards):
        out.append(_key("PASS.CARDS", ex.PASS_BOTH))
    if any(is_penalty(c) for c in cards):
        out.append(_key("PASS.CARDS", ex.PASS_POINTS))
    return out


def _played(before: GameState, action: Play, after: GameState, rs: Ruleset) -> list[str]:
    out: list[str] = []
    seat, c = action.seat, action.card
    hand = before.hands[seat]
    trick = before.trick
    deal = before.deal  # its fields read directly: this runs at every card play of a search
    if hand.count(c) == 2:
        out.append(_PLAY_TWICE)
    first = deal.trick_number == 1
    if not trick:
        if first:
            out += _opening(before, hand, c)
        elif c.suit == Suit.H:
            if deal.hearts_broken:
                out.append(_key("LEAD.HEARTS", ex.HEART_LED_BROKEN))
            elif rs.hearts_broken_by is _NOT_NEEDED and any(x.suit != Suit.H for x in hand):
                out.append(_key("LEAD.HEARTS", ex.HEART_LED_FREE))
            elif all(x.suit == Suit.H for x in hand):
                out.append(_key("LEAD.HEARTS", ex.HEART_LED_FORCED))
        elif (c == QUEEN_OF_SPADES and not deal.hearts_broken and rs.hearts_broken_by
              is not _NOT_NEEDED and all(is_penalty(x) for x in hand)
              and any(x.suit == Suit.H for x in hand)):
            out.append(_key("LEAD.HEARTS", ex.QUEEN_LED_FORCED))
    else:
        suit = trick[0].suit
        if c in trick:
            out.append(_PLAYS_IDENTICAL)
        if c.suit == suit or cards_of_suit(hand, suit):  # the hand is read only for a discard
            out.append(_FOLLOWS)
            if first and rs.first_trick_points is _EVEN_FOLLOWING:
                out += _first_follow(before, [x for x in hand if x.suit == suit], c)
        else:
            out.append(_DISCARDS)
            if first:
                out += _first_discard(before, hand, c)
        if first:
            if TWO_OF_CLUBS in hand:  # may it, or must it, play its 2♣ now?
                out.append(value_condition("first_trick_two_of_clubs",
                                           rs.first_trick_two_of_clubs))
            if rs.opening_lead is _TWO and trick[0] == TWO_OF_CLUBS and c == TWO_OF_CLUBS:
                out.append(_key("LEAD.OPENING_CARD", ex.OPEN_TWO_CANCEL))
    if PENALTY_OF[c] and not deal.hearts_broken:
        out.append(value_condition("hearts_broken_by", rs.hearts_broken_by))
        if after.hearts_broken:
            out.append(_key("HEARTS.BROKEN", ex.BROKEN_QUEEN if c == QUEEN_OF_SPADES
                            else ex.BROKEN_HEART))
        elif after.phase is Phase.PLAYING and after.deal_number == before.deal_number:
            out.append(_key("HEARTS.BROKEN", ex.NOT_BROKEN))
    if (c in trick and deal.hearts_broken and next(x for x in trick if is_penalty(x) or x == c)
            == c and not any(PENALTY_OF[x] for t in before.tricks for x in t.cards)):
        out.append(_key("HEARTS.BROKEN", ex.BROKEN_CANCELLED))
    return out


def _opening(before: GameState, hand: Sequence[Card], c: Card) -> list[str]:
    rs = before.ruleset
    out = [value_condition("opening_lead", rs.opening_lead)]
    left = (before.dealer + 1) % before.players
    if rs.opening_lead is _TWO:
        if c == TWO_OF_CLUBS:
            out += [_key("LEAD.OPENING_LEADER", ex.LEADER_TWO),
                    _key("LEAD.OPENING_CARD", ex.OPEN_TWO)]
            return out
        if not any(TWO_OF_CLUBS in h for h in before.hands) and before.leader == left:
            out.append(_key("LEAD.OPENING_LEADER", ex.LEADER_NO_TWO))
        return out
    if before.leader == left:
        out.append(_key("LEAD.OPENING_LEADER", ex.LEADER_LEFT))
    if all(is_penalty(x) for x in hand):
        out.append(_key("LEAD.OPENING_CARD", ex.OPEN_ONLY_POINTS))
    elif any(is_penalty(x) for x in hand) and not is_penalty(c):
        out.append(_key("LEAD.OPENING_CARD", ex.OPEN_OTHER))
    return out


def _first_follow(before: GameState, of_suit: Sequence[Card], c: Card) -> list[str]:
    """A seat following suit to trick 1 under ``first_trick_points = forbidden-even-following``."""
    mixed = any(is_penalty(x) for x in of_suit) and not all(is_penalty(x) for x in of_suit)
    if mixed and not is_penalty(c):
        return [value_condition("first_trick_points", before.ruleset.first_trick_points),
                _key("FOLLOW.FIRST_TRICK", ex.FIRST_FOLLOW_KEPT)]
    return []


def _first_discard(before: GameState, hand: Sequence[Card], c: Card) -> list[str]:
    rs = before.ruleset
    out = [value_condition("first_trick_points", rs.first_trick_points)]
    if rs.first_trick_points in _FORBIDDEN:
        if all(is_penalty(x) for x in hand):
            out.append(_key("FOLLOW.FIRST_TRICK", ex.FIRST_ONLY_POINTS))
        elif any(is_penalty(x) for x in hand):
            out.append(_key("FOLLOW.FIRST_TRICK", ex.FIRST_DISCARD_OTHER))
    elif is_penalty(c):
        out.append(_key("FOLLOW.FIRST_TRICK", ex.FIRST_DISCARD_POINTS))
    return out


def _event(before: GameState, after: GameState, e: ev.Event, events: Sequence[ev.Event],
           rs: Ruleset) -> list[str]:
    out: list[str] = []
    if isinstance(e, ev.PassesExchanged):
        out.append(_key("PASS.EXCHANGE", ex.EXCHANGED))
    elif isinstance(e, ev.TrickWon):
        out += _won(after, e)
    elif isinstance(e, ev.TrickSetAside):
        out.append(_key("VOID.TRICK", ex.VOID))
        outcome = after.tricks[-1]
        if any(c.suit != outcome.led_suit and c not in outcome.cancelled for c in outcome.cards):
            out.append(_key("VOID.TRICK", ex.VOID_OFF_SUIT))
        if any(after.hands):
            out.append(_key("VOID.LEADER", ex.VOID_LEADS))
            if e.trick_number == 1:
                out.append(_key("VOID.LEADER", ex.VOID_FIRST_LEADS))
        else:
            out += [_key("VOID.LAST", ex.VOID_LAST), value_condition("last_trick_void",
                                                                  rs.last_trick_void)]
            if before.pending_has_extras or any(isinstance(x, ev.ExtrasPending)
                                                for x in events):
                out.append(_key("VOID.LAST", ex.VOID_LAST_EXTRAS))
    elif isinstance(e, ev.PendingCollected):
        out.append(_key("VOID.COLLECT", ex.COLLECT_ONE))
        if _voids_before(after) >= 2:
            out.append(_key("VOID.COLLECT", ex.COLLECT_MANY))
        if before.pending_has_extras:
            out.append(_key("VOID.COLLECT", ex.COLLECT_EXTRAS))
    elif isinstance(e, ev.ExtrasTaken):
        out.append(_key("EXTRAS.FIRST_TRICK", ex.EXTRAS_WON))
    elif isinstance(e, ev.ExtrasPending):
        out.append(_key("EXTRAS.FIRST_TRICK", ex.EXTRAS_PENDING))
    elif isinstance(e, ev.MoonShot):
        out += [_key("MOON.CONDITION", ex.MOON), value_condition("moon", rs.moon)]
    elif isinstance(e, ev.DealScored):
        out += _scored(before, after, e, events, rs)
    elif isinstance(e, ev.GameOver):
        out.append(_key("GAME.WINNER", ex.WINS_TIED if len(e.winners) > 1 else ex.WINS_ALONE))
        top = max(e.totals)
        out.append(_key("GAME.END", ex.END_EXACT if top == rs.target else ex.END_PAST))
    return out


def _won(after: GameState, e: ev.TrickWon) -> list[str]:
    out = []
    outcome = after.tricks[-1]
    suit = outcome.led_suit
    if any(c.suit != suit and c.rank > e.card.rank for c in outcome.cards):
        out.append(_key("DECK.RANKING", ex.RANK_OFF_SUIT))
    if outcome.cards[0] in outcome.cancelled:
        out.append(_key("TRICK.LED_SUIT", ex.LED_CANCELLED))
    if e.cancelled:
        out.append(_key("TRICK.CANCEL", ex.CANCEL_WON))
        if any(c.suit != suit for c in e.cancelled):
            out.append(_key("TRICK.CANCEL", ex.CANCEL_OFF_SUIT))
    if any(c.suit == suit and c.rank > e.card.rank for c in outcome.cancelled):
        out.append(_key("TRICK.WINNER", ex.WINNER_LOWER))
    else:
        out.append(_key("TRICK.WINNER", ex.WINNER_HIGHEST))
    if any(after.hands):
        out.append(_key("TRICK.NEXT_LEADER", ex.NEXT_LEADS))
    return out


def _scored(before: GameState, after: GameState, e: ev.DealScored,
            events: Sequence[ev.Event], rs: Ruleset) -> list[str]:
    # every switch is counted at the moment its rule decides: these when a deal is scored
    out = [_key("SCORE.CARD_POINTS", ex.SCORED), _key("VIEW.SEAT", ex.VIEW_SCORED),
           value_condition("ten_of_diamonds_points", rs.ten_of_diamonds_points),
           value_condition("target", rs.target), value_condition("moon_pair", rs.moon_pair)]
    result = after.deal_results[-1]
    if result.moon_pair is not None:
        out.append(_key("MOON.CONDITION", ex.PAIR_MOON))
    if result.moon_shooter is None and result.moon_pair is None:
        out.append(_key("SCORE.DEAL", ex.NO_MOON))
        if any(is_penalty(c) for c in result.uncollected):
            out.append(_key("SCORE.DEAL", ex.SHORT_52))
    if any(list(c).count(QUEEN_OF_SPADES) == 2 for c in after.collected):
        out.append(_key("SCORE.CARD_POINTS", ex.BOTH_QUEENS))
    if after.phase is Phase.DEALING:
        out.append(_key("GAME.END", ex.GOES_ON))
    return out


def _voids_before(after: GameState) -> int:
    """How many void tricks came right before the trick just won."""
    count = 0
    for outcome in reversed(after.tricks[:-1]):
        if not outcome.void:
            break
        count += 1
    return count


# --- the rare paths ------------------------------------------------------------------------

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

#: A void trick set aside while the pile of another waits (read by :func:`rare_paths`; the
#: catalogue has no condition for it).
_VOID_AFTER_VOID = _key("VOID.TRICK", "a trick is void while an earlier void trick is pending")

#: The rare situations of the rules, by name: a step went through one when it went through
#: any of its conditions (:func:`step_conditions`). The property tests prove each was
#: played; a conform run counts them.
RARE_CONDITIONS: dict[str, tuple[str, ...]] = {
    PARTIAL_CANCEL: (_key("TRICK.CANCEL", ex.CANCEL_WON),),
    CANCELLED_LEAD: (_key("TRICK.LED_SUIT", ex.LED_CANCELLED), _key("VOID.TRICK", ex.VOID)),
    VOID_TRICK: (_key("VOID.TRICK", ex.VOID),),
    VOID_TWICE: (_VOID_AFTER_VOID,),
    VOID_FIRST_WITH_EXTRAS: (_key("EXTRAS.FIRST_TRICK", ex.EXTRAS_PENDING),),
    VOID_LAST: (_key("VOID.LAST", ex.VOID_LAST),),
    PENDING_COLLECTED: (_key("VOID.COLLECT", ex.COLLECT_ONE),),
    OPENING_EXCEPTION: (_key("LEAD.OPENING_CARD", ex.OPEN_ONLY_POINTS),),
    FORCED_HEART_LEAD: (_key("LEAD.HEARTS", ex.HEART_LED_FORCED),),
    MOON_SUBTRACT: (_key("MOON.CHOICE", ex.MOON_SUBTRACT),),
    MOON_ADD: (_key("MOON.CHOICE", ex.MOON_ADD),),
    TIE: (_key("GAME.WINNER", ex.WINS_TIED),),
}

#: Every rare path :func:`rare_paths` reports, in a stable order.
RARE_PATHS = tuple(RARE_CONDITIONS)

#: Every condition that names a rare path.
_RARE_KEYS = frozenset(key for keys in RARE_CONDITIONS.values() for key in keys)


def rare_paths(before: GameState, events: Sequence[ev.Event],
               conditions: Collection[str]) -> tuple[str, ...]:
    """The rare paths (:data:`RARE_PATHS`) of a step that went through ``conditions``.

    ``conditions`` are the step's :func:`step_conditions`; ``before`` and
    ``events`` tell whether a trick set aside joined another still pending
    (``before.pending``). Nothing is read from the tricks before the current
    one, so a game started from a position (whose recorded tricks begin
    there) is counted as any other.
    """
    # a trick set aside comes with the play that ended it: one event is never one
    void_after_void = before.pending and len(events) > 1 and any(
        isinstance(e, ev.TrickSetAside) and e.trick_number > 1 for e in events)
    if not void_after_void and _RARE_KEYS.isdisjoint(conditions):
        return ()  # most steps: one test instead of the twelve below
    went = set(conditions)
    if void_after_void:
        went.add(_VOID_AFTER_VOID)
    return tuple(name for name, keys in RARE_CONDITIONS.items() if not went.isdisjoint(keys))


#: The action each phase waits for.
_PHASE_ACTION: dict[Phase, type] = {Phase.PASSING: Pass, Phase.PLAYING: Play,
                                    Phase.MOON_CHOICE: ChooseMoon, Phase.DEALING: DealCards}

#: The condition of a card play rejected for breaking each rule, by its rule.
_PLAY_REJECTED = {rule: _key(rule, words) for rule, words in (
    ("TURN.OWN_CARD", ex.NOT_HELD), ("LEAD.OPENING_CARD", ex.OPEN_REJECTED),
    ("LEAD.HEARTS", ex.HEART_LED_REJECTED), ("FOLLOW.SUIT", ex.REVOKE_REJECTED),
    ("FOLLOW.FIRST_TRICK", ex.FIRST_REJECTED))}


def rejected_conditions(before: GameState, action: Action,
                        violations: Sequence[Violation]) -> list[str]:
    """The conditions of an action the reference rejected, read from the action and state."""
    rules = {v.rule_id for v in violations}
    n = before.players
    phase = before.phase
    if before.phase is Phase.GAME_OVER:
        return [_key("TURN.ORDER", ex.AFTER_END)]
    seat = getattr(action, "seat", 0)
    if not 0 <= seat < n:
        return [_key("TURN.ORDER", ex.NO_SUCH_SEAT)]
    if not isinstance(action, _PHASE_ACTION.get(phase, DealCards)):
        words = ex.WRONG_PHASE.get((_ACTION_WORDS.get(type(action), ""), str(phase)))
        return [_key("TURN.ORDER", words)] if words else []
    if isinstance(action, DealCards):
        return [_key("DEAL.SOURCE", ex.DEAL_REJECTED)]
    if isinstance(action, Pass):
        return _pass_rejected(before, action, rules)
    if isinstance(action, ChooseMoon):
        return [_key("MOON.CHOICE", ex.MOON_OTHER_SEAT)] if seat != before.to_act else []
    assert isinstance(action, Play)
    if seat != before.to_act:
        played = {(before.leader + i) % n for i in range(len(before.trick))}
        return [_key("TURN.ORDER", ex.PLAYED_ALREADY if seat in played else ex.OUT_OF_TURN)]
    return [_PLAY_REJECTED[r] for r in sorted(rules) if r in _PLAY_REJECTED]


def _pass_rejected(before: GameState, action: Pass, rules: set[str]) -> list[str]:
    if "PASS.EXCHANGE" in rules:
        return [_key("PASS.EXCHANGE", ex.PASS_AGAIN)]
    if len(action.cards) != before.ruleset.pass_count:
        return [_key("PASS.CARDS", ex.PASS_SIZE)]
    hand = Counter(before.hands[action.seat])
    named = Counter(action.cards)
    if any(c not in hand for c in named):
        return [_key("PASS.CARDS", ex.PASS_NOT_HELD)]
    if any(k > hand[c] for c, k in named.items()):
        return [_key("PASS.CARDS", ex.PASS_TWICE_NAMED)]
    if before.ruleset.pass_forbidden is PassForbidden.TWO_OF_CLUBS and TWO_OF_CLUBS in named:
        return [_key("PASS.CARDS", ex.PASS_FORBIDDEN_NAMED)]
    return []


#: Rules at work in almost every step: named last among the rules of a step.
_EVERYWHERE = ("VIEW.SEAT", "TURN.ORDER", "FOLLOW.SUIT", "TRICK.WINNER", "TRICK.NEXT_LEADER",
               "DECK.CARDS", "DECK.RANKING", "HEARTS.BROKEN", "SCORE.CARD_POINTS")


#: The rules of a deal's end, first among the rules of the step that ends a deal.
_DEAL_END = ("VOID.LAST", "MOON.", "SCORE.DEAL", "GAME.")


#: The rules every trick's end goes through: is the trick void, and who takes the pending
#: pile (:func:`rules_ref.pending.after_trick`), named after the step's own conditions.
_TRICK_END = ("VOID.TRICK", "VOID.COLLECT")


#: The rules of the start of play: the reference picks the opening leader and its leads.
_OPENING = ("LEAD.OPENING_LEADER", "LEAD.OPENING_CARD")


def _begins_play(state: GameState) -> list[str]:
    """The opening lead's rules when ``state`` is a deal's play about to begin, else []."""
    if state.phase is Phase.PLAYING and state.trick_number == 1 and not state.trick:
        return list(_OPENING)
    return []


def rules_at_work(before: GameState, action: Action | None) -> list[str]:
    """The rules the reference's own step went through, the most particular first.

    For a report that has no difference to read, such as an implementation
    that failed internally on an action (protocol version 2's ``error``):
    the rules of the conditions the step exercised (a void last trick's
    split, a moon, the opening lead; :func:`step_conditions`; a deal's scoring
    first when the step ends a deal, with ``VOID.LAST``, whose settling of
    the cards still pending every deal's end and every moon choice goes
    through, after the deal-end rules its conditions name; the opening lead's
    rules, after the step's own, when the start or the step begins a deal's
    play: the reference picked the opening leader and its legal leads; at a
    trick's end, :data:`_TRICK_END`, after the step's own),
    those at work in almost every step (:data:`_EVERYWHERE`) last. Without an action, the
    rules of the game's start; for an action the reference rejects, the
    rules it breaks.
    """
    if action is None:
        keys = start_conditions(before) + _begins_play(before)
    else:
        violations = before.violations(action)
        if violations:
            return list(dict.fromkeys(v.rule_id for v in violations))
        try:
            after, events = before.apply(action)
        except RulesRefError as exc:  # a deal the reference refuses: its rule
            rule = getattr(exc, "rule_id", None)
            return [rule] if isinstance(rule, str) else []
        keys = step_conditions(before, action, after, events)
        if before.phase is not Phase.PLAYING:
            keys += _begins_play(after)
        if any(isinstance(e, (ev.TrickWon, ev.TrickSetAside)) for e in events):
            keys += list(_TRICK_END)  # every trick's end: void or won, the pile collected
        if after.phase is not before.phase and after.phase in (Phase.DEALING, Phase.GAME_OVER,
                                                                 Phase.MOON_CHOICE):
            # the deal was scored, after the cards still pending were settled (VOID.LAST),
            # which every deal's end goes through, pending cards or none
            keys = [k for k in keys if k.startswith(_DEAL_END)] + ["VOID.LAST"] + keys
    rules = list(dict.fromkeys(k.partition(":")[0] for k in keys))
    return ([r for r in rules if r not in _EVERYWHERE]
            + [r for r in _EVERYWHERE if r in rules])
