"""``rules-ref conform --report FILE``: a conformance run as a Markdown or HTML file to share.

The report is made from the run's result (:class:`~.result.ConformResult`, or
its JSON form), a run's or a merged one (``--merge``), so a run and a merge of
runs read alike: the verdict and the counters; the differences seen,
unexpected and expected apart, with their counts; for each, its minimal
example drawn by the ``draw`` the caller gives (the command line draws it as
``rules-ref show`` draws a game), the position and the answers that differ
(:func:`~.text.format_failure`) and the commands that reproduce it; the
text of every rule named (``spec/rules.toml``, through
:mod:`rules_ref.registry`); the command line that plays the run again; the
rules exercised, the illegal actions offered and the rare situations
played, when the summary has them.

A report is a list of blocks (:mod:`.markup`) written out as Markdown or
as one HTML page with its style inside and no link to anything outside it.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import RulesRefError
from ..findings.classes import finding_lines
from ..findings.failure import Failure
from ..wording import counted
from .exercised import constraint_words
from .markup import Block, Code, Heading, Inline, Items, Link, Para, Pre, Table, html_page, markdown
from .result import EXIT, ConformResult
from .text import format_failure, verdict_words

#: How the game of a minimal example (its JSON form) is drawn, as lines of text.
Draw = Callable[[dict[str, Any]], list[str]]


def _failure_lines(example: dict[str, Any]) -> list[str]:
    try:
        return format_failure(Failure.from_json(example))
    except (TypeError, KeyError, AttributeError, ValueError):
        return [str(example.get("summary", ""))[:500]]


# --- the report's blocks ----------------------------------------------------------------

def _rule_text(rule_id: str) -> tuple[str, str, tuple[str, ...]] | None:
    from ..registry import rule

    try:
        r = rule(rule_id)
    except (KeyError, LookupError, RulesRefError):
        return None
    return r.title, " ".join(r.statement.split()), r.switches


def _count_table(counts: dict[str, Any], first: str) -> Table:
    rows = tuple((str(k), str(v)) for k, v in counts.items() if not isinstance(v, dict))
    return Table((first, "count"), rows)


def _run_rows(s: dict[str, Any]) -> list[tuple[Inline, ...]]:
    command = s.get("adapter_command")
    rows: list[tuple[Inline, ...]] = [("adapter", _adapter_name(s))]
    if isinstance(command, list):
        rows.append(("adapter command", Code(shlex.join(str(c) for c in command))))
    if s.get("seeds") and len(s["seeds"]) > 1:
        rows.append(("seeds", ", ".join(str(x) for x in s["seeds"])))
    elif s.get("seed") is not None:
        rows.append(("seed", str(s["seed"])))
    if s.get("shard"):
        rows.append(("shard", f"{s['shard']} (this shard's own seed {s.get('shard_seed')})"))
    players = s.get("players")
    if isinstance(players, list):
        rows.append(("players", ", ".join(str(p) for p in players) or "-"))
    ruleset = s.get("ruleset")
    rows.append(("ruleset", "drawn within what the adapter supports" if ruleset == "drawn"
                 else Code(json.dumps(ruleset, ensure_ascii=False))))
    for key, name in (("games", "games"), ("deals", "deals played to the end"),
                      ("actions_compared", "actions compared"),
                      ("illegal_offered", "illegal actions offered"),
                      ("divergences", "divergences seen"),
                      ("resyncs", "resynchronisations after a divergence"),
                      ("position_starts", "starts from a position where nothing diverged"),
                      ("games_cut_short", "games cut short after a divergence"),
                      ("adapter_restarts", "adapter restarts")):
        if key in s:
            rows.append((name, str(s[key])))
    if "seconds" in s:
        rate = s.get("deals_per_second")
        longest = s.get("longest_seconds")
        rows.append(("run time", f"{s['seconds']} s" + (f" ({rate} deals/s)" if rate else "")
                     + (f", all runs together; the longest {longest} s" if s.get("merged")
                        else "")))
    if s.get("rules_version"):
        rows.append(("rules version", Code(str(s["rules_version"]))))
    if s.get("stopped"):
        rows.append(("stopped", str(s["stopped"])))
    return rows


def _class_rows(classes: Sequence[tuple[int, dict[str, Any]]]) -> Table:
    rows = []
    for number, c in classes:
        first = c.get("first_seen")
        when = (f"game {first.get('game')}, {first.get('seconds')} s"
                if isinstance(first, dict) else "-")
        rows.append((Link(str(number), f"class-{number}"), Code(str(c.get("rule", ""))),
                     str(c.get("what") or c["key"]), str(c.get("count", 0)),
                     str(c.get("games", 0)), when,
                     Code(str(c["replay"])) if c.get("replay") else "-"))
    return Table(("#", "rule", "what differs", "count", "games", "first seen", "replay file"),
                 tuple(rows))


def _adapter_name(s: dict[str, Any]) -> str:
    """The name the adapter gave in its handshake, or its command if it gave none."""
    name = s.get("adapter")
    if isinstance(name, str) and name:
        return name
    return f"{_command_of(s)} (no handshake)"


def _command_of(s: dict[str, Any]) -> str:
    command = s.get("adapter_command")
    return shlex.join(str(c) for c in command) if isinstance(command, list) else "COMMAND"


def _class_blocks(number: int, c: dict[str, Any], s: dict[str, Any], draw: Draw | None
                  ) -> list[Block]:
    blocks: list[Block] = [Heading(3, f"{number}. {c['key']}", f"class-{number}")]
    rule_id = str(c.get("rule", ""))
    text = _rule_text(rule_id)
    about: list[str | Code | Link] = [Code(rule_id)]
    if text is not None:
        about.append(f" ({text[0]})")
    about.append(f": {'expected' if c.get('expected') else 'unexpected'}, "
                 f"{c.get('kind', 'disagreement')}, seen {counted(c.get('count', 0), 'time')} in "
                 f"{counted(c.get('games', 0), 'game')}")
    blocks.append(Para(about))
    words = finding_lines(c)[1:]
    if words:
        blocks.append(Items(tuple(line.strip() for line in words)))
    example = c.get("example")
    if isinstance(example, dict):
        if draw is not None:
            setting = f" ({c['setting']})" if c.get("setting") else ""
            blocks.append(Para(f"The minimal example{setting} as the reference plays it, drawn "
                               "as rules-ref show draws a game "
                               "([Q♠] a cancelled card, Q♠* the winning card):"))
            blocks.append(Pre(tuple(draw(example))))
        blocks.append(Para("Where it differs:"))
        blocks.append(Pre(tuple(_failure_lines(example))))
    if c.get("replay"):
        replay = shlex.quote(str(c["replay"]))
        blocks.append(Para("Reproduce it:"))
        commands = [f"rules-ref conform --replay {replay} -- {_command_of(s)}"]
        start = example.get("start") if isinstance(example, dict) else None
        if isinstance(start, dict) and start and "position" not in start:
            commands.append(f"rules-ref show {replay}")  # show reads dealt starts only
        blocks.append(Pre(tuple(commands)))
    return blocks


def report_blocks(result: ConformResult | dict[str, Any], draw: Draw | None = None
                  ) -> list[Block]:
    """The blocks of the report of ``result`` (a run's or a merge's, or its JSON form); each
    minimal example is drawn by ``draw`` (``None``: not drawn)."""
    if not isinstance(result, ConformResult):
        result = ConformResult(result)
    s = result.summary
    verdict = str(s.get("verdict", "?"))
    said = verdict_words(verdict, result.classes, result.compared)
    blocks: list[Block] = [
        Heading(1, f"Conformance report: {_adapter_name(s)}"),
        Para([f"Verdict: {verdict.upper()}: {said} "
              f"(exit status {EXIT.get(verdict, '?')})."]),
        Table(("", ""), tuple(_run_rows(s))),
    ]
    merged = s.get("merged") or []
    if merged:
        blocks.append(Heading(2, "Runs merged"))
        blocks.append(Table(("file", "shard", "seed", "verdict", "games"), tuple(
            (Code(str(m.get("file"))), str(m.get("shard") or "-"), str(m.get("seed")),
             str(m.get("verdict")), str(m.get("games"))) for m in merged)))
    if s.get("missing_shards"):
        blocks.append(Para("Not merged: shard(s) " + ", ".join(s["missing_shards"])
                           + " of the run; this report covers only part of it."))
    classes = list(enumerate(result.classes, start=1))
    blocks.append(Heading(2, "Differences"))
    if not classes:
        blocks.append(Para("No difference between the implementation and the reference was "
                           "seen." if s.get("actions_compared") else
                           "None seen, but nothing was compared."))
    for expected, title in ((False, "Unexpected"), (True, "Expected (declared with --expect)")):
        group = [(n, c) for n, c in classes if bool(c.get("expected")) == expected]
        if group:
            blocks.append(Heading(3, f"{title}: {len(group)}"))
            blocks.append(_class_rows(group))
    not_seen = s.get("expected_not_seen") or []
    if not_seen:
        blocks.append(Heading(3, f"Expected, not seen: {len(not_seen)}"))
        blocks.append(Items(tuple(Code(json.dumps(e, ensure_ascii=False)) for e in not_seen)))
    if s.get("fault"):
        fault = s["fault"]
        blocks.append(Para(f"Adapter fault: {fault.get('kind')}: "
                           f"{str(fault.get('message'))[:500]}"))
    for number, c in classes:
        blocks += _class_blocks(number, c, s, draw)
    rule_ids = list(dict.fromkeys(r for _, c in classes
                                  for r in (c.get("rules") or [c.get("rule")]) if r))
    if rule_ids:
        blocks.append(Heading(2, "The rules named"))
        for rule_id in rule_ids:
            text = _rule_text(str(rule_id))
            if text is None:
                blocks.append(Para([Code(str(rule_id)), ": not a rule of spec/rules.toml"]))
                continue
            title, statement, switches = text
            blocks.append(Heading(3, f"{rule_id}: {title}"))
            blocks.append(Para(statement))
            if switches:
                blocks.append(Para(["Changed by the switch(es) ",
                                    *_joined([Code(w) for w in switches]),
                                    " (spec/variants.toml)."]))
    reruns = [str(m["rerun"]) for m in merged if m.get("rerun")] if merged else (
        [str(s["rerun"])] if s.get("rerun") else [])
    if reruns:
        blocks.append(Heading(2, "Play the run again"))
        blocks.append(Pre(tuple(reruns)))
    blocks += _coverage_blocks(s)
    return blocks


def _joined(parts: Sequence[Code]) -> list[str | Code | Link]:
    out: list[str | Code | Link] = []
    for i, p in enumerate(parts):
        if i:
            out.append(", ")
        out.append(p)
    return out


def _coverage_blocks(s: dict[str, Any]) -> list[Block]:
    blocks: list[Block] = []
    exercise = s.get("exercise")
    if isinstance(exercise, dict) and exercise:
        blocks.append(Heading(2, "Rules exercised"))
        rows: list[tuple[Inline, ...]] = []
        for rule_id, conditions in exercise.items():
            text = _rule_text(str(rule_id))
            title = text[0] if text is not None else ""
            if isinstance(conditions, dict):
                rows += [(Code(str(rule_id)), title, str(cond), str(n))
                         for cond, n in conditions.items()]
            else:
                rows.append((Code(str(rule_id)), title, "", str(conditions)))
        blocks.append(Table(("rule", "title", "condition", "times"), tuple(rows)))
    never = s.get("never_exercised")
    if isinstance(never, list):
        blocks.append(Para("Not reached: none." if not never else
                           ["Not reached: ", *_joined([Code(str(n)) for n in never]), "."]))
    constrained = constraint_words(s.get("deal_constraints"))
    if constrained:
        blocks.append(Para(constrained[0].upper() + constrained[1:] + "."))
    impossible = s.get("impossible")
    if isinstance(impossible, list) and impossible:
        blocks.append(Para(["Impossible under the declared rules (not counted): ",
                            *_joined([Code(str(n)) for n in impossible]), "."]))
    offers = s.get("offers")
    if isinstance(offers, dict) and offers:
        blocks.append(Heading(2, "Illegal actions offered"))
        blocks.append(_count_table(offers, "kind"))
    rare = s.get("rare_paths")
    if isinstance(rare, dict) and rare:
        blocks.append(Heading(2, "Rare situations played"))
        blocks.append(_count_table(rare, "situation"))
    return blocks


# --- writing ----------------------------------------------------------------------------

def render_report(result: ConformResult | dict[str, Any], path: str, draw: Draw | None = None
                  ) -> str:
    """The report of ``result`` as the text of ``path`` (HTML for ``.html``, else Markdown)."""
    blocks = report_blocks(result, draw)
    summary = result.summary if isinstance(result, ConformResult) else result
    if path.lower().endswith(".html"):
        return html_page(blocks, f"Conformance report: {_adapter_name(summary)}")
    return markdown(blocks)
