"""The differential search (``rules-ref conform``): an implementation played against the reference.

It drives an implementation through its adapter (:mod:`rules_ref.protocol`)
and the reference engine side by side, over games drawn from the run's
seed, and compares every observation field by field. Each disagreement is judged
(:mod:`rules_ref.findings`), its class is shrunk to a minimal game and
written as a replay file; the run's reports are :mod:`rules_ref.reports`.

One game is one adapter conversation: a ``start`` (a deal,
with a ruleset, a deal number, a dealer and totals), then actions until the
game ends or a few deals have been played. The adapter process stays alive
for the whole run; it is restarted only after it died or broke the protocol.

The package, by what each module does:

* :mod:`.runner`: the search, one adapter process and a series of games
  (:class:`Runner`, :func:`run_search`);
* :mod:`.conversation`: drawing and playing one game, decision by decision;
  :mod:`.choosers` (where the decisions come from) and :mod:`.aims` (which
  game reaches a condition of a rule) steer the generation;
* :mod:`.session`: one conversation with the adapter, compared after every
  action; :mod:`.resync` brings the implementation back in step. Its parts:
  :mod:`.played` (the reference's verdict on each action, :mod:`.steps`),
  :mod:`.pipeline` (the requests in flight), :mod:`.judging` (each answer
  against the reference's) and :mod:`.tally` (what a game exercised);
* the starts offered besides the games: :mod:`.refused_tables` (tables the
  rules refuse), :mod:`.edge_tables` (tables at the edge of what they allow),
  :mod:`.position_starts` (starts from a position), :mod:`.illegal_kinds`
  (the illegal actions offered);
* :mod:`.shrink`: every divergence class shrunk to a minimal example, the
  plainest game there is (:mod:`.rebuild` plays its failing game again under a
  plainer setting);
  :mod:`.rerun` plays a replay file again (``--replay``);
* :mod:`.jobs` and :mod:`.shard`: a run spread over processes and machines
  (their results are merged by :mod:`rules_ref.reports.merge`); :mod:`.budget`
  and :mod:`.outcome`: what a run is asked (:class:`Config`) and what it found
  (:class:`Outcome`).

The names below are loaded from their modules on first use, so that a
command that reads one (:mod:`.budget`, :mod:`.shard`) does not load the
search. Like the rest of the package, the search needs the
standard library alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import names_on_first_use

if TYPE_CHECKING:
    from .budget import DEFAULT_MAX_SECONDS as DEFAULT_MAX_SECONDS
    from .budget import SHRINK_SECONDS_MIN as SHRINK_SECONDS_MIN
    from .choosers import Chooser as Chooser
    from .choosers import RulesetDrawer as RulesetDrawer
    from .conversation import MAX_DEALS_PER_GAME as MAX_DEALS_PER_GAME
    from .conversation import MAX_FIRST_DEAL as MAX_FIRST_DEAL
    from .conversation import Conversation as Conversation
    from .edge_tables import edge_starts as edge_starts
    from .jobs import job_seed as job_seed
    from .jobs import merge_jobs as merge_jobs
    from .jobs import run_jobs as run_jobs
    from .outcome import Config as Config
    from .outcome import Outcome as Outcome
    from .outcome import env_seed as env_seed
    from .refused_tables import refused_starts as refused_starts
    from .refused_tables import refused_tables as refused_tables
    from .rerun import replay_document as replay_document
    from .rerun import run_replay as run_replay
    from .runner import Runner as Runner
    from .runner import fewer_collections as fewer_collections
    from .runner import run_search as run_search
    from .session import Session as Session
    from .shard import Shard as Shard
    from .shard import parse_shard as parse_shard
    from .shard import shard_config as shard_config
    from .shrink import shrink_classes as shrink_classes

#: Each public name and the module of this package that defines it.
OWNERS = {
    "DEFAULT_MAX_SECONDS": "budget", "SHRINK_SECONDS_MIN": "budget",
    "Chooser": "choosers", "RulesetDrawer": "choosers",
    "MAX_DEALS_PER_GAME": "conversation", "MAX_FIRST_DEAL": "conversation",
    "Conversation": "conversation",
    "edge_starts": "edge_tables",
    "job_seed": "jobs", "merge_jobs": "jobs", "run_jobs": "jobs",
    "Config": "outcome", "Outcome": "outcome", "env_seed": "outcome",
    "refused_starts": "refused_tables", "refused_tables": "refused_tables",
    "replay_document": "rerun", "run_replay": "rerun",
    "Runner": "runner", "fewer_collections": "runner", "run_search": "runner",
    "Session": "session",
    "Shard": "shard", "parse_shard": "shard", "shard_config": "shard",
    "shrink_classes": "shrink",
}

__all__ = sorted(OWNERS)

__getattr__ = names_on_first_use(__name__, OWNERS)
