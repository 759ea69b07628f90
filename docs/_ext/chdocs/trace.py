"""Traceability: which code implements each rule, which tests and vectors cover it.

* Implementations come from :data:`rules_ref.registry.IMPLEMENTATIONS`, filled
  by the ``@implements`` decorators once every module of the package is
  imported (:func:`implementations`).
* Tests are found by reading ``tests/**/*.py`` with :mod:`ast` (nothing is
  imported or run) for ``pytest.mark.rule("ID", ...)`` markers on test
  functions, test classes and module-level ``pytestmark`` (:func:`scan_tests`).
* Vectors are the cases of ``spec/vectors/**/*.json``: any JSON object, at
  any depth, with a string ``id`` and a list ``rules`` (:func:`scan_vectors`).

:func:`coverage_problems` lists every rule without an implementation, a test
or a vector, and every ID that names no rule; the docs build turns each
problem into a warning, so with ``-W`` an uncovered rule fails the build.
:func:`example_problems` does the same for the worked examples of the site:
every rule in force needs at least one example drawn by the engine.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Ref:
    """One piece of evidence for a rule: where it is and how to name it."""

    label: str  # e.g. "tests/test_tricks.py::test_cancel" or "spec/vectors/x.json: case-1"
    path: str  # the file, relative to the repository root


@dataclass(slots=True)
class Trace:
    """Everything known about the coverage of the rules."""

    implementations: dict[str, list[str]] = field(default_factory=dict)
    tests: dict[str, list[Ref]] = field(default_factory=dict)
    vectors: dict[str, list[Ref]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # unreadable files, bad markers


# --- implementations -------------------------------------------------------------------


def import_all(package: str) -> list[str]:
    """Import ``package`` and every module below it; return the module names, sorted.

    ``__main__`` modules are skipped (importing one runs the command line),
    and so are the modules that need Hypothesis when it is not installed
    (the strategies of the tests, the ``dev`` extra). Any other module that fails to import raises:
    the docs must not silently lose the rules it implements.
    """
    root = importlib.import_module(package)
    names = [package]
    paths = getattr(root, "__path__", None)
    if paths is not None:
        for info in pkgutil.walk_packages(paths, prefix=package + "."):
            if info.name.rsplit(".", 1)[-1] == "__main__":
                continue
            try:
                importlib.import_module(info.name)
            except ModuleNotFoundError as exc:
                if exc.name == "hypothesis":
                    continue
                raise
            names.append(info.name)
    return sorted(names)


def implementations(package: str = "rules_ref") -> dict[str, list[str]]:
    """Rule ID -> qualified names of the functions that implement it (no duplicates)."""
    import_all(package)
    from rules_ref.registry import IMPLEMENTATIONS

    return {rule: list(dict.fromkeys(names)) for rule, names in IMPLEMENTATIONS.items()}


# --- tests --------------------------------------------------------------------------------


def _is_rule_marker(func: ast.expr) -> bool:
    """``pytest.mark.rule`` or ``mark.rule`` (after ``from pytest import mark``)."""
    if not isinstance(func, ast.Attribute) or func.attr != "rule":
        return False
    owner = func.value
    if isinstance(owner, ast.Attribute):
        return owner.attr == "mark"
    return isinstance(owner, ast.Name) and owner.id == "mark"


def _marker_ids(node: ast.AST, where: str, problems: list[str]) -> list[str]:
    """The rule IDs of every ``pytest.mark.rule(...)`` call inside ``node``."""
    ids: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and _is_rule_marker(sub.func):
            for arg in sub.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    ids.append(arg.value)
                else:
                    problems.append(f"{where}: pytest.mark.rule takes rule IDs as string "
                                    f"literals (line {sub.lineno})")
    return ids


def _module_marks(tree: ast.Module, where: str, problems: list[str]) -> list[str]:
    ids: list[str] = []
    for stmt in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        if value is not None and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                     for t in targets):
            ids += _marker_ids(value, where, problems)
    return ids


def _tests_in(body: Iterable[ast.stmt], prefix: str, inherited: list[str], where: str,
              problems: list[str]) -> Iterator[tuple[str, list[str]]]:
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name.startswith(
                "test"):
            own = [i for d in stmt.decorator_list for i in _marker_ids(d, where, problems)]
            yield prefix + stmt.name, inherited + own
        elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
            own = [i for d in stmt.decorator_list for i in _marker_ids(d, where, problems)]
            own += _module_marks(ast.Module(body=stmt.body, type_ignores=[]), where, problems)
            yield from _tests_in(stmt.body, f"{prefix}{stmt.name}::", inherited + own, where,
                                 problems)


def scan_test_source(source: str, label: str, problems: list[str]) -> dict[str, list[str]]:
    """Test node ID (``label::name``) -> rule IDs its markers name, for one file's source."""
    try:
        tree = ast.parse(source, filename=label)
    except SyntaxError as exc:
        problems.append(f"{label}: cannot be parsed: {exc.msg} (line {exc.lineno})")
        return {}
    module = _module_marks(tree, label, problems)
    found: dict[str, list[str]] = {}
    for name, ids in _tests_in(tree.body, f"{label}::", module, label, problems):
        if ids:
            found[name] = list(dict.fromkeys(ids))
    return found


def scan_tests(root: Path, tests_dir: str = "tests") -> tuple[dict[str, list[Ref]], list[str]]:
    """Rule ID -> the tests marked with it, from every ``test_*.py``/``*_test.py`` file."""
    problems: list[str] = []
    by_rule: dict[str, list[Ref]] = {}
    base = root / tests_dir
    files = sorted(p for p in base.rglob("*.py")
                   if p.name.startswith("test_") or p.name.endswith("_test.py"))
    for path in files:
        rel = path.relative_to(root).as_posix()
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{rel}: cannot be read: {exc}")
            continue
        for test, ids in scan_test_source(source, rel, problems).items():
            for rule in ids:
                by_rule.setdefault(rule, []).append(Ref(test, rel))
    return by_rule, problems


# --- vectors ------------------------------------------------------------------------------


def vector_cases(data: object) -> Iterator[tuple[str, list[str]]]:
    """Every object with a string ``id`` and a list of string ``rules``, at any depth."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            case_id, rules = item.get("id"), item.get("rules")
            if isinstance(case_id, str) and isinstance(rules, list) and all(
                    isinstance(r, str) for r in rules):
                yield case_id, list(rules)
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))


def scan_vectors(root: Path, vectors_dir: str = "spec/vectors",
                 ) -> tuple[dict[str, list[Ref]], list[str]]:
    """Rule ID -> the vector cases that name it, from every ``*.json`` file."""
    problems: list[str] = []
    by_rule: dict[str, list[Ref]] = {}
    base = root / vectors_dir
    for path in sorted(base.rglob("*.json")) if base.is_dir() else []:
        rel = path.relative_to(root).as_posix()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            problems.append(f"{rel}: cannot be read as JSON: {exc}")
            continue
        for case_id, rules in vector_cases(data):
            for rule in dict.fromkeys(rules):
                by_rule.setdefault(rule, []).append(Ref(f"{rel}: {case_id}", rel))
    return by_rule, problems


# --- the check ----------------------------------------------------------------------------


def coverage_problems(rule_ids: Sequence[str], withdrawn: Iterable[str],
                      impls: Mapping[str, Sequence[str]], tests: Mapping[str, Sequence[Ref]],
                      vectors: Mapping[str, Sequence[Ref]]) -> list[str]:
    """Every gap in the traceability, one message each; empty when every rule is covered.

    Each rule in force needs at least one implementation, one test and one
    vector. Every ID cited by code, tests or vectors must be a rule of the
    registry (a withdrawn rule's ID stays known, but nothing may implement
    it any more).
    """
    problems: list[str] = []
    gone = set(withdrawn)
    known = set(rule_ids)
    for rule in rule_ids:
        if rule in gone:
            if impls.get(rule):
                problems.append(f"{rule} is withdrawn but still implemented by "
                                f"{', '.join(impls[rule])}")
            continue
        missing = [what for what, table in (("implementation", impls), ("test", tests),
                                            ("vector", vectors)) if not table.get(rule)]
        if missing:
            problems.append(f"{rule} has no {' and no '.join(missing)}")
    for what, table in (("implemented by", impls), ("cited by a test", tests),
                        ("cited by a vector", vectors)):
        for rule in sorted(set(table) - known):
            entries = table[rule]
            first = entries[0] if entries else ""
            where = first.label if isinstance(first, Ref) else str(first)
            problems.append(f"unknown rule ID {rule!r} {what} {where}")
    return problems


def example_problems(rule_ids: Sequence[str], withdrawn: Iterable[str],
                     examples: Mapping[str, Sequence[str]]) -> list[str]:
    """Every rule in force that no worked example shows, and every example naming no rule.

    ``examples`` maps each example's name to the rule IDs it illustrates.
    """
    known = set(rule_ids)
    shown = {r for rules in examples.values() for r in rules}
    gone = set(withdrawn)
    problems = [f"{rule} has no worked example on the site" for rule in rule_ids
                if rule not in gone and rule not in shown]
    for name in sorted(examples):
        problems += [f"worked example {name!r} names unknown rule ID {rule!r}"
                     for rule in examples[name] if rule not in known]
    return problems


def collect(root: Path, rule_ids: Sequence[str], withdrawn: Iterable[str],
            package: str = "rules_ref", tests_dir: str = "tests",
            vectors_dir: str = "spec/vectors") -> Trace:
    """Scan the repository at ``root`` and check coverage."""
    trace = Trace()
    trace.implementations = implementations(package)
    trace.tests, test_problems = scan_tests(root, tests_dir)
    trace.vectors, vector_problems = scan_vectors(root, vectors_dir)
    trace.problems = test_problems + vector_problems + coverage_problems(
        rule_ids, withdrawn, trace.implementations, trace.tests, trace.vectors)
    return trace
