"""Every seed the README lists under "Seeds to see each rare event" shows its event.

The table is read from README.md itself, so it cannot drift from what is
checked; each entry is played with ``rules-ref play --json`` and the event
is found in the game record, in the deal the table gives, and in no
earlier deal.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from rules_ref.cli import main

from .helpers import ROOT, run

Deal = dict[str, Any]

#: How each event of the table shows in a deal of a game record (default ruleset).
EVENTS: dict[str, Callable[[Deal], bool]] = {
    "extras taken with the first trick": lambda d: bool(d["extras"])
    and d["tricks"][0]["winner"] is not None,
    "a void trick (set aside)": lambda d: any(t["winner"] is None for t in d["tricks"]),
    "a void last trick (collected by nobody)": lambda d: d["tricks"][-1]["winner"] is None
    and bool(d["uncollected"]),
    "a moon": lambda d: d["moon"] is not None,
}


def table() -> list[tuple[str, int, int, int]]:
    """(event, players, seed, deal) for every entry of the README's table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Seeds to see each rare event", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    counts = [int(re.match(r"\d+", c).group()) for c in header[1:]]  # type: ignore[union-attr]
    entries = []
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        for players, cell in zip(counts, cells[1:], strict=True):
            if cell != "-":
                m = re.fullmatch(r"seed (\d+), deal (\d+)", cell)
                assert m, f"README: {cell!r} is not 'seed S, deal D'"
                entries.append((cells[0], players, int(m[1]), int(m[2])))
    return entries


ENTRIES = table()


def test_the_table_lists_every_event_at_the_default_player_count() -> None:
    assert {e for e, _, _, _ in ENTRIES} == set(EVENTS)
    at_default = {e for e, players, _, _ in ENTRIES if players == 8}
    assert at_default == set(EVENTS) - {"extras taken with the first trick"}


@cache
def _deals(players: int, seed: int) -> list[Deal]:
    """The deals of ``rules-ref play --players P --seed S --json`` (several entries share one)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", "--players", str(players), "--seed", str(seed), "--json"]) == 0
    deals: list[Deal] = json.loads(out.getvalue())["deals"]
    return deals


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "VOID.TRICK", "VOID.LAST", "MOON.CONDITION")
@pytest.mark.parametrize(("event", "players", "seed", "deal"), ENTRIES)
def test_a_listed_seed_shows_its_event(event: str, players: int, seed: int, deal: int) -> None:
    deals = _deals(players, seed)
    shows = EVENTS[event]
    first = next((d["deal_number"] for d in deals if shows(d)), None)
    assert first == deal, f"{event}: first seen in deal {first}"


@pytest.mark.rule("VOID.LAST")
def test_a_void_last_trick_ends_the_deal_in_the_log(capsys: pytest.CaptureFixture[str]) -> None:
    players, seed, deal = next((p, s, d) for e, p, s, d in ENTRIES
                               if e.startswith("a void last trick") and p == 8)
    code, out, _ = run(["play", "--players", str(players), "--seed", str(seed)], capsys)
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(f"Deal {deal}:"))
    last = next(i for i in range(start, len(lines)) if lines[i].startswith("  Trick 13: "))
    ending = lines[last + 1:last + 8]
    over = next(x for x in ending if "the pending pile now holds" in x)
    assert over.endswith("; the deal is over (VOID.LAST)")
    assert not any("leads again" in x for x in ending)
    nobody = ending[ending.index(over) + 1]
    assert nobody.startswith("  nobody collects the pending pile (VOID.LAST): ")
