"""Observations: what the adapter protocol compares after every action.

:func:`observe` computes, from a reference state, the observation an
implementation must report (``spec/protocol.md``, message ``observation``).
The reference adapter sends it; the runners compare it field by field.
"""

from __future__ import annotations

from typing import Any

from ..cards import format_cards
from ..state import GameState, Phase

PROTOCOL_NAME = "cancellation-hearts-adapter"
PROTOCOL_VERSION = 1

#: The fields of an observation, in the order they are compared.
FIELDS = ("phase", "deal_number", "dealer", "to_act", "waiting_for", "legal", "hands",
          "trick_number", "leader", "trick", "hearts_broken", "last_trick", "pending",
          "points", "deal_scores", "totals", "winners")


def observe(state: GameState) -> dict[str, Any]:
    """The observation of ``state``, as JSON data."""
    last = state.tricks[-1] if state.tricks and state.phase is not Phase.DEALING else None
    if state.phase in (Phase.DEALING, Phase.GAME_OVER) and state.deal_results:
        last_deal = state.deal_results[-1]
        deal_scores: list[int] | None = list(last_deal.scores)
    else:
        deal_scores = None
    if state.phase is Phase.PLAYING:
        legal: list[str] | None = [str(c) for c in state.legal_plays()]
    elif state.phase is Phase.MOON_CHOICE:
        legal = [str(a.choice) for a in state.legal_actions()]  # type: ignore[union-attr]
    else:
        legal = None
    in_deal = state.phase in (Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE)
    return {
        "phase": str(state.phase),
        "deal_number": state.deal_number,
        "dealer": state.dealer,
        "to_act": state.to_act if state.phase is not Phase.PASSING else None,
        "waiting_for": list(state.waiting_for) if state.phase is Phase.PASSING else [],
        "legal": legal,
        "hands": [format_cards(h).split() for h in state.hands] if in_deal else None,
        "trick_number": state.trick_number if state.phase is Phase.PLAYING else None,
        "leader": state.leader if state.phase is Phase.PLAYING else None,
        "trick": [str(c) for c in state.trick],
        "hearts_broken": state.hearts_broken,
        "last_trick": None if last is None else {
            "number": len(state.tricks),
            "leader": last.leader,
            "cards": [str(c) for c in last.cards],
            "winner": last.winner,
        },
        "pending": [str(c) for c in sorted(state.pending)] if in_deal else [],
        "points": list(state.current_points()) if state.collected else None,
        "deal_scores": deal_scores,
        "totals": list(state.totals),
        "winners": list(state.winners),
    }
