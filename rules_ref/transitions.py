"""What each action does to a game state: the steps behind :meth:`GameState.apply`.

Each step takes the state before an action (already checked, see
:meth:`GameState.violations`) and returns the state after it with the
events it caused. The rules themselves are the rule modules' functions; a
step calls them in the order a deal meets them and files the results in the
state's parts (:mod:`rules_ref.state_parts`): a card play copies only the
state's own fields, a trick's end makes one new :class:`DealPart`, a scored
deal one new :class:`GamePart`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from . import events as ev
from .actions import DealCards, MoonChoice
from .cards import Card
from .deal import check_deal, dealer_for_deal
from .events import Event
from .game_end import game_winners
from .leading import breaks_hearts, opening_leader
from .passing import exchange, pass_direction, pass_offset
from .pending import after_trick, extras_join_trick, pending_shares, settle_pending
from .scoring import (
    deal_scores,
    moon_pair,
    moon_scores,
    moon_shooter,
    needs_moon_choice,
    pair_moon_scores,
)
from .state_parts import DealPart, DealResult, History, Phase, copy_deal, copy_game
from .tricks import TrickOutcome, led_suit, next_leader, resolve_trick

if TYPE_CHECKING:  # the state calls these steps: it is read here, never imported at run time
    from .state import GameState

#: What a step returns, as :meth:`GameState.apply` does: the new state and the events.
Step: TypeAlias = "tuple[GameState, tuple[Event, ...]]"


def deal_cards(state: GameState, action: DealCards, history: History) -> Step:
    """A new deal: fresh hands and extras, and a fresh :class:`DealPart`."""
    players = state.game.players
    deal = check_deal(action.hands, action.extras, players)
    number = state.deal.deal_number + 1
    dealer = dealer_for_deal(state.game.first_dealer, number, players)
    offset = pass_offset(pass_direction(number, state.game.ruleset), players)
    new = state._with_own(
        phase=Phase.PASSING, hands=deal.hands, extras=deal.extras, passes=(None,) * players,
        trick=(), pending=(), history=history,
        deal=DealPart(deal_number=number, dealer=dealer, leader=(dealer + 1) % players,
                      collected=((),) * players))
    events: tuple[Event, ...] = (ev.DealStarted(number, dealer, offset),)
    if offset is None:
        new = begin_play(new)
    return new, events


def begin_play(state: GameState, dealt: tuple[tuple[Card, ...], ...] | None = None) -> GameState:
    """The deal's first trick, led by the opening leader (``LEAD.OPENING_LEADER``).

    ``dealt`` are the hands as dealt, when a pass has changed them.
    """
    leader = opening_leader(state.deal.dealer, state.hands, state.game.ruleset, dealt)
    return state._with_own(phase=Phase.PLAYING,
                           deal=copy_deal(state.deal, trick_number=1, leader=leader))


def pass_cards(state: GameState, seat: int, cards: tuple[Card, ...], history: History) -> Step:
    """Seat ``seat`` passes; the last pass makes every pass move at once (``PASS.EXCHANGE``)."""
    passes = (*state.passes[:seat], tuple(sorted(cards)), *state.passes[seat + 1:])
    offset = state.pass_offset
    assert offset is not None
    passed = ev.CardsPassed(seat, (seat + offset) % state.game.players)
    if None in passes:  # some seat is still to pass
        return state._with_own(passes=passes, history=history), (passed,)
    hands = exchange(state.hands, [p for p in passes if p is not None], offset)
    return (begin_play(state._with_own(passes=passes, hands=hands, history=history),
                       dealt=state.hands),
            (passed, ev.PassesExchanged(state.deal.deal_number)))


def play_card(state: GameState, seat: int, card: Card, history: History,
              outcome: TrickOutcome | None = None) -> Step:
    """Seat ``seat`` plays ``card``; the trick's last card resolves it.

    ``outcome``: the trick's resolution in place of the rules' (another reading of a
    rule, which the findings try against an implementation's answer).
    """
    rest = list(state.hands[seat])
    rest.remove(card)  # one copy of the card leaves the hand
    seats = list(state.hands)
    seats[seat] = tuple(rest)
    hands = tuple(seats)
    trick = (*state.trick, card)
    deal = state.deal
    events: tuple[Event, ...] = ev.PLAYED_ALONE[seat][card]
    if not deal.hearts_broken and breaks_hearts(card, led_suit(state.trick) if state.trick
                                                else None, state.game.ruleset):
        deal = copy_deal(deal, hearts_broken=True)
        events += (ev.HeartsBroken(seat, card),)
    if len(trick) < state.game.players:
        return state._after_play(hands, trick, deal, history), events
    return finish_trick(state, hands, trick, deal, history, list(events), outcome)


def finish_trick(state: GameState, hands: tuple[tuple[Card, ...], ...], trick: tuple[Card, ...],
                 deal: DealPart, history: History, events: list[Event],
                 outcome: TrickOutcome | None = None) -> Step:
    """Resolve the full ``trick``: who wins it, or the pending pile (``VOID.TRICK``).

    ``state`` is the state before the trick's last card; ``hands``, ``deal``
    and ``history`` are as that card left them; ``outcome``, when given, is the
    trick's resolution in place of the rules'.
    """
    if outcome is None:
        outcome = resolve_trick(trick, deal.leader, state.game.players)
    extras = state.extras if extras_join_trick(deal.trick_number) else ()
    taken, pending = after_trick(state.pending, outcome, extras)
    collected = deal.collected
    extras_taken_by = deal.extras_taken_by
    pending_has_extras = deal.pending_has_extras
    if outcome.winner is None:
        events.append(ev.TrickSetAside(deal.trick_number, outcome.leader, outcome.cancelled))
        if extras:
            pending_has_extras = True
            events.append(ev.ExtrasPending(extras))
    else:
        winner = outcome.winner
        assert outcome.winning_card is not None
        events.append(ev.TrickWon(deal.trick_number, winner, outcome.winning_card,
                                  outcome.cancelled))
        if state.pending:
            events.append(ev.PendingCollected(winner, state.pending))
        if extras or pending_has_extras:
            extras_taken_by = winner
            pending_has_extras = False
            if extras:
                events.append(ev.ExtrasTaken(winner, extras))
        collected = (*collected[:winner], collected[winner] + taken, *collected[winner + 1:])
    deal = copy_deal(deal, tricks=(*deal.tricks, outcome), collected=collected,
                     extras_taken_by=extras_taken_by, pending_has_extras=pending_has_extras,
                     leader=next_leader(deal.leader, outcome.winner),
                     trick_number=deal.trick_number + 1)
    after = state._with_own(hands=hands, trick=(), pending=pending, history=history, deal=deal)
    if after.hands[0]:
        return after, tuple(events)
    return end_deal(after, outcome, events)


def end_deal(state: GameState, last: TrickOutcome, events: list[Event]) -> Step:
    """The deal's last trick is over: settle what is still pending (``VOID.LAST``), then score."""
    deal = state.deal
    rs = state.game.ruleset
    taken, uncollected = settle_pending(state.pending, last, state.game.players, rs)
    collected = list(deal.collected)
    extras_taken_by = deal.extras_taken_by
    if state.pending:
        events.append(ev.PendingSettled(taken, uncollected))
        for seat, cards in taken:
            collected[seat] += cards
        if deal.pending_has_extras and len(taken) == 1:
            extras_taken_by = taken[0][0]
    shooter = moon_shooter(tuple(collected))
    state = state._with_own(pending=(), deal=copy_deal(
        deal, pending_has_extras=False, uncollected=uncollected, collected=tuple(collected),
        extras_taken_by=extras_taken_by, moon_shooter=shooter))
    if shooter is not None:
        events.append(ev.MoonShot(shooter))
    if needs_moon_choice(shooter, rs):
        return state._with_own(phase=Phase.MOON_CHOICE), tuple(events)
    return close_deal(state, None, events)


def close_deal(state: GameState, choice: MoonChoice | None, events: list[Event]) -> Step:
    """Score the deal (``SCORE.*``, ``MOON.*``) and see whether the game is over."""
    rs = state.game.ruleset
    deal = state.deal
    last = deal.tricks[-1] if deal.tricks else None
    points = state.current_points()  # the shares of VOID.LAST included
    pair = moon_pair(deal.collected, rs) if deal.moon_shooter is None else None
    if pair is not None:
        scores = pair_moon_scores(pair, deal.collected, rs)
    elif deal.moon_shooter is None:
        shares = pending_shares(deal.uncollected, last, state.game.players, rs)  # VOID.LAST
        scores = tuple(s + share for s, share in
                       zip(deal_scores(deal.collected, rs), shares, strict=True))
    else:
        scores = moon_scores(deal.moon_shooter, choice, deal.collected, rs)
        events.append(ev.MoonChosen(deal.moon_shooter, choice))
    totals = tuple(t + s for t, s in zip(state.game.totals, scores, strict=True))
    result = DealResult(deal.deal_number, deal.dealer, state.extras, points, deal.moon_shooter,
                        choice, scores, totals, deal.uncollected, moon_pair=pair)
    events.append(ev.DealScored(deal.deal_number, points, scores, totals))
    won = game_winners(totals, rs)  # the end is checked once a deal is scored (GAME.END)
    over = bool(won)
    if over:
        events.append(ev.GameOver(totals, won))
    game = copy_game(state.game, totals=totals, deal_results=(*state.game.deal_results, result),
                     winners=won)
    return state._with_own(phase=Phase.GAME_OVER if over else Phase.DEALING,
                           game=game), tuple(events)


__all__ = ["Step", "begin_play", "close_deal", "deal_cards", "end_deal", "finish_trick",
           "pass_cards", "play_card"]
