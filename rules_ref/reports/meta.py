"""What a run's report says of the run itself: the kit, the rules, the adapter, the seed, the
budget, the date and the command line.

Every output of ``rules-ref conform`` and ``rules-ref vectors run`` carries it
(``--json``: the object ``meta``; text: one line), so that a report kept in an
implementation's CI says what produced it. A comparison with an earlier run
(:mod:`.baseline`) ignores it: two runs of the same kit, rules and adapter with
the same seed and ``--examples`` report the same findings whatever their dates.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from .merge import rules_version


def kit_version() -> str:
    """The version of the installed ``rules-ref``, or the source tree's when not installed."""
    from importlib import metadata

    from .. import __version__

    try:
        return metadata.version("rules-ref")
    except metadata.PackageNotFoundError:
        return __version__


def run_metadata(argv: Sequence[str], adapter: str | None, command: Sequence[str],
                 seed: int | None = None, budget: Mapping[str, Any] | None = None,
                 now: datetime | None = None) -> dict[str, Any]:
    """The ``meta`` object of a run's JSON report.

    ``argv``: the arguments ``rules-ref`` was given; ``adapter``: the name the
    adapter's hello gave (its version included, as ``"my-engine 2.1"``), or
    None when it gave none; ``command``: the adapter's command; ``budget``:
    the options that bound the run (``max_seconds``, ``examples``).

    >>> meta = run_metadata(["vectors", "run", "--", "./engine"], "my-engine 2.1", ["./engine"],
    ...                     now=datetime(2026, 12, 7, 20, 5, tzinfo=UTC))
    >>> meta["command"], meta["adapter"], meta["date"]
    ('rules-ref vectors run -- ./engine', 'my-engine 2.1', '2026-12-07T20:05:00Z')
    """
    when = (now or datetime.now(UTC)).astimezone(UTC)
    return {"kit": f"rules-ref {kit_version()}", "rules_version": rules_version(),
            "adapter": adapter, "adapter_command": list(command), "seed": seed,
            "budget": dict(budget or {}), "date": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "command": "rules-ref " + shlex.join(argv)}


def meta_line(meta: Mapping[str, Any]) -> str:
    """The metadata on one line of text, as the last line but one of a text report.

    >>> print(meta_line({"kit": "rules-ref 0.1.0", "rules_version": "0123456789ab",
    ...     "adapter": "my-engine 2.1", "seed": 7, "budget": {"max_seconds": 8},
    ...     "date": "2026-12-07T20:05:00Z", "command": "rules-ref conform -- ./e"}))
    ... # doctest: +NORMALIZE_WHITESPACE
    run: rules-ref 0.1.0, rules 0123456789ab, adapter 'my-engine 2.1', seed 7, max_seconds 8,
    2026-12-07T20:05:00Z: rules-ref conform -- ./e
    """
    parts = [str(meta["kit"]), f"rules {meta['rules_version']}",
             f"adapter {meta['adapter']!r}" if meta.get("adapter") else "adapter unnamed"]
    if meta.get("seed") is not None:
        parts.append(f"seed {meta['seed']}")
    parts.extend(f"{key} {value:g}" if isinstance(value, float) else f"{key} {value}"
                 for key, value in (meta.get("budget") or {}).items() if value is not None)
    parts.append(str(meta["date"]))
    return f"run: {', '.join(parts)}: {meta['command']}"
