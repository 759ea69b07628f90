"""How much of the suite applies to an engine: the share of the cases a run would test.

:func:`share` asks, case by case, what ``rules-ref vectors run`` asks before
it sends a case (:func:`.running.select_case`: the values the adapter
declares, the adapter's own value of a switch the case does not depend on,
a rebuilt route, re-scored figures, each confirmed on the reference), and
counts the subjects as a run does (:meth:`.running.RunResult.tested`: a case
and its position-start form once). So the share is what a run of an adapter
with those declarations, correct, would report as tested, without running it.

:data:`PUBLIC_ENGINES` declares the two public engines as their presets say,
at the player counts they play; :func:`public_lines` states their shares
(``rules-ref vectors generate`` and ``rules-ref vectors check`` print them).
The suite is built so that at least :data:`FLOOR` of it applies to each.

:func:`population_lines` measures the same over a population of engines: a
correct engine of each single non-default value of ``spec/variants.toml``,
and of random combinations of :data:`COMBINED` of them, each declaring that
ruleset alone (:func:`.protocol.reference_adapter.engine_supports`, as
``rules-ref adapter --ruleset`` does), at protocol version 1 (no positions)
and 2: the share of the suite that applies and the exit status its run
would have (:func:`.running.verdict`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..protocol.messages import CAPABILITIES
from ..protocol.reference_adapter import engine_supports
from ..ruleset import DEFAULT, Ruleset, preset
from .case_replay import PASS, SKIP, CaseResult
from .files import Case
from .requirements import documented, show
from .running import RunResult, record, select_case, verdict

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


def correct_run(cases: Sequence[tuple[str, Case]], declares: dict[str, Any]) -> RunResult:
    """The run of a correct adapter declaring ``declares``: every case it is sent passes."""
    result = RunResult(list(cases), declared=declares)
    for kind, case in cases:
        sent, missing = select_case(case, kind, declares)
        record(result, case, sent)
        result.outcomes.append(CaseResult(str(case["id"]), SKIP if missing else PASS,
                                          [], "", missing))
    return result


def share(cases: Sequence[tuple[str, Case]], declares: dict[str, Any]) -> tuple[int, int]:
    """How many subjects a correct adapter declaring ``declares`` would test, of how many."""
    return correct_run(cases, declares).tested()


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


#: How many non-default values each random engine of the population combines, how many such
#: engines are drawn, and the seed that draws them.
COMBINED = 3
COMBINATIONS = 10
SEED = 42


def engine(ruleset: Ruleset, protocol: int) -> dict[str, Any]:
    """What a correct engine of ``ruleset`` alone declares at ``protocol`` (1: no positions)."""
    return {**engine_supports(ruleset),
            "capabilities": list(CAPABILITIES) if protocol >= 2 else []}


def single_values() -> list[dict[str, Any]]:
    """Every non-default value of ``spec/variants.toml``, each as a ruleset's changes."""
    default = DEFAULT.to_dict()
    return [{switch: value} for switch, values in documented().items()
            for value in values if value != default[switch]]


def combinations(n: int = COMBINATIONS, seed: int = SEED) -> list[dict[str, Any]]:
    """``n`` rulesets of :data:`COMBINED` non-default values of distinct switches, drawn with
    ``seed``; a draw no player count can play is drawn again."""
    rng = random.Random(seed)
    switches = sorted({next(iter(v)) for v in single_values()})
    out: list[dict[str, Any]] = []
    while len(out) < n:
        picked = rng.sample(switches, COMBINED)
        changes = {s: rng.choice([v[s] for v in single_values() if s in v]) for s in picked}
        if engine_supports(Ruleset.from_dict(changes))["players"]:
            out.append(changes)
    return out


def outcome(cases: Sequence[tuple[str, Case]], changes: dict[str, Any], protocol: int,
            ) -> tuple[int, int, int]:
    """A correct engine of ``changes`` at ``protocol``: subjects tested, of how many, and the
    exit status of its run."""
    result = correct_run(cases, engine(Ruleset.from_dict(changes), protocol))
    tested, total = result.tested()
    return tested, total, verdict(result)[1]


def label(changes: dict[str, Any]) -> str:
    """A ruleset's changes as the population's lines name them: ``pass_count 2, target 50``."""
    return ", ".join(f"{k} {show(v)}" for k, v in changes.items())


def population_lines(cases: Sequence[tuple[str, Case]], n: int = COMBINATIONS) -> list[str]:
    """The population's shares and exit statuses as text: one line per engine."""
    lines = [f"share of the suite that applies to a correct engine of one ruleset (declaring "
             f"it alone), and its exit status: each non-default value, then {n} random "
             f"combinations of {COMBINED}"]
    shares: list[float] = []
    for changes in [*single_values(), *combinations(n)]:
        cells = []
        for protocol in (1, 2):
            tested, total, status = outcome(cases, changes, protocol)
            shares.append(tested / total if total else 0.0)
            cells.append(f"protocol {protocol}: {100 * tested / total:5.1f}% exit {status}"
                         if total else f"protocol {protocol}: no case")
        lines.append(f"  {label(changes)}: {'; '.join(cells)}")
    if shares:
        lines.append(f"  mean share {100 * sum(shares) / len(shares):.1f}%, least "
                     f"{100 * min(shares):.1f}%")
    return lines
