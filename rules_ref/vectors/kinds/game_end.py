"""Game-end vectors: the target, the winners and ties."""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import MoonChoice
from ...ruleset import DEFAULT, Ruleset, preset
from ..endings import (
    dry_scores,
    end_case,
    moon_deal,
    played,
)
from ..files import Case
from ..scenario import build

#: What the kind's file holds (its ``description``).
TEXT = "The end of the game: the target, the winners and ties."


def generate() -> list[Case]:
    """Every case of the kind."""
    out: list[Case] = []
    d = DEFAULT
    base = played(8, d, 3)
    scores = dry_scores(base)
    top = max(range(8), key=lambda s: (scores[s], -s))
    rest = [s for s in range(8) if s != top]

    def totals_for(top_final: int, low: Sequence[int] = ()) -> list[int]:
        t = [60 + 7 * i for i in range(8)]
        for s in low:
            t[s] = 40 - scores[s]
        t[top] = top_final - scores[top]
        return t

    out.append(end_case(base.with_setup(totals=totals_for(150)), "game-end",
                        "reaches-target-exactly-p8", "A total reaches exactly 150 after the "
                        "deal: the game ends and the lowest total wins.",
                        ["GAME.END", "GAME.WINNER", "SCORE.DEAL"]))
    out.append(end_case(base.with_setup(totals=totals_for(149)), "game-end", "just-below-p8",
                        "The highest total is 149 after the deal: the game goes on.",
                        ["GAME.END"]))
    out.append(end_case(base.with_setup(totals=totals_for(170, rest[:2])), "game-end",
                        "tie-for-lowest-p8", "Two players tie for the lowest total: both "
                        "win.", ["GAME.WINNER", "GAME.END"]))
    out.append(end_case(base.with_setup(totals=totals_for(170, rest[:3])), "game-end",
                        "three-way-tie-p8", "Three players tie for the lowest total: all "
                        "three win.", ["GAME.WINNER", "GAME.END"]))
    target200 = Ruleset.from_dict({"target": 200})
    out.append(end_case(base.with_setup(ruleset=target200, totals=totals_for(199)),
                        "game-end", "target-200-just-below-p8", "Under target 200 the "
                        "highest total is 199 after the deal, past the default 150: the game "
                        "goes on.", ["GAME.END"]))
    hub = played(8, preset("hubpages"), 3)
    hs = dry_scores(hub)
    htop = max(range(8), key=lambda s: (hs[s], -s))
    t = [30 + 5 * i for i in range(8)]
    t[htop] = 100 - hs[htop]
    out.append(end_case(hub.with_setup(totals=t), "game-end", "target-100-hubpages-p8",
                        "Under target 100 the game ends when a total reaches 100.",
                        ["GAME.END", "GAME.WINNER"]))
    one = Ruleset.from_dict({"target": 1})
    out.append(end_case(played(7, one, 5), "game-end", "target-1-p7", "Under target 1 the "
                        "first deal that gives anyone a point ends the game; the lowest "
                        "total wins.", ["GAME.END", "GAME.WINNER"]))
    out.append(end_case(moon_deal(d, totals=[130, 100, 130, 128, 140, 131, 135, 129]),
                        "game-end", "moon-add-ends-game-p8", "The shooter's add choice "
                        "pushes the others past 150: the game ends after the moon choice "
                        "and the shooter wins.", ["GAME.END", "MOON.CHOICE", "GAME.WINNER"],
                        moon=MoonChoice.ADD))
    out.append(end_case(moon_deal(d, totals=[149, 10, 100, 90, 80, 70, 60, 50]), "game-end",
                        "moon-subtract-negative-p8", "A subtract choice takes the shooter's "
                        "total below zero; nobody reaches the target, so the game goes on.",
                        ["MOON.CHOICE", "GAME.END", "SCORE.DEAL"], moon=MoonChoice.SUBTRACT))
    sc = build(6, d, {1: "9C", 2: "10C", 3: "JC", 4: "3C", 5: "2C", 0: "4C"},
               extras="AH 5H", totals=[149, 149, 149, 149, 149, 149], seed=61)
    sc.play("9C", "10C", "JC", "3C", "2C")
    sc.step_play("4C", ("phase", "to_act", "points", "deal_scores", "totals", "winners"))
    out.append(sc.case("game-end", "not-during-a-deal-p6", "Points collected during a deal "
                       "do not end the game before the deal is scored.", ["GAME.END"]))
    out.extend(_allanh_target_cases())
    out.append(_preset_target_case("crcowan", 5, 7, 50, (10, 3), "Five players under preset "
                                   "crcowan with target 50: the game ends when a total reaches "
                                   "50.", ["GAME.END", "GAME.WINNER", "PLAYERS.COUNT"]))
    out.append(_preset_target_case("allanh", 8, 8, 200, (20, 5), "Eight players under preset "
                                   "allanh with target 200: the game ends when a total reaches "
                                   "200.", ["GAME.END", "GAME.WINNER"]))
    return out


def _preset_target_case(name: str, players: int, seed: int, target: int,
                        totals: tuple[int, int], description: str, rules: list[str]) -> Case:
    """A deal under preset ``name`` with another target, after which the top seat reaches it.

    The totals before the deal are ``first + step × seat`` (``totals``), the top scorer's set
    so that the deal brings it exactly to ``target``.
    """
    ruleset = Ruleset.from_dict({**preset(name).to_dict(), "target": target})
    game = played(players, ruleset, seed)
    scores = dry_scores(game)
    top = max(range(players), key=lambda s: (scores[s], -s))
    first, step = totals
    before = [first + step * seat for seat in range(players)]
    before[top] = target - scores[top]
    return end_case(game.with_setup(totals=before), "game-end",
                    f"target-{target}-{name}-p{players}", description, rules)


def _allanh_target_cases() -> list[Case]:
    """The allanh preset's own target, 100, at 8 players (its engine's count): reached
    exactly, just missed, and reached with two seats tied for the lowest total."""
    game = played(8, preset("allanh"), 4)
    scores = dry_scores(game)
    top = max(range(8), key=lambda s: (scores[s], -s))
    low = sorted((s for s in range(8) if s != top), key=lambda s: (scores[s], s))[:2]

    def totals(top_final: int, tie: bool = False) -> list[int]:
        t = [40 + 4 * seat for seat in range(8)]
        if tie:
            for seat in low:
                t[seat] = 30 - scores[seat]
        t[top] = top_final - scores[top]
        return t

    return [
        end_case(game.with_setup(totals=totals(100)), "game-end", "target-100-allanh-p8",
                 "Under the allanh preset (target 100) at 8 players, a total reaches exactly "
                 "100 after the deal: the game ends and the lowest total wins.",
                 ["GAME.END", "GAME.WINNER", "SCORE.DEAL"]),
        end_case(game.with_setup(totals=totals(99)), "game-end",
                 "just-below-100-allanh-p8", "Under the allanh preset (target 100) at 8 "
                 "players, the highest total is 99 after the deal: the game goes on.",
                 ["GAME.END", "SCORE.DEAL"]),
        end_case(game.with_setup(totals=totals(120, tie=True)), "game-end",
                 "tie-for-lowest-allanh-p8", "Under the allanh preset (target 100) at 8 "
                 "players, the game ends with two seats tied for the lowest total: both win.",
                 ["GAME.END", "GAME.WINNER"]),
    ]
