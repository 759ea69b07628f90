"""The shape of vector cases: what a runner relies on before it replays one.

:func:`check_case` raises :class:`InputError` naming the JSON path of the
first thing wrong with a case (a missing field, a malformed action, a bound
of ``spec/limits.md`` exceeded); :func:`file_problems` lists them for a
whole file and :func:`require_valid` stops at the first. The values
themselves are judged by :mod:`.checking` (the reference must agree).

The bounds are read from the package (``rules_ref.vectors``) at
each use, so that a test or an embedding program can lower them there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InputError, RulesRefError
from ..jsonio.serialize import action_from_json, check_int, check_object
from ..protocol.start import checked_start, position_state
from ..ruleset import Ruleset
from . import files
from .files import KINDS, Case, VectorFile


def _limit(name: str) -> int:
    """A bound of ``spec/limits.md`` (``MAX_CASES_PER_FILE``, ...), as :mod:`.files` has it now."""
    return int(getattr(files, name))


_COMMON = ("id", "description", "rules", "ruleset", "players")
_CASE_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "card-notation": ((*_COMMON, "input", "expected"), ()),
    "seeded-deal": ((*_COMMON, "input", "expected"), ()),
    "seat-view": ((*_COMMON, "start", "prefix", "seat", "expected"), ("facts",)),
    "perft": ((*_COMMON, "start", "prefix", "depth", "expected"),
              ("facts", "depends_on", "depends_on_rerouted", "proven_by")),
    "transcript": ((*_COMMON, "start", "prefix", "steps"),
                   ("facts", "preset", "seed", "depends_on", "depends_on_rerouted",
                    "proven_by")),
}
_STEPS_FIELDS = ((*_COMMON, "start", "prefix", "steps"),
                 ("facts", "depends_on", "depends_on_rerouted", "proven_by"))


def _text_list(value: object, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{where}: expected a list of text")


def _case_steps(value: object, where: str, noun: str) -> list[Any]:
    """``value`` as a list of a case's actions or steps, at most ``MAX_CASE_ACTIONS`` of them."""
    if not isinstance(value, list):
        raise InputError(f"{where}: expected a list of {noun}")
    most = _limit("MAX_CASE_ACTIONS")
    if len(value) > most:
        raise InputError(f"{where}: {len(value)} {noun}, more than {most}")
    return value


def _actions(value: object, where: str) -> None:
    for i, a in enumerate(_case_steps(value, where, "actions")):
        action_from_json(a, f"{where}[{i}]")


def _expect(value: object, where: str) -> None:
    if not isinstance(value, dict) or len(value) != 1:
        raise InputError(f"{where}: expected {{\"observation\": {{...}}}} or "
                         f"{{\"rejected\": {{...}}}}")
    if "observation" in value:
        if not isinstance(value["observation"], dict):
            raise InputError(f"{where}.observation: expected an object of fields")
        return
    if "rejected" not in value:
        raise InputError(f"{where}: expected observation or rejected, got "
                         f"{', '.join(map(str, value))[:40]}")
    r = check_object(value["rejected"], f"{where}.rejected", ("rule",), ("rules",))
    if not isinstance(r["rule"], str):
        raise InputError(f"{where}.rejected.rule: expected a rule ID")
    if "rules" in r:
        _text_list(r["rules"], f"{where}.rejected.rules")


def _depends_on(value: object, where: str) -> None:
    """A case's ``depends_on``: switch -> the non-empty list of values it differs under."""
    if not isinstance(value, dict):
        raise InputError(f"{where}: expected an object of switches")
    switches = Ruleset().to_dict()
    for name, values in value.items():
        if name not in switches:
            raise InputError(f"{where}: unknown switch {str(name)[:40]!r}")
        if not isinstance(values, list) or not values:
            raise InputError(f"{where}.{name}: expected a non-empty list of values")


def _proven_by(value: object, where: str) -> None:
    """A case's ``proven_by``: the rule, and a switch and its value or a slip (and a card)."""
    p = check_object(value, where, ("rule",), ("switch", "value", "slip", "card"))
    for name in ("rule", "switch", "slip", "card"):
        if name in p and not isinstance(p[name], str):
            raise InputError(f"{where}.{name}: expected text")
    if ("switch" in p) == ("slip" in p) or ("switch" in p) != ("value" in p):
        raise InputError(f"{where}: expected a switch and its value, or a slip")


def check_case(kind: str, case: object, where: str) -> None:
    """Raise :class:`InputError` naming the JSON path of what is wrong with a case's shape.

    The shape is what the runners rely on (``spec/vectors/README.md``); the
    values are judged by :func:`.checking.check_dir` (the reference must agree).
    """
    required, optional = _CASE_FIELDS.get(kind, _STEPS_FIELDS)
    c = check_object(case, where, required, optional)
    if not isinstance(c["id"], str):
        raise InputError(f"{where}.id: expected text")
    if not isinstance(c["description"], str):
        raise InputError(f"{where}.description: expected text")
    _text_list(c["rules"], f"{where}.rules")
    Ruleset.from_dict(c["ruleset"], f"{where}.ruleset")
    if c["players"] is not None:
        check_int(c["players"], f"{where}.players")
    for name in ("depends_on", "depends_on_rerouted"):
        if name in c:
            _depends_on(c[name], f"{where}.{name}")
    if "proven_by" in c:
        _proven_by(c["proven_by"], f"{where}.proven_by")
    if kind == "card-notation":
        if not isinstance(c["input"], str):
            _text_list(c["input"], f"{where}.input")
        return
    if kind == "seeded-deal":
        inp = check_object(c["input"], f"{where}.input",
                           ("seed", "players", "deal_number", "dealer"))
        if not isinstance(inp["seed"], str):
            raise InputError(f"{where}.input.seed: expected the seed as decimal text")
        for key in ("players", "deal_number", "dealer"):
            check_int(inp[key], f"{where}.input.{key}")
        return
    if isinstance(c["start"], dict) and "position" in c["start"]:
        if kind == "seat-view":
            raise InputError(f"{where}.start: a seat-view case starts at the start of a deal")
        position_state(c["start"], f"{where}.start")  # contract version 2: a position start
    else:
        checked_start(c["start"], f"{where}.start")
    _actions(c["prefix"], f"{where}.prefix")
    if kind == "seat-view":
        check_int(c["seat"], f"{where}.seat", 0, 10)
        return
    if kind == "perft":
        check_int(c["depth"], f"{where}.depth", 1, _limit("MAX_PERFT_DEPTH"))
        e = check_object(c["expected"], f"{where}.expected", ("divide", "nodes"))
        check_int(e["nodes"], f"{where}.expected.nodes", 0)
        divide = e["divide"]
        if not isinstance(divide, dict):
            raise InputError(f"{where}.expected.divide: expected an object of counts")
        for card, count in divide.items():
            check_int(count, f"{where}.expected.divide.{card}", 0)
        return
    steps = _case_steps(c["steps"], f"{where}.steps", "steps")
    for i, step in enumerate(steps):
        sw = f"{where}.steps[{i}]"
        st = check_object(step, sw, ("action",), ("expect",))
        if st["action"] is not None:
            _actions([st["action"]], f"{sw}.action")
        if "expect" in st and st["expect"] is not None:
            _expect(st["expect"], f"{sw}.expect")


def file_problems(f: VectorFile) -> tuple[list[str], list[Case]]:
    """What is wrong with the shape of a vector file, and its cases of the right shape."""
    name = f.path.name
    data = f.data
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        return [f"{name}: kind: {str(kind)[:40]!r} is not one of {', '.join(KINDS)}"], []
    cases = data.get("cases")
    if not isinstance(cases, list):
        return [f"{name}: cases: expected a list of cases"], []
    most = _limit("MAX_CASES_PER_FILE")
    if len(cases) > most:
        return [f"{name}: cases: {len(cases)} cases, more than {most}"], []
    problems, good = [], []
    for i, case in enumerate(cases):
        try:
            check_case(kind, case, f"cases[{i}]")
        except RulesRefError as exc:
            problems.append(f"{name}: {exc}")
        else:
            good.append(case)
    return problems, good


def require_valid(files: Sequence[VectorFile], kinds: Sequence[str] | None = None) -> None:
    """Raise :class:`InputError` at the first problem of shape in the files of ``kinds``."""
    for f in files:
        if kinds is not None and f.kind in KINDS and f.kind not in kinds:
            continue  # a file of another kind, not run: its cases are not read
        problems, _ = file_problems(f)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise InputError(f"{f.path.parent}/{problems[0]}{more}")

