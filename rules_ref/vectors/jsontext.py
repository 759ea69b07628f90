"""The canonical text of a vector file: deterministic JSON a reviewer can diff.

Keys are sorted, every object of the top levels gets its own lines, short
lists and small objects stay on one line, and the text is ASCII, so that
regenerating unchanged content changes no byte.
"""

from __future__ import annotations

import json
from typing import Any


def _flat(value: object) -> bool:
    """A list written on one line: scalars, or lists of scalars."""
    if not isinstance(value, list):
        return False
    return all(not isinstance(v, dict | list) or (
        isinstance(v, list) and all(not isinstance(w, dict | list) for w in v)) for v in value)


def _inline_dict(value: dict[str, Any]) -> str | None:
    if not all(not isinstance(v, dict | list) or _flat(v) for v in value.values()):
        return None
    text = json.dumps(value, sort_keys=True, separators=(", ", ": "))
    return text if len(text) <= 100 else None


def _fmt(value: object, level: int) -> str:
    pad = " " * (level + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        short = _inline_dict(value) if level > 1 else None
        if short is not None:
            return short
        items = [f"{pad}{json.dumps(k)}: {_fmt(value[k], level + 1)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + " " * level + "}"
    if isinstance(value, list):
        if not value or _flat(value):
            return json.dumps(value, separators=(", ", ": "))
        return "[\n" + ",\n".join(pad + _fmt(v, level + 1) for v in value) + "\n" + \
            " " * level + "]"
    return json.dumps(value)


def dumps(document: object) -> str:
    """The canonical text of a vector file: sorted keys, one object per line, ASCII."""
    return _fmt(document, 0) + "\n"

