"""What one seat may see (rule ``VIEW.SEAT``).

:func:`seat_view` builds a :class:`SeatView` from a state: the seat's own
hand, its own pass, every card played this deal with who took each trick or
that it is pending, hand sizes and totals; never other hands, other seats'
passes, or the extras before the deal is scored. A void trick's entry says
who collected its cards once someone has (``collected_by`` of :class:`TrickSeen`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .pending import settle_pending
from .registry import implements
from .ruleset import Ruleset
from .state import GameState
from .state_parts import DealResult, Phase


@dataclass(frozen=True, slots=True)
class TrickSeen:
    """One completed trick of the deal, as every seat sees it.

    ``collected_by`` is who collected the trick's cards: ``(winner,)`` for a
    won trick; for a void trick, the winner of the later trick that took the
    pending pile (``VOID.COLLECT``), or at the end of the deal the seats
    ``VOID.LAST`` gives the pending cards to (two under ``split-highest-pair``);
    ``()`` when the deal ended and nobody collected them; ``None`` while the
    trick is still pending.
    """

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int | None  # None: set aside (void)
    collected_by: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    players: int
    phase: Phase
    deal_number: int
    dealer: int
    to_act: int | None
    ruleset: Ruleset
    hand: tuple[Card, ...]
    passed: tuple[Card, ...] | None
    passed_to: int | None
    passed_seats: tuple[int, ...]  # which seats have passed (not what)
    received: tuple[Card, ...] | None  # once the passes are exchanged
    received_from: int | None
    hand_sizes: tuple[int, ...]
    hearts_broken: bool
    tricks: tuple[TrickSeen, ...]
    current_trick: tuple[Card, ...]
    current_leader: int
    pending_cards_seen: tuple[Card, ...]  # the face-up cards of set-aside tricks
    pending_hidden: int  # face-down extras in the pending pile
    extras_count: int
    extras: tuple[Card, ...] | None  # shown only once the deal is scored
    totals: tuple[int, ...]
    last_deal: DealResult | None  # the scores, moon and extras of the last scored deal


@implements("VIEW.SEAT")
def seat_view(state: GameState, seat: int) -> SeatView:
    """The part of ``state`` that ``seat`` may see (``VIEW.SEAT``).

    >>> from rules_ref.state import GameState
    >>> seat_view(GameState.start(6), 2).hand
    ()
    """
    offset = state.pass_offset if state.deal_number else None
    own_pass = state.passes[seat] if state.passes else None
    exchanged = offset is not None and state.phase is not Phase.PASSING and bool(state.passes)
    giver = None if offset is None else (seat - offset) % state.players
    shown_extras = state.deal_results[-1].extras if state.phase in (
        Phase.DEALING, Phase.GAME_OVER) and state.deal_results else None
    hidden = len(state.extras) if state.pending_has_extras else 0
    # A void first trick puts the extras right after its own cards (VOID.TRICK).
    seen = state.pending[:state.players] + state.pending[state.players + hidden:]
    return SeatView(
        seat=seat,
        players=state.players,
        phase=state.phase,
        deal_number=state.deal_number,
        dealer=state.dealer,
        to_act=state.to_act,
        ruleset=state.ruleset,
        hand=state.hands[seat] if state.hands else (),
        passed=own_pass,
        passed_to=None if offset is None or own_pass is None else (seat + offset) % state.players,
        passed_seats=tuple(i for i, p in enumerate(state.passes) if p is not None),
        received=state.passes[giver] if exchanged and giver is not None else None,
        received_from=giver if exchanged else None,
        hand_sizes=tuple(len(h) for h in state.hands),
        hearts_broken=state.hearts_broken,
        tricks=tuple(TrickSeen(i + 1, t.leader, t.cards, t.winner, by)
                     for i, (t, by) in enumerate(zip(state.tricks, collectors(state),
                                                     strict=True))),
        current_trick=state.trick,
        current_leader=state.leader,
        pending_cards_seen=seen if hidden else state.pending,
        pending_hidden=hidden,
        extras_count=len(state.extras),
        extras=shown_extras,
        totals=state.totals,
        last_deal=state.deal_results[-1] if state.deal_results else None,
    )


@implements("VIEW.SEAT")
def collectors(state: GameState) -> tuple[tuple[int, ...] | None, ...]:
    """Who collected each completed trick of the deal, as every seat may see (``VIEW.SEAT``).

    One entry per trick of ``state.tricks``: see ``collected_by`` of :class:`TrickSeen`.
    Read from the tricks alone (who won each) and, once the deal is over, from
    ``VOID.LAST``; nothing hidden goes into it.

    >>> collectors(GameState.start(6))
    ()
    """
    out: list[tuple[int, ...] | None] = []
    waiting: list[int] = []
    for i, trick in enumerate(state.tricks):
        if trick.winner is None:
            out.append(None)
            waiting.append(i)
            continue
        for j in waiting:
            out[j] = (trick.winner,)
        waiting = []
        out.append((trick.winner,))
    if waiting and state.phase is not Phase.PLAYING:
        last = state.tricks[-1]
        pile = tuple(c for j in waiting for c in state.tricks[j].cards)
        taken, _ = settle_pending(pile, last, state.players, state.ruleset)
        seats = tuple(seat for seat, cards in taken if cards)
        for j in waiting:
            out[j] = seats
    return tuple(out)
