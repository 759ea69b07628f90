"""What decides the starts an implementation rejected, and the one finding that says so.

A rejected ``start`` is judged alone as any divergence is (its class is the
rule the rejection cites when it is a rule of the set-up, else the set-up's
rules: :func:`~rules_ref.conform.refused_tables.rejected_start_rules`), but
one start cannot tell why it was rejected: the player count, a switch, the
deal? The run's starts can (:class:`.start_tally.StartTally`). After the
search, :func:`start_cause` reads the cause from them:

* every start offered rejected: no game was played, whatever the count or
  the ruleset (:data:`EVERY_START`; no rule decides it, and the run tested
  nothing);
* else the one *dimension* of the starts whose values explain every
  rejection: each value the rejected starts hold there was rejected every
  time it was offered, and the other values were played. The player count
  (``PLAYERS.COUNT``, with the counts), the start's deal number or dealer
  (``DEAL.DEALER``), its totals (``GAME.END``), the largest ``pass_count``
  under ``pass_forbidden = two-of-clubs`` (``PASS.CARDS``), a switch (the
  first rule ``spec/variants.toml`` gives it, the switch and its values
  named), a fact of the deal (``DEAL.SOURCE``). Where several explain
  them, the one of fewest values, then in that order;
* else no cause: the starts stay in the classes they were judged in alone.

:func:`settle_starts` makes the run's findings of the rejected starts: one
finding of the cause, its words the cause's, the rule the implementation
cited and its reason in the facet's detail.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..exercise.catalogue import switch_rules
from .classes import Finding, Findings, key_of, plainness
from .failure import Failure, at_position_start
from .start_tally import DEAL_FACTS, StartTally, start_features
from .words import Facet, said_words

#: The words of the finding of an implementation that rejected every start it was offered.
EVERY_START = "rejects every start: no game was played"

#: The dimensions of a start that are not a switch, in the order they are preferred, each
#: with its rule (a fact of the deal is ``DEAL.SOURCE``'s, a switch its own rule's).
_DIMENSIONS = {"players": "PLAYERS.COUNT", "deal_number": "DEAL.DEALER",
               "dealer": "DEAL.DEALER", "totals": "GAME.END", "pass-edge": "PASS.CARDS"}
#: What the rejected starts hold, in words, for a dimension that is not a switch.
_HOLDS = {
    "deal_number": ("rejects every game that starts after the first deal",
                    "plays the games that start at deal 1"),
    "dealer": ("rejects every game whose dealer is not seat 0",
               "plays the games dealt by seat 0"),
    "totals": ("rejects every game that starts with totals above zero",
               "plays the games that start at zero totals"),
    "pass-edge": ("rejects every game with the largest pass_count the rules allow under "
                  "pass_forbidden = two-of-clubs",
                  "plays the smaller pass_counts under it"),
}


@dataclass(frozen=True)
class StartCause:
    """What decides the rejected starts: a dimension and its values (none: every start)."""

    dimension: str
    values: tuple[str, ...]
    rule: str | None
    switch: str | None
    #: What differs, in words (the finding's), and what the other starts show (its facet's).
    what: str
    shown: str

    def holds(self, failure: Failure) -> bool:
        """Does the start of ``failure`` hold the cause?"""
        if not self.dimension:
            return True
        features = start_features(failure.start)
        return any(f"{self.dimension}={v}" in features for v in self.values)


def is_rejected_start(failure: Failure) -> bool:
    """Is ``failure`` a start of a game the reference plays that the implementation rejected?"""
    return (failure.kind == "disagreement" and failure.failing is None
            and failure.expected.get("type") == "observation"
            and failure.actual.get("type") == "rejected"
            and not at_position_start(failure.start, None))


def _listed(values: Sequence[str], last: str) -> str:
    """``9, 10 or 11`` (``last``: ``or``, ``and``); a run of whole numbers reads ``6 to 11``."""
    if len(values) > 2 and all(v.isdigit() for v in values) and [int(v) for v in values] == list(
            range(int(values[0]), int(values[0]) + len(values))):
        return f"{values[0]} to {values[-1]}"
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} {last} {values[-1]}"


def _ordered(values: Sequence[str]) -> list[str]:
    return sorted(values, key=lambda v: (not v.lstrip("-").isdigit(),
                                         int(v) if v.lstrip("-").isdigit() else 0, v))


def _rank(dimension: str) -> int:
    names = list(_DIMENSIONS)
    if dimension in names:
        return names.index(dimension)
    switches = list(switch_rules())
    if dimension in switches:
        return len(names) + switches.index(dimension)
    return len(names) + len(switches)


def _values(tally: StartTally) -> dict[str, list[str]]:
    """Each dimension of the starts offered and the values offered there."""
    out: dict[str, list[str]] = {}
    for key in tally.offered:
        dimension, _, value = key.partition("=")
        out.setdefault(dimension, []).append(value)
    return out


def start_cause(tally: StartTally) -> StartCause | None:
    """The cause of the run's rejected starts (see the module's description), if one."""
    if not tally.rejections:
        return None
    offered = _values(tally)
    if tally.all_rejected:
        counts = _ordered(offered.get("players", []))
        return StartCause("", (), None, None, EVERY_START,
                          f"rejected at {_listed(counts, 'and')} players and under every "
                          "ruleset drawn")
    found = []
    for dimension, values in offered.items():
        bad = [v for v in values
               if tally.rejected[f"{dimension}={v}"] == tally.offered[f"{dimension}={v}"]]
        if dimension == "pass-edge" or dimension.startswith("deal:"):
            bad = [v for v in bad if v == "yes"]  # a fact a deal holds, not one it lacks
        if bad and sum(tally.rejected[f"{dimension}={v}"] for v in bad) == tally.rejections:
            found.append((len(bad), _rank(dimension), dimension, _ordered(bad)))
    if not found:
        return None
    _, _, dimension, bad = min(found)
    played = _ordered([v for v in offered[dimension] if v not in bad])
    return _cause(dimension, tuple(bad), played)


def _cause(dimension: str, bad: tuple[str, ...], played: Sequence[str]) -> StartCause:
    if dimension == "players":
        return StartCause(dimension, bad, "PLAYERS.COUNT", "min_players" if "5" in bad else None,
                          f"rejects every game of {_listed(bad, 'or')} players",
                          f"plays the other counts offered ({_listed(played, 'and')})")
    if dimension in _HOLDS:
        what, shown = _HOLDS[dimension]
        switch = "pass_count" if dimension == "pass-edge" else None
        return StartCause(dimension, bad, _DIMENSIONS[dimension], switch, what, shown)
    if dimension.startswith("deal:"):
        fact = DEAL_FACTS[dimension.removeprefix("deal:")][1]
        return StartCause(dimension, bad, "DEAL.SOURCE", None,
                          f"rejects every deal in which {fact}", "plays the other deals")
    return StartCause(dimension, bad, switch_rules().get(dimension), dimension,
                      f"rejects every game under {dimension} = {_listed(bad, 'or')}",
                      f"plays the other values of {dimension} offered "
                      f"({_listed(played, 'and')})")


def _detail(example: Failure) -> str:
    """The rule the implementation cited for a rejected start and the reason it gave."""
    parts = []
    cited = example.actual.get("rule")
    if isinstance(cited, str) and cited:
        parts.append(f"the implementation cites {cited}")
    said = said_words(example.actual.get("reason"))
    if said:
        parts.append(f"{'it' if parts else 'the implementation'} says: {said}")
    return "; ".join(parts)


def _of_cause(cause: StartCause, classes: Sequence[Finding]) -> Finding:
    """The one finding of the rejected starts ``classes`` (each shrunk as found alone)."""
    examples = [(c.example or c.smallest or c.first, c) for c in classes]
    fitting = [e for e in examples if cause.holds(e[0])] or examples
    example, shrunk_in = min(fitting, key=lambda e: plainness(e[0]))
    first = min(classes, key=lambda c: c.first_seconds)
    rules = [cause.rule] if cause.rule else []
    finding = Finding(key_of(cause.rule, cause.what), cause.rule, rules, cause.what,
                      "disagreement", first.first, first.first_game, first.first_seconds,
                      smallest=example)
    for cls in classes:
        finding.count += cls.count
        finding.games |= cls.games
    finding.example = replace(example, rules=rules)
    finding.shrunk = shrunk_in.shrunk
    facet = Facet(cause.shown, _detail(example), cause.rule, cause.switch, None, ())
    finding.add(facet, finding.example)
    facet.count = finding.count
    return finding


def settle_starts(findings: Findings, starts: Findings, tally: StartTally) -> None:
    """Add the run's rejected starts (``starts``, each judged alone) to ``findings``.

    One finding of their cause when the tally shows one (:func:`start_cause`),
    else the classes they were judged in.
    """
    classes = list(starts.classes.values())
    if not classes:
        return
    cause = start_cause(tally)
    for finding in [_of_cause(cause, classes)] if cause is not None else classes:
        findings.adopt(finding)
