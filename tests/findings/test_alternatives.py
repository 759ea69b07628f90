"""A difference is named by the alternative to a rule that gives the implementation's answer.

Each case plays one step of a broken engine in this process (:mod:`tests.fakes.slip_engines`)
from the reference's state, files the failure a run records for it, and states the exact
finding: its rule, its words, the facet's words, what the implementation does (the
alternative's words) and the switch, named only where one of its values gives the answer.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.actions import Play
from rules_ref.findings.alternatives import (
    explaining_values,
    switch_alternatives,
)
from rules_ref.findings.classes import Findings
from rules_ref.findings.failure import Failure
from rules_ref.protocol.observation import observe
from rules_ref.registry import spec_toml
from rules_ref.wording.slips import UNEXPLAINED
from tests.fakes.slip_engines import (
    answer,
    failure_of,
    findings_of,
    pair_not_cancelled,
    plays_values,
    reference_step,
    void_last_to_leader,
    void_won_by_leader,
)

#: A trick nobody wins, in the middle of a deal (seed 6, 7 players).
VOID_TRICK = (7, 6, 621)
#: The deal's last trick, which nobody wins (seed 8, 7 players).
VOID_LAST = (7, 8, 1483)
#: A trick whose cancelled pair of 10♠ lets another card win it (seed 5, 7 players).
TEN_PAIR = (7, 5, 1250)


def _facets(finding: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    return [(f["words"], f["explanation"], f["switch"]) for f in finding["facets"]]


@pytest.mark.rule("VOID.TRICK")
def test_a_trick_nobody_wins_kept_by_its_leader_is_the_void_tricks() -> None:
    before, action = reference_step(*VOID_TRICK)
    assert isinstance(action, Play) and before.apply(action)[0].tricks[-1].winner is None
    [finding] = findings_of((void_won_by_leader, VOID_TRICK))
    assert finding["key"] == "VOID.TRICK: differs on a trick without a winner"
    assert _facets(finding) == [("gives a void trick a winner",
                                 "gives a trick nobody wins to the seat that led it", None)]
    assert finding["switch"] is None
    assert finding["words"] == [
        "VOID.TRICK: differs on a trick without a winner",
        "  gives a void trick a winner",
        "    the implementation gives a trick nobody wins to the seat that led it"]


@pytest.mark.rule("VOID.TRICK")
def test_the_same_slip_at_the_deals_last_trick_is_the_same_finding() -> None:
    # kept by its leader, the void last trick hands the leader what last_trick_void = leader
    # would: one cause, one finding, and no switch the engine never declared
    [finding] = findings_of((void_won_by_leader, VOID_TRICK), (void_won_by_leader, VOID_LAST))
    assert finding["rule"] == "VOID.TRICK"
    assert _facets(finding) == [
        ("gives a void trick a winner", "gives a trick nobody wins to the seat that led it",
         None),
        ("gives a trick nobody wins to the seat that led it",
         "gives a trick nobody wins to the seat that led it", None)]
    assert finding["count"] == 2


@pytest.mark.rule("VOID.LAST")
def test_a_void_last_trick_given_to_its_leader_is_named_by_the_value_that_does_it() -> None:
    [finding] = findings_of((void_last_to_leader, VOID_LAST))
    assert finding["key"] == "VOID.LAST: differs on cards still pending at the end of a deal"
    assert finding["switch"] == "last_trick_void"
    [(words, explanation, switch)] = _facets(finding)
    assert (words, switch) == ("scores the cards a void last trick leaves pending, which "
                               "nobody collects", "last_trick_void")
    assert explanation.startswith("plays as if last_trick_void were leader: ")
    assert finding["words"][-1] == ("  decided by the switch last_trick_void (here nobody): "
                                    "rules-ref rules VOID.LAST")


@pytest.mark.rule("TRICK.CANCEL")
def test_a_pair_that_does_not_cancel_is_cancellations() -> None:
    [finding] = findings_of((pair_not_cancelled("10S"), TEN_PAIR))
    assert finding["key"] == "TRICK.CANCEL: differs on identical cards cancel"
    assert _facets(finding) == [
        ("lets a cancelled card win a trick",
         "lets a pair of identical cards stand without cancelling them", None)]


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_each_facet_of_the_first_trick_names_the_switch_whose_value_it_plays() -> None:
    own = {"first_trick_points": "forbidden", "first_trick_two_of_clubs": "must-play"}
    found = Findings()
    for game, where in enumerate(((8, 1, 9), (8, 9, 123))):
        before, action = reference_step(*where)
        found.record(failure_of(before, action, plays_values(before, action, **own)), game, 0.0)
    [finding] = [c.to_json() for c in found.ordered()]
    assert finding["rule"] == "FOLLOW.FIRST_TRICK"
    assert [(f["words"], f["switch"]) for f in finding["facets"]] == [
        ("allows only 2♣ on the first trick", "first_trick_two_of_clubs"),
        ("forbids Q♠ on the first trick when void in the led suit", "first_trick_points")]
    assert finding["words"] == [
        "FOLLOW.FIRST_TRICK: differs on hearts and Q♠ on the first trick",
        "  allows only 2♣ on the first trick (1 time)",
        "    seat 2 may not play 5♣ while following suit; the rules allow it (and 1 more card "
        "differ)",
        "    the implementation plays as if first_trick_two_of_clubs were must-play: on trick "
        "1 of a deal, every player after the opening leader who holds a 2♣ must play a 2♣ to "
        "it, whether or not clubs were led: the 2♣ is then that player's only legal card, "
        "ahead of FOLLOW.SUIT and first_trick_points (a 2♣ is neither a heart nor a Q♠, so the "
        "two never conflict).",
        "    decided by the switch first_trick_two_of_clubs (here free): rules-ref rules "
        "FOLLOW.FIRST_TRICK",
        "  forbids Q♠ on the first trick when void in the led suit (1 time)",
        "    seat 4 may not play Q♠ on the first trick when void in the led suit; the rules "
        "allow it (and 4 more cards differ)",
        "    the implementation plays as if first_trick_points were forbidden: on trick 1 of a "
        "deal (whether or not it turns out void), a player who cannot follow suit may not "
        "play a heart or a Q♠, unless every card they hold is a heart or a Q♠.",
        "    decided by the switch first_trick_points (here allowed): rules-ref rules "
        "FOLLOW.FIRST_TRICK"]


@pytest.mark.rule("HEARTS.BROKEN")
def test_a_difference_no_alternative_gives_says_its_rule_is_read_from_the_fields() -> None:
    before, action = reference_step(*VOID_TRICK)
    after, _ = before.apply(action)
    actual = {**observe(after), "hearts_broken": not after.hearts_broken}
    found = Findings()
    found.record(failure_of(before, action, actual), 0, 0.0)
    [finding] = [c.to_json() for c in found.ordered()]
    assert finding["rule"] == "HEARTS.BROKEN"
    assert finding["switch"] is None
    assert _facets(finding)[0][1] == ""
    assert finding["words"][-1] == f"    {UNEXPLAINED}"


@pytest.mark.untraced
def test_every_listed_value_of_every_switch_is_an_alternative() -> None:
    listed = [(s["name"], tuple(v["value"]) if isinstance(v["value"], list) else v["value"])
              for s in spec_toml("variants.toml")["switch"] for v in s.get("value", ())]
    assert [(a.switch, a.value) for a in switch_alternatives()] == listed
    assert all(a.slip is None and a.words.startswith(f"plays as if {a.switch} were ")
               for a in switch_alternatives())


@pytest.mark.rule("VOID.LAST")
def test_the_values_that_explain_a_difference() -> None:
    before, action = reference_step(*VOID_LAST)
    after, _ = before.apply(action)
    actual = answer(void_last_to_leader, before, action)
    assert explaining_values(before, action, after, observe(after), actual) == [
        ("last_trick_void", "leader")]
    # a slip no value plays is explained by none
    before, action = reference_step(*VOID_TRICK)
    after, _ = before.apply(action)
    assert explaining_values(before, action, after, observe(after),
                             answer(void_won_by_leader, before, action)) == []


@pytest.mark.rule("TRICK.CANCEL")
def test_failures_hold_what_the_findings_read() -> None:
    before, action = reference_step(*TEN_PAIR)
    failure = failure_of(before, action, answer(pair_not_cancelled("10S"), before, action))
    assert isinstance(failure, Failure)
    assert failure.rules[0] == "TRICK.CANCEL"
    assert failure.fields == ["last_trick"]
