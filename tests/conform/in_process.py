"""Conformance runs against an adapter object answering in the test's own process.

:func:`conform` runs a search as ``rules-ref conform --json`` does and returns its
exit status and its JSON result, with the adapter built by ``build`` each time the
run starts one, answering in this process (:func:`rules_ref.protocol.in_process`).
Only an adapter that changes nothing outside itself runs so: one that replaces the
engine's functions would change the reference the run compares it with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules_ref.conform.outcome import Config
from rules_ref.conform.runner import run_search
from rules_ref.protocol.in_process import in_process
from rules_ref.protocol.reference_adapter import UNANSWERABLE, ReferenceAdapter
from rules_ref.reports.result import run_result


def conform(build: Callable[[], ReferenceAdapter], **config: Any) -> tuple[int, dict[str, Any]]:
    """The exit status and JSON result of a search of ``Config(**config)`` against ``build()``."""
    settings = Config(command=["in-process"], max_seconds=600, timeout=60,
                      connect=in_process(build, UNANSWERABLE))
    for name, value in config.items():
        setattr(settings, name, value)
    result = run_result(run_search(settings), settings, None)
    return result.exit_status, result.to_json()
