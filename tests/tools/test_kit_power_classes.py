"""How the kit-power campaign classes a mutant from what its runs found (``_classify``)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.mutation.kit_power import MESSAGE_ONLY, _classify


def _entry(vectors: bool, conform: bool, long: bool | None = None,
           message_only: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": "k", "vectors": {"caught": vectors},
                             "conform": {"caught": conform}, "message_only": message_only}
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
])
def test_the_class_of_a_mutant(entry: dict[str, Any], tested: dict[str, dict[str, Any]],
                               expected: str) -> None:
    _classify(entry, tested)
    assert entry["class"] == expected


def test_a_mutant_the_adapter_never_runs_stays_so() -> None:
    entry = {**_entry(False, False), "class": "not reached by the adapter"}
    _classify(entry, {})
    assert entry["class"] == "not reached by the adapter"
