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

Scores, moons and deal sizes are read by :mod:`~rules_ref.findings.score_attribution`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..actions import Action, ChooseMoon, DealCards, Pass, Play
from ..cards import TWO_OF_CLUBS, Card, is_penalty
from ..causes import led_card_cancelled, play_situation_rule, winner_rules
from ..errors import Violation
from ..passing import exchange
from ..ruleset import FirstTrickPoints
from ..state import GameState
from ..state_parts import Phase
from ..tricks import TrickOutcome
from .action_words import card_list
from .score_attribution import (
    _DEAL_OVER,
    _completed_trick,
    _deal_size_rules,
    _moon_rules,
    _points_rules,
    _scores_rules,
    pile_taker,
    settles_otherwise,
    won_last_trick_set_aside,
)

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
    the rule of the card's situation.
    """
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
    card is cancelled, it lets a seat that holds the led suit play off it.
    A seat void in the led suit and in every other suit of the trick plays
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
    off_led = cancelled and holds_led and any(c.suit != led for c in impl - ref)
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
    led suit on a later trick applies it there.
    """
    trick = after.trick
    if (not trick or after.trick_number == 1 or impl - ref or not impl or
            after.ruleset.first_trick_points is FirstTrickPoints.ALLOWED):
        return False
    led = trick[0].suit
    void = not any(c.suit == led for c in after.hands[seat])
    return void and all(is_penalty(c) for c in ref - impl)


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
    differing fields)``. At the end of a deal whose last trick was void (and
    is void on both sides), scores traced to that trick's cancelled cards,
    its voidness or the deal's adding are VOID.LAST's: where the cards of a
    void last trick go is that rule. So are points that differ only by where
    the cards still pending went, whatever rule their trace names
    (:func:`~rules_ref.findings.score_attribution.settles_otherwise`). A last trick
    the implementation's points show won by a live card of another suit, or set aside
    where the reference has it won after its led card was cancelled, is the led suit's
    (``TRICK.LED_SUIT``).
    """
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
    return rules, fields, others


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
