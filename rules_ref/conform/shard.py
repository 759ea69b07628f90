"""Shards of a conformance run (``--shard K/N``): which part of a run one machine plays.

A run is its seed, its games (``--examples``) and its time budget. Shard
``K/N`` plays from a seed of its own, derived from the run's seed, ``K``
and ``N`` (:func:`shard_seed`), so that the ``N`` shards of one seed play
different games; the same seed and ``N`` always give the same shards.
With ``--examples`` it plays ``K``'s share of the games (split as evenly as
whole numbers allow, the first shards taking one more), so that the shards
together play as many as the whole run. Each shard has the whole time
budget: the shards run side by side on different machines, so ``N``
time-bound shards play about as many games as one run ``N`` times as long.
Inside a shard, ``--jobs`` splits the shard's work again, each job with its
own seed (:func:`.jobs.job_seed` of the shard's seed). Shard ``1/1`` is
the whole run, seed unchanged. Only shard 1 (and in it only job 0) offers
the tables the rules refuse (:mod:`.refused_tables`), so that a split run
offers them once, as the whole run does.

:func:`rules_ref.reports.merge.merge_results` puts the shards' JSON
results back together.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace

from ..errors import InputError
from .outcome import Config

#: The most shards a run is split into (spec/limits.md).
MAX_SHARDS = 10_000

_SHARD = re.compile(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*")


@dataclass(frozen=True, slots=True)
class Shard:
    """Shard ``index`` of ``count`` (both from 1)."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def games(self, total: int) -> int:
        """This shard's share of ``total`` games (at least one)."""
        share = total // self.count + (1 if self.index - 1 < total % self.count else 0)
        return max(1, share)

    def seed(self, run_seed: int) -> int:
        return shard_seed(run_seed, self.index, self.count)


def parse_shard(text: str) -> Shard:
    """``K/N`` with ``1 <= K <= N <= MAX_SHARDS``; anything else raises :class:`InputError`."""
    shown = text if len(text) <= 20 else text[:20] + "…"
    found = _SHARD.fullmatch(text)
    if found is None:
        raise InputError(f"--shard {shown!r}: expected K/N, shard K of N (for example 2/4)")
    index, count = int(found.group(1)), int(found.group(2))
    if not 1 <= count <= MAX_SHARDS:
        raise InputError(f"--shard {shown!r}: the number of shards must be from 1 to "
                         f"{MAX_SHARDS}")
    if not 1 <= index <= count:
        raise InputError(f"--shard {shown!r}: there is no shard {index} of {count} "
                         f"(shards are numbered 1 to {count})")
    return Shard(index, count)


def shard_seed(run_seed: int, index: int, count: int) -> int:
    """The seed shard ``index`` of ``count`` plays with: the run's own for ``1/1``.

    A digest of the three numbers, so that no two shards of any runs share a
    seed by arithmetic accident, and every machine computes the same one.
    """
    if count == 1:
        return run_seed
    digest = hashlib.sha256(f"conform-shard:{run_seed}:{index}/{count}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def shard_config(config: Config, shard: Shard | None) -> Config:
    """The configuration shard ``shard`` of the run ``config`` plays (``config`` if none)."""
    if shard is None:
        return config
    games = None if config.examples is None else shard.games(config.examples)
    # the tables the rules refuse are offered once a run: by its first shard
    return replace(config, seed=shard.seed(config.seed), examples=games,
                   refused_tables=config.refused_tables and shard.index == 1)
