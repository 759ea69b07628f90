"""Is a position one the rules can reach? (``spec/position.md``, "Reachable positions").

:func:`check_position` refuses, with one :class:`~rules_ref.errors.InputError`
naming the field and the reason, a position no game can reach: cards that do
not make up the deck, hand sizes that do not fit the trick number and the
seats that have played, a pending pile that is not a run of void tricks,
extras in the wrong place, a moon shooter who did not collect every heart
and Q♠, and so on. Without a ruleset it checks what holds under every
ruleset; with one, also what that ruleset decides (passing, the opening
leader, hearts broken, the moon choice, the target).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .cards import CARDS, QUEEN_OF_SPADES, Card, Suit, is_penalty
from .deal import check_player_count, extras_count, hand_size
from .errors import InputError, SetupError
from .game_end import is_game_over
from .leading import opening_leader
from .passing import pass_direction, pass_offset
from .position_model import MAX_DEAL_NUMBER, MAX_TOTAL, ExtrasPlace, Position
from .ruleset import HeartsBrokenBy, LastTrickVoid, Ruleset
from .scoring import moon_options, moon_shooter
from .state import Phase
from .tricks import seat_at, winning_position


def _fail(field: str, reason: str) -> InputError:
    return InputError(f"{field}: {reason}")


def check_position(pos: Position, ruleset: Ruleset | None = None) -> Position:
    """Return ``pos`` if the rules can reach it (under ``ruleset``, when given).

    Raises :class:`InputError` ``"FIELD: REASON"`` for the first problem found.
    """
    _check_frame(pos)
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
    if ruleset is not None:
        _check_ruleset(pos, ruleset)
    return pos


# --- players, deal, dealer, phase, totals ---------------------------------------------------


def _check_frame(pos: Position) -> None:
    try:
        check_player_count(pos.players)
    except SetupError as exc:
        raise _fail("players", str(exc)) from None
    n = pos.players
    if not 1 <= pos.deal_number <= MAX_DEAL_NUMBER:
        raise _fail("deal_number", f"{pos.deal_number} is out of range (expected from 1 to "
                    f"{MAX_DEAL_NUMBER}; deals are numbered from 1)")
    _seat("dealer", pos.dealer, n)
    if pos.phase not in (Phase.DEALING, Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE):
        raise _fail("phase", f"{str(pos.phase)!r} is not a phase a game continues from")
    if len(pos.totals) != n:
        raise _fail("totals", f"{len(pos.totals)} totals for {n} players")
    for seat, total in enumerate(pos.totals):
        if abs(total) > MAX_TOTAL:
            raise _fail(f"totals[{seat}]", f"{total} is out of range (expected from "
                        f"{-MAX_TOTAL} to {MAX_TOTAL})")


def _seat(field: str, seat: int | None, players: int) -> int:
    if seat is None or not 0 <= seat < players:
        raise _fail(field, f"{seat} is not a seat of {players} players (0 to {players - 1})")
    return seat


def _check_dealing(pos: Position) -> None:
    empty = {"hands": pos.hands, "passes": pos.passes, "trick_number": pos.trick_number,
             "leader": pos.leader, "trick": pos.trick, "pending": pos.pending,
             "extras": pos.extras, "collected": pos.collected, "uncollected": pos.uncollected,
             "moon_shooter": pos.moon_shooter}
    for field, value in empty.items():
        if value not in (None, ()):
            raise _fail(field, "must be empty in the dealing phase: the next deal is not dealt")
    if pos.hearts_broken:
        raise _fail("hearts_broken", "must be false in the dealing phase")


# --- shape of each field for the phase ------------------------------------------------------


def _check_shape(pos: Position) -> None:
    n, phase = pos.players, pos.phase
    if len(pos.hands) != n:
        raise _fail("hands", f"{len(pos.hands)} hands for {n} players")
    if len(pos.collected) != n:
        raise _fail("collected", f"{len(pos.collected)} entries for {n} players")
    if pos.extras is None:
        raise _fail("extras", f"missing: a deal in the {phase} phase has its extras somewhere")
    if phase is Phase.PASSING:
        if pos.passes is None or len(pos.passes) != n:
            shown = "missing" if pos.passes is None else f"{len(pos.passes)} entries"
            raise _fail("passes", f"{shown}: the passing phase has one entry per seat ({n})")
    elif pos.passes is not None:
        raise _fail("passes", f"must be empty in the {phase} phase: passes exist only while "
                    "passing")
    if phase is Phase.PLAYING:
        size = hand_size(n)
        if pos.trick_number is None or not 1 <= pos.trick_number <= size:
            raise _fail("trick_number", f"{pos.trick_number} is out of range (a deal of {n} "
                        f"players has tricks 1 to {size})")
        _seat("leader", pos.leader, n)
        if len(pos.trick) >= n:
            raise _fail("trick", f"{len(pos.trick)} cards: a trick in progress has fewer cards "
                        f"than the {n} players (a complete trick is resolved at once)")
    else:
        for field, value in (("trick_number", pos.trick_number), ("leader", pos.leader)):
            if value is not None:
                raise _fail(field, f"must be empty in the {phase} phase: there is a trick in "
                            "progress only while playing")
        for field, cards in (("trick", pos.trick), ("pending", pos.pending)):
            if cards:
                raise _fail(field, f"must be empty in the {phase} phase: cards are on the table "
                            "only while playing")
    if phase is Phase.PASSING and pos.hearts_broken:
        raise _fail("hearts_broken", "hearts cannot be broken before the first trick")
    if phase is not Phase.MOON_CHOICE:
        if pos.uncollected:
            raise _fail("uncollected", f"must be empty in the {phase} phase: cards go "
                        "uncollected only when the deal has ended")
        if pos.moon_shooter is not None:
            raise _fail("moon_shooter", f"must be empty in the {phase} phase: there is a moon "
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
    raise _fail("cards", f"{first} {found}{at}, but the deck holds every card exactly twice "
                f"(DECK.CARDS){more}")


# --- hand sizes -----------------------------------------------------------------------------


def _check_sizes(pos: Position) -> None:
    n, size = pos.players, hand_size(pos.players)
    if pos.phase is Phase.PASSING:
        assert pos.passes is not None
        lengths = {len(p) for p in pos.passes if p is not None}
        if 0 in lengths:
            raise _fail("passes", "a pass of no cards: a seat that has not passed is empty")
        if len(lengths) > 1:
            raise _fail("passes", f"passes of {' and '.join(map(str, sorted(lengths)))} cards: "
                        "every seat passes the same number (PASS.CARDS)")
        if all(p is not None for p in pos.passes):
            raise _fail("passes", "every seat has passed: the passes would have been exchanged "
                        "and the play begun (PASS.EXCHANGE)")
        passed = lengths.pop() if lengths else 0
        for seat, hand in enumerate(pos.hands):
            done = pos.passes[seat] is not None
            expected = size - passed if done else size
            if len(hand) != expected:
                why = (f"seat {seat} has passed {passed} of its {size}" if done
                       else f"seat {seat} has not passed yet and holds all {size}")
                raise _fail(f"hands[{seat}]", f"{len(hand)} cards, but {why}")
        return
    if pos.phase is Phase.MOON_CHOICE:
        for seat, hand in enumerate(pos.hands):
            if hand:
                raise _fail(f"hands[{seat}]", f"{len(hand)} cards: every hand is empty once "
                            "the deal has ended")
        return
    assert pos.trick_number is not None and pos.leader is not None
    played = {seat_at(pos.leader, i, n) for i in range(len(pos.trick))}
    for seat, hand in enumerate(pos.hands):
        expected = size - pos.trick_number + (0 if seat in played else 1)
        if len(hand) != expected:
            has = "has played" if seat in played else "has not played yet"
            raise _fail(f"hands[{seat}]", f"{len(hand)} cards, but at trick {pos.trick_number} "
                        f"seat {seat} {has} to it and holds {expected}")


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
        raise _fail("extras.cards", f"{len(extras.cards)} cards, but {n} players leave "
                    f"{count} extras (DEAL.SIZE)")
    if count == 0:
        if extras.place is not ExtrasPlace.NONE:
            raise _fail("extras.place", f"{str(extras.place)!r}, but {n} players leave no "
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
            raise _fail("extras.place", f"{str(extras.place)!r}, but {when} the extras are "
                        f"{' or '.join(repr(str(p)) for p in allowed)} (EXTRAS.FIRST_TRICK)")
    if extras.place is ExtrasPlace.TAKEN:
        seat = _seat("extras.seat", extras.seat, n)
        if not _contains(pos.collected[seat], extras.cards):
            raise _fail("extras.cards", f"taken by seat {seat}, but collected[{seat}] does not "
                        "hold them")
    elif extras.seat is not None:
        raise _fail("extras.seat", f"must be empty when the extras are {str(extras.place)!r}: "
                    "a seat is named only when it took them")
    if extras.place is ExtrasPlace.UNCOLLECTED and not _contains(pos.uncollected, extras.cards):
        raise _fail("extras.cards", "uncollected, but uncollected does not hold them")
    if extras.place is ExtrasPlace.SPLIT and not _contains(
            [c for cards in pos.collected for c in cards], extras.cards):
        raise _fail("extras.cards", "split between two seats, but the collected cards do not "
                    "hold them")


# --- the pending pile -----------------------------------------------------------------------


def pending_tricks(pos: Position) -> list[tuple[Card, ...]]:
    """The set-aside tricks of the pending pile, each in play order (without the extras)."""
    n = pos.players
    pile = pos.pending
    if pos.extras is not None and pos.extras.place is ExtrasPlace.PENDING:
        pile = pile[:n] + pile[n + len(pos.extras.cards):]
    return [pile[i:i + n] for i in range(0, len(pile), n)]


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
            raise _fail("pending", f"{len(pos.pending)} cards, but the extras are pending, so "
                        f"all {before} trick(s) so far were set aside: {before} x {n} cards + "
                        f"{e} extras = {before * n + e} (VOID.TRICK)")
        if pos.pending[n:n + e] != extras.cards:
            raise _fail("pending", "the extras must follow the first trick's cards in the pile "
                        "(EXTRAS.FIRST_TRICK)")
    if (len(pos.pending) - e) % n:
        shown = f"{len(pos.pending) - e} cards besides the extras" if e else \
            f"{len(pos.pending)} cards"
        raise _fail("pending", f"{shown} is not a whole number of set-aside tricks of {n} "
                    "cards (VOID.TRICK)")
    tricks = pending_tricks(pos)
    if len(tricks) > before:
        raise _fail("pending", f"{len(tricks)} set-aside trick(s), but only {before} trick(s) "
                    f"were played before trick {pos.trick_number}")
    for i, cards in enumerate(tricks):
        win = winning_position(cards)
        if win is not None:
            start = i * n + (e if i else 0) + 1
            raise _fail("pending", f"cards {start} to {start + n - 1} are not a void trick: "
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
            raise _fail(f"collected[{seat}]", f"{won} card(s) from tricks is not a whole number "
                        f"of tricks of {n} cards (VOID.COLLECT)")
    won_tricks = pos.trick_number - 1 - len(pending_tricks(pos))
    if won_tricks and not pos.collected[pos.leader]:
        raise _fail("leader", f"seat {pos.leader} leads trick {pos.trick_number} but has "
                    "collected nothing: the leader won the last trick that was not void "
                    "(TRICK.NEXT_LEADER, VOID.LEADER)")


# --- following suit -------------------------------------------------------------------------


def _check_follow(pos: Position) -> None:
    """A seat that did not follow suit held no card of the led suit, and still holds none."""
    if pos.phase is not Phase.PLAYING:
        return
    assert pos.leader is not None
    n = pos.players
    shown = [("trick", pos.trick)] + [("pending", t) for t in pending_tricks(pos)]
    for field, cards in shown:
        if not cards:
            continue
        suit = cards[0].suit
        for i, c in enumerate(cards):
            seat = seat_at(pos.leader, i, n)
            if c.suit != suit and any(h.suit == suit for h in pos.hands[seat]):
                raise _fail(field, f"seat {seat} played {c} on a {_SUIT_NAME[suit]} lead, but "
                            f"hands[{seat}] still holds a {_SUIT_NAME[suit]} (FOLLOW.SUIT)")


_SUIT_NAME = {Suit.C: "club", Suit.D: "diamond", Suit.H: "heart", Suit.S: "spade"}


# --- the moon -------------------------------------------------------------------------------


def _check_moon(pos: Position) -> None:
    if pos.phase is not Phase.MOON_CHOICE:
        return
    shooter = _seat("moon_shooter", pos.moon_shooter, pos.players)
    if moon_shooter(pos.collected) != shooter:
        raise _fail("moon_shooter", f"seat {shooter} has not collected all 26 hearts and both "
                    "Q♠, so there is no moon choice (MOON.CONDITION)")


# --- what the ruleset decides ---------------------------------------------------------------


def _check_ruleset(pos: Position, rs: Ruleset) -> None:
    n = pos.players
    for seat, total in enumerate(pos.totals):
        if is_game_over([total], rs):
            raise _fail(f"totals[{seat}]", f"{total} reaches the target {rs.target}: the "
                        "game would be over (GAME.END)")
    if pos.phase is Phase.PASSING:
        direction = pass_direction(pos.deal_number, rs)
        if pass_offset(direction, n) is None:
            raise _fail("phase", f"passing, but deal {pos.deal_number} has no passing under "
                        f"this ruleset (pass direction {direction}, PASS.DIRECTION)")
        assert pos.passes is not None
        for seat, cards in enumerate(pos.passes):
            if cards is not None and len(cards) != rs.pass_count:
                raise _fail(f"passes[{seat}]", f"{len(cards)} cards, but this ruleset passes "
                            f"{rs.pass_count} (PASS.CARDS)")
    if pos.phase is Phase.MOON_CHOICE and not moon_options(rs):
        raise _fail("phase", f"moon-choice, but this ruleset has no moon choice (moon = "
                    f"{rs.moon}, MOON.CHOICE)")
    extras = pos.extras
    if extras is not None:
        needs = {ExtrasPlace.UNCOLLECTED: LastTrickVoid.NOBODY,
                 ExtrasPlace.SPLIT: LastTrickVoid.SPLIT_HIGHEST_PAIR}.get(extras.place)
        if needs is not None and rs.last_trick_void is not needs:
            raise _fail("extras.place", f"{str(extras.place)!r} happens only under "
                        f"last_trick_void = {needs} (VOID.LAST)")
    if pos.phase is Phase.PLAYING:
        _check_opening_leader(pos, rs)
    if pos.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
        _check_hearts_broken(pos, rs)


def _check_opening_leader(pos: Position, rs: Ruleset) -> None:
    """While every trick so far was void, the opening leader still leads (``VOID.LEADER``)."""
    assert pos.trick_number is not None and pos.leader is not None
    tricks = pending_tricks(pos)
    if len(tricks) != pos.trick_number - 1:
        return
    n = pos.players
    start = [list(h) for h in pos.hands]
    for cards in [*tricks, pos.trick]:
        for i, c in enumerate(cards):
            start[seat_at(pos.leader, i, n)].append(c)
    expected = opening_leader(pos.dealer, [sorted(h) for h in start], rs)
    if expected != pos.leader:
        so_far = "" if pos.trick_number == 1 else " (every trick so far was void)"
        raise _fail("leader", f"seat {pos.leader} leads trick {pos.trick_number}{so_far}, but the "
                    f"opening lead belongs to seat {expected} (LEAD.OPENING_LEADER)")


def played_cards(pos: Position) -> Counter[Card]:
    """The cards played to tricks so far this deal: the deck less hands, passes and extras."""
    counts = Counter({c: 2 for c in CARDS})
    for cards in pos.hands:
        counts.subtract(cards)
    for p in pos.passes or ():
        counts.subtract(p or ())
    if pos.extras is not None:
        counts.subtract(pos.extras.cards)
    return +counts


def _check_hearts_broken(pos: Position, rs: Ruleset) -> None:
    played = played_cards(pos)
    rule = rs.hearts_broken_by
    if rule in (HeartsBrokenBy.HEART, HeartsBrokenBy.HEART_DISCARD):
        breakers = sorted(c for c in played if c.suit == Suit.H)
        what = "no heart"
    else:
        breakers = sorted(c for c in played if is_penalty(c))
        what = "no heart or Q♠"
    if pos.hearts_broken and not breakers:
        raise _fail("hearts_broken", f"true, but {what} has been played (HEARTS.BROKEN)")
    if pos.hearts_broken:
        return
    if rule is HeartsBrokenBy.HEART_DISCARD:
        for cards in [pos.trick, *pending_tricks(pos)]:
            for c in cards:
                if c.suit == Suit.H and cards[0].suit != Suit.H:
                    raise _fail("hearts_broken", f"false, but {c} was played on a "
                                f"{_SUIT_NAME[cards[0].suit]} lead (HEARTS.BROKEN)")
    elif breakers:
        first = next((c for c in breakers if c != QUEEN_OF_SPADES), breakers[0])
        raise _fail("hearts_broken", f"false, but {first} has been played (HEARTS.BROKEN)")

