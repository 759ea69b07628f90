"""``rules-ref rules [ID]``: the rule registry of ``spec/rules.toml``.

``--search WORDS`` (or words that are not an ID) finds rules by their
statements, titles and common names (:mod:`.search`). A search that finds
nothing says so and exits with 0: it is an answer, not an error of the input.
"""

from __future__ import annotations

import argparse
import json
import textwrap

from .. import registry
from ..errors import InputError
from ..wording.suggest import offer
from .common import shown

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("rules", "every rule ID with its title, by group"),
    ("rules TRICK.CANCEL", "one rule: its statement, the decision, why, and its source"),
    ("rules --search black maria", "the rules about a word or a common name"),
    ("rules --json", "the whole registry as JSON"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule_id", nargs="?", metavar="ID", help="one rule ID, e.g. TRICK.CANCEL")
    p.add_argument("--search", nargs="+", default=None, metavar="WORD",
                   help="find rules by words: statements, titles and common names "
                        "(black maria, pending pile, widow, shooting the moon); finding none "
                        "is said in a line, with exit status 0")
    p.add_argument("--json", action="store_true", help="print JSON")


def _as_dict(r: registry.Rule) -> dict[str, object]:
    return {"id": r.id, "group": r.group, "title": r.title, "statement": r.statement,
            "decision": r.decision, "settles": list(r.settles), "why": r.why,
            "switches": list(r.switches),
            "sources": [{"seed": s.seed, "sentence": s.sentence, "text": s.text}
                        for s in r.sources]}


def _search(query: str, as_json: bool, note: str = "") -> int:
    from .search import search

    hits = search(query)
    if as_json:
        print(json.dumps({"query": query, "rules": [
            {"id": h.rule.id, "title": h.rule.title, "score": h.score, "matched": h.why}
            for h in hits]}, indent=1, ensure_ascii=False))
        return 0
    if not hits:
        print(f"{note}no rule matches {shown(query, 60)} (`rules-ref rules` lists them all)")
        return 0
    print(f"{note}rules matching {shown(query, 60)}, best first:")
    for h in hits:
        print(f"  {h.rule.id:22} {h.rule.title}  [{h.why}]")
    return 0


def run(args: argparse.Namespace) -> int:
    reg = registry.load()
    rules = reg.rules
    if args.search is not None:
        if args.rule_id is not None:
            raise InputError("give a rule ID or --search WORDS, not both")
        return _search(" ".join(args.search), args.json)
    if args.rule_id is not None:
        wanted = args.rule_id.strip().upper()
        by_id = reg.by_id()
        if wanted not in by_id:
            from .search import search, similar_ids

            if "." not in wanted and search(args.rule_id):
                return _search(args.rule_id, args.json,
                               note=f"{shown(args.rule_id)} is not a rule ID; ")
            raise InputError(f"no rule {shown(args.rule_id)} (see `rules-ref rules`; "
                             "`rules-ref rules --search WORDS` finds rules by words)"
                             f"{offer(similar_ids(wanted))}")
        rules = (by_id[wanted],)
    if args.json:
        print(json.dumps([_as_dict(r) for r in rules], indent=1, ensure_ascii=False))
        return 0
    if args.rule_id is None:
        titles = {g.id: g.title for g in reg.groups}
        group = None
        for r in rules:
            if r.group != group:
                if group is not None:
                    print()
                group = r.group
                print(titles.get(group, group))
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
    if any(s.sentence for s in r.sources):
        print("(`rules-ref sources KEY` explains a source key)")
    return 0
