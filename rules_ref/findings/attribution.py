"""Which rules a disagreement falls under.

When an implementation's answer differs from the reference, the runners
name the rule IDs (``spec/rules.toml``) that govern the difference, read from
the reference's own context: the state before the action, the action, the
state after it. A difference often drags others with it (a wrong trick
winner also changes the next leader, the legal cards and the points), so
the fields are examined in causal order and the first one that differs
decides; the other differing fields are listed as consequences. The rule is
the cause, from the reference's analysis: a rejected legal action falls
under the rule that decides it there (the implementation's citation is only
evidence), wrong points under the rule of the cards that carry them
(:func:`rules_ref.causes.trace_points`), a moon seen by one side only under
``MOON.CONDITION`` whatever field shows it. :mod:`.words` says what differs.

* :func:`observation_rules`: an observation that differs from the reference.
* :func:`rejected_legal_rules`: a legal action the implementation rejected.
* :func:`accepted_illegal_rules`: an illegal action it accepted.
* :func:`play_situation_rule`: the rule that governs a play in a state.

The last part of the module reads the scores as numbers: points traced to the
cards that carry them, a moon seen by one side only, scores shaped like a moon's,
a deal of the wrong size, and where an implementation's points put the cards
still pending at a deal's end (:func:`pending_at_end`, :func:`pile_taker`,
:func:`settles_otherwise`, :func:`won_last_trick_set_aside`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..actions import Action, ChooseMoon, DealCards, Pass, Play
from ..cards import TWO_OF_CLUBS, Card, is_penalty, penalty_points
from ..causes import (
    card_value_difference,
    led_card_cancelled,
    play_situation_rule,
    trace_points,
    winner_rules,
)
from ..errors import Violation
from ..passing import exchange
from ..ruleset import FirstTrickPoints
from ..scoring import bonus_points, card_points
from ..state import GameState
from ..state_parts import Phase
from ..tricks import TrickOutcome
from .action_words import card_list
from .alternatives import Alternative, explaining, switch_rules

#: The observation fields in causal order: a difference in an earlier group
#: explains differences in later ones.
CAUSAL_ORDER: tuple[tuple[str, ...], ...] = (
    ("last_trick",),
    ("hands",),
    ("hearts_broken",),
    ("pending",),
    ("points",),
    ("deal_scores", "totals"),
    ("phase",),
    ("winners",),
    ("deal_number", "dealer"),
    ("to_act", "leader", "waiting_for", "trick_number", "trick"),
    ("legal",),
)

#: The causal order at the end of a deal, or when the phases differ: the scores
#: decide the phase, and the phase decides which other fields are shown. Not when the
#: deal's last trick went to another seat: that decides the scores (CAUSAL_ORDER).
END_ORDER: tuple[tuple[str, ...], ...] = (
    ("points",),
    ("deal_scores", "totals"),
    ("phase",),
    ("winners",),
    ("last_trick",),
    ("hands",),
    ("hearts_broken",),
    ("pending",),
    ("deal_number", "dealer"),
    ("to_act", "leader", "waiting_for", "trick_number", "trick"),
    ("legal",),
)


def _dedupe(ids: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def rejected_legal_rules(state: GameState, action: Action,
                         cited: str | None = None) -> list[str]:
    """Rules for a legal action the implementation rejected, from the reference's analysis.

    The rule the implementation cites (``cited``) is evidence, not the
    verdict: the runner shows it beside the rule named here. It chooses only between the checks the
    reference's own step makes: a pass refused as the seat's second
    (``PASS.EXCHANGE`` cited) falls under ``PASS.EXCHANGE``, any other under
    ``PASS.CARDS``; the play of a deal's last card refused citing a rule of
    the deal's end (:data:`DEAL_END_RULES`: the pending cards settled, a
    moon, the scoring, the game's end) falls under that rule first, then
    the rule of the card's situation. A play or a moon choice refused as out of
    turn (``TURN.ORDER`` cited) falls under ``TURN.ORDER``: whose turn it is is the
    first check of either step, and the observations agreed on it until then.
    """
    if isinstance(action, (Play, ChooseMoon)) and cited == "TURN.ORDER":
        return ["TURN.ORDER"]
    if isinstance(action, Play):
        rules = play_situation_rule(state, action.card)
        if isinstance(cited, str) and cited in DEAL_END_RULES and _ends_deal(state, action):
            return _dedupe([cited, *rules])  # the deal's end refused, not the card
        return rules
    if isinstance(action, Pass):
        # two checks decide a pass: whether the seat may pass now, not having passed
        # (PASS.EXCHANGE), and its cards (PASS.CARDS); the citation tells which one refused
        return ["PASS.EXCHANGE" if cited == "PASS.EXCHANGE" else "PASS.CARDS"]
    if isinstance(action, ChooseMoon):
        return ["MOON.CHOICE"]
    if isinstance(action, DealCards):
        return ["DEAL.SOURCE"]
    return ["TURN.ORDER"]


#: The rules the step that ends a deal goes through after its last card is played.
DEAL_END_RULES = ("VOID.LAST", "MOON.CONDITION", "MOON.CHOICE", "SCORE.CARD_POINTS",
                  "SCORE.DEAL", "GAME.END", "GAME.WINNER")


def _ends_deal(state: GameState, action: Play) -> bool:
    """Does the legal play ``action`` end the deal (its last trick's last card)?"""
    return (state.phase is Phase.PLAYING and len(state.trick) + 1 == state.players
            and all(len(h) == (1 if seat == action.seat else 0)
                    for seat, h in enumerate(state.hands)))


def accepted_illegal_rules(violations: Sequence[Violation] | Sequence[str]) -> list[str]:
    """Rules for an illegal action the implementation accepted: every rule it breaks."""
    return _dedupe([v if isinstance(v, str) else v.rule_id for v in violations])


# --- observations ---------------------------------------------------------------------------


def _last_trick_rules(after: GameState, expected: Any, actual: Any) -> list[str]:
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return ["TURN.ORDER"]
    if expected.get("cards") != actual.get("cards") or expected.get("leader") != actual.get(
            "leader") or expected.get("number") != actual.get("number"):
        return ["TURN.ORDER"]
    t = after.tricks[-1] if after.tricks else None
    if t is None:
        return ["TRICK.WINNER"]
    return _shown_winner_rules(t, actual.get("winner"), after.players)


def _shown_winner_rules(t: TrickOutcome, impl: Any, players: int) -> list[str]:
    """The rules of trick ``t`` shown won by ``impl`` (a seat, ``None``: void, else malformed).

    A trick the reference gives to another card of the led suit once the led card is
    cancelled, shown void, is the led suit's difference: no suit taken as led once its
    card is cancelled (``TRICK.LED_SUIT``), the trick set aside as a consequence.
    """
    if impl is None:
        relead = t.winner is not None and t.cards[0] in t.cancelled
        return ["TRICK.LED_SUIT", "VOID.TRICK"] if relead else ["VOID.TRICK"]
    if not isinstance(impl, int) or isinstance(impl, bool):
        return ["TRICK.WINNER"]
    return winner_rules(t, impl, players)


def _rotated(after: GameState, actual: Any) -> bool:
    """Are the implementation's hands the reference's, listed from another seat?"""
    if not isinstance(actual, list) or len(actual) != after.players:
        return False
    ref = [sorted(h) for h in after.hands]
    impl = [sorted(card_list(h)) for h in actual]
    return any(impl == ref[k:] + ref[:k] for k in range(1, after.players))


def _hands_rules(before: GameState | None, action: Action | None, after: GameState,
                 actual: Any) -> list[str]:
    if not isinstance(action, Pass) and _rotated(after, actual):
        return ["PLAYERS.COUNT"]  # the seats are numbered from another seat
    if before is None or isinstance(action, DealCards):
        return ["DEAL.SOURCE"]
    if isinstance(action, Pass):
        if after.phase is Phase.PASSING:
            return ["PASS.EXCHANGE"]
        passes = [action.cards if seat == action.seat else p
                  for seat, p in enumerate(before.passes)]
        if all(p is not None for p in passes) and isinstance(actual, list):
            wanted = [sorted(card_list(h)) for h in actual]
            n = before.players
            for offset in range(1, n):
                moved = exchange(before.hands, [p for p in passes if p is not None], offset)
                if [list(h) for h in moved] == wanted:
                    return ["PASS.DIRECTION"]
        if _rotated(after, actual):
            return ["PLAYERS.COUNT"]
        return ["PASS.DIRECTION", "PASS.EXCHANGE"]
    return ["TURN.ORDER"]


def _pending_rules(before: GameState | None, after: GameState, expected: Any,
                   actual: Any) -> list[str]:
    t = _completed_trick(before, after)
    if before is None or t is None:
        if before is not None and before.phase is Phase.PLAYING and after.phase in (
                Phase.DEALING, Phase.GAME_OVER, Phase.MOON_CHOICE):
            return ["VOID.LAST"]
        return ["VOID.TRICK"]
    extras = before.extras if before.trick_number == 1 else ()
    if t.winner is not None:
        held = Counter(card_list(actual))
        if held and not Counter(t.cards) - held:
            return ["VOID.TRICK"]  # the won trick's cards set aside as a void trick's
        if before.pending:
            return ["VOID.COLLECT"]
        if extras:
            return ["EXTRAS.FIRST_TRICK"]
        return ["VOID.COLLECT"]
    # a void trick: its cards join the pile, after them the extras on trick 1
    diff = Counter(card_list(expected))
    diff.subtract(Counter(card_list(actual)))
    odd = Counter({c: abs(k) for c, k in diff.items() if k})
    if extras and odd and not odd - Counter(extras):
        return ["EXTRAS.FIRST_TRICK"]
    return ["VOID.TRICK"]


def _phase_rules(after: GameState, expected: Any, actual: Any) -> list[str]:
    pair = {expected, actual}
    if pair == {"game-over", "dealing"}:
        return ["GAME.END"]
    if "moon-choice" in pair:
        if after.phase is Phase.MOON_CHOICE or not after.deal_results:
            return ["MOON.CONDITION"]
        shooter = after.deal_results[-1].moon_shooter
        return ["MOON.CHOICE" if shooter is not None else "MOON.CONDITION"]
    if pair == {"passing", "playing"}:
        return ["PASS.DIRECTION"]
    if "game-over" in pair or "dealing" in pair:
        return ["TURN.ORDER", "GAME.END"] if "game-over" in pair else ["TURN.ORDER"]
    return ["TURN.ORDER"]


def _turn_rules(before: GameState | None, after: GameState) -> list[str]:
    if after.phase is Phase.PASSING:
        return ["PASS.EXCHANGE"]
    if after.phase is Phase.MOON_CHOICE:
        return ["MOON.CONDITION"]
    if after.phase is not Phase.PLAYING:
        return ["TURN.ORDER"]
    if after.trick:
        return ["TURN.ORDER"]
    if after.trick_number == 1:
        return ["LEAD.OPENING_LEADER"]
    last = after.tricks[-1] if after.tricks else None
    if last is not None and last.winner is None:
        return ["VOID.LEADER"]
    return ["TRICK.NEXT_LEADER"]


def _takes_another_suit_as_led(after: GameState, seat: int, ref: set[Card],
                               impl: set[Card]) -> bool:
    """Does a legal-card difference show another suit taken as led (``TRICK.LED_SUIT``)?

    Only when the difference is what a wrong led suit would give: the
    implementation makes the seat follow another suit of the trick, exactly
    the cards it holds of it (the suit of a later card taken as the led
    suit, the first card's being the led one, cancelled or not), where the
    seat holds the led suit or the led card is cancelled; or, once the led
    card is cancelled, it lets a seat that holds the led suit play off it, any
    card (one card of another suit more is another rule's: a suit's cards read
    wrong). A seat void in the led suit and in every other suit of the trick plays
    the same cards whichever of them is led: a difference there is another
    rule's (a heart banned on the first trick, say).
    """
    trick = after.trick
    if not trick:
        return False
    led = trick[0].suit
    hand = after.hands[seat]
    cancelled = led_card_cancelled(trick)
    follows_another = any(impl == {c for c in hand if c.suit == s}
                          for s in {c.suit for c in trick} - {led})
    holds_led = any(c.suit == led for c in hand)
    # free of the led suit as a seat void in the suit it takes as led: every other card
    # allowed (but the hearts and Q♠ a first trick may ban), not one card more
    free = {c for c in hand if c.suit != led and not is_penalty(c)} <= impl
    off_led = cancelled and holds_led and free and any(c.suit != led for c in impl - ref)
    # a seat void in the led suit may play any card: cards of one suit only are another
    # suit taken as led there only once the led card is cancelled (else a ban, say)
    return (bool(impl) and follows_another and (cancelled or holds_led)) or off_led


def _first_trick_points_banned(after: GameState, ref: set[Card], impl: set[Card]) -> bool:
    """Is a legal-card difference on trick 1 a ban of its hearts and Q♠ (``FOLLOW.FIRST_TRICK``)?

    The implementation allows nothing the reference forbids, and every card it forbids that
    the reference allows after the lead is a heart or a Q♠: the cards' points decide, not
    what else they are (a Q♠ identical to one in the trick, say, which alone would be
    ``TRICK.CANCEL``'s). The opening lead is ``LEAD.OPENING_CARD``'s.
    """
    missing = ref - impl
    return (after.trick_number == 1 and bool(after.trick) and bool(missing)
            and not impl - ref and all(is_penalty(c) for c in missing))


def _first_trick_ban_later(after: GameState, seat: int, ref: set[Card], impl: set[Card]) -> bool:
    """Is a legal-card difference the first trick's ban on a later trick (``FOLLOW.FIRST_TRICK``)?

    Under ``first_trick_points = forbidden`` (or ``forbidden-even-following``) a
    seat that cannot follow to trick 1 may not discard a heart or a Q♠; the
    rule says the restriction is trick 1's only. An implementation that bans
    exactly those cards (some of them, nothing else) to a seat void in the
    led suit on a later trick applies it there; under ``forbidden-even-following``
    to a seat that follows suit too.
    """
    trick = after.trick
    value = after.ruleset.first_trick_points
    if (not trick or after.trick_number == 1 or impl - ref or not impl or
            value is FirstTrickPoints.ALLOWED):
        return False
    led = trick[0].suit
    void = not any(c.suit == led for c in after.hands[seat])
    return (void or value is FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING) and all(
        is_penalty(c) for c in ref - impl)


def _two_of_clubs_forced_rules(after: GameState) -> list[str]:
    """The 2♣ made the only legal card on trick 1 where the reference allows others.

    On the opening lead ``LEAD.OPENING_CARD`` (its switch ``opening_lead``
    governs that card alone). To a seat after the leader it is
    ``FOLLOW.FIRST_TRICK`` whatever the opening lead: its switch
    ``first_trick_two_of_clubs`` is what makes a follower play a 2♣
    (``spec/variants.toml``), so a follower's forced 2♣ is one difference
    under one rule, with a 2♣ opening lead or without.
    """
    return ["FOLLOW.FIRST_TRICK"] if after.trick else ["LEAD.OPENING_CARD"]


def _legal_rules(after: GameState, expected: Any, actual: Any) -> list[str]:
    if after.phase is Phase.MOON_CHOICE:
        return ["MOON.CHOICE"]
    if after.phase is not Phase.PLAYING or not isinstance(actual, list):
        return ["TURN.ORDER"]
    seat = after.to_act
    assert seat is not None
    ref = set(card_list(expected))
    impl = set(card_list(actual))
    if ref == impl:
        # the same cards: listed twice means the two copies are told apart
        return ["DECK.CARDS" if len(card_list(actual)) > len(impl) else "TURN.ORDER"]
    if after.trick_number == 1 and impl == {TWO_OF_CLUBS} and ref - impl:
        return _two_of_clubs_forced_rules(after)
    if _first_trick_points_banned(after, ref, impl):
        return ["FOLLOW.FIRST_TRICK"]
    rules: list[str] = []
    if _takes_another_suit_as_led(after, seat, ref, impl):
        rules.append("TRICK.LED_SUIT")
    if _first_trick_ban_later(after, seat, ref, impl):
        rules.append("FOLLOW.FIRST_TRICK")
    for c in sorted(impl - ref):
        rules.extend(v.rule_id for v in after.violations(Play(seat, c)))
    for c in sorted(ref - impl):
        rules.extend(play_situation_rule(after, c))
    if not rules:
        rules.append("TURN.ORDER")
    return _dedupe(rules)


def _winner_differs(expected: Any, actual: Any) -> bool:
    """The same last trick given to another seat: at a deal's end, the cause of its scores."""
    return (isinstance(expected, dict) and isinstance(actual, dict)
            and expected.get("cards") == actual.get("cards")
            and expected.get("winner") != actual.get("winner"))


#: What a difference at the end of a deal whose last trick was void may be traced to
#: that is VOID.LAST's matter there: that trick's cancelled cards, its being void, the
#: deal's scores (not its totals alone: adding a deal to the totals is SCORE.DEAL).
_VOID_LAST_MATTERS = ("TRICK.CANCEL", "VOID.TRICK", "SCORE.DEAL", "TURN.ORDER")


def observation_rules(before: GameState | None, action: Action | None, after: GameState,
                      expected: dict[str, Any], actual: dict[str, Any]
                      ) -> tuple[list[str], list[str], list[str]]:
    """Attribute an observation that differs from the reference.

    ``before`` is the reference state before ``action`` (both ``None`` for
    the observation that answers ``start``), ``after`` the reference state
    that ``expected`` observes. Returns ``(rules, deciding fields, other
    differing fields)``. The rule is first the one of the alternative that,
    applied to the reference here, reproduces the implementation's answer
    (:mod:`.alternatives`, :func:`named_alternative`); the fields name it only
    where none does, as follows. At the end of a deal whose last trick was void (and
    is void on both sides), scores traced to that trick's cancelled cards,
    its voidness or the deal's adding are VOID.LAST's: where the cards of a
    void last trick go is that rule. So are points that differ only by where
    the cards still pending went, whatever rule their trace names
    (:func:`settles_otherwise`). A last trick
    the implementation's points show won by a live card of another suit, or set aside
    where the reference has it won after its led card was cancelled, is the led suit's
    (``TRICK.LED_SUIT``).
    """
    rules, fields, others = _by_field(before, action, after, expected, actual)
    if not fields:
        return rules, fields, others
    named = named_alternative(rules, explaining(before, action, after, expected, actual,
                                                fields))
    if named is not None:
        return _dedupe([named[0], *rules]), fields, others
    return rules, fields, others


def named_alternative(rules: Sequence[str], found: Sequence[Alternative]
                      ) -> tuple[str, Alternative] | None:
    """The rule a difference is named by and its alternative, of those that explain it
    (``found``: switch values, then slips, the plainest first); None when none does.

    A value of a switch that changes the rule the fields name (``rules``' first) names
    that rule; else the plainest slip names its own (a trick nobody wins kept by its
    leader, not a pair of the leader's card that does not cancel, whatever the fields
    read), else the first switch value. A slip is a fault of one rule, where a value
    of a switch that changes other rules may give the same answer by coincidence.
    """
    first = rules[0] if rules else None
    values = [alt for alt in found if alt.switch is not None]
    for alt in values:
        if first is not None and first in switch_rules(alt.switch or ""):
            return first, alt
    slipped = [alt for alt in found if alt.slip is not None]
    chosen = [*slipped, *values]
    return (chosen[0].rule, chosen[0]) if chosen else None


def _by_field(before: GameState | None, action: Action | None, after: GameState,
              expected: dict[str, Any], actual: dict[str, Any]
              ) -> tuple[list[str], list[str], list[str]]:
    """The rules the differing fields name, read in causal order (no alternative tried)."""
    rules, fields, others = _observation_rules(before, action, after, expected, actual)
    relead = _void_last_trick_won_under_another_led_suit(before, after, fields, actual)
    if relead is not None:
        return relead, fields, others
    if fields and fields[0] == "points" and won_last_trick_set_aside(before, after, expected,
                                                                     actual):
        return ["TRICK.LED_SUIT", "VOID.TRICK"], fields, others
    if fields and fields[0] == "points" and settles_otherwise(before, after, expected, actual):
        return ["VOID.LAST", *(r for r in rules if r != "VOID.LAST")], fields, others
    last = _completed_trick(before, after)
    if (last is not None and last.winner is None and after.phase in _DEAL_OVER
            and fields and fields[0] in ("points", "deal_scores", "totals")
            and "last_trick" not in fields + others
            and (not rules or rules[0] in _VOID_LAST_MATTERS)
            and not (rules and rules[0] == "SCORE.DEAL" and fields[0] == "totals")):
        rules = ["VOID.LAST", *(r for r in rules if r != "VOID.LAST")]
    elif (rules == ["SCORE.CARD_POINTS"] and fields and fields[0] == "points"
          and _settling_seats_differ(before, after, expected, actual)):
        rules = ["VOID.LAST", *rules]
    return rules, fields, others


def _settling_seats_differ(before: GameState | None, after: GameState,
                           expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """Do the points of a deal ended by a void last trick differ only at the seats its
    pending cards may go to (its leader, the seats of its cancelled cards)?

    Points that no parcel nor a card's value explains (a share worked out wrong), at
    those seats alone, are how that trick's cards were given out: ``VOID.LAST``'s,
    unless the implementation shows the trick won.
    """
    t = _completed_trick(before, after)
    if t is None or t.winner is not None or after.phase not in _DEAL_OVER:
        return False
    shown = actual.get("last_trick")
    if shown is not None and not (isinstance(shown, dict) and shown.get("winner") is None):
        return False  # a winner shown: the trick's resolution, not its settling
    n = after.players
    exp = _int_list(expected.get("points"), n)
    act = _int_list(actual.get("points"), n)
    if exp is None or act is None or exp == act:
        return False
    settling = {t.leader} | {(t.leader + i) % n for i, c in enumerate(t.cards)
                             if c in t.cancelled}
    return {seat for seat in range(n) if exp[seat] != act[seat]} <= settling


def _void_last_trick_won_under_another_led_suit(
        before: GameState | None, after: GameState, fields: Sequence[str],
        actual: dict[str, Any]) -> list[str] | None:
    """``TRICK.LED_SUIT`` for a void last trick the implementation's points show won.

    The last trick's cards are all forced, so its resolution shows only in the
    deal's points. When the reference sets it aside and the implementation gives
    its whole pending pile to the seat of a live card of the suit of the first
    uncancelled card, it took that suit as led once the led card was cancelled
    (:func:`~rules_ref.causes.winner_rules`): the led suit's rule, not ``VOID.LAST``
    (whose values give the pile to nobody, the leader or a cancelled pair's seats,
    none of them a live card's) nor the cards' points.
    """
    if not fields or fields[0] != "points":
        return None
    seat = pile_taker(before, after, actual)
    if seat is None:
        return None
    rules = winner_rules(after.tricks[-1], seat, after.players)
    return rules if rules[0] == "TRICK.LED_SUIT" else None


def _trick_given_elsewhere(before: GameState | None, after: GameState, expected: dict[str, Any],
                           actual: dict[str, Any]) -> list[str] | None:
    """The rules of a trick the action completed that the implementation gave to another seat.

    Once a deal is scored the reference's observation no longer shows its last
    trick, while an implementation that stops before (a moon choice) still does:
    the trick is then compared with the reference's own, and the same cards
    with another winner are the cause of the points and scores that follow
    (``TRICK.WINNER``, ``DECK.RANKING``, ``TRICK.CANCEL``; ``VOID.TRICK`` for
    no winner).
    """
    t = _completed_trick(before, after)
    shown = actual.get("last_trick")
    if t is None or expected.get("last_trick") is not None or not isinstance(shown, dict):
        return None
    if shown.get("cards") != [str(c) for c in t.cards] or shown.get("leader") != t.leader:
        return None
    impl = shown.get("winner")
    return None if impl == t.winner else _shown_winner_rules(t, impl, after.players)


def _observation_rules(before: GameState | None, action: Action | None, after: GameState,
                       expected: dict[str, Any], actual: dict[str, Any]
                       ) -> tuple[list[str], list[str], list[str]]:
    elsewhere = _trick_given_elsewhere(before, after, expected, actual)
    if elsewhere is not None:
        differing = [f for group in CAUSAL_ORDER for f in group if expected.get(f) != actual.get(f)]
        return _dedupe(elsewhere), ["last_trick"], [f for f in differing if f != "last_trick"]
    order = CAUSAL_ORDER
    if (after.phase in _DEAL_OVER or expected.get("phase") != actual.get("phase")) and not (
            _winner_differs(expected.get("last_trick"), actual.get("last_trick"))):
        order = END_ORDER
    differing = [f for group in order for f in group if expected.get(f) != actual.get(f)]
    if not differing:
        return [], [], []
    size = _deal_size_rules(after, expected, actual)
    if size is not None:
        return size, ["phase"], [f for f in differing if f != "phase"]
    moon = _moon_rules(after, expected, actual)
    if moon is not None:
        fields = [f for f in differing if f in ("phase", "deal_scores", "totals")][:1] or [
            differing[0]]
        return moon, fields, [f for f in differing if f not in fields]
    for group in order:
        fields = [f for f in group if f in differing]
        if not fields:
            continue
        name = fields[0]
        if name == "last_trick":
            rules = _last_trick_rules(after, expected[name], actual.get(name))
        elif name == "hands":
            rules = _hands_rules(before, action, after, actual.get(name))
        elif name == "hearts_broken":
            rules = ["HEARTS.BROKEN"]
        elif name == "pending":
            rules = _pending_rules(before, after, expected[name], actual.get(name))
        elif name == "points":
            rules = _points_rules(before, after, expected[name], actual.get(name))
        elif name in ("deal_scores", "totals"):
            rules = _scores_rules(after, expected, actual)
        elif name == "phase":
            rules = _phase_rules(after, expected[name], actual.get(name))
        elif name == "winners":
            rules = ["GAME.WINNER"]
        elif name in ("deal_number", "dealer"):
            rules = ["DEAL.DEALER"]
        elif name in ("to_act", "leader", "waiting_for", "trick_number", "trick"):
            rules = _turn_rules(before, after)
        else:
            rules = _legal_rules(after, expected[name], actual.get(name))
        others = [f for f in differing if f not in fields]
        return _dedupe(rules), fields, others
    return ["TURN.ORDER"], differing, []


# --- scores, moons and deal sizes -----------------------------------------------------------

_DEAL_OVER = (Phase.DEALING, Phase.GAME_OVER, Phase.MOON_CHOICE)


def _completed_trick(before: GameState | None, after: GameState) -> TrickOutcome | None:
    """The trick the action completed, if it completed one."""
    if before is None or before.phase is not Phase.PLAYING:
        return None
    if len(before.trick) + 1 != before.players or not after.tricks:
        return None
    return after.tricks[-1]


def pending_at_end(before: GameState | None, after: GameState) -> tuple[Card, ...]:
    """The cards still pending when the action ended the deal with a void trick, else ().

    The pending pile before the trick, the trick's cards and, on a void trick 1, the
    extras: the cards ``VOID.LAST`` settles.
    """
    t = _completed_trick(before, after)
    if before is None or t is None or t.winner is not None or after.phase not in _DEAL_OVER:
        return ()
    extras = before.extras if before.trick_number == 1 else ()
    return (*before.pending, *t.cards, *extras)


def pile_taker(before: GameState | None, after: GameState, actual: dict[str, Any]) -> int | None:
    """The seat the implementation's points give every card pending at the deal's end, if one.

    Where the reference sets the deal's last trick aside (:func:`pending_at_end`),
    an implementation whose points are each seat's points from before that trick,
    with the whole pending pile added to one seat's, took the trick as won by that
    seat: who it is tells which rule it read otherwise (a seat that played a
    card of another suit, live, took the trick under another led suit).
    """
    pile = pending_at_end(before, after)
    if not pile or before is None:
        return None
    act = _int_list(actual.get("points"), after.players)
    if act is None:
        return None
    rs = after.ruleset
    parcel = card_points(pile, rs)
    base = [card_points(got, rs) for got in before.collected]
    gained = [a - b for a, b in zip(act, base, strict=True)]
    takers = [seat for seat, g in enumerate(gained) if g]
    if parcel == 0 or len(takers) != 1 or gained[takers[0]] != parcel:
        return None
    return takers[0]


def settles_otherwise(before: GameState | None, after: GameState, expected: dict[str, Any],
                      actual: dict[str, Any]) -> bool:
    """Do the points differ only in where the cards pending at the deal's end went (``VOID.LAST``)?

    At the end of a deal whose last trick the reference sets aside (``VOID.TRICK``),
    the cards still pending are given out by ``VOID.LAST`` (to nobody, to the leader,
    or split between the seats of the highest cancelled pair). The difference is
    that rule's when the implementation ends the deal too, with the same last trick
    void if it shows it (a winner there is ``TRICK.WINNER``'s or ``TRICK.CANCEL``'s
    matter), and each seat's points are its points from before that trick plus a
    share of the pending cards' points: a part of them, between the pile's
    negative and positive points (the shares may add up to more than the pile
    when the implementation gives one card to two seats). A heart or Q♠ scored
    at another value by every seat is ``SCORE.CARD_POINTS`` instead, when it
    shows on a seat's points from before that trick.
    """
    pile = pending_at_end(before, after)
    if not pile or before is None:
        return False
    if actual.get("phase") not in ("dealing", "game-over", "moon-choice"):
        return False
    shown = actual.get("last_trick")
    t = after.tricks[-1]
    if shown is not None and not (isinstance(shown, dict) and shown.get("winner") is None
                                  and shown.get("cards") == [str(c) for c in t.cards]):
        return False
    n = after.players
    exp = _int_list(expected.get("points"), n)
    act = _int_list(actual.get("points"), n)
    if exp is None or act is None or exp == act or not shares_of(pile, before, after, act):
        return False
    base = [card_points(got, after.ruleset) for got in before.collected]
    diff = [a - e for e, a in zip(exp, act, strict=True)]
    # a card value shows on the cards collected before too: where none differ, only the
    # pending cards' fate is seen
    return not (card_value_difference(after, diff)
                and any(d and b for d, b in zip(diff, base, strict=True)))


def shares_of(pile: Sequence[Card], before: GameState, after: GameState,
              points: Sequence[int]) -> bool:
    """Are ``points`` each seat's points from before the deal's last trick plus a share of
    ``pile`` (a part of its points, between the pile's negative and positive points)?"""
    rs = after.ruleset
    values = [card_points((c,), rs) for c in pile]
    low = sum(v for v in values if v < 0)
    high = sum(v for v in values if v > 0)
    base = [card_points(got, rs) for got in before.collected]
    return all(low <= a - b <= high for a, b in zip(points, base, strict=True))


def won_last_trick_set_aside(before: GameState | None, after: GameState,
                             expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """Do the points show the deal's last trick set aside where the reference has it won?

    The reverse of :func:`pile_taker`. The reference's last trick is won, its led card
    cancelled (another card of the led suit wins it: ``TRICK.LED_SUIT``), and the
    implementation's points are each seat's points from before that trick plus a share
    of what was still in play (the pending pile, the trick's cards, the extras on trick
    1), given to none but the seats a void last trick's cards may go to (its leader, the
    seats of its cancelled cards): it gave the trick no winner, as if a cancelled led
    card left no suit led, and settled its cards as a void last trick's (``VOID.LAST``,
    whatever its value).
    """
    t = _completed_trick(before, after)
    if (before is None or t is None or t.winner is None or after.phase not in _DEAL_OVER
            or t.cards[0] not in t.cancelled):
        return False
    shown = actual.get("last_trick")
    if isinstance(shown, dict) and shown.get("winner") is not None:
        return False  # the implementation shows the trick won
    n = after.players
    exp = _int_list(expected.get("points"), n)
    act = _int_list(actual.get("points"), n)
    if exp is None or act is None or exp == act:
        return False
    extras = before.extras if before.trick_number == 1 else ()
    pile = (*before.pending, *t.cards, *extras)
    rs = after.ruleset
    # a void last trick's cards go to nobody, its leader or the seats of a cancelled pair
    settling = {t.leader} | {(t.leader + i) % n for i, c in enumerate(t.cards) if c in t.cancelled}
    gained = {seat for seat, (a, got) in enumerate(zip(act, before.collected, strict=True))
              if a != card_points(got, rs)}
    return (card_points(pile, rs) != 0 and shares_of(pile, before, after, act)
            and gained <= settling and act[t.winner] != exp[t.winner])


def _int_list(value: Any, n: int) -> list[int] | None:
    if isinstance(value, list) and len(value) == n and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    return None


def _points_rules(before: GameState | None, after: GameState, expected: Any,
                  actual: Any) -> list[str]:
    """Points that differ: traced to the cards that carry them.

    After a trick the difference is usually that trick's parcel (its pending
    pile, the extras, its cancelled cards); at the end of a deal it may be
    made of parcels from any trick, as when an implementation scores only
    at the end of the deal, unless it is exactly the last trick's cards given
    to another seat (:func:`_given_to`). The points agreed until this action
    (it is the first difference): a parcel of an earlier trick is the cause
    only when nothing the trick collected, nor a card's value, explains the
    difference (:func:`~rules_ref.causes.trace_points`).
    """
    exp = _int_list(expected, after.players)
    act = _int_list(actual, after.players)
    if exp is None or act is None:
        return ["SCORE.CARD_POINTS"]
    diff = [a - e for e, a in zip(exp, act, strict=True)]
    t = _completed_trick(before, after)
    if t is not None and before is not None:
        if after.phase not in _DEAL_OVER:
            rules = _trick_points_rules(before, t, diff)
            if rules:
                return rules
        else:
            seat = _given_to(before, t, diff)
            if seat is not None:
                return winner_rules(t, seat, before.players)
    # the points agreed before this action: what it collected, or a card's value, is
    # looked for before the parcels of earlier tricks
    traced = trace_points(after, diff, len(after.tricks) if t is not None else 1)
    if not traced and t is not None and before is not None:
        # the deal's earlier tricks are not known (a game started from a position)
        traced = _trick_points_rules(before, t, diff)
    return traced or ["SCORE.CARD_POINTS"]


def _given_to(before: GameState, t: TrickOutcome, diff: list[int]) -> int | None:
    """The seat the implementation gave the trick to, when the points differ by exactly that.

    The winner takes the trick's cards with the pending pile (and the extras on
    trick 1); an implementation that gave them to another seat shows that seat
    with their points more and the winner (if the trick has one) with them less,
    every other seat the same, whatever sign their points have (a 10♦ scoring
    -10 makes a parcel worth less than nothing).
    """
    extras = before.extras if before.trick_number == 1 else ()
    parcel = card_points((*before.pending, *t.cards, *extras), before.ruleset)
    if parcel == 0:
        return None
    takers = [seat for seat, d in enumerate(diff) if d == parcel and seat != t.winner]
    if len(takers) != 1:
        return None
    rest = [d for seat, d in enumerate(diff) if seat not in (takers[0], t.winner)]
    if any(rest) or (t.winner is not None and diff[t.winner] != -parcel):
        return None
    return takers[0]


def _trick_points_rules(before: GameState, t: TrickOutcome, diff: list[int]) -> list[str]:
    """The rule of a difference of points made by the trick just completed."""
    rs = before.ruleset
    extras = before.extras if before.trick_number == 1 else ()
    w = t.winner

    def only_winner(delta: int) -> bool:
        return delta != 0 and w is not None and all(
            d == (delta if seat == w else 0) for seat, d in enumerate(diff))

    if w is not None and before.pending and only_winner(-card_points(before.pending, rs)):
        return ["VOID.COLLECT"]
    if extras and only_winner(-card_points(extras, rs)):
        return ["EXTRAS.FIRST_TRICK"]
    if not extras and before.extras and only_winner(card_points(before.extras, rs)):
        return ["EXTRAS.FIRST_TRICK"]  # the extras given with a later trick too
    cancelled = [c for c in t.cards if c in t.cancelled]
    if cancelled and only_winner(-card_points(cancelled, rs)):
        if not penalty_points(cancelled):
            # only the 10♦ carried points: what it scores is the switch's
            # (ten_of_diamonds_points), as when it is not cancelled
            return ["SCORE.CARD_POINTS", "TRICK.CANCEL"]
        return ["TRICK.CANCEL"]
    seat = _given_to(before, t, diff)
    if seat is not None:
        return winner_rules(t, seat, before.players)
    gainers = [seat for seat, d in enumerate(diff) if d > 0 and seat != w]
    if gainers:
        # the implementation gave the cards to another seat
        return winner_rules(t, gainers[0], before.players)
    return []


def _moon_rules(after: GameState, expected: dict[str, Any],
                actual: dict[str, Any]) -> list[str] | None:
    """Moon rules when the difference is the moon's, else None.

    A moon seen by one side only is ``MOON.CONDITION``, whatever field shows
    it first; scores or totals that differ while a moon choice is pending,
    or after one was made, are ``MOON.CHOICE``. Two exceptions: a moon choice
    asked for while the reference saw no moon, of nobody (no seat to act and
    an empty list of legal choices), is ``MOON.CHOICE`` (the choice is asked
    for when none is due, nobody is said to have shot); a moon scored on
    both sides with other seats scored as its shooters (:func:`_shooters`) is
    ``MOON.CONDITION`` (who shot, as under ``moon_pair``).
    """
    if expected.get("points") != actual.get("points"):
        return None  # the cards went elsewhere: the moon is a consequence
    ref_pending = after.phase is Phase.MOON_CHOICE
    impl_pending = actual.get("phase") == "moon-choice"
    result = after.deal_results[-1] if after.deal_results and after.phase in (
        Phase.DEALING, Phase.GAME_OVER) and not ref_pending else None
    ref_moon = ref_pending or (result is not None and (
        result.moon_shooter is not None or result.moon_pair is not None))
    impl_scores = _int_list(actual.get("deal_scores"), after.players)
    card_pts = _int_list(expected.get("points"), after.players)
    if ref_moon:
        # the implementation saw it too unless it scored the plain card points
        impl_moon = impl_pending or impl_scores is None or impl_scores != card_pts
        if not impl_pending and actual.get("phase") != expected.get("phase") and (
                impl_scores is None or impl_scores == card_pts):
            impl_moon = False
    else:
        impl_moon = impl_pending or (impl_scores is not None and card_pts is not None and (
            impl_scores != card_pts) and _moon_shaped(after, impl_scores))
    if not (ref_pending or impl_pending or result is not None):
        return None
    if impl_pending and not ref_moon and _asks_nobody(after, actual):
        return ["MOON.CHOICE"]  # a choice asked for with no shooter to make it
    if ref_moon != impl_moon:
        return ["MOON.CONDITION"]
    if ref_moon and result is not None and impl_scores is not None and not impl_pending:
        # both scored a moon: other seats scored as its shooters is who shot (MOON.CONDITION)
        ref_shooters = ({result.moon_shooter} if result.moon_shooter is not None
                        else set(result.moon_pair or ()))
        impl_shooters = _shooters(after, impl_scores)
        if impl_shooters and _moon_shaped(after, impl_scores) and impl_shooters != ref_shooters:
            return ["MOON.CONDITION"]
    # while the choice is pending the totals are the moon's; once it is made, the deal
    # scores are, and totals alone are the adding (SCORE.DEAL)
    moon_fields = ("deal_scores", "totals") if ref_pending or impl_pending else ("deal_scores",)
    if ref_moon and (ref_pending != impl_pending or any(
            expected.get(f) != actual.get(f) for f in moon_fields)):
        return ["MOON.CHOICE"]
    return None


def _asks_nobody(after: GameState, actual: dict[str, Any]) -> bool:
    """Does the implementation ask for a moon choice of nobody: no seat to act, no choice legal?"""
    seat = actual.get("to_act")
    legal = actual.get("legal")
    named = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < after.players
    return not named and isinstance(legal, list) and not legal


def _shooters(after: GameState, scores: Sequence[int]) -> set[int]:
    """The seats scored as a moon's shooters: off the value most seats score (10♦ aside)."""
    bonus = [bonus_points(c, after.ruleset) for c in after.collected] if len(
        after.collected) == len(scores) else [0] * len(scores)
    plain = [s - b for s, b in zip(scores, bonus, strict=True)]
    common = max(set(plain), key=plain.count)
    if plain.count(common) * 2 <= len(plain):
        return set()
    return {seat for seat, p in enumerate(plain) if p != common}


def _deal_size_rules(after: GameState, expected: dict[str, Any],
                     actual: dict[str, Any]) -> list[str] | None:
    """A deal ended with cards still in hand, or play going on with none: ``DEAL.SIZE``."""
    ref, impl = expected.get("phase"), actual.get("phase")
    over = ("dealing", "game-over", "moon-choice")
    if ref == "playing" and impl in over and not after.trick and after.hands and all(
            len(h) == 1 for h in after.hands):
        return ["DEAL.SIZE"]  # one trick short: the deal ended with a card in every hand
    if ref in over and impl == "playing" and after.tricks and all(
            not h for h in after.hands):
        return ["DEAL.SIZE"]
    return None


def _moon_shaped(after: GameState, scores: Sequence[int]) -> bool:
    """Scores that are a moon's: one seat at −26 or 0, every other seat at one same 0/26/52/104;
    or two seats at 0 and every other at 26 (a moon of two seats, ``moon_pair``).

    The other scoring cards (the 10♦ switch) still count on top, seat by seat.
    """
    bonus = [bonus_points(c, after.ruleset) for c in after.collected] if len(
        after.collected) == len(scores) else [0] * len(scores)
    plain = [s - b for s, b in zip(scores, bonus, strict=True)]
    for shooter, own in enumerate(plain):
        others = {p for seat, p in enumerate(plain) if seat != shooter}
        if own in (-26, 0) and len(others) == 1 and others <= {0, 26, 52, 104} and (
                own, *others) != (0, 0):
            return True
    # a moon of two seats (moon_pair): both at 0, every other seat at one same 26
    zeros = [seat for seat, p in enumerate(plain) if p == 0]
    return len(zeros) == 2 and len(plain) > 2 and {
        p for seat, p in enumerate(plain) if seat not in zeros} == {26}


def _scores_rules(after: GameState, expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    if not after.deal_results:
        return ["SCORE.DEAL"]
    result = after.deal_results[-1]
    impl_scores = _int_list(actual.get("deal_scores"), after.players)
    if expected.get("deal_scores") == actual.get("deal_scores"):
        return ["SCORE.DEAL"]  # the deal is scored right and added up wrong
    if result.moon_shooter is not None:
        if impl_scores == list(result.card_points):
            return ["MOON.CONDITION"]
        return ["MOON.CHOICE"]
    if expected.get("deal_scores") != actual.get("deal_scores") and impl_scores is not None:
        if _moon_shaped(after, impl_scores) and impl_scores != list(result.card_points):
            return ["MOON.CONDITION"]  # a moon the reference did not see
        # the points are right but the deal is scored from other cards
        diff = [a - e for e, a in zip(result.card_points, impl_scores, strict=True)]
        traced = trace_points(after, diff)
        if traced:
            return traced
    if result.uncollected and expected.get("deal_scores") != actual.get("deal_scores"):
        return ["VOID.LAST", "SCORE.DEAL"]
    return ["SCORE.DEAL"]
