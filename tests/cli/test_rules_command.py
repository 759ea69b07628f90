"""What ``rules-ref rules`` prints in the cases the other tests leave out."""

from __future__ import annotations

import json

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
    err = capsys.readouterr().err
    assert err.startswith("rules-ref rules: error: no rule 'trick.foo' (see `rules-ref rules`; ")
    assert "; did you mean TRICK." in err
    assert "TRICK.CANCEL" in err and err.count("\n") == 1


@pytest.mark.rule("FOLLOW.FIRST_TRICK", "DEAL.SOURCE")
def test_one_rule_names_its_switches_and_only_the_sources_quoted(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "FOLLOW.FIRST_TRICK"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert ("Variant switches: first_trick_points, first_trick_two_of_clubs "
            "(spec/variants.toml)") in lines
    assert sum(line.startswith("Source (") for line in lines) == len(
        [s for s in registry.rule("FOLLOW.FIRST_TRICK").sources if s.text])
    assert main(["rules", "DEAL.SOURCE"]) == 0  # its one source has no quoted text
    out = capsys.readouterr().out
    assert "Source (" not in out and "Variant switches" not in out
