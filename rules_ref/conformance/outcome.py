"""What a conformance run was asked to do (:class:`Config`) and what it found (:class:`Outcome`).

Also the fresh seed of a run that was given none (:func:`env_seed`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..ruleset import Ruleset
from .observation import PROTOCOL_VERSIONS
from .process import DEFAULT_TIMEOUT, AdapterFault, Supports
from .session import Failure, Stats

#: The least time a search spends shrinking a failure (seconds).
SHRINK_SECONDS_MIN = 10.0


@dataclass
class Config:
    """What ``rules-ref conform`` was asked to do."""

    command: list[str]
    examples: int = 100
    max_seconds: float = 60.0
    seed: int = 0
    players: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = 1
    ruleset: Ruleset | None = None
    shrink_seconds: float | None = None  # None: half of max_seconds, at least SHRINK_SECONDS_MIN
    #: Actions per batch request; None: :data:`.session.BATCH_SIZE` when the adapter
    #: declares batches, 0: one action request each (as in protocol version 1).
    batch: int | None = None
    #: The protocol versions offered in the hello.
    versions: tuple[int, ...] = PROTOCOL_VERSIONS

    @property
    def shrink_budget(self) -> float:
        if self.shrink_seconds is not None:
            return self.shrink_seconds
        return max(SHRINK_SECONDS_MIN, self.max_seconds / 2)


@dataclass
class Outcome:
    """The result of a search or a replay."""

    stats: Stats
    seconds: float
    supports: Supports | None = None
    failure: Failure | None = None
    fault: AdapterFault | None = None
    notes: list[str] = field(default_factory=list)
    stopped: str = ""  # why the search ended early ("time", "")
    examples_run: int = 0


def env_seed() -> int:
    """A fresh seed for a run that was not given one."""
    return int.from_bytes(os.urandom(4), "big")
