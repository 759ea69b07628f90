"""Seeded-deal vectors: the portable deal of ``spec/deal.md``, worked values included."""

from __future__ import annotations

from ...deal import extras_count, hand_size, seeded_deal, shuffled_deck
from ...errors import SetupError
from ...ruleset import DEFAULT, Ruleset
from ..files import Case
from ..scenario import texts

#: What the kind's file holds (its ``description``).
TEXT = (
    "The portable seeded deal (spec/deal.md): seed, players, deal number and dealer "
    "give the shuffled deck, the hands and the extras.")


SEEDED_DEALS = [
    # seed, players, deal number, dealer; the first, 42/8/2/1 and 2**64-1/11/3/5 are the
    # worked values of spec/deal.md
    (0, 6, 1, 0), (1, 6, 2, 1), (42, 7, 1, 0), (7, 7, 3, 5), (1, 8, 1, 0), (42, 8, 2, 1),
    (123456789, 9, 1, 8), (0xDEADBEEF, 9, 4, 2), (99, 10, 1, 0), (18446744073709551615, 10, 2, 9),
    (0x0123456789ABCDEF, 11, 1, 0), (18446744073709551615, 11, 3, 5), (5, 11, 1000, 3),
]


#: Five-player deals, under min_players = 5 (PLAYERS.COUNT): 20 cards each and 4 extras.
FIVE_PLAYER_DEALS = [(1, 5, 1, 0), (2026, 5, 2, 4)]


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    for seed, n, k, dealer in SEEDED_DEALS:
        d = seeded_deal(seed, n, k, dealer)
        out.append({
            "id": f"seeded-deal/s{seed}-p{n}-d{k}-dealer{dealer}",
            "description": f"Seed {seed}, {n} players, deal {k}, dealer {dealer}: "
                           f"{hand_size(n)} cards each and {extras_count(n)} extras.",
            "rules": ["DEAL.SOURCE", "DEAL.SIZE", "DECK.CARDS"], "ruleset": DEFAULT.to_dict(),
            "players": n,
            "input": {"seed": str(seed), "players": n, "deal_number": k, "dealer": dealer},
            "expected": {"deck": texts(shuffled_deck(seed, k)),
                         "hands": [texts(h) for h in d.hands], "extras": texts(d.extras)}})
    five = Ruleset(min_players=5)
    for seed, n, k, dealer in FIVE_PLAYER_DEALS:
        d = seeded_deal(seed, n, k, dealer, five.min_players)
        out.append({
            "id": f"seeded-deal/s{seed}-p{n}-d{k}-dealer{dealer}",
            "description": f"Seed {seed}, {n} players under min_players 5, deal {k}, dealer "
                           f"{dealer}: {hand_size(n)} cards each and {extras_count(n)} extras.",
            "rules": ["DEAL.SOURCE", "DEAL.SIZE", "DECK.CARDS", "PLAYERS.COUNT"],
            "ruleset": five.to_dict(), "players": n,
            "input": {"seed": str(seed), "players": n, "deal_number": k, "dealer": dealer},
            "expected": {"deck": texts(shuffled_deck(seed, k)),
                         "hands": [texts(h) for h in d.hands], "extras": texts(d.extras)}})
    bad = [("-1", 6, "DEAL.SOURCE", "a negative seed"),
           ("18446744073709551616", 6, "DEAL.SOURCE", "a seed of 2**64"),
           ("1", 5, "PLAYERS.COUNT", "5 players"), ("1", 12, "PLAYERS.COUNT", "12 players")]
    for seed_text, n, rule, why in bad:
        try:
            seeded_deal(int(seed_text), n, 1, 0)
        except SetupError as exc:
            assert exc.rule_id == rule
        else:
            raise AssertionError(why)
        out.append({
            "id": f"seeded-deal/reject-{why.replace(' ', '-').replace('*', '')}",
            "description": f"Rejected: {why}.", "rules": [rule], "ruleset": DEFAULT.to_dict(),
            "players": n,
            "input": {"seed": seed_text, "players": n, "deal_number": 1, "dealer": 0},
            "expected": {"rejected": True, "rule": rule}})
    return out
