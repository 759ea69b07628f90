"""The kinds of illegal action a conform run offers, and the action of each kind.

Every kind is named in words (:data:`KINDS`); :func:`kinds_for` lists the
kinds that exist in a state (a second pass needs a seat that has passed, a
play by a seat that has already played needs a trick begun) and
:func:`make` builds the action of one kind. Each action is one the reference
rejects, in the way ``spec/protocol.md`` sends it; the runner expects the
implementation to reject it too and to leave its game unchanged. The
summary counts the offers by kind (``offers``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

from ..actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from ..cards import CARDS, TWO_OF_CLUBS, Card, full_deck
from ..deal import MAX_PLAYERS
from ..leading import opening_leader, opening_leads
from ..ruleset import PassForbidden
from ..state import GameState
from ..state_parts import PLAYING, Phase

FORBIDDEN_CARD = "a card the seat holds but may not play"
CARD_NOT_HELD = "a play of a card the seat does not hold"
OUT_OF_TURN = "a play out of turn"
PLAYED_ALREADY = "a play by a seat that has already played to the trick"
MOON_WHILE_PLAYING = "a moon choice while playing"
PASS_WHILE_PLAYING = "a pass while playing"
PASS_SIZE = "a pass of the wrong number of cards"
PASS_AGAIN = "a second pass by a seat"
PASS_NOT_HELD = "a pass of a card the seat does not hold"
PASS_OTHERS = "a pass of a card another seat holds"
PASS_TWICE = "a pass naming a card more often than the seat holds it"
PASS_FORBIDDEN = "a pass of a card the ruleset forbids passing"
PLAY_WHILE_PASSING = "a play while passing"
MOON_WHILE_PASSING = "a moon choice while passing"
MOON_OTHER_SEAT = "a moon choice by another seat than the shooter"
PLAY_WHILE_CHOOSING = "a play while the shooter chooses"
DEAL_MID_DEAL = "a deal in the middle of a deal"
NO_SUCH_SEAT = "an action naming a seat that does not exist"
BAD_DEAL = "a deal whose cards are not the two packs"
BAD_SIZES = "a deal of the two packs in hands of the wrong sizes"
PLAY_BETWEEN_DEALS = "a play between deals"
AFTER_END = "an action after the game has ended"

#: Every kind, in a stable order (the summary's ``offers`` lists them all).
KINDS = (FORBIDDEN_CARD, CARD_NOT_HELD, OUT_OF_TURN, PLAYED_ALREADY, MOON_WHILE_PLAYING,
         PASS_WHILE_PLAYING, PASS_SIZE, PASS_AGAIN, PASS_NOT_HELD, PASS_OTHERS, PASS_TWICE,
         PASS_FORBIDDEN, PLAY_WHILE_PASSING, MOON_WHILE_PASSING, MOON_OTHER_SEAT,
         PLAY_WHILE_CHOOSING, DEAL_MID_DEAL, NO_SUCH_SEAT, BAD_DEAL, BAD_SIZES,
         PLAY_BETWEEN_DEALS, AFTER_END)


def _forbidden(state: GameState) -> list[Card]:
    seat = state.to_act
    assert seat is not None
    legal = state.legal_plays()
    return [c for c in dict.fromkeys(state.hands[seat]) if c not in legal]


def _played(state: GameState) -> list[int]:
    leader, players = state.leader, state.players
    return [(leader + i) % players for i in range(len(state.trick))]


def _twice(state: GameState) -> tuple[Card, ...] | None:
    """A pass of the right size naming a card once more than the first seat to pass holds it."""
    seat = state.waiting_for[0]
    hand = Counter(state.hands[seat])
    p = state.ruleset.pass_count
    for c, k in sorted(hand.items()):
        if k + 1 > p:
            continue
        rest = [x for x in state.hands[seat] if x != c][:p - k - 1]
        if len(rest) == p - k - 1:
            return tuple(sorted([c] * (k + 1) + rest))
    return None


def _forbidden_pass(state: GameState) -> Pass | None:
    """A pass of the right size with a 2♣, under ``pass_forbidden = two-of-clubs``, by the
    first seat yet to pass that holds one."""
    if state.ruleset.pass_forbidden is not PassForbidden.TWO_OF_CLUBS:
        return None
    p = state.ruleset.pass_count
    for seat in state.waiting_for:
        hand = state.hands[seat]
        others = [c for c in hand if c != TWO_OF_CLUBS][:p - 1]
        if TWO_OF_CLUBS in hand and len(others) == p - 1:
            return Pass(seat, tuple(sorted((TWO_OF_CLUBS, *others))))
    return None


def kinds_for(state: GameState) -> tuple[str, ...]:
    """The kinds of illegal action that exist in ``state``."""
    phase = state.phase
    players = state.players
    # A seat number the protocol can carry (0 to 10) that the game does not have.
    no_such_seat = (NO_SUCH_SEAT,) if players < MAX_PLAYERS else ()
    if phase is PLAYING:  # most offers: looked at first
        seat = state.to_act
        assert seat is not None
        trick = len(state.trick)
        # a card held but not legal: fewer legal plays than distinct cards in the hand
        forbidden = len(state.legal_plays()) < len(set(state.hands[seat]))
        return (*((FORBIDDEN_CARD,) if forbidden else ()), CARD_NOT_HELD,
                *((OUT_OF_TURN,) if trick < players - 1 else ()),
                *((PLAYED_ALREADY,) if trick else ()),
                MOON_WHILE_PLAYING, PASS_WHILE_PLAYING, DEAL_MID_DEAL, *no_such_seat)
    if phase is Phase.GAME_OVER:
        return (AFTER_END,)
    if phase is Phase.DEALING:
        return (BAD_DEAL, BAD_SIZES, PLAY_BETWEEN_DEALS, *no_such_seat)
    out: list[str] = []
    if phase is Phase.PASSING:
        out += [PASS_SIZE, PASS_NOT_HELD, PASS_OTHERS]
        if any(p is not None for p in state.passes):
            out.append(PASS_AGAIN)
        if _twice(state) is not None:
            out.append(PASS_TWICE)
        if _forbidden_pass(state) is not None:
            out.append(PASS_FORBIDDEN)
        out += [PLAY_WHILE_PASSING, MOON_WHILE_PASSING]
    elif phase is Phase.MOON_CHOICE:
        out += [MOON_OTHER_SEAT, PLAY_WHILE_CHOOSING]
    return (*out, DEAL_MID_DEAL, *no_such_seat)


def _cut(cards: list[Card], n: int) -> DealCards:
    """``cards`` (104, sorted) cut in order into ``n`` hands of the right size and the extras."""
    size = len(cards) // n
    return DealCards(tuple(tuple(cards[k * size:(k + 1) * size]) for k in range(n)),
                     tuple(cards[n * size:]))


def _a_deal(state: GameState) -> DealCards:
    """A deal that makes up the deck for the state's player count (the deck cut in order)."""
    return _deck_cut(state.players)


@cache
def _deck_cut(players: int) -> DealCards:
    """The deck, sorted, cut in order for ``players``: made once per player count (a deal
    is a value), not sorted again at every offer."""
    return _cut(sorted(full_deck()), players)


def _bad_deal(state: GameState, v: int = 0) -> DealCards:
    """A deal of the right sizes whose cards are not the two packs.

    A third copy of a card in place of another card; for odd ``v``, four
    copies of every other card and none of the rest, where no card is there
    exactly twice.
    """
    if v % 2:
        return _cut(sorted(c for c in CARDS[::2] for _ in range(4)), state.players)
    d = _a_deal(state)
    hand = list(d.hands[0])
    extra = next(c for c in CARDS if c != hand[0])
    hand[0] = extra
    return DealCards((tuple(sorted(hand)), *d.hands[1:]), d.extras)


def _bad_sizes(state: GameState) -> DealCards:
    """Every card of the two packs, one moved from the first hand to the second."""
    d = _a_deal(state)
    first, second = d.hands[0], d.hands[1]
    return DealCards((first[1:], tuple(sorted((*second, first[0]))), *d.hands[2:]), d.extras)


def _playing(state: GameState, kind: str, v: int) -> Action:
    n = state.players
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    if kind == FORBIDDEN_CARD:
        forbidden = _forbidden(state)
        # Mostly a card only the last of the rules in play forbids (a heart discarded
        # to trick 1 that following suit alone would allow), if there is one.
        rules = state.play_rules(hand)
        narrowed = [c for c in forbidden if len(rules) > 1 and c in rules[-2][1]]
        pool = narrowed if narrowed and v % 4 else forbidden
        return Play(seat, pool[v // 4 % len(pool)])
    if kind == CARD_NOT_HELD:
        nxt = state.hands[(seat + 1) % n]
        other = [c for c in nxt if c not in hand] or [c for c in CARDS if c not in hand]
        return Play(seat, other[v % len(other)])
    if kind == OUT_OF_TURN:
        later = (seat + 1 + v % (n - 1 - len(state.trick))) % n
        return Play(later, state.hands[later][0])
    if kind == PLAYED_ALREADY:
        played = _played(state)
        earlier = played[v % len(played)]
        return Play(earlier, (state.hands[earlier] or state.trick)[0])
    if kind == MOON_WHILE_PLAYING:
        return ChooseMoon(seat, MoonChoice.SUBTRACT if v % 2 else MoonChoice.ADD)
    p = state.ruleset.pass_count
    return Pass(seat, hand[:p])


def _lead_while_passing(state: GameState) -> Play:
    """A play, while the seats pass, by the seat that would make the opening lead if play
    began now, of a card it could lead then: the play an engine accepts that checks whose
    turn it is and not the phase of the deal."""
    leader = opening_leader(state.dealer, state.hands, state.ruleset)
    return Play(leader, opening_leads(state.hands[leader], state.ruleset)[0])


def _passing(state: GameState, kind: str, v: int) -> Action:
    n = state.players
    p = state.ruleset.pass_count
    seat = state.waiting_for[v % len(state.waiting_for)]
    hand = state.hands[seat]
    if kind == PASS_SIZE:
        return Pass(seat, hand[:p + 1] if len(hand) > p and v % 2 else hand[:p - 1])
    if kind == PASS_AGAIN:
        passed = [s for s in range(n) if state.passes[s] is not None]
        again = passed[v % len(passed)]
        return Pass(again, state.hands[again][:p])
    if kind == PASS_NOT_HELD:
        missing = [c for c in CARDS if c not in hand]
        return Pass(seat, tuple(sorted((*hand[:p - 1], missing[v % len(missing)]))))
    if kind == PASS_OTHERS:
        theirs = [c for k in range(1, n) for c in state.hands[(seat + k + v) % n]
                  if c not in hand]
        return Pass(seat, tuple(sorted((*hand[:p - 1], theirs[v % len(theirs)]))))
    if kind == PASS_TWICE:
        cards = _twice(state)
        assert cards is not None
        return Pass(state.waiting_for[0], cards)
    if kind == PASS_FORBIDDEN:
        made = _forbidden_pass(state)
        assert made is not None
        return made
    if kind == PLAY_WHILE_PASSING:
        if v % 2:  # as if play had begun: an engine that checks the turn, not the phase
            return _lead_while_passing(state)
        return Play(seat, hand[v % len(hand)])
    return ChooseMoon(seat, MoonChoice.ADD)


def _no_such_seat(state: GameState, v: int) -> Action:
    n = state.players
    seat = n + v % (MAX_PLAYERS - n)
    if state.phase is Phase.PASSING:
        return Pass(seat, state.hands[state.waiting_for[0]][:state.ruleset.pass_count])
    if state.phase is Phase.MOON_CHOICE:
        return ChooseMoon(seat, MoonChoice.ADD)
    if state.phase is Phase.PLAYING:
        return Play(seat, state.legal_plays()[0])
    return Play(seat, CARDS[v % len(CARDS)])


_MAKERS: dict[Phase, Callable[[GameState, str, int], Action]] = {
    Phase.PLAYING: _playing, Phase.PASSING: _passing}


def make(state: GameState, kind: str, v: int = 0) -> Action:
    """The illegal action of ``kind`` in ``state`` (one of :func:`kinds_for`); ``v`` varies it."""
    n = state.players
    if kind == NO_SUCH_SEAT:
        return _no_such_seat(state, v)
    if kind == DEAL_MID_DEAL:
        return _a_deal(state)
    if kind == BAD_DEAL:
        return _bad_deal(state, v)
    if kind == BAD_SIZES:
        return _bad_sizes(state)
    if kind in (PLAY_BETWEEN_DEALS, AFTER_END):
        return Play(v % n, CARDS[v % len(CARDS)])
    if kind == MOON_OTHER_SEAT:
        shooter = state.to_act
        assert shooter is not None
        return ChooseMoon((shooter + 1 + v % (n - 1)) % n, MoonChoice.ADD)
    if kind == PLAY_WHILE_CHOOSING:
        shooter = state.to_act
        assert shooter is not None
        return Play(shooter, CARDS[v % len(CARDS)])
    return _MAKERS[state.phase](state, kind, v)
