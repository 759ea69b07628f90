"""Worked deals for the rules site, played through the reference engine.

A :class:`Scenario` is one whole deal given as the tricks in the order they
are played (the first card of each trick is the lead). The hands are derived
from the tricks (:func:`hands_for`), dealt explicitly with
:class:`~rules_ref.DealCards`, and every card is then played with
:meth:`GameState.apply <rules_ref.GameState.apply>`, which checks it against
the rules. What the site draws is the engine's events, never this module's own
reading of the rules; :attr:`Scenario.claims` states what the page says the
deal shows, and :func:`check` compares it with what the engine did, so the
build fails (and the tests in ``tests/docs`` fail) if the two ever disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules_ref import (
    Card,
    ChooseMoon,
    DealCards,
    GameState,
    IllegalAction,
    MoonChoice,
    Phase,
    Play,
    Ruleset,
    SetupError,
    parse_cards,
)
from rules_ref import events as ev
from rules_ref.cards import Suit, penalty_points
from rules_ref.positions.convert import position_of
from rules_ref.positions.text import format_position
from rules_ref.ruleset import LastTrickVoid, Moon, PassDirection
from rules_ref.tricks import next_leader, resolve_trick

#: The ruleset of the worked deals: the default rules, with no passing so that
#: the hands shown are the hands played (``pass_cycle = hold``).
NO_PASSING = Ruleset(pass_cycle=(PassDirection.HOLD,))


class ScenarioError(Exception):
    """A scenario that is not a legal deal, or that does not show what it claims."""


@dataclass(frozen=True, slots=True)
class Claims:
    """What a scenario's page says the deal shows; :func:`check` holds the engine to it."""

    void_tricks: tuple[int, ...] = ()
    #: (trick number, seat, number of pending cards that seat collects with that trick)
    collections: tuple[tuple[int, int, int], ...] = ()
    #: the seat that ends up with the extras; ``None`` when nobody collects them
    extras_to: int | None = None
    uncollected: int = 0
    uncollected_points: int = 0
    moon_shooter: int | None = None
    scores: tuple[int, ...] | None = None
    #: the seats that win the game, when the deal ends it (GAME.END, GAME.WINNER)
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    title: str
    players: int
    tricks: tuple[str, ...]
    extras: str = ""
    dealer: int = 0
    ruleset: Ruleset = NO_PASSING
    moon_choice: MoonChoice | None = None
    #: the tricks the page draws in full; the others are summarised on one line
    focus: tuple[int, ...] = ()
    #: the rule IDs the deal illustrates
    rules: tuple[str, ...] = ()
    claims: Claims = field(default_factory=Claims)
    #: the totals before the deal (default: a game's first deal, all 0)
    totals: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class TrickStep:
    """One trick as the engine played it, with what happened to the cards."""

    number: int
    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    led_suit: Suit
    cancelled: tuple[Card, ...]
    winner: int | None
    winning_card: Card | None
    hearts_broken: tuple[int, Card] | None
    pending_before: tuple[Card, ...]
    pending_after: tuple[Card, ...]
    collected: tuple[Card, ...]  # pending cards the winner also took (VOID.COLLECT)
    extras_taken: tuple[Card, ...]  # the extras, taken with a won trick 1
    extras_pending: tuple[Card, ...]  # the extras, joining the pile after a void trick 1
    collected_extras: bool  # the pending cards collected include the extras
    extras_in_pile: bool = False  # the extras are in the pending pile after this trick
    #: the moment before the trick's first card, as a position text (spec/position.md)
    position: str = ""

    @property
    def void(self) -> bool:
        return self.winner is None


@dataclass(frozen=True, slots=True)
class Story:
    """A scenario played out: the deal, every trick, and the scoring."""

    scenario: Scenario
    dealer: int
    opening_leader: int
    hands: tuple[tuple[Card, ...], ...]
    extras: tuple[Card, ...]
    steps: tuple[TrickStep, ...]
    uncollected: tuple[Card, ...]
    settled: tuple[tuple[int, tuple[Card, ...]], ...]
    moon_shooter: int | None
    moon_choice: MoonChoice | None
    extras_to: int | None
    card_points: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    state: GameState  # the game after the deal is scored


def hands_for(players: int, dealer: int, tricks: tuple[tuple[Card, ...], ...]
              ) -> tuple[tuple[Card, ...], ...]:
    """The hands that play ``tricks``: each card goes to the seat whose turn it is.

    The opening leader is taken to be the dealer's left; later leaders follow
    from each trick's outcome. The engine checks all of this again when the
    deal is played.
    """
    leader = (dealer + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    for number, cards in enumerate(tricks, 1):
        if len(cards) != players:
            raise ScenarioError(f"trick {number} has {len(cards)} cards, not {players}")
        for i, card in enumerate(cards):
            hands[(leader + i) % players].append(card)
        leader = next_leader(leader, resolve_trick(cards, leader, players).winner)
    return tuple(tuple(sorted(h)) for h in hands)


def play(scenario: Scenario) -> Story:
    """Deal the scenario's hands and play every trick through the engine."""
    name = scenario.name
    tricks = tuple(parse_cards(t) for t in scenario.tricks)
    extras = parse_cards(scenario.extras)
    hands = hands_for(scenario.players, scenario.dealer, tricks)
    state = GameState.start(scenario.players, scenario.ruleset, scenario.dealer,
                            totals=scenario.totals)
    try:
        state, _ = state.apply(DealCards(hands, extras))
    except SetupError as exc:
        raise ScenarioError(f"scenario {name}: {exc}") from None
    if state.phase is not Phase.PLAYING:
        raise ScenarioError(f"scenario {name}: the ruleset passes cards; scenarios are "
                            "played without passing")
    opening_leader = state.leader
    steps: list[TrickStep] = []
    uncollected: tuple[Card, ...] = ()
    settled: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    pile_has_extras = False
    for number, cards in enumerate(tricks, 1):
        leader, pending_before = state.leader, state.pending
        before = format_position(position_of(state))
        seats: list[int] = []
        trick_events: list[ev.Event] = []
        for position, card in enumerate(cards, 1):
            seat = state.to_act
            if seat is None:
                raise ScenarioError(f"scenario {name}: the deal ended before trick {number}")
            try:
                state, events = state.apply(Play(seat, card))
            except IllegalAction as exc:
                raise ScenarioError(f"scenario {name}, trick {number}, card {position} "
                                    f"(seat {seat} plays {card}): {exc}") from None
            seats.append(seat)
            trick_events.extend(events)
        step = _step(number, leader, tuple(seats), cards, pending_before, state.pending,
                     trick_events, pile_has_extras)
        step = replace(step, position=before)
        if step.extras_pending:
            pile_has_extras = True
        elif step.collected:
            pile_has_extras = False
        if pile_has_extras and state.pending:
            step = replace(step, extras_in_pile=True)
        steps.append(step)
        for e in trick_events:
            if isinstance(e, ev.PendingSettled):
                uncollected, settled = e.uncollected, e.taken
    extras_to = state.extras_taken_by
    if state.phase is Phase.MOON_CHOICE:
        if scenario.moon_choice is None:
            raise ScenarioError(f"scenario {name}: seat {state.to_act} shot the moon; the "
                                "scenario must give its moon choice")
        state, _ = state.apply(ChooseMoon(state.to_act or 0, scenario.moon_choice))
    if not state.deal_results:
        raise ScenarioError(f"scenario {name}: the tricks do not complete the deal")
    result = state.deal_results[-1]
    return Story(scenario=scenario, dealer=state.dealer, opening_leader=opening_leader,
                 hands=hands, extras=extras, steps=tuple(steps), uncollected=uncollected,
                 settled=settled, moon_shooter=result.moon_shooter,
                 moon_choice=result.moon_choice, extras_to=extras_to if extras else None,
                 card_points=result.card_points, scores=result.scores, totals=result.totals,
                 state=state)


def _step(number: int, leader: int, seats: tuple[int, ...], cards: tuple[Card, ...],
          pending_before: tuple[Card, ...], pending_after: tuple[Card, ...],
          events: list[ev.Event], pile_has_extras: bool) -> TrickStep:
    winner: int | None = None
    winning: Card | None = None
    cancelled: tuple[Card, ...] = ()
    broken: tuple[int, Card] | None = None
    collected: tuple[Card, ...] = ()
    taken: tuple[Card, ...] = ()
    joined: tuple[Card, ...] = ()
    for e in events:
        if isinstance(e, ev.TrickWon):
            winner, winning, cancelled = e.winner, e.card, e.cancelled
        elif isinstance(e, ev.TrickSetAside):
            cancelled = e.cancelled
        elif isinstance(e, ev.HeartsBroken):
            broken = (e.seat, e.card)
        elif isinstance(e, ev.PendingCollected):
            collected = e.cards
        elif isinstance(e, ev.ExtrasTaken):
            taken = e.cards
        elif isinstance(e, ev.ExtrasPending):
            joined = e.cards
    return TrickStep(number=number, leader=leader, seats=seats, cards=cards,
                     led_suit=cards[0].suit, cancelled=cancelled, winner=winner,
                     winning_card=winning, hearts_broken=broken, pending_before=pending_before,
                     pending_after=pending_after, collected=collected, extras_taken=taken,
                     extras_pending=joined,
                     collected_extras=bool(collected) and pile_has_extras)


def check(story: Story) -> list[str]:
    """Every way the engine's play differs from the scenario's claims; empty if none."""
    c = story.scenario.claims
    problems: list[str] = []
    voids = tuple(s.number for s in story.steps if s.void)
    if voids != c.void_tricks:
        problems.append(f"void tricks are {voids}, the page says {c.void_tricks}")
    collections = tuple((s.number, s.winner, len(s.collected)) for s in story.steps
                        if s.collected and s.winner is not None)
    if collections != c.collections:
        problems.append(f"pending cards are collected as {collections} (trick, seat, cards), "
                        f"the page says {c.collections}")
    if story.extras and story.extras_to != c.extras_to:
        problems.append(f"the extras go to {story.extras_to}, the page says {c.extras_to}")
    if len(story.uncollected) != c.uncollected:
        problems.append(f"{len(story.uncollected)} cards are left uncollected, the page says "
                        f"{c.uncollected}")
    lost = penalty_points(story.uncollected)
    if lost != c.uncollected_points:
        problems.append(f"{lost} points are left uncollected, the page says "
                        f"{c.uncollected_points}")
    if story.moon_shooter != c.moon_shooter:
        problems.append(f"the moon shooter is {story.moon_shooter}, the page says "
                        f"{c.moon_shooter}")
    if c.scores is not None and story.scores != c.scores:
        problems.append(f"the deal scores are {story.scores}, the page says {c.scores}")
    if story.state.winners != c.winners:
        problems.append(f"the game's winners are {story.state.winners}, the page says "
                        f"{c.winners}")
    return problems


# --- the scenarios ----------------------------------------------------------------------

TWO_VOID_TRICKS = Scenario(
    name="two-void-tricks",
    title="Two void tricks in a row, then one winner takes them all",
    players=6,
    tricks=(
        "3C 8C QC 5C 10C 6C",
        "4D 9D KD 6D 2D JD",
        "2C 9C JC 4C 7C KC",
        "5S 8S JS 2S 10S 7S",
        "QS QS 9S 9S 4S 4S",
        "JH JH 5H 5H 3H 3H",
        "8H 10H AH 6H 2H 4H",
        "9C 3C JC 5C KC 7C",
        "3D 8D QD 5D 10D 2D",
        "6S JS 2S AS 8S 5S",
        "7H 2H AH 9H 6H KH",
        "QD 3D 8D 5D 10D 4D",
        "4C 10C 6C AC QC 8C",
        "AS 10S 3S 7S 6S KS",
        "KH 10H 4H 7H 8H QH",
        "6D AD 9D JD KD 7D",
        "KS 2C 7D 9H 3S AD",
    ),
    extras="AC QH",
    focus=(5, 6, 7),
    rules=("VOID.TRICK", "VOID.LEADER", "VOID.COLLECT", "TRICK.CANCEL", "HEARTS.BROKEN",
           "SCORE.DEAL", "TRICK.NEXT_LEADER"),
    claims=Claims(void_tricks=(5, 6), collections=((7, 2, 12),), extras_to=3,
                  scores=(0, 6, 38, 1, 6, 1)),
)

VOID_FIRST_TRICK = Scenario(
    name="void-first-trick",
    title="A void first trick: the extras wait in the pending pile",
    players=7,
    tricks=(
        "5D 5D JD JD 8D 8D 2C",
        "8C 2C 10C KC 4C JC 6C",
        "9D 2D KD 3C 6D 4D 10D",
        "9S 3S AS QS 6S 10S 7S",
        "8H 2H KH 4H 6H JH 9H",
        "QC 5C 8C 3C 10C KC 7C",
        "4D QD 7D AD 2D 9D 2S",
        "JS 2S 9S 6S KS 8S 4S",
        "10H 5H 8H QH 3H 6H KH",
        "4C AC JC 7C 9C 5C QC",
        "3D 10D AD 6D QD 7D 2H",
        "JS 3S 10S 7S 4S AS 8S",
        "AH 9H 3H JH 7H QH 5H",
        "AC 9C KS 5S 5S AH 7H",
    ),
    extras="QS 10H 4H KD 3D 6C",
    focus=(1, 2),
    rules=("EXTRAS.FIRST_TRICK", "VOID.TRICK", "VOID.LEADER", "VOID.COLLECT",
           "LEAD.OPENING_CARD", "DEAL.SIZE"),
    claims=Claims(void_tricks=(1,), collections=((2, 4, 13),), extras_to=4,
                  scores=(7, 22, 0, 8, 15, 0, 0)),
)

VOID_LAST_TRICK = Scenario(
    name="void-last-trick",
    title="A void last trick: nobody collects it",
    players=11,
    tricks=(
        "5C 10C 2C QC 7C AC 3C 8C KC 6C JC",
        "9S 4S QS 7S 3S KS JS 10S 6S 8S AS",
        "4D 9D QD 3D 8D AD 7D 5D 10D JD KD",
        "9H 3H 2H 6H QH 10H 4H AH JH 5H KH",
        "JC 6C 3C AC KC 2C 8C 10C 5C QC 7C",
        "KH 8H 4H 10H 3H AH 5H JH 9H 6H QH",
        "2S 6S 10S 5S AS 9S 3S 7S KS 4S 8S",
        "QD 3D 7D AD 6D 10D 4D JD 9D 8D 5D",
        "9C 7H 4C 9C 2D QS 4C 7H 8H 5S 2D",
    ),
    extras="2H JS 2S KD 6D",
    focus=(9,),
    rules=("VOID.LAST", "VOID.TRICK", "SCORE.DEAL", "MOON.CONDITION"),
    claims=Claims(void_tricks=(9,), extras_to=6, uncollected=11, uncollected_points=16,
                  scores=(0, 0, 0, 11, 0, 13, 12, 0, 0, 0, 0)),
)

MOON = Scenario(
    name="moon",
    title="Shooting the moon: all 26 hearts and both Q♠",
    players=8,
    tricks=(
        "3C 9C KC 5C 7C JC 4C 10C",
        "5D 9D KD 3D 7D JD 4D 10D",
        "10S QS 9S QS AS 4S 3S 7S",
        "AH KH QH JH 10H 9H 8H 7H",
        "AH QH JH 10H 6H 5H 4H 3H",
        "KH 9H 8H 7H 6H 5H 4H 2H",
        "2C QC 8C AC 6C 4C 10C 3C",
        "6D QD 8D AD 2D 10D 5D 9D",
        "2S 8S AS KS 5S JS 10S 7S",
        "KC 5C 9C JC 6C 8C QC 7C",
        "3D 7D 6D KD QD JD AD 8D",
        "9S 3S 4S KS 8S 6S JS 2S",
        "2C 2D 4D 5S 6S 2H 3H AC",
    ),
    moon_choice=MoonChoice.ADD,
    focus=(3, 4, 13),
    rules=("MOON.CONDITION", "MOON.CHOICE", "TRICK.CANCEL", "SCORE.CARD_POINTS"),
    claims=Claims(moon_shooter=1, scores=(26, 0, 26, 26, 26, 26, 26, 26)),
)

MOON_SUBTRACT = replace(
    MOON, name="moon-subtract", title="Shooting the moon and subtracting: a negative total",
    moon_choice=MoonChoice.SUBTRACT, focus=(13,), rules=("MOON.CHOICE", "SCORE.DEAL"),
    totals=(30, 10, 25, 40, 12, 33, 20, 18),
    claims=Claims(moon_shooter=1, scores=(0, -26, 0, 0, 0, 0, 0, 0)))

GAME_END = replace(
    TWO_VOID_TRICKS, name="game-end", title="The deal that ends the game, with a shared win",
    focus=(7,), rules=("GAME.END", "GAME.WINNER", "SCORE.DEAL", "TRICK.NEXT_LEADER"),
    totals=(95, 120, 112, 94, 100, 130),
    claims=replace(TWO_VOID_TRICKS.claims, winners=(0, 3)))

VOID_LAST_TO_LEADER = replace(
    VOID_LAST_TRICK, name="void-last-trick-to-leader",
    title="A void last trick under last_trick_void = leader",
    ruleset=replace(NO_PASSING, last_trick_void=LastTrickVoid.LEADER), focus=(9,),
    rules=("VOID.LAST",),
    claims=Claims(void_tricks=(9,), extras_to=6,
                  scores=(0, 0, 0, 11, 0, 13, 12, 0, 0, 0, 16)))

MOON_OTHERS_52 = replace(
    MOON, name="moon-others-52", title="A moon under moon = others-52: no choice",
    ruleset=replace(NO_PASSING, moon=Moon.OTHERS_52), moon_choice=None, focus=(13,),
    rules=("MOON.CHOICE", "MOON.CONDITION"),
    claims=Claims(moon_shooter=1, scores=(52, 0, 52, 52, 52, 52, 52, 52)))

#: Every scenario, by name (the argument of the ``deal-scenario`` directive).
SCENARIOS: dict[str, Scenario] = {s.name: s for s in (TWO_VOID_TRICKS, VOID_FIRST_TRICK,
                                                      VOID_LAST_TRICK, MOON, MOON_SUBTRACT,
                                                      GAME_END, VOID_LAST_TO_LEADER,
                                                      MOON_OTHERS_52)}
