"""The wheel: built from the repository, installed outside it, every command runs.

It checks what an installed copy needs and a checkout hides: the spec files
(rules, variants, glossary, sources, schemas, vectors) travel inside the
package as ``rules_ref/_spec``, the ``rules-ref`` script works, and nothing
is read from the checkout. The build uses the hatchling already installed
(the dev extra), without build isolation or an index: no network.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import ROOT

pytestmark = pytest.mark.wheel

DATA = Path(__file__).parent / "data"


def _run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONIOENCODING", "VIRTUAL_ENV", "NO_COLOR")}
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False, env=env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment, outside the checkout, with only the wheel installed."""
    pytest.importorskip("hatchling", reason="the dev extra (hatchling) builds the wheel")
    where = tmp_path_factory.mktemp("wheel")
    dist = where / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-index",
                  "--no-build-isolation", "--disable-pip-version-check", "-q", "-w", str(dist)],
                 where)
    assert built.returncode == 0, built.stderr
    wheels = list(dist.glob("rules_ref-*.whl"))
    assert len(wheels) == 1, wheels
    venv = where / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], where)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    put = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                "--no-index", "--disable-pip-version-check", "-q", str(wheels[0])], where)
    assert put.returncode == 0, put.stderr
    return venv


def test_the_spec_travels_inside_the_package(installed: Path) -> None:
    done = _run([str(installed / "bin" / "python"), "-c",
                 "import rules_ref, json; from rules_ref import registry; "
                 "print(json.dumps([str(registry.spec_dir()), rules_ref.__file__]))"],
                installed.parent)
    assert done.returncode == 0, done.stderr
    spec, package = (Path(p) for p in json.loads(done.stdout))
    assert spec == Path(package).parent / "_spec"
    assert ROOT not in spec.parents
    for name in ("rules.toml", "variants.toml", "glossary.toml", "sources.toml", "deal.md",
                 "position.md", "schemas/record.schema.json", "schemas/position.schema.json",
                 "schemas/protocol/start.schema.json"):
        assert (spec / name).is_file(), name
    ours = sorted(p.name for p in (ROOT / "spec" / "vectors" / "v1").glob("*.json"))
    assert sorted(p.name for p in (spec / "vectors" / "v1").glob("*.json")) == ours


def test_every_command_runs_from_the_installed_wheel(installed: Path) -> None:
    work = installed.parent
    script = str(installed / "bin" / "rules-ref")
    python = str(installed / "bin" / "python")
    shutil.copy(DATA / "replay-void-trick.json", work / "replay.json")

    def ok(*args: str) -> str:
        done = _run([script, *args], work)
        assert (done.returncode, done.stderr) == (0, ""), (args, done.stderr)
        return done.stdout

    assert ok("--version") == "rules-ref 0.1.0\n"
    assert ok("play", "--players", "6", "--seed", "2").splitlines()[-1].startswith("Winner")
    (work / "game.json").write_text(ok("play", "--players", "9", "--seed", "3", "--json"))
    assert ok("validate", "game.json").startswith("ok: ")
    assert ok("show", "game.json").splitlines()[0] == "Game record game.json"
    assert "VOID.TRICK" in ok("show", "replay.json")
    (work / "position.json").write_text(ok("play", "--players", "7", "--at", "2.3", "--json"))
    assert ok("show", "position.json").startswith("Position position.json (spec/position.md)")
    assert "Who takes it: seat 4 wins with K♠" in ok("trick", "10S", "9H", "9H", "10S", "KS", "3S")
    assert ok("rules", "TRICK.CANCEL").startswith("TRICK.CANCEL: ")
    assert "SCORE.CARD_POINTS" in ok("rules", "--search", "black", "maria")
    assert ok("sources", "K10").startswith("K10: ")
    assert len(json.loads(ok("deal", "--players", "7", "--json"))["deck"]) == 104
    checked = _run([script, "vectors", "check"], work)
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr == ("note: schema validation skipped: it needs the jsonschema package "
                              "(pip install 'rules-ref[dev]'); every other check ran\n")
    # two kinds, from the vectors inside the package (the whole replay is test_vectors.py's)
    ran = ok("vectors", "run", "--quiet", "--kinds", "trick,moon", "--", python, "-m",
             "rules_ref.protocol.reference_adapter")
    assert re.fullmatch(r"(\d+) passed, 0 failed, 0 skipped; tested (\d+) of \2 cases "
                        r"\(100%\); a case and its position-start form count once",
                        ran.splitlines()[-1]), ran.splitlines()[-1]
    # the search needs nothing beyond the standard library either
    searched = json.loads(ok("conform", "--json", "--examples", "5", "--seed", "1", "--out",
                             "conform-out", "--", script, "adapter"))
    assert (searched["verdict"], searched["games"]) == ("pass", 5)
