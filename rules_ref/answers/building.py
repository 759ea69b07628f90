"""A position built from what a player sees: the hand, the trick so far and the trick number.

A legal-plays question is often asked without a whole position at hand: "I
hold these cards, these were played, may I play the 5♥?". Only the hand, the
trick and whether hearts are broken decide the answer, so
:func:`build_position` lays out the rest of the deck where the rules allow
it: seat 0 led the trick (the dealer sits on its right), the seats that did
not follow suit get no card of the led suit, the earlier tricks are
collected by seat 0 with the extras (from trick 2 on), and the hearts and
Q♠ are played or kept as "hearts broken" says. The position is then checked
as any position is (``spec/position.md``), so a question no game can reach
is refused with the rule it breaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import CARDS, Card, is_penalty
from ..deal import MAX_PLAYERS, hand_size
from ..deal import extras_count as extras_of
from ..errors import InputError
from ..positions.check import check_position
from ..positions.model import Extras, ExtrasPlace, Position
from ..ruleset import Ruleset
from ..state_parts import Phase
from ..wording import counted

#: the seat that led the trick of a built position
LEADER = 0


def build_position(players: int, hand: Sequence[Card], trick: Sequence[Card],
                   trick_number: int, hearts_broken: bool, ruleset: Ruleset) -> Position:
    """A playing position where the seat after ``trick`` holds ``hand`` (see the module).

    Raises :class:`InputError` naming the problem: a hand of the wrong size for
    the trick number (``TURN.ORDER``), a card more than twice (``DECK.CARDS``),
    or a position the rules cannot reach under ``ruleset``.
    """
    n = players
    if not ruleset.min_players <= n <= MAX_PLAYERS:
        raise InputError(f"{n} players: the game is for {ruleset.min_players} to {MAX_PLAYERS} "
                         "players (PLAYERS.COUNT)")
    size = hand_size(n)
    if not 1 <= trick_number <= size:
        raise InputError(f"trick {trick_number}: a deal of {n} players has tricks 1 to {size}")
    if len(trick) >= n:
        raise InputError(f"{counted(len(trick), 'card')} in the trick: at {n} players a trick "
                         f"in progress has at most {n - 1}, the last one ends it")
    seat = (LEADER + len(trick)) % n
    held = size - trick_number + 1
    if len(hand) != held:
        raise InputError(f"the hand holds {counted(len(hand), 'card')}: at trick {trick_number} "
                         f"of {n} players the seat to play holds {held} (TURN.ORDER)")
    rest = Counter({c: 2 for c in CARDS})
    rest.subtract(Counter(hand) + Counter(trick))
    over = sorted(c for c, k in rest.items() if k < 0)
    if over:
        raise InputError("DECK.CARDS: the deck holds two copies of each card; "
                         f"{', '.join(c.pretty for c in over)} is given more than twice")
    led = trick[0].suit if trick else None
    # seats that did not follow the led suit hold none of it (FOLLOW.SUIT)
    void_in_led = {(LEADER + i) % n for i, c in enumerate(trick) if c.suit != led}
    extras = extras_of(n)
    earlier = (trick_number - 1) * n + (extras if trick_number > 1 else 0)
    room = {s: size - trick_number + (0 if (s - LEADER) % n < len(trick) else 1)
            for s in range(n) if s != seat}
    hands: dict[int, list[Card]] = {s: [] for s in room}
    collected: list[Card] = []
    face_down: list[Card] = []
    cards = sorted(rest.elements())
    # the cards that can go to few places first: the led suit, then hearts and Q♠
    cards.sort(key=lambda c: (c.suit != led, not is_penalty(c)))
    broken_shown = False
    for c in cards:
        penalty_played_ok = hearts_broken and trick_number > 1
        if hearts_broken and not broken_shown and is_penalty(c) and len(collected) < earlier:
            collected.append(c)
            broken_shown = True
            continue
        seats = [s for s in room if len(hands[s]) < room[s]
                 and not (c.suit == led and s in void_in_led)]
        may_be_played = penalty_played_ok or not is_penalty(c)
        if len(collected) < earlier and may_be_played and (c.suit != led or not seats):
            collected.append(c)
        elif trick_number == 1 and len(face_down) < extras:
            face_down.append(c)
        elif seats:
            hands[max(seats, key=lambda s: room[s] - len(hands[s]))].append(c)
        elif len(collected) < earlier:
            collected.append(c)
        else:  # only a card of the led suit is kept from a place (the seats void in it)
            assert led is not None and c.suit == led
            seats_void = ", ".join(str(s) for s in sorted(void_in_led))
            raise InputError(f"no game reaches this trick: seats {seats_void} did not follow "
                             f"{led.symbol}, so they hold none, and the other seats and the "
                             f"tricks before have no room for the {c.pretty} and the other "
                             f"{led.symbol} left (FOLLOW.SUIT)")
    if trick_number > 1:
        extras_cards = tuple(collected[:extras])
        place = ExtrasPlace.TAKEN if extras else ExtrasPlace.NONE
        extras_at = Extras(extras_cards, place, LEADER if extras else None)
    else:
        place = ExtrasPlace.FACE_DOWN if extras else ExtrasPlace.NONE
        extras_at = Extras(tuple(face_down), place)
    all_hands = tuple(tuple(sorted(hand)) if s == seat else tuple(sorted(hands[s]))
                      for s in range(n))
    pos = Position(
        players=n, deal_number=1, dealer=(LEADER - 1) % n, phase=Phase.PLAYING,
        totals=(0,) * n, hands=all_hands, trick_number=trick_number, leader=LEADER,
        trick=tuple(trick), hearts_broken=hearts_broken,
        extras=extras_at,
        collected=tuple(tuple(sorted(collected)) if s == LEADER else () for s in range(n)))
    return check_position(pos, ruleset)
