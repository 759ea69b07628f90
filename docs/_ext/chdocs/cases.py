"""Small worked cases for the rules site: positions, passes and tables, answered by the engine.

A whole deal is a :mod:`chdocs.scenarios` scenario; many rules are better
shown by one position (which cards may a seat lead here?), one passing round
or one table of the engine's answers (the hand sizes, the dealers). Each case
here is a function that sets the position up through
:meth:`GameState.apply <rules_ref.GameState.apply>` and asks the engine
(:meth:`~rules_ref.GameState.legal_plays`,
:meth:`~rules_ref.GameState.violations`, the rule functions); its
:class:`Case` holds what the page draws and every way the engine's answer
differs from what the page says (``problems``), which the build reports as a
warning. Like :mod:`chdocs.scenarios`, this module needs no Sphinx.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rules_ref import (
    DealCards,
    GameState,
    Pass,
    Play,
    Ruleset,
    SetupError,
    parse_cards,
    seeded_deal,
)
from rules_ref.cards import CARDS, Card
from rules_ref.deal import dealer_for_deal, extras_count, hand_size, shuffled_deck
from rules_ref.passing import pass_direction, pass_target
from rules_ref.ruleset import FirstTrickPoints, PassDirection
from rules_ref.view import seat_view

from .scenarios import NO_PASSING, SCENARIOS, hands_for


@dataclass(frozen=True, slots=True)
class Row:
    """One labelled line: cards face up, then ``hidden`` cards face down, then words."""

    label: str
    cards: tuple[Card, ...] = ()
    text: str = ""
    hidden: int = 0


@dataclass(frozen=True, slots=True)
class Table:
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


#: a part of a case: a paragraph (spec prose, rule IDs linked), a row of cards or a table
Part = str | Row | Table


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    title: str
    rules: tuple[str, ...]
    parts: tuple[Part, ...]
    problems: tuple[str, ...] = ()


class _Builder:
    """Collects a case's parts and compares the engine's answers with the page's."""

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.problems: list[str] = []

    def say(self, *parts: Part) -> None:
        self.parts.extend(parts)

    def expect(self, what: str, got: object, claimed: object) -> None:
        if got != claimed:
            self.problems.append(f"{what}: the engine says {got!r}, the page says {claimed!r}")

    def case(self, name: str, title: str, rules: Sequence[str]) -> Case:
        return Case(name, title, tuple(rules), tuple(self.parts), tuple(self.problems))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def deal_around(players: int, dealer: int, fixed: dict[int, str], ruleset: Ruleset = NO_PASSING,
                seed: int = 1) -> GameState:
    """A game whose first deal gives each seat in ``fixed`` those cards (completed from a shuffle).

    The rest of the deck, in the order of the portable shuffle for ``seed``,
    completes each hand to its size; what is left over is the extras.
    """
    size = hand_size(players)
    left = Counter(c for c in CARDS for _ in range(2))
    hands: list[list[Card]] = [list(cards(fixed.get(s, ""))) for s in range(players)]
    for hand in hands:
        left.subtract(hand)
    rest: list[Card] = []
    for c in shuffled_deck(seed, 1):
        if left[c] > 0:
            left[c] -= 1
            rest.append(c)
    for hand in hands:
        while len(hand) < size:
            hand.append(rest.pop(0))
    state = GameState.start(players, ruleset, dealer)
    state, _ = state.apply(DealCards(tuple(tuple(sorted(h)) for h in hands), tuple(rest)))
    return state


def play_cards(state: GameState, text: str) -> GameState:
    """Play these cards in turn, each by the seat to act."""
    for c in cards(text):
        assert state.to_act is not None
        state, _ = state.apply(Play(state.to_act, c))
    return state


def refusal(state: GameState, seat: int, card: Card) -> str:
    """The engine's reason for refusing ``card`` from ``seat``, as "RULE: message"."""
    found = state.violations(Play(seat, card))
    return str(found[0]) if found else "(accepted)"


def _legal_rows(b: _Builder, state: GameState, seat: int, what: str, claimed: str) -> None:
    hand = state.hands[seat]
    legal = state.legal_plays(seat)
    b.expect(f"the {what} of seat {seat}", sorted(set(legal)), sorted(set(cards(claimed))))
    barred = tuple(c for c in dict.fromkeys(hand) if c not in legal)
    b.say(Row(f"seat {seat} holds", hand), Row(f"may {what}", legal))
    if barred:
        b.say(Row("may not", barred),
              f"Asked to play the {barred[0].pretty}, the engine refuses: "
              f"{refusal(state, seat, barred[0])}.")


# --- players, deck and deal -----------------------------------------------------------------


def players_count() -> Case:
    b = _Builder()
    rows = []
    for n in (5, 6, 8, 11, 12):
        try:
            GameState.start(n)
        except SetupError as exc:
            rows.append((str(n), f"refused: {exc}"))
        else:
            rows.append((str(n), "a game is set up"))
    accepted = tuple(r[0] for r in rows if not r[1].startswith("refused"))
    b.expect("the player counts accepted", accepted, ("6", "8", "11"))
    b.say("The engine is asked to set up games of 5, 6, 8, 11 and 12 players "
          "(PLAYERS.COUNT).", Table(("Players", "The engine's answer"), tuple(rows)))
    return b.case("players-count", "Which player counts the engine sets up", ["PLAYERS.COUNT"])


def deal_sizes() -> Case:
    b = _Builder()
    rows = []
    for n in range(6, 12):
        deal = seeded_deal(seed=1, players=n, deal_number=1, dealer=0)
        sizes = {len(h) for h in deal.hands}
        b.expect(f"the hand sizes of a seeded deal for {n}", sizes, {hand_size(n)})
        rows.append((str(n), str(hand_size(n)), str(extras_count(n)), str(hand_size(n)),
                     str(n * hand_size(n) + extras_count(n))))
    b.expect("the hand sizes for 6 to 11", [r[1:3] for r in rows],
             [("17", "2"), ("14", "6"), ("13", "0"), ("11", "5"), ("10", "4"), ("9", "5")])
    b.say("Hand size and extras for each player count, with the cards of one seeded deal "
          "counted (DEAL.SIZE, DECK.CARDS).",
          Table(("Players", "Cards each", "Extras", "Tricks", "Cards in all"), tuple(rows)))
    three = deal_hands_with_a_third_copy()
    b.expect("the deal with a third A♠ is refused", three.startswith("refused"), True)
    b.say("An explicit deal in which one hand holds a third A♠ in place of one of its cards: "
          f"{three} (DECK.CARDS, DEAL.SOURCE).")
    return b.case("deal-sizes", "Hand sizes and extras, and a deck with three A♠",
                  ["DEAL.SIZE", "DECK.CARDS", "DEAL.SOURCE"])


def deal_hands_with_a_third_copy() -> str:
    deal = seeded_deal(seed=1, players=6, deal_number=1, dealer=0)
    hands = list(deal.hands)
    ace = cards("AS")[0]
    other = next(i for i, c in enumerate(hands[0]) if c != ace)
    hands[0] = tuple(ace if i == other else c for i, c in enumerate(hands[0]))
    extras = deal.extras
    try:
        GameState.start(6).apply(DealCards(tuple(hands), extras))
    except SetupError as exc:
        return f"refused: {exc}"
    return "accepted"


def seeded() -> Case:
    b = _Builder()
    deal = seeded_deal(seed=2026, players=7, deal_number=1, dealer=0)
    again = seeded_deal(seed=2026, players=7, deal_number=1, dealer=0)
    second = seeded_deal(seed=2026, players=7, deal_number=2, dealer=1)
    b.expect("the same seed, deal and dealer give the same deal", again, deal)
    b.expect("the next deal differs", second.hands == deal.hands, False)
    b.say("Seed 2026, 7 players, deal 1, dealer seat 0, dealt by the portable shuffle of "
          "spec/deal.md (DEAL.SOURCE). Any implementation given the same seed, deal number "
          "and dealer must produce exactly these hands and extras.")
    b.say(*(Row(f"seat {s}", h) for s, h in enumerate(deal.hands)))
    b.say(Row("extras", deal.extras, "face down on the table (DEAL.SIZE, VIEW.SEAT)"))
    return b.case("seeded-deal", "A seeded deal: seed 2026, 7 players", ["DEAL.SOURCE"])


def dealers_and_passes() -> Case:
    b = _Builder()
    players, first = 7, 5
    cycle = Ruleset(pass_cycle=(PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS,
                                PassDirection.HOLD))
    rows = []
    for k in range(1, 9):
        dealer = dealer_for_deal(first, k, players)
        default_to = pass_target(0, k, players, Ruleset())
        other_to = pass_target(0, k, players, cycle)
        rows.append((str(k), str(dealer), str((dealer + 1) % players),
                     f"{pass_direction(k, Ruleset())}: to seat {default_to}",
                     f"{pass_direction(k, cycle)}"
                     + (f": to seat {other_to}" if other_to is not None else "")))
    b.expect("the dealers of deals 1 to 8", [r[1] for r in rows],
             ["5", "6", "0", "1", "2", "3", "4", "5"])
    b.expect("seat 0's passes in deals 1 and 2", [r[3] for r in rows[:2]],
             ["left: to seat 1", "right: to seat 6"])
    b.say("Seven players, seat 5 deals first (DEAL.DEALER). The seat left of each dealer "
          "makes the opening lead (LEAD.OPENING_LEADER). Where seat 0 passes in each deal, "
          "by default and under the `pass_cycle` left, right, across, hold (PASS.DIRECTION): "
          "across is 3 seats to the left with 7 players.",
          Table(("Deal", "Dealer", "Opening lead", "Seat 0 passes (default)",
                 "Seat 0 passes (left, right, across, hold)"), tuple(rows)))
    return b.case("dealers-and-passes", "Dealer, opening leader and pass direction, deal by deal",
                  ["DEAL.DEALER", "LEAD.OPENING_LEADER", "PASS.DIRECTION"])


# --- passing --------------------------------------------------------------------------------


def passing_round() -> Case:
    b = _Builder()
    deal = seeded_deal(seed=7, players=6, deal_number=1, dealer=0)
    state = GameState.start(6)
    state, _ = state.apply(DealCards(deal.hands, deal.extras))
    dealt = state.hands
    choice = [tuple(sorted(h, reverse=True)[:3]) for h in dealt]
    b.expect("seat 0 passes both Q♠", Counter(choice[0])[cards("QS")[0]], 2)
    b.say("Six players, deal 1 (seed 7), so every seat passes 3 cards to the left "
          "(PASS.DIRECTION, PASS.CARDS). Each seat passes the last three cards of its hand in "
          "the order drawn here; seat 0's are the K♠ and both Q♠, and the two copies of a "
          "card may be passed together.")
    short = state.violations(Pass(1, choice[1][:2]))
    b.say(f"Seat 1 first offers only two cards: refused, {short[0] if short else 'accepted'}.")
    b.expect("a pass of two cards is refused under", short[0].rule_id if short else "",
             "PASS.CARDS")
    state, _ = state.apply(Pass(0, choice[0]))
    b.expect("the hands after one seat has passed", state.hands, dealt)
    again = state.violations(Pass(0, choice[0][::-1]))
    b.say("Seat 0 passes; nothing moves yet, and when it then tries to change its pass: "
          f"refused, {again[0] if again else 'accepted'}.")
    b.expect("a second pass is refused under", again[0].rule_id if again else "",
             "PASS.EXCHANGE")
    for seat in (3, 5, 1, 4, 2):
        state, _ = state.apply(Pass(seat, choice[seat]))
        if seat != 2:
            b.expect(f"the hands after seat {seat} passed", state.hands, dealt)
    b.say("The other seats pass in the order 3, 5, 1, 4, 2; only when the last one has "
          "passed do the cards move, all at once (PASS.EXCHANGE):")
    rows = []
    for seat in range(6):
        giver = (seat - 1) % 6
        kept = Counter(dealt[seat]) - Counter(choice[seat])
        got = tuple(sorted((Counter(state.hands[seat]) - kept).elements()))
        b.expect(f"what seat {seat} received", got, tuple(sorted(choice[giver])))
        rows.append((str(seat), " ".join(c.pretty for c in choice[seat]),
                     str((seat + 1) % 6), " ".join(c.pretty for c in got), str(giver)))
    b.say(Table(("Seat", "Passes", "to seat", "Receives", "from seat"), tuple(rows)),
          "The hands after the exchange, with which play begins:",
          *(Row(f"seat {seat}", hand) for seat, hand in enumerate(state.hands)))
    return b.case("passing-round", "A passing round: three cards to the left, all at once",
                  ["PASS.CARDS", "PASS.EXCHANGE", "PASS.DIRECTION"])


# --- leading and following --------------------------------------------------------------------


def leads_with_hearts_and_queens() -> Case:
    b = _Builder()
    state = deal_around(6, 0, {1: "3C 9D QS 4H KH", 2: "5C", 3: "AC QS " + " ".join(
        ["2H", "3H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "AH", "2H", "3H", "5H",
         "6H"]), 4: "7C", 5: "8C", 0: "10C"})
    b.say("Six players, dealer seat 0: seat 1 makes the opening lead (LEAD.OPENING_LEADER). "
          "It holds hearts and a Q♠ among other cards, so neither may open (LEAD.OPENING_CARD):")
    hand = state.hands[1]
    _legal_rows(b, state, 1, "lead", " ".join(str(c) for c in hand
                                              if c.suit.name != "H" and str(c) != "QS"))
    state = play_cards(state, "3C 5C AC 7C 8C 10C")
    b.expect("hearts broken after trick 1", state.hearts_broken, False)
    b.say("Trick 1 is all clubs; seat 3 wins it with the A♣ and leads trick 2 holding only "
          "hearts and a Q♠, with hearts unbroken. This is not the opening lead, so the "
          "exception of LEAD.OPENING_CARD does not apply: the Q♠ may be led, a heart may not "
          "(LEAD.HEARTS).")
    _legal_rows(b, state, 3, "lead", "QS")
    return b.case("leads-hearts-and-queens", "Hearts and Q♠: the opening lead and a later lead",
                  ["LEAD.OPENING_CARD", "LEAD.HEARTS", "LEAD.OPENING_LEADER"])


def opening_with_only_hearts_and_queens() -> Case:
    b = _Builder()
    state = deal_around(11, 0, {1: "QS QS 2H 5H 7H 9H JH KH AH"})
    b.say("Eleven players, dealer seat 0. Seat 1, the opening leader, holds nothing but hearts "
          "and Q♠: then any card may open the deal (LEAD.OPENING_CARD).")
    _legal_rows(b, state, 1, "lead", "QS 2H 5H 7H 9H JH KH AH")
    return b.case("opening-only-hearts-and-queens",
                  "An opening leader with nothing but hearts and Q♠", ["LEAD.OPENING_CARD"])


def lead_with_only_hearts() -> Case:
    b = _Builder()
    clubs = "3C 5C AC 6C 7C 8C 9C 10C JC QC KC"
    fixed = {(1 + i) % 11: c for i, c in enumerate(clubs.split())}
    fixed[3] = "AC 2H 4H 6H 8H 10H QH KH AH"
    state = play_cards(deal_around(11, 0, fixed), clubs)
    b.expect("hearts broken after trick 1", state.hearts_broken, False)
    b.say("Eleven players. Trick 1 is all clubs and seat 3 wins it with the A♣; it now holds "
          "only hearts and hearts are unbroken. A leader holding nothing but hearts may lead "
          "one (LEAD.HEARTS).")
    _legal_rows(b, state, 3, "lead", "2H 4H 6H 8H 10H QH KH AH")
    return b.case("lead-only-hearts", "A leader with nothing but hearts, hearts unbroken",
                  ["LEAD.HEARTS"])


def queen_breaks_hearts() -> Case:
    b = _Builder()
    state = deal_around(6, 0, {1: "3C", 2: "5C", 3: "AC QS 4H 9H", 4: "7C", 5: "8C", 0: "10C"})
    state = play_cards(state, "3C 5C AC 7C 8C 10C")
    b.say("Six players. Trick 1 is all clubs, so hearts are unbroken; seat 3 wins it and may "
          "lead its Q♠ although hearts are unbroken, but not a heart (LEAD.HEARTS):")
    _legal_rows(b, state, 3, "lead", " ".join(str(c) for c in state.hands[3]
                                              if c.suit.name != "H"))
    state = play_cards(state, "QS")
    for _ in range(5):
        seat = state.to_act
        assert seat is not None
        state, _ = state.apply(Play(seat, state.legal_plays(seat)[0]))
    b.expect("hearts broken once the Q♠ is led", state.hearts_broken, True)
    leader = state.leader
    b.say(f"Seat 3 leads the Q♠ and the others follow; a Q♠ played breaks hearts "
          f"(HEARTS.BROKEN). Seat {leader} leads trick 3, and may now lead any card:")
    _legal_rows(b, state, leader, "lead", " ".join(str(c) for c in state.hands[leader]))
    return b.case("queen-breaks-hearts", "A led Q♠ breaks hearts",
                  ["HEARTS.BROKEN", "LEAD.HEARTS"])


def follow_suit() -> Case:
    b = _Builder()
    state = play_cards(deal_around(6, 0, {1: "9D", 2: "4D 9D KC QS 2H"}), "9D")
    b.say("Seat 1 leads the 9♦. Seat 2 holds diamonds, so it must play one; the other 9♦ is "
          "among them, although it will cancel the led card (FOLLOW.SUIT, TRICK.CANCEL).")
    _legal_rows(b, state, 2, "play", " ".join(str(c) for c in dict.fromkeys(state.hands[2])
                                              if c.suit.name == "D"))
    return b.case("follow-suit", "Following suit, even with a card that will cancel",
                  ["FOLLOW.SUIT"])


def first_trick() -> Case:
    b = _Builder()
    fixed = {1: "3C", 2: "QS 2H 9H 4D 8D JD 5S 6S 7S", 3: "QS 3H 5H 6H 7H 8H 10H JH KH"}
    strict = replace(NO_PASSING, first_trick_points=FirstTrickPoints.FORBIDDEN)
    b.say("Eleven players; seat 1 opens trick 1 with the 3♣ and seat 2 holds no club. By "
          "default a heart or a Q♠ may be played to trick 1 like any card (FOLLOW.FIRST_TRICK):")
    state = play_cards(deal_around(11, 0, fixed), "3C")
    _legal_rows(b, state, 2, "play", "QS 2H 9H 4D 8D JD 5S 6S 7S")
    b.say("Under `first_trick_points` = forbidden, the same seat may not play them:")
    state = play_cards(deal_around(11, 0, fixed, strict), "3C")
    _legal_rows(b, state, 2, "play", "4D 8D JD 5S 6S 7S")
    state = play_cards(state, "4D")
    b.say("Seat 3 holds no club either, and nothing but hearts and Q♠: nothing else can be "
          "played, so under the same switch all of them may be:")
    _legal_rows(b, state, 3, "play", "QS 3H 5H 6H 7H 8H 10H JH KH")
    return b.case("first-trick", "Hearts and Q♠ on the first trick, by default and forbidden",
                  ["FOLLOW.FIRST_TRICK"])


def turn_order() -> Case:
    b = _Builder()
    deal = seeded_deal(seed=3, players=6, deal_number=1, dealer=4)
    state = GameState.start(6, NO_PASSING, first_dealer=4)
    state, _ = state.apply(DealCards(deal.hands, deal.extras))
    b.expect("the seat to act first", state.to_act, 5)
    early = state.hands[1][0]
    b.say(f"Six players, dealer seat 4: seat 5 leads. Seat 1 tries to play its {early.pretty} "
          f"first: refused, {refusal(state, 1, early)}.")
    other = next(c for c in state.hands[1] if c not in state.hands[5])
    b.expect("seat 5 holding that card", other in state.hands[5], False)
    b.say(f"Seat 5 tries the {other.pretty} of seat 1's hand, which it does not hold: refused, "
          f"{refusal(state, 5, other)}.")
    order = []
    for _ in range(6):
        seat = state.to_act
        assert seat is not None
        order.append(seat)
        state, _ = state.apply(Play(seat, state.legal_plays(seat)[0]))
    b.expect("the order of play of trick 1", order, [5, 0, 1, 2, 3, 4])
    b.say(f"Trick 1 is then played by seats {', '.join(map(str, order))}, each in turn to "
          "the left (TURN.ORDER).")
    return b.case("turn-order", "Turn order: only the seat to act may play, a card it holds",
                  ["TURN.ORDER", "TURN.OWN_CARD"])


# --- visibility -------------------------------------------------------------------------------


def seat_sees() -> Case:
    b = _Builder()
    sc = SCENARIOS["void-first-trick"]
    tricks = tuple(cards(t) for t in sc.tricks)
    state = GameState.start(sc.players, sc.ruleset, sc.dealer)
    state, _ = state.apply(DealCards(hands_for(sc.players, sc.dealer, tricks), cards(sc.extras)))
    state = play_cards(state, sc.tricks[0])
    view = seat_view(state, 0)
    b.expect("what seat 0 sees of the pending pile", (view.pending_cards_seen, view.pending_hidden),
             (tricks[0], 6))
    b.expect("the extras seat 0 sees", view.extras, None)
    b.say("The deal “A void first trick” after trick 1, as seat 0 sees it (VIEW.SEAT): its "
          "own hand, trick 1's cards face up in the pending pile, and the 6 extras, which "
          "joined the pile (EXTRAS.FIRST_TRICK), face down.",
          Row("seat 0's hand", view.hand),
          Row("pending pile", view.pending_cards_seen, "", view.pending_hidden))
    state = play_cards(state, sc.tricks[1])
    view = seat_view(state, 0)
    taken = [(t.number, t.winner) for t in view.tricks]
    b.expect("who took each trick, as seat 0 sees it", taken, [(1, None), (2, 4)])
    b.expect("the extras seat 0 sees after trick 2", view.extras, None)
    b.say("After trick 2 seat 0 sees that seat 4 won it and collected the pile; the extras "
          f"stay face down ({view.extras_count} of them).")
    for t in sc.tricks[2:]:
        state = play_cards(state, t)
    view = seat_view(state, 0)
    b.expect("the extras seat 0 sees once the deal is scored", view.extras, cards(sc.extras))
    b.say("Once the deal is scored, every seat sees them:",
          Row("extras", view.extras or ()))
    return b.case("seat-view", "What seat 0 sees of a void first trick and the extras",
                  ["VIEW.SEAT", "EXTRAS.FIRST_TRICK"])


#: every case, by name (the argument of the ``rule-case`` directive)
CASES: dict[str, Callable[[], Case]] = {
    "players-count": players_count,
    "deal-sizes": deal_sizes,
    "seeded-deal": seeded,
    "dealers-and-passes": dealers_and_passes,
    "passing-round": passing_round,
    "leads-hearts-and-queens": leads_with_hearts_and_queens,
    "opening-only-hearts-and-queens": opening_with_only_hearts_and_queens,
    "lead-only-hearts": lead_with_only_hearts,
    "queen-breaks-hearts": queen_breaks_hearts,
    "follow-suit": follow_suit,
    "first-trick": first_trick,
    "turn-order": turn_order,
    "seat-view": seat_sees,
}
