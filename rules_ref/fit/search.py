"""The search of ``rules-ref fit``: the ruleset under which an implementation differs least.

The adapter is told one ruleset throughout (:func:`asked_ruleset`: the
default, within what its hello declares), while the reference plays one
ruleset after another on the same games (the same seed and number of games
each: a *trial*, :meth:`Search.trial`). The first trial plays the ruleset
asked for; each difference it shows points at switch values that might
explain it (:func:`.candidates.alternatives`). Each value offered is first
tried alone, from the told ruleset, where the differences were seen; the
best value of each switch that explains more (:func:`better`) are then
played together. From there a coordinate search goes through the switches
the remaining differences point at, in the order ``spec/variants.toml``
lists them (the order of a deal: passing before play before scoring, so
that an early difference is settled before the later ones it may hide),
and tries each value offered with the values settled so far, keeping one
that explains more. Rounds go on while a value is kept, within the budget
of trials (no ruleset is played twice). The differences left are the ones no value
explains: bugs, or a value the spec does not publish.

No trial sends a deal the adapter's hello declares it never makes
(``spec/deal.md``, section 8): each records, as a ``conform`` run does, what
its deal constraints kept out of its games (:attr:`Trial.deal_constraints`).

An adapter that plays the ruleset it is told (the reference adapter)
differs under no other ruleset than the one asked: the search keeps it.
Where the games cannot tell a value found from another (under the other
values found), :mod:`.equivalent` names the one ``spec/variants.toml`` lists
first, and the others beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..conform.outcome import Config
from ..conform.runner import Runner
from ..findings.classes import Finding
from ..findings.error_causes import settle_errors
from ..findings.start_causes import settle_starts
from ..protocol.client import AdapterProcess
from ..protocol.handshake import Supports, parse_supports, switch_values
from ..protocol.messages import AdapterFault
from ..reports.exercised import exercise_keys
from ..ruleset import Ruleset
from .candidates import Difference, alternatives, switches_of
from .equivalent import same_games, settle

#: The trials a search runs at most, the first included (``rules-ref fit --trials``).
DEFAULT_TRIALS = 40
#: The games each trial plays (``rules-ref fit --examples``).
DEFAULT_EXAMPLES = 20


@dataclass
class Trial:
    """The reference under one ruleset against the adapter, over the search's games."""

    ruleset: Ruleset
    findings: list[Finding]
    divergences: int
    games: int
    actions: int
    #: Why the trial ended before its games ("time", "fault"), "" when it played them all.
    stopped: str = ""
    #: What the adapter's deal constraints kept out of the trial's games: the
    #: ``deal_constraints`` block of a ``conform`` result (empty: none declared).
    deal_constraints: dict[str, Any] = field(default_factory=dict)

    @property
    def differences(self) -> list[Difference]:
        """Every behaviour that differs, once: each facet of each finding."""
        out: list[Difference] = []
        for finding in self.findings:
            facets = list(finding.facets.values())
            if not facets:
                out.append(Difference(finding.rule, finding.what, None))
            out += [Difference(finding.rule, f.words, f.switch) for f in facets]
        seen = {(d.rule, d.words, d.switch): d for d in out}
        return list(seen.values())  # once a behaviour and switch named (it may name two)

    def pointing_at(self, switch: str) -> list[Difference]:
        """The differences that point at ``switch`` (:func:`.candidates.switches_of`)."""
        return [d for d in self.differences if switch in switches_of(d)]


@dataclass
class Fit:
    """What a search found: the ruleset the adapter was told, the one it plays, and the trials."""

    told: Ruleset
    best: Trial
    first: Trial
    trials: list[Trial] = field(default_factory=list)
    #: Each switch set to another value than the one told, and the differences of the first
    #: trial it explains (that the best trial no longer shows).
    explained: dict[str, list[Difference]] = field(default_factory=dict)
    #: The ruleset named: the best trial's, each value set apart from the told one replaced
    #: by the first value spec/variants.toml lists of those that play the same games
    #: (:func:`.equivalent.settle`); ``None``: the best trial's.
    named: Ruleset | None = None
    #: Per switch set apart from the told one, the other values that play the same games
    #: as the one named under its other values: the games cannot tell them apart.
    same_games: dict[str, list[Any]] = field(default_factory=dict)
    #: The budget ran out before a round kept no value.
    exhausted: bool = False

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset the implementation plays, as ``fit`` names it."""
        return self.named if self.named is not None else self.best.ruleset

    @property
    def unexplained(self) -> list[Finding]:
        """The findings no switch value explains: those of the best trial."""
        return self.best.findings


def asked_ruleset(supports: Supports) -> Ruleset:
    """The ruleset the adapter is told: the default, each switch whose default its hello
    does not declare at the first value it declares."""
    values: dict[str, Any] = {}
    default = Ruleset()
    for f in fields(Ruleset):
        declared = supports.switches.get(f.name)
        if declared is None or declared == "any":
            continue
        allowed = switch_values(f.name, declared)
        if allowed and getattr(default, f.name) not in allowed:
            values[f.name] = allowed[0]
    return replace(default, **values)


def better(trial: Trial, than: Trial, switch: str) -> bool:
    """Does ``trial`` (another value of ``switch``) explain more than ``than``?

    More of the differences that pointed at ``switch`` are gone than new ones
    point at it, and the games were compared as far (at least half as many
    actions): a value under which the games differ from their first actions
    hides the later differences, it does not explain them. A difference that
    was hidden behind an earlier one may show now, pointing at another switch:
    that is for the search to settle next.
    """
    gone = {d for d in than.pointing_at(switch) if d not in trial.differences}
    new = {d for d in trial.pointing_at(switch) if d not in than.differences}
    return len(gone) > len(new) and 2 * trial.actions >= than.actions


def _rank(trial: Trial, switch: str) -> tuple[int, int, int]:
    """How well ``trial`` explains the differences at ``switch``, best first: fewer
    differences pointing at the switch, then fewer divergences (a value under which the
    games differ from early on diverges again and again, though it may hide what differs
    later), then fewer differences."""
    return (len(trial.pointing_at(switch)), trial.divergences, len(trial.differences))


class Search:
    """One search on one adapter process, its trials kept by ruleset (none is played twice)."""

    def __init__(self, config: Config, trials: int = DEFAULT_TRIALS,
                 on_trial: Callable[[Trial], None] | None = None) -> None:
        self.config = config
        self.budget = trials
        self.on_trial = on_trial
        self.proc: AdapterProcess | None = None
        self.supports: Supports | None = None
        self.done: dict[Ruleset, Trial] = {}
        self.order: list[Trial] = []
        #: The budget of trials ran out before the search ended.
        self.exhausted = False

    def connect(self) -> Supports:
        """Start the adapter and read its hello (a fault raises
        :class:`~rules_ref.protocol.messages.AdapterFault`)."""
        self.proc = self.config.open_adapter()
        hello = self.proc.hello(self.config.versions)
        try:
            self.supports = parse_supports(hello)
        except AdapterFault as fault:
            raise self.proc.fault(fault.kind, fault.detail) from None
        return self.supports

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None

    def trial(self, ruleset: Ruleset, told: Ruleset) -> Trial | None:
        """The trial of ``ruleset`` (played once; ``None`` when the budget is spent)."""
        seen = self.done.get(ruleset)
        if seen is not None:
            return seen
        if len(self.order) >= self.budget:
            return None
        assert self.supports is not None
        config = replace(self.config, ruleset=ruleset, told=told, refused_tables=False)
        runner = Runner(config)
        runner.attach(self.proc, self.supports)
        outcome = runner.search()
        self.proc = runner.proc  # started again if the adapter died
        findings, starts = outcome.findings, outcome.starts
        assert findings is not None and starts is not None
        settle_errors(findings, outcome.stats.cleared)
        settle_starts(findings, starts, outcome.stats.starts)
        found = Trial(ruleset, findings.ordered(), outcome.stats.divergences,
                      outcome.stats.games, outcome.stats.actions, outcome.stopped,
                      exercise_keys(outcome, config)["deal_constraints"]
                      if self.supports.deal_constraints else {})
        self.done[ruleset] = found
        self.order.append(found)
        if self.on_trial is not None:
            self.on_trial(found)
        return found

    def run(self) -> Fit:
        """The search (the adapter must be connected, :meth:`connect`)."""
        assert self.supports is not None
        told = asked_ruleset(self.supports)
        first = self.trial(told, told)
        assert first is not None
        current = self._start(first, told)
        kept = True
        while kept and current.differences and not self.exhausted:
            kept = False
            for switch in _switch_order(current):
                tried = self._best_value(current, switch, told)
                if better(tried, current, switch):
                    current, kept = tried, True
                if self.exhausted:
                    break
        supports = self.supports
        named, alike = settle(current.ruleset, told, lambda one, other: same_games(
            one, other, self.config, supports))
        fit = Fit(told, current, first, list(self.order), named=named, same_games=alike,
                  exhausted=self.exhausted)
        remaining = set(current.differences)
        asked = told.to_dict()
        for switch, value in current.ruleset.to_dict().items():
            if value != asked[switch]:
                fit.explained[switch] = [d for d in first.pointing_at(switch)
                                         if d not in remaining]
        return fit

    def _start(self, first: Trial, told: Ruleset) -> Trial:
        """Where the coordinate search starts: every switch the first trial's differences
        point at, each at its best value tried alone from the told ruleset (where the
        differences were seen), played together; the first trial if that does not explain
        more."""
        chosen = {}
        for switch in _switch_order(first):
            tried = self._best_value(first, switch, told)
            if better(tried, first, switch):
                chosen[switch] = getattr(tried.ruleset, switch)
            if self.exhausted:
                break
        if not chosen or self.exhausted:
            return first
        together = self.trial(replace(told, **chosen), told)
        if together is None:
            self.exhausted = True
            return first
        fewer = (together.divergences, len(together.differences)) < \
            (first.divergences, len(first.differences))
        return together if fewer else first

    def _best_value(self, current: Trial, switch: str, told: Ruleset) -> Trial:
        """The best trial of the values offered for ``switch`` by ``current``'s differences
        (``_rank``; ``current`` itself when none does better), within the budget."""
        values = list(dict.fromkeys(
            value for d in current.pointing_at(switch)
            for name, value in alternatives(d, current.ruleset) if name == switch))
        best = current
        for value in values:
            tried = self.trial(replace(current.ruleset, **{switch: value}), told)
            if tried is None:
                self.exhausted = True
                break
            if _rank(tried, switch) < _rank(best, switch):
                best = tried
        return best


def _switch_order(trial: Trial) -> list[str]:
    """The switches ``trial``'s differences point at, in the order of ``spec/variants.toml``."""
    pointed = {s for d in trial.differences for s in switches_of(d)}
    return [f.name for f in fields(Ruleset) if f.name in pointed]


def fit_ruleset(config: Config, trials: int = DEFAULT_TRIALS,
                on_trial: Callable[[Trial], None] | None = None) -> Fit:
    """``rules-ref fit``: connect, search, always close the adapter (a fault at the
    handshake raises :class:`~rules_ref.protocol.messages.AdapterFault`)."""
    search = Search(config, trials, on_trial)
    try:
        search.connect()
        return search.run()
    finally:
        search.close()
