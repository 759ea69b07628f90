"""The text report of a conform run (its figures, its failures, its findings, its verdict), and
of runs merged.

:func:`run_text` is what ``rules-ref conform`` prints after a search or a
replay: the failures shown in full (:func:`shown_failures`), the search's
figures (:func:`run_lines`), what it exercised (:mod:`.exercised`), the
findings (:func:`~.text.format_classes`) and the verdict, read from the run's
:class:`~.result.ConformResult`. :func:`merge_lines` is the text of a merged
result (``--merge``).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from typing import Any

from ..conform.outcome import Config, Outcome
from ..conform.position_starts import EVERY
from ..exercise.detect import RARE_PATHS
from ..findings.classes import finding_lines
from ..findings.failure import Failure
from ..protocol.messages import AdapterFault
from ..wording import counted, plural
from .exercised import constraint_words, exercise_lines
from .result import ConformResult, primary_class, primary_failure, rate, reproduce_command
from .text import VERDICT_WORDS, class_lines, format_classes, format_failure, verdict_words

#: The most unexpected findings a search's text shows in full.
SHOWN = 5


def shown_failures(outcome: Outcome) -> list[tuple[Failure, str | None]]:
    """The failures the text shows in full, each with its replay file: a replay's failure,
    or the examples of a search's first unexpected findings (a fault first)."""
    failure = primary_failure(outcome)
    if outcome.findings is None:
        if failure is None or (outcome.fault is not None and failure.kind != "fault"):
            return []  # a fault before any game is reported alone
        return [(failure, None)]
    primary = primary_class(outcome)
    shown = [c for c in outcome.findings.ordered() if not c.expected][:SHOWN]
    if primary is not None and primary not in shown and primary.kind == "fault":
        shown.insert(0, primary)
    return [(c.example or c.first, c.replay) for c in shown]


def run_text(result: ConformResult, outcome: Outcome, config: Config,
             replay_of: str | None = None, more: Sequence[str] = (),
             verbose: bool = False) -> list[str]:
    """The text report of a search (or of the replay of file ``replay_of``); ``more``: lines
    said just before the verdict.

    A search's report is a first screen: the verdict, then each class with the example
    of the first unexpected ones drawn under it, then the run's figures in a few lines;
    ``verbose`` adds what the run exercised (rare situations, conditions per rule, the
    illegal actions offered by kind), which the JSON and the HTML report always hold.
    """
    lines: list[str] = []
    s = outcome.stats
    searched = replay_of is None and outcome.findings is not None
    if searched:
        lines.append(headline(result))
        lines.extend(classes_with_examples(result, outcome, config))
    else:
        lines.extend(_examples(shown_failures(outcome), config, replay_of))
    if replay_of is not None:
        what = f"replay of {replay_of}: {s.actions} answers compared"
        if not shown_failures(outcome):
            what += "; the implementation agrees with the reference on every step"
        lines.append(what)
    else:
        figures = run_lines(outcome, config)
        exercised = exercise_lines(outcome, config)
        if not verbose:
            figures = [line for line in figures if not line.startswith("  rare situations")]
            exercised = exercised[:1]
        lines.extend(figures)
        constrained = constraint_words(result.summary.get("deal_constraints"))
        if constrained:  # said whatever the verbosity: what the constraints left untested
            lines.append(textwrap.fill(constrained, 100, initial_indent="  ",
                                       subsequent_indent="    ", break_on_hyphens=False))
        lines.extend(exercised)
        if not searched:
            lines.extend(format_classes(result, config.strict))
    if s.citations:
        lines.append(f"  {counted(s.citations, 'correct rejection')} cited another rule than the "
                     "reference (not a failure):")
        lines.extend(f"    {note}" for note in outcome.notes)
    lines.extend(more)
    verdict = result.verdict
    classes = result.summary.get("classes") or []
    if verdict == "nothing-tested":
        lines.append(verdict_words(verdict, classes, 0)
                     + (f" (the time budget of {config.max_seconds:g} s ended the search before "
                        "its first game)" if outcome.stopped == "time" and not s.games else ""))
    lines.append(verdict_line(verdict, classes))
    return lines


def _examples(shown: Sequence[tuple[Failure, str | None]], config: Config,
              replay_of: str | None, indent: str = "") -> list[str]:
    """The failures drawn in full, each with its replay file and the command that replays it."""
    lines: list[str] = []
    for shown_failure, path in shown:
        block = format_failure(shown_failure)
        if shown_failure.kind == "fault" and shown_failure.fault:
            f = shown_failure.fault
            ev = AdapterFault(f["kind"], f["message"], f.get("stdout", []), f.get("stderr", ""),
                              f.get("exit_status"))
            block.extend("  " + line for line in ev.evidence(lines=3).splitlines())
        if path is not None and not indent:
            block.append(f"  replay file: {path}")
        reproduce = reproduce_command(config, path or replay_of)
        if reproduce:
            block.append(f"  reproduce: {reproduce}")
        lines.extend(indent + line for line in block)
    return lines


def headline(result: ConformResult) -> str:
    """The first line of a search's report: the verdict and how many classes decide it."""
    classes = result.classes
    unexpected = sum(1 for c in classes if not c.get("expected"))
    verdict = result.verdict
    if not classes:
        return f"conform: {verdict.upper()}: {verdict_words(verdict, [], result.compared)}"
    return (f"conform: {verdict.upper()}: {counted(len(classes), 'class')} of difference "
            f"({unexpected} unexpected, {len(classes) - unexpected} expected)")


def classes_with_examples(result: ConformResult, outcome: Outcome, config: Config
                          ) -> list[str]:
    """Every class of a search, the unexpected first, each followed by its example drawn in
    full when it is one of the first :data:`SHOWN` unexpected (or the fault), then the
    expectations not seen."""
    listed = result.classes
    ordered = outcome.findings.ordered() if outcome.findings is not None else []
    shown = {id(failure): path for failure, path in shown_failures(outcome)}
    lines: list[str] = []
    for i, (finding, cls) in enumerate(zip(listed, ordered, strict=False), 1):
        lines.extend(class_lines(i, finding))
        example = cls.example or cls.first
        if id(example) in shown:
            lines.extend(_examples([(example, shown[id(example)])], config, None,
                                   indent="    "))
    lines.extend(format_classes(result, config.strict, heading=False, listed=False))
    return lines


def verdict_line(verdict: str, classes: list[dict[str, Any]]) -> str:
    """The last line of a text report."""
    return (f"verdict: {verdict.upper()}: {verdict_words(verdict, classes, 0)}"
            if verdict == "pass" and classes else f"verdict: {verdict.upper()}")


def run_lines(outcome: Outcome, config: Config) -> list[str]:
    """The search's figures: games, deals, answers, rare situations, resynchronisations."""
    s = outcome.stats
    seconds = outcome.seconds
    adapter = outcome.supports.name if outcome.supports else "?"
    players = (str(config.players) if config.players else
               ",".join(map(str, outcome.supports.players)) if outcome.supports else "?")
    ruleset = config.ruleset.describe() if config.ruleset else "drawn within the adapter's"\
        " supports"
    # a deal counts once played to its end: games cut short after a divergence may end none
    lines = [f"conform: {adapter!r}: {counted(s.games, 'game')}, "
             f"{counted(s.deals, 'deal') if s.deals else 'no deal'} played to the end, "
             f"{counted(s.actions, 'action')} compared, {counted(s.illegal, 'illegal action')} "
             f"offered in {seconds:.1f} s "
             f"({rate(s.deals, seconds):.1f} deals/s, "
             f"{rate(s.actions, seconds):.0f} actions/s)"]
    lines.append(f"  players {players}; ruleset {ruleset}; seed {config.seed}"
                 + (f"; {config.jobs} jobs" if config.jobs > 1 else "")
                 + (f"; {counted(s.restarts, 'adapter restart')}" if s.restarts else ""))
    if s.rare:
        seen = ", ".join(f"{name} {s.rare[name]}" for name in RARE_PATHS if s.rare[name])
        unseen = [name for name in RARE_PATHS if not s.rare[name]]
        lines.append(textwrap.fill(
            f"rare situations played: {seen}" + (f"; not played: {', '.join(unseen)}"
                                                  if unseen else ""),
            100, initial_indent="  ", subsequent_indent="    "))
    if s.position_starts:
        lines.append(f"  started again from the reference's position where nothing had diverged "
                     f"{counted(s.position_starts, 'time')} (one game in {EVERY})")
    elif outcome.supports is not None and outcome.supports.can("position") \
            and s.games >= EVERY:
        lines.append("  the adapter declares position, but no game reached a moment to start it "
                     "again from a position: its start from a position was not checked")
    if s.divergences:
        lines.append(textwrap.fill(
            f"{counted(s.divergences, 'divergence')} played past: the implementation was "
            f"restarted from the reference's position {counted(s.resyncs, 'time')}"
            + (f"; the reference followed its scores into the next deal "
               f"{counted(s.followed, 'time')}" if s.followed else "")
            + f"; {counted(s.cut, 'game')} cut short (the implementation could not be brought "
            "back in "
            "step)", 100, initial_indent="  ", subsequent_indent="    "))
    if outcome.stopped == "time" and config.examples is not None:
        lines.append(f"  the time budget ({config.max_seconds:g} s) ended the search after "
                     f"{outcome.examples_run} of {config.examples} games")
    elif outcome.stopped == "fault":
        lines.append("  an adapter fault ended the search")
    elif outcome.stopped == "first":
        where = (f"after game {s.games}, the first with an unexpected divergence" if s.games
                 else "at the tables offered before the games, which showed an unexpected "
                 "divergence")
        lines.append(f"  --first: the search ended {where}; the rest of its budget was not "
                     "played")
    return lines


def merge_lines(merged: ConformResult | dict[str, Any]) -> list[str]:
    """The text report of a merged result (or of its JSON form)."""
    m = merged.summary if isinstance(merged, ConformResult) else merged
    runs = m.get("merged") or []
    shards = [str(r["shard"]) for r in runs if r.get("shard")]
    lines = [f"conform --merge: {len(runs)} summaries"
             + (f" (shards {', '.join(shards)})" if shards else "")
             + f", adapter {m.get('adapter')!r}: {m['games']} games, "
             f"{m['deals']} deals, {m['actions_compared']} actions compared, "
             f"{m['illegal_offered']} illegal actions offered in {m['seconds']:g} s "
             "of run time"]
    if m.get("missing_shards"):
        lines.append(f"  not merged: shard(s) {', '.join(m['missing_shards'])} of the run: "
                     "this report covers only part of it")
    constrained = constraint_words(m.get("deal_constraints"))
    if constrained:
        lines.append(textwrap.fill(constrained, 100, initial_indent="  ",
                                   subsequent_indent="    ", break_on_hyphens=False))
    classes = m.get("classes") or []
    for expected in (False, True):
        group = [c for c in classes if bool(c.get("expected")) == expected]
        if not group:
            continue
        lines.append(f"  {'expected' if expected else 'unexpected'} "
                     f"{plural('difference', len(group))}: {len(group)}")
        for c in group:
            words = finding_lines(c)
            lines.append(f"    {words[0]}: {counted(c.get('count', 0), 'time')} in "
                         f"{counted(c.get('games', 0), 'game')}"
                         + (f"; replay {c['replay']}" if c.get("replay") else ""))
            lines += [f"    {line}" for line in words[1:]]
    for entry in m.get("expected_not_seen") or []:
        lines.append(f"  expected, not seen: {json.dumps(entry, ensure_ascii=False)[:120]}")
    if m.get("fault") is not None:
        fault = m["fault"]
        lines.append(f"  adapter fault in a merged run: {fault.get('kind')}: "
                     f"{str(fault.get('message'))[:200]}")
    verdict = str(m["verdict"])
    if verdict == "nothing-tested":
        said = verdict_words("nothing-tested", classes, 0)
        lines.append("nothing was tested: no merged run compared an answer of the implementation"
                     if said == VERDICT_WORDS["nothing-tested"] else said)
    lines.append(verdict_line(verdict, classes))
    return lines
