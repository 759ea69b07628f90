"""Protocol version 2 (``spec/protocol.md``): its messages, its semantics, and version 1 unchanged.

* every message version 2 adds has a schema, and every request and answer of
  a real ``conform`` search in version 2 validates against its schema;
* a batch is answered exactly as the same actions sent one by one, a
  rejected action in the middle included; ``actions`` gives the same answers
  in both versions;
* a start from a position gives the observation of that position;
* an internal failure of the implementation is an ``error`` answer;
* the reference adapter forced to version 1 speaks only version 1 and
  ``conform`` gives the same verdict and the same figures in both versions;
* both adapter templates answer ``hello`` and a short conversation.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules_ref import conform as runner
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.players.game import game_steps
from rules_ref.positions.convert import position_of, position_to_json, state_from_position
from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.messages import CAPABILITIES, AdapterFault, batch_answers, expand_changes
from rules_ref.protocol.observation import PROTOCOL_VERSIONS, observe
from rules_ref.protocol.reference_adapter import PROTOCOL_ENV, ReferenceAdapter
from rules_ref.state import GameState
from rules_ref.state_parts import Phase

from .protocol_messages import ROOT, SCHEMAS, UNBOUNDED, dealt_start, errors, record

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
V2_SCHEMAS = ("batch-request", "batch-response", "start-position", "observe", "error")
REQUEST_SCHEMA = {"hello": "hello-request", "start": "start", "action": "action",
                  "batch": "batch-request", "observe": "observe", "bye": "bye"}
ANSWER_SCHEMA = {"hello": "hello-response", "observation": "observation", "batch":
                 "batch-response", "rejected": "rejected", "error": "error", "bye": "bye"}


@pytest.fixture(scope="module")
def conversation() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    outcome, log = record(runner.Config(command=REFERENCE, examples=12, seed=21,
                                        max_seconds=UNBOUNDED))
    assert outcome.failure is None and outcome.fault is None
    yield log


# --- schemas --------------------------------------------------------------------------------


def test_every_v2_message_has_a_valid_schema() -> None:
    for name in V2_SCHEMAS:
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
        Draft202012Validator.check_schema(schema)
        assert schema["title"].startswith("Adapter protocol v2: "), name
    hello = json.loads((SCHEMAS / "hello-response.schema.json").read_text())
    assert hello["properties"]["capabilities"]["items"]["enum"] == list(CAPABILITIES)
    assert hello["properties"]["version"]["enum"] == list(PROTOCOL_VERSIONS)


def test_start_from_a_position_embeds_the_position_schema() -> None:
    """The start's copy of spec/schemas/position.schema.json is the same schema."""
    position = json.loads((SCHEMAS.parent / "position.schema.json").read_text())
    start = json.loads((SCHEMAS / "start-position.schema.json").read_text())
    copied = dict(start["$defs"]["position"])
    copied.pop("description")
    assert copied == {k: v for k, v in position.items()
                      if k not in ("$schema", "$defs", "$id", "title", "description")}
    for name, schema in position["$defs"].items():
        assert start["$defs"][name] == schema, name
    state = [after for _, _, after, _ in game_steps(players=8, seed=1)][30]
    position_json = position_to_json(position_of(state))
    message = {"id": 1, "type": "start", "players": 8, "ruleset": state.ruleset.to_dict(),
               "position": position_json}
    assert errors("start-position", message) == []
    position_json["trick"] = ["1X"]
    assert errors("start-position", message) != []


@pytest.mark.untraced
def test_v2_conversation_matches_the_schemas(
        conversation: list[tuple[str, dict[str, Any]]]) -> None:
    kinds: Counter[str] = Counter()
    for side, message in conversation:
        table = REQUEST_SCHEMA if side == "request" else ANSWER_SCHEMA
        name = table[message["type"]]
        if side == "request" and "position" in message:
            name = "start-position"  # a start again from the reference's position
        kinds[f"{side} {name}"] += 1
        # every message but the commonest (a batch of plays mid-deal): a quarter of those
        if name != "batch-response" or kinds[f"{side} {name}"] % 4 == 1 or any(
                item["type"] != "changes" or "phase" in item for item in message["answers"]):
            assert errors(name, message) == [], message
    assert kinds["request hello-request"] == 1 and kinds["request bye"] == 1
    assert kinds["request start"] >= 12
    assert kinds["request start-position"] == 2  # the games drawn to, where nothing diverged
    assert kinds["request action"] == 0  # every action went in a batch
    assert kinds["request batch-request"] == kinds["answer batch-response"] >= 12
    assert kinds["request observe"] >= 1
    hello = next(m for side, m in conversation if side == "answer" and m["type"] == "hello")
    assert hello["version"] == 2
    assert hello["capabilities"] == ["position", "batch", "observe", "changes", "pipeline"]
    items = [item for side, m in conversation if m["type"] == "batch" and side == "answer"
             for item in m["answers"]]
    kinds = Counter(item["type"] for item in items)
    assert set(kinds) == {"changes", "rejected"}  # each batch follows an observation
    # a play changes one hand: only that seat's hand is sent
    plays = [i for i in items if i["type"] == "changes" and type(i.get("hands")) is dict
             and "trick" in i and "phase" not in i]
    assert plays and all(len(i["hands"]) == 1 for i in plays[:50])


def test_broken_v2_messages_do_not_validate() -> None:
    assert errors("error", {"id": 3, "type": "error"}) == ["'message' is a required property"]
    assert errors("batch-request", {"id": 3, "type": "batch", "actions": []}) == [
        "[] should be non-empty"]
    item: dict[str, Any] = {"type": "rejected", "reason": "x"}
    answer = {"id": 3, "type": "batch", "answers": [item]}
    assert errors("batch-response", answer) != []  # no index
    item["index"] = 0
    assert errors("batch-response", answer) == []
    v1 = {"id": 0, "type": "hello", "protocol": "cancellation-hearts-adapter", "version": 1,
          "name": "x", "supports": {"players": [8]}, "capabilities": ["batch"]}
    assert errors("hello-response", v1) != []
    assert errors("hello-response", {**v1, "version": 2}) == []
    assert errors("hello-response", {**v1, "version": 2, "capabilities": ["teleport"]}) != []
    assert errors("observe", {"id": 1, "type": "observe", "seat": 2}) != []


# --- batches --------------------------------------------------------------------------------


def _game_actions() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A start and the actions of its first deal, with illegal ones among them."""
    steps = list(game_steps(players=7, seed=5))
    before = steps[0][2]
    assert before.phase is Phase.PASSING
    start = dealt_start(before)
    actions = []
    for i, (state, action, after, _) in enumerate(steps[1:]):
        if i % 9 == 4 and state.phase is Phase.PLAYING and state.to_act is not None:
            # the seat after the one to act plays its first card: out of turn
            seat = (state.to_act + 1) % 7
            actions.append({"type": "play", "seat": seat, "card": str(state.hands[seat][0])})
        actions.append(action_to_json(action))
        if after.phase is Phase.DEALING:
            break
    return start, actions


def test_a_batch_answers_as_the_actions_sent_one_by_one() -> None:
    start, actions = _game_actions()
    with AdapterProcess(REFERENCE) as v2, \
            AdapterProcess([*REFERENCE, "--protocol", "1"]) as v1:
        v2.hello()
        v1.hello()
        assert v2.can("batch") and not v1.can("batch")
        assert v2.request(start)["type"] == v1.request(start)["type"] == "observation"
        one_by_one = v1.actions(actions)
        assert len(one_by_one) == len(actions)
        rejected = [i for i, a in enumerate(one_by_one) if a["type"] == "rejected"]
        assert len(rejected) >= 5 and rejected[0] < len(actions) - 1
        # in batches of 7 (a rejection falls inside batches, not only at their ends)
        batched = []
        for first in range(0, len(actions), 7):
            batched.extend(v2.batch(actions[first:first + 7]))
        assert batched == one_by_one
        assert v2.request(start)["type"] == "observation"
        assert v2.actions(actions) == one_by_one
        assert v2.observe() == {"id": v2._next_id - 1, "type": "observation",
                                **{k: v for k, v in one_by_one[-1].items() if k != "type"}}


def test_batch_answers_are_checked() -> None:
    items: list[dict[str, Any]] = [
        {"index": 0, "type": "rejected", "reason": "out of turn", "rule": "TURN.ORDER"},
        {"index": 1, "type": "error", "message": "boom"}]
    good: dict[str, Any] = {"id": 4, "type": "batch", "answers": items}
    assert batch_answers(copy.deepcopy(good), 2, "m") == [
        {"type": "rejected", "reason": "out of turn", "rule": "TURN.ORDER"},
        {"type": "error", "message": "boom"}]
    # an error may end a batch early
    assert len(batch_answers(copy.deepcopy(good), 5, "m")) == 2
    cases = {
        "batch": [({**good, "answers": items[:1]}, 2),  # one answer short
                  (good, 1),  # one too many
                  ({**good, "answers": items[::-1]}, 2)],  # out of order
        "capability": [({"id": 4, "type": "observation"}, 2)],
        "shape": [({**good, "extra": 1}, 2),
                  ({**good, "answers": [{"index": 0, "type": "error"}]}, 1)],
    }
    for kind, bad in cases.items():
        for answer, count in bad:
            with pytest.raises(AdapterFault) as caught:
                batch_answers(copy.deepcopy(answer), count, "m")
            assert caught.value.kind == kind, (answer, str(caught.value))


def test_changes_stand_for_the_whole_observation() -> None:
    state = [after for _, _, after, _ in game_steps(players=6, seed=3)][20]
    before = {"type": "observation", **observe(state)}
    after_play = state.apply(state.legal_actions()[0])[0]
    expected = {"type": "observation", **observe(after_play)}
    adapter = ReferenceAdapter()
    adapter.sent = before
    item = adapter.changes(dict(expected))
    assert item["type"] == "changes" and set(item) < set(expected) | {"type"}
    assert list(item["hands"]) == [str(state.to_act)]  # only the hand that played
    assert expand_changes(before, item, "m") == expected
    for previous, bad, message in [
            (None, item, "has sent no observation yet"),
            ({**before, "hands": None}, item, "the previous observation has no hands"),
            (before, {**item, "hands": {"6": []}}, 'changes seat "6", not a seat'),
            (before, {**item, "hands": {"\u00b2": []}}, 'changes seat "\\u00b2", not a seat')]:
        with pytest.raises(AdapterFault) as caught:
            expand_changes(previous, bad, "m")
        assert caught.value.kind == "shape" and message in str(caught.value)


# --- positions, errors, versions -------------------------------------------------------------


@pytest.mark.untraced
def test_start_from_a_position_observes_that_position() -> None:
    steps = list(game_steps(players=9, seed=2))
    states = [after for _, _, after, _ in steps if after.phase is not Phase.GAME_OVER]
    picked = [s for s in states[5::23]] + [s for s in states if s.pending][:1]
    assert {s.phase for s in picked} >= {Phase.PASSING, Phase.PLAYING}
    with AdapterProcess(REFERENCE) as proc:
        proc.hello()
        for state in picked:
            pos = position_of(state)
            answer = proc.start_position(9, state.ruleset.to_dict(), position_to_json(pos))
            assert answer.pop("type") == "observation"
            answer.pop("id")
            assert answer == observe(state_from_position(pos, state.ruleset))
            if state.phase is Phase.PLAYING:
                live = observe(state)
                assert answer["last_trick"] is None  # no history before the position
                assert {k: v for k, v in answer.items() if k != "last_trick"} == \
                    {k: v for k, v in live.items() if k != "last_trick"}


def test_an_unreachable_position_is_rejected_naming_the_field() -> None:
    state = [after for _, _, after, _ in game_steps(players=8, seed=1)][30]
    position = position_to_json(position_of(state))
    position["hands"][0] = position["hands"][1]
    adapter = ReferenceAdapter()
    adapter.hello({"versions": [1, 2]})
    answer = adapter.handle({"id": 1, "type": "start", "players": 8,
                             "ruleset": state.ruleset.to_dict(), "position": position})
    assert answer["type"] == "rejected"
    assert answer["reason"].startswith("cannot start from this position: ")
    assert "position" in answer["reason"]


def test_an_internal_failure_is_an_error_answer() -> None:
    class Crashing(ReferenceAdapter):
        def observe(self, state: GameState) -> dict[str, Any]:
            raise ZeroDivisionError("division by zero")

    adapter = Crashing()
    assert adapter.hello({"versions": [1, 2]})["version"] == 2
    start, actions = _game_actions()
    assert adapter.handle(start) == {"type": "error",
                                     "message": "ZeroDivisionError: division by zero"}
    answer = adapter.handle({"type": "batch", "actions": actions[:3]})
    assert answer["answers"][-1]["type"] == "error" and len(answer["answers"]) == 1
    old = Crashing(protocol=1)
    old.hello({"versions": [1, 2]})
    with pytest.raises(ZeroDivisionError):  # version 1 has no error answer
        old.handle(start)


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_reference_adapter_forced_to_version_1(how: str) -> None:
    command = [*REFERENCE, "--protocol", "1"] if how == "argument" else REFERENCE
    env = {PROTOCOL_ENV: "1"} if how == "environment" else {}
    hello = {"id": 0, "type": "hello", "protocol": "cancellation-hearts-adapter",
             "versions": [1, 2]}
    done = subprocess.run(command, input=json.dumps(hello) + "\n" + json.dumps(
        {"id": 1, "type": "batch", "actions": []}) + "\n", capture_output=True, text=True,
        timeout=60, env={**_environ(), **env}, check=False)
    answer = json.loads(done.stdout.splitlines()[0])
    assert answer["version"] == 1 and "capabilities" not in answer
    assert errors("hello-response", answer) == []
    assert done.returncode == 2  # a batch is no version-1 request
    assert "unknown request type 'batch'" in done.stderr


def test_reference_adapter_refuses_an_unknown_version() -> None:
    done = subprocess.run([*REFERENCE, "--protocol", "3"], input="", capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert done.stderr.strip() == "adapter: protocol version '3' is not one of 1, 2"


def _environ() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != PROTOCOL_ENV}


def _figures(outcome: runner.Outcome) -> dict[str, Any]:
    s = outcome.stats
    return {"games": s.games, "deals": s.deals, "actions": s.actions, "illegal": s.illegal,
            "citations": s.citations, "rare": dict(s.rare)}


@pytest.mark.untraced
def test_conform_gives_the_same_verdict_in_both_versions() -> None:
    config = runner.Config(command=REFERENCE, examples=15, seed=4, max_seconds=UNBOUNDED)
    new, log2 = record(config)
    old, log1 = record(runner.Config(command=[*REFERENCE, "--protocol", "1"], examples=15,
                                     seed=4, max_seconds=UNBOUNDED))
    assert new.failure is None and old.failure is None and new.fault is old.fault is None
    assert new.supports is not None and new.supports.version == 2
    assert old.supports is not None and old.supports.version == 1
    # the v2 run also started the implementation again from positions (one answer each)
    assert (new.stats.position_starts, old.stats.position_starts) == (1, 0)
    assert _figures(new) == {**_figures(old), "actions": _figures(old)["actions"] + 1}
    assert {m["type"] for side, m in log1 if side == "request"} == {
        "hello", "start", "action", "bye"}
    # the same actions, in the same order, went to both
    sent1 = [m["action"] for side, m in log1 if side == "request" and m["type"] == "action"]
    sent2 = [a for side, m in log2 if side == "request" and m["type"] == "batch"
             for a in m["actions"]]
    assert sent1 == sent2


# --- templates -------------------------------------------------------------------------------


def _template_conversation(command: list[str]) -> None:
    with AdapterProcess(command, timeout=20) as proc:
        hello = proc.hello()
        assert errors("hello-response", hello) == []
        assert hello["version"] == 2 and hello["supports"]["players"] == [6, 7, 8, 9, 10, 11]
        assert proc.capabilities == ("batch", "pipeline")
        start = proc.request({"type": "start", "players": 6})
        assert errors("rejected", start) == [] and start["type"] == "rejected"
        action = proc.act({"type": "play", "seat": 1, "card": "2C"})
        assert errors("rejected", action) == [] and action["type"] == "rejected"
        answers = proc.batch([{"type": "play", "seat": 1, "card": "2C"},
                              {"type": "play", "seat": 2, "card": "3C"}])
        assert [a["type"] for a in answers] == ["rejected", "rejected"]
        assert proc.request({"type": "bye"}) == {"id": 4, "type": "bye"}
        assert proc.proc.wait(timeout=10) == 0


def test_python_template_speaks_version_2() -> None:
    template = ROOT / "spec" / "adapter-template.py"
    assert template.stat().st_mode & 0o111, "the template is executable"
    assert template.read_text().startswith("#!/usr/bin/env python3\n")
    _template_conversation([str(template)])


@pytest.mark.skipif(shutil.which("node") is None, reason="node (Node.js) is not installed")
def test_node_template_speaks_version_2() -> None:
    _template_conversation(["node", str(ROOT / "spec" / "adapter-template.mjs")])
