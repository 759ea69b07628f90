"""``rules-ref fit``: the ruleset an implementation plays, found through an adapter that
declares the default and plays rules of its own (:mod:`tests.fakes.own_rules_adapters`).

Every search here plays a fixed number of games per ruleset from a fixed
seed, in this process: what it finds does not depend on the machine's speed.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.conform.outcome import Config
from rules_ref.deal import DEAL_CONSTRAINTS
from rules_ref.exercise.catalogue import published_values
from rules_ref.fit import Difference, Fit, Search, alternatives, fit_ruleset, switches_of
from rules_ref.fit.summary import fit_document, fit_lines
from rules_ref.protocol.in_process import in_process
from rules_ref.protocol.reference_adapter import UNANSWERABLE, ReferenceAdapter
from rules_ref.ruleset import Ruleset
from tests.conform.in_process import answering_in_process
from tests.fakes.broken_adapters import TwinRefused
from tests.fakes.constrained_dealer import ConstrainedDealer, command
from tests.fakes.own_rules_adapters import PLAYED, OwnRulesAdapter, drawn_rulesets

#: The seed of the population and of every search; the games each ruleset tried plays.
SEED = 3
EXAMPLES = 8
#: The population: rulesets of three changed switches that set, between them, every value
#: spec/variants.toml publishes for a switch that changes how a deal plays.
POPULATION = drawn_rulesets(SEED, 1, switches=3)


def fit_of(build: Any, examples: int = EXAMPLES) -> Fit:
    config = Config(command=["in-process"], max_seconds=600, timeout=60, seed=SEED,
                    examples=examples, connect=in_process(build, UNANSWERABLE))
    return fit_ruleset(config)


def test_the_population_sets_every_published_value_that_changes_play() -> None:
    default = Ruleset()
    wanted = {(s, v) for s in PLAYED for v in published_values(s) if v != getattr(default, s)}
    drawn = {(s, getattr(rs, s)) for rs in POPULATION for s in rs.changed()}
    assert wanted <= drawn
    assert all(len(rs.changed()) == 3 for rs in POPULATION)


@pytest.mark.untraced
@pytest.mark.parametrize("own", POPULATION, ids=lambda rs: rs.describe())
def test_fit_finds_the_rules_an_adapter_plays_while_it_declares_the_default(own: Ruleset
                                                                            ) -> None:
    """Invariant: nothing is left unexplained, and every value the adapter plays that its
    games show (a difference of some ruleset tried points at its switch) is found, or the
    value found plays the same games: the reference under the adapter's own rules with that
    value shows no difference (forbidden and forbidden-even-following, say, where every
    trick 1 is led with a 2♣)."""
    config = Config(command=["in-process"], max_seconds=600, timeout=60, seed=SEED,
                    examples=EXAMPLES, connect=in_process(lambda: OwnRulesAdapter(own),
                                                          UNANSWERABLE))
    search = Search(config)
    try:
        search.connect()
        fit = search.run()
        assert fit.told == Ruleset()
        assert fit.unexplained == []
        shown = {s for t in fit.trials for d in t.differences for s in switches_of(d)}
        for switch in own.changed():
            found = getattr(fit.best.ruleset, switch)
            if switch in shown and found != getattr(own, switch):
                search.budget = len(search.order) + 1  # one more ruleset: this one
                same = search.trial(replace(own, **{switch: found}), Ruleset())
                assert same is not None and same.differences == [], switch
        assert set(fit.best.ruleset.changed()) <= set(own.changed())
    finally:
        search.close()


def test_fit_keeps_the_default_rules_of_the_reference_adapter() -> None:
    fit = fit_of(ReferenceAdapter)
    assert fit.best.ruleset == Ruleset()
    assert fit.explained == {}
    assert fit.unexplained == []
    assert len(fit.trials) == 1  # nothing differs: no other ruleset is worth a game


class _HoldWithTwinRefused(OwnRulesAdapter, TwinRefused):
    """Plays hold (no passing) and refuses a card identical to one already in the trick."""


def test_a_bug_no_value_explains_is_left_unexplained_beside_the_values_found() -> None:
    """The value is found, and the bug is the one finding left, blamed on its rule."""
    hold = Ruleset.from_dict({"pass_cycle": ["hold"]})
    fit = fit_of(lambda: _HoldWithTwinRefused(hold))
    assert fit.best.ruleset == hold
    # the refusal, blamed on the rule of cancelling (and, met on trick 1, on its rule too)
    assert "TRICK.CANCEL" in [f.rule for f in fit.unexplained]
    assert {f.what for f in fit.unexplained} == {"rejects a legal play"}


class _ConstrainedHold(ConstrainedDealer, OwnRulesAdapter):
    """Never passes, and deals only the deals of a constrained dealer: refuses a start, and
    rejects a deal action, of any other deal."""

    crashes = False


def test_no_ruleset_tried_is_played_on_a_deal_the_engine_never_makes() -> None:
    # a deal sent that breaks a constraint would be refused: a difference no value explains
    hold = Ruleset.from_dict({"pass_cycle": ["hold"]})
    fit = fit_of(lambda: _ConstrainedHold(hold), examples=8)
    assert (fit.best.ruleset, fit.unexplained) == (hold, [])
    assert len(fit.trials) > 1
    for trial in fit.trials:
        assert trial.deal_constraints["declared"] == list(DEAL_CONSTRAINTS)
    assert sum(fit.best.deal_constraints["deals_not_sent"].values()) > 0


@pytest.mark.untraced
def test_fit_says_what_the_deal_constraints_left_untested_as_conform_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    # the engine crashes on a deal action of a deal it never makes: none is sent
    status = main(["fit", "--json", "--seed", "4", "--examples", "12", "--",
                   *command("constrained-dealer")])
    doc = json.loads(capsys.readouterr().out)
    assert (status, doc["verdict"], doc["ruleset"]) == (0, "explained", Ruleset().to_dict())
    block = doc["deal_constraints"]
    assert block["declared"] == list(DEAL_CONSTRAINTS)
    n = block["deals_not_sent"]
    assert n["two-of-clubs-apart"] > 0
    said = " ".join(line.strip() for line in fit_lines(doc))
    assert ("Not tested because of the declared deal constraints: deals in which a hand holds "
            f"both 2♣ (two-of-clubs-apart: {n['two-of-clubs-apart']} deals drawn and changed "
            "to keep it); deals with a 2♣ among the extras (two-of-clubs-dealt: "
            f"{n['two-of-clubs-dealt']} deal") in said


@pytest.mark.parametrize("lead", ["two-of-clubs", "two-of-clubs-dealt"])
def test_values_the_games_cannot_tell_apart_are_named_together(lead: str) -> None:
    """Nobody passes a 2♣: the first seat dealt one is the first holding one after the
    pass, so the two 2♣ leads play the same games; the plainer value is named, the other
    beside it, whichever the engine plays."""
    own = Ruleset.from_dict({"pass_forbidden": "two-of-clubs", "opening_lead": lead})
    fit = fit_of(lambda: OwnRulesAdapter(own), examples=8)
    assert fit.unexplained == []
    assert fit.ruleset == replace(own, opening_lead=Ruleset.from_dict(
        {"opening_lead": "two-of-clubs"}).opening_lead)
    doc = fit_document(fit, SEED, 8, 40, ["./adapter"])
    assert doc["switches"]["opening_lead"]["same_games"] == ["two-of-clubs-dealt"]
    assert doc["ruleset"]["opening_lead"] == "two-of-clubs"
    assert ("    plays the same games as opening_lead = two-of-clubs-dealt under the other "
            "values (no game of 80 told them apart): named the value of the nearest preset, "
            "else the first spec/variants.toml lists") in fit_lines(doc)


def test_the_value_a_near_preset_plays_is_named_of_those_the_games_cannot_tell_apart(
        ) -> None:
    from rules_ref.fit.equivalent import settle
    from rules_ref.ruleset import presets

    allanh = presets()["allanh"]
    found = replace(allanh, opening_lead=Ruleset.from_dict(
        {"opening_lead": "two-of-clubs-dealt"}).opening_lead, target=150)
    leads = {"two-of-clubs", "two-of-clubs-dealt"}
    firsts = {"forbidden", "forbidden-even-following"}

    def same(a: Ruleset, b: Ruleset) -> bool:  # these two pairs play alike, nothing else
        apart = {f for f in a.to_dict() if a.to_dict()[f] != b.to_dict()[f]}
        return apart <= {"opening_lead", "first_trick_points"} and {
            str(a.opening_lead), str(b.opening_lead)} <= leads and {
            str(a.first_trick_points), str(b.first_trick_points)} <= firsts

    named, others = settle(found, Ruleset(), same)
    assert named == replace(allanh, target=150)  # the preset's values, not the plainest
    assert {k: [str(v) for v in vs] for k, vs in others.items()} == {
        "opening_lead": ["two-of-clubs-dealt"], "first_trick_points": ["forbidden"]}


def test_the_document_is_a_ruleset_file_and_a_hello_declaration() -> None:
    own = Ruleset.from_dict({"pass_cycle": ["hold"], "moon": "others-52"})
    fit = fit_of(lambda: OwnRulesAdapter(own))
    doc = fit_document(fit, SEED, EXAMPLES, 40, ["./adapter"])
    assert Ruleset.from_dict(doc["ruleset"]) == own
    assert doc["hello"] == {"switches": {"pass_cycle": [["hold"]], "moon": ["others-52"]}}
    assert doc["unexplained"] == []
    assert doc["verdict"] == "explained" and doc["exit_status"] == 0
    lines = fit_lines(doc)
    assert lines[0] == "Told the default rules, the engine plays these values instead:"
    assert "  pass_cycle = hold (told left,right)" in lines
    assert "  moon = others-52 (told choice-26)" in lines


def test_the_alternatives_of_a_difference_are_the_published_values_of_its_switch() -> None:
    moon = Difference("MOON.CHOICE", "scores a moon without waiting", "moon")
    assert [(s, str(v)) for s, v in alternatives(moon, Ruleset())] == [
        ("moon", "others-52"), ("moon", "others-104")]
    # no switch named: the rule's switches; a rule no switch changes offers nothing
    hearts = Difference("HEARTS.BROKEN", "does not break hearts", None)
    assert switches_of(hearts) == ("hearts_broken_by",)
    assert alternatives(Difference("GAME.WINNER", "names one winner", None), Ruleset()) == []
    assert alternatives(Difference(None, "adapter fault (exit)", None), Ruleset()) == []


def test_the_command_prints_the_defaults_for_the_reference_adapter(
        capsys: pytest.CaptureFixture[str]) -> None:
    with answering_in_process(ReferenceAdapter):
        status = main(["fit", "--json", "--seed", "3", "--examples", "5", "--", "adapter"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0
    assert doc["ruleset"] == Ruleset().to_dict()
    assert (doc["switches"], doc["unexplained"], doc["trials"]) == ({}, [], 1)


def test_the_command_without_an_adapter_is_one_line_and_status_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit", "--seed", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("rules-ref fit: error: no adapter command")


def test_an_adapter_that_cannot_start_is_one_line_and_status_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit", "--", "/no/such/adapter"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == "rules-ref fit: adapter fault (start): command not found: /no/such/adapter"


def test_conform_points_at_fit_where_a_switch_decides_an_unexpected_class() -> None:
    from rules_ref.reports.text import fit_pointer

    classes: list[dict[str, Any]] = [{"switch": "pass_cycle", "facets": []},
               {"switch": None, "facets": [{"switch": "moon"}]},
               {"switch": None, "facets": [{"switch": None}]},
               {"switch": "target", "expected": True, "facets": []}]
    assert fit_pointer(classes, ["./my adapter"]) == [
        "2 unexpected classes are decided by a switch (pass_cycle, moon): your engine may "
        "play another value of it. rules-ref fit -- './my adapter' finds the values it plays, "
        "and what no value explains."]
    assert fit_pointer(classes[2:], ["./adapter"]) == []


def test_a_conform_run_of_an_engine_playing_other_values_points_at_fit(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    own = Ruleset.from_dict({"moon": "others-52", "hearts_broken_by": "heart"})
    with answering_in_process(lambda: OwnRulesAdapter(own)):
        status = main(["conform", "--seed", "3", "--examples", "8", "--max-seconds", "600",
                       "--out", str(tmp_path), "--", "./adapter"])
    out = capsys.readouterr().out
    assert status == 1
    pointer = [line for line in out.splitlines() if "rules-ref fit -- ./adapter" in line]
    assert len(pointer) == 1 and "hearts_broken_by" in pointer[0], out
