"""The JSON Schemas of the adapter protocol (``spec/schemas/protocol``) match the messages.

Every request the runner sends and every answer of the reference adapter,
recorded from a real ``conform`` search, validates against the schema of
its message; a few broken messages do not. The adapter template
(``spec/adapter-template.py``) runs as it is and speaks the protocol.
"""

from __future__ import annotations

import copy
import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules_ref import conform as runner
from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.messages import SWITCHES, first_switches
from rules_ref.protocol.observation import FIELDS, PROTOCOL_NAME, PROTOCOL_VERSION
from rules_ref.ruleset import Ruleset

from .protocol_messages import ROOT, SCHEMAS, UNBOUNDED, errors, record

TEMPLATE = ROOT / "spec" / "adapter-template.py"
NAMES = ("hello-request", "hello-response", "start", "action", "observation", "rejected", "bye",
         # version 2 (tests/protocol/test_version_2.py)
         "start-position", "batch-request", "batch-response", "observe", "error")
REQUEST_SCHEMA = {"hello": "hello-request", "start": "start", "action": "action", "bye": "bye"}
ANSWER_SCHEMA = {"hello": "hello-response", "observation": "observation",
                 "rejected": "rejected", "bye": "bye"}


def test_one_valid_schema_per_message() -> None:
    assert sorted(p.name for p in SCHEMAS.iterdir()) == sorted(f"{n}.schema.json" for n in NAMES)
    for name in NAMES:
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schemas_list_the_protocol_fields() -> None:
    observation = json.loads((SCHEMAS / "observation.schema.json").read_text())
    assert observation["required"] == ["id", "type", *FIELDS]
    start = json.loads((SCHEMAS / "start.schema.json").read_text())
    switches = [f.name for f in fields(Ruleset)]
    assert start["$defs"]["ruleset"]["required"] == list(first_switches())
    hello = json.loads((SCHEMAS / "hello-response.schema.json").read_text())
    declared = hello["properties"]["supports"]["properties"]["switches"]["properties"]
    assert list(declared) == switches == list(SWITCHES)
    assert hello["properties"]["protocol"]["const"] == PROTOCOL_NAME


@pytest.fixture(scope="module")
def conversation() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Every message of a short ``conform`` search against the reference adapter, version 1."""
    outcome, log = record(runner.Config(
        command=[sys.executable, "-m", "rules_ref.protocol.reference_adapter"], examples=12,
        seed=21, versions=(1,), max_seconds=UNBOUNDED))
    assert outcome.failure is None and outcome.fault is None
    yield log


@pytest.mark.untraced
def test_runner_requests_match_their_schemas(
        conversation: list[tuple[str, dict[str, Any]]]) -> None:
    kinds: Counter[str] = Counter()
    for side, message in conversation:
        if side == "request":
            kinds[message["type"]] += 1
            assert errors(REQUEST_SCHEMA[message["type"]], message) == [], message
    assert kinds["hello"] == 1 and kinds["bye"] == 1 and kinds["start"] >= 12
    assert kinds["action"] > 12 * 6


def test_reference_answers_match_their_schemas(
        conversation: list[tuple[str, dict[str, Any]]]) -> None:
    kinds: Counter[str] = Counter()
    for side, message in conversation:
        if side == "answer":
            kinds[message["type"]] += 1
            # every answer but the commonest (a card played mid-deal): a tenth of those, and
            # each that ends a void trick
            if message.get("phase") != "playing" or kinds["observation"] % 10 == 1 or (
                    message.get("trick") == []
                    and (message.get("last_trick") or {}).get("winner", 0) is None):
                assert errors(ANSWER_SCHEMA[message["type"]], message) == [], message
    assert kinds["observation"] > 12 * 6 and kinds["rejected"] > 0
    phases = {m["phase"] for side, m in conversation if m.get("type") == "observation"}
    assert {"passing", "playing", "dealing"} <= phases


def test_broken_messages_do_not_validate(
        conversation: list[tuple[str, dict[str, Any]]]) -> None:
    observation = next(m for side, m in conversation if m.get("type") == "observation")
    assert errors("observation", {**observation, "score": 3}) == [
        "Additional properties are not allowed ('score' was unexpected)"]
    assert errors("observation", {**observation, "trick": ["1H"]}) == [
        "'1H' does not match '^(10|[2-9JQKA])[CDHS]$'"]
    assert errors("observation", {**observation, "hearts_broken": 0}) == [
        "0 is not of type 'boolean'"]
    start = next(m for side, m in conversation if m.get("type") == "start")
    ruleset = {k: v for k, v in start["ruleset"].items() if k != "target"}
    assert errors("start", {**start, "ruleset": ruleset}) == ["'target' is a required property"]
    assert errors("rejected", {"id": 3, "type": "rejected"}) == [
        "'reason' is a required property"]
    assert errors("rejected", {"id": 3, "type": "rejected", "reason": "x",
                               "rule": "follow suit"}) != []
    hello = next(m for side, m in conversation if m.get("type") == "hello" and "version" in m)
    bad = copy.deepcopy(hello)
    bad["supports"]["switches"]["jokers"] = "any"
    assert errors("hello-response", bad) == [
        "Additional properties are not allowed ('jokers' was unexpected)"]
    assert errors("action", {"id": 4, "type": "action",
                             "action": {"type": "play", "seat": 1}}) != []


def test_adapter_template_speaks_the_protocol() -> None:
    with AdapterProcess([sys.executable, str(TEMPLATE)], timeout=10) as proc:
        hello = proc.hello()
        assert errors("hello-response", hello) == []
        assert hello["version"] == PROTOCOL_VERSION
        assert hello["supports"]["players"] == [6, 7, 8, 9, 10, 11]
        start = proc.request({"type": "start", "players": 6})
        assert errors("rejected", start) == []
        action = proc.request({"type": "action", "action": {"type": "play", "seat": 1,
                                                           "card": "2C"}})
        assert errors("rejected", action) == []
        bye = proc.request({"type": "bye"})
        assert bye == {"id": 3, "type": "bye"}
        assert proc.proc.wait(timeout=5) == 0
