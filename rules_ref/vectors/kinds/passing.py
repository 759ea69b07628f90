"""Passing vectors: directions and targets, passing in any order, the simultaneous exchange."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...actions import Pass
from ...passing import pass_direction, passable
from ...ruleset import DEFAULT, Ruleset, preset
from ..files import Case
from ..scenario import Scenario, cards, fill_hands, seeded
from ..versions import version_presets

#: What the kind's file holds (its ``description``).
TEXT = "Pass directions and targets, passing in any order, the simultaneous exchange."


def passing_case(slug: str, description: str, sc: Scenario, rules: Sequence[str],
                 order: Sequence[int] | None = None, take: Mapping[int, str] | None = None,
                 ) -> Case:
    """The passes of ``sc``'s deal, seat by seat (in ``order``, by default the seats waiting),
    each passing ``take``'s cards or a spread of its hand; the exchange's hands compared."""
    st = sc.state
    offset = st.pass_offset
    targets = [None if offset is None else (s + offset) % st.players
               for s in range(st.players)]
    direction = str(pass_direction(st.deal_number, st.ruleset))
    if offset is None:
        sc.check(("phase", "waiting_for", "to_act", "leader", "hands"))
    else:
        seats = order if order is not None else list(st.waiting_for)
        for i, seat in enumerate(seats):
            hand = passable(sc.state.hands[seat], st.ruleset)
            chosen = cards(take[seat]) if take and seat in take else \
                hand[:: max(1, len(hand) // st.ruleset.pass_count)][:st.ruleset.pass_count]
            last = i == len(seats) - 1
            sc.step(Pass(seat, tuple(sorted(chosen))),
                    ("phase", "waiting_for", "to_act", "leader", "hands") if last
                    else ("phase", "waiting_for", "to_act"))
    return sc.case("passing", slug, description, rules,
                   {"direction": direction, "targets": targets})


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []

    def add(slug: str, description: str, sc: Scenario, rules: Sequence[str],
            order: Sequence[int] | None = None, take: Mapping[int, str] | None = None) -> None:
        out.append(passing_case(slug, description, sc, rules, order, take))

    base = ("PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE")
    add("default-deal1-left-p6", "Deal 1 passes left: 3 cards to seat +1.",
        seeded(6, DEFAULT, 11), base)
    add("default-deal2-right-p7", "Deal 2 passes right: 3 cards to seat -1; the "
        "dealer has moved one seat left.", seeded(7, DEFAULT, 12, deal_number=2),
        (*base, "DEAL.DEALER"))
    add("default-deal3-left-p11", "Deal 3 passes left again (left, right, left, ...).",
        seeded(11, DEFAULT, 13, deal_number=3, first_dealer=4), base)
    add("any-order-p8", "Seats may pass in any order; the cards move only when the "
        "last seat has passed.", seeded(8, DEFAULT, 14),
        (*base, "TURN.ORDER"), order=[5, 0, 3, 1, 7, 2, 6, 4])
    hands, extras = fill_hands(6, {1: "QS QS AH AH 2C", 2: "KH 2C 3C"}, seed=15)
    add("both-copies-and-points-p6", "Both copies of a card, hearts and QS may be "
        "passed.", Scenario(6, DEFAULT, hands, extras), base,
        take={1: "QS QS AH", 2: "KH 2C 3C"})
    add("hold-bicycle-p6", "Under pass_cycle [hold] nobody passes: play starts at "
        "once.", seeded(6, preset("bicycle"), 16), ("PASS.DIRECTION",))
    add("right-every-deal-hubpages-p9", "Under pass_cycle [right] deal 1 passes right.",
        seeded(9, preset("hubpages"), 17), base)
    add("two-left-boardgamegeek-p10", "Under pass_count 2 and pass_cycle [left], "
        "deal 2 passes 2 cards left.", seeded(10, preset("boardgamegeek"), 18,
                                              deal_number=2), base)
    lcg = version_presets(1)["lovecardgames"]  # the four-step cycle, as first published
    add("cycle4-deal2-right-p8", "Four-step cycle: deal 2 passes right.",
        seeded(8, lcg, 19, deal_number=2), base)
    add("cycle4-deal3-across-p9", "Four-step cycle: deal 3 passes across, "
        "floor(9/2) = 4 seats left.", seeded(9, lcg, 20, deal_number=3), base)
    add("cycle4-deal3-across-p10", "Four-step cycle: deal 3 passes across, 5 seats.",
        seeded(10, preset("hearts-template"), 21, deal_number=3), base)
    add("cycle4-deal4-hold-p7", "Four-step cycle: deal 4 holds.",
        seeded(7, lcg, 22, deal_number=4), ("PASS.DIRECTION",))
    add("cycle4-deal5-left-p7", "Four-step cycle: deal 5 starts the cycle again, left.",
        seeded(7, lcg, 23, deal_number=5), base)
    add("lovecardgames-deal4-left-p7", "The lovecardgames cycle has no hold step: "
        "deal 4 passes left again.", seeded(7, preset("lovecardgames"), 32,
                                           deal_number=4), base)
    allanh = preset("allanh")
    add("allanh-deal3-left-2-p8", "The allanh cycle: deal 3 passes 2 seats to the "
        "left, none of them a 2C (pass_forbidden two-of-clubs).",
        seeded(8, allanh, 24, deal_number=3), base)
    add("allanh-deal6-right-3-p8", "The allanh cycle: deal 6 passes 3 seats to the "
        "right.", seeded(8, allanh, 25, deal_number=6), base)
    add("allanh-deal7-across-p8", "The allanh cycle: deal 7 passes across, 4 seats "
        "at 8 players.", seeded(8, allanh, 26, deal_number=7), base)
    add("allanh-deal8-hold-p8", "The allanh cycle: deal 8 does not pass.",
        seeded(8, allanh, 27, deal_number=8), ("PASS.DIRECTION",))
    add("allanh-deal9-left-p10", "The allanh cycle repeats: deal 9 passes 1 seat "
        "to the left.", seeded(10, allanh, 28, deal_number=9), base)
    for deal, step, words, seed in ((1, "left", "1 seat to the left", 33),
                                    (2, "right", "1 seat to the right", 34),
                                    (4, "right-2", "2 seats to the right", 35),
                                    (5, "left-3", "3 seats to the left", 36)):
        add(f"allanh-deal{deal}-{step}-p8", f"The allanh cycle: deal {deal} passes "
            f"{words}.", seeded(8, allanh, seed, deal_number=deal), base)
    crcowan = preset("crcowan")
    for n, seed in ((5, 37), (6, 38), (7, 39), (8, 40), (11, 41)):
        add(f"crcowan-deal3-across-p{n}", f"The crcowan cycle (left, right, across, "
            f"hold): deal 3 passes across, floor({n}/2) = {n // 2} seats to the left.",
            seeded(n, crcowan, seed, deal_number=3), base)
    add("crcowan-deal1-left-p5", "Five players (min_players 5): deal 1 passes 3 of "
        "the 20 cards to seat +1.", seeded(5, crcowan, 42), base)
    add("crcowan-deal2-right-p5", "Five players (min_players 5): deal 2 passes to "
        "seat -1.", seeded(5, crcowan, 43, deal_number=2), (*base, "DEAL.DEALER"))
    add("crcowan-deal4-hold-p5", "Five players (min_players 5): deal 4 of the "
        "crcowan cycle does not pass.", seeded(5, crcowan, 44, deal_number=4),
        ("PASS.DIRECTION",))
    peg = Ruleset.from_dict({"pass_cycle": ["hold", "left", "left-2", "right-2", "right"]})
    add("pegwiki-deal1-hold-p6", "The PEGWiki cycle: deal 1 does not pass.",
        seeded(6, peg, 29), ("PASS.DIRECTION",))
    add("pegwiki-deal3-left-2-p7", "The PEGWiki cycle: deal 3 passes 2 seats to the "
        "left.", seeded(7, peg, 30, deal_number=3), base)
    add("pegwiki-deal4-right-2-p11", "The PEGWiki cycle: deal 4 passes 2 seats to "
        "the right, 3 cards as in every deal that passes.",
        seeded(11, peg, 31, deal_number=4), base)
    return out
