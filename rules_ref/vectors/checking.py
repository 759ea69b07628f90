"""Checking the vectors (``rules-ref vectors check``): schema, coverage, the reference agrees.

:func:`check_dir` reads a directory and reports every problem: the JSON
Schema (when ``jsonschema`` is installed; else a note says so), the shape of
each case (:mod:`~rules_ref.vectors.shape`), unique ids, rule IDs that exist, every rule and
every documented switch value covered by a targeted case, a transcript per
preset, and the reference engine still agreeing with every expected value
(:func:`replay_reference`; the unit kinds through :func:`unit_expected`), each
case's facts agreeing with its expectations (:mod:`.facts`), each case's
``depends_on`` (and ``depends_on_rerouted``) still what replaying it gives
(:mod:`.requirements`), the distinguishing matrix without a gap
(:mod:`.matrix`), and every card's single-card faults caught
(:mod:`.card_faults`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..cards import parse_card
from ..deal import seeded_deal, shuffled_deck
from ..errors import InputError, RulesRefError, SetupError
from ..jsonio.serialize import action_from_json
from ..protocol.start import start_state
from ..registry import load as load_registry
from ..registry import spec_toml
from ..ruleset import Ruleset
from .card_faults import card_gaps
from .case_replay import FAIL, InProcess, run_case
from .facts import facts_problems
from .files import (
    CONTRACT_VERSIONS,
    KINDS,
    LATEST,
    PROTOCOL_KINDS,
    VERSIONS,
    Case,
    Json,
    VectorFile,
    iter_cases,
    load_dir,
    schema_path,
)
from .kinds.seat_view import view_json
from .matrix import gaps
from .position_forms import is_position_start, twin_id
from .proof import proof_problems
from .requirements import ANALYSED_KINDS, FIELD, REROUTED, depends_on, depends_on_rerouted
from .scenario import texts
from .shape import file_problems
from .versions import documented_values, version_presets, version_ruleset


def schema_validator() -> Callable[[object], list[str]] | None:
    """A function listing schema errors, or ``None`` when ``jsonschema`` is not installed."""
    try:
        import jsonschema
    except ImportError:
        return None
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)

    def errors(data: object) -> list[str]:
        found = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
        return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}"
                for e in found[:5]]

    return errors


SCHEMA_NEEDS_DEV = ("schema validation skipped: it needs the jsonschema package "
                    "(pip install 'rules-ref[dev]'); every other check ran")


@dataclass
class CheckReport:
    """What :func:`check_dir` found: the problems, notes, and how many files and cases."""

    problems: list[str]
    notes: list[str]
    files: int
    cases: int


def _switch_values() -> list[tuple[str, Json, tuple[str, ...]]]:
    return [(s["name"], v["value"], tuple(s["rules"])) for s in spec_toml("variants.toml")["switch"]
            for v in s["value"]]


def check_dir(directory: Path, replay: bool = True) -> CheckReport:
    """Check the vectors of ``directory`` (see the module docstring)."""
    loaded = load_dir(directory)
    problems: list[str] = []
    files = []
    for f in loaded:
        shape, good = file_problems(f)
        problems.extend(shape)
        files.append(VectorFile(f.path, {**f.data, "cases": good}))
    notes: list[str] = []
    validate = schema_validator()
    if validate is None:
        notes.append(SCHEMA_NEEDS_DEV)
    registry_ids = [r.id for r in load_registry().rules]
    seen: dict[str, str] = {}
    covered: set[str] = set()
    n_cases = 0
    contracts = [f.data.get("contract_version") for f in files]
    for f in files:
        name = f.path.name
        if validate is not None:
            original = next(x for x in loaded if x.path == f.path)
            problems.extend(f"{name}: schema: {e}" for e in validate(original.data))
        contract = f.data.get("contract_version")
        if contract not in CONTRACT_VERSIONS:
            problems.append(f"{name}: contract_version {contract!r}, this runner follows "
                            f"{' and '.join(map(str, CONTRACT_VERSIONS))}")
        if contract != contracts[0]:
            problems.append(f"{name}: contract_version {contract!r}, but "
                            f"{files[0].path.name} has {contracts[0]!r}: one directory, "
                            "one contract")
        if f.kind not in KINDS:
            problems.append(f"{name}: unknown kind {f.kind!r}")
        for case in f.cases:
            n_cases += 1
            cid = str(case.get("id"))
            if cid in seen:
                problems.append(f"{name}: duplicate id {cid} (also in {seen[cid]})")
            seen[cid] = name
            if not cid.startswith(f"{f.kind}/"):
                problems.append(f"{name}: id {cid} does not start with {f.kind}/")
            if is_position_start(case.get("start")):
                twin = twin_id(cid)
                if f.data.get("contract_version") == 1:
                    problems.append(f"{name}: {cid} starts from a position, which contract "
                                    "version 1 does not have")
                if twin is None or not any(c.get("id") == twin for c in f.cases):
                    problems.append(f"{name}: {cid} starts from a position, but its "
                                    f"full-replay case {twin or cid + '?'} is not in the file")
            for rule in case.get("rules", []):
                if rule not in registry_ids:
                    problems.append(f"{name}: {cid} cites unknown rule {rule}")
                if f.kind != "transcript":
                    covered.add(rule)
            problems.extend(f"{name}: {p}" for p in facts_problems(f.kind, case))
            if f.kind in PROTOCOL_KINDS and isinstance(case.get("start"), dict) and (
                    case["start"].get("players") != case.get("players")
                    or case["start"].get("ruleset") != case.get("ruleset")):
                problems.append(f"{name}: {cid}: players/ruleset differ from its start message")
    problems.extend(f"rule {r} is covered by no vector (transcripts aside)"
                    for r in registry_ids if r not in covered)
    version = _directory_version(files)
    targeted = [c for f, c in iter_cases(files) if f.kind != "transcript"]
    for switch, value, rules in documented_values(version, _switch_values()):
        if not any(c.get("ruleset", {}).get(switch) == value
                   and set(rules) & set(c.get("rules", [])) for c in targeted):
            problems.append(f"switch {switch} = {value!r} is covered by no targeted vector citing "
                            f"{', '.join(rules)}")
    for name, rs in version_presets(version).items():
        hits = [c for f, c in iter_cases(files, ["transcript"]) if c.get("preset") == name]
        if not hits:
            problems.append(f"preset {name} has no transcript")
        problems.extend(f"{c['id']}: ruleset is not preset {name}" for c in hits
                        if c.get("ruleset") != version_ruleset(version, rs.to_dict()))
    analysed = [c for f, c in iter_cases(files, ANALYSED_KINDS) if FIELD in c]
    if analysed:
        problems.extend(gaps(analysed))
        problems.extend(card_gaps(analysed))
        problems.extend(proof_problems(analysed))
    if replay:
        problems.extend(replay_reference(files))
    return CheckReport(problems, notes, len(files), n_cases + sum(
        len(f.cases) - len(g.cases) for f, g in zip(loaded, files, strict=True)))


def _directory_version(files: Sequence[VectorFile]) -> int:
    """The frozen directory (a key of :data:`.files.VERSIONS`) whose content the files hold:
    the one of their ``vectors_version``, the newest for any other."""
    content = files[0].data.get("vectors_version") if files else None
    return next((n for n, (_, c) in VERSIONS.items() if c == content), LATEST)


def replay_reference(files: Sequence[VectorFile]) -> list[str]:
    """Every case, checked against the reference engine: the vectors must still hold."""
    problems = []
    driver = InProcess()
    for f, case in iter_cases(files):
        try:
            if f.kind in PROTOCOL_KINDS:
                outcome = run_case(driver, case)
                if outcome.status == FAIL:
                    problems.append(f"{f.path.name}: the reference disagrees: {outcome.line()}")
                elif FIELD in case and depends_on(case, f.kind) != case[FIELD]:
                    problems.append(f"{f.path.name}: {case['id']}: {FIELD} is not what "
                                    "replaying the case under the other switch values gives: "
                                    f"{json.dumps(depends_on(case, f.kind))[:200]}")
                elif REROUTED in case and depends_on_rerouted(case, f.kind) != case[REROUTED]:
                    problems.append(f"{f.path.name}: {case['id']}: {REROUTED} is not what "
                                    "replaying the case by its rebuilt routes gives: "
                                    f"{json.dumps(depends_on_rerouted(case, f.kind))[:200]}")
            else:
                got = unit_expected(f.kind, case)
                if got != case.get("expected"):
                    problems.append(f"{f.path.name}: {case['id']}: the reference now gives "
                                    f"{json.dumps(got)[:200]}")
        except (RulesRefError, KeyError, TypeError, ValueError) as exc:
            problems.append(f"{f.path.name}: {case.get('id')}: cannot replay: {exc}")
    return problems


def unit_expected(kind: str, case: Case) -> Json:
    """What the reference gives for a case of a unit kind (card notation, seeded deal, view)."""
    if kind == "card-notation":
        text = case["input"]
        if isinstance(text, list):
            order = sorted(parse_card(t) for t in text)
            return {"canonical": texts(order), "index": [int(c) for c in order]}
        try:
            c = parse_card(text)
        except RulesRefError:
            return {"rejected": True}
        return {"canonical": str(c), "index": int(c)}
    if kind == "seeded-deal":
        inp = case["input"]
        try:
            d = seeded_deal(int(inp["seed"]), inp["players"], inp["deal_number"], inp["dealer"],
                            Ruleset.from_dict(case["ruleset"]).min_players)
        except SetupError as exc:
            return {"rejected": True, "rule": exc.rule_id}
        return {"deck": texts(shuffled_deck(int(inp["seed"]), inp["deal_number"])),
                "hands": [texts(h) for h in d.hands], "extras": texts(d.extras)}
    if kind == "seat-view":
        state = start_state(case["start"])
        for a in case["prefix"]:
            state, _ = state.apply(action_from_json(a))
        return view_json(state, case["seat"])
    raise InputError(f"{kind} is not a unit kind")
