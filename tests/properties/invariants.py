"""The engine's invariants, one named function each, so that a failure names the invariant.

State invariants take a state; step invariants take one applied action
``(before, action, after, events)``. Each raises ``AssertionError`` with a
message naming what is wrong. :func:`check_step` runs every cheap one after
an action; the game machine also runs the costly ones (round trips, replay,
seat views) after every rule.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import fields, replace
from itertools import combinations
from operator import attrgetter
from typing import Any

from rules_ref import events as ev
from rules_ref.actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from rules_ref.cards import CARDS, TWO_OF_CLUBS, Card
from rules_ref.deal import hand_size
from rules_ref.errors import IllegalAction, SetupError
from rules_ref.jsonio.serialize import action_from_json, state_from_json, state_to_json
from rules_ref.records.record import record_actions, record_from_state
from rules_ref.ruleset import LastTrickVoid, Moon, MoonPair, PassForbidden
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.view import seat_view

from .model import (
    MOON,
    PASSING,
    PLAYING,
    SCORED,
    TEN_OF_DIAMONDS,
    ModelDeal,
    heart_and_queen_points,
    trick_result,
)

IN_DEAL = (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE)
DECK = Counter({c: 2 for c in CARDS})


#: The fields that make up a state's value: all but the linked history (compared
#: as the action log) and caches (``compare=False``).
VALUE_FIELDS = tuple(f.name for f in fields(GameState) if f.compare and f.name != "history")
#: Every field a snapshot keeps: the value fields and the linked history itself.
SNAPSHOT_FIELDS = tuple(f.name for f in fields(GameState) if f.compare)
_snapshot = attrgetter(*SNAPSHOT_FIELDS)


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Every field of ``state``, the linked history included.

    The history is immutable (nested pairs), so keeping the object itself
    keeps the action log; compared to a later snapshot of an unchanged state
    it is the same object, which ``==`` settles at once instead of walking
    the whole log.
    """
    return _snapshot(state)


def same_state(a: GameState, b: GameState, what: str) -> None:
    for name in VALUE_FIELDS:
        left, right = getattr(a, name), getattr(b, name)
        assert left == right, f"{what}: field {name} differs: {left!r} != {right!r}"
    assert a.actions == b.actions, f"{what}: the action logs differ"


# --- state invariants ----------------------------------------------------------------------


def card_conservation(state: GameState, model: ModelDeal | None = None) -> None:
    """Each card is in exactly one place and the deal holds every card exactly twice.

    With ``model``, ``GameState.card_places()`` must also name the same
    place for every card as the model's own bookkeeping.
    """
    places = list(state.card_places())
    if state.phase is Phase.DEALING and not state.deal_results:
        assert places == [], "card_places lists cards before the first deal"
        return
    # Counts compared as items: the same test as Counter's ==, which is written in Python
    # and costs more than the whole count.
    counts = Counter([c for _, c in places])
    assert counts.items() == DECK.items(), (f"card conservation: {dict(counts - DECK)} too "
                                            f"many, {dict(DECK - counts)} missing")
    assert len(places) == 104
    if model is not None:
        assert Counter(places).items() == model_places(model, state).items(), (
            "card_places disagrees with the model")


def model_places(model: ModelDeal, state: GameState) -> Counter[tuple[str, Card]]:
    """Where the model holds each card, named as ``GameState.card_places`` names places."""
    piles: list[tuple[str, Any]] = [(f"hand {seat}", hand) for seat, hand in enumerate(model.hands)]
    piles += [("trick", model.trick), ("pending", model.pending)]
    if not model.outcomes:
        piles.append(("extras", model.extras))
    piles += [(f"collected {seat}", cards) for seat, cards in enumerate(model.collected)]
    piles.append(("uncollected", model.uncollected))
    return Counter([(place, c) for place, cards in piles for c in cards])


def cancellation(state: GameState, since: int = 0) -> None:
    """Every completed trick: the winner is the highest uncancelled led-suit card, or none.

    With ``since``, only the tricks after the first ``since`` (those already
    checked are compared with the model by :func:`matches_model`).
    """
    n = state.players
    for number, outcome in enumerate(state.tricks[since:], since + 1):
        cards = outcome.cards
        assert len(cards) == n, f"trick {number} has {len(cards)} cards"
        counts = Counter(cards)
        assert max(counts.values()) <= 2
        twice = tuple(sorted(c for c, k in counts.items() if k == 2))
        assert outcome.cancelled == twice, f"trick {number}: cancelled {outcome.cancelled}"
        assert outcome.led_suit == cards[0].suit
        live = [(c.rank, pos) for pos, c in enumerate(cards)
                if c.suit == cards[0].suit and counts[c] == 1]
        if not live:
            assert outcome.winner is None and outcome.winning_card is None, (
                f"trick {number} has no uncancelled led-suit card but a winner")
            continue
        pos = max(live)[1]
        assert outcome.winner == (outcome.leader + pos) % n, (
            f"trick {number}: winner {outcome.winner}, expected {(outcome.leader + pos) % n}")
        assert outcome.winning_card == cards[pos]
        assert outcome.winning_card not in outcome.cancelled


def turn_order(state: GameState) -> None:
    """The seat to act is the leader's left-hand sequence; one seat acts while playing."""
    if state.phase is Phase.PLAYING:
        expected = (state.leader + len(state.trick)) % state.players
        assert state.waiting_for == (expected,), (
            f"turn order: waiting for {state.waiting_for}, expected seat {expected}")
    elif state.phase is Phase.PASSING:
        assert set(state.waiting_for) == {
            s for s, p in enumerate(state.passes) if p is None}, "passing: wrong seats waited for"
    elif state.phase is Phase.MOON_CHOICE:
        assert state.waiting_for == (state.moon_shooter,)
    else:
        assert state.waiting_for == () and state.to_act is None


def hand_sizes(state: GameState) -> None:
    """All hands hold the same number of cards at the start of every trick."""
    if state.phase is Phase.PLAYING:
        size = hand_size(state.players) - (state.trick_number - 1)
        played = {(state.leader + i) % state.players for i in range(len(state.trick))}
        for seat, hand in enumerate(state.hands):
            expected = size - (seat in played)
            assert len(hand) == expected, (
                f"hand sizes: seat {seat} holds {len(hand)} cards in trick "
                f"{state.trick_number}, expected {expected}")
    elif state.phase is Phase.PASSING:
        assert {len(h) for h in state.hands} == {hand_size(state.players)}


def legal_action_exists(state: GameState) -> None:
    """The seat (or every seat) to act has at least one legal action, and it is legal."""
    if state.phase not in IN_DEAL:
        assert state.legal_actions() == ()
        return
    assert state.waiting_for, f"nobody is to act in the {state.phase} phase"
    if state.phase is Phase.PLAYING:
        plays = state.legal_plays()
        assert plays, f"seat {state.to_act} has no legal play"
        for c in plays:
            assert state.violations(Play(state.waiting_for[0], c)) == ()
    elif state.phase is Phase.PASSING:
        for seat in state.waiting_for:
            free = [c for c in state.hands[seat] if not (
                c == TWO_OF_CLUBS and state.ruleset.pass_forbidden is PassForbidden.TWO_OF_CLUBS)]
            some = Pass(seat, tuple(free[:state.ruleset.pass_count]))
            assert state.violations(some) == (), f"seat {seat} cannot pass"
    else:
        assert state.legal_actions(), "the shooter has no moon choice"


def passes_listed(state: GameState) -> None:
    """While passing, ``legal_actions`` lists every distinct pass (checked when there are few)."""
    if state.phase is not Phase.PASSING or state.ruleset.pass_count > 3:
        return
    seat = state.waiting_for[0]
    hand = state.hands[seat]
    if state.ruleset.pass_forbidden is PassForbidden.TWO_OF_CLUBS:
        hand = tuple(c for c in hand if c != TWO_OF_CLUBS)
    expected = set(combinations(hand, state.ruleset.pass_count))
    listed = state.legal_actions(seat)
    assert len(listed) == len(expected)
    assert {tuple(a.cards) for a in listed if isinstance(a, Pass)} == expected


def round_trip(state: GameState) -> None:
    """``state_to_json`` / ``state_from_json``, through ``json.dumps``/``loads``, rebuild it."""
    data = state_to_json(state)
    again = state_from_json(json.loads(json.dumps(data)))
    same_state(again, state, "serialization round trip")
    assert state_to_json(again) == data


def record_round_trip(state: GameState) -> None:
    """A game record of a state between deals, through JSON, replays to the same state."""
    record = json.loads(json.dumps(record_from_state(state)))
    start = GameState.start(state.players, state.ruleset, state.first_dealer,
                            state.initial_totals, state.initial_deal)
    again = start.replay([action_from_json(a) for a in record_actions(record)])
    for name in VALUE_FIELDS:
        assert getattr(again, name) == getattr(state, name), f"record round trip: {name} differs"


def replay_rebuilds(state: GameState) -> None:
    """``GameState.start`` with the game's setup plus ``state.actions`` gives the same state."""
    start = GameState.start(state.players, state.ruleset, state.first_dealer,
                            state.initial_totals, state.initial_deal)
    same_state(start.replay(state.actions), state, "replaying the action log")


def hidden_twin(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with everything ``seat`` may not see (``VIEW.SEAT``) dealt differently.

    The other seats' hands, the passes of seats other than this one and the
    one it received from and, until the deal is scored, the extras (also
    where they lie in the pending pile) are redrawn from the same unseen
    cards; everything public is kept.
    """
    n = state.players
    caches: dict[str, Any] = {f.name: f.default for f in fields(GameState) if not f.compare}
    if not state.hands:
        return replace(state, **caches)
    others = [s for s in range(n) if s != seat]
    extras_hidden = state.phase in IN_DEAL
    pool = [c for s in others for c in state.hands[s]]
    if extras_hidden:
        pool += list(state.extras)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(state.hands[s])
        hands[s], pool = tuple(sorted(pool[:size])), pool[size:]
    changes: dict[str, Any] = {"hands": tuple(hands), **caches}
    if extras_hidden:
        extras = tuple(pool)
        changes["extras"] = extras
        if state.pending_has_extras:
            k = len(extras)
            changes["pending"] = state.pending[:n] + extras + state.pending[n + k:]
    if state.passes:
        offset = state.pass_offset
        exchanged = offset is not None and state.phase is not Phase.PASSING
        giver = (seat - offset) % n if exchanged and offset is not None else seat
        changes["passes"] = tuple(
            p if s in (seat, giver) or p is None else tuple(sorted(rng.sample(CARDS, len(p))))
            for s, p in enumerate(state.passes))
    return replace(state, **changes)


def extras_are_pending(state: GameState) -> bool:
    """Read from the tricks: trick 1 was void and no trick of the deal has had a winner since."""
    return (state.phase is Phase.PLAYING and bool(state.tricks)
            and all(t.winner is None for t in state.tricks) and bool(state.extras))


def seat_views_hide(state: GameState, rng: random.Random) -> None:
    """Each seat's view shows its own share and never what ``VIEW.SEAT`` hides."""
    for seat in range(state.players):
        view = seat_view(state, seat)
        assert view.hand == (state.hands[seat] if state.hands else ())
        assert view.hand_sizes == tuple(len(h) for h in state.hands)
        assert view.current_trick == state.trick
        assert view.totals == state.totals
        assert [t.cards for t in view.tricks] == [t.cards for t in state.tricks]
        hidden = Counter(state.extras) if extras_are_pending(state) else Counter()
        assert Counter(view.pending_cards_seen) == Counter(state.pending) - hidden, (
            f"seat {seat} sees pending cards {view.pending_cards_seen}")
        assert view.pending_hidden == hidden.total()
        if state.phase in IN_DEAL:
            assert view.extras is None, "the extras are shown before the deal is scored"
        twin = hidden_twin(state, seat, rng)
        assert seat_view(twin, seat) == view, (
            f"seat {seat}'s view changes with information it may not see")


def rejected(state: GameState, action: object, rule_id: str) -> None:
    """``action`` raises ``IllegalAction`` naming ``rule_id`` first, and changes nothing."""
    before = snapshot(state)
    try:
        state.apply(action)  # type: ignore[arg-type]
    except IllegalAction as exc:
        assert exc.rule_id == rule_id, (
            f"{action} was rejected under {exc.rule_ids}, expected {rule_id} first")
        assert tuple(v.rule_id for v in state.violations(action)) == exc.rule_ids
    else:
        raise AssertionError(f"{action} was accepted; expected IllegalAction {rule_id}")
    assert snapshot(state) == before, "a rejected action changed the state"


def bad_deal_rejected(state: GameState, deal: DealCards, rule_id: str) -> None:
    """A deal that does not make up the deck raises ``SetupError`` and changes nothing."""
    before = snapshot(state)
    try:
        state.apply(deal)
    except SetupError as exc:
        assert exc.rule_id == rule_id, f"bad deal rejected under {exc.rule_id}, not {rule_id}"
    else:
        raise AssertionError("a deal that does not make up the deck was accepted")
    assert snapshot(state) == before, "a rejected deal changed the state"


# --- step invariants -----------------------------------------------------------------------


def set_aside_carry_over(before: GameState, action: Action, after: GameState) -> None:
    """Pending cards wait unchanged until the next trick's winner collects them.

    Extras join them when trick 1 is void; at the end of the deal they go
    as ``last_trick_void`` says (by default to nobody).
    """
    if isinstance(action, DealCards):
        assert after.pending == () and not after.pending_has_extras
        return
    if not isinstance(action, Play) or len(after.tricks) == len(before.tricks):
        assert after.pending == before.pending, "the pending pile changed between tricks"
        assert after.collected == before.collected, "collected cards changed between tricks"
        assert after.uncollected == before.uncollected
        return
    outcome = after.tricks[-1]
    extras = before.extras if before.trick_number == 1 else ()
    joined = before.pending + outcome.cards + extras
    gained = [Counter(a) - Counter(b) for a, b in zip(after.collected, before.collected,
                                                        strict=True)]
    assert after.pending_has_extras == extras_are_pending(after), (
        "the state's note that the extras are pending is wrong")
    if outcome.winner is not None:
        assert after.pending == (), "a won trick left cards pending"
        assert gained[outcome.winner] == Counter(joined), (
            f"trick winner {outcome.winner} did not collect exactly the trick, "
            "the pending cards and the extras")
        assert all(not g for s, g in enumerate(gained) if s != outcome.winner)
        return
    if any(after.hands):
        assert after.pending == joined, "a void trick was not set aside in order"
        assert not any(gained), "a void trick was collected"
        assert after.pending_has_extras == (before.pending_has_extras or bool(extras))
        return
    rule = before.ruleset.last_trick_void
    total = sum(gained, Counter())
    if rule in (LastTrickVoid.NOBODY, LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR):
        assert after.uncollected == joined, "the pending cards at the end were not left uncollected"
        assert not total
    else:
        assert after.uncollected == () and total == Counter(joined)
        if rule is LastTrickVoid.LEADER:
            assert gained[outcome.leader] == Counter(joined)


def point_conservation(before: GameState, after: GameState) -> None:
    """A scored deal's heart and Q♠ points sum to 52 less the uncollected; moon scores match."""
    if len(after.deal_results) == len(before.deal_results):
        return
    result = after.deal_results[-1]
    rs = after.ruleset
    penalty = [heart_and_queen_points(c) for c in after.collected]
    assert sum(penalty) == 52 - heart_and_queen_points(result.uncollected), (
        "point conservation: collected points do not sum to 52 less the uncollected points")
    bonus = [rs.ten_of_diamonds_points * c.count(TEN_OF_DIAMONDS) for c in after.collected]
    shares = [cp - p - b for cp, p, b in zip(result.card_points, penalty, bonus, strict=True)]
    if rs.last_trick_void is LastTrickVoid.SPLIT_POINTS_HIGHEST_PAIR:
        # the uncollected points go to at most two seats, split evenly, the odd one once
        given = sorted((s for s in shares if s), reverse=True)
        assert sum(given) == heart_and_queen_points(result.uncollected), "split points lost"
        assert len(given) <= 2 and (len(given) < 2 or given[0] - given[1] <= 1), given
    else:
        assert not any(shares), "card points other than the collected cards'"
    holders = [s for s, p in enumerate(penalty) if p]
    if result.moon_pair is not None:
        assert rs.moon_pair is MoonPair.OTHERS_26 and tuple(holders) == result.moon_pair
        assert sum(penalty) == 52 and result.moon_shooter is None
        assert result.scores == tuple((0 if s in holders else 26) + bonus[s]
                                      for s in range(after.players)), "pair moon scores"
    elif result.moon_shooter is None:
        assert not (rs.moon_pair is MoonPair.OTHERS_26 and len(holders) == 2
                    and sum(penalty) == 52), "a moon shot by two seats was not scored"
        assert result.scores == result.card_points
    else:
        shooter = result.moon_shooter
        assert penalty[shooter] == 52 and not result.uncollected
        if rs.moon is Moon.CHOICE_26:
            assert result.moon_choice is not None
            mine, others = (-26, 0) if result.moon_choice is MoonChoice.SUBTRACT else (0, 26)
        else:
            assert result.moon_choice is None
            mine, others = 0, (52 if rs.moon is Moon.OTHERS_52 else 104)
        assert result.scores == tuple((mine if s == shooter else others) + bonus[s]
                                      for s in range(after.players)), "moon scores"
    assert result.totals == tuple(t + s for t, s in zip(before.totals, result.scores,
                                                          strict=True))
    assert after.totals == result.totals


def leadership(before: GameState, action: Action, after: GameState) -> None:
    """The winner leads next; after a void trick its leader leads again."""
    if not isinstance(action, Play) or len(after.tricks) == len(before.tricks):
        return
    outcome = after.tricks[-1]
    assert outcome.leader == before.leader
    expected = outcome.leader if outcome.winner is None else outcome.winner
    assert after.leader == expected, f"leader {after.leader} after trick, expected {expected}"


def hearts_broken_monotone(before: GameState, action: Action, after: GameState) -> None:
    """Hearts, once broken, stay broken for the rest of the deal; every deal starts unbroken."""
    if isinstance(action, DealCards):
        assert not after.hearts_broken, "hearts start broken"
    elif before.hearts_broken:
        assert after.hearts_broken, "hearts became unbroken within a deal"


def events_agree(before: GameState, action: Action, after: GameState,
                 events: Sequence[ev.Event]) -> None:
    """The events tell the same story as the states."""
    played = [e for e in events if isinstance(e, ev.CardPlayed)]
    if isinstance(action, Play):
        assert played == [ev.CardPlayed(action.seat, action.card)]
    else:
        assert not played
    done = [e for e in events if isinstance(e, ev.TrickWon | ev.TrickSetAside)]
    if isinstance(action, DealCards):
        assert not done and after.tricks == ()
    else:
        assert len(done) == len(after.tricks) - len(before.tricks)
    broke = [e for e in events if isinstance(e, ev.HeartsBroken)]
    assert bool(broke) == (after.hearts_broken and not before.hearts_broken
                           and not isinstance(action, DealCards))
    scored = [e for e in events if isinstance(e, ev.DealScored)]
    assert len(scored) == len(after.deal_results) - len(before.deal_results)
    over = [e for e in events if isinstance(e, ev.GameOver)]
    assert bool(over) == (after.phase is Phase.GAME_OVER)
    if over:
        low = min(after.totals)
        assert over[0].winners == tuple(s for s, t in enumerate(after.totals) if t == low)
        assert after.winners == over[0].winners
        assert max(after.totals) >= after.ruleset.target


# --- the model -----------------------------------------------------------------------------


def start_model(before: GameState, after: GameState) -> ModelDeal:
    """A model of the deal ``after`` has just dealt (its last action, a DealCards).

    The deal number and dealer come from ``before`` and the game's setup,
    not from the engine's new state (``DEAL.DEALER``).
    """
    deal = after.actions[-1]
    assert isinstance(deal, DealCards)
    number = before.deal_number + 1
    dealer = (after.first_dealer + number - 1) % after.players
    assert (after.deal_number, after.dealer) == (number, dealer), (
        f"deal {after.deal_number} dealt by seat {after.dealer}, expected deal {number} "
        f"dealt by seat {dealer}")
    return ModelDeal.start(after.ruleset, after.players, number, dealer,
                           before.totals, deal.hands, deal.extras)


def advance_model(model: ModelDeal, action: Action) -> None:
    if isinstance(action, Pass):
        model.give_pass(action.seat, action.cards)
    elif isinstance(action, Play):
        model.play(action.seat, action.card)
    elif isinstance(action, ChooseMoon):
        model.choose_moon(action.seat, action.choice)


_PHASES = {PASSING: Phase.PASSING, PLAYING: Phase.PLAYING, MOON: Phase.MOON_CHOICE}


def matches_model(model: ModelDeal, state: GameState) -> None:
    """The engine's state agrees with the model on everything the rules fix."""
    if model.phase == SCORED:
        expected_phase = Phase.GAME_OVER if model.game_over else Phase.DEALING
    else:
        expected_phase = _PHASES[model.phase]
    assert state.phase is expected_phase, f"phase {state.phase}, model {expected_phase}"
    assert [list(h) for h in state.hands] == model.hands, "hands differ from the model"
    if model.phase == PASSING:
        assert list(state.passes) == model.passes
        return
    assert list(state.trick) == model.trick
    assert state.hearts_broken == model.broken, (
        f"hearts_broken {state.hearts_broken}, model {model.broken}")
    assert [(t.leader, t.cards, t.winner) for t in state.tricks] == [
        (o.leader, o.cards, o.winner) for o in model.outcomes], "tricks differ from the model"
    assert list(state.pending) == model.pending, "pending pile differs from the model"
    assert [sorted(c) for c in state.collected] == [sorted(c) for c in model.collected], (
        "collected cards differ from the model")
    assert list(state.uncollected) == model.uncollected
    if model.phase == PLAYING:
        assert state.trick_number == model.trick_number
        assert state.leader == model.leader, f"leader {state.leader}, model {model.leader}"
        assert state.to_act == model.to_act
        assert set(state.legal_plays()) == model.legal(model.to_act), (
            f"legal plays {sorted(state.legal_plays())}, "
            f"model {sorted(model.legal(model.to_act))}")
    if model.phase == MOON:
        assert state.moon_shooter == model.shooter
    if model.phase == SCORED:
        result = state.deal_results[-1]
        assert result.moon_shooter == model.shooter
        assert result.card_points == model.card_points
        assert result.scores == model.scores, f"scores {result.scores}, model {model.scores}"
        assert state.totals == model.totals
        assert state.winners == model.winners


def check_state(state: GameState, model: ModelDeal | None, checked_tricks: int = 0) -> None:
    """The cheap state invariants (the tricks after the first ``checked_tricks``)."""
    card_conservation(state, model)
    cancellation(state, checked_tricks)
    turn_order(state)
    hand_sizes(state)
    legal_action_exists(state)
    if model is not None:
        matches_model(model, state)


def check_step(before: GameState, action: Action, after: GameState,
               events: Sequence[ev.Event], model: ModelDeal | None) -> ModelDeal | None:
    """Every cheap invariant after one action; returns the model advanced by it."""
    if isinstance(action, DealCards):
        model = start_model(before, after)
    elif model is not None:
        advance_model(model, action)
    set_aside_carry_over(before, action, after)
    point_conservation(before, after)
    leadership(before, action, after)
    hearts_broken_monotone(before, action, after)
    events_agree(before, action, after, events)
    # Earlier tricks were checked after the actions that completed them, and the model
    # (which matches_model compares with every trick) would see any change to them.
    check_state(after, model, len(before.tricks) if model is not None else 0)
    return model


def trick_matches_model(cards: Sequence[Card], winner: int | None, cancelled: Sequence[Card],
                        leader: int, players: int) -> None:
    """A resolved trick agrees with :func:`model.trick_result`."""
    pos, gone = trick_result(cards)
    assert set(cancelled) == gone, f"cancelled {sorted(cancelled)}, model {sorted(gone)}"
    expected = None if pos is None else (leader + pos) % players
    assert winner == expected, f"winner {winner}, model {expected}"


# --- illegal actions -----------------------------------------------------------------------


def illegal_actions(state: GameState, model: ModelDeal | None,
                    rng: random.Random) -> list[tuple[object, str]]:
    """Illegal actions in ``state``, one of each applicable kind, with the rule each breaks first.

    A card not held, a play out of turn, a revoke, a barred opening lead, a
    heart led before hearts are broken, a point card discarded on trick 1
    when the ruleset forbids it, a pass of the wrong size, a pass of a card
    not held, a second pass, a moon choice by another seat or of an option
    the ruleset does not offer, and actions of the wrong kind for the phase.
    """
    s = state
    n = s.players
    k = s.ruleset.pass_count
    out: list[tuple[object, str]] = []
    anyone = rng.randrange(n)
    if s.phase is Phase.PLAYING:
        seat = s.waiting_for[0]
        hand = s.hands[seat]
        out.append((Play(seat, rng.choice([c for c in CARDS if c not in hand])), "TURN.OWN_CARD"))
        others = [x for x in range(n) if x != seat and s.hands[x]]
        if others:
            x = rng.choice(others)
            out.append((Play(x, rng.choice(s.hands[x])), "TURN.ORDER"))
        if model is not None:
            barred = sorted(set(hand) - model.legal(seat))
            if barred:
                card = rng.choice(barred)
                out.append((Play(seat, card), _barring_rule(s, hand, card)))
        out.append((Pass(seat, hand[:k]), "TURN.ORDER"))
        out.append((ChooseMoon(seat, MoonChoice.SUBTRACT), "TURN.ORDER"))
    elif s.phase is Phase.PASSING:
        seat = rng.choice(s.waiting_for)
        hand = s.hands[seat]
        wrong = rng.choice([x for x in range(len(hand) + 1) if x != k])
        out.append((Pass(seat, hand[:wrong]), "PASS.CARDS"))
        kept = list(hand[:k - 1])
        stranger = rng.choice([c for c in CARDS if hand.count(c) < 1 + kept.count(c)])
        out.append((Pass(seat, (*kept, stranger)), "PASS.CARDS"))
        done = [x for x in range(n) if x not in s.waiting_for]
        if done:
            x = rng.choice(done)
            out.append((Pass(x, s.hands[x][:k]), "PASS.EXCHANGE"))
        out.append((Play(seat, hand[0]), "TURN.ORDER"))
    elif s.phase is Phase.MOON_CHOICE:
        other = rng.choice([x for x in range(n) if x != s.moon_shooter])
        out.append((ChooseMoon(other, MoonChoice.ADD), "TURN.ORDER"))
        assert s.moon_shooter is not None
        out.append((ChooseMoon(s.moon_shooter, "double"), "MOON.CHOICE"))  # type: ignore[arg-type]
        out.append((Play(anyone, CARDS[0]), "TURN.ORDER"))
    else:
        out.append((Play(anyone, CARDS[0]), "TURN.ORDER"))
        out.append((ChooseMoon(anyone, MoonChoice.ADD), "TURN.ORDER"))
    return out


def _barring_rule(state: GameState, hand: tuple[Card, ...], card: Card) -> str:
    """The rule that bars ``card``, held, for the seat to act (its turn, its own card).

    FOLLOW.SUIT is checked first: a card off the led suit from a hand holding
    it breaks FOLLOW.SUIT; any other barred card breaks FOLLOW.FIRST_TRICK (the
    ban on hearts and Q♠, or a 2♣ due to trick 1).
    """
    if not state.trick:
        return "LEAD.OPENING_CARD" if state.trick_number == 1 else "LEAD.HEARTS"
    led = state.trick[0].suit
    if card.suit != led and any(c.suit == led for c in hand):
        return "FOLLOW.SUIT"
    return "FOLLOW.FIRST_TRICK"


def illegal_actions_rejected(state: GameState, model: ModelDeal | None,
                             rng: random.Random) -> Counter[str]:
    """Every action of :func:`illegal_actions` is rejected under its rule; returns the counts."""
    seen: Counter[str] = Counter()
    for action, rule_id in illegal_actions(state, model, rng):
        rejected(state, action, rule_id)
        seen[rule_id] += 1
    return seen
