"""What ``rules-ref rules`` and ``rules-ref play`` print in the cases the other tests leave out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_ref import registry
from rules_ref.cli import main


def test_one_rule_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json", "trick.cancel"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    rule = registry.rule("TRICK.CANCEL")
    assert entry == {
        "id": rule.id, "group": rule.group, "title": rule.title, "statement": rule.statement,
        "decision": rule.decision, "settles": list(rule.settles), "why": rule.why,
        "switches": list(rule.switches),
        "sources": [{"seed": s.seed, "sentence": s.sentence, "text": s.text}
                    for s in rule.sources]}


def test_an_unknown_rule_suggests_the_rules_of_its_area(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "trick.foo"]) == 2
    close = [i for i in registry.rule_ids() if "TRICK" in i][:6]
    assert capsys.readouterr().err == (
        f"rules-ref rules: error: no rule 'trick.foo'; did you mean {', '.join(close)}? "
        "(see `rules-ref rules`)\n")


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "DEAL.SOURCE")
def test_one_rule_names_its_switches_and_only_the_sources_quoted(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "FOLLOW.FIRST_TRICK"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Variant switches: first_trick_points (spec/variants.toml)" in lines
    assert sum(line.startswith("Source (") for line in lines) == len(
        [s for s in registry.rule("FOLLOW.FIRST_TRICK").sources if s.text])
    assert main(["rules", "DEAL.SOURCE"]) == 0  # its one source has no quoted text
    out = capsys.readouterr().out
    assert "Source (" not in out and "Variant switches" not in out


@pytest.mark.rule("VOID.LAST")
def test_a_last_void_trick_taken_by_its_leader_is_told(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # 7 players, seed 8: deal 8 ends with a void trick led by seat 0, holding 7 cards
    ruleset = tmp_path / "leader.json"
    ruleset.write_text('{"last_trick_void": "leader"}')
    assert main(["play", "--players", "7", "--seed", "8", "--ruleset", str(ruleset)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if "VOID.LAST" in line] == [
        "  Seat 0 takes 7 card(s) left pending (VOID.LAST)"]
    assert main(["play", "--players", "7", "--seed", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if "VOID.LAST" in line] == [
        "  The deal ends with 7 card(s) pending: collected by nobody (VOID.LAST): "
        "J♠ K♥ J♠ 10♦ 3♣ 7♣ 2♥"]
