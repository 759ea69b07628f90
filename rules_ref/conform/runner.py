"""The differential search: one adapter process, one series of games, what it found.

A :class:`Runner` connects to the adapter and plays one game after another,
each a :class:`.conversation.Conversation` drawn from its own seed, the
seeds drawn from the run's (``--seed``). Every
divergence is recorded in its class (:mod:`~rules_ref.findings.classes`) and the game goes
on (:mod:`.resync`); the search runs until the time budget, or the number
of games when one was asked for. An adapter fault ends the search, and so
does the first unexpected divergence when ``--first`` asked for it.
:func:`run_search` is ``rules-ref conform`` in one process: the search, then
the shrinking of every class (:mod:`.shrink`).
"""

from __future__ import annotations

import contextlib
import gc
import random
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from ..errors import InputError, SetupError
from ..findings.classes import Findings
from ..findings.error_causes import settle_errors
from ..findings.failure import Failure, Stats
from ..findings.start_causes import is_rejected_start, settle_starts
from ..passing import check_table
from ..protocol.client import AdapterProcess
from ..protocol.handshake import Supports, parse_supports
from ..protocol.messages import AdapterFault
from ..ruleset import Ruleset
from .choosers import RulesetDrawer
from .conversation import Conversation, NoRuleset, position_record
from .edge_tables import edge_starts
from .outcome import Config, Outcome
from .refused_tables import refused_starts
from .rerun import run_replay
from .resync import GameCut, Moments
from .session import Session
from .shrink import shrink_classes

#: The bits of a game's seed (:meth:`Runner.search`).
GAME_SEED_BITS = 32


class _Redraw(Exception):
    """Draw the game being drawn again from its seed: the run it was drawn from has changed
    (:meth:`Runner._begin_game`)."""


class _Stop(KeyboardInterrupt):
    """Ends the search at once (time budget, another job found a failure).

    A :class:`KeyboardInterrupt`, as a job's own stop is, so that it goes
    through the game being played without being taken for its result.
    """



class Runner:
    """One search: an adapter process, a series of games, and what it found."""

    def __init__(self, config: Config, examples: int | None = None, seed: int | None = None,
                 on_progress: Callable[[Stats, float], None] | None = None,
                 should_stop: Callable[[], bool] | None = None, job: int = 0) -> None:
        self.config = config
        self.examples = config.examples if examples is None else examples
        self.job = job
        self.seed = config.seed if seed is None else seed
        self.stats = Stats()
        self.notes: list[str] = []
        self.proc: AdapterProcess | None = None
        self.supports: Supports | None = None
        self.fixed_ruleset = config.ruleset
        self.player_choices: tuple[int, ...] = ()
        self.rulesets = RulesetDrawer(Supports("", (), {}))
        self.findings = Findings(config.expect)
        #: The rejected starts, judged alone until the run's starts show their cause.
        self.starts = Findings()
        #: The adapter fault that ended the search (a game's fault, recorded as a class too).
        self.fault: Failure | None = None
        self.started = time.monotonic()
        self._on_progress = on_progress
        self._should_stop = should_stop
        self._last_tick = 0.0
        self.examples_run = 0
        #: The session of the last game, whose last requests are still to be judged: the
        #: next game judges them before it sends its ``start`` (:meth:`_settle`).
        self._unsettled: Session | None = None
        #: The kinds of moment the implementation takes a start from, learnt over the run.
        self.moments = Moments()

    # --- the adapter ---

    def connect(self) -> Supports:
        """Start the adapter and check its handshake (faults raise :class:`AdapterFault`)."""
        self.proc = self.config.open_adapter()
        hello = self.proc.hello(self.config.versions)
        try:
            supports = parse_supports(hello)
        except AdapterFault as fault:
            raise self.proc.fault(fault.kind, fault.detail) from None
        if self.supports is None:
            self.supports = supports
            self._configure(supports)
        return supports

    def _configure(self, supports: Supports) -> None:
        wanted = self.config.players
        if wanted is not None:
            if wanted not in supports.players:
                raise InputError(f"the adapter does not support {wanted} players (it supports "
                                 f"{', '.join(map(str, supports.players))})")
            self.player_choices = (wanted,)
        else:
            self.player_choices = supports.players
        # the deals it never makes are never sent, whatever the ruleset (spec/deal.md, s. 8)
        self.rulesets = RulesetDrawer(supports)
        fixed = self.fixed_ruleset
        if fixed is not None and not any(p >= fixed.min_players for p in self.player_choices):
            counts = ", ".join(map(str, self.player_choices))
            raise InputError(f"{counts} players: the ruleset asked for plays "
                             f"{fixed.min_players} to 11 (PLAYERS.COUNT; 5 players need "
                             "min_players = 5)")
        if self.fixed_ruleset is not None:
            # the adapter plays what it is told: the reference's ruleset, or config.told
            outside = supports.allows(self.config.told or self.fixed_ruleset)
            if outside:
                raise InputError(f"the adapter does not support the ruleset asked for: "
                                 f"{', '.join(outside)} (it declares "
                                 f"{supports.switches or 'only the default values'})")
            self.player_choices = fitting_counts(self.fixed_ruleset, self.player_choices)

    def attach(self, proc: AdapterProcess | None, supports: Supports) -> None:
        """Search through ``proc``, an adapter already connected whose hello declared
        ``supports`` (``None``: it ended; one is started again when needed): ``rules-ref
        fit`` runs one search per ruleset it tries on one adapter."""
        self.proc = proc
        if proc is not None and self.config.told is not None:
            proc.told = self.config.told.to_dict()
        if self.supports is None:
            self.supports = supports
            self._configure(supports)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None

    def _ensure_adapter(self) -> AdapterProcess:
        if self.proc is None or not self.proc.alive():
            if self.proc is not None:
                self.proc.close()
            self.stats.restarts += 1
            self.connect()
        assert self.proc is not None
        return self.proc

    # --- progress and budget ---

    def tick(self, force: bool = False) -> None:
        now = time.monotonic()
        if self._on_progress is not None and (force or now - self._last_tick > 0.2):
            self._last_tick = now
            self._on_progress(self.stats, now - self.started)

    def _check_budget(self) -> None:
        now = time.monotonic()
        if now - self.started > self.config.max_seconds:
            raise _Stop("time")
        if self._should_stop is not None and self._should_stop():
            raise _Stop("stopped")

    # --- one example ---

    def _record(self, failure: Failure, game: int | None = None) -> None:
        """Record ``failure``, met in game number ``game`` (default: the game being played)."""
        found = self.starts if is_rejected_start(failure) else self.findings
        found.record(failure, self.stats.games if game is None else game,
                     time.monotonic() - self.started, self.job)

    def _first_met(self) -> bool:
        """Has ``--first`` met what it ends the search at (an unexpected divergence)?"""
        return self.config.first and bool(self.findings.unexpected() or self.starts.classes)

    def _session(self, game: int | None = None) -> Session:
        """A session with the adapter (started again if needed; a fault ends the search).

        The session of game number ``game`` judges, before its ``start``, what
        the game before left awaited (:meth:`_begin_game`); its failures are
        recorded as that game's.
        """
        if self._unsettled is not None and (self.proc is None or not self.proc.alive()):
            self._settle()  # the adapter is gone: what it answered last is judged first
        try:
            proc = self._ensure_adapter()
        except AdapterFault as fault:
            self.fault = Failure(kind="fault", rules=[], summary=str(fault), start={},
                                 actions=[], failing=None, position={}, expected={}, actual={},
                                 fault=fault.to_json())
            self._record(self.fault)  # the adapter could not be started again
            raise _Stop("fault") from None
        return Session(proc, self.stats, position=position_record, batch=self.config.batch,
                       on_divergence=partial(self._record, game=game),
                       before_start=None if game is None else self._begin_game,
                       moments=self.moments)

    def offer_refused_tables(self) -> None:
        """The starts of tables the rules refuse (:mod:`.refused_tables`), then of tables at
        the edge of what they allow (:mod:`.edge_tables`), before the games.

        Once a run: by job 0 of shard 1, and not when the run plays one fixed
        ruleset. Each is judged as a start; a fault ends the search.
        """
        if not self.config.refused_tables or self.job or self.supports is None \
                or self.fixed_ruleset is not None:
            return
        for msg in refused_starts(self.supports, self.player_choices, self.config.seed):
            self.stats.refused += 1
            self._offer_start(msg)
        for msg in edge_starts(self.supports, self.player_choices, self.config.seed):
            self.stats.edge += 1
            self._offer_start(msg)
        if self._first_met():
            raise _Stop("first")

    def _offer_start(self, msg: dict[str, Any]) -> None:
        """One ``start`` offered before the games, alone in its conversation; it plays
        nothing, so the conditions it meets are not counted as exercised."""
        self._check_budget()
        session = self._session()
        self._converse(session, partial(session.start, msg, tally=False))

    def example(self, seed: int) -> None:
        """One game, drawn from ``seed``: one conversation with the adapter.

        A game for which no drawn ruleset fits the player count drawn is not
        played (:class:`.conversation.NoRuleset`); it still counts among the
        games asked for (``--examples``).
        """
        self._check_budget()
        self.examples_run += 1
        while True:
            session = self._session(self.stats.games + 1)
            try:
                # --first needs each game's verdict before the next game: it judges at once
                self._converse(session, Conversation(self, seed, session).run,
                               settle_later=not self.config.first)
            except _Redraw:
                continue  # drawn again, from the run as the game before left it
            except NoRuleset:
                pass
            break
        if self._first_met():
            raise _Stop("first")

    def _begin_game(self) -> None:
        """Before a game's ``start``: the game before judged (:meth:`_settle`), this one
        counted.

        The game's first batch is drawn by then, from the run as it stood before
        the game before was judged. Where that judging met a divergence, what the
        run has exercised and offered may have changed (the actions dropped with
        it are counted off), and a game drawn one action per request would have
        been drawn from that: nothing of this game has been sent yet, so it is
        drawn again (:class:`_Redraw`), and a seed plays the same games with
        batches or without.
        """
        diverged = self.stats.divergences
        self._settle()
        if self.stats.divergences != diverged:
            raise _Redraw
        self.stats.games += 1

    def _settle(self) -> None:
        """Judge what the last game's session left awaited (:meth:`Session.send_all`).

        A game ends by sending its last requests without waiting for their
        answers, which the next game judges just before it sends its ``start``,
        with its first batch: the runner draws that game and plays its first
        actions while the implementation answers the end of this one. The
        search's end judges the last game's.
        """
        session, self._unsettled = self._unsettled, None
        if session is not None:
            self._converse(session, session.flush)

    def _converse(self, session: Session, talk: Callable[[], None],
                  settle_later: bool = False) -> None:
        """``talk()``: one conversation through ``session``, its end and its faults recorded.

        ``settle_later``: a conversation that ends normally sends its last
        requests and leaves their answers to :meth:`_settle`.
        """
        try:
            talk()
            if settle_later:
                session.send_all()
                self._unsettled = session
            else:
                session.flush()
        except GameCut as cut:
            if cut.short:
                self.stats.cut += 1
        except AdapterFault as fault:
            failure = session.fault_failure(fault)
            self.close()
            self._record(failure)
            self.fault = failure
            raise _Stop("fault") from None
        finally:
            if self._unsettled is not session:
                session.abandon()
                for note in session.notes:
                    if len(self.notes) < 5:
                        self.notes.append(note)

    def search(self) -> Outcome:
        """Run the search; the adapter must be connected (:meth:`connect`)."""
        stopped = ""
        seeds = random.Random(self.seed)  # each game's seed, from the run's alone
        try:
            with fewer_collections():
                self.offer_refused_tables()
                while self.examples is None or self.examples_run < self.examples:
                    self.example(seeds.getrandbits(GAME_SEED_BITS))
        except _Stop as stop:
            stopped = str(stop)
        try:
            self._settle()
        except _Stop as stop:
            stopped = str(stop)
        failure = self.fault
        if failure is not None and failure.batched:
            pinpointed = self._pinpoint(failure)
            cls = next((c for c in self.findings.classes.values() if c.first is failure),
                       None)
            if cls is not None:
                cls.first = cls.smallest = cls.example = pinpointed
                cls.shrunk = "one action per request"
            failure = pinpointed
        self.tick(force=True)
        return Outcome(self.stats, time.monotonic() - self.started, self.supports, failure,
                       notes=self.notes, stopped=stopped, examples_run=self.examples_run,
                       findings=self.findings, starts=self.starts)

    def _pinpoint(self, failure: Failure) -> Failure:
        """A fault during a batch, found again one action per request: at its very action.

        The game is played again on a fresh adapter without batches; if the
        fault comes again (an adapter that crashes on a play, say), that report
        names the action. A fault of the batch itself, or a timeout, stays as
        it was.
        """
        kind = (failure.fault or {}).get("kind")
        if kind in ("batch", "capability", "timeout") or not failure.start:
            return failure
        from ..jsonio.serialize import action_from_json

        self.close()  # the adapter broke the protocol: the replay starts its own
        config = replace(self.config, batch=0)
        actions = [action_from_json(a) for a in failure.actions]
        again = run_replay(config, failure.start, actions)
        found = again.failure
        if found is None or found.kind != "fault":
            return failure
        found.note = failure.note
        return found


@contextlib.contextmanager
def fewer_collections(young: int = 20_000) -> Any:
    """Collect garbage less often while a search runs (restored afterwards).

    A search makes many short-lived objects (states, observations, answers)
    and few cycles; with the default threshold the collector ran hundreds of
    times a second. The objects alive before the search are frozen out of the
    collector's scans.
    """
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(old[0], young), old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def run_search(config: Config, on_progress: Callable[[Stats, float], None] | None = None
               ) -> Outcome:
    """``rules-ref conform`` in this process: connect, search, always close the adapter."""
    runner = Runner(config, on_progress=on_progress)
    try:
        try:
            runner.connect()
        except AdapterFault as fault:
            return Outcome(runner.stats, time.monotonic() - runner.started, None, fault=fault)
        outcome = runner.search()
    finally:
        runner.close()
    return settle_start_classes(config, shrink_classes(config, settle_error_classes(outcome)))


def settle_error_classes(outcome: Outcome) -> Outcome:
    """The internal errors of ``outcome`` filed by what triggers them, before they are shrunk
    (:func:`~rules_ref.findings.error_causes.settle_errors`)."""
    if outcome.findings is not None:
        settle_errors(outcome.findings, outcome.stats.cleared)
    return outcome


def settle_start_classes(config: Config, outcome: Outcome) -> Outcome:
    """The rejected starts of ``outcome`` shrunk as any class is, then added to its findings
    as the finding of their cause (:func:`~rules_ref.findings.start_causes.settle_starts`)."""
    starts, findings = outcome.starts, outcome.findings
    if starts is None or findings is None:
        return outcome
    if starts.classes:
        shrink_classes(config, replace(outcome, findings=starts))
    settle_starts(findings, starts, outcome.stats.starts)
    outcome.starts = None
    return outcome


def fitting_counts(ruleset: Ruleset, counts: tuple[int, ...]) -> tuple[int, ...]:
    """The player counts of ``counts`` a game under ``ruleset`` can be set up with.

    Only the passing switches depend on the count (``check_table``); when none
    of ``counts`` fits, the first one's refusal is raised, naming its rule.
    """
    fits = []
    for n in counts:
        try:
            check_table(ruleset, n)
        except SetupError:
            continue
        fits.append(n)
    if not fits:
        check_table(ruleset, counts[0])
    return tuple(fits)
