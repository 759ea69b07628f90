"""The causes of a difference from the rules, shared by ``conform`` and ``validate``.

:func:`play_situation_rule` names the rule that decides whether a card may
be played at a moment; :func:`winner_rules` the rule a trick given to the
wrong seat breaks; and the rest of the module traces wrong points back to
the cards that carry them.

When an implementation's points (or its deal scores) differ from the
reference's, the difference is made of cards whose points went elsewhere:
a pending pile its winner did not collect, the extras, cancelled cards of
a won trick, the cards a void last trick leaves behind, or a card scored at
another value. :func:`parcels` splits a deal's collected cards into such
parcels, each with the rule that sends it to its seat, by walking back
through the deal's tricks; :func:`trace_points` finds the parcels that
explain a per-seat difference of points and names their rules. It works
the same whether the implementation keeps running points (the difference
shows after one trick) or scores only at the end of the deal (the
difference shows at scoring, made of cards from any trick of the deal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import QUEEN_OF_SPADES, Card, Suit, is_penalty
from .scoring import card_points
from .state import GameState
from .state_parts import Phase
from .tricks import TrickOutcome


def led_card_cancelled(trick: Sequence[Card]) -> bool:
    """Has the trick's led card been cancelled by an identical card (``TRICK.CANCEL``)?"""
    return len(trick) > 1 and trick[0] in trick[1:]


def play_situation_rule(state: GameState, card: Card) -> list[str]:
    """The rule that decides whether ``card`` may be played now (whether or not it may).

    Opening lead ``LEAD.OPENING_CARD``; the lead after a void trick 1
    ``VOID.LEADER`` then ``LEAD.HEARTS`` for a heart or a Q♠ (that lead is not an
    opening lead, and LEAD.HEARTS restricts it); any other lead ``LEAD.HEARTS``;
    a heart or a Q♠ played to trick 1, following suit or not,
    ``FOLLOW.FIRST_TRICK`` (the rule about point cards on the first trick, which
    decides that card there even when a copy of it is already in the trick: the
    cause comes before the coincidence); a card identical to one in the trick
    ``TRICK.CANCEL``; any other follow ``FOLLOW.SUIT``.
    ``TRICK.LED_SUIT`` comes first when the led
    card has been cancelled and the card's suit is what decides.
    """
    if state.phase is not Phase.PLAYING:
        return ["TURN.ORDER"]
    if not state.trick:
        if state.trick_number == 1:
            return ["LEAD.OPENING_CARD"]
        if (state.trick_number == 2 and state.tricks and state.tricks[0].winner is None
                and is_penalty(card)):
            # not an opening lead (VOID.LEADER), so LEAD.HEARTS decides: an engine that
            # bans the card there breaks one or the other
            return ["VOID.LEADER", "LEAD.HEARTS"]
        return ["LEAD.HEARTS"]
    if state.trick_number == 1 and is_penalty(card):
        return ["FOLLOW.FIRST_TRICK"]
    if card in state.trick:
        return ["TRICK.CANCEL"]
    # which suit must be followed: the led card's, even when it is cancelled
    return ["TRICK.LED_SUIT", "FOLLOW.SUIT"] if led_card_cancelled(state.trick) else [
        "FOLLOW.SUIT"]


#: The rules a parcel can be sent by, in the order a difference is matched to them.
PARCEL_RULES = ("VOID.COLLECT", "EXTRAS.FIRST_TRICK", "TRICK.CANCEL", "VOID.LAST")
#: The rules a difference of points is traced to, in that order: the parcels', then the
#: trick's own cards (a trick given to another seat).
TRACED_RULES = (*PARCEL_RULES, "TRICK.WINNER")


@dataclass(frozen=True, slots=True)
class Parcel:
    """Cards a seat collected (``seat`` None: nobody) under one rule, in one trick."""

    rule: str
    seat: int | None
    cards: tuple[Card, ...]
    trick: int  # the trick number that sent them
    points: int


def _trick_parcels(state: GameState, number: int, t: TrickOutcome,
                   pending: list[Card], extras: Sequence[Card]) -> list[Parcel]:
    rs = state.ruleset
    out = []
    w = t.winner
    if pending:
        out.append(Parcel("VOID.COLLECT", w, tuple(pending), number, card_points(pending, rs)))
    if extras:
        out.append(Parcel("EXTRAS.FIRST_TRICK", w, tuple(extras), number,
                          card_points(extras, rs)))
    cancelled = [c for c in t.cards if c in t.cancelled]
    live = [c for c in t.cards if c not in t.cancelled]
    if cancelled:
        out.append(Parcel("TRICK.CANCEL", w, tuple(cancelled), number,
                          card_points(cancelled, rs)))
    out.append(Parcel("TRICK.WINNER", w, tuple(live), number, card_points(live, rs)))
    return out


def parcels(state: GameState) -> list[Parcel] | None:
    """The parcels of the current deal's collected cards, or None if the tricks are not all known.

    A game started from a position does not record the tricks before it;
    then the collected cards cannot be traced and None is returned.
    """
    tricks = state.tricks
    if not tricks:
        return None
    out: list[Parcel] = []
    pending: list[Card] = []
    for i, t in enumerate(tricks):
        number = i + 1
        extras = list(state.extras) if number == 1 else []
        if t.winner is None:
            pending.extend(t.cards)
            pending.extend(extras)
            continue
        out.extend(_trick_parcels(state, number, t, pending, extras))
        pending = []
    rs = state.ruleset
    if pending:
        # the cards a void last trick leaves pending (VOID.LAST): who took them, if anybody
        takers = [seat for seat, got in enumerate(state.collected)
                  if len(got) > sum(len(p.cards) for p in out if p.seat == seat)]
        seat = takers[0] if len(takers) == 1 else None
        out.append(Parcel("VOID.LAST", seat, tuple(pending), len(tricks),
                          card_points(pending, rs)))
    counted = sum(len(p.cards) for p in out if p.seat is not None)
    if counted != sum(len(c) for c in state.collected):
        return None
    return out


def _wrong_value(state: GameState, diff: Sequence[int]) -> bool:
    """Is ``diff`` a card scored at another value (the same for every copy) by every seat?"""
    per_seat = [(sum(1 for c in got if c.suit == Suit.H), got.count(QUEEN_OF_SPADES))
                for got in state.collected]
    for hearts_delta in range(-2, 3):
        for queen_delta in range(-13, 14):
            if (hearts_delta, queen_delta) == (0, 0):
                continue
            if all(h * hearts_delta + q * queen_delta == d
                   for (h, q), d in zip(per_seat, diff, strict=True)):
                return True
    return False


def card_value_difference(state: GameState, diff: Sequence[int]) -> bool:
    """Is ``diff`` a heart or a Q♠ scored at another value by every seat (``SCORE.CARD_POINTS``)?

    Read from the cards each seat collected in the deal
    (:attr:`~rules_ref.state_reading.PartReadings.collected`).
    """
    return len(diff) == len(state.collected) and _wrong_value(state, diff)


def trace_points(state: GameState, diff: Sequence[int], since: int = 1) -> list[str]:
    """The rules of the parcels that explain ``diff`` (implementation minus reference, per seat).

    A seat short of points lost parcels it collected; a seat with points too
    many took parcels that belong elsewhere (to another seat, or to nobody).
    In this order: the rule every one of whose parcels each seat lost, and
    nothing else (an engine that loses every cancelled card); the rule one of
    whose parcels makes each seat's difference;
    a card scored at another value (``SCORE.CARD_POINTS``, every copy by every
    seat); the rule whose parcels together explain every seat's difference at
    once (an engine that loses every pending pile loses them all); failing
    that, each seat's difference is matched on its own. Returns ``[]`` when
    no parcel explains the difference.

    ``since``: the first trick whose parcels the points have not yet been
    seen to agree on. Where the points agreed until the trick just
    completed (``since`` is its number), a parcel collected before it
    explains the difference only when every parcel of its rule is lost (the
    first step: an engine that scores again at the deal's end) or when
    nothing collected since, nor a card's value, does: an earlier parcel
    whose points happen to equal the difference is a coincidence.
    """
    if not any(diff) or len(diff) != state.players:
        return []
    found = parcels(state)
    if found is None:
        return ["SCORE.CARD_POINTS"] if _wrong_value(state, diff) else []
    # every parcel of one rule lost by the seat that collected it, and nothing else: an
    # engine that misses the rule everywhere (one that loses every cancelled card), which
    # single parcels of other rules may match seat by seat only by chance
    for rule in PARCEL_RULES:
        lost = [0] * len(diff)
        for p in found:
            if p.rule == rule and p.seat is not None:
                lost[p.seat] -= p.points
        if any(lost) and lost == list(diff):
            return [rule]
    # every seat's difference made by one parcel of one rule: the plainest cause, among the
    # parcels collected since the points agreed
    fresh = [p for p in found if p.trick >= since]
    named = _one_parcel_each(state, fresh, diff)
    if named:
        return named
    # a card scored at another value, every copy by every seat, before sums of parcels
    # (with many parcels, some of them add up to almost any small difference) and before
    # the parcels of the points agreed on
    if _wrong_value(state, diff):
        return ["SCORE.CARD_POINTS"]
    if len(fresh) < len(found):
        named = _one_parcel_each(state, found, diff)
        if named:
            return named
    for rule in TRACED_RULES:
        if all(d == 0 or _reaches(_candidates(found, rule, seat, diff), d)
               for seat, d in enumerate(diff)):
            return _refine(state, found, rule, diff)
    named = []
    for seat, d in enumerate(diff):
        if d == 0:
            continue
        match = _match(_changes(found, seat, diff), d)
        if match is None:
            return []  # a difference no parcel explains: not a matter of where cards went
        named.extend(_refine(state, found, match.rule, diff))
    return list(dict.fromkeys(named))


def _one_parcel_each(state: GameState, found: list[Parcel], diff: Sequence[int]) -> list[str]:
    """The rule one of whose parcels in ``found`` makes each seat's difference ([] if none)."""
    for rule in TRACED_RULES:
        if all(d == 0 or d in _candidates(found, rule, seat, diff)
               for seat, d in enumerate(diff)):
            return _refine(state, found, rule, diff)
    return []


def _changes(found: list[Parcel], seat: int, diff: Sequence[int]) -> list[tuple[Parcel, int]]:
    """Each parcel that could make seat ``seat``'s difference, with the change it would make.

    A seat loses a parcel it collected (its points taken away: a parcel of
    negative points, such as one with a 10♦ under ``ten_of_diamonds_points``,
    loses it points below zero), or takes a parcel of nobody's, or of a seat
    whose difference goes the other way (the points added).
    """
    d = diff[seat]
    out = []
    for p in found:
        if not p.points:
            continue
        if p.seat == seat:
            out.append((p, -p.points))
        elif p.seat is None or diff[p.seat] * d < 0:
            out.append((p, p.points))
    return out


def _candidates(found: list[Parcel], rule: str, seat: int, diff: Sequence[int]) -> list[int]:
    """The changes the parcels of ``rule`` could make to seat ``seat``'s points.

    See :func:`_changes`.
    """
    return [change for p, change in _changes(found, seat, diff) if p.rule == rule]


def _reaches(changes: list[int], amount: int) -> bool:
    """Do some of ``changes`` add up to exactly ``amount`` (not zero)?"""
    sums = {0}
    for c in changes[:40]:
        sums |= {s + c for s in sums}
    return amount in sums and amount != 0


def _refine(state: GameState, found: list[Parcel], rule: str, diff: Sequence[int]) -> list[str]:
    """``rule``, or for a trick's own cards the rule of the seat that took them wrongly."""
    if rule != "TRICK.WINNER":
        return [rule]
    out: list[str] = []
    for seat, d in enumerate(diff):
        if d == 0:
            continue
        # the seat that took a trick of another's: its points added to its own
        taken = next((p for p in found if p.rule == rule and p.seat != seat
                      and p.points == d), None)
        if taken is not None:
            out.extend(winner_rules(state.tricks[taken.trick - 1], seat, state.players))
    # a trick's points lost without anybody gaining them: counted at another value
    return list(dict.fromkeys(out)) or ["SCORE.CARD_POINTS"]


def _match(changes: list[tuple[Parcel, int]], amount: int) -> Parcel | None:
    """The parcel (or the first of the parcels of one rule together) making change ``amount``."""
    order = {r: i for i, r in enumerate(TRACED_RULES)}
    ranked = sorted(changes, key=lambda pc: (order.get(pc[0].rule, 99), pc[0].trick))
    for p, change in ranked:
        if change == amount:
            return p
    for rule in TRACED_RULES:
        same = [(p, change) for p, change in ranked if p.rule == rule]
        if len(same) > 1 and sum(change for _, change in same) == amount:
            return same[0][0]
    return None


def _ace_low_winner(t: TrickOutcome) -> Card | None:
    """The uncancelled card of the led suit that wins if the ace ranks below the 2."""
    live = [c for c in t.cards if c.suit == t.led_suit and c not in t.cancelled]
    if not live or max(live, key=lambda c: c.rank).rank != 14:
        return None  # without a live ace the order is the same
    return max(live, key=lambda c: 1 if c.rank == 14 else c.rank)


def winner_rules(t: TrickOutcome, impl: int, players: int) -> list[str]:
    """Rules for a trick the implementation gave to seat ``impl``.

    The seat played a cancelled card (``TRICK.CANCEL``), a card of another
    suit (``TRICK.WINNER``, or ``TRICK.LED_SUIT`` when the led card was
    cancelled and that suit is the first uncancelled card's), the card that
    would win were the ace ranked low (``DECK.RANKING``), or another card of
    the led suit (``TRICK.WINNER``); a void trick given to anybody adds
    ``VOID.TRICK``.
    """
    if not 0 <= impl < players:
        return ["TRICK.WINNER"]
    card = t.cards[(impl - t.leader) % players]
    if card in t.cancelled:
        rules = ["TRICK.CANCEL"]
    elif card.suit != t.led_suit:
        # another suit taken as led once the led card is cancelled, or any suit winning
        live = [c for c in t.cards if c not in t.cancelled]
        relead = t.cards[0] in t.cancelled and bool(live) and live[0].suit == card.suit
        rules = ["TRICK.LED_SUIT" if relead else "TRICK.WINNER"]
    elif card == _ace_low_winner(t):
        rules = ["DECK.RANKING"]
    else:
        rules = ["TRICK.WINNER"]
    if t.winner is None:
        rules.append("VOID.TRICK")
    return rules


_PARCEL_WORDS = {
    "VOID.COLLECT": "the pending pile a trick's winner collects",
    "EXTRAS.FIRST_TRICK": "the extras, which go with the first trick",
    "TRICK.CANCEL": "cancelled cards, which go with their trick",
    "VOID.LAST": "the cards a void last trick leaves pending",
}


def parcel_words(rule: str) -> str:
    """The cards a parcel rule sends, in words ("" for other rules)."""
    return _PARCEL_WORDS.get(rule, "")

