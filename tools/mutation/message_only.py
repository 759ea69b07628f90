"""Which mutants change only the words of an error message.

The adapter protocol compares a rejection by the rule it cites, never by its
words (``spec/protocol.md``: the reason is free text for a person), so a
mutant that changes only how a message is worded cannot be seen by
``rules-ref vectors run`` or ``rules-ref conform``; the exact-message tests
of the suite see it. :func:`message_only` tells such a mutant from the
source, without running it.

An expression is *message-bound* when its value can only end up in the
words of a message:

* the first argument of the exception raised by a ``raise`` statement (its
  message; any later argument, such as the rule ID, is not message-bound),
  or the text of each violation it carries;
* the value assigned to a local name that is read only inside
  message-bound expressions (``shown = text[:20] + "…"`` before a raise
  that quotes ``shown``);
* an item appended to a local list that is read only inside message-bound
  expressions or as a truth value (``if problems:``): its contents reach
  only the message, its being empty or not is kept apart.

A mutant is message-only when the text it replaces lies wholly inside a
message-bound expression. Deleting or replacing a whole statement never is:
a raise that no longer happens, or a name never assigned, changes behaviour.
"""

from __future__ import annotations

import ast

from .operators import Mutant, units


def _span(node: ast.AST) -> tuple[tuple[int, int], tuple[int, int]]:
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    end = (getattr(node, "end_lineno", None) or start[0],
           getattr(node, "end_col_offset", None) or start[1])
    return start, end


def _inside(inner: tuple[tuple[int, int], tuple[int, int]], outer: ast.AST) -> bool:
    (a, b), (c, d) = inner, _span(outer)
    return c <= a and b <= d


def _truth_tests(fn: ast.AST) -> set[int]:
    """The ids of Name nodes read only for their truth value (``if x:``, ``not x``)."""
    found: set[int] = set()
    for node in ast.walk(fn):
        test = node.test if isinstance(node, ast.If | ast.While | ast.IfExp) else (
            node.operand if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
            else None)
        if isinstance(test, ast.Name):
            found.add(id(test))
    return found


def _message_of(first: ast.expr) -> list[ast.expr]:
    """The words in an exception's first argument: itself, or the text of each violation.

    ``IllegalAction((Violation("MOON.CHOICE", text),))`` carries its rule
    beside its words: only ``text`` is message-bound.
    """
    if isinstance(first, ast.Tuple | ast.List):
        return [e.args[1] for e in first.elts if isinstance(e, ast.Call) and len(e.args) >= 2]
    return [first]


def _only_assigns(node: ast.If) -> str | None:
    """The one name an ``if`` without ``else`` assigns and does nothing else, if any."""
    names = {t.id for stmt in node.body if isinstance(stmt, ast.Assign)
             for t in stmt.targets if isinstance(t, ast.Name)}
    if node.orelse or len(names) != 1 or not all(
            isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 for stmt in node.body):
        return None
    return names.pop()


def _self_guards(fn: ast.AST) -> set[int]:
    """Reads of a name that only reshape it: in its own new value, or in an ``if`` test.

    ``if len(shown) > 20: shown = shown[:20] + "…"`` shapes the words of
    ``shown`` and nothing else (an ``if`` that assigns that name and nothing
    else).
    """
    found: set[int] = set()
    for node in ast.walk(fn):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):  # shown = shown[:20] + "…"
            name = node.targets[0].id
            found.update(id(n) for n in ast.walk(node.value)
                         if isinstance(n, ast.Name) and n.id == name)
        if isinstance(node, ast.If) and (only := _only_assigns(node)) is not None:
            found.update(id(n) for n in ast.walk(node.test)
                         if isinstance(n, ast.Name) and n.id == only)
    return found


def bound_expressions(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """Every message-bound expression of one function (see the module's docstring)."""
    bound: list[ast.AST] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            bound.extend(_message_of(node.exc.args[0]))
    truth = _truth_tests(fn)
    guards = _self_guards(fn)
    loads: dict[str, list[ast.Name]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    appends: dict[str, list[ast.Call]] = {}
    for node in ast.walk(fn):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "append" and isinstance(node.func.value, ast.Name)
                and len(node.args) == 1):
            appends.setdefault(node.func.value.id, []).append(node)

    def only_in_messages(name: str, allow_truth: bool, skip: set[int]) -> bool:
        reads = [n for n in loads.get(name, []) if id(n) not in skip]
        return bool(reads) and all(
            id(n) in guards or (allow_truth and id(n) in truth)
            or any(_inside(_span(n), b) for b in bound) for n in reads)

    changed = True
    done: set[int] = set()
    while changed:  # to a fixed point: a name read only in a message read only in a message
        changed = False
        for node in ast.walk(fn):
            if id(node) in done:
                continue
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and only_in_messages(node.targets[0].id, False, set())):
                bound.append(node.value)
                done.add(id(node))
                changed = True
            elif (isinstance(node, ast.If) and (guarded := _only_assigns(node)) is not None
                  and only_in_messages(guarded, False, set())):
                bound.append(node.test)  # if len(shown) > 20: shown = ...
                done.add(id(node))
                changed = True
            elif isinstance(node, ast.Call) and any(node is c for cs in appends.values()
                                                    for c in cs):
                assert isinstance(node.func, ast.Attribute)
                assert isinstance(node.func.value, ast.Name)
                name = node.func.value.id
                # the list's own .append reads it, to add to it
                bases = {id(c.func.value) for c in appends[name]
                         if isinstance(c.func, ast.Attribute)}
                if only_in_messages(name, True, bases):
                    bound.append(node.args[0])
                    done.add(id(node))
                    changed = True
    return bound


def message_only(m: Mutant, original_source: str) -> bool:
    """Does mutant ``m`` (of ``original_source``) change only the words of a message?"""
    tree = ast.parse(original_source)
    last = m.original.splitlines()[-1] if m.original else ""
    end_line = max(m.line, m.end_line)
    end_col = (m.col if end_line == m.line else 0) + len(last)
    span = ((m.line, m.col), (end_line, end_col))
    for unit, fn in units(tree):
        if unit.qualname != m.unit:
            continue
        for stmt in ast.walk(fn):
            if isinstance(stmt, ast.stmt) and _span(stmt) == span:
                return False  # a whole statement replaced or deleted
        return any(_inside(span, b) for b in bound_expressions(fn))
    return False
