"""Transcript vectors: a whole game, or its last deals, under each preset."""

from __future__ import annotations

from ... import events as ev
from ...actions import ChooseMoon, DealCards, Pass, Play
from ...players.game import game_steps
from ...ruleset import Ruleset, preset
from ...state_parts import Phase
from ..files import Case
from ..scenario import Scenario

#: What the kind's file holds (its ``description``).
TEXT = (
    "A whole game, or its last deals: every action and the full observation at each "
    "checkpoint.")


TRANSCRIPTS = [
    # preset, players, game seed, first dealer, deals from the end (None: the whole game)
    ("spruce", 8, 15, 0, None),
    ("hubpages", 11, 15, 3, None),
    ("bicycle", 6, 13, 0, None),
    ("toycrossing", 7, 4, 2, 2),
    ("wikipedia", 9, 5, 0, 2),
    ("boardgamegeek", 10, 6, 1, 2),
    ("lovecardgames", 8, 7, 0, 3),
    ("mensa", 9, 8, 4, 2),
    ("hearts-template", 10, 9, 0, 3),
    ("allanh", 8, 10, 0, 3),
    ("crcowan", 5, 10, 2, 2),
]


#: Rules every game exercises; EVENT_RULES add those of the rarer events.
TRANSCRIPT_RULES = ("DECK.CARDS", "DECK.RANKING", "DEAL.SIZE", "DEAL.DEALER", "PASS.DIRECTION",
                    "TURN.ORDER", "LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "LEAD.HEARTS",
                    "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK", "TRICK.LED_SUIT", "TRICK.WINNER",
                    "TRICK.NEXT_LEADER", "SCORE.CARD_POINTS", "SCORE.DEAL", "MOON.CONDITION",
                    "GAME.END", "GAME.WINNER")
EVENT_RULES: dict[str, tuple[str, ...]] = {
    "CardsPassed": ("PASS.CARDS", "PASS.EXCHANGE"),
    "HeartsBroken": ("HEARTS.BROKEN",),
    "TrickSetAside": ("VOID.TRICK", "VOID.LEADER"),
    "PendingCollected": ("VOID.COLLECT",),
    "ExtrasTaken": ("EXTRAS.FIRST_TRICK",),
    "ExtrasPending": ("EXTRAS.FIRST_TRICK",),
    "PendingSettled": ("VOID.LAST",),
    "MoonShot": ("MOON.CHOICE",),
}


def gen_transcript(name: str, players: int, seed: int, first_dealer: int,
                   last: int | None, rs: Ruleset | None = None) -> Case:
    """The transcript of preset ``name`` (played with ``rs`` when given: the preset's values
    as an earlier vectors version played them)."""
    rs = preset(name) if rs is None else rs
    steps = list(game_steps(players, seed, rs, first_dealer))
    deals = [i for i, (_, a, _, _) in enumerate(steps) if isinstance(a, DealCards)]
    first = 0 if last is None else deals[-last]
    before, action, after, _ = steps[first]
    assert isinstance(action, DealCards)
    sc = Scenario(players, rs, action.hands, action.extras, after.deal_number, after.dealer,
                  before.totals)
    sc.check()
    for _, a, st, _ in steps[first + 1:]:
        checkpoint = (isinstance(a, DealCards | ChooseMoon)
                      or (isinstance(a, Play) and not st.trick)
                      or (isinstance(a, Pass) and st.phase is not Phase.PASSING)
                      or st.phase is Phase.GAME_OVER)
        sc.step(a, None, compare=checkpoint)
    assert sc.state.phase is Phase.GAME_OVER
    span = "the whole game" if last is None else f"the last {last} deals"
    deals_played = sc.state.deal_number - sc.start["deal_number"] + 1
    rules = set(TRANSCRIPT_RULES)
    for _, _, _, events in steps[first:]:
        for e in events:
            rules.update(EVENT_RULES.get(type(e).__name__, ()))
            if isinstance(e, ev.TrickWon | ev.TrickSetAside) and e.cancelled:
                rules.add("TRICK.CANCEL")
    return sc.case("transcript", f"{name}-p{players}-s{seed}",
                   f"Preset {name}, {players} players, game seed {seed}: {span} "
                   f"({deals_played} deals from deal {sc.start['deal_number']}), played by the "
                   "built-in player.", sorted(rules), preset=name, seed=str(seed))
