"""The facts of a case agree with its expectations, as the spec defines both.

A case's ``facts`` are values the reference derives that the protocol does
not show; its steps state what the protocol shows. The two must say the same
thing (:func:`facts_problems`), read through the rules rather than through
the engine, so that a tampered file (or a generator that records one value
and expects another) is caught:

* the end of a deal: ``card_points`` are the scored observation's
  ``points`` (``SCORE.CARD_POINTS``); without a moon they are also the
  ``deal_scores`` (``SCORE.DEAL``), with a moon the deal scores are the
  moon's (``MOON.CHOICE``); the ``totals`` are the totals before the deal
  plus the deal scores; and the card points add up to the points of the
  deck less those of the uncollected cards (``VOID.LAST``: under
  ``split-points-highest-pair`` their heart and Q♠ points are shared, not
  lost);
* a trick: ``void`` when and only when ``last_trick.winner`` is ``null``,
  ``led_suit`` the suit of the first card, every ``cancelled`` card twice
  in the trick, the ``winning_card`` the winner's card;
* legal plays: the ``forbidden`` cards are the rejected steps, each with the
  rule it states, and none of them is legal;
* passing: the ``targets`` follow the ``direction`` (``PASS.DIRECTION``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..cards import TEN_OF_DIAMONDS, full_deck, parse_card, penalty_points
from ..ruleset import Ruleset
from .files import Case

Json = Any

_END_KINDS = ("scoring", "moon", "game-end")
#: The moon's deal scores (shooter, every other seat) by ``moon`` value and choice.
_MOON_SCORES = {("choice-26", "subtract"): (-26, 0), ("choice-26", "add"): (0, 26),
                ("others-52", None): (0, 52), ("others-104", None): (0, 104)}


def facts_problems(kind: str, case: Case) -> list[str]:
    """What in ``case``'s facts disagrees with its expectations (empty when all agree)."""
    facts = case.get("facts")
    if not isinstance(facts, dict):
        return []
    check = {"trick": _trick, "legal-plays": _legal, "passing": _passing}.get(kind)
    if kind in _END_KINDS:
        check = _end
    if check is None:
        return []
    return [f"{case['id']}: {p}" for p in check(case, facts)]


def _observations(case: Case) -> list[tuple[Json, dict[str, Any]]]:
    return [(s["action"], s["expect"]["observation"]) for s in case.get("steps", [])
            if isinstance(s.get("expect"), dict) and "observation" in s["expect"]]


def _start_totals(case: Case) -> list[int]:
    start = case["start"]
    if "position" in start:
        return list(start["position"]["totals"])
    return list(start["totals"])


def _end(case: Case, facts: dict[str, Any]) -> list[str]:
    scored = [(a, o) for a, o in _observations(case) if o.get("deal_scores") is not None
              and o.get("phase") in ("dealing", "game-over")]
    if "card_points" not in facts or not scored:
        return []
    action, obs = scored[0]
    rs = Ruleset.from_dict(case["ruleset"])
    points = list(facts["card_points"])
    out = []
    if obs.get("points") is not None and obs["points"] != points:
        out.append(f"facts.card_points {points} but the scored observation's points are "
                   f"{obs['points']} (SCORE.CARD_POINTS)")
    scores = list(obs["deal_scores"])
    shooter, pair = facts.get("moon_shooter"), facts.get("moon_pair")
    if shooter is None and pair is None:
        if scores != points:
            out.append(f"no moon, but deal_scores {scores} are not the card points {points} "
                       "(SCORE.DEAL)")
    elif rs.ten_of_diamonds_points == 0:  # a 10D would add its points on top of the moon's
        want = _moon_scores(rs, action, shooter, pair, len(points))
        if want is not None and scores != want:
            out.append(f"a moon, but deal_scores {scores} are not the moon's {want} "
                       "(MOON.CHOICE)")
    totals = [t + s for t, s in zip(_start_totals(case), scores, strict=True)]
    if obs.get("totals") != totals:
        out.append(f"totals {obs.get('totals')} are not the totals before the deal plus the "
                   f"deal scores, {totals} (SCORE.DEAL)")
    uncollected = [parse_card(c) for c in facts.get("uncollected", [])]
    deck = full_deck()
    whole = penalty_points(deck) + rs.ten_of_diamonds_points * deck.count(TEN_OF_DIAMONDS)
    lost = rs.ten_of_diamonds_points * uncollected.count(TEN_OF_DIAMONDS)
    if str(rs.last_trick_void) != "split-points-highest-pair":
        lost += penalty_points(uncollected)
    if sum(points) != whole - lost:
        out.append(f"the card points add up to {sum(points)}, but the deck less the "
                   f"uncollected cards holds {whole - lost} (SCORE.CARD_POINTS, VOID.LAST)")
    return out


def _moon_scores(rs: Ruleset, action: Json, shooter: int | None, pair: Sequence[int] | None,
                 players: int) -> list[int] | None:
    """The deal scores of a moon (one shooter, or a pair), ``None`` if the value is unknown."""
    if pair is not None:
        return [0 if s in pair else 26 for s in range(players)]
    choice = action.get("choice") if isinstance(action, dict) else None
    scores = _MOON_SCORES.get((str(rs.moon), choice))
    if scores is None:
        return None
    return [scores[0] if s == shooter else scores[1] for s in range(players)]


def _trick(case: Case, facts: dict[str, Any]) -> list[str]:
    last = next((o["last_trick"] for _, o in reversed(_observations(case))
                 if isinstance(o.get("last_trick"), dict)), None)
    if last is None:
        return []
    cards, winner = last["cards"], last["winner"]
    out = []
    if "void" in facts and bool(facts["void"]) != (winner is None):
        out.append(f"facts.void {facts['void']} but last_trick.winner is {winner} "
                   "(VOID.TRICK)")
    if "led_suit" in facts and cards and facts["led_suit"] != cards[0][-1]:
        out.append(f"facts.led_suit {facts['led_suit']} but the first card is {cards[0]} "
                   "(TRICK.LED_SUIT)")
    count = Counter(cards)
    for pair in facts.get("cancelled", []):
        card = pair if isinstance(pair, str) else pair[0] if pair else None
        if card is not None and count[card] < 2:
            out.append(f"facts.cancelled names {card}, which the trick holds "
                       f"{count[card]} time(s) (TRICK.CANCEL)")
    won = facts.get("winning_card")
    if won is not None and winner is not None:
        seat = (winner - last["leader"]) % int(case["players"])
        if seat >= len(cards) or cards[seat] != won:
            out.append(f"facts.winning_card {won} but seat {winner} played "
                       f"{cards[seat] if seat < len(cards) else 'nothing'} (TRICK.WINNER)")
    return out


def _legal(case: Case, facts: dict[str, Any]) -> list[str]:
    forbidden = facts.get("forbidden")
    if not isinstance(forbidden, dict):
        return []
    legal: Sequence[str] = next((o["legal"] for _, o in _observations(case)
                                 if isinstance(o.get("legal"), list)), [])
    rejected = {s["action"]["card"]: s["expect"]["rejected"]["rule"]
                for s in case.get("steps", []) if isinstance(s.get("expect"), dict)
                and "rejected" in s["expect"] and isinstance(s.get("action"), dict)
                and "card" in s["action"]}
    out = []
    both = sorted(set(forbidden) & set(legal))
    if both:
        out.append(f"facts.forbidden names legal card(s) {', '.join(both)}")
    if rejected != forbidden:
        out.append(f"facts.forbidden {forbidden} is not what the rejected steps state, "
                   f"{rejected}")
    return out


def _passing(case: Case, facts: dict[str, Any]) -> list[str]:
    direction, targets = facts.get("direction"), facts.get("targets")
    n = int(case["players"])
    if not isinstance(targets, list) or not isinstance(direction, str):
        return []
    offsets = {"left": 1, "right": -1, "across": n // 2, "hold": None}
    if direction.startswith(("left-", "right-")):
        side, k = direction.split("-")
        offsets[direction] = int(k) if side == "left" else -int(k)
    if direction not in offsets:
        return [f"facts.direction {direction!r} is no pass direction"]
    offset = offsets[direction]
    want = [None if offset is None else (s + offset) % n for s in range(n)]
    if targets != want:
        return [f"facts.targets {targets} do not follow direction {direction} at {n} "
                f"players, {want} (PASS.DIRECTION)"]
    return []
