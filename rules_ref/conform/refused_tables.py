"""Tables the rules refuse: the ``start`` messages a conform run offers that must be rejected.

A game's set-up refuses some tables before anything is dealt
(:func:`rules_ref.passing.check_table`): under ``pass_forbidden =
two-of-clubs`` a ``pass_count`` above the hand size less 2 (``PASS.CARDS``),
and a ``pass_cycle`` step ``left-k`` or ``right-k`` with k at least the
player count (``PASS.DIRECTION``). An implementation that accepts such a
table is wrong, and no game the search draws shows it, so once per run,
after the handshake and before the games, the runner offers a few tables at
the edge of what the rules refuse, built only from what ``hello`` declares
(:func:`refused_tables`):

* for each player count where ``pass_forbidden = two-of-clubs`` and a
  refused ``pass_count`` are supported: the smallest such ``pass_count``
  (the hand size less 1 when it is supported, the boundary);
* where a ``pass_cycle`` with seat-distance steps is supported: a cycle
  whose largest step is k = the player count (the boundary), at the
  smallest and at the largest count where one can be built; under ``"any"``
  the cycle is ``left`` then ``left-n`` or ``right-n`` (the side drawn from
  the seed); of listed cycles, the first whose largest step is the smallest
  k at least the count, as it is listed.

Each start carries a seeded deal of valid cards for its table. The
implementation must answer ``rejected`` (:func:`judge_refused`): citing
another rule is counted as a citation that differs (the rule is optional),
not a failure; an ``observation`` is a divergence of its own class (``accepts a
table the rules refuse``); an ``error`` is the implementation's internal
error. :func:`rejected_start_rules` names the rules of the opposite
mistake, a start the reference accepts and the implementation rejects.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from ..deal import FEWEST_PLAYERS, MAX_PLAYERS, deal_allowed, hand_size, seeded_deal
from ..errors import RulesRefError, SetupError
from ..findings.failure import Failure
from ..passing import seat_distance
from ..protocol.client import AdapterProcess
from ..protocol.handshake import Supports, switch_values
from ..protocol.observation import observation_problems
from ..protocol.start import seeded_start
from ..ruleset import PassForbidden, PassStep, Ruleset, SeatDistance
from ..state import GameState

#: The rules a game's set-up checks: a rejected start citing one of them is blamed on it.
SETUP_RULES = ("PLAYERS.COUNT", "PASS.CARDS", "PASS.DIRECTION", "DEAL.SIZE", "DECK.CARDS",
               "DEAL.DEALER", "DEAL.SOURCE")
#: The largest k of a ``left-k`` or ``right-k`` step (spec/variants.toml, "Caps").
MAX_STEP = 10
#: The words of the divergence class of an accepted refused table.
ACCEPTS_REFUSED = "accepts a table the rules refuse"


@dataclass(frozen=True)
class RefusedTable:
    """A player count and a ruleset the reference refuses, and the rule it cites."""

    players: int
    ruleset: Ruleset
    rule: str


def allowed_values(supports: Supports, name: str) -> list[Any] | None:
    """The values of switch ``name`` the adapter supports (None: every value, ``"any"``)."""
    declared = supports.switches.get(name)
    if declared == "any":
        return None
    if declared is None:
        return [getattr(Ruleset(), name)]
    return switch_values(name, list(declared))


def base_ruleset(supports: Supports) -> Ruleset:
    """Every switch at its default when supported, else at its first listed value."""
    default = Ruleset()
    chosen: dict[str, Any] = {}
    for f in fields(Ruleset):
        values = allowed_values(supports, f.name)
        value = getattr(default, f.name)
        chosen[f.name] = value if values is None or value in values else values[0]
    return Ruleset(**chosen)


def largest_step(cycle: Sequence[PassStep]) -> int:
    """The largest k of the cycle's ``left-k`` and ``right-k`` steps (0: none)."""
    return max((abs(seat_distance(s)) for s in cycle if isinstance(s, SeatDistance)), default=0)


def refusal(ruleset: Ruleset, players: int) -> SetupError | None:
    """The reference's refusal of a game of ``players`` under ``ruleset`` (None: it plays it)."""
    try:
        GameState.start(players, ruleset)
    except SetupError as exc:
        return exc
    return None


def _fits(supports: Supports, table: RefusedTable) -> bool:
    """Inside the supports, and refused by the reference citing the table's rule."""
    found = refusal(table.ruleset, table.players)
    return not supports.allows(table.ruleset) and found is not None \
        and found.rule_id == table.rule


def fitting_cycle(supports: Supports, ruleset: Ruleset, players: int) -> Ruleset | None:
    """``ruleset``, or with the first supported ``pass_cycle`` whose steps fit ``players``
    when its own has a step of k at least the count (None: no supported cycle fits)."""
    if largest_step(ruleset.pass_cycle) < players:
        return ruleset
    cycles = allowed_values(supports, "pass_cycle")
    fitting = [c for c in cycles or [Ruleset().pass_cycle] if largest_step(c) < players]
    return replace(ruleset, pass_cycle=tuple(fitting[0])) if fitting else None


def at_count(base: Ruleset, players: int) -> Ruleset:
    """``base``, with ``min_players`` lowered to ``players`` when it is above it."""
    return replace(base, min_players=players) if players < base.min_players else base


def _pass_cards_table(supports: Supports, base: Ruleset, players: int) -> RefusedTable | None:
    forbidden = allowed_values(supports, "pass_forbidden")
    if forbidden is not None and PassForbidden.TWO_OF_CLUBS not in forbidden:
        return None
    counts = allowed_values(supports, "pass_count")
    size = hand_size(players)
    refused = [c for c in (range(1, 10) if counts is None else counts) if c > size - 2]
    if not refused:
        return None
    ruleset = replace(at_count(base, players), pass_forbidden=PassForbidden.TWO_OF_CLUBS,
                      pass_count=min(refused))
    fitting = fitting_cycle(supports, ruleset, players)  # else the cycle is refused first
    if fitting is None:
        return None
    table = RefusedTable(players, fitting, "PASS.CARDS")
    return table if _fits(supports, table) else None


def _cycle_table(supports: Supports, base: Ruleset, players: int,
                 side: str) -> RefusedTable | None:
    cycles = allowed_values(supports, "pass_cycle")
    if cycles is None:
        if not 2 <= players <= MAX_STEP:
            return None
        cycle: tuple[PassStep, ...] = (Ruleset().pass_cycle[0],
                                       SeatDistance(f"{side}-{players}"))
    else:
        refused = sorted((largest_step(c), i) for i, c in enumerate(cycles)
                         if largest_step(c) >= players)
        if not refused:
            return None
        cycle = tuple(cycles[refused[0][1]])
    table = RefusedTable(players, replace(at_count(base, players), pass_cycle=cycle),
                         "PASS.DIRECTION")
    return table if _fits(supports, table) else None


def offered_counts(supports: Supports, players: Sequence[int] | None) -> list[int]:
    """The supported player counts, narrowed to ``players`` when given, smallest first."""
    return sorted(n for n in (supports.players if players is None else players)
                  if n in supports.players and FEWEST_PLAYERS <= n <= MAX_PLAYERS)


def refused_tables(supports: Supports, players: Sequence[int] | None = None,
                   seed: int = 0) -> list[RefusedTable]:
    """The tables a run offers (see the module's description), in the order they are sent.

    ``players`` narrows the supported counts (``--players``); empty when no
    refused table can be built from the supports.
    """
    counts = offered_counts(supports, players)
    try:
        base = base_ruleset(supports)
    except RulesRefError:  # pragma: no cover - every supported value makes a ruleset
        return []
    out = [_pass_cards_table(supports, base, n) for n in counts]
    first = random.Random(f"refused-tables:{seed}").choice(("left", "right"))
    other = "right" if first == "left" else "left"
    possible = [n for n in counts if _cycle_table(supports, base, n, first) is not None]
    if possible:  # the smallest count, and the largest when it is another
        out.append(_cycle_table(supports, base, possible[0], first))
        if possible[-1] != possible[0]:
            out.append(_cycle_table(supports, base, possible[-1], other))
    return [t for t in out if t is not None]


def refused_start(table: RefusedTable, seed: int = 0,
                  constraints: Sequence[str] = ()) -> dict[str, Any]:
    """The ``start`` of ``table``: deal 1, a seeded deal of valid cards, totals 0."""
    return keyed_start(table.players, table.ruleset,
                       f"refused-start:{seed}:{table.players}:{table.rule}", constraints)


#: Seeds drawn, at most, for a deal that keeps the adapter's deal constraints.
KEYED_TRIES = 64


def keyed_start(players: int, ruleset: Ruleset, key: str,
                constraints: Sequence[str] = ()) -> dict[str, Any]:
    """The ``start`` of deal 1 of a new game, its dealer and its deal's seed drawn from
    ``key``: the first seed whose deal keeps the deal ``constraints`` the adapter declared
    (``spec/deal.md``, section 8)."""
    rng = random.Random(key)
    dealer = rng.randrange(players)
    seed = rng.randrange(1 << 32)
    for _ in range(KEYED_TRIES):
        deal = seeded_deal(seed, players, 1, dealer, FEWEST_PLAYERS)
        if deal_allowed(deal.hands, deal.extras, constraints):
            break
        seed = rng.randrange(1 << 32)
    return seeded_start(players, ruleset, seed, dealer=dealer)


def refused_starts(supports: Supports, players: Sequence[int] | None = None,
                   seed: int = 0) -> list[dict[str, Any]]:
    """The ``start`` messages of :func:`refused_tables`, in order."""
    return [refused_start(t, seed, supports.deal_constraints)
            for t in refused_tables(supports, players, seed)]


# --- judging the answer -----------------------------------------------------------------------


def refusal_words(ruleset: Ruleset, players: int, refused: SetupError) -> str:
    """Why the rules refuse the table, in a player's words."""
    if refused.rule_id == "PASS.CARDS":
        size = hand_size(players)
        return (f"pass_count {ruleset.pass_count} at {players} players under pass_forbidden = "
                f"{ruleset.pass_forbidden} leaves a hand of {size} with both 2C only {size - 2} "
                "cards it may pass")
    step = next((s for s in ruleset.pass_cycle if isinstance(s, SeatDistance)
                 and abs(seat_distance(s)) >= players), None)
    if refused.rule_id == "PASS.DIRECTION" and step is not None:
        cycle = ", ".join(str(s) for s in ruleset.pass_cycle)
        return (f"pass_cycle {cycle} at {players} players has the step {step}, which passes "
                f"{abs(seat_distance(step))} seats away where a table of {players} has only "
                f"{players - 1} other seats")
    return str(refused)


def _position(msg: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """The position of a failure at a refused table: the table and the cards it was sent."""
    return {"players": msg.get("players"), "ruleset": ruleset.describe(),
            "phase": "set-up (refused)", "deal_number": msg.get("deal_number"),
            "dealer": msg.get("dealer"), "trick_number": None, "to_act": None, "leader": None,
            "hands": msg.get("hands"), "trick": [], "pending": [], "hearts_broken": False,
            "totals": msg.get("totals"), "position_text": None}


def judge_refused(proc: AdapterProcess, msg: dict[str, Any], kind: str, answer: dict[str, Any],
                  refused: SetupError) -> Failure | str | None:
    """The verdict on the answer (``kind``, ``answer``) to ``msg``, a table the reference refuses.

    ``None``: a rejection citing the reference's rule, or none (the rule is
    optional). A text: a rejection citing another rule, the note saying so
    (the session counts it in ``citations``). A :class:`Failure`: the
    implementation accepted the table, or reported an error. An observation
    that breaks the protocol is a fault of ``proc``, raised.
    """
    rule = refused.rule_id or "PLAYERS.COUNT"
    players = int(msg.get("players", 0))
    ruleset = Ruleset.from_dict(msg.get("ruleset", {}))
    reference = {"type": "rejected", "rule": rule, "reason": str(refused)}
    if kind == "rejected":
        cited = answer.get("rule")
        if cited is not None and cited != rule:  # `rule` is optional, as for actions
            return (f"start of a table the rules refuse ({players} players): rejected citing "
                    f"{cited}, the reference cites {rule}")
        return None
    if kind == "error":
        summary = ("the implementation reported an internal error on start of the game (a "
                   f"table the rules refuse): {str(answer.get('message'))[:300]}")
        actual = {"type": "error", **answer}
    else:
        problems = observation_problems(answer)
        if problems:
            raise proc.fault("shape", "observation: " + "; ".join(problems))
        summary = ("the implementation accepted a table the rules refuse: "
                   f"{refusal_words(ruleset, players, refused)} (rule {rule})")
        actual = {"type": "observation", **answer}
    return Failure(kind="error" if kind == "error" else "disagreement", rules=[rule],
                   summary=summary, start=msg, actions=[], failing=None,
                   position=_position(msg, ruleset), expected=reference, actual=actual,
                   reference=reference)


def rejected_start_rules(ruleset: Ruleset, cited: object) -> list[str]:
    """The rules blamed when the implementation rejects a start the reference accepts.

    The rule the rejection cites when it is a set-up rule (:data:`SETUP_RULES`);
    else the rules of the table's set-up: ``PASS.CARDS`` when a
    ``pass_forbidden`` is in play, ``PASS.DIRECTION`` when the ``pass_cycle``
    has a seat-distance step, then ``PLAYERS.COUNT``, then ``DEAL.SOURCE``.
    """
    if isinstance(cited, str) and cited in SETUP_RULES:
        return [cited]
    rules = []
    if ruleset.pass_forbidden is not PassForbidden.NONE:
        rules.append("PASS.CARDS")
    if largest_step(ruleset.pass_cycle):
        rules.append("PASS.DIRECTION")
    return [*rules, "PLAYERS.COUNT", "DEAL.SOURCE"]
