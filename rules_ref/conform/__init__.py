"""The differential conformance runner (``rules-ref conform``): its public names in one place.

It drives an implementation through its adapter (``spec/protocol.md``) and
the reference engine side by side, over games that Hypothesis generates,
and compares every observation field by field. A disagreement is shrunk by
Hypothesis to a minimal game (fewest deals and actions), attributed to the
rules it falls under (:mod:`~rules_ref.findings.attribution`) and written as a replay file.

One Hypothesis example is one adapter conversation: a ``start`` (a deal,
with a ruleset, a deal number, a dealer and totals), then actions until the
game ends or a few deals have been played. The adapter process stays alive
for the whole run; it is restarted only after it died or broke the protocol.

The work is split by responsibility: the adversarial deals
(:mod:`~rules_ref.strategies.crafted`), drawing and playing one game
(:mod:`.conversation`), the search (:mod:`~rules_ref.conform.runner`), parallel jobs
(:mod:`.jobs`), the tables the rules refuse, offered once a run before the
games (:mod:`.refused_tables`), replay files (:mod:`~rules_ref.conform.rerun`) and the reports
(:mod:`~rules_ref.reports.text`); :mod:`.outcome` holds what a run
is asked and what it found. This module re-exports their public names.
The rare situations a run went through are counted with
:func:`~rules_ref.strategies.rare_paths`.

This module needs Hypothesis (the ``conform`` extra).
"""

from __future__ import annotations

from ..findings.failure import Failure as Failure
from ..findings.replay import MAX_REPLAY_ACTIONS as MAX_REPLAY_ACTIONS
from ..findings.replay import REPLAY_FORMAT as REPLAY_FORMAT
from ..findings.replay import REPLAY_VERSION as REPLAY_VERSION
from ..findings.replay import read_replay as read_replay
from ..protocol.handshake import Supports as Supports
from ..protocol.handshake import parse_supports as parse_supports
from ..protocol.observation import PROTOCOL_VERSIONS as PROTOCOL_VERSIONS
from ..reports.text import RARE_PATHS as RARE_PATHS
from ..reports.text import format_failure as format_failure
from ..reports.text import rate as rate
from ..reports.text import summary_dict as summary_dict
from ..strategies.crafted import cancelling_suit_deal as cancelling_suit_deal
from ..strategies.crafted import forced_heart_deal as forced_heart_deal
from ..strategies.crafted import mirror_deal as mirror_deal
from ..strategies.crafted import moon_deal as moon_deal
from ..strategies.crafted import penalty_leader_deal as penalty_leader_deal
from .budget import SHRINK_SECONDS_MIN as SHRINK_SECONDS_MIN
from .choosers import Chooser as Chooser
from .choosers import RulesetDrawer as RulesetDrawer
from .conversation import MAX_DEALS_PER_GAME as MAX_DEALS_PER_GAME
from .conversation import MAX_FIRST_DEAL as MAX_FIRST_DEAL
from .conversation import Conversation as Conversation
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
