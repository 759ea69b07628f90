"""Composites of faults (``tools/mutation/faults.py``, ``composites.py``): the catalogue, the
draw, the injection of each kind of fault, and the scoring of a conform result.

No campaign runs here: each kind of fault is shown to change play by one small conform
run (in this process, the faults applied only while the faulty adapter answers; an
operator fault through the adapter program), each patch by the function it replaces.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules_ref import leading, passing, pending, scoring, tricks
from rules_ref.cards import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Suit, parse_card, parse_cards
from rules_ref.errors import IllegalAction
from rules_ref.protocol.start import dealt_start, start_state
from rules_ref.ruleset import DEFAULT, PassDirection
from tests.conform.in_process import conform
from tools.mutation.composites import (
    adapter_command,
    by_kind,
    draw_composites,
    focused,
    misattributions,
    run_conform,
    score,
    summarize,
)
from tools.mutation.fault_adapter import FaultyAdapter
from tools.mutation.faults import (
    KINDS,
    MASKED,
    PATCHES,
    Fault,
    InjectedCrash,
    catalogue,
    draw,
    injected,
)
from tools.mutation.operators import mutants
from tools.mutation.report import COMPOSITES_BEGIN, COMPOSITES_END, with_composites

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = catalogue(ROOT)
BY_NAME = {f.name: f for faults in CATALOGUE.values() for f in faults}


def _operator(unit: str, op: str) -> Fault:
    """An operator fault of ``rules_ref/tricks.py``, made from the mutation operators."""
    module = "rules_ref/tricks.py"
    m = next(m for m in mutants((ROOT / module).read_text(encoding="utf-8"), module)
             if m.unit == unit and m.op == op)
    return Fault("operator", f"operator:{m.key}", m.rules, m.description, module=module,
                 source=m.source)


# --- the catalogue and the draw -------------------------------------------------------------

def test_the_catalogue_has_every_card_and_every_published_switch_value() -> None:
    families: dict[str, int] = {}
    for f in CATALOGUE["card"]:
        families[f.patch] = families.get(f.patch, 0) + 1
    # every card; no ace ranks above the ace, no 2 below the 2; 13 hearts and the Q♠ break
    assert families == {"no-cancel": 52, "rank-high": 48, "rank-low": 48, "points": 52,
                        "no-break": 14}
    assert [f.patch for f in CATALOGUE["phase"]] == [
        "no-passing", "pass-refused", "no-moon-choice", "crash-both-2c-extras",
        "crash-2c-extras", "crash-void-trick", "crash-void-last", "crash-moon",
        "crash-queens-cancel"]
    variants = tomllib.loads((ROOT / "spec/variants.toml").read_text(encoding="utf-8"))
    published = {(s["name"], str(v["value"])) for s in variants["switch"] for v in s["value"]
                 if v["value"] != s["default"]}
    swapped = {(f.switch, str(f.value)) for f in CATALOGUE["switch"]}
    # pass_cycle = hold is the phase fault "no passing", not a second fault
    assert swapped == published - {("pass_cycle", "['hold']")}
    rules = {s["name"]: tuple(s["rules"]) for s in variants["switch"]}
    assert all(f.rules == rules[f.switch] for f in CATALOGUE["switch"])


def test_a_draw_is_seeded_and_its_faults_have_different_rules() -> None:
    population = {**CATALOGUE, "operator": [_operator("cancelled_cards", "delete"),
                                            _operator("led_suit", "constant")]}
    kinds: set[str] = set()
    for seed in range(40):
        for k in (1, 2, 3, 5):
            faults = draw(population, k, random.Random(seed))
            assert len(faults) == k
            for i, a in enumerate(faults):
                for b in faults[i + 1:]:
                    assert not set(a.rules) & set(b.rules), (a.name, b.name)
                    assert not (a.module and a.module == b.module)
            kinds.update(f.kind for f in faults)
            assert [f.name for f in draw(population, k, random.Random(seed))] == [
                f.name for f in faults]
    assert kinds == set(KINDS)
    drawn = draw_composites(population, (1, 3), 4, seed=7)
    assert [k for k, _, _ in drawn] == [1, 1, 1, 1, 3, 3, 3, 3]
    assert drawn == draw_composites(population, (1, 3), 4, seed=7)


def test_a_draw_of_chosen_kinds_never_holds_a_fault_another_crash_masks() -> None:
    masked = 0
    for seed in range(60):
        [(_, faults, _)] = draw_composites(CATALOGUE, (3,), 1, seed, kinds=("phase",))
        assert {f.kind for f in faults} == {"phase"}
        patches = {f.patch for f in faults}
        assert not any(pair <= patches for pair in MASKED)
        masked += any(pair & patches for pair in MASKED)
    assert masked > 0  # a fault of a masked pair is drawn, never with its pair


def test_a_focused_draw_takes_only_the_kinds_and_families_named() -> None:
    population = {**CATALOGUE, "operator": [_operator("cancelled_cards", "delete")]}
    only = focused(population, ["card:points", "switch"])
    assert only["operator"] == [] and only["phase"] == []
    assert only["switch"] == CATALOGUE["switch"]
    assert {f.family for f in only["card"]} == {"card:points"}
    assert len(only["card"]) == 52  # every card of the deck
    for seed in range(10):
        assert {f.family for f in draw(only, 2, random.Random(seed))} <= (
            {"card:points"} | {f.family for f in CATALOGUE["switch"]})


def test_a_draw_that_cannot_be_made_says_so() -> None:
    one = {"card": [BY_NAME["card:no-cancel:10S"], BY_NAME["card:no-cancel:2C"]]}
    with pytest.raises(ValueError, match="cannot draw 2 faults"):
        draw(one, 2, random.Random(1))
    with pytest.raises(ValueError, match="no faults"):
        draw({}, 1, random.Random(1))


# --- each patch changes its function, and is put back ---------------------------------------

def _raises(call: Callable[[], object]) -> str:
    try:
        call()
    except InjectedCrash:
        return "crash"
    return "no crash"


DECK = [c for c in CARDS for _ in (0, 1)]
#: A 6-player start with both 2♣ among the two extras.
BOTH_2C = dealt_start(DEFAULT, [tuple(c for c in DECK if c != TWO_OF_CLUBS)[i * 17:(i + 1) * 17]
                                for i in range(6)], (TWO_OF_CLUBS, TWO_OF_CLUBS))
#: A deal's cards taken: one player holds every heart and both Q♠.
MOON = [tuple(c for c in DECK if c.suit == Suit.H or c == QUEEN_OF_SPADES), (), ()]


def _moon() -> tuple[bool, object]:
    """Is the shooter asked, and the scores of a moon with no choice made."""
    try:
        scores: object = scoring.moon_scores(0, None, MOON, DEFAULT)
    except IllegalAction:
        scores = "refused"
    return scoring.needs_moon_choice(0, DEFAULT), scores


def _void_last() -> object:
    last = tricks.resolve_trick(parse_cards("5D 5D"), 0, 6)
    return pending.settle_pending((), last, 6, DEFAULT)


CHECKS: dict[str, tuple[str, Callable[[], object], object, object]] = {
    # patch: (card, the call, its answer with the patch, without)
    "no-cancel": ("10S", lambda: tricks.resolve_trick(parse_cards("10S 10S 2S"), 0, 6).winner,
                  0, 2),
    "rank-high": ("5D", lambda: tricks.resolve_trick(parse_cards("KD 5D 2D"), 0, 6).winner,
                  1, 0),
    "rank-low": ("KS", lambda: tricks.winning_position(parse_cards("2S KS")), 0, 1),
    "points": ("QS", lambda: scoring.deal_scores([parse_cards("QS 2H"), ()], DEFAULT),
               (13, 0), (14, 0)),
    "no-break": ("2H", lambda: leading.breaks_hearts(parse_card("2H"), Suit.C, DEFAULT),
                 False, True),
    "no-passing": ("", lambda: passing.pass_offset(PassDirection.LEFT, 6), None, 1),
    "pass-refused": ("", lambda: passing.may_pass(None), False, True),
    "no-moon-choice": ("", _moon, (False, (0, 26, 26)), (True, "refused")),
    "crash-both-2c-extras": ("", lambda: _raises(lambda: start_state(BOTH_2C)),
                             "crash", "no crash"),
    "crash-2c-extras": ("", lambda: _raises(lambda: start_state(BOTH_2C)), "crash", "no crash"),
    "crash-void-trick": ("", lambda: _raises(
        lambda: tricks.resolve_trick(parse_cards("5D 5D 2C"), 0, 6)), "crash", "no crash"),
    "crash-void-last": ("", lambda: _raises(_void_last), "crash", "no crash"),
    "crash-moon": ("", lambda: _raises(lambda: scoring.moon_shooter(MOON)), "crash", "no crash"),
    "crash-queens-cancel": ("", lambda: _raises(
        lambda: tricks.cancelled_cards(parse_cards("QS QS 2S"))), "crash", "no crash"),
}


def test_every_patch_is_checked() -> None:
    assert set(CHECKS) == set(PATCHES)


@pytest.mark.parametrize("patch", sorted(CHECKS))
def test_a_patch_changes_its_function_and_is_put_back(patch: str) -> None:
    card, call, faulty, right = CHECKS[patch]
    fault = Fault("card", f"card:{patch}", ("X",), "", patch=patch, card=card)
    assert call() == right
    with injected([fault]):
        assert call() == faulty
    assert call() == right


def test_a_patch_reaches_the_modules_that_imported_the_function() -> None:
    from rules_ref import causes, state
    before = (vars(causes)["card_points"], vars(state)["card_points"])
    with injected([BY_NAME["card:points:7D"]]):
        now = (vars(causes)["card_points"], vars(state)["card_points"])
        assert now == (scoring.card_points, scoring.card_points)
        assert now[0] is not before[0]
    assert (vars(causes)["card_points"], vars(state)["card_points"]) == before


# --- each kind of fault changes play --------------------------------------------------------

def test_the_faulty_adapter_without_faults_passes() -> None:
    code, result = conform(lambda: FaultyAdapter([], scoped=True), examples=20, seed=3,
                           shrink_seconds=0.01)
    assert (code, result["verdict"], result["classes"]) == (0, "pass", [])


@pytest.mark.parametrize("name", ["switch:moon=others-52", "card:no-cancel:10S",
                                  "card:rank-low:KS", "phase:no-moon-choice",
                                  "phase:crash-void-last"])
def test_a_fault_of_each_kind_changes_an_answer(name: str) -> None:
    fault = BY_NAME[name]
    code, result = conform(lambda: FaultyAdapter([fault], scoped=True), examples=20, seed=3,
                           shrink_seconds=0.01, first=True)
    assert code in (1, 6)  # a disagreement, or the internal error of a crash
    assert result["verdict"] in ("disagreement", "error")
    assert result["classes"]


@pytest.mark.rule("MOON.CONDITION")
def test_a_crash_is_one_class_named_by_the_fact_that_triggers_it() -> None:
    # one class, named by the moon, not by the deal's end or the last trick the step that
    # ends the deal also goes through; each game plays on after the error (the reference
    # alone), so a later deal's moon is met too: 5 errors in the 20 games
    fault = BY_NAME["phase:crash-moon"]
    code, result = conform(lambda: FaultyAdapter([fault], scoped=True), examples=20, seed=3,
                           shrink_seconds=0.01)
    assert (code, result["verdict"]) == (6, "error")
    assert [(c["key"], c["count"]) for c in result["classes"]] == [
        ("MOON.CONDITION: reports an internal error when a player shoots the moon", 5)]


def test_a_switch_fault_declares_the_default_and_plays_its_value() -> None:
    adapter = FaultyAdapter([BY_NAME["switch:moon=others-52"]])
    assert adapter.hello()["supports"]["switches"]["moon"] == ["choice-26"]
    answer = adapter.start({**dealt_start(DEFAULT, *_deal())})
    assert answer["type"] == "observation"
    assert adapter.state is not None and adapter.state.ruleset.moon.value == "others-52"


def _deal() -> tuple[list[tuple[Any, ...]], tuple[Any, ...]]:
    return [tuple(DECK[i * 17:(i + 1) * 17]) for i in range(6)], tuple(DECK[102:])


def test_an_operator_fault_changes_an_answer(tmp_path: Path) -> None:
    fault = _operator("cancelled_cards", "delete")
    adapter = adapter_command([fault], ROOT, tmp_path / "c")
    assert (tmp_path / "c/pkg/rules_ref/tricks.py").read_text(encoding="utf-8") == fault.source
    neutral = tmp_path / "cwd"
    neutral.mkdir()
    ran = run_conform(adapter, neutral, 3, ["--first", "--examples", "5"], 300.0)
    assert ran["exit"] == 1
    assert ran["result"]["verdict"] == "disagreement"


# --- scoring --------------------------------------------------------------------------------

A = Fault("card", "card:no-cancel:10S", ("TRICK.CANCEL",), "", patch="no-cancel", card="10S")
B = Fault("phase", "phase:no-passing", ("PASS.DIRECTION", "PASS.EXCHANGE"), "",
          patch="no-passing")
C = Fault("switch", "switch:target=100", ("GAME.END",), "", switch="target", value=100)


def _run(faults: list[Fault], rules: list[str | None], expected: int = 0,
         games: int = 0) -> dict[str, Any]:
    classes: list[dict[str, Any]] = [{"rule": r} for r in rules]
    classes += [{"rule": "GAME.END", "expected": True}] * expected
    return {"k": len(faults), "faults": [f.to_json() for f in faults], "games": games,
            "score": score(faults, {"classes": classes})}


def test_score_names_a_fault_by_any_of_its_rules_and_ignores_expected_classes() -> None:
    s = score([A, B, C], {"classes": [{"rule": "PASS.EXCHANGE"}, {"rule": "TRICK.WINNER"},
                                      {"rule": None}, {"rule": "GAME.END", "expected": True}]})
    assert s == {"named": [False, True, False], "classes": 3, "right": 1,
                 "wrong": ["TRICK.WINNER", None]}
    assert score([A], {"verdict": "fault"}) == {"named": [False], "classes": 0, "right": 0,
                                                "wrong": []}


def test_recall_precision_and_all_named_over_runs() -> None:
    runs = [_run([A, B], ["TRICK.CANCEL", "PASS.DIRECTION", "TRICK.WINNER"], games=30),
            _run([A, C], ["TRICK.CANCEL"], expected=2, games=10),
            _run([B], [], games=20)]
    assert summarize(runs) == {"composites": 3, "games_median": 20, "faults": 5, "named": 3,
                               "recall": 60.0, "classes": 4, "right": 3, "precision": 75.0,
                               "all_named": 1, "all_named_share": 33.3}
    assert summarize([]) == {"composites": 0, "games_median": None, "faults": 0, "named": 0,
                             "recall": None, "classes": 0, "right": 0, "precision": None,
                             "all_named": 0, "all_named_share": None}
    kinds = by_kind([*runs, _run([A], ["TRICK.CANCEL", "TRICK.WINNER"])])
    assert kinds["card"] == {"faults": 3, "named": 3, "recall": 100.0, "alone_classes": 2,
                             "alone_precision": 50.0}
    assert kinds["phase"] == {"faults": 2, "named": 1, "recall": 50.0, "alone_classes": 0,
                              "alone_precision": None}
    assert kinds["switch"]["recall"] == 0.0 and kinds["operator"]["faults"] == 0


def test_misattributions_are_charged_to_the_faults_no_class_named() -> None:
    runs = [_run([A, C], ["TRICK.CANCEL", "TRICK.WINNER"]),  # C unnamed: charged to it
            _run([A], ["TRICK.CANCEL", "TRICK.WINNER"]),  # all named: to A, a consequence
            _run([B, C], ["LEAD.OPENING_LEADER", "TRICK.WINNER"])]  # both unnamed
    assert misattributions(runs) == [
        {"fault": "switch:target", "rule": "TRICK.WINNER", "fault_was": "unnamed", "count": 2},
        {"fault": "card:no-cancel", "rule": "TRICK.WINNER", "fault_was": "named", "count": 1},
        {"fault": "phase:no-passing", "rule": "LEAD.OPENING_LEADER", "fault_was": "unnamed",
         "count": 1},
        {"fault": "switch:target", "rule": "LEAD.OPENING_LEADER", "fault_was": "unnamed",
         "count": 1},
        {"fault": "phase:no-passing", "rule": "TRICK.WINNER", "fault_was": "unnamed",
         "count": 1}]


def test_the_composites_section_is_put_after_the_headline_then_replaced() -> None:
    page = "# Title\n\n**Headline.**\n\nBody.\n"
    first = with_composites(page, f"{COMPOSITES_BEGIN}\nold\n{COMPOSITES_END}")
    assert first == ("# Title\n\n**Headline.**\n\n"
                     f"{COMPOSITES_BEGIN}\nold\n{COMPOSITES_END}\n\nBody.\n")
    again = with_composites(first, f"{COMPOSITES_BEGIN}\nnew\n{COMPOSITES_END}")
    assert again == first.replace("old", "new")


def test_a_report_is_written_and_scored_again_from_its_runs(tmp_path: Path) -> None:
    import argparse
    import json

    from tools.mutation.composites import assemble, render
    from tools.mutation.report import write_composites
    run = {**_run([A, C], ["TRICK.CANCEL", "TRICK.WINNER"], games=12), "budget": "default",
           "classes": [{"rule": "TRICK.CANCEL"}, {"rule": "TRICK.WINNER"}]}
    head = {"kind": "kit-power-composites", "seed": 1, "count": 1, "k": [2],
            "budgets": ["default"], "examples": 40, "jobs": 1, "seconds": 3.0,
            "population": {"card": 1, "switch": 1}}
    out = tmp_path / "kit-power"
    (tmp_path / "kit-power.md").write_text("# Kit\n\n**Headline.**\n\nBody.\n", encoding="utf-8")
    write_composites(out, assemble([run], head))
    page = (tmp_path / "kit-power.md").read_text(encoding="utf-8")
    assert "| 2 | 1 | 12 | 50.0% (1/2) | 50.0% (1/2) | 0.0% (0/1) |" in page
    assert "| `switch:target` | `TRICK.WINNER` | unnamed | 1 |" in page
    assert page.startswith("# Kit\n\n**Headline.**\n\n<!-- composites -->")
    assert page.endswith("<!-- /composites -->\n\nBody.\n")
    written = json.loads((tmp_path / "kit-power-composites.json").read_text(encoding="utf-8"))
    assert written["table"]["default"]["2"]["recall"] == 50.0
    args = argparse.Namespace(render=str(tmp_path / "kit-power-composites.json"), out=str(out))
    assert render(args) == 0
    assert (tmp_path / "kit-power.md").read_text(encoding="utf-8") == page
