"""Conformance runs against an adapter object answering in the test's own process.

:func:`conform` runs a search as ``rules-ref conform --json`` does and returns its
exit status and its JSON result; while :func:`answering_in_process` is open,
``rules-ref conform`` itself (:func:`rules_ref.cli.main`) runs so, whatever adapter
command it is given. Either way the adapter is ``build()``, made afresh each time
the run starts one, answering in this process (:func:`rules_ref.protocol.in_process`).
Only an adapter that changes nothing outside itself runs so: one that replaces the
engine's functions would change the reference the run compares it with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest

from rules_ref.conform import outcome
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


@contextmanager
def answering_in_process(build: Callable[[], ReferenceAdapter]) -> Iterator[None]:
    """While open, every run ``rules-ref conform`` configures talks to ``build()`` in this
    process instead of starting its command."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outcome, "Config", partial(Config, connect=in_process(build, UNANSWERABLE)))
        yield
