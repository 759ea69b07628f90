"""Slips in an answer's form: told apart from rule differences, reported once, in words that
say the field, the form and the fix (``rules_ref.protocol.form``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.protocol.form import FORMS, HEAD, form_slip, slip
from rules_ref.protocol.observation import FIELDS

from ..fakes.form_slip_adapters import SLIPS, command

LAST = {"number": 3, "leader": 1, "cards": ["2C", "5C", "9C"], "winner": 2}


@pytest.mark.parametrize(("field", "expected", "got", "what"), [
    ("hands", [["2C", "3C"], ["4D", "5D"], ["6H"]], [["3C", "2C"], ["4D", "5D"], ["6H"]],
     "hands lists the cards of seat 0 in another order"),
    ("hands", [["2C", "3C"], ["4D", "5D"]], [["3C", "2C"], ["5D", "4D"]],
     "hands lists the cards of seats 0 and 1 in another order"),
    ("legal", ["5C", "9C"], ["5C", "5C", "9C", "9C"], "legal lists 5C and 9C twice"),
    ("legal", ["5C", "9C"], ["9C", "5C"], "legal lists the same cards in another order"),
    ("legal", ["subtract", "add"], ["add", "subtract"],
     "legal lists the same cards in another order"),
    ("pending", ["2C", "QS", "QS"], ["QS", "2C", "QS"],
     "pending lists the same cards in another order"),
    ("trick", ["5S", "5S", "KS"], ["KS", "5S", "5S"],
     "trick lists the same cards in another order"),
    ("waiting_for", [1, 2, 0], [0, 1, 2], "waiting_for lists the same seats in another order"),
    ("winners", [0, 3], [3, 0], "winners lists the same seats in another order"),
    ("last_trick", LAST, None,
     "last_trick is null where the reference keeps the last complete trick"),
    ("last_trick", LAST, {**LAST, "cards": ["9C", "5C", "2C"]},
     "last_trick lists the trick's cards in another order"),
])
def test_each_slip_is_named_in_words(field: str, expected: object, got: object,
                                     what: str) -> None:
    assert slip(field, expected, got) == what


@pytest.mark.parametrize(("field", "expected", "got"), [
    ("hands", [["2C", "3C"]], [["2C", "4C"]]),  # another card: the rules differ
    ("hands", [["2C", "3C"]], [["2C"]]),  # a card missing
    ("legal", ["5C", "9C"], ["5C"]),  # a card the reference allows is missing
    ("legal", ["5C", "5C"], ["5C"]),  # not a list of distinct cards: not the reference's
    ("pending", ["2C", "QS"], ["2C", "QS", "QS"]),  # a copy more is another pile
    ("last_trick", None, LAST),  # a trick the reference does not have
    ("last_trick", LAST, {**LAST, "winner": 1}),
    ("points", [1, 2], [2, 1]),  # per seat: a permutation is a difference
    ("totals", [0, 5], [5, 0]),
    ("to_act", 1, 2),
])
def test_a_difference_in_what_a_field_says_is_no_slip(field: str, expected: object,
                                                      got: object) -> None:
    assert slip(field, expected, got) is None


def test_the_fields_of_fixed_form_are_observation_fields() -> None:
    assert set(FORMS) <= set(FIELDS)


def test_a_slip_beside_a_real_difference_leaves_the_judging_to_the_rules() -> None:
    expected = {"hands": [["2C", "3C"]], "points": [0], "pending": []}
    assert form_slip(expected, {**expected, "hands": [["3C", "2C"]], "points": [4]}) is None
    assert form_slip(expected, expected) is None
    assert form_slip(expected, {**expected, "hands": [["3C", "2C"]]}) == (
        f"{HEAD}: hands lists the cards of seat 0 in another order (the form: every hand in "
        "canonical order (clubs, diamonds, hearts, spades; 2 to A)); fix: sort each hand into "
        "canonical order before sending it")


#: The message each adapter gets from ``conform --seed 2 --examples 20 --players 8``.
CONFORM = {
    "hands-own-order": (
        "a start", "hands lists the cards of seats 0, 1, 2, 3, 4, 5, 6 and 7 in another order "
        "(the form: every hand in canonical order (clubs, diamonds, hearts, spades; 2 to A)); "
        "fix: sort each hand into canonical order before sending it"),
    "legal-both-copies": (
        "a play", "legal lists 3H, 4H, 5H and 9H twice (the form: the distinct cards to_act "
        "may play, each once, in canonical order (in moon-choice the options subtract, add, in "
        "that order)); fix: list each card once, even when the seat holds both copies, in "
        "canonical order"),
    "last-trick-cleared": (
        "a play", "last_trick is null where the reference keeps the last complete trick (the "
        "form: the most recent complete trick of the deal, kept until the next one completes "
        "(null only before trick 1 is complete, between deals and after a start from a "
        "position until a trick completes), its cards in play order); fix: keep the last "
        "complete trick when the table is cleared, until the next trick completes"),
    "pending-own-order": (
        "a play", "pending lists the same cards in another order (the form: the pending pile "
        "in canonical order); fix: sort the pending pile into canonical order"),
}


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.untraced
@pytest.mark.parametrize("name", sorted(SLIPS))
def test_conform_reports_each_slip_once_as_an_answer_not_in_the_protocols_form(
        capsys: pytest.CaptureFixture[str], tmp_path: Any, name: str) -> None:
    code, summary = _json(capsys, "conform", "--json", "--seed", "2", "--examples", "20",
                          "--players", "8", "--max-seconds", "600", "--timeout", "60",
                          "--out", str(tmp_path), "--", *command(name))
    assert (code, summary["verdict"]) == (2, "fault")
    at, words = CONFORM[name]
    start = "the start of a game" if at == "a start" else at
    assert [(c["kind"], c["what"]) for c in summary["classes"]] == [
        ("fault", f"adapter fault (form) on {start}")]
    assert summary["failure"]["summary"] == f"adapter form: {HEAD}: {words}"


#: What follows the slip's own words (which name the seats or cards of the first case that
#: shows it) in the message ``vectors run`` gives each adapter.
VECTORS = {
    "hands-own-order": (" in another order (the form: every hand in canonical order (clubs, "
                        "diamonds, hearts, spades; 2 to A)); fix: sort each hand into canonical "
                        "order before sending it"),
    "legal-both-copies": (" twice (the form: the distinct cards to_act may play, each once, "
                          "in canonical order (in moon-choice the options subtract, add, in "
                          "that order)); fix: list each card once, even when the seat holds "
                          "both copies, in canonical order"),
}


@pytest.mark.untraced
@pytest.mark.parametrize("name", sorted(VECTORS))
def test_vectors_report_a_slip_once_as_an_answer_not_in_the_protocols_form(
        capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, report = _json(capsys, "vectors", "run", "--json", "--", *command(name))
    assert (code, report["verdict"]) == (2, "fault")
    field = name.split("-")[0]
    message = report["fault"]["message"]
    assert report["fault"]["kind"] == "form"
    assert message.startswith(f"{HEAD}: {field} lists ") and message.endswith(VECTORS[name])
    # reported once: the run stops there, no case failed on a rule
    assert not [c for c in report["cases"] if c["status"] == "fail"]
