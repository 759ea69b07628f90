"""What differs, in words: the short phrase of a divergence and its sentence with seats.

A divergence (a :class:`~rules_ref.findings.failure.Failure`, or its
JSON form) is named by its rule (:mod:`.attribution`) and by what differs,
in words a card player understands: "rejects a pass that contains 2♣",
"forbids Q♠ on the first trick while following suit". :func:`divergence_words`
gives that phrase; it holds no seat number, deal number or total, so two
divergences of the same kind have the same words (the class key of a
conform run is the rule and these words). :func:`divergence_detail` gives
the sentence for the report, with the seat and the card: "seat 3 may not
play Q♠ on the first trick while following suit; the rules allow it".
:func:`deciding_switch` names the switch whose value decides a rule at a
step, and :func:`facet_of` gathers a divergence's rule, switch, words and
differing step (its :class:`Facet`).

Both rebuild the reference state from the failure's game (its start and its
actions), so they need nothing the failure does not carry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, ChooseMoon, DealCards, Pass, Play
from ..cards import TWO_OF_CLUBS, Card, Suit
from ..errors import RulesRefError
from ..jsonio.serialize import action_from_json
from ..passing import exchange
from ..protocol.start import requested_state
from ..registry import rule as registry_rule
from ..ruleset import MIN_PLAYERS_HIGH, LastTrickVoid, Moon
from ..state import GameState
from ..state_parts import Phase
from ..wording import direction_words
from .action_words import (
    accepted_words,
    card_kind,
    card_list,
    phase_words,
    play_phrase,
    rejected_words,
    salient,
    where_detail,
)
from .alternatives import (
    Alternative,
    explaining,
    explaining_verdict,
    refusing_values,
    switch_rules,
)
from .attribution import named_alternative
from .failure import FROM_A_POSITION, REJECTS_A_POSITION, at_position_start
from .triggers import Fact, step_facts

_SUIT_NAMES = {Suit.C: "club", Suit.D: "diamond", Suit.H: "heart", Suit.S: "spade"}


def _get(failure: object, name: str) -> Any:
    if isinstance(failure, Mapping):
        return failure.get(name)
    return getattr(failure, name, None)


# --- the reference's view of the failure ---------------------------------------------------


def failure_states(failure: object) -> tuple[GameState | None, Action | None]:
    """The reference state before the failing action, and that action (None: the start).

    The state the failure was met in when it carries it (``before``), else
    rebuilt by replaying the failure's start and actions through the
    reference (actions the reference rejects change nothing). ``(None,
    None)`` when the failure does not carry a game the reference can play.
    """
    start = _get(failure, "start")
    actions = _get(failure, "actions") or []
    failing = _get(failure, "failing")
    known = _get(failure, "before")
    if isinstance(known, GameState):
        try:
            return known, action_from_json(failing) if isinstance(failing, dict) else None
        except (RulesRefError, KeyError, TypeError, ValueError):
            return None, None
    if not isinstance(start, dict) or not start:
        return None, None
    try:
        state = requested_state(start)
        todo = list(actions)
        if failing is not None and todo and todo[-1] == failing:
            todo.pop()
        for a in todo:
            try:
                state, _ = state.apply(action_from_json(a))
            except RulesRefError:
                continue
        action = action_from_json(failing) if isinstance(failing, dict) else None
    except (RulesRefError, KeyError, TypeError, ValueError):
        return None, None
    return state, action


def accepted_refused_table(failure: object) -> bool:
    """True for an accepted start of a table the reference refuses.

    (The tables the rules refuse: :mod:`~rules_ref.conform.refused_tables`.)
    """
    expected, actual = _get(failure, "expected") or {}, _get(failure, "actual") or {}
    return (_get(failure, "failing") is None and expected.get("type") == "rejected"
            and actual.get("type") == "observation")


# --- legal cards ---------------------------------------------------------------------------


def legal_difference(state: GameState, expected: object, actual: object) -> tuple[str, str]:
    """Words and detail for legal cards that differ in ``state`` (the seat to act's)."""
    ref, impl = set(card_list(expected)), set(card_list(actual))
    seat = state.to_act
    extra, missing = sorted(impl - ref), sorted(ref - impl)
    only = sorted(impl)
    if extra and missing and len({card_kind(c) for c in only}) == 1 and card_kind(only[0]) in (
            "Q♠", "2♣"):
        extra = []  # one card made the only legal card: named as such below
    if extra and ref == {TWO_OF_CLUBS} and state.trick_number == 1 and state.trick:
        card = salient(extra)  # the rules hold the seat to its 2♣ (first_trick_two_of_clubs)
        words = "allows a card other than 2♣ on the first trick"
        detail = (f"seat {seat} may play {card.pretty} {where_detail(state, card)}; "
                  "the rules allow only 2♣")
    elif extra:
        card = salient(extra)
        words = f"allows {play_phrase(state, card, card_kind(card), copies=False)}"
        detail = (f"seat {seat} may play {card.pretty} "
                  f"{where_detail(state, card, copies=False)}; the rules forbid it")
    elif missing:
        card = salient(missing)
        if not only:  # the implementation leaves the seat no card at all
            words = f"allows no card at all {where_detail(state, card)}"
            detail = (f"seat {seat} may play no card {where_detail(state, card)}; the rules "
                      f"allow {' '.join(c.pretty for c in sorted(ref))}")
            return words, detail
        if only and len({card_kind(c) for c in only}) == 1 and card_kind(only[0]) in (
                "Q♠", "2♣"):
            where = ("to open the deal" if not state.trick and state.trick_number == 1
                     else "on the first trick" if state.trick_number == 1
                     else where_detail(state, only[0]))
            words = f"allows only {card_kind(only[0])} {where}"
        else:
            words = f"forbids {play_phrase(state, card, card_kind(card))}"
        detail = (f"seat {seat} may not play {card.pretty} {where_detail(state, card)}; "
                  "the rules allow it")
    else:
        listed = card_list(actual)
        if len(listed) > len(impl):
            twice = sorted(c for c in impl if listed.count(c) > 1)
            return ("lists a card held twice as two legal cards",
                    f"seat {seat}'s legal cards list {' '.join(c.pretty for c in twice)} twice")
        return "lists the legal cards in another order", f"seat {seat}'s legal cards differ"
    if len(extra) + len(missing) > 1:
        more = len(extra) + len(missing) - 1
        detail += f" (and {more} more card{'s' if more > 1 else ''} differ)"
    return words, detail


# --- observations ---------------------------------------------------------------------------

def _hands_words(before: GameState | None, action: Action | None, rule: str,
                 actual: object) -> str:
    if rule == "PASS.DIRECTION" and before is not None and isinstance(action, Pass):
        passes = [action.cards if s == action.seat else p for s, p in enumerate(before.passes)]
        offset = before.pass_offset
        wanted = [sorted(card_list(h)) for h in actual] if isinstance(actual, list) else []
        if all(p is not None for p in passes) and offset is not None:
            for other in range(1, before.players):
                moved = exchange(before.hands, [p for p in passes if p is not None], other)
                if [list(h) for h in moved] == wanted:
                    return (f"passes {direction_words(other, before.players)} where the rules pass "
                            f"{direction_words(offset, before.players)}")
        return "passes the cards to other seats"
    if rule == "PASS.EXCHANGE":
        return "exchanges the passed cards at another moment"
    if rule == "DEAL.SOURCE":
        return "deals other hands"
    if rule == "PLAYERS.COUNT":
        return "numbers the seats from another seat"
    return "changes the hands differently"


_RULE_WORDS = {
    ("points", "VOID.COLLECT"): "does not give the pending pile's points to the trick's winner",
    ("points", "EXTRAS.FIRST_TRICK"): "does not send the extras with the first trick",
    ("points", "TRICK.CANCEL"): "does not count the points of cancelled cards",
    ("points", "SCORE.CARD_POINTS"): "counts card points at other values",
    ("points", "TRICK.WINNER"): "gives a trick's points to a seat that did not win it",
    ("points", "DECK.RANKING"): "gives a trick's points as if the ace ranked below the two",
    ("points", "TRICK.LED_SUIT"): "gives a trick's points by another led suit",
    ("pending", "VOID.TRICK"): "does not set a void trick aside in the pending pile",
    ("pending", "VOID.COLLECT"): "leaves the pending pile after a trick that has a winner",
    ("pending", "EXTRAS.FIRST_TRICK"): "does not send the extras with the first trick",
    ("pending", "VOID.LAST"): "keeps cards pending after the last trick",
    ("last_trick", "TRICK.CANCEL"): "lets a cancelled card win a trick",
    ("last_trick", "TRICK.WINNER"): "gives a trick to a seat that did not win it",
    ("last_trick", "DECK.RANKING"): "ranks the ace below the two",
    ("last_trick", "TRICK.LED_SUIT"): "takes another suit as led once the led card is cancelled",
    ("last_trick", "VOID.TRICK"): "gives a void trick a winner",
    ("last_trick", "TURN.ORDER"): "records the trick's cards or leader differently",
    ("turn", "LEAD.OPENING_LEADER"): "gives the opening lead to another seat",
    ("turn", "VOID.LEADER"): "gives the lead after a void trick to a seat other than its "
                             "leader",
    ("turn", "TRICK.NEXT_LEADER"): "gives the next lead to a seat other than the trick's winner",
    ("turn", "PASS.EXCHANGE"): "waits for other seats to pass",
    ("turn", "MOON.CONDITION"): "waits for a moon choice nobody owes",
    ("turn", "TURN.ORDER"): "gives the turn to another seat",
    ("scores", "SCORE.DEAL"): "adds a deal's scores to the totals differently",
    ("deal", "DEAL.DEALER"): "moves the deal to another seat",
}
_TURN_FIELDS = ("to_act", "leader", "waiting_for", "trick_number", "trick")


def _group(field: str) -> str:
    if field in _TURN_FIELDS:
        return "turn"
    if field in ("deal_scores", "totals"):
        return "scores"
    if field in ("deal_number", "dealer"):
        return "deal"
    return field


#: What the rules do with the cards a void last trick leaves pending, by ``last_trick_void``.
_VOID_LAST = {
    LastTrickVoid.NOBODY: "scores the cards a void last trick leaves pending, which nobody "
                          "collects",
    LastTrickVoid.LEADER: "does not give the cards a void last trick leaves pending to its "
                          "leader",
    LastTrickVoid.SPLIT_HIGHEST_PAIR: "does not deal the cards a void last trick leaves "
                                      "pending to the two seats of its highest cancelled pair",
    LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR: "does not split the points a void last trick "
                                             "leaves pending between the two seats of its "
                                             "highest cancelled pair",
}
#: What a moon shot scores, by ``moon`` (one seat) and ``moon_pair`` (two seats together).
_MOON_SCORES = {
    Moon.CHOICE_26: "scores the moon differently from the shooter's choice",
    Moon.OTHERS_52: "does not give every other seat 52 points when the moon is shot",
    Moon.OTHERS_104: "does not give every other seat 104 points when the moon is shot",
}
_PAIR_MOON = "does not give every other seat 26 points when two seats shoot the moon together"


def void_last_words(value: LastTrickVoid) -> str:
    """What differs when the pending cards of a void last trick are scored otherwise."""
    return _VOID_LAST[value]


def moon_score_words(moon: Moon, pair: bool) -> str:
    """What differs when a moon is scored otherwise than the reference's ``moon`` value (or
    its ``moon_pair`` value, for a moon two seats shot together) scores it."""
    return _PAIR_MOON if pair else _MOON_SCORES[moon]


def _moon_words(rule: str, after: GameState, actual: Mapping[str, Any]) -> str:
    ref_pending = after.phase is Phase.MOON_CHOICE
    impl_pending = actual.get("phase") == "moon-choice"
    ref_moon = ref_pending or bool(after.deal_results and after.deal_results[-1].moon_shooter
                                   is not None and after.phase in (Phase.DEALING,
                                                                   Phase.GAME_OVER))
    if rule == "MOON.CONDITION":
        return "does not see a moon that was shot" if ref_moon else "sees a moon nobody shot"
    if ref_pending and not impl_pending:
        return "scores a moon without waiting for the shooter's choice"
    if impl_pending and not ref_pending:
        return "asks for a moon choice the rules do not offer"
    result = after.deal_results[-1] if after.deal_results else None
    return moon_score_words(after.ruleset.moon, result is not None
                            and result.moon_pair is not None)


#: A trick whose led card is cancelled set aside, where another card of the led suit wins it.
SET_ASIDE_UNDER_CANCELLED_LEAD = ("sets a trick aside once its led card is cancelled, where "
                                  "another card of the led suit wins it")


def _set_aside(field: str, after: GameState, actual: Mapping[str, Any]) -> bool:
    """Does a led-suit difference show a trick the reference has won set aside?

    The trick the implementation shows void (``last_trick``), or, at a deal's end, the
    last trick the reference has won, its points settled as a void trick's.
    """
    t = after.tricks[-1] if after.tricks else None
    if t is None or t.winner is None:
        return False
    shown = actual.get("last_trick")
    if field == "last_trick":
        return isinstance(shown, dict) and shown.get("winner") is None
    return field == "points" and after.phase is not Phase.PLAYING


def _observation_words(rule: str, field: str, before: GameState | None,
                       action: Action | None, after: GameState,
                       expected: Mapping[str, Any], actual: Mapping[str, Any]) -> str:
    if rule.startswith("MOON."):
        return _moon_words(rule, after, actual)
    group = _group(field)
    if field == "legal" and after.phase is Phase.PLAYING:
        return legal_difference(after, expected.get("legal"), actual.get("legal"))[0]
    if field == "hands":
        return _hands_words(before, action, rule, actual.get("hands"))
    if field == "hearts_broken":
        if actual.get(field) is True and expected.get(field) is False:
            if isinstance(action, DealCards):
                return "keeps hearts broken into the next deal"
            if isinstance(action, Play) and before is not None:
                return f"breaks hearts when {card_kind(action.card)} is played"
            return "breaks hearts when no card breaks them"
        if isinstance(action, Play) and before is not None:
            how = "led" if not before.trick else "played"
            return f"does not break hearts when {card_kind(action.card)} is {how}"
        return "does not break hearts"
    if field == "phase":
        ref, impl = expected.get("phase"), actual.get("phase")
        if rule == "DEAL.SIZE":
            return ("ends the deal before its last trick" if ref == "playing"
                    else "plays on after the deal's last trick")
        if rule == "GAME.END":
            return ("does not end the game when a total reaches the target"
                    if ref == "game-over" else "ends the game before a total reaches the target")
        if rule == "PASS.DIRECTION":
            return ("skips the passing in a deal that passes" if ref == "passing"
                    else "asks for a pass in a deal without passing")
        return f"is in {phase_words(impl)} where the rules are in {phase_words(ref)}"
    if field == "winners":
        ref_w, impl_w = expected.get("winners") or [], actual.get("winners") or []
        if isinstance(ref_w, list) and isinstance(impl_w, list) and len(ref_w) > 1 and set(
                impl_w) < set(ref_w):
            return "names only one of the players tied for the lowest total"
        return "names winners other than the lowest totals"
    if rule == "TRICK.LED_SUIT" and _set_aside(field, after, actual):
        return SET_ASIDE_UNDER_CANCELLED_LEAD
    if rule == "VOID.LAST" and group in ("points", "scores", "pending"):
        return (void_last_words(after.ruleset.last_trick_void) if group != "pending"
                else _RULE_WORDS[("pending", "VOID.LAST")])
    if group in ("points", "scores") and (group, rule) not in _RULE_WORDS:
        return _RULE_WORDS.get(("points", rule), "scores the deal differently")
    words = _RULE_WORDS.get((group, rule))
    return words if words is not None else f"{field} differs"


#: At most this many characters of the reason an implementation gives for a rejected start.
_REASON_SHOWN = 120


def said_words(reason: object) -> str:
    """The reason an implementation gave for a rejection, on one line and cut short ("": none)."""
    if not isinstance(reason, str):
        return ""
    said = " ".join(reason.split())
    return said if len(said) <= _REASON_SHOWN else said[:_REASON_SHOWN - 1] + "…"


def divergence_words(failure: object) -> str:
    """What differs, in words without seat numbers, deal numbers or totals (a class's words).

    ``failure`` is a :class:`~rules_ref.findings.failure.Failure` or its
    JSON form (``Failure.to_json()``).
    """
    return _words_and_detail(failure)[0]


def divergence_detail(failure: object) -> str:
    """What differs as one sentence with its seat and card, for the report ("" if nothing more)."""
    return _words_and_detail(failure)[1]


def _words_and_detail(failure: object) -> tuple[str, str]:
    kind = _get(failure, "kind") or "disagreement"
    rules = list(_get(failure, "rules") or [])
    if kind == "fault":
        fault = _get(failure, "fault") or {}
        return f"adapter fault: {fault.get('kind', 'fault')}", ""
    before, action = failure_states(failure)
    kind_words = {Play: "a play", Pass: "a pass", ChooseMoon: "a moon choice",
                  DealCards: "a deal"}
    from_position = action is None and at_position_start(_get(failure, "start"), None)
    if kind == "error":
        what = kind_words.get(type(action), "the start") if action else (
            FROM_A_POSITION if from_position else "the start")
        return f"reports an internal error on {what}", ""
    expected = _get(failure, "expected") or {}
    actual = _get(failure, "actual") or {}
    fields = list(_get(failure, "fields") or [])
    if before is None:
        if accepted_refused_table(failure):
            return "accepts a table the rules refuse", ""
        if fields:
            return f"{fields[0]} differs", ""
        return "differs from the reference", ""
    if actual.get("type") == "rejected" and expected.get("type") == "observation":
        words = REJECTS_A_POSITION if from_position else rejected_words(before, action)
        detail = ""
        if isinstance(action, Play):
            detail = (f"seat {action.seat} may not play {action.card.pretty} "
                      f"{where_detail(before, action.card)}; the rules allow it")
        cited = actual.get("rule")
        if isinstance(cited, str) and cited and rules and cited != rules[0]:
            detail = (detail + "; " if detail else "") + f"the implementation cites {cited}"
        said = said_words(actual.get("reason")) if action is None else ""
        if said:  # a start rejected: the implementation's own reason is all it says of why
            detail = (detail + "; " if detail else "") + f"the implementation says: {said}"
        return words, detail
    if expected.get("type") == "rejected":
        return accepted_words(before, action, rules), ""
    after = before
    if action is not None:
        try:
            after, _ = before.apply(action)
        except RulesRefError:
            after = before
    rule = rules[0] if rules else ""
    field = fields[0] if fields else ""
    words = _observation_words(rule, field, before if action is not None else None, action,
                               after, expected, actual)
    detail = ""
    if field == "legal" and after.phase is Phase.PLAYING:
        detail = legal_difference(after, expected.get("legal"), actual.get("legal"))[1]
    return words, detail


# --- the switch that decides, and the facet of one divergence ------------------------------


def _differing_cards(action: Action | None, expected: Mapping[str, Any],
                     actual: Mapping[str, Any]) -> list[Card]:
    """The cards of the differing step: the legal cards that differ, else the action's."""
    ref, impl = card_list(expected.get("legal")), card_list(actual.get("legal"))
    differ = sorted(set(ref) ^ set(impl))
    if differ:
        return differ
    if isinstance(action, Play):
        return [action.card]
    if isinstance(action, Pass):
        return list(action.cards)
    return []


def deciding_switch(rule: str, before: GameState | None, action: Action | None,
                    after: GameState | None, cards: Sequence[Card],
                    only: Sequence[Card] = (), ref_only: Sequence[Card] = ()) -> str | None:
    """The switch whose value decides rule ``rule`` at this step (``spec/variants.toml``).

    A rule changed by one switch names it; a rule changed by two names the
    one the facts of the step bring in (and ``PLAYERS.COUNT`` names
    ``min_players`` only at a table of 5, the one count it decides): a
    pass of exactly ``pass_count`` cards that holds 2♣ (``pass_forbidden``,
    else ``pass_count``), 2♣ among the cards that differ on trick 1, or
    the only legal card of the implementation (``only``) or of the
    reference (``ref_only``) (``first_trick_two_of_clubs``, else
    ``first_trick_points``), a deal whose last trick is void
    (``last_trick_void``, else ``ten_of_diamonds_points``), a moon two seats
    shot together (``moon_pair``, else ``moon``).
    """
    try:
        switches = registry_rule(rule).switches
    except (KeyError, RulesRefError):
        return None
    if rule == "PLAYERS.COUNT":  # min_players decides only whether 5 players play
        table = after or before
        return "min_players" if table is not None and table.players < MIN_PLAYERS_HIGH else None
    if len(switches) < 2:
        return switches[0] if switches else None
    if rule == "PASS.CARDS":
        exact = (isinstance(action, Pass) and before is not None
                 and len(action.cards) == before.ruleset.pass_count)
        return "pass_forbidden" if exact and TWO_OF_CLUBS in cards else "pass_count"
    if rule == "FOLLOW.FIRST_TRICK":
        two = TWO_OF_CLUBS in cards or any(set(one) == {TWO_OF_CLUBS} for one in (only, ref_only))
        return "first_trick_two_of_clubs" if two else "first_trick_points"
    if rule == "SCORE.CARD_POINTS":
        return "last_trick_void" if after is not None and _void_last(after) else \
            "ten_of_diamonds_points"
    if rule == "MOON.CHOICE":
        result = after.deal_results[-1] if after is not None and after.deal_results else None
        return "moon_pair" if result is not None and result.moon_pair is not None else "moon"
    return switches[0]  # pragma: no cover - every rule of two switches is named above


def _void_last(state: GameState) -> bool:
    """Did the deal just ended (or ending) end with a void trick?"""
    return (state.phase is not Phase.PLAYING and bool(state.tricks)
            and state.tricks[-1].winner is None)


@dataclass
class Facet:
    """One behaviour of a finding: what differs in words, the switch, the differing step.

    ``words`` hold no seat, deal number or total (:func:`divergence_words`);
    ``detail`` is the sentence with the seat and the card; ``step`` and
    ``cards`` are the kind (``play``, ``pass``, ``moon``, ``deal``; ``None``:
    a start) and the cards of the step that differs, which an expectation may
    name: the play whose legal cards differ, not the action before it.
    ``count`` and ``example`` are filled as a run meets the facet.
    ``explanation``: what the implementation does, as the alternative to the rule
    that gives its answer says it (:mod:`.alternatives`); ``""`` when none does and
    the rule is read from the fields that differ; ``None`` where none is tried (a
    fault, an internal error, a start the implementation rejected for no value).
    """

    words: str
    detail: str
    rule: str | None
    switch: str | None
    step: str | None
    cards: tuple[str, ...]
    count: int = 0
    example: Any = None
    explanation: str | None = None
    #: Every alternative that gives the implementation's answer (the run's findings file
    #: an occurrence under an earlier finding one of them explains).
    alternatives: tuple[Alternative, ...] = field(default=(), repr=False, compare=False)
    #: Of an internal error: the facts of its moment, by name (:func:`.triggers.step_facts`).
    facts: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    #: The games it was met in, as ``(job, game)`` (filled as a run meets it).
    games: set[tuple[int, int]] = field(default_factory=set, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"words": self.words, "detail": self.detail, "switch": self.switch,
                "step": self.step, "cards": list(self.cards), "count": self.count,
                "explanation": self.explanation}


_STEP_OF_PHASE = {Phase.PLAYING: "play", Phase.PASSING: "pass", Phase.MOON_CHOICE: "moon",
                  Phase.DEALING: "deal"}
_STEP_OF_ACTION = {Play: "play", Pass: "pass", ChooseMoon: "moon", DealCards: "deal"}
#: The observation fields that describe the next step (whose turn, which cards).
_NEXT_STEP_FIELDS = frozenset(("legal", "to_act", "leader", "waiting_for"))


def facet_of(failure: object) -> Facet:
    """The facet one divergence shows (its rule, switch, words, detail and differing step).

    The rule is the failure's first, except that a difference of card points
    a void last trick's pending cards make is the void last trick's
    (``VOID.LAST``): one difference, one rule.
    """
    rules = list(_get(failure, "rules") or [])
    rule = rules[0] if rules else None
    try:
        words, detail = _words_and_detail(failure)
        before, action = failure_states(failure)
    except RulesRefError:
        words, detail, before, action = str(_get(failure, "summary") or "")[:80], "", None, None
    expected = _get(failure, "expected") or {}
    actual = _get(failure, "actual") or {}
    fields = list(_get(failure, "fields") or [])
    after = before
    if before is not None and action is not None:
        try:
            after, _ = before.apply(action)
        except RulesRefError:
            after = before
    cards = _differing_cards(action, expected, actual)
    switch = deciding_switch(rule, before, action, after, cards, card_list(actual.get("legal")),
                             card_list(expected.get("legal"))) if rule else None
    alt, found = _explained_by(failure, rule, before, action, after)
    known = set() if found is None else {a.switch for a in found}
    explanation = alt.words if alt is not None else ("" if found is not None else None)
    if alt is None or alt.switch is None or rule not in switch_rules(alt.switch):
        switch = None  # a switch is named only where one of its values gives the answer
    elif switch not in known:
        switch = alt.switch  # else the one the step's facts bring in, whose value gives it too
    facts = _error_facts(failure, before, action, after)  # the run names the trigger later
    if rule == "SCORE.CARD_POINTS" and switch == "last_trick_void" and after is not None:
        rule = "VOID.LAST"
        words = void_last_words(after.ruleset.last_trick_void)
    if fields and fields[0] in _NEXT_STEP_FIELDS and after is not None:
        step = _STEP_OF_PHASE.get(after.phase)
        if fields[0] != "legal":  # whose turn: the one card the reference's seat may play
            ref = set(card_list(expected.get("legal")))
            cards = sorted(ref) if len(ref) == 1 else []
    else:
        step = _STEP_OF_ACTION.get(type(action)) if action is not None else None
    return Facet(words, detail, rule, switch, step, tuple(str(c) for c in cards),
                 explanation=explanation, alternatives=found or (),
                 facts=frozenset(f.name for f in facts))


def _error_facts(failure: object, before: GameState | None, action: Action | None,
                 after: GameState | None) -> list[Fact]:
    """The facts of the moment of an internal error (:func:`.triggers.step_facts`), none
    for another failure, or an error at a start from a position (whose deal is under way)."""
    if _get(failure, "kind") != "error" or before is None:
        return []
    start = _get(failure, "start")
    if action is None and isinstance(start, dict) and "position" in start:
        return []
    return step_facts(before, action, after if action is not None and after is not before
                      else None)


def _explained_by(failure: object, rule: str | None, before: GameState | None,
                  action: Action | None, after: GameState | None
                  ) -> tuple[Alternative | None, tuple[Alternative, ...] | None]:
    """The alternative to ``rule`` that gives the implementation's answer in ``failure``
    (:func:`.attribution.named_alternative`), or None; and every alternative that does
    (None: none is tried)."""
    kind = _get(failure, "kind")
    if kind not in ("disagreement", None) or after is None or rule is None:
        return None, None
    expected = _get(failure, "expected") or {}
    actual = _get(failure, "actual") or {}
    reference = dict(_get(failure, "reference") or {})
    reference.pop("type", None)
    if action is None and actual.get("type") == "rejected":
        found = refusing_values(_get(failure, "start"))
        if not found:  # a start rejected for no value: what decides it is the start's
            return None, None
    elif actual.get("type") == "rejected" or expected.get("type") == "rejected":
        if before is None or action is None:
            return None, None
        found = explaining_verdict(before, action, accepted=actual.get("type") != "rejected",
                                   cited=actual.get("rule"))
    else:
        if not reference:
            return None, None
        answer = {**reference, **actual}
        found = explaining(before if action is not None else None, action, after, reference,
                           answer, list(_get(failure, "fields") or []))
    named = named_alternative([rule], found)
    return (named[1] if named is not None and named[0] == rule else None), tuple(found)
