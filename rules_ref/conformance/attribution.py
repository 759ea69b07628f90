"""Which rules a disagreement falls under.

When an implementation's answer differs from the reference, the runners
name the rule IDs (``spec/rules.toml``) that govern the difference, read from
the reference's own context: the state before the action, the action, the
state after it. A difference often drags others with it (a wrong trick
winner also changes the next leader, the legal cards and the points), so
the fields are examined in causal order and the first one that differs
decides; the other differing fields are listed as consequences.

* :func:`observation_rules`: an observation that differs from the reference.
* :func:`rejected_legal_rules`: a legal action the implementation rejected.
* :func:`accepted_illegal_rules`: an illegal action it accepted.
* :func:`play_situation_rule`: the rule that governs a play in a state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..actions import Action, ChooseMoon, DealCards, Pass, Play
from ..cards import Card, is_penalty, parse_card
from ..errors import RulesRefError, Violation
from ..passing import exchange
from ..ruleset import FirstTrickPoints
from ..scoring import card_points
from ..state import GameState, Phase
from ..tricks import TrickOutcome

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
#: decide the phase, and the phase decides which other fields are shown.
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
_DEAL_OVER = (Phase.DEALING, Phase.GAME_OVER, Phase.MOON_CHOICE)


def _dedupe(ids: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def _cards(texts: object) -> list[Card]:
    out = []
    if isinstance(texts, list):
        for t in texts:
            try:
                out.append(parse_card(t))
            except RulesRefError:
                continue
    return out


def _led_card_cancelled(trick: Sequence[Card]) -> bool:
    return len(trick) > 1 and trick[0] in trick[1:]


def play_situation_rule(state: GameState, card: Card) -> list[str]:
    """The rule that governs playing ``card`` now (whether or not it is allowed).

    Opening lead ``LEAD.OPENING_CARD``; any other lead ``LEAD.HEARTS``; a
    follow ``FOLLOW.SUIT``, or ``FOLLOW.FIRST_TRICK`` for a point card
    discarded to trick 1 under its switch; ``TRICK.LED_SUIT`` comes first
    when the led card has been cancelled.
    """
    if state.phase is not Phase.PLAYING:
        return ["TURN.ORDER"]
    if not state.trick:
        return ["LEAD.OPENING_CARD" if state.trick_number == 1 else "LEAD.HEARTS"]
    rules = ["TRICK.LED_SUIT"] if _led_card_cancelled(state.trick) else []
    led = state.trick[0].suit
    if (state.trick_number == 1 and card.suit != led and is_penalty(card)
            and state.ruleset.first_trick_points is FirstTrickPoints.FORBIDDEN):
        rules.append("FOLLOW.FIRST_TRICK")
    else:
        rules.append("FOLLOW.SUIT")
    return rules


def rejected_legal_rules(state: GameState, action: Action, cited: str | None,
                         known: frozenset[str] = frozenset()) -> list[str]:
    """Rules for a legal action the implementation rejected.

    The rule it cited when that is a rule ID, else the rule that governs the
    situation.
    """
    if cited and (not known or cited in known):
        return [cited]
    if isinstance(action, Play):
        return play_situation_rule(state, action.card)
    if isinstance(action, Pass):
        return ["PASS.CARDS"]
    if isinstance(action, ChooseMoon):
        return ["MOON.CHOICE"]
    if isinstance(action, DealCards):
        return ["DEAL.SOURCE"]
    return ["TURN.ORDER"]


def accepted_illegal_rules(violations: Sequence[Violation] | Sequence[str]) -> list[str]:
    """Rules for an illegal action the implementation accepted: every rule it breaks."""
    return _dedupe([v if isinstance(v, str) else v.rule_id for v in violations])


# --- observations ---------------------------------------------------------------------------


def _completed_trick(before: GameState | None, after: GameState) -> TrickOutcome | None:
    """The trick the action completed, if it completed one."""
    if before is None or before.phase is not Phase.PLAYING:
        return None
    if len(before.trick) + 1 != before.players or not after.tricks:
        return None
    return after.tricks[-1]


def _winner_rules(t: TrickOutcome, impl: int, players: int) -> list[str]:
    """Rules for a trick the implementation gave to seat ``impl``."""
    if not 0 <= impl < players:
        return ["TRICK.WINNER"]
    card = t.cards[(impl - t.leader) % players]
    if card in t.cancelled:
        rules = ["TRICK.CANCEL"]
    elif card.suit != t.led_suit:
        rules = ["TRICK.LED_SUIT" if t.cards[0] in t.cancelled else "TRICK.WINNER"]
    else:
        rules = ["TRICK.WINNER"]
    if t.winner is None:
        rules.append("VOID.TRICK")
    return rules


def _last_trick_rules(after: GameState, expected: Any, actual: Any) -> list[str]:
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return ["TURN.ORDER"]
    if expected.get("cards") != actual.get("cards") or expected.get("leader") != actual.get(
            "leader") or expected.get("number") != actual.get("number"):
        return ["TURN.ORDER"]
    t = after.tricks[-1] if after.tricks else None
    if t is None:
        return ["TRICK.WINNER"]
    impl = actual.get("winner")
    if impl is None:
        return ["VOID.TRICK"]
    if not isinstance(impl, int):
        return ["TRICK.WINNER"]
    return _winner_rules(t, impl, after.players)


def _hands_rules(before: GameState | None, action: Action | None, after: GameState,
                 actual: Any) -> list[str]:
    if before is None or isinstance(action, DealCards):
        return ["DEAL.SOURCE"]
    if isinstance(action, Pass):
        if after.phase is Phase.PASSING:
            return ["PASS.EXCHANGE"]
        passes = [action.cards if seat == action.seat else p
                  for seat, p in enumerate(before.passes)]
        if all(p is not None for p in passes) and isinstance(actual, list):
            wanted = [sorted(_cards(h)) for h in actual]
            n = before.players
            for offset in range(1, n):
                moved = exchange(before.hands, [p for p in passes if p is not None], offset)
                if [list(h) for h in moved] == wanted:
                    return ["PASS.DIRECTION"]
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
        if before.pending:
            return ["VOID.COLLECT"]
        if extras:
            return ["EXTRAS.FIRST_TRICK"]
        return ["VOID.COLLECT"]
    # a void trick: its cards join the pile, after them the extras on trick 1
    diff = Counter(_cards(expected))
    diff.subtract(Counter(_cards(actual)))
    odd = Counter({c: abs(k) for c, k in diff.items() if k})
    if extras and odd and not odd - Counter(extras):
        return ["EXTRAS.FIRST_TRICK"]
    return ["VOID.TRICK"]


def _points_rules(before: GameState | None, after: GameState, expected: Any,
                  actual: Any) -> list[str]:
    t = _completed_trick(before, after)
    if before is None or t is None:
        return ["SCORE.CARD_POINTS"]
    if after.phase in _DEAL_OVER and t.winner is None:
        return ["VOID.LAST"]
    if not isinstance(expected, list) or not isinstance(actual, list) or len(
            expected) != len(actual) or not all(isinstance(a, int) for a in actual):
        return ["SCORE.CARD_POINTS"]
    rs = before.ruleset
    diff = [a - e for e, a in zip(expected, actual, strict=True)]
    extras = before.extras if before.trick_number == 1 else ()
    extras_involved = bool(extras) or (t.winner is not None and before.pending_has_extras)
    pending_involved = t.winner is not None and bool(before.pending)
    w = t.winner

    def only_winner(delta: int) -> bool:
        return delta != 0 and w is not None and all(
            d == (delta if seat == w else 0) for seat, d in enumerate(diff))

    if pending_involved and only_winner(-card_points(before.pending, rs)):
        return ["VOID.COLLECT"]
    if extras and only_winner(-card_points(extras, rs)):
        return ["EXTRAS.FIRST_TRICK"]
    gainers = [seat for seat, d in enumerate(diff) if d > 0 and seat != w]
    if gainers:
        # the implementation gave the cards to another seat
        return _winner_rules(t, gainers[0], before.players)
    taken = list(t.cards) + list(before.pending if w is not None else ()) + list(extras)
    if any(card_points([c], rs) for c in t.cards) and not extras_involved and not (
            pending_involved):
        return ["SCORE.CARD_POINTS"]
    return _dedupe((["EXTRAS.FIRST_TRICK"] if extras_involved else [])
                   + (["VOID.COLLECT"] if pending_involved else [])
                   + (["SCORE.CARD_POINTS"] if any(card_points([c], rs) for c in taken)
                      else []) or ["SCORE.CARD_POINTS"])


def _scores_rules(after: GameState, expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    if not after.deal_results:
        return ["SCORE.DEAL"]
    result = after.deal_results[-1]
    impl_scores = actual.get("deal_scores")
    if result.moon_shooter is not None:
        if impl_scores == list(result.card_points):
            return ["MOON.CONDITION"]
        return ["MOON.CHOICE"]
    if isinstance(impl_scores, list) and impl_scores != list(result.card_points) and (
            any(isinstance(s, int) and s < 0 for s in impl_scores)
            or sorted({s for s in impl_scores if isinstance(s, int)}) in (
                [0, 26], [0, 52], [0, 104])):
        # a moon the reference did not see
        return ["MOON.CONDITION"]
    if result.uncollected:
        return ["VOID.LAST", "SCORE.DEAL"]
    return ["SCORE.DEAL"]


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


def _legal_rules(after: GameState, expected: Any, actual: Any) -> list[str]:
    if after.phase is Phase.MOON_CHOICE:
        return ["MOON.CHOICE"]
    if after.phase is not Phase.PLAYING or not isinstance(actual, list):
        return ["TURN.ORDER"]
    seat = after.to_act
    assert seat is not None
    ref = set(_cards(expected))
    impl = set(_cards(actual))
    rules: list[str] = []
    if _led_card_cancelled(after.trick):
        rules.append("TRICK.LED_SUIT")
    for c in sorted(impl - ref):
        rules.extend(v.rule_id for v in after.violations(Play(seat, c)))
    for c in sorted(ref - impl):
        rules.extend(play_situation_rule(after, c))
    if not rules:
        rules.append("TURN.ORDER")
    return _dedupe(rules)


def observation_rules(before: GameState | None, action: Action | None, after: GameState,
                      expected: dict[str, Any], actual: dict[str, Any]
                      ) -> tuple[list[str], list[str], list[str]]:
    """Attribute an observation that differs from the reference.

    ``before`` is the reference state before ``action`` (both ``None`` for
    the observation that answers ``start``), ``after`` the reference state
    that ``expected`` observes. Returns ``(rules, deciding fields, other
    differing fields)``.
    """
    order = CAUSAL_ORDER
    if after.phase in _DEAL_OVER or expected.get("phase") != actual.get("phase"):
        order = END_ORDER
    differing = [f for group in order for f in group if expected.get(f) != actual.get(f)]
    if not differing:
        return [], [], []
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
