"""Deals an engine never makes (``spec/deal.md``, section 8): declared in the hello, never
sent by ``conform`` or ``vectors run``, and named in every report as what went untested."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_ref.actions import DealCards
from rules_ref.cards import TWO_OF_CLUBS
from rules_ref.cli import main
from rules_ref.conform.kept_deals import kept
from rules_ref.deal import DEAL_CONSTRAINTS, broken_constraints, deal_allowed, seeded_deal
from rules_ref.exercise.catalogue import CONSTRAINED
from rules_ref.protocol.handshake import parse_supports
from rules_ref.protocol.messages import AdapterFault
from rules_ref.protocol.observation import CARD_TEXT
from rules_ref.reports.document import report_blocks
from rules_ref.reports.markup import markdown
from rules_ref.vectors.constrained import broken_by
from rules_ref.vectors.position_forms import SUFFIX

from ..fakes.constrained_dealer import command

ROOT = Path(__file__).resolve().parents[2]
UNHURRIED = ["--max-seconds", "600", "--timeout", "60"]
HEAD = "not tested because of the declared deal constraints: "


def _spec_table() -> dict[str, tuple[str, str]]:
    """ID -> (when a deal satisfies it, what it leaves untested), from spec/deal.md."""
    rows = re.findall(r"^\| `([a-z-]+)` \| ([^|]+) \| ([^|]+) \|$",
                      (ROOT / "spec" / "deal.md").read_text(encoding="utf-8"), re.M)
    return {cid: (when.strip(), what.strip()) for cid, when, what in rows}


def test_the_closed_list_is_the_specs_and_each_constraint_is_a_named_predicate() -> None:
    assert {c.id: (c.statement, c.excludes) for c in DEAL_CONSTRAINTS.values()} == _spec_table()
    for c in DEAL_CONSTRAINTS.values():
        assert c.holds.__name__ == c.id.replace("-", "_")
        assert (c.holds.__doc__ or "").startswith(f"``{c.id}``: {c.statement}.")
    assert set(CONSTRAINED) == set(DEAL_CONSTRAINTS)
    hello = json.loads((ROOT / "spec/schemas/protocol/hello-response.schema.json").read_text())
    listed = hello["properties"]["supports"]["properties"]["deal_constraints"]["items"]["enum"]
    assert listed == list(DEAL_CONSTRAINTS)


@pytest.mark.parametrize(("declared", "detail"), [
    (["two-of-clubs-apart", "no-such"], 'hello.supports.deal_constraints: unknown deal '
     'constraint "no-such"; known: two-of-clubs-apart, two-of-clubs-dealt, '
     'no-hand-of-only-points (spec/deal.md, section 8)'),
    ("two-of-clubs-apart", 'hello.supports.deal_constraints must be a list of distinct names '
     '(two-of-clubs-apart, two-of-clubs-dealt, no-hand-of-only-points), got '
     '"two-of-clubs-apart"'),
    (["two-of-clubs-dealt", "two-of-clubs-dealt"], 'hello.supports.deal_constraints must be '
     'a list of distinct names (two-of-clubs-apart, two-of-clubs-dealt, '
     'no-hand-of-only-points), got ["two-of-clubs-dealt", "two-of-clubs-dealt"]'),
])
def test_a_bad_declaration_is_a_handshake_fault_naming_the_list(declared: object,
                                                                detail: str) -> None:
    with pytest.raises(AdapterFault) as caught:
        parse_supports({"supports": {"players": [8], "deal_constraints": declared}})
    assert (caught.value.kind, caught.value.detail) == ("handshake", detail)


def test_declared_constraints_are_kept_in_the_lists_order() -> None:
    supports = parse_supports({"supports": {"players": [8], "deal_constraints": [
        "no-hand-of-only-points", "two-of-clubs-apart"]}})
    assert supports.deal_constraints == ("two-of-clubs-apart", "no-hand-of-only-points")
    assert parse_supports({"supports": {"players": [8]}}).deal_constraints == ()


@given(st.integers(0, 2**32 - 1), st.integers(6, 11),
       st.sets(st.sampled_from(sorted(DEAL_CONSTRAINTS)), min_size=1))
def test_a_kept_deal_holds_the_same_cards_and_keeps_the_constraints(
        seed: int, players: int, constraints: set[str]) -> None:
    # invariant: kept() returns a deal of the same cards, hand sizes and extras count that
    # breaks none of the constraints, or None; a deal that keeps them is returned unchanged
    d = seeded_deal(seed, players, 1, seed % players)
    deal = DealCards(d.hands, d.extras)
    made = kept(deal, sorted(constraints))
    if deal_allowed(d.hands, d.extras, constraints):
        assert made == deal
    assert made is not None  # a few swaps always do for a seeded deal
    assert broken_constraints(made.hands, made.extras, constraints) == ()
    assert [len(h) for h in made.hands] == [len(h) for h in d.hands]
    assert len(made.extras) == len(d.extras)
    assert sorted(sum(made.hands, made.extras)) == sorted(sum(d.hands, d.extras))


def test_the_rate_of_seeded_deals_each_constraint_excludes() -> None:
    rng = random.Random(5)
    deals = [seeded_deal(rng.randrange(1 << 32), n, 1, 0) for n in range(6, 12)
             for _ in range(200)]
    rates = {c: sum(not DEAL_CONSTRAINTS[c].holds(d.hands, d.extras) for d in deals)
             for c in DEAL_CONSTRAINTS}
    print("seeded deals (6 to 11 players, 1200) breaking each constraint:", rates)
    assert rates["no-hand-of-only-points"] == 0  # no hand of 9 or more is all points by chance
    assert 0 < rates["two-of-clubs-dealt"] < rates["two-of-clubs-apart"] < len(deals) // 4


def test_a_position_start_form_is_judged_by_the_deal_of_its_case() -> None:
    d = seeded_deal(0, 6, 1, 0)
    assert d.hands[0].count(TWO_OF_CLUBS) == 2  # seat 0 holds both 2♣
    case: dict[str, Any] = {"id": "trick/x", "start": {
        "hands": [[CARD_TEXT[c] for c in h] for h in d.hands],
        "extras": [CARD_TEXT[c] for c in d.extras]}}
    form: dict[str, Any] = {"id": "trick/x" + SUFFIX, "start": {"position": {}}}
    cases: dict[str, dict[str, Any]] = {"trick/x": case, form["id"]: form}
    assert broken_by(case, ["two-of-clubs-apart"], cases) == ("two-of-clubs-apart",)
    assert broken_by(form, ["two-of-clubs-apart"], cases) == ("two-of-clubs-apart",)
    assert broken_by(form, ["two-of-clubs-dealt"], cases) == ()
    assert broken_by(case, [], cases) == ()


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


@pytest.mark.untraced
@pytest.mark.parametrize("name", ["constrained-dealer", "constrained-dealer-v1"])
def test_an_honest_constrained_dealer_passes_conform_and_is_told_what_went_untested(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    # the engine refuses a start, and crashes on a deal action, of any deal it never makes:
    # a pass shows that the runner sent none
    args = ["conform", "--seed", "4", "--examples", "40", *UNHURRIED, "--out", str(tmp_path)]
    code, out = _run(capsys, *args, "--json", "--", *command(name))
    summary = json.loads(out)
    assert (code, summary["verdict"]) == (0, "pass")
    block = summary["deal_constraints"]
    assert block["declared"] == list(DEAL_CONSTRAINTS)
    assert sum(block["deals_not_sent"].values()) > 0
    schema = json.loads((ROOT / "spec/schemas/conform-result.schema.json").read_text())
    assert [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(summary)] \
        == []
    if name.endswith("-v1"):  # the words are those of any run: read once
        return
    code, text = _run(capsys, *args, "--", *command(name))
    assert code == 0
    said = " ".join(line.strip() for line in text.splitlines())
    n = block["deals_not_sent"]
    words = (f"deals in which a hand holds both 2♣ (two-of-clubs-apart: "
             f"{n['two-of-clubs-apart']} deals drawn and changed to keep it)")
    assert HEAD + words in said
    page = markdown(report_blocks(summary))  # the Markdown and HTML report say it too
    assert "Not tested because of the declared deal constraints: " + words in page


@pytest.mark.untraced
def test_a_refused_deal_the_hello_does_not_declare_stays_a_difference(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = _run(capsys, "conform", "--seed", "3", "--examples", "60", *UNHURRIED,
                     "--out", str(tmp_path), "--json", "--",
                     *command("undeclared-dealer"))
    summary = json.loads(out)
    assert (code, summary["verdict"]) == (1, "disagreement")
    assert summary["deal_constraints"]["declared"] == ["two-of-clubs-dealt"]
    assert "DEAL.SOURCE: rejects a legal deal" in [c["key"] for c in summary["classes"]]


@pytest.mark.untraced
@pytest.mark.parametrize("name", ["constrained-dealer", "constrained-dealer-v1"])
def test_an_honest_constrained_dealer_passes_the_vectors_and_is_told_what_went_untested(
        capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out = _run(capsys, "vectors", "run", "--json", "--", *command(name))
    report = json.loads(out)
    assert (code, report["verdict"]) == (0, "pass")
    block = report["deal_constraints"]
    assert block["declared"] == list(DEAL_CONSTRAINTS)
    skipped = {c["id"]: c for c in report["cases"] if c["status"] == "skip"}
    assert block["cases"] and set(block["cases"]) <= set(skipped)
    for case_id, broken in block["cases"].items():
        assert skipped[case_id]["unsupported"] == [f"deal constraint {c}" for c in broken]
    assert not any(v.startswith("deal constraint") for v in report["needs"])
    if name.endswith("-v1"):  # the words are those of any run: read once
        return
    code, text = _run(capsys, "vectors", "run", "--quiet", "--", *command(name))
    assert code == 0
    line = next(x for x in text.splitlines() if x.startswith(HEAD))
    apart = sum("two-of-clubs-apart" in b for b in block["cases"].values())
    assert (f"deals in which a hand holds both 2♣ (two-of-clubs-apart): {apart} cases"
            in line)
    assert line.endswith(f"({len(block['cases'])} cases skipped)" + (
        f"; declared values they left untested: {', '.join(block['values'])}"
        if block["values"] else ""))


@pytest.mark.untraced
def test_a_run_of_one_ruleset_sends_no_deal_the_engine_never_makes(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # --ruleset fixes the ruleset (the one the engine declares); its deals are still kept
    ruleset = tmp_path / "default.json"
    ruleset.write_text('{"target": 150}', encoding="utf-8")
    code, out = _run(capsys, "conform", "--seed", "4", "--examples", "20", *UNHURRIED,
                     "--ruleset", str(ruleset), "--out", str(tmp_path), "--json", "--",
                     *command("constrained-dealer"))
    summary = json.loads(out)
    assert (code, summary["verdict"]) == (0, "pass")
    assert sum(summary["deal_constraints"]["deals_not_sent"].values()) > 0
