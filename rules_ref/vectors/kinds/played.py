"""Cases from deals played out under a public engine's preset, at the player counts it plays.

A public engine plays one variant at a few player counts (the ``allanh``
engine its preset at 8 players, the ``crcowan`` engine its own at 5 to 11),
so the cases built by hand under the default rules, most of them on trick 1
at 6 players, leave most of such an engine untested. Here seeded deals are
passed and played by the built-in player under those presets
(:data:`DEALS`), and each deal gives the moments that test
something no earlier case of the family tested:

* a trick after the first, one card short, whose resolution has a shape of
  its own (:func:`trick_shape`: how many pairs cancel, whether the led card
  is one of them, a void trick, the pending pile collected, hearts broken,
  points taken, and how far from the leader the winner sits);
* a seat to play after trick 1 whose cards a rule restricts
  (:func:`restriction`: following suit, void in the led suit, the led card
  cancelled, leading with hearts unbroken, leading again after a void
  trick), every forbidden card offered;
* the last card of the deal, its scores (and the totals and next deal).

What each case depends on is proven as for every case
(:mod:`rules_ref.vectors.requirements`): a trick resolved after trick 1 is
the same under most switches, so most of these cases, through their
position-start forms, apply to the engine of the other preset too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...actions import Action, ChooseMoon, MoonChoice, Pass, Play
from ...cards import Card, Suit, penalty_points
from ...ruleset import Ruleset, preset
from ...state import GameState
from ...tricks import cancelled_cards, resolve_trick
from ..endings import end_case
from ..files import Case
from ..scenario import Scenario, policy_play, seeded
from .legal_plays import legal_case
from .trick import trick_case


@dataclass(frozen=True)
class Deal:
    """A seeded deal 1 played by the built-in player: its preset, player count and seed."""

    name: str
    players: int
    seed: int

    @property
    def ruleset(self) -> Ruleset:
        return preset(self.name)

    @property
    def words(self) -> str:
        return f"Under the {self.name} preset at {self.players} players (seeded deal {self.seed})"


#: The deals played: the allanh preset at the only count its engine plays, the crcowan
#: preset at 8 players and once at each of its other counts.
DEALS: tuple[Deal, ...] = (
    *(Deal("allanh", 8, s) for s in range(1, 121)),
    *(Deal("crcowan", 8, s) for s in range(1, 21)),
    *(Deal("crcowan", n, 1) for n in (5, 6, 7, 9, 10, 11)),
)


@cache
def _actions(deal: Deal) -> tuple[Action, ...]:
    """Every pass and play of the deal, in order, up to its last card."""
    sc = seeded(deal.players, deal.ruleset, deal.seed)
    policy_play(sc, deal.seed, leave=0)
    return tuple(sc.actions_so_far())


def _at(deal: Deal, actions: Sequence[Action]) -> Scenario:
    """The deal's scenario after ``actions`` (its prefix)."""
    sc = seeded(deal.players, deal.ruleset, deal.seed)
    for a in actions:
        sc.pre(a)
    return sc


def _moments(deal: Deal) -> Iterator[tuple[int, GameState]]:
    """Each play of the deal after the passes: its index among the actions, the state before."""
    sc = seeded(deal.players, deal.ruleset, deal.seed)
    state = sc.state
    for i, a in enumerate(_actions(deal)):
        if isinstance(a, Play):
            yield i, state
        state, _ = state.apply(a)


def _key(deal: Deal, shape: Any) -> tuple[Any, ...]:
    """What makes a moment new: its shape at 8 players (the count every preset plays), its
    shape alone at the other counts."""
    return (8, shape) if deal.players == 8 else (None, shape)


@dataclass(frozen=True)
class _Moment:
    """A moment of a deal worth a case: the deal, how many of its actions come before it
    (the case's prefix) and how the case is made from the scenario there."""

    deal: Deal
    at: int
    make: Callable[[Scenario], Case]


def _earliest(found: Iterable[tuple[tuple[Any, ...], _Moment]]) -> list[Case]:
    """One case per key: its earliest moment (the shortest prefix, the first deal of
    :data:`DEALS` on a tie), the 8-player keys first; a shape at another count only when no
    8-player moment has it. The cases in deal order."""
    best: dict[tuple[Any, ...], _Moment] = {}
    for key, moment in found:
        if key not in best or moment.at < best[key].at:
            best[key] = moment
    eights = {key[1] for key in best if key[0] == 8}
    chosen = sorted((m for key, m in best.items() if key[0] == 8 or key[1] not in eights),
                    key=lambda m: (DEALS.index(m.deal), m.at))
    return [m.make(_at(m.deal, _actions(m.deal)[:m.at])) for m in chosen]


# --- tricks ---------------------------------------------------------------------------------


def trick_shape(state: GameState, last: Card) -> tuple[Any, ...]:
    """What the trick ``last`` completes shows (see :func:`_trick_words`)."""
    cards = (*state.trick, last)
    outcome = resolve_trick(cards, state.leader, state.players)
    gone = cancelled_cards(cards)
    led = [c for c in cards if c.suit == outcome.led_suit]
    return (
        outcome.void,
        len(gone),
        cards[0] in gone,
        max(led, key=lambda c: c.rank) in gone,
        any(c.suit != outcome.led_suit for c in cards),
        bool(state.pending) and not outcome.void,
        penalty_points(state.pending) > 0 and not outcome.void,
        not state.hearts_broken and any(c.suit == Suit.H for c in cards),
        penalty_points(cards) > 0,
        None if outcome.winner is None else (outcome.winner - state.leader) % state.players,
    )


def _trick_words(shape: tuple[Any, ...], number: int) -> tuple[str, list[str]]:
    """The description of a trick of ``shape`` (:func:`trick_shape`) and its rules."""
    (void, pairs, led_cancelled, highest_cancelled, discards, collects, pending_points,
     breaks, points, distance) = shape
    parts = [f"trick {number}"]
    rules = ["TRICK.WINNER", "TRICK.NEXT_LEADER", "TURN.ORDER"]
    if pairs:
        which = [w for w, yes in (("the led card", led_cancelled),
                                  ("the highest card of the led suit", highest_cancelled))
                 if yes]
        parts.append(("a pair of identical cards cancels" if pairs == 1 else
                      f"{pairs} pairs of identical cards cancel")
                     + (f", {' and '.join(which)} among them" if which else ""))
        rules.append("TRICK.CANCEL")
        if led_cancelled:
            rules.append("TRICK.LED_SUIT")
    if discards:
        parts.append("cards of other suits are discarded and cannot win")
        rules.append("DECK.RANKING")
    if void:
        parts.append("no card of the led suit is left uncancelled: the trick is void, its "
                     "cards are pending and its leader leads again")
        rules = [r for r in rules if r not in ("TRICK.WINNER", "TRICK.NEXT_LEADER")]
        rules += ["VOID.TRICK", "VOID.LEADER"]
    elif distance == 0:
        parts.append("the leader wins")
    else:
        parts.append("the seat after the leader wins and leads next" if distance == 1 else
                     f"the seat {distance} places after the leader wins and leads next")
    if collects:
        parts.append("the winner also collects the pending pile"
                     + (", points included" if pending_points else ""))
        rules.append("VOID.COLLECT")
    if breaks:
        parts.append("its hearts break hearts")
        rules.append("HEARTS.BROKEN")
    if points:
        rules.append("SCORE.CARD_POINTS")
    return "; ".join(parts), rules


def trick_moments(deal: Deal) -> Iterator[tuple[tuple[Any, ...], _Moment]]:
    """Each trick after the first, one card short, keyed by its shape."""
    actions = _actions(deal)
    for i, state in _moments(deal):
        if state.trick_number < 2 or len(state.trick) != state.players - 1:
            continue
        last = actions[i]
        assert isinstance(last, Play)
        shape = trick_shape(state, last.card)
        words, rules = _trick_words(shape, state.trick_number)
        slug = f"{deal.name}-p{deal.players}-s{deal.seed}-trick{state.trick_number}"

        def make(sc: Scenario, card: str = str(last.card), slug: str = slug,
                 text: str = f"{deal.words}, {words}.", rules: list[str] = rules) -> Case:
            return trick_case(sc, card, slug, text, rules)

        yield _key(deal, shape), _Moment(deal, i, make)


# --- legal plays ----------------------------------------------------------------------------


def restriction(state: GameState) -> tuple[str, str, list[str]] | None:
    """What restricts the seat to play, as a key, words and rules (``None``: nothing, or
    trick 1), and whether one card alone is legal or the seat holds both copies of one."""
    found = _restriction(state)
    if found is None:
        return None
    key, words, rules = found
    seat = state.to_act
    assert seat is not None
    legal = set(state.legal_plays())
    if len(legal) == 1:
        key, words = f"{key}-forced", f"{words}; one card alone is legal"
    if any(state.hands[seat].count(c) == 2 for c in legal):
        key, words = f"{key}-both-copies", (f"{words}; the seat holds both copies of a card "
                                            "it may play, listed once")
    return key, words, rules


def _restriction(state: GameState) -> tuple[str, str, list[str]] | None:
    seat = state.to_act
    if seat is None or state.trick_number < 2:
        return None
    hand = state.hands[seat]
    legal = state.legal_plays()
    if len(set(legal)) == len(set(hand)):
        return None  # every card may be played: only a void follower is worth a case
    if not state.trick:
        after_void = bool(state.pending) and state.tricks and state.tricks[-1].void
        if after_void:
            return ("lead-after-void", "the leader of a void trick leads again, and may not "
                    "lead a heart while hearts are unbroken", ["VOID.LEADER", "LEAD.HEARTS"])
        return ("lead-unbroken", "hearts are unbroken: the leader may not lead a heart",
                ["LEAD.HEARTS", "HEARTS.BROKEN"])
    gone = cancelled_cards(state.trick)
    if state.trick[0] in gone:
        return ("follow-led-cancelled", "the led card is cancelled, but its suit must still "
                "be followed", ["FOLLOW.SUIT", "TRICK.LED_SUIT", "TRICK.CANCEL"])
    if any(c in state.trick for c in legal):
        return ("follow-identical", "the seat must follow suit and may play a card identical "
                "to one in the trick", ["FOLLOW.SUIT", "TRICK.CANCEL"])
    return ("follow-suit", "the seat must follow suit", ["FOLLOW.SUIT"])


def legal_moments(deal: Deal) -> Iterator[tuple[tuple[Any, ...], _Moment]]:
    """Each play after trick 1 that a rule restricts, keyed by the restriction."""
    for i, state in _moments(deal):
        found = restriction(state)
        if found is None:
            continue
        key, words, rules = found

        def make(sc: Scenario, slug: str = f"{deal.name}-p{deal.players}-s{deal.seed}-{key}",
                 text: str = f"{deal.words}, trick {state.trick_number}: {words}.",
                 rules: list[str] = rules) -> Case:
            return legal_case(sc, slug, text, rules)

        yield _key(deal, key), _Moment(deal, i, make)


# --- illegal actions -----------------------------------------------------------------------


def _both_copies_played(state: GameState) -> Card | None:
    """A card whose two copies are already played in this deal, if one is."""
    gone = [c for t in state.tricks for c in t.cards] + list(state.trick)
    return next((c for c in sorted(set(gone)) if gone.count(c) == 2), None)


def _illegal(state: GameState) -> Iterator[tuple[str, Action, str, list[str]]]:
    """The illegal actions worth a case at this moment after trick 1: key, action, words,
    and the rules that decide it besides those the rejection cites."""
    seat = state.to_act
    if seat is None or state.trick_number < 2:
        return
    others = [s for s in range(state.players) if s != seat and state.hands[s]]
    if not others:
        return
    other = others[0]
    if not state.trick:
        void = bool(state.tricks) and state.tricks[-1].void
        yield (("lead-after-void-by-another" if void else "lead-by-the-loser"),
               Play(other, state.hands[other][0]),
               ("after a void trick a seat other than its leader leads" if void else
                "a seat other than the last trick's winner leads"),
               ["VOID.LEADER"] if void else ["TRICK.NEXT_LEADER"])
        return
    yield "out-of-turn", Play(other, state.hands[other][0]), "a seat plays out of turn", []
    card = _both_copies_played(state)
    if card is not None:
        yield ("card-both-copies-played", Play(seat, card),
               f"the seat to play plays {card}, both copies of which are already played", [])
    yield ("pass-while-playing", Pass(seat, state.hands[seat][:3]),
           "the seat to play passes cards during play", [])
    yield ("moon-while-playing", ChooseMoon(seat, MoonChoice.ADD),
           "the seat to play makes a moon choice during play", ["MOON.CHOICE"])


def illegal_moments(deal: Deal) -> Iterator[tuple[tuple[Any, ...], _Moment]]:
    """Each illegal action of :func:`_illegal`, keyed by its kind."""
    for i, state in _moments(deal):
        for key, action, words, deciding in _illegal(state):

            def make(sc: Scenario, action: Action = action,
                     slug: str = f"{deal.name}-p{deal.players}-s{deal.seed}-{key}",
                     text: str = f"{deal.words}, trick {state.trick_number}: {words}.",
                     deciding: list[str] = deciding) -> Case:
                return sc.case("illegal-action", slug, text, [*sc.reject(action), *deciding])

            yield _key(deal, key), _Moment(deal, i, make)


# --- the end of the deal --------------------------------------------------------------------


def end_moments(deal: Deal) -> Iterator[tuple[tuple[Any, ...], _Moment]]:
    """The deal's last card, keyed by whether its last trick is void and how many seats
    score (a deal with a moon, of one seat or of two, is the moon kind's)."""
    actions = _actions(deal)
    before = _at(deal, actions[:-1]).state
    result = before.apply(actions[-1])[0].deal_results
    if not result or result[-1].moon_shooter is not None or result[-1].moon_pair is not None:
        return
    scored = sum(1 for p in result[-1].card_points if p)
    void = bool(result[-1].uncollected)
    rules = ["SCORE.CARD_POINTS", "SCORE.DEAL", "MOON.CONDITION", "DEAL.DEALER",
             "PASS.DIRECTION", *(["VOID.LAST"] if void else [])]
    words = ("the last trick is void and nobody collects its cards; " if void else
             "the last card: ") + (f"the {scored} seats that collected points score them, and "
                                   "deal 2 is dealt")

    def make(sc: Scenario) -> Case:
        return end_case(sc, "scoring", f"{deal.name}-p{deal.players}-s{deal.seed}-end",
                        f"{deal.words}, {words}.", rules, then_deal=deal.seed)

    yield _key(deal, (void, scored)), _Moment(deal, len(actions) - 1, make)


#: Each kind the family adds cases to -> the moments of a deal worth one.
MOMENTS: dict[str, Callable[[Deal], Iterator[tuple[tuple[Any, ...], _Moment]]]] = {
    "trick": trick_moments,
    "legal-plays": legal_moments,
    "illegal-action": illegal_moments,
    "scoring": end_moments,
}


def from_a_played_deal(case_id: str) -> bool:
    """Is ``case_id`` one of this family's (``KIND/PRESET-pN-sSEED-…``, a preset of
    :data:`DEALS`)?"""
    slug = case_id.split("/", 1)[-1]
    return any(slug.startswith(f"{d.name}-p{d.players}-s{d.seed}-") for d in DEALS)


def generate(kind: str) -> list[Case]:
    """The family's cases of ``kind`` (a key of :data:`MOMENTS`)."""
    return _earliest(found for deal in DEALS for found in MOMENTS[kind](deal))
