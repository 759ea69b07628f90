"""Test configuration: the Hypothesis profiles and the rare-path tally.

Hypothesis profiles, chosen by the environment variable
``RULES_REF_HYPOTHESIS_PROFILE`` (default ``ci``)::

    .venv/bin/pytest tests/properties tests/regressions
    RULES_REF_HYPOTHESIS_PROFILE=thorough .venv/bin/pytest tests/properties

* ``ci``: the default, fast (100 examples, Hypothesis's own default; the
  property tests take about 30 seconds of one core) and repeatable.
  ``derandomize=True``: every run tests the same examples (a
  run's outcome depends only on the code), which also makes the rare-path
  proof below deterministic; it implies no example database.
  ``max_examples`` is the budget of a cheap property; each test takes a
  share of it (``tests/properties/__init__.py``), whole deals and the game
  machine included. The proof does not rest on the budget: the tests that
  feed it run the hand-made positions of ``tests/properties/crafted.py``
  first, which meet every rare path.
* ``thorough``: twenty times the examples and three times longer machine runs,
  randomized (new examples every run; failures are kept in the default
  local ``.hypothesis`` database and replayed first next time). For
  hunting bugs, not for CI: it takes several minutes.

Both profiles set ``deadline=None``: a whole deal or game is one example,
and its time varies with the deal. No health check needs suppressing.

The tallies: property tests that play games take the session fixture
``rare_path_tally`` and feed it every applied action
(:class:`rules_ref.strategies.RarePathTally`), and count the
illegal actions they tried in ``rejection_tally`` (by the rule ID each was
rejected under). The test that takes ``rare_path_report`` is moved to the
end of the session; it asserts that every rare path ran and every kind of
illegal action was tried at least once, and :func:`pytest_terminal_summary`
prints the counts.

Set-ups that are processes start with the session
(:func:`pytest_collection_finish`), beside the tests that come before them.

Parallel runs (``pytest -n 2``, as ``make pytest`` does; ``--dist loadgroup`` is
in the ``addopts`` of ``pyproject.toml``): every test module is one unit of work,
run whole on one worker, so a module's fixtures are set up once; the modules with
a test that feeds a tally or takes ``rare_path_report`` form one unit together,
so the tallies the proof reads are the whole session's and the proof still runs
last after them. A test may name its own ``xdist_group``. The tallies and the
proof need that scheduling: another ``--dist`` mode with the proof selected is
refused. On a worker, the set-ups that are processes start with their first test.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections import Counter
from typing import Any

import pytest
from hypothesis import settings

from rules_ref.strategies import RarePathTally

from . import parallel, untraced

PROFILE_VARIABLE = "RULES_REF_HYPOTHESIS_PROFILE"
PROFILES = ("ci", "thorough")

settings.register_profile("ci", max_examples=100, stateful_step_count=20, derandomize=True,
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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Run a test marked ``untraced`` with coverage stopped (:mod:`tests.untraced`)."""
    if item.get_closest_marker(untraced.MARKER) is None:
        yield
        return
    with untraced.untraced():
        yield


def _ignore(name: str) -> None:
    """A package that fails to import: left to the tests that import it."""


def pytest_sessionstart(session: pytest.Session) -> None:
    """Import every module of the package while coverage measures, when it does.

    A module first imported by a test that runs untraced (:mod:`tests.untraced`) would
    have its module-level lines (imports, constants, ``def`` statements) counted as
    missed, though every import runs them. A module that fails to import is left to the
    tests that import it, which report it as an error of their own (not an internal
    error of the session). Without coverage, nothing is imported ahead: a run of a few
    tests imports only what they need.
    """
    if not untraced.measuring():
        return
    import importlib
    import pkgutil

    import rules_ref

    for module in pkgutil.walk_packages(rules_ref.__path__, "rules_ref.", onerror=_ignore):
        if not module.name.endswith(".__main__"):
            with contextlib.suppress(Exception):
                importlib.import_module(module.name)


def pytest_configure(config: pytest.Config) -> None:
    config.stash[TALLY] = RarePathTally()
    config.stash[REJECTIONS] = Counter()
    config.stash[PRODUCERS] = {}
    config.pluginmanager.register(_RarePathPlugin(config), "rare-path-tally")


#: The tests that feed the tallies, kept until their final node IDs are known.
_FEEDERS = pytest.StashKey[list[pytest.Item]]()
#: The controller's folder where the workers list the tallied modules (tests/parallel.py).
_TALLIED_DIR = pytest.StashKey[str]()
#: Set on a worker whose tallies may not hold the whole run (another --dist mode).
_SPLIT = pytest.StashKey[str]()
#: The rare-path table each worker of a parallel run sent back, for the summary.
_WORKER_TABLES = pytest.StashKey[list[str]]()


def _on_worker(config: pytest.Config) -> bool:
    """True in a worker process of a parallel run (pytest-xdist)."""
    return hasattr(config, "workerinput")


def _uses(item: pytest.Item, name: str) -> bool:
    return name in getattr(item, "fixturenames", ())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the rare-path report last, note which selected tests feed the tally, and (on a
    worker of a parallel run) tell the controller which modules feed or read it."""
    reports = [i for i in items if _uses(i, "rare_path_report")]
    items[:] = [i for i in items if not _uses(i, "rare_path_report")] + reports
    feeders = [i for i in items if any(_uses(i, f) for f in FEEDS) and i not in reports]
    config.stash[_FEEDERS] = feeders
    if not _on_worker(config):
        return
    workerinput: dict[str, Any] = config.workerinput  # type: ignore[attr-defined]
    folder = workerinput.get(parallel.TALLIED_DIR)
    if folder is None:
        config.stash[_SPLIT] = "this parallel run does not keep them on one worker"
        return
    parallel.write_tallied(folder, workerinput["workerid"],
                           {parallel.module_of(i.nodeid) for i in [*reports, *feeders]})


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Give each worker of a parallel run the folder where it lists the tallied modules."""
    config: pytest.Config = node.config
    if config.getvalue("dist") != "loadfile":
        return
    if _TALLIED_DIR not in config.stash:
        folder = tempfile.mkdtemp(prefix="rules-ref-tallied-")
        config.stash[_TALLIED_DIR] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    node.workerinput[parallel.TALLIED_DIR] = config.stash[_TALLIED_DIR]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``, with the modules that feed or read the tallies as one unit."""
    if config.getvalue("dist") != "loadfile" or _TALLIED_DIR not in config.stash:
        return None
    return parallel.scheduler(config, log, config.stash[_TALLIED_DIR])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object | None) -> None:
    """Keep the rare-path table a worker sent back, for the summary."""
    table = getattr(node, "workeroutput", {}).get("rules_ref_rare_paths")
    if table:
        node.config.stash.setdefault(_WORKER_TABLES, []).append(table)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On a worker, send the controller its rare-path table (if it played any game)."""
    if _on_worker(session.config):
        table = _table(session.config)
        if table:
            session.config.workeroutput["rules_ref_rare_paths"] = table  # type: ignore[attr-defined]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the set-ups that are processes as soon as the session knows its tests.

    A test module that defines ``start_in_background(config, beside_other_tests)``
    (the fault runs of ``tests/hostile/test_faults.py``) has it called here, once,
    when one of its tests is selected: its processes then run on the core that
    the tests, run one at a time, leave idle. Not on a worker of a parallel run,
    whose every core is busy with tests: there the module's first test starts them.
    It also notes the tests that feed the tallies by their final node IDs.
    """
    config = session.config
    config.stash[PRODUCERS] = {i.nodeid: "not run" for i in config.stash.get(_FEEDERS, [])}
    if config.option.collectonly or _on_worker(config):
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
    split = pytestconfig.stash.get(_SPLIT, None)
    if split is not None:
        pytest.fail(f"the rare-path proof needs every test that feeds it on its worker, and "
                    f"{split}: run with --dist loadfile (the default of pyproject.toml) or "
                    "without -n", pytrace=False)
    return pytestconfig.stash[TALLY], pytestconfig.stash[REJECTIONS], pytestconfig.stash[PRODUCERS]


def _table(config: pytest.Config) -> str:
    """The rare paths counted in this process, and the illegal actions rejected ("" if none)."""
    tally = config.stash.get(TALLY, None)
    if tally is None or not tally.actions:
        return ""
    lines = tally.table().splitlines()
    rejections = config.stash[REJECTIONS]
    if rejections:
        lines.append("illegal actions rejected, by rule: " + ", ".join(
            f"{rule} {count}" for rule, count in sorted(rejections.items())))
    return "\n".join(lines)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int,
                            config: pytest.Config) -> None:
    tables = [_table(config), *config.stash.get(_WORKER_TABLES, [])]
    for table in filter(None, tables):
        terminalreporter.section(f"rare paths exercised (Hypothesis profile {_profile})")
        for line in table.splitlines():
            terminalreporter.write_line(line)
