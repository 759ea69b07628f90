"""What the ruleset decides about a position (``spec/position.md``, checks 12 to 17).

:func:`check_ruleset` is the part of
:func:`rules_ref.positions.check.check_position` that needs the ruleset a
game would continue under: no total at the target, passing only on a deal
with passing and with the ruleset's pass count, a moon choice only where
the ruleset offers one, the opening leader and the opening lead while every
trick so far was void, the first-trick switch on the tricks on the table,
and whether hearts are broken.
"""

from __future__ import annotations

from ..cards import QUEEN_OF_SPADES, Suit, is_penalty
from ..following import first_trick_plays, follows, two_of_clubs_duty
from ..game_end import is_game_over
from ..leading import opening_leader, opening_leads
from ..passing import pass_direction, pass_offset
from ..ruleset import HeartsBrokenBy, LastTrickVoid, OpeningLead, Ruleset
from ..scoring import moon_options
from ..state_parts import Phase
from ..tricks import seat_at
from .model import SUIT_NAME, ExtrasPlace, Position, fail, pending_tricks, played_cards


def check_ruleset(pos: Position, rs: Ruleset) -> None:
    n = pos.players
    for seat, total in enumerate(pos.totals):
        if is_game_over([total], rs):
            raise fail(f"totals[{seat}]", f"{total} reaches the target {rs.target}: the "
                        "game would be over (GAME.END)")
    if pos.phase is Phase.PASSING:
        direction = pass_direction(pos.deal_number, rs)
        if pass_offset(direction, n) is None:
            raise fail("phase", f"passing, but deal {pos.deal_number} has no passing under "
                        f"this ruleset (pass direction {direction}, PASS.DIRECTION)")
        assert pos.passes is not None
        for seat, cards in enumerate(pos.passes):
            if cards is not None and len(cards) != rs.pass_count:
                raise fail(f"passes[{seat}]", f"{len(cards)} cards, but this ruleset passes "
                            f"{rs.pass_count} (PASS.CARDS)")
    if pos.phase is Phase.MOON_CHOICE and not moon_options(rs):
        raise fail("phase", f"moon-choice, but this ruleset has no moon choice (moon = "
                    f"{rs.moon}, MOON.CHOICE)")
    extras = pos.extras
    if extras is not None:
        needs = {ExtrasPlace.UNCOLLECTED: LastTrickVoid.NOBODY,
                 ExtrasPlace.SPLIT: LastTrickVoid.SPLIT_HIGHEST_PAIR}.get(extras.place)
        if needs is not None and rs.last_trick_void is not needs:
            raise fail("extras.place", f"{str(extras.place)!r} happens only under "
                        f"last_trick_void = {needs} (VOID.LAST)")
    if pos.phase is Phase.PLAYING:
        _check_opening_leader(pos, rs)
        _check_plays(pos, rs)
    if pos.phase in (Phase.PLAYING, Phase.MOON_CHOICE):
        _check_hearts_broken(pos, rs)


def _check_opening_leader(pos: Position, rs: Ruleset) -> None:
    """While every trick so far was void, the opening leader still leads (``VOID.LEADER``).

    Under ``opening_lead = two-of-clubs-dealt`` the leader depends on the
    hands as dealt, which a position does not hold once a pass has moved
    cards: in a deal that passed, any leader is accepted.
    """
    assert pos.trick_number is not None and pos.leader is not None
    tricks = pending_tricks(pos)
    if len(tricks) != pos.trick_number - 1:
        return
    if rs.opening_lead is OpeningLead.TWO_OF_CLUBS_DEALT and pass_offset(
            pass_direction(pos.deal_number, rs), pos.players) is not None:
        return
    n = pos.players
    start = [list(h) for h in pos.hands]
    for cards in [*tricks, pos.trick]:
        for i, c in enumerate(cards):
            start[seat_at(pos.leader, i, n)].append(c)
    expected = opening_leader(pos.dealer, [sorted(h) for h in start], rs)
    if expected != pos.leader:
        so_far = "" if pos.trick_number == 1 else " (every trick so far was void)"
        raise fail("leader", f"seat {pos.leader} leads trick {pos.trick_number}{so_far}, but the "
                    f"opening lead belongs to seat {expected} (LEAD.OPENING_LEADER)")


def _check_hearts_broken(pos: Position, rs: Ruleset) -> None:
    played = played_cards(pos)
    rule = rs.hearts_broken_by
    if rule in (HeartsBrokenBy.HEART, HeartsBrokenBy.HEART_DISCARD, HeartsBrokenBy.HEART_NOT_LED):
        breakers = sorted(c for c in played if c.suit == Suit.H)
        what = "no heart"
    else:
        breakers = sorted(c for c in played if is_penalty(c))
        what = "no heart or Q♠"
    if pos.hearts_broken and not breakers:
        raise fail("hearts_broken", f"true, but {what} has been played (HEARTS.BROKEN)")
    if pos.hearts_broken:
        return
    if rule is HeartsBrokenBy.HEART_DISCARD:
        for cards in [pos.trick, *pending_tricks(pos)]:
            for c in cards:
                if c.suit == Suit.H and cards[0].suit != Suit.H:
                    raise fail("hearts_broken", f"false, but {c} was played on a "
                                f"{SUIT_NAME[cards[0].suit]} lead (HEARTS.BROKEN)")
    elif rule is HeartsBrokenBy.HEART_NOT_LED:
        for cards in [pos.trick, *pending_tricks(pos)]:
            for c in cards[1:]:
                if c.suit == Suit.H:
                    raise fail("hearts_broken", f"false, but {c} was played to a trick it did "
                                "not lead (HEARTS.BROKEN)")
    elif breakers:
        first = next((c for c in breakers if c != QUEEN_OF_SPADES), breakers[0])
        raise fail("hearts_broken", f"false, but {first} has been played (HEARTS.BROKEN)")



def _check_plays(pos: Position, rs: Ruleset) -> None:
    """Trick 1, when it is still on the table, was played by the rules.

    That is ``LEAD.OPENING_CARD`` for its lead and ``FOLLOW.FIRST_TRICK``
    for the rest (``FOLLOW.SUIT`` holds whatever the ruleset).
    The set-aside tricks and the trick in progress were all led by the
    present leader (``VOID.LEADER``), so each card's seat is known, and each
    seat's hand before a trick is its hand now and the cards it played since.
    """
    assert pos.trick_number is not None and pos.leader is not None
    n = pos.players
    shown = [("pending", t) for t in pending_tricks(pos)] + [("trick", pos.trick)]
    hands = [list(h) for h in pos.hands]
    for back, (field, cards) in enumerate(reversed(shown)):
        number = pos.trick_number - back
        for i, c in enumerate(cards):
            hands[seat_at(pos.leader, i, n)].append(c)
        if number != 1 or not cards:
            continue
        lead = sorted(hands[pos.leader])
        if cards[0] not in opening_leads(tuple(lead), rs):
            raise fail(field, f"seat {pos.leader} opened the deal with {cards[0]}, which this "
                       f"ruleset does not allow from its hand (opening_lead = "
                       f"{rs.opening_lead}, LEAD.OPENING_CARD)")
        suit = cards[0].suit
        for i, c in enumerate(cards[1:], 1):
            seat = seat_at(pos.leader, i, n)
            held = tuple(sorted(hands[seat]))
            if c not in first_trick_plays(follows(held, suit), held, suit, 1, rs):
                if two_of_clubs_duty(held, 1, rs):
                    raise fail(field, f"seat {seat} played {c} to trick 1 while holding a 2♣, "
                               "which it must play there (first_trick_two_of_clubs = "
                               "must-play, FOLLOW.FIRST_TRICK)")
                if c not in follows(held, suit):
                    raise fail(field, f"seat {seat} played {c} on a {SUIT_NAME[suit]} lead "
                               f"while holding a {SUIT_NAME[suit]} (FOLLOW.SUIT)")
                raise fail(field, f"seat {seat} discarded {c} on trick 1 while holding a card "
                           "that is not a heart or Q♠ (FOLLOW.FIRST_TRICK)")
