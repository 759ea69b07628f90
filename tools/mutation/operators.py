"""The mutation operators: small, ast-based changes to the body of one function.

:func:`mutants` lists every mutant of a module's source, in source order;
:attr:`Mutant.source` is the whole module with that one change applied. The
change is made on the text (only the mutated expression or statement is
rewritten, by :func:`ast.unparse`), and is checked: the mutated text must parse
to exactly the mutated tree, so precedence or layout can never produce a
different program than the one described.

Operators (the ``op`` of a mutant):

* ``compare``: ``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``is``/``is not``,
  ``in``/``not in`` swapped, one comparison at a time;
* ``boolean``: ``and``/``or`` swapped;
* ``arith``: ``+``/``-`` swapped (also ``+=``/``-=``), ``*`` and ``%`` to ``//``,
  ``//`` to ``*``;
* ``constant``: an integer constant ``c`` to ``c + 1`` and (``c > 0``) ``c - 1``;
  ``True``/``False`` swapped;
* ``zero``: the constant ``0`` to ``-1``;
* ``return-not``: ``return e`` to ``return not e`` in a function declared ``-> bool``;
* ``remove-not``: ``not e`` to ``e``;
* ``delete``: a statement inside a branch or loop body replaced by ``pass``;
* ``min-max``: ``min(...)``/``max(...)`` swapped;
* ``slice``: a slice bound ``b`` (not a constant: see ``constant``) to ``b + 1``.

Only function and method bodies are mutated (not decorators, defaults,
annotations, docstrings or f-strings): module-level code builds tables the
rule functions read, and is tested through them.
"""

from __future__ import annotations

import ast
import copy
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

OPERATORS = ("compare", "boolean", "arith", "constant", "zero", "return-not", "remove-not",
             "delete", "min-max", "slice")

_COMPARE_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}
_ARITH_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
_SYMBOL: dict[type[ast.AST], str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.And: "and",
    ast.Or: "or", ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
}
_BRANCHY = (ast.If, ast.For, ast.While, ast.With, ast.Try)


@dataclass(frozen=True, slots=True)
class Unit:
    """A function or method whose body is mutated: its name, lines and rule IDs."""

    qualname: str
    first_line: int  # the first decorator's line, or the ``def`` line
    last_line: int
    rules: tuple[str, ...]  # from ``@implements(...)``
    returns_bool: bool


@dataclass(frozen=True, slots=True)
class Mutant:
    """One change to one function of a module."""

    module: str  # e.g. "rules_ref/tricks.py"
    unit: str  # qualified name of the function
    rules: tuple[str, ...]
    op: str
    index: int  # the n-th mutant of this op in this function (0-based), for a stable key
    line: int
    col: int
    original: str  # the text that was replaced
    replacement: str
    source: str  # the whole mutated module
    unit_sha: str = ""  # a digest of the original function's text (decorators included)
    end_line: int = 0  # the last line of the replaced text

    @property
    def key(self) -> str:
        """A stable name: module, function, operator and its number within the function."""
        return f"{self.module}:{self.unit}:{self.op}:{self.index}"

    @property
    def description(self) -> str:
        return f"{_short(self.original)} -> {_short(self.replacement)}"


def _short(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def units(tree: ast.Module) -> list[tuple[Unit, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The top-level functions and the methods of top-level classes, in source order."""
    found: list[tuple[Unit, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def add(fn: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str) -> None:
        rules: list[str] = []
        for d in fn.decorator_list:
            if (isinstance(d, ast.Call) and isinstance(d.func, ast.Name)
                    and d.func.id == "implements"):
                rules.extend(a.value for a in d.args
                             if isinstance(a, ast.Constant) and isinstance(a.value, str))
        first = min([fn.lineno, *(d.lineno for d in fn.decorator_list)])
        returns_bool = (isinstance(fn.returns, ast.Name) and fn.returns.id == "bool") or (
            isinstance(fn.returns, ast.Constant) and fn.returns.value == "bool")
        found.append((Unit(prefix + fn.name, first, fn.end_lineno or fn.lineno, tuple(rules),
                           returns_bool), fn))

    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            add(node, "")
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    add(item, node.name + ".")
    return found


# A candidate: where the node sits (parent, field, index), and the new node.
_Slot = tuple[ast.AST, str, int | None]
_Candidate = tuple[str, _Slot, ast.AST]


def _children(node: ast.AST) -> Iterator[tuple[str, int | None, ast.AST]]:
    for name, value in ast.iter_fields(node):
        if name in ("annotation", "returns", "decorator_list", "type_comment"):
            continue
        if isinstance(value, ast.AST):
            yield name, None, value
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield name, i, item


def _candidates(fn: ast.FunctionDef | ast.AsyncFunctionDef, unit: Unit) -> Iterator[_Candidate]:
    def visit(parent: ast.AST, field: str, index: int | None, node: ast.AST,
              in_branch: bool) -> Iterator[_Candidate]:
        if isinstance(node, ast.JoinedStr):
            return
        slot: _Slot = (parent, field, index)
        yield from _node_mutations(node, slot, in_branch, unit)
        branch = isinstance(node, _BRANCHY)
        for name, i, child in _children(node):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and \
                    name == "args":
                continue
            yield from visit(node, name, i, child,
                             (branch and name in ("body", "orelse", "finalbody", "handlers"))
                             or (isinstance(node, ast.ExceptHandler) and name == "body"))

    body = fn.body
    start = 1 if body and isinstance(body[0], ast.Expr) and isinstance(
        body[0].value, ast.Constant) and isinstance(body[0].value.value, str) else 0
    for i in range(start, len(body)):
        yield from visit(fn, "body", i, body[i], False)


def _node_mutations(node: ast.AST, slot: _Slot, in_branch: bool,
                    unit: Unit) -> Iterator[_Candidate]:
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            swap = _COMPARE_SWAP.get(type(op))
            if swap is not None:
                new = copy.deepcopy(node)
                new.ops[i] = swap()
                yield "compare", slot, new
    elif isinstance(node, ast.BoolOp):
        new_b = copy.deepcopy(node)
        new_b.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield "boolean", slot, new_b
    elif isinstance(node, ast.BinOp | ast.AugAssign):
        swap_a = _ARITH_SWAP.get(type(node.op))
        if swap_a is not None and (isinstance(node, ast.BinOp)
                                   or isinstance(node.op, ast.Add | ast.Sub)):
            new_a = copy.deepcopy(node)
            new_a.op = swap_a()
            yield "arith", slot, new_a
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            yield "constant", slot, ast.Constant(not node.value)
        elif isinstance(node.value, int):
            yield "constant", slot, ast.Constant(node.value + 1)
            if node.value > 0:
                yield "constant", slot, ast.Constant(node.value - 1)
            else:  # -1 is written as a negation, which is its own operator (stable keys)
                yield "zero", slot, ast.UnaryOp(ast.USub(), ast.Constant(1))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "remove-not", slot, copy.deepcopy(node.operand)
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
          and node.func.id in ("min", "max")):
        new_c = copy.deepcopy(node)
        assert isinstance(new_c.func, ast.Name)
        new_c.func.id = "max" if node.func.id == "min" else "min"
        yield "min-max", slot, new_c
    elif isinstance(node, ast.Slice):
        for bound in ("lower", "upper"):
            value = getattr(node, bound)
            if value is not None and not isinstance(value, ast.Constant):  # see ``constant``
                new_s = copy.deepcopy(node)
                setattr(new_s, bound, ast.BinOp(copy.deepcopy(value), ast.Add(), ast.Constant(1)))
                yield "slice", slot, new_s
    if isinstance(node, ast.Return) and unit.returns_bool and node.value is not None:
        yield "return-not", slot, ast.Return(ast.UnaryOp(ast.Not(), copy.deepcopy(node.value)))
    if in_branch and isinstance(node, ast.stmt) and not isinstance(node, ast.Pass):
        yield "delete", slot, ast.Pass()


def _put(slot: _Slot, node: ast.AST) -> ast.AST:
    """Put ``node`` in ``slot``; return what was there."""
    parent, field, index = slot
    if index is None:
        old: ast.AST = getattr(parent, field)
        setattr(parent, field, node)
    else:
        items = getattr(parent, field)
        old = items[index]
        items[index] = node
    return old


def _offsets(source: bytes) -> list[int]:
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def mutants(source: str, module: str,
            operators: tuple[str, ...] = OPERATORS,
            keep: Callable[[Unit], bool] = lambda unit: True) -> list[Mutant]:
    """Every mutant of ``source`` (the text of ``module``), in source order.

    >>> [m.replacement for m in mutants("def f(a, b):\\n    return a < b\\n", "m.py")]
    ['a <= b']
    """
    tree = ast.parse(source)
    data = source.encode()
    starts = _offsets(data)
    seen: set[str] = set()
    out: list[Mutant] = []
    lines = source.splitlines(keepends=True)
    for unit, fn in units(tree):
        if not keep(unit):
            continue
        text = "".join(lines[unit.first_line - 1:unit.last_line])
        unit_sha = hashlib.sha256(text.encode()).hexdigest()[:12]
        counts: dict[str, int] = {}
        for op, slot, new in list(_candidates(fn, unit)):
            if op not in operators:
                continue
            old = _put(slot, new)
            try:
                expected = ast.dump(tree)
            finally:
                _put(slot, old)
            mutated = _rewrite(data, starts, old, new, expected)
            if mutated is None or mutated in seen:
                continue
            seen.add(mutated)
            index = counts.get(op, 0)
            counts[op] = index + 1
            lo = starts[old.lineno - 1] + old.col_offset  # type: ignore[attr-defined]
            hi = starts[old.end_lineno - 1] + old.end_col_offset  # type: ignore[attr-defined]
            out.append(Mutant(module, unit.qualname, unit.rules, op, index,
                              old.lineno, old.col_offset,  # type: ignore[attr-defined]
                              data[lo:hi].decode(), _text(new), mutated, unit_sha,
                              old.end_lineno))  # type: ignore[attr-defined]
    return out


def _text(node: ast.AST) -> str:
    return "pass" if isinstance(node, ast.Pass) else ast.unparse(node)


def _rewrite(data: bytes, starts: list[int], old: ast.AST, new: ast.AST,
             expected: str) -> str | None:
    """The source with ``old``'s text replaced by ``new``'s, if it parses to ``expected``."""
    lo = starts[old.lineno - 1] + old.col_offset  # type: ignore[attr-defined]
    hi = starts[old.end_lineno - 1] + old.end_col_offset  # type: ignore[attr-defined]
    text = _text(new)
    for candidate in (text, f"({text})"):
        result = (data[:lo] + candidate.encode() + data[hi:]).decode()
        try:
            if ast.dump(ast.parse(result)) == expected:
                return result
        except SyntaxError:
            continue
    return None
