"""``rules-ref rules [ID]``: the rule registry of ``spec/rules.toml``."""

from __future__ import annotations

import argparse
import json
import textwrap

from .. import registry
from ..errors import InputError
from .common import shown


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule_id", nargs="?", metavar="ID", help="one rule ID, e.g. TRICK.CANCEL")
    p.add_argument("--json", action="store_true", help="print JSON")


def _as_dict(r: registry.Rule) -> dict[str, object]:
    return {"id": r.id, "group": r.group, "title": r.title, "statement": r.statement,
            "decision": r.decision, "settles": list(r.settles), "why": r.why,
            "switches": list(r.switches),
            "sources": [{"seed": s.seed, "sentence": s.sentence, "text": s.text}
                        for s in r.sources]}


def run(args: argparse.Namespace) -> int:
    reg = registry.load()
    rules = reg.rules
    if args.rule_id is not None:
        wanted = args.rule_id.strip().upper()
        by_id = reg.by_id()
        if wanted not in by_id:
            close = [i for i in by_id if wanted.split(".")[0] in i][:6]
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise InputError(f"no rule {shown(args.rule_id)}{hint} (see `rules-ref rules`)")
        rules = (by_id[wanted],)
    if args.json:
        print(json.dumps([_as_dict(r) for r in rules], indent=1, ensure_ascii=False))
        return 0
    if args.rule_id is None:
        titles = {g.id: g.title for g in reg.groups}
        group = None
        for r in rules:
            if r.group != group:
                group = r.group
                print(f"\n{titles.get(group, group)}")
            print(f"  {r.id:22} {r.title}")
        return 0
    r = rules[0]
    print(f"{r.id}: {r.title}\n")
    print(textwrap.fill(" ".join(r.statement.split()), 78))
    if r.switches:
        print(f"\nVariant switches: {', '.join(r.switches)} (spec/variants.toml)")
    print(f"\nDecision {r.decision}; settles {', '.join(r.settles) or '-'}")
    if r.why:
        print(textwrap.fill("Why: " + " ".join(r.why.split()), 78))
    for s in r.sources:
        if s.text:
            print(textwrap.fill(f"Source ({s.sentence}): \"{s.text}\"", 78))
    return 0
