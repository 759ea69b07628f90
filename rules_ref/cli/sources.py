"""``rules-ref sources [KEY]``: what the source keys of the spec (K10, WP-cur, ...) stand for.

The explanations are data, in ``spec/sources.toml``; with a key, the rules
that cite it are listed too.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap

from .. import registry
from ..errors import InputError
from ..wording.suggest import did_you_mean
from .common import shown

#: The examples at the end of ``--help`` (:mod:`.help`).
HELP_EXAMPLES = (
    ("sources", "every source key the rules cite"),
    ("sources WP-cur", "what one source key stands for"),
    ("sources K10", "the seed sentence K10"),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", nargs="?", metavar="KEY",
                   help="a source key (WP-cur, BIC, ...) or seed sentence ID (K10, SC4, ...)")
    p.add_argument("--json", action="store_true", help="print JSON")


def citing_rules(key: registry.SourceKey) -> list[str]:
    """The rules that cite ``key``: by sentence ID, seed file, or by name in their reasons."""
    out = []
    pattern = re.compile(rf"(?<![\w-]){re.escape(key.key)}(?![\w-])")
    for r in registry.load().rules:
        if key.kind == "sentence":
            hit = any(s.sentence == key.key for s in r.sources)
        elif key.kind == "seed file":
            hit = any(key.key in s.seed.split() for s in r.sources)
        else:
            hit = bool(pattern.search(r.why) or pattern.search(r.statement))
        if hit:
            out.append(r.id)
    return out


def run(args: argparse.Namespace) -> int:
    keys = registry.source_keys()
    if args.key is not None:
        wanted = args.key.strip().lower()
        found = [k for k in keys if k.key.lower() == wanted]
        if not found:
            hint = did_you_mean(args.key, [k.key for k in keys])
            raise InputError(f"no source key {shown(args.key)} (`rules-ref sources` lists "
                             f"them){hint}")
        keys = tuple(found)
    if args.json:
        print(json.dumps([{"key": k.key, "kind": k.kind, "title": k.title, "text": k.text,
                           "url": k.url, "rules": citing_rules(k)} for k in keys],
                         indent=1, ensure_ascii=False))
        return 0
    if args.key is None:
        print("Published sources (cited in the rules' reasons and the presets):")
        for k in keys:
            if k.kind == "source":
                print(f"  {k.key:10} {k.title}")
        print("\nSeed files (four machine translations of the SEED article):")
        for k in keys:
            if k.kind == "seed file":
                print(f"  {k.key}  {k.title}")
        print("\nSeed sentences (the reconstructed English text, cited as `sentence`):")
        for k in keys:
            if k.kind == "sentence":
                print("  " + textwrap.shorten(f"{k.key:4} {k.title}: {k.text}", 98,
                                              placeholder=" …"))
        print("\n`rules-ref sources KEY` explains one key and lists the rules citing it.")
        return 0
    k = keys[0]
    if k.kind == "source":
        print(f"{k.key}: {k.title}")
        if k.url:
            print(f"  read at {k.url}")
        print(textwrap.fill(k.text, 78, initial_indent="  ", subsequent_indent="  "))
    elif k.kind == "seed file":
        print(f"{k.key}: the {k.title} machine translation of the seed article (SEED)")
    else:
        print(f"{k.key}: a sentence of the seed article, section {k.title}:")
        print(textwrap.fill(f'"{k.text}"', 78, initial_indent="  ", subsequent_indent="  "))
    rules = citing_rules(k)
    print(f"Cited by: {', '.join(rules) if rules else 'no rule'}")
    return 0
