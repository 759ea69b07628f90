"""The implementations report (peers/report.py, peers/run.py), from summaries of our own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from peers import report, run
from peers.known import known


def cls(rule: str, words: str = "its game differs from the reference's") -> dict[str, Any]:
    return {
        "rule": rule,
        "what": words,
        "words": words,
        "count": 3,
        "games": 2,
        "expected": False,
        "example": {
            "summary": "s",
            "failing": {"type": "play", "seat": 1, "card": "QS"},
            "expected": {"legal": ["QS"]},
            "actual": {"legal": []},
            "position": {
                "players": 6,
                "phase": "playing",
                "leader": 0,
                "trick": ["5S"],
                "deal_number": 1,
                "trick_number": 1,
            },
        },
    }


def test_a_default_run_difference_under_a_rule_the_preset_switches_is_a_switch_value() -> None:
    item = report.classify("crcowan", "default", cls("HEARTS.BROKEN"), known("crcowan"))
    assert item["status"] == "differs"
    assert item["switches"] == {
        "hearts_broken_by": {"default": "heart-or-queen", "engine": "heart"}
    }


def test_a_preset_run_class_is_a_known_bug_or_unexplained() -> None:
    entries = known("crcowan")
    assert report.classify("crcowan", "preset", cls("MOON.CHOICE"), entries)["status"] == "bug"
    assert (
        report.classify("crcowan", "preset", cls("DEAL.DEALER"), entries)["status"]
        == "not reachable"
    )
    assert (
        report.classify("crcowan", "preset", cls("TRICK.CANCEL"), entries)["status"]
        == "unexplained"
    )
    assert (
        report.classify("allanh", "preset", cls("TRICK.CANCEL"), known("allanh"))["status"]
        == "unexplained"
    )


def test_the_engine_report_marks_every_rule_and_draws_each_bug_seen() -> None:
    runs: dict[str, dict[str, Any]] = {
        "conform-default": {"classes": [cls("HEARTS.BROKEN"), cls("MOON.CHOICE")]},
        "conform-preset": {
            "classes": [cls("MOON.CHOICE")],
            "deals_per_second": 2.5,
            "deals": 10,
            "seconds": 4.0,
        },
    }
    part = report.engine_report(
        "crcowan", runs, {"repository": "r", "commit": "c" * 40, "reproduce": ["make peers"]}
    )
    assert part["matrix"]["HEARTS.BROKEN"]["status"] == "differs"
    assert part["matrix"]["MOON.CHOICE"]["status"] == "bug"
    assert part["matrix"]["DEAL.DEALER"]["status"] == "not reachable"
    assert part["matrix"]["TRICK.CANCEL"]["status"] == "agrees"
    moon = next(b for b in part["bugs"] if b["rule"] == "MOON.CHOICE")
    assert (moon["seen"], moon["count"], moon["function"]) == (True, 3, "CheckMoonShooting")
    assert moon["example"]["position"]["trick"] == ["5S"]
    unseen = next(b for b in part["bugs"] if b["rule"] == "PASS.CARDS")
    assert (unseen["seen"], unseen["count"], unseen["example"]) == (False, 0, None)
    assert part["speed"] == {"deals_per_second": 2.5, "deals": 10, "seconds": 4.0}


def test_no_engine_supplied_is_reported_skipped_and_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PEERS_ALLANH", raising=False)
    monkeypatch.delenv("PEERS_CRCOWAN", raising=False)
    assert run.main(["--out", str(tmp_path)]) == 4
    doc = (tmp_path / "implementations.md").read_text(encoding="utf-8")
    assert doc.count("**Skipped**: ") == 2
    assert "To supply it: clone https://github.com/crcowan/DoubleDeckCancellationHearts" in doc
    assert "| Passing | skipped | skipped |" in doc
    data = (tmp_path / "implementations.json").read_text(encoding="utf-8")
    assert '"status": "checked"' not in data
