"""The syntactic rewrites that let Mono's C# compiler (mcs, C# 7) build the crcowan engine.

The engine is written for .NET 10 (C# 9 and later). Three of the newer forms it uses have an
exact C# 7 spelling, and this module rewrites each of them at build time, in a scratch copy,
counting how often each rewrite applies:

- ``record``: a positional record ``record Card(Suit Suit, Rank Rank) : IComparable<Card> { … }``
  becomes a class with the same read-only properties and constructor and the value equality a
  record has (``Equals``, ``GetHashCode``, ``==`` and ``!=`` comparing every property). The
  engine relies on it: ``hand.Contains(card)`` and ``hand.Remove(card)`` find a card by value.
  A record's synthesized ``ToString`` is not written (the engine's record overrides it).
- ``new()``: a target-typed ``new()`` in a field or property initializer
  (``List<Card> Hand { get; set; } = new();``) names the declared type (``= new List<Card>();``).
- ``nullable``: the ``?`` of a nullable reference type annotation (``Card? other``,
  ``string? ShooterOfMoonId``) is dropped; it changes nothing at run time. A ``?`` after a value
  type (``int?``, an enum of the sources) is kept, since it makes a different type there.

Nothing else is changed; a form this module does not know is left for the compiler to refuse,
so that the build fails, naming it, rather than running something else.
Usage: ``python3 rewrite.py SRC_DIR OUT_DIR FILE…`` prints the counts as JSON.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

RECORD = re.compile(
    r"(?P<mods>\b(?:public|internal|sealed)\s+)*record\s+(?P<name>\w+)\s*"
    r"\((?P<params>[^)]*)\)\s*(?::\s*(?P<bases>[^{;]+?))?\s*\{"
)
TARGET_NEW = re.compile(
    r"(?P<type>\b[A-Za-z_][\w.]*(?:<[^;={}()]*>)?)\s+(?P<name>\w+)\s*"
    r"(?P<accessors>\{\s*get;\s*set;\s*\})?\s*=\s*new\(\)"
)
VALUE_TYPES = {
    "bool",
    "byte",
    "char",
    "decimal",
    "double",
    "float",
    "int",
    "long",
    "sbyte",
    "short",
    "uint",
    "ulong",
    "ushort",
    "Guid",
    "DateTime",
    "TimeSpan",
}
DECLARED = re.compile(r"\b(?P<kind>class|record|struct|enum|interface)\s+(?P<name>\w+)")


def _record_class(match: re.Match[str]) -> str:
    name = match["name"]
    params = [p.split() for p in match["params"].split(",") if p.strip()]
    bases = [f"System.IEquatable<{name}>"] + ([match["bases"].strip()] if match["bases"] else [])
    lines = [f"public class {name} : {', '.join(bases)}", "{"]
    for ptype, pname in params:
        lines.append(f"    public {ptype} {pname} {{ get; }}")
    args = ", ".join(f"{t} {n}" for t, n in params)
    sets = " ".join(f"this.{n} = {n};" for _, n in params)
    lines.append(f"    public {name}({args}) {{ {sets} }}")
    same = " && ".join(
        f"System.Collections.Generic.EqualityComparer<{t}>.Default.Equals({n}, other.{n})"
        for t, n in params
    )
    lines.append(
        f"    public bool Equals({name} other) => !ReferenceEquals(other, null) && {same};"
    )
    lines.append(f"    public override bool Equals(object obj) => Equals(obj as {name});")
    hashes = " ".join(
        f"h = h * 31 + System.Collections.Generic.EqualityComparer<{t}>.Default.GetHashCode({n});"
        for t, n in params
    )
    lines.append(
        "    public override int GetHashCode() { unchecked { int h = 17; "
        f"{hashes} return h; }} }}"
    )
    lines.append(
        f"    public static bool operator ==({name} a, {name} b) => "
        "ReferenceEquals(a, b) || (!ReferenceEquals(a, null) && a.Equals(b));"
    )
    lines.append(f"    public static bool operator !=({name} a, {name} b) => !(a == b);")
    return "\n".join(lines)


def value_types(texts: list[str]) -> set[str]:
    """The value types a ``?`` may follow: the built-in ones and the structs and enums declared."""
    declared = {
        m["name"] for t in texts for m in DECLARED.finditer(t) if m["kind"] in ("struct", "enum")
    }
    return VALUE_TYPES | declared


def rewrite(text: str, values: set[str], counts: Counter[str]) -> str:
    """One source text with every rewrite applied; ``counts`` gains how often each applied."""
    text, n = RECORD.subn(_record_class, text)
    counts["record"] += n

    def typed_new(m: re.Match[str]) -> str:
        accessors = f" {m['accessors']}" if m["accessors"] else ""
        return f"{m['type']} {m['name']}{accessors} = new {m['type']}()"

    text, n = TARGET_NEW.subn(typed_new, text)
    counts["new()"] += n

    def nullable(m: re.Match[str]) -> str:
        if m["type"] in values:
            return m[0]
        counts["nullable"] += 1
        return m["type"] + m["after"]

    text = re.sub(r"(?P<type>\b[A-Za-z_]\w*)\?(?P<after>\s+[A-Za-z_])", nullable, text)
    return text


def main(argv: list[str]) -> int:
    src, out, *files = argv
    texts = {f: (Path(src) / f).read_text(encoding="utf-8-sig") for f in files}
    values = value_types(list(texts.values()))
    counts: Counter[str] = Counter({"record": 0, "new()": 0, "nullable": 0})
    for name, text in texts.items():
        target = Path(out) / Path(name).name
        target.write_text(rewrite(text, values, counts), encoding="utf-8")
    print(json.dumps(dict(counts), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
