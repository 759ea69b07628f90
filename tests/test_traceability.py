"""Traceability: every rule of spec/rules.toml is implemented, tested and cited correctly.

The registry (spec/rules.toml) is the only source of rule IDs. These tests
fail, listing the offenders, when a rule has no implementing function or no
test, when code, tests or spec prose cite an ID the registry does not have,
when the switches of spec/variants.toml and the rules disagree, or when an
implementing function's docstring does not name its rules.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import tomllib
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import rules_ref
from rules_ref import registry
from rules_ref.ruleset import Ruleset, presets

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SPEC = ROOT / "spec"
PREFIXES = ("PLAYERS", "DECK", "DEAL", "PASS", "LEAD", "HEARTS", "FOLLOW", "TURN", "TRICK",
            "VOID", "EXTRAS", "SCORE", "MOON", "GAME", "VIEW")
RULE_ID = re.compile(r"\b(?:" + "|".join(PREFIXES) + r")\.[A-Z0-9_]+\b")


def _offenders(what: str, items: list[str]) -> str:
    return f"{len(items)} {what}:\n  " + "\n  ".join(items)


def known_ids() -> set[str]:
    return set(registry.rule_ids())


def rules_in_force() -> list[str]:
    return [r.id for r in registry.load().rules if r.status != "withdrawn"]


@cache
def modules() -> tuple[ModuleType, ...]:
    """Every module of the package, imported (so that every ``implements`` has run).

    ``__main__`` modules are skipped (importing one runs the command line), and
    so are the modules that drive Hypothesis (the search, the strategies, the
    reports) when it is missing.
    """
    out = [rules_ref]
    for info in pkgutil.walk_packages(rules_ref.__path__, "rules_ref."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        try:
            out.append(importlib.import_module(info.name))
        except ModuleNotFoundError as exc:
            if exc.name == "hypothesis":
                continue
            raise
    return tuple(out)


def implementing_functions() -> Iterator[tuple[str, Callable[..., Any], tuple[str, ...]]]:
    for module in modules():
        for name, obj in vars(module).items():
            ids = getattr(obj, "__rule_ids__", None)
            if ids and callable(obj) and getattr(obj, "__module__", None) == module.__name__:
                yield f"{module.__name__}.{name}", obj, tuple(ids)


def test_every_rule_has_an_implementing_function() -> None:
    modules()
    missing = [r for r in rules_in_force() if not registry.IMPLEMENTATIONS.get(r)]
    assert not missing, _offenders("rules without an @implements function", missing)


def test_implements_names_only_rules_of_the_registry() -> None:
    modules()
    unknown = sorted(f"{rid} <- {', '.join(funcs)}"
                     for rid, funcs in registry.IMPLEMENTATIONS.items() if rid not in known_ids())
    assert not unknown, _offenders("unknown rule IDs in @implements", unknown)


def _marker_ids(path: Path) -> Iterator[tuple[int, str]]:
    """The string arguments of every ``pytest.mark.rule(...)`` (or ``mark.rule``) call."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        if func.attr != "rule":
            continue
        owner = func.value
        is_mark = (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
            isinstance(owner, ast.Name) and owner.id == "mark")
        if not is_mark:
            continue
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield node.lineno, arg.value


def python_test_files() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


def test_every_rule_has_a_marked_test() -> None:
    marked = {rid for path in python_test_files() for _, rid in _marker_ids(path)}
    missing = [r for r in rules_in_force() if r not in marked]
    assert not missing, _offenders("rules without a test marked pytest.mark.rule(...)", missing)


@pytest.mark.untraced
def test_rule_markers_name_rules_of_the_registry() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line}: {rid}" for path in python_test_files()
           for line, rid in _marker_ids(path) if rid not in known_ids()]
    assert not bad, _offenders("markers naming unknown rule IDs", bad)


def cited_files() -> list[Path]:
    return sorted([*(ROOT / "rules_ref").rglob("*.py"), *python_test_files(), *SPEC.glob("*.md")])


def test_every_cited_rule_id_exists() -> None:
    known = known_ids()
    bad = []
    for path in cited_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            bad += [f"{path.relative_to(ROOT)}:{number}: {m}" for m in RULE_ID.findall(line)
                    if m not in known]
    assert not bad, _offenders("citations of rule IDs that are not in spec/rules.toml", bad)


def test_the_rule_id_pattern_finds_citations() -> None:
    assert RULE_ID.findall("see TRICK.CANCEL and (VOID.LAST), not Phase.DEALING") == \
        ["TRICK.CANCEL", "VOID.LAST"]


@cache
def variants() -> dict[str, Any]:
    with (SPEC / "variants.toml").open("rb") as fh:
        return tomllib.load(fh)


def test_switches_and_rules_name_each_other() -> None:
    switches = {s["name"]: s for s in variants()["switch"]}
    rules = registry.load().by_id()
    bad = [f"switch {name} names unknown rule {rid}" for name, s in switches.items()
           for rid in s["rules"] if rid not in rules]
    bad += [f"rule {r.id} names unknown switch {name}" for r in rules.values()
            for name in r.switches if name not in switches]
    bad += [f"switch {name} names {rid}, which does not list it" for name, s in switches.items()
            for rid in s["rules"] if rid in rules and name not in rules[rid].switches]
    bad += [f"rule {r.id} lists switch {name}, which does not name it" for r in rules.values()
            for name in r.switches if name in switches and r.id not in switches[name]["rules"]]
    assert not bad, _offenders("switch/rule mismatches", bad)


def test_implementing_functions_name_their_rules_in_the_docstring() -> None:
    bad = []
    for name, func, ids in implementing_functions():
        if name.rsplit(".", 1)[-1].startswith("_"):
            continue
        doc = inspect.getdoc(func) or ""
        missing = [rid for rid in ids if rid not in doc]
        if missing:
            bad.append(f"{name}: {', '.join(missing)}")
    assert not bad, _offenders("public @implements functions whose docstring lacks", bad)


def test_ruleset_fields_are_the_switches() -> None:
    names = [s["name"] for s in variants()["switch"]]
    assert list(Ruleset.__dataclass_fields__) == names


def test_every_listed_switch_value_is_accepted() -> None:
    for switch in variants()["switch"]:
        name = switch["name"]
        default = Ruleset.from_dict({name: switch["default"]})
        assert default.to_dict()[name] == switch["default"], name
        assert getattr(default, name) == getattr(Ruleset(), name), name
        for value in switch["value"]:
            rs = Ruleset.from_dict({name: value["value"]})
            assert rs.to_dict()[name] == value["value"], (name, value["value"])


def test_every_preset_loads_with_its_values() -> None:
    table = variants()["preset"]
    assert list(presets()) == [p["name"] for p in table]
    switch_names = [s["name"] for s in variants()["switch"]]
    defaults = Ruleset().to_dict()
    for p in table:
        assert sorted([*p["values"], *p["filled"]]) == sorted(switch_names), p["name"]
        assert presets()[p["name"]].to_dict() == {**defaults, **p["values"]}, p["name"]
