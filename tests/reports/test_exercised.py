"""The exercise lines of a conform report: counts that stay within what the run could reach."""

from __future__ import annotations

from collections import Counter

from rules_ref.conform.outcome import Config, Outcome
from rules_ref.findings.failure import Stats
from rules_ref.protocol.handshake import Supports
from rules_ref.reports.exercised import exercise_lines, reachable


def test_a_run_that_exercised_every_condition_it_could_reach_counts_them_all() -> None:
    # a never-passing engine: the passing rules have no condition it can reach, which the
    # report names as rules never exercised; they are no conditions, and take none away
    never_passes = Supports("hold", (8,), {"pass_cycle": [["hold"]]})
    config = Config(["adapter"])
    outcome = Outcome(Stats(), 1.0, never_passes)
    reach = reachable(outcome, config)
    outcome.stats.exercise = Counter(dict.fromkeys(reach, 1))
    head = exercise_lines(outcome, config)[0]
    assert head.endswith(f"conditions exercised: {len(reach)} of {len(reach)} in 1.0 s")
    outcome.stats.exercise = Counter()
    head = exercise_lines(outcome, config)[0]
    assert head.endswith(f"conditions exercised: 0 of {len(reach)} in 1.0 s")
