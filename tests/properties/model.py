"""A second, deliberately simple implementation of one deal, written from the rule text.

It follows ``spec/rules.toml`` and the switch meanings of
``spec/variants.toml`` directly, step by step, with plain lists and
counters. It uses the engine's :class:`~rules_ref.cards.Card` values and
:class:`~rules_ref.ruleset.Ruleset` only as data and calls none of the
engine's rule functions, so comparing the two (``test_model.py`` and the
game machine) checks the engine against an independent reading of the
rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules_ref.actions import MoonChoice
from rules_ref.cards import CARDS, Card, Suit
from rules_ref.ruleset import (
    FirstTrickPoints,
    FirstTrickTwoOfClubs,
    HeartsBrokenBy,
    LastTrickVoid,
    Moon,
    MoonPair,
    OpeningLead,
    PassDirection,
    Ruleset,
)

QUEEN_OF_SPADES = CARDS[Suit.S * 13 + 12 - 2]
TEN_OF_DIAMONDS = CARDS[Suit.D * 13 + 10 - 2]
TWO_OF_CLUBS = CARDS[Suit.C * 13 + 2 - 2]
PLAYING, PASSING, MOON, SCORED = "playing", "passing", "moon-choice", "scored"


def is_point_card(c: Card) -> bool:
    """A heart or a Q♠."""
    return c.suit == Suit.H or c == QUEEN_OF_SPADES


def heart_and_queen_points(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if c.suit == Suit.H) + 13 * sum(
        1 for c in cards if c == QUEEN_OF_SPADES)


def trick_result(cards: Sequence[Card]) -> tuple[int | None, frozenset[Card]]:
    """``(position of the winning card or None when void, the cancelled cards)``."""
    counts = Counter(cards)
    cancelled = frozenset(c for c, k in counts.items() if k == 2)
    led = cards[0].suit
    live = [(c.rank, pos) for pos, c in enumerate(cards) if c.suit == led and counts[c] == 1]
    return (max(live)[1] if live else None), cancelled


def pass_offset(direction: object, players: int) -> int | None:
    """Seats to the left; ``left-k`` and ``right-k`` are read from their text."""
    text = str(direction)
    if text.startswith(("left-", "right-")):
        side, k = text.split("-")
        return (int(k) if side == "left" else -int(k)) % players
    return {PassDirection.LEFT: 1, PassDirection.RIGHT: players - 1,
            PassDirection.ACROSS: players // 2, PassDirection.HOLD: None}[PassDirection(text)]


@dataclass
class Outcome:
    leader: int
    cards: tuple[Card, ...]
    winner: int | None


@dataclass
class ModelDeal:
    """One deal, from the cards dealt to the scores."""

    ruleset: Ruleset
    players: int
    deal_number: int
    dealer: int
    totals_before: tuple[int, ...]
    hands: list[list[Card]]
    extras: tuple[Card, ...]
    offset: int | None = None
    passes: list[tuple[Card, ...] | None] = field(default_factory=list)
    phase: str = PASSING
    trick_number: int = 0
    leader: int = 0
    trick: list[Card] = field(default_factory=list)
    broken: bool = False
    pending: list[Card] = field(default_factory=list)
    collected: list[list[Card]] = field(default_factory=list)
    uncollected: list[Card] = field(default_factory=list)
    shares: list[int] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    shooter: int | None = None
    card_points: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    game_over: bool = False
    winners: tuple[int, ...] = ()

    @classmethod
    def start(cls, ruleset: Ruleset, players: int, deal_number: int, dealer: int,
              totals: tuple[int, ...], hands: Sequence[Sequence[Card]],
              extras: Sequence[Card]) -> ModelDeal:
        cycle = ruleset.pass_cycle
        model = cls(ruleset, players, deal_number, dealer, totals,
                    [sorted(h) for h in hands], tuple(extras),
                    offset=pass_offset(cycle[(deal_number - 1) % len(cycle)], players),
                    passes=[None] * players, collected=[[] for _ in range(players)],
                    totals=totals)
        if model.offset is None:
            model._begin_play()
        return model

    # --- passing and play ---------------------------------------------------------------

    def give_pass(self, seat: int, cards: Sequence[Card]) -> None:
        assert self.phase == PASSING and self.passes[seat] is None and self.offset is not None
        self.passes[seat] = tuple(sorted(cards))
        if all(p is not None for p in self.passes):
            n = self.players
            new = []
            for s in range(n):
                hand = Counter(self.hands[s])
                hand.subtract(self.passes[s] or ())
                hand.update(self.passes[(s - self.offset) % n] or ())
                new.append(sorted(hand.elements()))
            dealt = self.hands
            self.hands = new
            self._begin_play(dealt)

    def opening_leader(self, dealt: Sequence[Sequence[Card]]) -> int:
        n = self.players
        # two-of-clubs looks in the hands play begins with, two-of-clubs-dealt in those dealt;
        # both from the dealer's left, the dealer last
        searched = {OpeningLead.TWO_OF_CLUBS: self.hands, OpeningLead.TWO_OF_CLUBS_DEALT: dealt}
        hands = searched.get(self.ruleset.opening_lead)
        if hands is not None:
            for step in range(1, n + 1):
                if TWO_OF_CLUBS in hands[(self.dealer + step) % n]:
                    return (self.dealer + step) % n
        return (self.dealer + 1) % n

    def _begin_play(self, dealt: Sequence[Sequence[Card]] | None = None) -> None:
        self.phase = PLAYING
        self.trick_number = 1
        self.leader = self.opening_leader(self.hands if dealt is None else dealt)

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def _scoring(self, c: Card) -> bool:
        return is_point_card(c) or (c == TEN_OF_DIAMONDS
                                    and self.ruleset.ten_of_diamonds_points != 0)

    def legal(self, seat: int) -> set[Card]:
        """The cards ``seat`` may play now (empty when it is not its turn)."""
        if self.phase != PLAYING or seat != self.to_act:
            return set()
        hand = set(self.hands[seat])
        rs = self.ruleset
        if not self.trick and self.trick_number == 1:
            if rs.opening_lead in (OpeningLead.TWO_OF_CLUBS, OpeningLead.TWO_OF_CLUBS_DEALT) \
                    and TWO_OF_CLUBS in hand:
                return {TWO_OF_CLUBS}
            if rs.opening_lead is OpeningLead.LEFT_OF_DEALER_NO_SCORING:
                allowed = {c for c in hand if not self._scoring(c)}
            else:
                allowed = {c for c in hand if not is_point_card(c)}
            return allowed or hand
        if not self.trick:
            if self.broken or rs.hearts_broken_by is HeartsBrokenBy.NOT_NEEDED:
                return hand
            return {c for c in hand if c.suit != Suit.H} or hand
        led = self.trick[0].suit
        if (self.trick_number == 1 and TWO_OF_CLUBS in hand
                and rs.first_trick_two_of_clubs is FirstTrickTwoOfClubs.MUST_PLAY):
            return {TWO_OF_CLUBS}
        following = {c for c in hand if c.suit == led}
        choice = following or hand
        # trick 1: no heart or Q♠ unless every card of the choice is one; when following
        # suit only under forbidden-even-following, when void under either ban
        if self.trick_number == 1 and (
                rs.first_trick_points is FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING
                or (rs.first_trick_points is FirstTrickPoints.FORBIDDEN and not following)):
            return {c for c in choice if not is_point_card(c)} or choice
        return choice

    def _breaks(self, c: Card) -> bool:
        rule = self.ruleset.hearts_broken_by
        if rule is HeartsBrokenBy.HEART:
            return c.suit == Suit.H
        if rule is HeartsBrokenBy.HEART_DISCARD:
            return c.suit == Suit.H and bool(self.trick) and self.trick[0].suit != Suit.H
        if rule is HeartsBrokenBy.HEART_NOT_LED:
            return c.suit == Suit.H and bool(self.trick)
        return is_point_card(c)  # heart-or-queen, and tracked the same way under not-needed

    def play(self, seat: int, c: Card) -> None:
        assert c in self.legal(seat), f"the model does not allow seat {seat} to play {c}"
        if self._breaks(c):
            self.broken = True
        self.hands[seat].remove(c)
        self.trick.append(c)
        if len(self.trick) == self.players:
            self._finish_trick()

    def _finish_trick(self) -> None:
        leader = self.leader
        pos, _ = trick_result(self.trick)
        winner = None if pos is None else (leader + pos) % self.players
        extras = list(self.extras) if self.trick_number == 1 else []
        if winner is None:
            self.pending += self.trick + extras
        else:
            self.collected[winner] += self.pending + self.trick + extras
            self.pending = []
            self.leader = winner
        self.outcomes.append(Outcome(leader, tuple(self.trick), winner))
        self.trick = []
        self.trick_number += 1
        if not any(self.hands):
            self._end_deal()

    # --- end of the deal ----------------------------------------------------------------

    def _end_deal(self) -> None:
        gains, self.uncollected = settle(self.pending, self.outcomes[-1], self.players,
                                         self.ruleset)
        self.shares = [0] * self.players
        if (self.ruleset.last_trick_void is LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR
                and self.uncollected):
            first, second = top_pair(self.outcomes[-1], self.players)
            points = heart_and_queen_points(self.uncollected)
            self.shares[first], self.shares[second] = (points + 1) // 2, points // 2
        for seat, cards in enumerate(gains):
            self.collected[seat] += cards
        self.pending = []
        self.shooter = find_shooter(self.collected)
        if self.shooter is not None and self.ruleset.moon is Moon.CHOICE_26:
            self.phase = MOON
        else:
            self._score(None)

    def choose_moon(self, seat: int, choice: MoonChoice) -> None:
        assert self.phase == MOON and seat == self.shooter
        self._score(choice)

    def _score(self, choice: MoonChoice | None) -> None:
        points, scores = score(self.collected, self.shooter, choice, self.ruleset)
        self.card_points = tuple(p + s for p, s in zip(points, self.shares, strict=True))
        self.scores = tuple(p + s for p, s in zip(scores, self.shares, strict=True))
        self.totals = tuple(t + s for t, s in zip(self.totals_before, self.scores, strict=True))
        self.phase = SCORED
        self.game_over = max(self.totals) >= self.ruleset.target
        if self.game_over:
            low = min(self.totals)
            self.winners = tuple(s for s, t in enumerate(self.totals) if t == low)


def settle(pending: Sequence[Card], last: Outcome, players: int,
           ruleset: Ruleset) -> tuple[list[list[Card]], list[Card]]:
    """Where the cards still pending at the end of a deal go: ``(gains by seat, uncollected)``."""
    gains: list[list[Card]] = [[] for _ in range(players)]
    if not pending:
        return gains, []
    rule = ruleset.last_trick_void
    if rule is LastTrickVoid.LEADER:
        gains[last.leader] += pending
        return gains, []
    if rule is LastTrickVoid.SPLIT_HIGHEST_PAIR:
        first, second = top_pair(last, players)
        gains[first] += pending[0::2]
        gains[second] += pending[1::2]
        return gains, []
    return gains, list(pending)


def top_pair(last: Outcome, players: int) -> tuple[int, int]:
    """The seats of the highest cancelled pair of the led suit, in play order."""
    _, cancelled = trick_result(last.cards)
    led = last.cards[0].suit
    top = max((c for c in cancelled if c.suit == led), key=lambda c: c.rank)
    seats = [(last.leader + i) % players for i, c in enumerate(last.cards) if c == top]
    return seats[0], seats[1]


def find_shooter(collected: Sequence[Sequence[Card]]) -> int | None:
    """The seat that collected all 26 hearts and both Q♠, if any."""
    for seat, cards in enumerate(collected):
        if (sum(1 for c in cards if c.suit == Suit.H) == 26
                and sum(1 for c in cards if c == QUEEN_OF_SPADES) == 2):
            return seat
    return None


def score(collected: Sequence[Sequence[Card]], moon: int | None, choice: MoonChoice | None,
          ruleset: Ruleset) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(card points, deal scores)`` of a deal; ``moon`` is the shooter, if any."""
    bonus = [ruleset.ten_of_diamonds_points * sum(1 for c in cards if c == TEN_OF_DIAMONDS)
             for cards in collected]
    points = tuple(heart_and_queen_points(cards) + b
                   for cards, b in zip(collected, bonus, strict=True))
    holders = [s for s, cards in enumerate(collected) if heart_and_queen_points(cards)]
    if (moon is None and ruleset.moon_pair is MoonPair.OTHERS_26 and len(holders) == 2
            and sum(heart_and_queen_points(collected[s]) for s in holders) == 52):
        return points, tuple((0 if s in holders else 26) + bonus[s]
                             for s in range(len(collected)))
    if moon is None:
        return points, points
    if ruleset.moon is Moon.CHOICE_26 and choice is MoonChoice.SUBTRACT:
        mine, others = -26, 0
    elif ruleset.moon is Moon.CHOICE_26:
        mine, others = 0, 26
    else:
        mine, others = 0, 52 if ruleset.moon is Moon.OTHERS_52 else 104
    return points, tuple((mine if s == moon else others) + bonus[s]
                         for s in range(len(collected)))
