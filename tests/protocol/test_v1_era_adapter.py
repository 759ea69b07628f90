"""An adapter written before the later switches keeps working over the protocol.

:mod:`.v1_era_adapter` is the adapter template as first published, filled in
with the switches and values of that time; it refuses a ruleset naming any
switch it does not know. The runner must never send it one: a later switch it
did not declare is at its default and left out of ``start``
(``spec/protocol.md``), so the vectors and a ``conform`` search pass.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from rules_ref import vectors
from rules_ref.cli import main
from rules_ref.protocol.handshake import ruleset_for
from rules_ref.protocol.messages import SWITCHES, first_switches
from rules_ref.ruleset import Ruleset
from rules_ref.vectors import running
from rules_ref.vectors.case_replay import unsupported

from ..fakes import v1_era_adapter
from ..fakes.v1_era_adapter import KNOWN

ADAPTER = v1_era_adapter.command()
FIRST = first_switches()
SUPPORTS: dict[str, Any] = {"players": [6, 7, 8, 9, 10, 11], "switches": KNOWN}


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_template_copy_knows_only_the_first_switches() -> None:
    # the first version's switches are those spec/variants.toml gives protocol 1
    assert FIRST == ("pass_count", "pass_cycle", "opening_lead", "first_trick_points",
                     "hearts_broken_by", "last_trick_void", "moon", "ten_of_diamonds_points",
                     "target")
    assert list(KNOWN) == list(FIRST)
    assert set(SWITCHES) - set(FIRST) == {
        "min_players", "pass_forbidden", "first_trick_two_of_clubs", "moon_pair"}


def test_a_start_names_the_first_switches_and_the_declared_ones() -> None:
    full = Ruleset().to_dict()
    assert list(ruleset_for(full, KNOWN)) == [s for s in SWITCHES if s in FIRST]
    assert list(ruleset_for(full, {"moon_pair": ["none"]})) == [
        s for s in SWITCHES if s in FIRST or s == "moon_pair"]
    assert ruleset_for(full, dict.fromkeys(SWITCHES, "any")) == full
    changed = Ruleset.from_dict({"moon_pair": "others-26"}).to_dict()
    assert ruleset_for(changed, {})["moon_pair"] == "others-26"  # never hidden when not default


@pytest.mark.untraced
def test_every_version_1_vector_passes() -> None:
    code, out, err = cli("vectors", "run", "--quiet", "--dir", str(vectors.version_dir(1)),
                         "--", *ADAPTER)
    lines = out.splitlines()
    assert (code, lines[0], err) == (0, "125 passed, 0 failed, 0 skipped; tested 125 of 125 "
                                        "cases (100%)", "")
    # what version 1 cannot test, and the values added since, which the adapter predates
    assert lines[1] == ("declared, but no vector at the declared player counts tests it: "
                        "min_players 6; pass_cycle across; pass_forbidden none; "
                        "first_trick_two_of_clubs free; moon_pair none")
    assert lines[2:4] == ["not declared, so not tested:", "  min_players 5"]


@pytest.mark.untraced
def test_every_vector_of_the_newest_directory_it_supports_passes() -> None:
    cases = [(k, c) for k, c in vectors.iter_cases(vectors.load_dir(vectors.latest_dir()),
                                                    vectors.PROTOCOL_KINDS)]
    # a case runs when it needs nothing undeclared, or only switch values it does not
    # depend on, or whose figures alone they change: then it is sent with the adapter's own
    # values (and figures)
    runs = [c for k, c in cases if not running.select_case(c, k.kind, SUPPORTS)[1]]
    assert len([c for _, c in cases if not unsupported(c, SUPPORTS)]) < len(runs)
    assert len(runs) >= 125  # every version-1 case is in the newest directory too
    code, out, _ = cli("vectors", "run", "--quiet", "--", *ADAPTER)
    lines = out.splitlines()
    assert lines[0].startswith(f"{len(runs)} passed, 0 failed, {len(cases) - len(runs)} "
                               "skipped; ")
    # every value it declares has a case it can run: target 200 included, by the case of the
    # default rules that plays to 199 from the deal (no start from a position needed)
    assert (code, lines[1]) == (0, "declared, but no vector at the declared player counts tests "
                                   "it: min_players 6; pass_cycle across")


@pytest.mark.parametrize("preset", [None, "hubpages"])
def test_a_short_conform_search_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       preset: str | None) -> None:
    chosen = ["--preset", preset] if preset else []
    code = main(["conform", "--json", "--examples", "15", "--seed", "5", "--max-seconds",
                 "600", "--timeout", "60", "--out", str(tmp_path), *chosen, "--", *ADAPTER])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0, summary
    assert summary["verdict"] == "pass"
    assert summary["games"] >= 15
    assert list(tmp_path.iterdir()) == []
