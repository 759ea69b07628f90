"""What triggers the internal errors an implementation reported, and one finding per trigger.

An internal error is judged alone as any divergence is, under the rules the
reference's step went through; while the search runs, the errors of each set
of facts of their moment (:func:`.triggers.step_facts`) are kept apart. One error
cannot tell which of its moment's facts makes the implementation fail (a
void trick whose two Q♠ cancel: the void trick, or the queens?); the run's
moments can. Every finding of internal errors keeps the facts all its
occurrences share (:attr:`.classes.Finding.facts`), and the run counts the
facts of the moments the implementation went through as the reference did
(:attr:`.failure.Stats.cleared`): a fact met without an error is not the
trigger.

After the search, :func:`settle_errors` names each such finding by its
*trigger*: of the facts its occurrences share and none cleared, the one that
explains the most findings, on a tie the most particular (a void last trick
rather than the void trick and the deal's end it also is: had either been
the trigger, some error would have come without the void last trick), then
the order of :data:`.triggers.ORDER`; then the same for the findings left.
The findings one trigger explains are filed as one, under the trigger's
rule and words (``TRICK.CANCEL: reports an internal error when the two Q♠
cancel``), at a start or a later deal, on the first
trick or the last alike. A finding whose every fact was cleared keeps the
class it was judged in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..wording.slips import error_words
from .classes import Finding, Findings, class_of, key_of
from .failure import Failure
from .triggers import ORDER, Fact, ancestors, fact_named
from .words import facet_of


def keys_of(failure: Failure) -> frozenset[str]:
    """The keys of the findings ``failure`` is an occurrence of (shrinking's test): the class
    it is judged in, and for an internal error the finding of each fact of its moment, which
    the run may have named its trigger."""
    facet = facet_of(failure)
    keys = {key_of(*class_of(failure))}
    if failure.kind == "error":
        keys |= {key_of(f.rule, error_words(f.words)) for f in map(fact_named, facet.facts)}
    return frozenset(keys)


def _candidates(finding: Finding, cleared: Counter[str]) -> list[str]:
    """The facts every occurrence of ``finding`` holds that no answer cleared, general first."""
    return sorted((f for f in finding.facts or () if not cleared[f]), key=ORDER.__getitem__)


def triggers(findings: Iterable[Finding], cleared: Counter[str]) -> dict[str, Fact]:
    """The trigger of each finding of internal errors that has one, by the finding's key.

    >>> from rules_ref.findings.failure import Failure
    >>> f = Failure("error", [], "", {}, [], None, {}, {}, {})
    >>> void = Finding("a", None, [], "", "error", f, 0, 0.0, facts=frozenset(
    ...     {"trick-end", "void-trick", "cancel:QS"}))
    >>> won = Finding("b", None, [], "", "error", f, 0, 0.0, facts=frozenset(
    ...     {"trick-end", "cancel:QS"}))
    >>> {k: t.words for k, t in triggers([void, won], Counter({"trick-end": 9})).items()}
    {'a': 'the two Q♠ cancel', 'b': 'the two Q♠ cancel'}
    """
    left = {c.key: _candidates(c, cleared) for c in findings if c.kind == "error" and c.facts}
    left = {k: v for k, v in left.items() if v}
    out: dict[str, Fact] = {}
    while left:
        covers = Counter(f for facts in left.values() for f in facts)
        most = max(covers.values())
        tied = [f for f, n in covers.items() if n == most]
        # of facts that explain as much, the most particular: a case of another is chosen
        # over it (the void last trick, not the void trick or the deal's end it also is)
        cases = {a for f in tied for a in ancestors(f)}
        best = min((f for f in tied if f not in cases), key=ORDER.__getitem__)
        for key in [k for k, facts in left.items() if best in facts]:
            out[key] = fact_named(best)
            del left[key]
    return out


def settle_errors(findings: Findings, cleared: Counter[str]) -> None:
    """Name each finding of internal errors by its trigger (:func:`triggers`), the findings
    of one trigger filed as one; those of no trigger under the class they were judged in
    (see the module's description)."""
    named = triggers(findings.classes.values(), cleared)
    groups: dict[tuple[str | None, str], list[Finding]] = {}
    for cls in [c for c in findings.classes.values() if c.kind == "error" and c.facts]:
        fact = named.get(cls.key)
        rule_what = (fact.rule, error_words(fact.words)) if fact is not None else (
            cls.rule, cls.what)
        groups.setdefault(rule_what, []).append(findings.classes.pop(cls.key))
    for (rule, what), group in groups.items():
        fact = named.get(group[0].key)
        findings.adopt(_merged(rule, what, group, findings,
                               None if fact is None else fact.name))


def blamed_on(failure: Failure, rule: str | None) -> Failure:
    """``failure`` with ``rule`` (its finding's) first among its rules."""
    if rule is None or failure.rules[:1] == [rule]:
        return failure
    return replace(failure, rules=[rule, *(r for r in failure.rules if r != rule)])


def _merged(rule: str | None, what: str, group: Sequence[Finding], findings: Findings,
            trigger: str | None) -> Finding:
    """One finding of internal errors under ``rule`` and ``what`` from the findings of
    ``group`` (their expectations counted off, for :meth:`.classes.Findings.adopt` to count
    again); ``trigger``: the fact that triggers them, its rule first among each example's."""
    first = min(group, key=lambda c: c.first_seconds)

    def blamed(failure: Failure) -> Failure:
        return failure if trigger is None else blamed_on(failure, rule)

    out = Finding(key_of(rule, what), rule, [rule] if trigger and rule else first.rules, what,
                  "error", blamed(first.first), first.first_game, first.first_seconds,
                  facts=frozenset.intersection(*(c.facts or frozenset() for c in group)))
    for cls in group:
        if cls.expectation is not None:
            findings.matched[cls.expectation] -= cls.expected_count
        out.count += cls.count
        out.games |= cls.games
        for failure in (cls.smallest or cls.first, *cls.by_players.values()):
            out.keep_smallest(blamed(failure))
        for facet in cls.facets.values():
            seen = out.facets.get(what)
            if seen is None:
                out.facets[what] = replace(facet, words=what, rule=rule, switch=None,
                                           example=blamed(facet.example))
            else:
                seen.count += facet.count
    return out
