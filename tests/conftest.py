"""Test configuration: the Hypothesis profiles and the rare-path tally.

Hypothesis profiles, chosen by the environment variable
``RULES_REF_HYPOTHESIS_PROFILE`` (default ``ci``)::

    .venv/bin/pytest tests/properties tests/regressions
    RULES_REF_HYPOTHESIS_PROFILE=thorough .venv/bin/pytest tests/properties

* ``ci``: the default, fast (the property tests take about 15 seconds on a
  quiet machine, twice that measuring coverage) and repeatable.
  ``derandomize=True``: every run tests the same examples (a
  run's outcome depends only on the code), which also makes the rare-path
  proof below deterministic; it implies no example database.
  ``max_examples`` is the budget of a cheap property; each test takes a
  share of it (``tests/properties/__init__.py``), whole deals and the game
  machine included.
* ``thorough``: ten times the examples and three times longer machine runs,
  randomized (new examples every run; failures are kept in the default
  local ``.hypothesis`` database and replayed first next time). For
  hunting bugs, not for CI: it takes several minutes.

Both profiles set ``deadline=None``: a whole deal or game is one example,
and its time varies with the deal. No health check needs suppressing.

The tallies: property tests that play games take the session fixture
``rare_path_tally`` and feed it every applied action
(:class:`rules_ref.conformance.strategies.RarePathTally`), and count the
illegal actions they tried in ``rejection_tally`` (by the rule ID each was
rejected under). The test that takes ``rare_path_report`` is moved to the
end of the session; it asserts that every rare path ran and every kind of
illegal action was tried at least once, and :func:`pytest_terminal_summary`
prints the counts.

Set-ups that are processes start with the session
(:func:`pytest_collection_finish`), beside the tests that come before them.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import settings

from rules_ref.conformance.strategies import RarePathTally

PROFILE_VARIABLE = "RULES_REF_HYPOTHESIS_PROFILE"
PROFILES = ("ci", "thorough")

settings.register_profile("ci", max_examples=200, stateful_step_count=20, derandomize=True,
                          deadline=None, print_blob=True)
settings.register_profile("thorough", max_examples=2000, stateful_step_count=60, deadline=None,
                          print_blob=True)

_profile = os.environ.get(PROFILE_VARIABLE, "ci")
if _profile not in PROFILES:
    raise pytest.UsageError(f"{PROFILE_VARIABLE}={_profile!r} is not a Hypothesis profile; "
                            f"known: {', '.join(PROFILES)}")
settings.load_profile(_profile)

TALLY = pytest.StashKey[RarePathTally]()
REJECTIONS = pytest.StashKey[Counter[str]]()
PRODUCERS = pytest.StashKey[dict[str, str]]()
FEEDS = ("rare_path_tally", "rejection_tally")


class _RarePathPlugin:
    """Tracks the outcome of every test that feeds the tally."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        producers = self.config.stash[PRODUCERS]
        if report.nodeid in producers and (report.when == "call" or report.outcome != "passed"):
            producers[report.nodeid] = report.outcome


def pytest_configure(config: pytest.Config) -> None:
    config.stash[TALLY] = RarePathTally()
    config.stash[REJECTIONS] = Counter()
    config.stash[PRODUCERS] = {}
    config.pluginmanager.register(_RarePathPlugin(config), "rare-path-tally")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the rare-path report last, and note which selected tests feed the tally."""
    def uses(item: pytest.Item, name: str) -> bool:
        return name in getattr(item, "fixturenames", ())

    reports = [i for i in items if uses(i, "rare_path_report")]
    items[:] = [i for i in items if not uses(i, "rare_path_report")] + reports
    config.stash[PRODUCERS] = {i.nodeid: "not run" for i in items
                               if any(uses(i, f) for f in FEEDS) and i not in reports}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the set-ups that are processes as soon as the session knows its tests.

    A test module that defines ``start_in_background(config, beside_other_tests)``
    (the fault runs of ``tests/hostile/test_faults.py``) has it called here, once,
    when one of its tests is selected: its processes then run on the core that
    the tests, run one at a time, leave idle.
    """
    if session.config.option.collectonly:
        return
    items = [item for item in session.items if isinstance(item, pytest.Function)]
    modules = {item.module for item in items}
    for module in sorted(modules, key=lambda m: m.__name__):
        start = getattr(module, "start_in_background", None)
        if callable(start):
            start(session.config, any(item.module is not module for item in items))


@pytest.fixture(scope="session")
def rare_path_tally(pytestconfig: pytest.Config) -> RarePathTally:
    """The session's tally of rare paths; feed it with ``tally.record`` (an observer)."""
    return pytestconfig.stash[TALLY]


@pytest.fixture(scope="session")
def rejection_tally(pytestconfig: pytest.Config) -> Counter[str]:
    """The session's count of illegal actions rejected, by the rule ID they were rejected under."""
    return pytestconfig.stash[REJECTIONS]


@pytest.fixture(scope="session")
def rare_path_report(
        pytestconfig: pytest.Config) -> tuple[RarePathTally, Counter[str], dict[str, str]]:
    """Both tallies and the outcome of every test that fed them (by node ID)."""
    return pytestconfig.stash[TALLY], pytestconfig.stash[REJECTIONS], pytestconfig.stash[PRODUCERS]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int,
                            config: pytest.Config) -> None:
    tally = config.stash.get(TALLY, None)
    if tally is None or not tally.actions:
        return
    terminalreporter.section(f"rare paths exercised (Hypothesis profile {_profile})")
    for line in tally.table().splitlines():
        terminalreporter.write_line(line)
    rejections = config.stash[REJECTIONS]
    if rejections:
        terminalreporter.write_line("illegal actions rejected, by rule: " + ", ".join(
            f"{rule} {count}" for rule, count in sorted(rejections.items())))
