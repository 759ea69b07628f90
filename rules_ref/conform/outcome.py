"""What a conformance run was asked to do (:class:`Config`) and what it found (:class:`Outcome`).

Also the fresh seed of a run that was given none (:func:`env_seed`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..findings.expect import Expectation
from ..findings.failure import Failure, Stats
from ..protocol.client import AdapterProcess, Connect
from ..protocol.handshake import Supports
from ..protocol.messages import AdapterFault
from ..protocol.observation import PROTOCOL_VERSIONS
from ..protocol.pipe import DEFAULT_TIMEOUT
from ..ruleset import Ruleset
from .budget import DEFAULT_MAX_SECONDS, shrink_budget

if TYPE_CHECKING:
    from ..findings.classes import Findings



@dataclass
class Config:
    """What ``rules-ref conform`` was asked to do."""

    command: list[str]
    #: Games to play; None: as many as the time budget allows.
    examples: int | None = None
    max_seconds: float = DEFAULT_MAX_SECONDS
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
    #: The declared deviations (``--expect``), and whether one never seen fails the run.
    expect: tuple[Expectation, ...] = ()
    strict: bool = False
    #: ``--first``: end the search after the game of the first unexpected divergence.
    first: bool = False
    #: Whether this run (this shard of it) offers the tables the rules refuse before its
    #: games (:mod:`.refused_tables`): once a run, so only shard 1 of a split run does.
    refused_tables: bool = True
    #: What starts the adapter from ``command`` and ``timeout``: a process running it, or
    #: another connection (:func:`~rules_ref.protocol.in_process.in_process`).
    connect: Connect = AdapterProcess
    #: The ruleset the adapter is told it plays in every ``start``, when it is not the one
    #: the reference plays (``ruleset``): ``rules-ref fit`` asks the adapter for one ruleset
    #: and compares it with the reference under another. ``None``: the reference's.
    told: Ruleset | None = None

    def open_adapter(self) -> AdapterProcess:
        """Start the adapter (``connect``), telling it ``told`` in every start when set."""
        proc = self.connect(self.command, self.timeout)
        if self.told is not None:
            proc.told = self.told.to_dict()
        return proc

    @property
    def shrink_budget(self) -> float:
        return shrink_budget(self.max_seconds, self.shrink_seconds)


@dataclass
class Outcome:
    """The result of a search or a replay."""

    stats: Stats
    seconds: float
    supports: Supports | None = None
    failure: Failure | None = None
    fault: AdapterFault | None = None
    notes: list[str] = field(default_factory=list)
    #: Why the search ended: "time", "fault", "stopped" (another job's fault), "first"
    #: (``--first`` met an unexpected divergence), "": it played its games.
    stopped: str = ""
    examples_run: int = 0
    #: Every divergence class the run saw (None: a replay, or no game was played).
    findings: Findings | None = None
    #: The starts the implementation rejected, judged alone, until their cause is read from
    #: the run's starts (:func:`~rules_ref.findings.start_causes.settle_starts`).
    starts: Findings | None = None


def env_seed() -> int:
    """A fresh seed for a run that was not given one."""
    return int.from_bytes(os.urandom(4), "big")
