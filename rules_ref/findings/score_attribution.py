"""The rules of scores that differ: points, deal scores and totals, moons, a deal's size.

The part of :mod:`.attribution` that reads numbers: points traced to the cards
that carry them (:func:`rules_ref.causes.trace_points`), a moon seen by one
side only, scores shaped like a moon's, a deal of the wrong size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card, penalty_points
from ..causes import card_value_difference, trace_points, winner_rules
from ..scoring import bonus_points, card_points
from ..state import GameState
from ..state_parts import Phase
from ..tricks import TrickOutcome

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
