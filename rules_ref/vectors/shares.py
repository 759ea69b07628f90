"""How much of the suite applies to an engine: the share of the cases a run would test.

:func:`share` asks, case by case, what ``rules-ref vectors run`` asks before
it sends a case (:func:`.running.select`: the values the adapter declares,
the adapter's own value of a switch the case does not depend on, confirmed
on the reference), and counts the subjects as a run does
(:meth:`.running.RunResult.tested`: a case and its position-start form
once). So the share is what a run of an adapter with those declarations,
correct, would report as tested, without running it.

:data:`PUBLIC_ENGINES` declares the two public engines as their presets say,
at the player counts they play; :func:`public_lines` states their shares
(``rules-ref vectors generate`` and ``rules-ref vectors check`` print them).
The suite is built so that at least :data:`FLOOR` of it applies to each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..ruleset import preset
from .case_replay import PASS, SKIP, CaseResult
from .files import Case
from .running import RunResult, select

#: Each public engine -> the player counts it plays: the allanh page 8 only, the crcowan
#: engine 5 to 11 (its preset's min_players = 5; peers/ runs both).
PUBLIC_ENGINES: dict[str, tuple[int, ...]] = {
    "allanh": (8,),
    "crcowan": tuple(range(5, 12)),
}
#: The least share of the suite that applies to each public engine.
FLOOR = 0.6


def declared(name: str, players: Sequence[int]) -> dict[str, Any]:
    """What an adapter declaring exactly preset ``name`` at ``players`` declares: each switch
    at the preset's value, every capability of protocol version 2 (``position``)."""
    return {"players": list(players),
            "switches": {k: [v] for k, v in preset(name).to_dict().items()},
            "capabilities": ["position"]}


def share(cases: Sequence[tuple[str, Case]], declares: dict[str, Any]) -> tuple[int, int]:
    """How many subjects a correct adapter declaring ``declares`` would test, of how many."""
    outcomes = [CaseResult(str(case["id"]), SKIP if select(case, kind, declares)[1] else PASS,
                           [], "") for kind, case in cases]
    return RunResult(list(cases), outcomes).tested()


def public_shares(cases: Sequence[tuple[str, Case]]) -> dict[str, tuple[int, int]]:
    """Each public engine -> (subjects it would test, subjects in all)."""
    return {name: share(cases, declared(name, players))
            for name, players in PUBLIC_ENGINES.items()}


def _counts(players: Sequence[int]) -> str:
    return f"{players[0]} players" if len(players) == 1 else \
        f"{players[0]} to {players[-1]} players"


def public_lines(cases: Sequence[tuple[str, Case]]) -> list[str]:
    """The public engines' shares as text, one line each."""
    lines = ["share of the suite that applies to the public engines (their preset, their "
             "player counts, the capability position):"]
    for name, (tested, total) in public_shares(cases).items():
        lines.append(f"  {name} ({_counts(PUBLIC_ENGINES[name])}): {tested} of {total} "
                     f"cases ({100 * tested / total:.1f}%)" if total else f"  {name}: no case")
    return lines
