"""The words of a conformance run's result: a failure as lines of text, the findings, the verdict.

:func:`format_failure` draws one failure; :func:`class_lines` one finding of a
result's JSON form (:mod:`.result`), and :func:`format_classes` all of them, for a
reader; :func:`verdict_words` says the verdict in a line. The text report
(:mod:`.run_text`) and the Markdown and HTML file (:mod:`.document`) use them alike.
"""

from __future__ import annotations

import json
from typing import Any

from ..findings.classes import finding_lines, ruleset_words
from ..findings.expect import Expectation
from ..findings.failure import Failure, at_position_start, describe_action
from ..findings.start_causes import EVERY_START
from ..wording import counted, plural
from .result import ConformResult


def json_line(value: object) -> str:
    """``value`` as compact JSON on one line."""
    return json.dumps(value, separators=(",", ":"))


def format_failure(failure: Failure) -> list[str]:
    """The report of a failure, as lines of text."""
    lines = []
    deals, actions = failure.size
    what = {"fault": "ADAPTER FAULT during a game",
            "error": "INTERNAL ERROR reported by the implementation"}.get(failure.kind,
                                                                          "DISAGREEMENT")
    lines.append(f"{what} (the game: {counted(deals, 'deal')}, {counted(actions, 'action')} "
                 "after the start)")
    if failure.rules:
        lines.append(f"  {plural('rule', len(failure.rules))}: {', '.join(failure.rules)}   "
                     f"(see: rules-ref rules "
                     f"{failure.rules[0]})")
    lines.append(f"  {failure.summary}")
    pos = failure.position
    if pos:
        rules = failure.start.get("ruleset")
        where = (f"  position: {pos.get('players')} players, "
                 f"{ruleset_words(rules) if rules else 'ruleset ' + str(pos.get('ruleset'))}, "
                 f"deal {pos.get('deal_number')} (dealer {pos.get('dealer')}), "
                 f"phase {pos.get('phase')}")
        if pos.get("trick_number") is not None:
            where += f", trick {pos['trick_number']}"
        if pos.get("to_act") is not None:
            where += f", seat {pos['to_act']} to act"
        lines.append(where)
        if pos.get("hands"):
            lines.append("  hands:")
            for seat, hand in enumerate(pos["hands"]):
                lines.append(f"    seat {seat}: {' '.join(hand) or '-'}")
        if pos.get("phase") == "playing":
            lines.append(f"  trick so far (led by seat {pos.get('leader')}): "
                         f"{' '.join(pos.get('trick', [])) or '-'}")
        if pos.get("pending"):
            lines.append(f"  pending: {' '.join(pos['pending'])}")
        lines.append(f"  totals: {pos.get('totals')}")
        if pos.get("position_text"):
            # spec/position.md: paste it into a bug report, or draw it with `rules-ref position`
            lines.append(f"  position text: {pos['position_text']}")
    start = "start from this position" if at_position_start(failure.start, failure.failing) \
        else describe_action(failure.failing)
    lines.append(f"  action: {start}"
                 + (f"   {json_line(failure.failing)}" if failure.failing else ""))
    if failure.kind == "fault" and failure.fault:
        f = failure.fault
        lines.append(f"  fault: {f.get('kind')}: {f.get('message')}")
    elif failure.fields or failure.others:
        for name in failure.fields + failure.others:
            tag = "" if name in failure.fields else " (consequence)"
            lines.append(f"  {name}{tag}:")
            lines.append(f"    reference:      {json_line(failure.expected.get(name))}")
            lines.append(f"    implementation: {json_line(failure.actual.get(name))}")
    else:
        lines.append(f"  reference:      {json_line(failure.expected)}")
        lines.append(f"  implementation: {json_line(failure.actual)}")
    if failure.note:
        lines.append(f"  note: {failure.note}")
    return lines


def class_lines(index: int, finding: dict[str, Any]) -> list[str]:
    """One finding, for a reader: what differs, how often, when first seen, its example."""
    tag = "expected" if finding.get("expected") else "UNEXPECTED"
    words = finding_lines(finding)
    lines = [f" {index}. [{tag}] {words[0]}", *(f"  {line}" for line in words[1:])]
    count, games = int(finding.get("count", 0)), int(finding.get("games", 0))
    expected_count = int(finding.get("expected_count", 0))
    partly = (f"; {count - expected_count} not covered by an expectation"
              if expected_count and not finding.get("expected") else "")
    seen = finding.get("first_seen") or {}
    first = (f"in game {seen.get('game')}" if seen.get("game") else
             "at a table offered before the games")
    lines.append(f"    seen {counted(count, 'time')} in {counted(games, 'game')}, "
                 f"first {first} after {float(seen.get('seconds', 0)):.2f} s{partly}")
    example = finding.get("example") or {}
    shrunk = str(finding.get("shrunk") or "")
    how = {"position": "from the position before the divergent action",
           "deal": "from the start of its deal", "actions": "actions left out",
           "start": "the start of the game alone",
           "as found": "as found: no smaller game found within the shrinking budget",
           "not reproduced alone": "as found: played alone, the game does not show it again",
           "one action per request": "found again one action per request"}.get(shrunk)
    differing = list(example.get("fields") or []) + [
        f"{f} (consequence)" for f in example.get("others") or []]
    if differing:
        lines.append(f"    differs in: {', '.join(differing)}")
    actions = len(example.get("actions") or [])
    setting = f"{finding['setting']}: " if finding.get("setting") else ""
    lines.append(f"    minimal example: {setting}{counted(actions, 'action')} after the start"
                 + (f" ({how})" if how else f" ({shrunk})" if shrunk else ""))
    if finding.get("replay"):
        lines.append(f"    replay file: {finding['replay']}")
    return lines


def verdict_words(verdict: str, classes: list[dict[str, Any]], compared: int) -> str:
    """The verdict as one line, with the count when every divergence seen was expected.

    "passed: 75 divergences seen, all expected, in 9 classes"; "nothing was
    tested: the implementation rejected every start it was offered (992 of
    992 starts), so no game was played"; the text, the Markdown and the HTML
    reports all say it so.
    """
    every = next((c for c in classes if c.get("what") == EVERY_START), None)
    if verdict == "nothing-tested" and every is not None:
        n = int(every.get("count", 0))
        return ("nothing was tested: the implementation rejected every start it was offered "
                f"({n} of {counted(n, 'start')}), so no game was played")
    if verdict == "pass":
        seen = sum(int(c.get("count", 0)) for c in classes)
        if seen:
            return (f"passed: {counted(seen, 'divergence')} seen, all expected, in "
                    f"{counted(len(classes), 'class')}")
        return ("passed: the implementation agreed with the reference on everything the "
                f"run compared ({counted(compared, 'answer')})")
    return VERDICT_WORDS.get(verdict, verdict)


VERDICT_WORDS = {
    "pass": "the implementation agreed with the reference on everything the run compared",
    "disagreement": "the implementation differs from the reference (a difference nobody "
                    "declared expected)",
    "fault": "the adapter broke the protocol, crashed or hung: the run could not go on",
    "error": "the implementation reported an internal error",
    "nothing-tested": "nothing was tested: no answer of the implementation was compared",
    "expected-not-seen": "a difference declared expected was never seen (--strict)",
}


def fit_pointer(classes: list[dict[str, Any]], command: object) -> list[str]:
    """Where unexpected findings are decided by a switch: that another value of it may be
    what the implementation plays, and the command that finds which (``rules-ref fit``).

    >>> fit_pointer([{"switch": "moon", "facets": []}], ["./adapter"])[0][:61]
    '1 unexpected class is decided by a switch (moon): your engine'
    """
    switches = [c.get("switch") or next((f.get("switch") for f in c.get("facets") or []
                                         if f.get("switch")), None)
                for c in classes if not c.get("expected")]
    named = list(dict.fromkeys(s for s in switches if s))
    if not named:
        return []
    import shlex

    n = sum(1 for s in switches if s)
    adapter = shlex.join(command) if isinstance(command, list) and command else "COMMAND"
    return [f"{counted(n, 'unexpected class')} {'is' if n == 1 else 'are'} decided by a switch "
            f"({', '.join(named)}): your engine may play another value of it. "
            f"rules-ref fit -- {adapter} finds the values it plays, and what no value "
            "explains."]


def format_classes(result: ConformResult, strict: bool = False, heading: bool = True,
                   listed: bool = True) -> list[str]:
    """Every finding of a search's result, the unexpected first (``listed``), and the
    expectations not seen (``strict``: they fail the run)."""
    classes = result.summary.get("classes")
    if not isinstance(classes, list):
        return []
    lines: list[str] = []
    if classes and listed:
        unexpected = sum(1 for c in classes if not c.get("expected"))
        if heading:
            lines.append(f"divergence classes: {len(classes)} ({unexpected} unexpected, "
                         f"{len(classes) - unexpected} expected)")
        for i, finding in enumerate(classes, 1):
            lines.extend(class_lines(i, finding))
    lines.extend(fit_pointer(classes, result.summary.get("adapter_command")))
    for entry in result.summary.get("expected_not_seen") or []:
        described = Expectation(**{k: v for k, v in entry.items() if k != "index"}).describe()
        lines.append(f"expected, not seen: entry {entry['index']} ({described})"
                     + (" (fails the run: --strict)" if strict else ""))
    return lines
