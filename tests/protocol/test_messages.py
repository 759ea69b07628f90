"""The checks of the adapter protocol's messages: each malformed answer named exactly."""

from __future__ import annotations

from typing import Any

import pytest

from rules_ref.protocol.handshake import Supports, parse_supports
from rules_ref.protocol.messages import AdapterFault, batch_answers, check_error, describe_status


def test_exit_statuses_in_words() -> None:
    assert describe_status(3) == "3"
    assert describe_status(-9) == "killed by signal SIGKILL"
    assert describe_status(-200) == "killed by signal 200"


def _fault(call: Any, *args: Any) -> tuple[str, str]:
    with pytest.raises(AdapterFault) as caught:
        call(*args)
    return caught.value.kind, caught.value.detail


@pytest.mark.parametrize(("answer", "kind", "detail"), [
    ({"answers": []}, "capability", "the answer to m is untyped, not a batch: the adapter "
     "declared the capability batch in its hello but does not answer batch requests"),
    ({"type": "dance", "answers": []}, "shape",
     'the answer to m is of type "dance"; expected batch'),
    ({"type": "batch", "answers": [], "extra": 1}, "shape",
     "the batch answer to m: unknown field(s) extra"),
    ({"type": "batch", "answers": {}}, "shape",
     "the batch answer to m: answers must be a list, got {}"),
    ({"type": "batch", "answers": [[]]}, "shape",
     "answer 0 of m is not a JSON object but a list"),
    ({"type": "batch", "answers": [{"index": True, "type": "rejected", "reason": "r"}]},
     "batch", "answer 0 of m carries index true: the answers must come in the order of the "
     "actions, each with its index (here 0)"),
])
def test_malformed_batch_answers(answer: dict[str, Any], kind: str, detail: str) -> None:
    assert _fault(batch_answers, answer, 1, "m") == (kind, detail)


def test_an_error_answer_with_an_unknown_field() -> None:
    kind, detail = _fault(check_error, {"type": "error", "message": "m", "trace": "t"}, "x")
    assert kind == "shape" and "unknown field(s) trace" in detail


@pytest.mark.parametrize(("supports", "detail"), [
    (None, 'hello.supports must be {"players": [...], "switches": {...}}'),
    ({"players": []}, "hello.supports.players must be a non-empty list of player counts 5-11, "
                      "got []"),
    ({"players": [6], "switches": []}, "hello.supports.switches must be an object"),
])
def test_malformed_supports(supports: object, detail: str) -> None:
    assert _fault(parse_supports, {"supports": supports}) == ("handshake", detail)


FIVE_WITHOUT_MIN = ('hello.supports.players lists 5, but 5 players are played only under '
                    'min_players = 5 (PLAYERS.COUNT): add "min_players": [5, 6] to '
                    'hello.supports.switches, or leave 5 out of players')


@pytest.mark.parametrize("switches", [{}, {"min_players": [6]}, {"pass_count": "any"}])
def test_five_players_without_min_players_five_are_refused_with_the_fix(
        switches: dict[str, Any]) -> None:
    hello = {"supports": {"players": [5, 8], "switches": switches}}
    assert _fault(parse_supports, hello) == ("handshake", FIVE_WITHOUT_MIN)


@pytest.mark.parametrize("min_players", [[5], [6, 5], "any"])
def test_five_players_under_a_declared_min_players_five_are_accepted(min_players: object) -> None:
    hello = {"supports": {"players": [5, 8], "switches": {"min_players": min_players}}}
    assert parse_supports(hello).players == (5, 8)


def test_a_long_name_is_clipped_and_capabilities_asked() -> None:
    supports = parse_supports({"supports": {"players": [6, 7]}, "name": "n" * 300})
    assert isinstance(supports, Supports)
    assert supports.name == "n" * 200 + "…"
    assert list(supports.players) == [6, 7]
    assert supports.can("batch") is False
