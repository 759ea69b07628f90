"""Card-level trick vectors: every card cancelling and deciding a trick, and outranking its
neighbour.

For each of the 52 cards ``X`` (of suit ``S``) two cases, each failed by a
fault of ``X`` alone (:mod:`rules_ref.vectors.card_faults` shows it):

* ``trick/card-cancel-x-pN`` (``x`` the card's text in lower case, as ids
  are): both copies of ``X`` are played to a trick led with the card just
  below it, ``Y``, and cancel, so ``Y`` wins (for a 2, and for the 3♣ after
  both 2♣, the pair is all that is left of the led suit and the trick is
  void). An engine whose two ``X`` do not cancel gives the trick to the
  first ``X``.
* ``trick/card-rank-x-pN`` (every rank from 3): one ``X`` over ``Y`` wins. An
  engine that ranks ``X`` one place lower gives the trick to ``Y``, and one
  that ranks a 2 one place higher fails the case of that 3.

Where two seats could not hold the rest of the suit, two more follow with a
pair that changes nothing: both 2s below ``Y``, or both aces above ``X``.
The clubs are played on trick 1, led with the 2♣ by the seat left of the
dealer, the other 2♣ played to it (as every rule of the first trick
allows); the other suits on trick 2, after such a trick 1 without points.
The seats that cannot follow discard cards worth nothing, but on trick 2
one discards a heart, so every heart is shown to break hearts and every
card's points are counted by the trick's winner. The deals are of 8 players
(the public engines' count), but for the hearts, led by a seat that holds
only hearts, and the 3♣ over a 2♣ that stands alone (the other among the
extras), which need the room of a 6-player deal.
"""

from __future__ import annotations

from ...cards import Suit, full_deck
from ...ruleset import DEFAULT
from ..files import Case
from ..scenario import Scenario, build
from .trick import trick_case

#: The player count of the cases: 8 (13 cards each, no extras), but for the hearts and the 3♣
#: over the 2♣, which need room a 6-player deal has (17 cards each, 2 extras).
PLAYERS = 8
SMALL = 6
#: The ranks, low to high, as card text writes them.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Cards worth nothing that the seats void in the trick's suit discard, by suit.
_FILLERS = {"D": ("3D", "4D", "5D", "6D", "7D", "8D"), "S": ("3S", "4S", "5S", "6S", "7S", "8S")}


def _text(rank: int, suit: str) -> str:
    return f"{RANKS[rank]}{suit}"


def trick_one(players: int) -> list[str]:
    """Trick 1 of the cases of the other suits, from seat 1: both 2♣ cancel and the last seat
    but one, seat ``players - 1``, wins with the A♣."""
    lows = ["2C", "2C", "3C", "4C", "5C", "6C", "7C"]
    return [*lows[:players - 2], "AC", lows[players - 2]]


def _discards(suit: str, n: int, heart: str | None) -> list[str]:
    """``n`` discards for seats void in ``suit``: a heart first when ``heart`` is given, then
    cards worth nothing of a suit other than clubs and ``suit``."""
    return [*([heart] if heart else []), *_FILLERS["S" if suit == "D" else "D"]][:n]


def _order(first: int, players: int) -> list[int]:
    return [(first + i) % players for i in range(players)]


def _clubs(rank: int, cancel: bool) -> Case:
    """A clubs case on trick 1 (seat 1 leads the 2♣; both 2♣ are played but for the 3♣'s rank,
    whose 2♣ stands alone: the other lies among the extras of a 6-player deal)."""
    x = _text(rank, "C")
    players, extras = PLAYERS, None
    if cancel and rank == 0:
        plays = ["2C", "2C"]
    elif cancel and rank == 1:
        plays = ["2C", "2C", "3C", "3C"]
    elif cancel:
        plays = ["2C", "2C", _text(rank - 1, "C"), x, x]
    elif rank == 1:
        plays, players, extras = ["2C", "3C"], SMALL, "2C 9D"
    else:
        plays = ["2C", "2C", _text(rank - 1, "C"), x]
    rest = _discards("C", players - len(plays), None)
    order = _order(1, players)
    fixed = dict(zip(order, [*plays, *rest], strict=True))
    voids = {seat: "C" for seat in order[len(plays):]}
    sc = build(players, DEFAULT, fixed, voids=voids, extras=extras, seed=900 + rank)
    sc.play(*[*plays, *rest][:-1])
    return _case(sc, [*plays, *rest][-1], x, cancel, rank)


def _other(rank: int, suit: str, cancel: bool) -> Case:
    """A case of diamonds, spades or hearts on trick 2, led by trick 1's winner."""
    players = SMALL if suit == "H" else PLAYERS
    x = _text(rank, suit)
    y = _text(rank - 1, suit) if rank else x
    plays = ([x, x] if rank == 0 else [y, x, x]) if cancel else [y, x]
    if suit != "H" and len(plays) == 2:  # two seats cannot hold the other 24 of the suit
        low = _text(0, suit) if rank > 1 else _text(12, suit)
        plays += [low, low]  # lower than Y, or a cancelled pair above X
    heart = None if suit == "H" else _text(rank, "H")
    rest = _discards(suit, players - len(plays), heart)
    one = trick_one(players)
    leader = players - 1
    order = _order(leader, players)
    second = dict(zip(order, [*plays, *rest], strict=True))
    fixed = {seat: f"{one[(seat - 1) % players]} {second[seat]}" for seat in range(players)}
    voids = {seat: suit for seat in order[len(plays):]}
    if suit == "H":
        fixed[leader] = " ".join(["AC", *_hearts_of_leader(plays[0], rank)])
    extras = None if players == PLAYERS else "9D 10C"
    sc = build(players, DEFAULT, fixed, voids=voids, extras=extras, seed=950 + rank)
    sc.play(*one)
    sc.play(*[*plays, *rest][:-1])
    return _case(sc, [*plays, *rest][-1], x, cancel, rank)


def _hearts_of_leader(led: str, rank: int) -> list[str]:
    """Sixteen hearts for the seat that leads hearts: the led one and others, never ``X``
    (but the led one, for a 2)."""
    x = _text(rank, "H")
    pool = [str(c) for c in full_deck() if c.suit == Suit.H and str(c) != x]
    if led != x:
        pool.remove(led)
    return [led, *pool[:15]]


def _case(sc: Scenario, last: str, x: str, cancel: bool, rank: int) -> Case:
    if cancel:
        void = rank == 0 or x == "3C"  # the 3♣ follows both 2♣
        what = (f"Both {x} cancel and nothing else of the led suit stands: the trick is void."
                if void else
                f"Both {x} cancel, and {_text(rank - 1, x[-1])}, the card below them, wins.")
        return trick_case(sc, last, f"card-cancel-{x.lower()}-p{sc.players}", what,
                          ["TRICK.CANCEL", "TRICK.WINNER", "VOID.TRICK" if void
                           else "DECK.RANKING", "SCORE.CARD_POINTS"])
    below = _text(rank - 1, x[-1])
    return trick_case(sc, last, f"card-rank-{x.lower()}-p{sc.players}",
                      f"{x} outranks {below}: it wins the trick {below} leads.",
                      ["DECK.RANKING", "TRICK.WINNER", "SCORE.CARD_POINTS"])


def generate() -> list[Case]:
    """Every card case: for each suit and rank, the cancelling pair, then the rank."""
    out: list[Case] = []
    for suit in ("C", "D", "S", "H"):
        for rank in range(len(RANKS)):
            out.append(_clubs(rank, True) if suit == "C" else _other(rank, suit, True))
            if rank:
                out.append(_clubs(rank, False) if suit == "C" else _other(rank, suit, False))
    return out
