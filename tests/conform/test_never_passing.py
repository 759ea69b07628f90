"""An engine that differs at the start of every deal still has its later differences found.

An engine that never passes, declared as a first-time implementer declares it
(its player counts only: the runner sends the default rules, which pass every
deal), diverges at the start of every deal. The runner brings it back in step
at the next moment it takes (``spec/protocol.md``, "Divergence classes"): with
positions (protocol version 2) at the first trick, once it has learnt that the
engine refuses a passing position; without (version 1) by following it into
the first trick with the hands it kept. So its games are played to the end, and
the two differences it has later in a deal are found beside the passing one,
each under its own rule. The runs are counted in games, not seconds, so they
play the same games on any machine.
"""

from __future__ import annotations

import pytest

from rules_ref.conform.resync import Moments

from ..fakes.never_passing_adapters import CLASSES, adapter
from .in_process import conform

GAMES = 30


@pytest.mark.parametrize("protocol", [2, 1])
@pytest.mark.rule("PASS.DIRECTION", "VOID.LAST", "MOON.CHOICE")
def test_a_never_passing_engine_plays_whole_games_and_shows_every_later_difference(
        protocol: int) -> None:
    name = "never-passes-void-moon"
    status, summary = conform(lambda: adapter(name, protocol), seed=2, examples=GAMES,
                              shrink_seconds=1.0)
    assert status == 1
    assert summary["games"] == GAMES
    assert summary["games_cut_short"] == 0
    assert sorted((c["rule"], c["what"]) for c in summary["classes"]) == CLASSES[name]
    passing = next(c for c in summary["classes"] if c["rule"] == "PASS.DIRECTION")
    assert passing["games"] == GAMES  # every game begins with a deal the engine does not pass
    # without positions, the reference followed it into the first trick rather than
    # restarting it; with them, it was started again (from trick 1, not while passing)
    assert (summary["resyncs"] == 0) == (protocol == 1)


@pytest.mark.rule("VOID.LAST", "MOON.CHOICE")
def test_a_crash_at_the_position_offered_after_each_start_still_lets_rare_ones_show() -> None:
    # every game differs at its start; the passing position it is then offered makes it
    # answer an internal error, which comes from that position, not from the game: the
    # game goes on from trick 1 (it is not cut short), so the void last trick and the moon
    # it scores otherwise are still reached and named, in the same games as the other
    name = "never-passes-crashing-void-moon"
    status, summary = conform(lambda: adapter(name), seed=2, examples=GAMES, shrink_seconds=1.0)
    assert status == 1
    assert summary["games"] == GAMES
    assert summary["games_cut_short"] == 0
    assert sorted((c["rule"], c["what"]) for c in summary["classes"]) == CLASSES[name]


def test_a_kind_of_moment_refused_three_times_and_never_taken_is_not_offered_again() -> None:
    moments = Moments()
    for _ in range(2):
        moments.note("passing", False)
    assert moments.offered("passing")
    moments.note("passing", False)
    assert not moments.offered("passing") and moments.any_offered()
    moments.note("trick", True)
    for _ in range(5):
        moments.note("trick", False)
    assert moments.offered("trick")  # taken once: a refusal there is the moment's own
