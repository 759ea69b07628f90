"""How the kit-power campaign classes a mutant from what its runs found (``_classify``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools.mutation.kit_power import (
    CITATION_ONLY,
    MESSAGE_ONLY,
    SAME_ANSWER,
    _classify,
    adapter_explanations,
    helper_rules,
)

ROOT = Path(__file__).resolve().parents[2]


def _entry(vectors: bool, conform: bool, long: bool | None = None,
           message_only: bool = False, citations: int = 0) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": "k", "mutation": "a -> b", "vectors": {"caught": vectors},
                             "conform": {"caught": conform, "citations": citations},
                             "message_only": message_only}
    if long is not None:
        entry["long_conform"] = {"caught": long}
    return entry


KILLED = {"k": {"status": "killed", "killed_by": "tests/t.py::test_x"}}
SURVIVED = {"k": {"status": "survived"}}


@pytest.mark.parametrize(("entry", "tested", "expected"), [
    (_entry(True, False), {}, "caught"),
    (_entry(False, True), SURVIVED, "caught"),
    # only the words of a message: no adapter run can see it
    (_entry(False, False, message_only=True), KILLED, MESSAGE_ONLY),
    # the tests kill it: the kit should have, whatever a long search would find
    (_entry(False, False), KILLED, "miss"),
    # no test kills it either, and the long search finds nothing: equivalent
    (_entry(False, False, long=False), SURVIVED, "equivalent at the adapter"),
    (_entry(False, False, long=True), SURVIVED, "miss"),
    # without the mutation report nothing shows it equivalent
    (_entry(False, False, long=False), {}, "miss"),
    # conform reported a rejection citing another rule: the protocol does not fail on it
    (_entry(False, False, citations=2), KILLED, CITATION_ONLY),
    (_entry(False, False, long=True, citations=2), SURVIVED, "miss"),
])
def test_the_class_of_a_mutant(entry: dict[str, Any], tested: dict[str, dict[str, Any]],
                               expected: str) -> None:
    _classify(entry, tested)
    assert entry["class"] == expected


def test_a_mutant_the_adapter_never_runs_stays_so() -> None:
    entry = {**_entry(False, False), "class": "not reached by the adapter"}
    _classify(entry, {})
    assert entry["class"] == "not reached by the adapter"


def test_an_explained_mutant_gives_the_same_answers_while_its_mutation_is_the_same() -> None:
    why = {"k": {"mutation": "a -> b", "why": "both refuse it"}}
    entry = _entry(False, False)
    _classify(entry, KILLED, why)
    assert (entry["class"], entry["why"]) == (SAME_ANSWER, "both refuse it")
    changed = {**_entry(False, False), "mutation": "a -> c"}
    _classify(changed, KILLED, why)
    assert changed["class"] == "miss"


def test_every_adapter_explanation_names_its_mutation_and_says_why() -> None:
    explained = adapter_explanations()
    assert sorted(explained) == ["rules_ref/cards.py:parse_card:compare:3",
                                 "rules_ref/deal.py:check_deal:constant:1",
                                 "rules_ref/deal.py:check_deal:constant:2",
                                 "rules_ref/deal.py:check_player_count:boolean:0"]
    assert all(set(e) == {"mutation", "why"} and " -> " in e["mutation"]
               for e in explained.values())


def test_a_helper_has_the_rules_of_the_functions_that_call_it() -> None:
    rules = helper_rules(ROOT)
    # cards.card makes the named cards at import time: no function calls it; a parameter
    # named card is no call of it
    assert rules["rules_ref/cards.py:card"] == ()
    # a property is used wherever it is read: after_trick reads outcome.void
    assert rules["rules_ref/tricks.py:TrickOutcome.void"] == ("VOID.COLLECT", "VOID.TRICK")
    assert rules["rules_ref/tricks.py:resolve_trick"] == ()
