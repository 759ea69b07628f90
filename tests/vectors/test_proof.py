"""Each published case proven to test what it claims: a fault of a rule it cites fails it.

The generator judges every protocol case against the faults of the rules it
cites (``rules_ref.vectors.proof``), records the first that fails it
(``proven_by``) and leaves out a position-start form none fails. These tests
read the recorded proofs, recompute a fixed sample, and run each added fault
on a case it fails and one it does not.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from rules_ref import vectors
from rules_ref.vectors import position_forms
from rules_ref.vectors.proof import (
    FIELD,
    fault_fails,
    faults_for,
    proof,
    proof_counts,
    proof_lines,
    proof_problems,
    unproven,
    unproven_forms,
)
from rules_ref.vectors.requirements import ANALYSED_KINDS
from rules_ref.vectors.rule_faults import not_enforced


@cache
def _loaded() -> tuple[tuple[str, vectors.Case], ...]:
    return tuple((f.kind, c) for f, c in vectors.iter_cases(
        vectors.load_dir(vectors.latest_dir()), ANALYSED_KINDS))


def _pairs() -> list[tuple[str, vectors.Case]]:
    return list(_loaded())


def _case(case_id: str) -> vectors.Case:
    return copy.deepcopy(next(c for _, c in _loaded() if c["id"] == case_id))


def test_every_published_case_is_proven_and_one_form_is_left_out() -> None:
    pairs = _pairs()
    assert unproven(pairs) == []
    assert proof_problems([c for _, c in pairs]) == []
    assert proof_counts(pairs) == {
        "passing": (35, 0), "legal-plays": (92, 0), "trick": (627, 0), "scoring": (62, 0),
        "moon": (28, 0), "game-end": (27, 0), "illegal-action": (74, 0), "perft": (14, 0),
        "transcript": (11, 0)}
    # its deal ends with the trick, so the observation shows no trick and no fault of the
    # rules it cites changes the points: the full replay is kept, proven by its prefix
    assert unproven_forms(pairs) == ["trick/allanh-p8-s38-trick13.position"]
    assert "trick/allanh-p8-s38-trick13" in {c["id"] for _, c in pairs}
    assert proof_lines(pairs)[-2:] == [
        "0 unproven", "1 position-start form left out, no fault failing them: "
        "trick/allanh-p8-s38-trick13.position"]


#: A fixed sample, one or more of each kind and of each way of proving: the proof recomputed.
SAMPLE: dict[str, dict[str, Any]] = {
    "passing/default-deal1-left-p6": {"rule": "PASS.CARDS", "switch": "pass_count",
                                      "value": 2},
    "legal-plays/opening-only-points-p6.position": {"rule": "LEAD.OPENING_CARD",
                                                    "slip": "opening-lead-strict"},
    "legal-plays/broken-by-cancelled-heart-p6": {"rule": "HEARTS.BROKEN",
                                                 "slip": "card-not-breaking", "card": "2H"},
    "trick/no-trumps-p8.position": {"rule": "DECK.RANKING", "slip": "card-ranked-lower",
                                    "card": "5S"},
    "trick/allanh-p8-s15-trick2": {"rule": "TRICK.NEXT_LEADER", "slip": "leader-stays"},
    "trick/last-trick-kept-p6": {"rule": "TRICK.NEXT_LEADER", "slip": "leader-rotates"},
    "scoring/last-trick-void-split-points-odd-p8": {
        "rule": "SCORE.CARD_POINTS", "switch": "last_trick_void", "value": "nobody"},
    "moon/choice-subtract-p8": {"rule": "MOON.CHOICE", "switch": "moon", "value": "others-52"},
    "game-end/just-below-p8.position": {"rule": "GAME.END", "switch": "target", "value": 100},
    "game-end/target-200-allanh-p8": {"rule": "GAME.END", "slip": "target-exceeded"},
    "illegal-action/wrong-seat-p6": {"rule": "TURN.ORDER", "slip": "rule-not-enforced"},
    "perft/mid-trick1-p6": {"rule": "FOLLOW.SUIT", "slip": "rule-not-enforced"},
}


@pytest.mark.parametrize("case_id", sorted(SAMPLE))
def test_a_recorded_proof_is_what_judging_the_case_gives(case_id: str) -> None:
    case = _case(case_id)
    assert case[FIELD] == SAMPLE[case_id]
    assert proof(case) == SAMPLE[case_id]


def test_a_form_whose_position_holds_hearts_broken_has_no_proof(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the Q-spades of the prefix broke hearts: built anyway, the form starts with hearts
    # broken, and neither another hearts_broken_by nor the Q-spades that never breaks
    # hearts fails it; the full replay, which plays the Q-spades, is proven
    case = _case("legal-plays/broken-by-queen-p6")
    monkeypatch.setattr(position_forms, "settled", lambda case, state: [])
    form = position_forms.position_form(case)
    assert form is not None and form["id"] == "legal-plays/broken-by-queen-p6.position"
    assert proof(form) is None
    assert proof(case) == {"rule": "HEARTS.BROKEN", "switch": "hearts_broken_by",
                           "value": "heart"}


#: Each fault this module adds, a case it fails and one it does not.
ADDED = [
    ("TRICK.WINNER", "winner-any-suit", "trick/no-trumps-p8", "trick/highest-cancelled-p7"),
    ("TRICK.NEXT_LEADER", "leader-rotates", "trick/last-trick-kept-p6",
     "trick/allanh-p8-s15-trick2"),
    ("TRICK.NEXT_LEADER", "leader-stays", "trick/allanh-p8-s15-trick2",
     "trick/void-trick1-extras-pending-p6"),
    ("LEAD.OPENING_CARD", "opening-lead-strict", "legal-plays/opening-only-points-p6",
     "legal-plays/opening-no-points-p6"),
    ("LEAD.HEARTS", "hearts-lead-strict", "legal-plays/lead-hearts-only-hearts-p6",
     "legal-plays/opening-no-points-p6"),
    ("FOLLOW.FIRST_TRICK", "first-trick-every-trick",
     "legal-plays/first-trick-forbidden-trick2-template",
     "legal-plays/first-trick-forbidden-only-points-template"),
    ("FOLLOW.FIRST_TRICK", "first-trick-no-exception",
     "legal-plays/first-trick-forbidden-only-points-template",
     "legal-plays/first-trick-forbidden-trick2-template"),
    ("GAME.END", "target-exceeded", "game-end/target-200-allanh-p8",
     "game-end/not-during-a-deal-p6"),
    ("GAME.END", "game-ends-mid-deal", "game-end/not-during-a-deal-p6",
     "game-end/target-200-allanh-p8"),
    ("HEARTS.BROKEN", "card-not-breaking", "legal-plays/broken-by-cancelled-heart-p6",
     "trick/highest-cancelled-p7"),
]


@pytest.mark.parametrize(("rule", "slip", "failing", "passing"), ADDED,
                         ids=[f"{r}-{s}" for r, s, _, _ in ADDED])
def test_each_added_fault_fails_a_case_and_passes_another(rule: str, slip: str, failing: str,
                                                         passing: str) -> None:
    case = _case(failing)
    assert any(fault_fails(case, f) for f in faults_for(case, rule) if f.slip == slip)
    other = _case(passing)
    found = [f for f in faults_for(other, rule) if f.slip == slip]
    # a fault about a card is about the cards that broke hearts in its own case
    assert (slip == "card-not-breaking" or found) and not any(fault_fails(other, f)
                                                               for f in found)


def test_a_rule_not_enforced_accepts_what_it_alone_forbids() -> None:
    wrong_seat = _case("illegal-action/wrong-seat-p6")
    assert fault_fails(wrong_seat, not_enforced("TURN.ORDER"))
    assert not fault_fails(wrong_seat, not_enforced("FOLLOW.SUIT"))
    opening = _case("legal-plays/opening-no-points-p6")
    # the opening lead's hearts and QS, rejected under LEAD.OPENING_CARD alone
    assert fault_fails(opening, not_enforced("LEAD.OPENING_CARD"))
    assert not fault_fails(opening, not_enforced("TURN.ORDER"))
