"""Seat-view vectors: what one seat may see (VIEW.SEAT), and :func:`view_json`, its JSON form."""

from __future__ import annotations

from typing import Any

from ...actions import Pass
from ...ruleset import DEFAULT, preset
from ...state import GameState
from ...view import seat_view
from ..endings import (
    last_card,
    played,
)
from ..files import Case
from ..scenario import Scenario, build, seeded, texts

#: What the kind's file holds (its ``description``).
TEXT = "What one seat may see (VIEW.SEAT) in a position."


def view_json(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see (VIEW.SEAT), in the form of the seat-view vectors."""
    v = seat_view(state, seat)
    return {
    "seat": seat, "phase": str(v.phase), "deal_number": v.deal_number, "dealer": v.dealer,
    "to_act": v.to_act, "hand": texts(v.hand),
    "passed": None if v.passed is None else texts(v.passed), "passed_to": v.passed_to,
    "passed_seats": list(v.passed_seats),
    "received": None if v.received is None else texts(v.received),
    "received_from": v.received_from,
    "hand_sizes": list(v.hand_sizes), "hearts_broken": v.hearts_broken,
    "tricks": [{"number": t.number, "leader": t.leader, "cards": texts(t.cards),
                    "winner": t.winner} for t in v.tricks],
    "trick": texts(v.current_trick),
    "pending_face_up": texts(sorted(v.pending_cards_seen)),
    "pending_face_down": v.pending_hidden, "extras_count": v.extras_count,
    "extras": None if v.extras is None else texts(v.extras), "totals": list(v.totals),
    "deal_scores": None if v.last_deal is None else list(v.last_deal.scores)}


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []

    def view(sc: Scenario, seat: int, slug: str, description: str) -> None:
        case = sc.case("seat-view", slug, description, ["VIEW.SEAT"], seat=seat,
                       expected=view_json(sc.state, seat))
        del case["steps"]
        out.append(case)

    sc = seeded(6, DEFAULT, 91)
    sc.pre(Pass(1, sc.state.hands[1][:3]))
    sc.pre(Pass(2, sc.state.hands[2][-3:]))
    view(sc, 2, "passing-after-own-pass-p6", "While passing: seat 2 sees its own pass and "
         "target and which seats have passed, not what they passed.")
    view(sc, 4, "passing-before-own-pass-p6", "While passing: seat 4 has not passed yet.")
    sc = build(7, DEFAULT, {}, seed=92)
    view(sc, 3, "after-exchange-p7", "After the exchange: seat 3 sees the cards it received "
         "and from whom.")
    sc = build(6, DEFAULT, {1: "5C 8D", 2: "5C 9D", 3: "9D 10D", 4: "KS 3D", 5: "2D 4D",
                            0: "JD 6D"}, voids={3: "C", 4: "C", 5: "C", 0: "C"},
               extras="QH AH", seed=65)
    sc.play("5C", "5C", "9D", "KS", "2D", "JD", "8D")
    view(sc, 4, "extras-pending-face-down-p6", "After a void trick 1: its cards are pending "
         "face up, the extras with them stay face down.")
    sc = played(9, DEFAULT, 9)
    sc.pre(last_card(sc))
    view(sc, 0, "deal-scored-extras-shown-p9", "After the deal is scored, the extras are "
         "shown to every seat.")
    sc = seeded(8, preset("bicycle"), 93)
    sc.play(str(sc.state.legal_plays()[0]))
    view(sc, 5, "hold-no-pass-bicycle-p8", "Under pass_cycle [hold], nobody passed.")
    return out
