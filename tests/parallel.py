"""How a parallel run (``pytest -n N``, pytest-xdist) shares the suite between its workers.

Each test module is one unit of work, run whole by one worker, so that a
module's fixtures are set up once (``--dist loadfile``, the default of
``pyproject.toml``). The modules with a test that feeds the rare-path tallies
or reads them (``tests/conftest.py``) are one unit together: the worker that
runs the proof has run every test that feeds it, in the order of the
collection, the proof last.

Only the workers collect the tests, so each worker writes the modules it
found feeding or reading the tallies to a file of a folder the controller
gives it (:func:`write_tallied`); the controller's scheduler reads them
(:func:`read_tallied`) once every worker has collected, before it hands out
any work. Every worker collects the same tests, so every file says the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The unit of work of the modules that feed or read the tallies.
RARE_PATH_GROUP = "rare-paths"
#: The key of a worker's input that names the folder of the tallied-module files.
TALLIED_DIR = "rules_ref_tallied_dir"


def module_of(nodeid: str) -> str:
    """The module part of a node ID (``tests/x/test_y.py::test_z[1]`` -> ``tests/x/test_y.py``)."""
    return nodeid.split("::", 1)[0]


def write_tallied(folder: str, worker: str, modules: set[str]) -> None:
    """Write, for the controller, the modules a worker found feeding or reading the tallies."""
    target = Path(folder) / worker
    partial = target.with_suffix(".partial")
    partial.write_text("".join(f"{m}\n" for m in sorted(modules)), encoding="utf-8")
    partial.replace(target)


def read_tallied(folder: str) -> frozenset[str]:
    """Every module any worker wrote (all write the same)."""
    found: set[str] = set()
    for path in Path(folder).iterdir():
        if path.suffix != ".partial":
            found.update(path.read_text(encoding="utf-8").split())
    return frozenset(found)


def scheduler(config: Any, log: Any, folder: str) -> Any:
    """The scheduler of ``--dist loadfile`` with the tallied modules as one unit of work."""
    from xdist.scheduler import LoadFileScheduling  # type: ignore[import-untyped]

    class TalliesTogether(LoadFileScheduling):  # type: ignore[misc]
        """Each module a unit of work, the modules that feed or read the tallies one."""

        _tallied: frozenset[str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self._tallied is None:  # first called once every worker has collected
                self._tallied = read_tallied(folder)
            module = module_of(nodeid)
            return RARE_PATH_GROUP if module in self._tallied else module

    return TalliesTogether(config, log)
