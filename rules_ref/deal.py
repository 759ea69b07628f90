"""Players, deal sizes, dealers and deals (explicit or from a seed).

Rules ``PLAYERS.COUNT``, ``DEAL.SIZE``, ``DEAL.SOURCE``, ``DEAL.DEALER``;
the portable seeded shuffle is specified in ``spec/deal.md``, and so are the
deal constraints an engine may declare (:data:`DEAL_CONSTRAINTS`): the deals
it never makes, which the runner never sends it (:func:`deal_allowed`).

>>> d = seeded_deal(seed=1, players=8, deal_number=1, dealer=0)
>>> [len(h) for h in d.hands], len(d.extras)
([13, 13, 13, 13, 13, 13, 13, 13], 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .cards import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, full_deck, is_heart
from .errors import SetupError
from .registry import implements

#: The smallest player count by default (``min_players = 6``), and under any ruleset.
MIN_PLAYERS = 6
FEWEST_PLAYERS = 5
MAX_PLAYERS = 11
DECK_SIZE = 104
MASK64 = (1 << 64) - 1


@implements("PLAYERS.COUNT")
def check_player_count(players: object, min_players: int = MIN_PLAYERS) -> int:
    """Return ``players`` if it is a legal player count, ``min_players`` to 11 (``PLAYERS.COUNT``).

    ``min_players`` is the ruleset's switch of that name: 6 by default, 5
    when the ruleset allows 5 players. Any other count, or a value that is
    not an integer, raises :class:`~rules_ref.errors.SetupError` naming the
    rule, and for 5 players the switch that would allow them.

    >>> check_player_count(11), check_player_count(5, min_players=5)
    (11, 5)
    >>> check_player_count(12)
    Traceback (most recent call last):
    ...
    rules_ref.errors.SetupError: PLAYERS.COUNT: 12 players: the game is for 6 to 11 players
    >>> check_player_count(5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules_ref.errors.SetupError: PLAYERS.COUNT: 5 players: ... (5 players need min_players = 5)
    """
    if not isinstance(players, int) or isinstance(players, bool):
        raise SetupError(f"player count must be an integer, got {players!r}", "PLAYERS.COUNT")
    if not min_players <= players <= MAX_PLAYERS:
        hint = (f" ({players} players need min_players = {players})"
                if FEWEST_PLAYERS <= players < min_players else "")
        raise SetupError(f"{players} players: the game is for {min_players} to {MAX_PLAYERS} "
                         f"players{hint}", "PLAYERS.COUNT")
    return players


@implements("DEAL.SIZE")
def hand_size(players: int) -> int:
    """Cards each player is dealt: ⌊104 / n⌋ (``DEAL.SIZE``), 20 at 5 players.

    >>> [hand_size(n) for n in range(5, 12)]
    [20, 17, 14, 13, 11, 10, 9]
    """
    return DECK_SIZE // players


@implements("DEAL.SIZE")
def extras_count(players: int) -> int:
    """Cards left face down as the extras: 104 mod n (``DEAL.SIZE``), 4 at 5 players.

    >>> [extras_count(n) for n in range(5, 12)]
    [4, 2, 6, 0, 5, 4, 5]
    """
    return DECK_SIZE % players


@implements("DEAL.DEALER")
def dealer_for_deal(first_dealer: int, deal_number: int, players: int) -> int:
    """The dealer of deal ``deal_number`` (1-based): one seat left each deal (``DEAL.DEALER``).

    >>> [dealer_for_deal(4, k, 6) for k in (1, 2, 3)]
    [4, 5, 0]
    """
    return (first_dealer + deal_number - 1) % players


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one deal: a sorted hand per seat and the extras in order."""

    hands: tuple[tuple[Card, ...], ...]
    extras: tuple[Card, ...]


_SORTED_DECK = sorted(full_deck())


@implements("DEAL.SOURCE", "DEAL.SIZE", "DECK.CARDS")
def check_deal(hands: Sequence[Sequence[Card]], extras: Sequence[Card], players: int) -> Deal:
    """Check an explicit deal and return it with hands sorted (``DEAL.SOURCE``).

    Every hand must hold ⌊104/n⌋ cards and the extras 104 mod n
    (``DEAL.SIZE``), and together they must make up the deck: each card
    exactly twice (``DECK.CARDS``). Every problem is reported at once.
    """
    problems: list[str] = []
    rule = "DEAL.SIZE"
    if len(hands) != players:
        problems.append(f"{len(hands)} hands for {players} players")
    size = hand_size(players)
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            problems.append(f"seat {seat} holds {len(hand)} cards, not {size}")
    if len(extras) != extras_count(players):
        problems.append(f"{len(extras)} extras, not {extras_count(players)}")
    every = [c for hand in hands for c in hand]
    every.extend(extras)
    every.sort()
    if every == _SORTED_DECK:
        wrong = []
    else:
        counts = Counter(every)
        wrong = [f"{c} x{counts.get(c, 0)}" for c in CARDS if counts.get(c, 0) != 2]
    if wrong:
        if not problems:
            rule = "DECK.CARDS"
        shown = ", ".join(wrong[:8]) + (" …" if len(wrong) > 8 else "")
        problems.append(f"the deal must hold every card exactly twice; wrong counts: {shown}")
    if problems:
        raise SetupError("bad deal: " + "; ".join(problems), rule)
    return Deal(tuple(tuple(sorted(h)) for h in hands), tuple(extras))


# --- the portable seeded shuffle (spec/deal.md) -----------------------------------------

GOLDEN_GAMMA = 0x9E3779B97F4A7C15
DEAL_STREAM = 0xD1B54A32D192ED03


def splitmix64_step(state: int) -> tuple[int, int]:
    """One step of SplitMix64 (``spec/deal.md``): the next state and its output.

    >>> hex(splitmix64_step(0)[1])
    '0xe220a8397b1dcdaf'
    """
    state = (state + GOLDEN_GAMMA) & MASK64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def splitmix64(state: int) -> Iterator[int]:
    """The outputs of SplitMix64 from ``state``, one after another.

    >>> g = splitmix64(0); hex(next(g))
    '0xe220a8397b1dcdaf'
    """
    while True:
        state, out = splitmix64_step(state)
        yield out


def draw_below(state: int, m: int) -> tuple[int, int]:
    """An unbiased draw from ``0 … m-1`` by rejection (``spec/deal.md``).

    Returns the generator's new state and the draw.

    >>> draw_below(0, 104)[1]
    87
    """
    limit = (1 << 64) - ((1 << 64) % m)
    while True:
        state, x = splitmix64_step(state)
        if x < limit:
            return state, x % m


def check_seed(seed: object) -> int:
    """Return ``seed`` if it is an integer from 0 to 2**64 - 1, else raise ``SetupError``."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
        raise SetupError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}",
                         "DEAL.SOURCE")
    return seed


def shuffled_deck(seed: int, deal_number: int) -> list[Card]:
    """The canonical deck shuffled for deal ``deal_number`` of a game with ``seed``.

    Fisher–Yates from the last position down, each swap partner drawn by
    :func:`draw_below`.
    """
    state = check_seed(seed) ^ ((deal_number * DEAL_STREAM) & MASK64)
    deck = list(full_deck())
    for i in range(DECK_SIZE - 1, 0, -1):
        state, j = draw_below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@implements("DEAL.SOURCE")
def seeded_deal(seed: int, players: int, deal_number: int, dealer: int,
                min_players: int = MIN_PLAYERS) -> Deal:
    """Deal ``deal_number`` of a game with ``seed`` by the portable shuffle (``DEAL.SOURCE``).

    One card at a time, starting at the dealer's left and going left, until
    every hand is full; the rest are the extras, in deck order. ``players``
    must be a count the ruleset plays (``min_players`` to 11, ``PLAYERS.COUNT``).

    >>> d = seeded_deal(seed=7, players=7, deal_number=1, dealer=0)
    >>> len(d.extras), sum(len(h) for h in d.hands)
    (6, 98)
    """
    check_player_count(players, min_players)
    deck = shuffled_deck(seed, deal_number)
    size = hand_size(players)
    dealt = size * players
    hands: list[list[Card]] = [[] for _ in range(players)]
    for t in range(players):  # the t-th seat from the dealer's left takes every players-th card
        hands[(dealer + 1 + t) % players] = deck[t:dealt:players]
    return Deal(tuple(tuple(sorted(h)) for h in hands), tuple(deck[dealt:]))


# --- deals an engine never makes (spec/deal.md, section 8) -----------------------------

Hands = Sequence[Sequence[Card]]


def two_of_clubs_apart(hands: Hands, extras: Sequence[Card]) -> bool:
    """``two-of-clubs-apart``: no hand holds both 2♣.

    >>> from .cards import parse_cards as c
    >>> two_of_clubs_apart([c("2C 3C"), c("2C 4C")], []), two_of_clubs_apart([c("2C 2C")], [])
    (True, False)
    """
    return all(list(hand).count(TWO_OF_CLUBS) < 2 for hand in hands)


def two_of_clubs_dealt(hands: Hands, extras: Sequence[Card]) -> bool:
    """``two-of-clubs-dealt``: no 2♣ lies among the extras.

    >>> from .cards import parse_cards as c
    >>> two_of_clubs_dealt([c("2C 2C")], c("5D")), two_of_clubs_dealt([c("2C 3C")], c("2C"))
    (True, False)
    """
    return TWO_OF_CLUBS not in extras


def no_hand_of_only_points(hands: Hands, extras: Sequence[Card]) -> bool:
    """``no-hand-of-only-points``: every hand holds a card other than a heart or Q♠.

    >>> from .cards import parse_cards as c
    >>> no_hand_of_only_points([c("2H QS 3D")], []), no_hand_of_only_points([c("2H QS")], [])
    (True, False)
    """
    return all(any(not is_heart(x) and x != QUEEN_OF_SPADES for x in hand) for hand in hands)


@dataclass(frozen=True)
class DealConstraint:
    """A kind of deal an engine declares it never makes (``spec/deal.md``, section 8)."""

    #: Its ID, as a ``hello`` names it.
    id: str
    #: When a deal satisfies it.
    statement: str
    #: The deals it leaves untested, in a report's words.
    excludes: str
    holds: Callable[[Hands, Sequence[Card]], bool]


#: The closed list of deal constraints, by ID (``spec/deal.md``, section 8).
DEAL_CONSTRAINTS = {c.id: c for c in (
    DealConstraint("two-of-clubs-apart", "no hand holds both 2♣",
                   "deals in which a hand holds both 2♣", two_of_clubs_apart),
    DealConstraint("two-of-clubs-dealt", "no 2♣ lies among the extras",
                   "deals with a 2♣ among the extras", two_of_clubs_dealt),
    DealConstraint("no-hand-of-only-points", "every hand holds a card other than a heart or Q♠",
                   "deals in which a hand holds only hearts and Q♠", no_hand_of_only_points),
)}


def broken_constraints(hands: Hands, extras: Sequence[Card],
                       constraints: Iterable[str]) -> tuple[str, ...]:
    """The IDs of ``constraints`` (each a key of :data:`DEAL_CONSTRAINTS`) the deal breaks.

    >>> from .cards import parse_cards as c
    >>> broken_constraints([c("2C 2C"), c("2H QS")], [], DEAL_CONSTRAINTS)
    ('two-of-clubs-apart', 'no-hand-of-only-points')
    """
    return tuple(i for i in constraints if not DEAL_CONSTRAINTS[i].holds(hands, extras))


def deal_allowed(hands: Hands, extras: Sequence[Card], constraints: Iterable[str]) -> bool:
    """May an engine that declares ``constraints`` be sent this deal? The one test of it.

    >>> from .cards import parse_cards as c
    >>> deal_allowed([c("2C 3C"), c("2C 2H")], c("5D"), ["two-of-clubs-dealt"])
    True
    >>> deal_allowed([c("3C 4C"), c("2C 2H")], c("2C"), ["two-of-clubs-dealt"])
    False
    """
    return not broken_constraints(hands, extras, constraints)
