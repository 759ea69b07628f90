"""Reporting a vectors run: the closing text, the summary per rule, JSON and JUnit XML.

Every form says the same things: each case's outcome, the totals, how much
of the run was tested, the verdict, and per rule ID how many cases passed,
failed and were skipped. A passed or skipped case counts for each rule it
covers; a failure counts for the rules it is blamed on (which, for a
failure in a case's prefix, need not be the case's own).
The JSON shape and the JUnit mapping are documented in
``spec/vectors/README.md``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .case_replay import FAIL, PASS, SKIP, CaseResult, totals_line
from .constrained import untested_words
from .requirements import show
from .running import EXIT_FAILED, Coverage, RunResult, coverage, label
from .running import verdict as running_verdict

#: The ``format`` of the JSON report.
REPORT_FORMAT = "cancellation-hearts-vectors-run"
_COUNT_NAMES = {PASS: "passed", FAIL: "failed", SKIP: "skipped"}


def by_rule(result: RunResult) -> dict[str, dict[str, int]]:
    """Rule ID -> ``{"passed": n, "failed": n, "skipped": n}``, in rule ID order."""
    rules = {str(case["id"]): list(case["rules"]) for _, case in result.cases}
    table: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(
        _COUNT_NAMES.values(), 0))
    for o in result.outcomes:
        for rule in (o.rules if o.status == FAIL else rules.get(o.case_id, [])):
            table[rule][_COUNT_NAMES[o.status]] += 1
    return {rule: table[rule] for rule in sorted(table)}


#: How many case ids a line of repeated failures names before "and N more".
SHOWN_REPEATS = 5


def first_of_its_kind(outcome: CaseResult, seen: dict[str, list[str]]) -> bool:
    """Record a failure under its message; True when no earlier failure had that message.

    A run against an adapter that fails every case the same way prints that
    failure once, with the count (:func:`repeat_lines`).
    """
    if outcome.status != FAIL:
        return True
    ids = seen.setdefault(outcome.message, [])
    ids.append(outcome.case_id)
    return len(ids) == 1


def repeat_lines(seen: dict[str, list[str]]) -> list[str]:
    """One line per failure printed once that other cases repeated, with their count."""
    lines = []
    for message, ids in seen.items():
        if len(ids) < 2:
            continue
        more = ids[1:]
        shown = ", ".join(more[:SHOWN_REPEATS])
        if len(more) > SHOWN_REPEATS:
            shown += f" and {len(more) - SHOWN_REPEATS} more"
        lines.append(f"{len(more)} more case{'s' if len(more) != 1 else ''} failed the same "
                     f"way as {ids[0]} ({message[:120]}): {shown}")
    return lines


#: The kinds whose failures the first screen shows first, in this order: the basic rules
#: (who takes a trick, what may be played, what a deal scores) before what builds on them.
FIRST_KINDS = ("trick", "legal-plays", "scoring")
#: How many ways of failing the first screen shows (``--verbose``: every case).
SHOWN_WAYS = 8
#: At most this many characters of what differs, on a failure's second line.
SHOWN_DIFFERENCE = 160


def verdict_against(result: RunResult, comparison: Any, allow_partial: bool = False
                    ) -> tuple[str, int]:
    """The verdict and exit status of a run compared with a baseline (``--baseline``).

    A case that failed in the baseline too does not fail the run: the verdict
    is the one the run would have had had it passed (:func:`~.running.verdict`),
    and ``known-failures`` (exit 0) when that is a pass.
    """
    if comparison.new:
        return "fail", EXIT_FAILED
    unchanged = set(comparison.unchanged)
    passed = [replace(o, status=PASS) if o.case_id in unchanged else o for o in result.outcomes]
    verdict, status = running_verdict(replace(result, outcomes=passed), allow_partial)
    if verdict == "pass" and unchanged:
        return "known-failures", status
    return verdict, status


def failure_lines(result: RunResult, comparison: Any = None,
                  ways: int = SHOWN_WAYS) -> list[str]:
    """The failures as the first screen shows them: the basic kinds first (:data:`FIRST_KINDS`).

    A way of failing (one message) is shown once: its first case with what
    it tests in a player's words (the case's ``description``), then what
    differed, then how many more cases failed the same way. After ``ways``
    ways, one line counts the rest.
    """
    kinds = {str(case["id"]): kind for kind, case in result.cases}
    described = {str(case["id"]): str(case.get("description", "")) for _, case in result.cases}
    groups: dict[str, list[CaseResult]] = {}
    for o in result.outcomes:
        if o.status == FAIL:
            groups.setdefault(o.message, []).append(o)

    def rank(outcome: CaseResult) -> int:
        kind = kinds.get(outcome.case_id.removesuffix(".position"), "")
        return FIRST_KINDS.index(kind) if kind in FIRST_KINDS else len(FIRST_KINDS)

    # each way of failing is shown by its case of the most basic kind
    ordered = sorted((sorted(group, key=rank) for group in groups.values()),
                     key=lambda group: rank(group[0]))
    lines: list[str] = []
    known = set(comparison.unchanged) if comparison is not None else set()
    ordered.sort(key=lambda group: group[0].case_id in known)
    for group in ordered[:ways]:
        first = group[0]
        subject = first.case_id.removesuffix(".position")
        words = described.get(subject) or described.get(first.case_id, "")
        lines.append(f"{'FAIL (in the baseline too)' if first.case_id in known else 'FAIL'} "
                     f"{first.case_id} [{', '.join(first.rules)}]"
                     + (f": {words}" if words else ""))
        difference = first.message
        if len(difference) > SHOWN_DIFFERENCE:
            difference = difference[:SHOWN_DIFFERENCE - 1] + "…"
        lines.append(f"  {difference}")
        if len(group) > 1:
            lines.append(f"  and {len(group) - 1} more "
                         f"case{'s' if len(group) != 2 else ''} failed the same way")
    rest = ordered[ways:]
    if rest:
        cases = sum(len(g) for g in rest)
        lines.append(f"{cases} more failing case{'s' if cases != 1 else ''} "
                     f"({len(rest)} other way{'s' if len(rest) != 1 else ''} of failing): "
                     "--verbose lists every case")
    return lines


def headline(result: RunResult, verdict: str) -> str:
    """The first line of the first screen: the verdict and the count that decides it."""
    n = result.counts()
    tested, counted = result.tested()
    said = {"pass": "every case that applied passed", "fail": f"{n[FAIL]} "
            f"case{'s' if n[FAIL] != 1 else ''} failed",
            "partial": "every case that applied passed, but a declared value went untested",
            "nothing-tested": "nothing was tested",
            "known-failures": f"no new failure: the {n[FAIL]} failed "
            f"case{'s' if n[FAIL] != 1 else ''} failed in the baseline too"}.get(verdict, verdict)
    return f"vectors: {verdict.upper()}: {said}; {_share(tested, counted)}"


def rule_lines(result: RunResult) -> list[str]:
    """The summary per rule as a table of text."""
    table = by_rule(result)
    if not table:
        return []
    width = max(len("rule"), *map(len, table))
    lines = [f"{'rule':<{width}}  passed  failed  skipped"]
    lines.extend(f"{rule:<{width}}  {n['passed']:>6}  {n['failed']:>6}  {n['skipped']:>7}"
                 for rule, n in table.items())
    return lines


def _share(tested: int, counted: int) -> str:
    return f"tested {tested} of {counted} cases ({tested * 100 // counted if counted else 0}%)"


def _needs(result: RunResult) -> str:
    return ", ".join(f"{value} ({n} case{'s' if n != 1 else ''})" for value, n in result.needs())


def _values(entries: Sequence[tuple[str, Any]]) -> str:
    """Switch values grouped by switch (``moon others-52 / others-104; 7 players``)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for switch, value in entries:
        groups[switch].append(show(value))
    parts = [f"{', '.join(groups.pop('players'))} players"] if "players" in groups else []
    parts.extend(f"{switch} {' / '.join(values)}" for switch, values in groups.items())
    return "; ".join(parts)


def coverage_lines(cov: Coverage, verdict: str) -> list[str]:
    """What the run did not cover of what the adapter declares, and what it does not declare."""
    lines = []
    if cov.untested:
        lacks = sorted({v for entry in cov.untested for v in cov.needs.get(label(*entry), [])[:3]})
        head = "too little was tested: " if verdict == "partial" else "partial run (allowed): "
        lines.append(f"{head}declared but not tested: {_values(cov.untested)}; the cases that "
                     f"test {'it' if len(cov.untested) == 1 else 'them'} need: "
                     f"{', '.join(lacks)}" + (" (--allow-partial accepts it)"
                                             if verdict == "partial" else ""))
    if cov.not_in_vectors:
        lines.append(f"declared, but no vector at the declared player counts tests it: "
                     f"{_values(cov.not_in_vectors)}")
    if cov.undeclared:
        lines.append("not declared, so not tested:")
        lines.extend(f"  {part}" for part in _values(cov.undeclared).split("; "))
    return lines


def closing_lines(result: RunResult, verdict: str) -> list[str]:
    """The totals, how much was tested and, when the run is not a pass, why."""
    tested, counted = result.tested()
    lines = [f"{totals_line(result.outcomes)}; {_share(tested, counted)}"]
    if counted < len(result.outcomes):
        lines[0] += "; a case and its position-start form count once"
    if verdict == "nothing-tested":
        lines.append("nothing was tested: every case needs a switch value or player count the "
                     f"adapter does not declare: {_needs(result)}")
        return lines
    cov = coverage(result)
    constrained = untested_words(_constraints(result), result.constrained,
                                 [label(*entry) for entry in cov.constrained])
    return lines + ([constrained] if constrained else []) + coverage_lines(cov, verdict)


def _constraints(result: RunResult) -> list[str]:
    """The deal constraints the adapter declared."""
    return list((result.declared or {}).get("deal_constraints", []))


def json_report(result: RunResult, verdict: str, status: int, command: Sequence[str],
                directory: str, versions: dict[str, Any]) -> dict[str, Any]:
    """The run as the JSON object ``rules-ref vectors run --json`` prints."""
    tested, counted = result.tested()
    kinds = {str(case["id"]): kind for kind, case in result.cases}
    fault = None
    if result.fault is not None:
        fault = {**result.fault.to_json(), "case": result.fault.case_id}
    return {
        "format": REPORT_FORMAT, "verdict": verdict, "exit_status": status,
        "adapter": {"command": list(command), "name": result.adapter,
                    "protocol_version": result.protocol, "restarts": result.restarts},
        "vectors": {"directory": directory, **versions},
        "totals": {**{_COUNT_NAMES[s]: n for s, n in result.counts().items()},
                   "tested": tested, "counted": counted, "cases": len(result.cases)},
        "needs": dict(result.needs()),
        "coverage": _coverage_json(result) if result.declared is not None else None,
        "deal_constraints": {"declared": _constraints(result), "cases": result.constrained,
                             "values": [label(*entry) for entry in coverage(result).constrained]
                             } if result.declared is not None else None,
        "rules": by_rule(result),
        "cases": [_case_json(o, kinds.get(o.case_id, "")) for o in result.outcomes],
        "fault": fault,
    }


def _coverage_json(result: RunResult) -> dict[str, list[str]]:
    cov = coverage(result)
    return {key: [label(switch, value) for switch, value in entries]
            for key, entries in (("untested", cov.untested),
                                 ("not_in_vectors", cov.not_in_vectors),
                                 ("undeclared", cov.undeclared))}


def _case_json(o: CaseResult, kind: str) -> dict[str, Any]:
    return {"id": o.case_id, "kind": kind, "status": o.status, "rules": o.rules,
            "message": o.message, "unsupported": o.unsupported}


def _xml_text(text: str) -> str:
    """Text XML 1.0 can hold: other control characters (an adapter may send them) escaped."""
    return "".join(c if (c >= " " and not "\ud800" <= c <= "\udfff" and c not in "\ufffe\uffff")
                   or c in "\t\n\r" else repr(c)[1:-1] for c in text)


def junit_xml(result: RunResult) -> str:
    """The run as JUnit XML: a test suite per kind, a test case per vector."""
    kinds: dict[str, list[CaseResult]] = defaultdict(list)
    kind_of = {str(case["id"]): kind for kind, case in result.cases}
    for o in result.outcomes:
        kinds[kind_of.get(o.case_id, "")].append(o)
    n = result.counts()
    root = ET.Element("testsuites", name="rules-ref vectors", tests=str(len(result.outcomes)),
                      failures=str(n[FAIL]), skipped=str(n[SKIP]), errors="0")
    for kind, outcomes in kinds.items():
        suite = ET.SubElement(
            root, "testsuite", name=kind, tests=str(len(outcomes)),
            failures=str(sum(o.status == FAIL for o in outcomes)),
            skipped=str(sum(o.status == SKIP for o in outcomes)), errors="0")
        for o in outcomes:
            case = ET.SubElement(suite, "testcase", classname=f"vectors.{kind}",
                                 name=o.case_id)
            if o.status == FAIL:
                failure = ET.SubElement(case, "failure", type=", ".join(o.rules),
                                        message=_xml_text(o.message))
                failure.text = _xml_text(o.line())
            elif o.status == SKIP:
                ET.SubElement(case, "skipped", message=_xml_text(o.message))
    ET.indent(root, " ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"
