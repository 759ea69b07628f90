"""Is a position one the rules can reach? (``spec/position.md``, "Reachable positions").

:func:`check_position` refuses, with one :class:`~rules_ref.errors.InputError`
naming the field and the reason, a position no game can reach: cards that do
not make up the deck, hand sizes that do not fit the trick number and the
seats that have played, a pending pile that is not a run of void tricks,
extras in the wrong place, a moon shooter who did not collect every heart
and Q♠, and so on. Without a ruleset it checks what holds under every
ruleset; with one, also what that ruleset decides (:mod:`rules_ref.positions.rules`:
passing, the opening leader and lead, trick 1, hearts broken, the moon, the
target).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..cards import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, Suit
from ..deal import FEWEST_PLAYERS, MAX_PLAYERS, extras_count, hand_size
from ..ruleset import Ruleset
from ..scoring import moon_shooter
from ..state_parts import Phase
from ..tricks import seat_at, winning_position
from .model import (
    MAX_DEAL_NUMBER,
    MAX_TOTAL,
    SUIT_NAME,
    ExtrasPlace,
    Position,
    fail,
    pending_tricks,
    played_cards,
)
from .rules import check_ruleset


def check_position(pos: Position, ruleset: Ruleset | None = None) -> Position:
    """Return ``pos`` if the rules can reach it (under ``ruleset``, when given).

    Raises :class:`InputError` ``"FIELD: REASON"`` for the first problem found.
    """
    _check_frame(pos, FEWEST_PLAYERS if ruleset is None else ruleset.min_players)
    if pos.phase is Phase.DEALING:
        _check_dealing(pos)
    else:
        _check_shape(pos)
        _check_cards(pos)
        _check_sizes(pos)
        _check_extras(pos)
        _check_pending(pos)
        _check_collected(pos)
        _check_follow(pos)
        _check_moon(pos)
        if pos.hearts_broken and not any(c.suit == Suit.H or c == QUEEN_OF_SPADES
                                         for c in played_cards(pos)):
            raise fail("hearts_broken", "true, but no heart or Q♠ has been played "
                        "(HEARTS.BROKEN)")
    if ruleset is not None:
        check_ruleset(pos, ruleset)
    return pos


# --- players, deal, dealer, phase, totals ---------------------------------------------------


def _check_frame(pos: Position, fewest: int) -> None:
    """Players ``fewest`` to 11 (5 without a ruleset, else its ``min_players``), and the rest."""
    n = pos.players
    if not fewest <= n <= MAX_PLAYERS:
        hint = (f"; {n} players need min_players = {n}" if FEWEST_PLAYERS <= n < fewest
                else "")
        raise fail("players", f"{n}: the game is for {fewest} to {MAX_PLAYERS} players "
                    f"(PLAYERS.COUNT{hint})")
    if not 1 <= pos.deal_number <= MAX_DEAL_NUMBER:
        raise fail("deal_number", f"{pos.deal_number} is out of range (expected from 1 to "
                    f"{MAX_DEAL_NUMBER}; deals are numbered from 1)")
    _seat("dealer", pos.dealer, n)
    if pos.phase not in (Phase.DEALING, Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE):
        raise fail("phase", f"{str(pos.phase)!r} is not a phase a game continues from")
    if len(pos.totals) != n:
        raise fail("totals", f"{len(pos.totals)} totals for {n} players")
    for seat, total in enumerate(pos.totals):
        if abs(total) > MAX_TOTAL:
            raise fail(f"totals[{seat}]", f"{total} is out of range (expected from "
                        f"{-MAX_TOTAL} to {MAX_TOTAL})")


def _cards_n(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _seat(field: str, seat: int | None, players: int) -> int:
    if seat is None:
        raise fail(field, f"missing: expected a seat (0 to {players - 1})")
    if not 0 <= seat < players:
        raise fail(field, f"{seat} is not a seat of {players} players (0 to {players - 1})")
    return seat


def _check_dealing(pos: Position) -> None:
    empty = {"hands": pos.hands, "passes": pos.passes, "trick_number": pos.trick_number,
             "leader": pos.leader, "trick": pos.trick, "pending": pos.pending,
             "extras": pos.extras, "collected": pos.collected, "uncollected": pos.uncollected,
             "moon_shooter": pos.moon_shooter}
    for field, value in empty.items():
        if value not in (None, ()):
            raise fail(field, "must be empty in the dealing phase: the next deal is not dealt")
    if pos.hearts_broken:
        raise fail("hearts_broken", "must be false in the dealing phase")


# --- shape of each field for the phase ------------------------------------------------------


def _check_shape(pos: Position) -> None:
    n, phase = pos.players, pos.phase
    if len(pos.hands) != n:
        raise fail("hands", f"{len(pos.hands)} hands for {n} players")
    if len(pos.collected) != n:
        raise fail("collected", f"{len(pos.collected)} entries for {n} players")
    if pos.extras is None:
        raise fail("extras", f"missing: a deal in the {phase} phase has its extras somewhere")
    if phase is Phase.PASSING:
        if pos.passes is None or len(pos.passes) != n:
            shown = "missing" if pos.passes is None else f"{len(pos.passes)} entries"
            raise fail("passes", f"{shown}: the passing phase has one entry per seat ({n})")
    elif pos.passes is not None:
        raise fail("passes", f"must be empty in the {phase} phase: passes exist only while "
                    "passing")
    if phase is Phase.PLAYING:
        size = hand_size(n)
        if pos.trick_number is None or not 1 <= pos.trick_number <= size:
            raise fail("trick_number", f"{pos.trick_number} is out of range (a deal of {n} "
                        f"players has tricks 1 to {size})")
        _seat("leader", pos.leader, n)
        if len(pos.trick) >= n:
            raise fail("trick", f"{len(pos.trick)} cards: a trick in progress has fewer cards "
                        f"than the {n} players (a complete trick is resolved at once)")
    else:
        for field, value in (("trick_number", pos.trick_number), ("leader", pos.leader)):
            if value is not None:
                raise fail(field, f"must be empty in the {phase} phase: there is a trick in "
                            "progress only while playing")
        for field, cards in (("trick", pos.trick), ("pending", pos.pending)):
            if cards:
                raise fail(field, f"must be empty in the {phase} phase: cards are on the table "
                            "only while playing")
    if phase is Phase.PASSING and pos.hearts_broken:
        raise fail("hearts_broken", "hearts cannot be broken before the first trick")
    if phase is not Phase.MOON_CHOICE:
        if pos.uncollected:
            raise fail("uncollected", f"must be empty in the {phase} phase: cards go "
                        "uncollected only when the deal has ended")
        if pos.moon_shooter is not None:
            raise fail("moon_shooter", f"must be empty in the {phase} phase: there is a moon "
                        "shooter only in the moon-choice phase")


# --- every card in exactly one place --------------------------------------------------------


def _places(pos: Position) -> Iterable[tuple[str, tuple[Card, ...]]]:
    for seat, hand in enumerate(pos.hands):
        yield f"hands[{seat}]", hand
    for seat, cards in enumerate(pos.passes or ()):
        if cards is not None:
            yield f"passes[{seat}]", cards
    yield "trick", pos.trick
    yield "pending", pos.pending
    for seat, cards in enumerate(pos.collected):
        yield f"collected[{seat}]", cards
    yield "uncollected", pos.uncollected
    if pos.extras is not None and pos.extras.place is ExtrasPlace.FACE_DOWN:
        yield "extras.cards", pos.extras.cards


def _check_cards(pos: Position) -> None:
    counts: Counter[Card] = Counter()
    for _, cards in _places(pos):
        counts.update(cards)
    wrong = [c for c in CARDS if counts[c] != 2]
    if not wrong:
        return
    first = wrong[0]
    where = [f"{name} {cards.count(first)}" if cards.count(first) > 1 else name
             for name, cards in _places(pos) if first in cards]
    found = f"appears {counts[first]} times" if counts[first] != 1 else "appears once"
    at = f" ({', '.join(where)})" if where else ""
    more = f"; {len(wrong) - 1} other card(s) wrong too" if len(wrong) > 1 else ""
    raise fail("cards", f"{first} {found}{at}, but the deck holds every card exactly twice "
                f"(DECK.CARDS){more}")


# --- hand sizes -----------------------------------------------------------------------------


def _check_sizes(pos: Position) -> None:
    n, size = pos.players, hand_size(pos.players)
    if pos.phase is Phase.PASSING:
        assert pos.passes is not None
        lengths = {len(p) for p in pos.passes if p is not None}
        if 0 in lengths:
            raise fail("passes", "a pass of no cards: a seat that has not passed is empty")
        if len(lengths) > 1:
            raise fail("passes", f"passes of {' and '.join(map(str, sorted(lengths)))} cards: "
                        "every seat passes the same number (PASS.CARDS)")
        if all(p is not None for p in pos.passes):
            raise fail("passes", "every seat has passed: the passes would have been exchanged "
                        "and the play begun (PASS.EXCHANGE)")
        passed = lengths.pop() if lengths else 0
        for seat, hand in enumerate(pos.hands):
            done = pos.passes[seat] is not None
            expected = size - passed if done else size
            if len(hand) != expected:
                why = (f"seat {seat} has passed {passed} of its {size}" if done
                       else f"seat {seat} has not passed yet and holds all {size}")
                raise fail(f"hands[{seat}]", f"{_cards_n(len(hand))}, but {why}")
        return
    if pos.phase is Phase.MOON_CHOICE:
        for seat, hand in enumerate(pos.hands):
            if hand:
                raise fail(f"hands[{seat}]", f"{_cards_n(len(hand))}: every hand is empty once "
                            "the deal has ended")
        return
    assert pos.trick_number is not None and pos.leader is not None
    played = {seat_at(pos.leader, i, n) for i in range(len(pos.trick))}
    for seat, hand in enumerate(pos.hands):
        expected = size - pos.trick_number + (0 if seat in played else 1)
        if len(hand) != expected:
            has = "has played to it" if seat in played else "has not played to it yet"
            raise fail(f"hands[{seat}]", f"{_cards_n(len(hand))}, but at trick "
                        f"{pos.trick_number} seat {seat} {has} and holds {expected}")


# --- the extras -----------------------------------------------------------------------------

_PLACES: dict[Phase, tuple[ExtrasPlace, ...]] = {
    Phase.PASSING: (ExtrasPlace.FACE_DOWN,),
    Phase.MOON_CHOICE: (ExtrasPlace.TAKEN, ExtrasPlace.UNCOLLECTED, ExtrasPlace.SPLIT),
}


def _contains(big: Iterable[Card], small: Iterable[Card]) -> bool:
    return not Counter(small) - Counter(big)


def _check_extras(pos: Position) -> None:
    extras = pos.extras
    assert extras is not None
    n, count = pos.players, extras_count(pos.players)
    if len(extras.cards) != count:
        raise fail("extras.cards", f"{_cards_n(len(extras.cards))}, but {n} players leave "
                    f"{count} extras (DEAL.SIZE)")
    if count == 0:
        if extras.place is not ExtrasPlace.NONE:
            raise fail("extras.place", f"{str(extras.place)!r}, but {n} players leave no "
                        "extras: the place is 'none'")
    else:
        allowed: tuple[ExtrasPlace, ...]
        if pos.phase is Phase.PLAYING:
            assert pos.trick_number is not None
            allowed = ((ExtrasPlace.FACE_DOWN,) if pos.trick_number == 1
                       else (ExtrasPlace.PENDING, ExtrasPlace.TAKEN))
        else:
            allowed = _PLACES[pos.phase]
        if extras.place not in allowed:
            when = (f"at trick {pos.trick_number}" if pos.phase is Phase.PLAYING
                    else f"in the {pos.phase} phase")
            raise fail("extras.place", f"{str(extras.place)!r}, but {when} the extras are "
                        f"{' or '.join(repr(str(p)) for p in allowed)} (EXTRAS.FIRST_TRICK)")
    if extras.place is ExtrasPlace.TAKEN:
        seat = _seat("extras.seat", extras.seat, n)
        if not _contains(pos.collected[seat], extras.cards):
            raise fail("extras.cards", f"taken by seat {seat}, but collected[{seat}] does not "
                        "hold them")
    elif extras.seat is not None:
        raise fail("extras.seat", f"must be empty when the extras are {str(extras.place)!r}: "
                    "a seat is named only when it took them")
    if extras.place is ExtrasPlace.UNCOLLECTED and not _contains(pos.uncollected, extras.cards):
        raise fail("extras.cards", "uncollected, but uncollected does not hold them")
    if extras.place is ExtrasPlace.SPLIT and not _contains(
            [c for cards in pos.collected for c in cards], extras.cards):
        raise fail("extras.cards", "split between two seats, but the collected cards do not "
                    "hold them")


# --- the pending pile -----------------------------------------------------------------------


def _check_pending(pos: Position) -> None:
    extras = pos.extras
    assert extras is not None
    n = pos.players
    in_pile = extras.place is ExtrasPlace.PENDING
    if pos.phase is not Phase.PLAYING:
        return
    assert pos.trick_number is not None
    before = pos.trick_number - 1
    e = len(extras.cards) if in_pile else 0
    if in_pile:
        if len(pos.pending) != before * n + e:
            raise fail("pending", f"{len(pos.pending)} cards, but the extras are pending, so "
                        f"all {before} trick(s) so far were set aside: {before} x {n} cards + "
                        f"{e} extras = {before * n + e} (VOID.TRICK)")
        if pos.pending[n:n + e] != extras.cards:
            raise fail("pending", "the extras must follow the first trick's cards in the pile "
                        "(EXTRAS.FIRST_TRICK)")
    if (len(pos.pending) - e) % n:
        shown = f"{len(pos.pending) - e} cards besides the extras" if e else \
            f"{len(pos.pending)} cards"
        raise fail("pending", f"{shown} is not a whole number of set-aside tricks of {n} "
                    "cards (VOID.TRICK)")
    # More set-aside tricks than tricks played cannot get here: the cards would not add up.
    for i, cards in enumerate(pending_tricks(pos)):
        win = winning_position(cards)
        if win is not None:
            start = i * n + (e if i else 0) + 1
            raise fail("pending", f"cards {start} to {start + n - 1} are not a void trick: "
                        f"{cards[win]} wins it (TRICK.WINNER, VOID.TRICK)")


# --- collected cards ------------------------------------------------------------------------


def _check_collected(pos: Position) -> None:
    if pos.phase is not Phase.PLAYING:
        return
    extras = pos.extras
    assert extras is not None and pos.trick_number is not None and pos.leader is not None
    n = pos.players
    for seat, cards in enumerate(pos.collected):
        won = len(cards)
        if extras.place is ExtrasPlace.TAKEN and seat == extras.seat:
            won -= len(extras.cards)
        if won % n:
            raise fail(f"collected[{seat}]", f"{_cards_n(won)} from tricks is not a whole "
                        f"number of tricks of {n} cards (VOID.COLLECT)")
    won_tricks = pos.trick_number - 1 - len(pending_tricks(pos))
    if won_tricks and not pos.collected[pos.leader]:
        raise fail("leader", f"seat {pos.leader} leads trick {pos.trick_number} but has "
                    "collected nothing: the leader won the last trick that was not void "
                    "(TRICK.NEXT_LEADER, VOID.LEADER)")


# --- following suit -------------------------------------------------------------------------


def _check_follow(pos: Position) -> None:
    """A seat that did not follow suit held no card of the led suit, and still holds none.

    A 2♣ played to trick 1 is left to the ruleset's check (``position_rules``):
    under ``first_trick_two_of_clubs = must-play`` it goes there over the led suit.
    """
    if pos.phase is not Phase.PLAYING:
        return
    assert pos.leader is not None and pos.trick_number is not None
    n = pos.players
    pending = pending_tricks(pos)
    shown = [("trick", pos.trick, pos.trick_number)] + [
        ("pending", t, pos.trick_number - len(pending) + k) for k, t in enumerate(pending)]
    for field, cards, number in shown:
        if not cards:
            continue
        suit = cards[0].suit
        for i, c in enumerate(cards):
            seat = seat_at(pos.leader, i, n)
            if number == 1 and c == TWO_OF_CLUBS:
                continue
            if c.suit != suit and any(h.suit == suit for h in pos.hands[seat]):
                raise fail(field, f"seat {seat} played {c} on a {SUIT_NAME[suit]} lead, but "
                            f"hands[{seat}] still holds a {SUIT_NAME[suit]} (FOLLOW.SUIT)")


# --- the moon -------------------------------------------------------------------------------


def _check_moon(pos: Position) -> None:
    if pos.phase is not Phase.MOON_CHOICE:
        return
    shooter = _seat("moon_shooter", pos.moon_shooter, pos.players)
    if moon_shooter(pos.collected) != shooter:
        raise fail("moon_shooter", f"seat {shooter} has not collected all 26 hearts and both "
                    "Q♠, so there is no moon choice (MOON.CONDITION)")
