"""Shrinking every divergence class to a minimal example, the budget shared between them.

After the search, each class (:mod:`~rules_ref.findings.classes`) gets a minimal game that
still shows *that* class when played alone against the adapter: the position
just before the divergent action and that action, when the adapter starts from
positions; otherwise the game cut to the start of the deal in which it
diverged, then with actions left out as long as the class still shows; then
the switches of its ruleset are set back to their defaults, one at a time, as
long as it still shows (the plainest game: the default ruleset, or as few
changed switches as the difference needs, at the adapter's most common
player count, in as few deals and actions as it can). The search keeps the
plainest occurrence at each player count; shrinking starts from the one at
the adapter's most common count (:func:`common_players`: the count it
declares nearest the default table of 8 players) and, unless that ends in
the default ruleset, from the plainest occurrence anywhere too, keeping
the plainer example. A difference at the start of a game alone is tried
at the plainest table first: the most common count, the first deal of a
game at zero totals, dealt from seed 0. Every candidate is checked by playing it
(:class:`Checker`, one adapter process for all checks). The classes take
turns, one check each (round robin), until every class is done or
``--shrink-seconds`` is spent; every class gets its first check whatever the budget, so
what a run reports does not depend on the machine's speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from typing import Any

from ..actions import Action, DealCards
from ..deal import FEWEST_PLAYERS, seeded_deal
from ..errors import RulesRefError, SetupError
from ..findings.classes import Finding, class_of, key_of, plainness
from ..findings.failure import Failure, FoundFailure, Stats
from ..protocol.client import AdapterProcess
from ..protocol.messages import AdapterFault
from ..protocol.reference_adapter import position_state, start_state
from ..ruleset import DEFAULT
from ..serialize import action_from_json, cards_to_json
from ..state import GameState
from .conversation import position_record
from .outcome import Config, Outcome
from .rerun import play_game
from .session import Session

#: At most this many checks for one class.
MAX_CHECKS_PER_CLASS = 120

Candidate = tuple[dict[str, Any], list[dict[str, Any]]]


class Checker:
    """Plays candidate games against one adapter process (started again after a fault)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.proc: AdapterProcess | None = None
        self.checks = 0

    def _adapter(self) -> AdapterProcess:
        if self.proc is None or not self.proc.alive():
            self.close()
            self.proc = AdapterProcess(self.config.command, self.config.timeout)
            self.proc.hello(self.config.versions)
        return self.proc

    def can(self, capability: str) -> bool:
        try:
            return self._adapter().can(capability)
        except AdapterFault:
            return False

    def first_failure(self, start: dict[str, Any], actions: list[dict[str, Any]]
                      ) -> Failure | None:
        """The first failure of a game played alone (None: it agrees, or cannot be played)."""
        self.checks += 1
        try:
            parsed: list[Action] = [action_from_json(a) for a in actions]
            # a start that is no game of the rules (a switch set back) is no candidate;
            # a table the rules refuse is one (the session judges its start)
            (position_state if "position" in start else start_state)(start)
        except SetupError:
            pass
        except RulesRefError:
            return None
        try:
            proc = self._adapter()
        except AdapterFault:
            return None
        session = Session(proc, Stats(), check_every=1, position=position_record,
                          batch=self.config.batch)
        try:
            play_game(session, start, parsed)
        except FoundFailure as found:
            return found.failure
        except AdapterFault as fault:
            failure = session.fault_failure(fault)
            self.close()
            return failure
        finally:
            session.abandon()
        return None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None


def _key(failure: Failure | None) -> str | None:
    return None if failure is None else key_of(*class_of(failure))


def _deal_start(failure: Failure) -> Candidate | None:
    """The game from the start of the deal the failure happened in (None: it is the first)."""
    start = failure.start
    try:
        state = position_state(start) if "position" in start else start_state(start)
    except RulesRefError:
        return None
    found: tuple[GameState, dict[str, Any], int] | None = None
    for i, action_json in enumerate(failure.actions[:-1] if failure.failing else
                                    failure.actions):
        try:
            action = action_from_json(action_json)
            before = state
            state, _ = state.apply(action)
        except RulesRefError:
            continue
        if isinstance(action, DealCards):
            found = (before, action_json, i)
    if found is None:
        return None
    before, deal, i = found
    msg = {"type": "start", "players": before.players, "ruleset": before.ruleset.to_dict(),
           "deal_number": before.deal_number + 1, "dealer": before.dealer_of_next_deal,
           "totals": list(before.totals), "hands": deal["hands"],
           "extras": deal.get("extras", cards_to_json(()))}
    return msg, failure.actions[i + 1:]


#: The plainest table: the default game of ``rules-ref play``.
PLAIN_PLAYERS = 8


def common_players(counts: Sequence[int]) -> int | None:
    """The adapter's most common player count, among the ``counts`` the run plays.

    The counts are those the adapter declares (``supports.players`` of its
    ``hello``), or the one ``--players`` asks for: an adapter of one count has
    it, and of several the one nearest :data:`PLAIN_PLAYERS`, the table most
    games are played at, then the smaller (6 to 11: 8; 10 and 11: 10).
    ``None`` when there is none.
    """
    return min(counts, key=lambda n: (abs(n - PLAIN_PLAYERS), n)) if counts else None


def _plain_start(start: dict[str, Any], players: int) -> dict[str, Any] | None:
    """The plainest start of ``start``'s ruleset: ``players`` seats, the first deal of a game
    with zero totals, dealt from seed 0 (None: the ruleset does not play that count)."""
    try:
        deal = seeded_deal(0, players, 1, 0, FEWEST_PLAYERS)
    except RulesRefError:  # pragma: no cover - the counts come from the run's own games
        return None
    return {"type": "start", "players": players, "ruleset": start.get("ruleset"),
            "deal_number": 1, "dealer": 0, "totals": [0] * players,
            "hands": [cards_to_json(h) for h in deal.hands],
            "extras": cards_to_json(deal.extras)}


def _shrinker(cls: Finding, positions: bool, common: int | None = None
              ) -> Generator[Candidate, Failure | None, None]:
    """The candidates of one class, each sent the failure its check found.

    Shrunk from its plainest occurrence at the adapter's most common count
    ``common`` first; unless that ends in the default ruleset, from its
    plainest occurrence anywhere too, and the plainer example is kept.
    """
    plainest = cls.plainest(common)
    at_common = cls.by_players.get(common) if common is not None else None
    bases = [plainest] if at_common in (None, plainest) else [at_common, plainest]
    kept: tuple[Failure, str] | None = None
    for base in bases:
        cls.example, cls.shrunk = None, ""
        yield from _shrink_from(cls, base, positions, common)
        if cls.example is not None and (kept is None or plainness(cls.example, common)
                                        < plainness(kept[0], common)):
            kept = (cls.example, cls.shrunk)
        if kept is not None and plainness(kept[0], common)[:2] == (0, 0):
            break  # the default ruleset at the most common count: none is plainer
    if kept is not None:
        cls.example, cls.shrunk = kept


def _shrink_from(cls: Finding, base: Failure, positions: bool, common: int | None
                 ) -> Generator[Candidate, Failure | None, None]:
    """Shrink ``cls`` from its occurrence ``base``; the example found is ``cls.example``."""
    best: Failure | None = None

    def take(found: Failure | None, how: str) -> bool:
        nonlocal best
        if _key(found) != cls.key:
            return False
        assert found is not None
        best = found
        cls.example, cls.shrunk = found, how
        return True

    if base.failing is not None and base.before_position is not None and positions:
        msg = {"type": "start", "players": base.start.get("players"),
               "ruleset": base.start.get("ruleset"), "position": base.before_position}
        if take((yield msg, [base.failing]), "position"):
            yield from _plainer(cls, take)
            return
    if base.failing is None and not base.actions and "position" not in base.start:
        plain = _plain_start(base.start, common or base.start.get("players") or PLAIN_PLAYERS)
        if plain is not None and plain != base.start and take((yield plain, []), "start"):
            yield from _plainer(cls, take)
            return
    if not take((yield base.start, base.actions), "as found" if base.actions else "start"):
        cut = _deal_start(base)
        if cut is None or not take((yield cut), "deal"):
            cls.shrunk = "not reproduced alone"
            return
    cut = _deal_start(best) if best is not None else None
    if cut is not None:
        take((yield cut), "deal")
    assert best is not None
    # leave out runs of actions, halving the run each pass, the failing action kept last
    size = max(1, (len(best.actions) - 1) // 2)
    while size >= 1 and best is not None:
        i = 0
        while i < len(best.actions) - 1:
            actions = best.actions[:i] + best.actions[i + size:]
            if not take((yield best.start, actions), "actions"):
                i += size
        size //= 2
    yield from _plainer(cls, take)
    if cls.shrunk == "as found":
        cls.shrunk = "no smaller game shows it"


def _plainer(cls: Finding, take: Callable[[Failure | None, str], bool]
             ) -> Generator[Candidate, Failure | None, None]:
    """Set the example's switches back to their defaults, one at a time, while it still shows.

    The plainest game is the one a reader checks first: the default
    ruleset, or as few switches changed as the difference needs.
    """
    default = DEFAULT.to_dict()
    while cls.example is not None:
        best = cls.example
        ruleset = best.start.get("ruleset")
        if not isinstance(ruleset, dict):
            return
        changed = [k for k, v in ruleset.items() if k in default and default[k] != v]
        for name in changed:
            start = {**best.start, "ruleset": {**ruleset, name: default[name]}}
            if take((yield start, best.actions), cls.shrunk or "as found"):
                break
        else:
            return


def shrink_classes(config: Config, outcome: Outcome) -> Outcome:
    """Shrink every class of ``outcome`` in turn within the budget; returns ``outcome``."""
    findings = outcome.findings
    if findings is None:
        return outcome
    todo = [c for c in findings.ordered() if c.kind != "fault" and c.example is None]
    checker = Checker(config)
    began = time.monotonic()
    try:
        positions = bool(todo) and checker.can("position")
        declared = outcome.supports.players if outcome.supports is not None else ()
        common = common_players((config.players,) if config.players else declared)
        active: list[tuple[Finding, Generator[Candidate, Failure | None, None],
                           Candidate, int]] = []
        for cls in todo:
            gen = _shrinker(cls, positions, common)
            active.append((cls, gen, next(gen), 0))
        first_round = True
        while active:
            still = []
            for n, (cls, gen, candidate, checks) in enumerate(active):
                if not first_round and time.monotonic() - began >= config.shrink_budget:
                    still.extend(active[n:])
                    break
                try:
                    following = gen.send(checker.first_failure(*candidate))
                except StopIteration:
                    continue
                if checks + 1 < MAX_CHECKS_PER_CLASS:
                    still.append((cls, gen, following, checks + 1))
            first_round = False
            active = still
            if time.monotonic() - began >= config.shrink_budget:
                break
        for _, gen, _, _ in active:
            gen.close()
    finally:
        checker.close()
    for cls in findings.classes.values():
        if cls.example is None:
            cls.example = cls.smallest or cls.first
            cls.shrunk = cls.shrunk or "not shrunk"
        if cls.shrunk == "not reproduced alone" and not cls.example.note:
            cls.example.note = ("played alone, this game does not show the divergence again: "
                                "the implementation may keep state between games")
    return outcome
