"""The implementations page: the report of ``make peers`` (docs/reports/implementations.json).

``.. implementations-report::`` draws the JSON that ``peers/report.py`` writes, and nothing
else: the matrix of engines by rule group, then for each engine its speed, the rules where it
differs, each bug with its shrunk example drawn as the other pages draw a trick (the trick on
the table and the card at fault, resolved by the reference), what its harness cannot reach,
its preset and expectations file, and the commands that reproduce the report. An engine the
report skipped is shown as skipped, with the reason and how to supply it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes  # type: ignore[import-untyped]
from sphinx.util.docutils import SphinxDirective

from rules_ref.cards import parse_cards
from rules_ref.tricks import resolve_trick

from .render import cards_inline, para, rule, trick_row
from .variants import _table

REPORT = Path("reports") / "implementations.json"
Json = dict[str, Any]


def _counts(counts: dict[str, int] | None, statuses: list[str]) -> nodes.paragraph:
    if counts is None:
        return para("skipped", classes=["ch-note"])
    return para(", ".join(f"{counts[s]} {s}" for s in statuses if counts.get(s)))


def _section(title: str, ids: str) -> nodes.section:
    section = nodes.section(ids=[ids])
    section += nodes.title(title, title)
    return section


def _literal(text: str) -> nodes.literal_block:
    block = nodes.literal_block(text, text)
    block["language"] = "text"
    return block


def _verb(kind: object) -> str:
    return {"pass": "passes", "play": "plays", "moon": "chooses", "deal": "deals"}.get(
        str(kind), str(kind))


def _holds(pos: Json, seat: object, words: str) -> list[nodes.Node]:
    hands = pos.get("hands") or []
    if not isinstance(seat, int) or not 0 <= seat < len(hands) or not hands[seat]:
        return []
    return [para(words, cards_inline(parse_cards(hands[seat])))]


def _hands(pos: Json, action: Json, fields: list[str]) -> list[nodes.Node]:
    """The hands an example turns on: the seat whose legal cards differ, or the seat of a pass
    (or of a play with no trick on the table) with the cards of its action."""
    kind, seat = action.get("type"), action.get("seat")
    if kind == "pass" or (kind == "play" and pos.get("phase") != "playing"):
        mine = action.get("cards") or [action.get("card")]
        return [*_holds(pos, seat, f"Seat {seat} holds: "),
                para(f"It {'passes' if kind == 'pass' else 'plays'}: ",
                     cards_inline(parse_cards(mine)))]
    if "legal" not in fields or pos.get("phase") != "playing":
        return []
    if not action:  # the legal cards of the seat to act, right at the start
        nxt = pos.get("to_act")
    elif kind == "play" and isinstance(seat, int) and len(pos.get("trick") or []) + 1 < \
            pos["players"]:
        nxt = (seat + 1) % pos["players"]  # the seat to play after it
    else:
        return []
    return _holds(pos, nxt, f"Seat {nxt}, to play, holds: ")


def _example(ex: Json, engine: str) -> list[nodes.Node]:
    """A bug's example: the trick at the moment of the fault, the action, both answers."""
    out: list[nodes.Node] = []
    pos = ex.get("position") or {}
    action = ex.get("action") or {}
    trick = list(pos.get("trick") or [])
    if pos.get("phase") == "playing" and pos.get("leader") is not None:
        shown = trick + ([action["card"]] if action.get("type") == "play" else [])
        if shown:
            cards, players, leader = parse_cards(shown), pos["players"], pos["leader"]
            seats = [(leader + i) % players for i in range(len(cards))]
            winner = None
            if len(cards) == players:  # the trick complete: resolved by the reference
                outcome = resolve_trick(cards, leader, players)
                cancelled = tuple(outcome.cancelled)
                if outcome.winner is not None:
                    winner = seats.index(outcome.winner)
            else:  # two identical cards already on the table cancel
                cancelled = tuple(c for c in dict.fromkeys(cards) if cards.count(c) == 2)
            out.append(trick_row(cards, seats, cancelled, winner))
    out.extend(_hands(pos, action, ex.get("fields") or []))
    where = (f"deal {pos.get('deal_number')}, {pos.get('phase')}"
             + (f", trick {pos['trick_number']}" if pos.get("trick_number") else "")
             if pos else "")
    if action:
        out.append(para(f"{where}: seat {action.get('seat')} {_verb(action.get('type'))} "
                        f"{action.get('card') or ' '.join(action.get('cards') or [])}."))
    out.append(para(f"The rules: {json.dumps(ex.get('expected'), ensure_ascii=False)}; the "
                    f"engine: {json.dumps(ex.get('actual'), ensure_ascii=False)}."))
    if pos.get("position_text"):
        out.append(para("Position: ", nodes.literal(pos["position_text"], pos["position_text"])))
    if ex.get("replay"):
        again = f"rules-ref conform --replay {ex['replay']} -- python3 peers/adapter.py {engine}"
        out.append(para("Played again by ", nodes.literal(again, again), "."))
    return out


def _rules(ids: list[str]) -> list[nodes.Node | str]:
    out: list[nodes.Node | str] = []
    for i, rid in enumerate(ids):
        out += [", "] if i else []
        out.append(rule(rid))
    return out


class ImplementationsReportDirective(SphinxDirective):
    """``.. implementations-report::``: the report of ``make peers``, drawn."""

    def run(self) -> list[nodes.Node]:
        path = Path(self.env.srcdir) / REPORT
        self.env.note_dependency(str(path))
        try:
            doc: Json = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise self.error(f"implementations-report: cannot read {REPORT}: {exc}") from None
        statuses: list[str] = doc["statuses"]
        engines: list[Json] = doc["engines"]
        out: list[nodes.Node] = []
        header = ["Rule group", *(e["engine"] for e in engines)]
        rows = [[para(g["title"]), *(_counts(g["engines"][e["engine"]], statuses) for e in engines)]
                for g in doc["groups"]]
        matrix = _section("The matrix", "implementations-matrix")
        matrix += para("For each rule group, how many of its rules each engine agrees with, "
                       "differs from by a declared switch value, breaks (a bug), or cannot be "
                       "made to reach through its harness.", classes=["ch-note"])
        matrix += _table([20] + [20] * len(engines), header, rows, classes=["ch-matrix"])
        out.append(matrix)
        for e in engines:
            out.append(self._engine(e))
        return out

    def _engine(self, e: Json) -> nodes.section:
        section = _section(e["engine"], f"implementation-{e['engine']}")
        section += para(f"{e['repository']} at commit {e['commit'][:7]}.")
        if e["status"] != "checked":
            section += para(f"Skipped: {e['reason']}.")
            section += para(f"To supply it: {e['how']}.")
            return section
        speed = e["speed"]
        section += para(f"Under its preset: {speed['deals_per_second']} deals/s "
                        f"({speed['deals']} deals in {speed['seconds']} s on the machine that "
                        "wrote the report).")
        rows = [[para(rule(rid)), para(m["status"]),
                 para("; ".join(m["notes"]) + (f" (switch {', '.join(m['switches'])})"
                                                if m["switches"] else ""))]
                for rid, m in e["matrix"].items() if m["status"] != "agrees"]
        section += para("Every rule not listed agrees.", classes=["ch-note"])
        if e.get("unseen_note"):
            section += para(e["unseen_note"])
        section += _table([18, 12, 50], ["Rule", "Status", "What"], rows)
        bugs = _section("Bugs", f"implementation-{e['engine']}-bugs")
        if not e["bugs"]:
            bugs += para("None known: under its preset the kit finds no divergence.")
        for b in e["bugs"]:
            item = nodes.container(classes=["ch-bug"])
            also = [r for r in b.get("rules", []) if r != b["rule"]]
            seen = (f"Seen {b['count']} times in the preset run" if b["seen"]
                    else "Not seen in the preset run")
            item += para(rule(b["rule"]), f" ({b['id']}): {b['words']}. Cause: {b['file']}, "
                         f"{b['function']}: {b['why']}. {seen}",
                         *([", also under ", *_rules(also)] if also else []), ".")
            if b.get("vectors"):
                item += para(f"Vectors it fails under the preset: {', '.join(b['vectors'])}.")
            if b.get("example"):
                item.extend(_example(b["example"], e["engine"]))
            bugs += item
        section += bugs
        reach = _section("Not reachable", f"implementation-{e['engine']}-unreachable")
        for u in e["unreachable"] or [{"words": "nothing", "why": "every position can be set"}]:
            reach += para(f"{u['words']}: {u['why']}.")
            if u.get("vectors"):
                reach += para(f"Vectors it fails under the preset: {', '.join(u['vectors'])}.")
        section += reach
        odd = [v for v in e.get("vectors", []) if v["status"] not in ("bug", "not reachable")]
        if odd:
            vectors = _section("Vectors not as listed", f"implementation-{e['engine']}-vectors")
            for v in odd:
                vectors += para(f"{v['case']}: {v['status']}.")
            section += vectors
        preset = _section("Preset and expectations", f"implementation-{e['engine']}-preset")
        preset += para(f"Preset {e['engine']} sets "
                       f"{json.dumps(e['preset']['values'], ensure_ascii=False)}.")
        preset += para(e["preset"]["note"])
        expect = Path(self.env.srcdir).parent / "peers" / e["engine"] / "expect.json"
        if expect.exists():
            self.env.note_dependency(str(expect))
            preset += para(f"Its expectations file, peers/{e['engine']}/expect.json:")
            preset += _literal(expect.read_text(encoding="utf-8"))
        section += preset
        again = _section("Reproduce", f"implementation-{e['engine']}-reproduce")
        again += _literal("\n".join(e["reproduce"]))
        section += again
        return section
