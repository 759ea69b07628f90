"""The package's layout: no import circles and no re-export shims, read from the source.

Every module of :mod:`rules_ref` is parsed with :mod:`ast` (nothing is imported), and
each of its imports is sorted into one of three kinds:

* ``top``: run when the module is imported (at module level, including under ``try``
  or ``if`` at module level);
* ``typing``: under ``if TYPE_CHECKING:``, never run (annotations only);
* ``deferred``: inside a function or method, run when it is called.

A circle through ``top`` and ``deferred`` imports is a real one (a deferred import
only hides it from the linter), and fails the test; one that needs a ``typing``
import to close is not. A module other than a package's ``__init__`` that only
passes on names it imported (``X as X``, an ``__all__`` of imported names, or
nothing but imports) is a shim: callers import from the owner instead.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import rules_ref

PACKAGE = Path(rules_ref.__file__).parent
KINDS = ("top", "typing", "deferred")


@dataclass(frozen=True)
class Import:
    """One import of one module: where it points, of which kind, at which line."""

    source: str
    target: str
    kind: str
    line: int


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """The dotted name of the module at ``path`` (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name."""
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(body: list[ast.stmt], kind: str) -> Iterator[tuple[ast.stmt, str]]:
    """The import statements of ``body`` and below, each with the kind it is."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, kind
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _import_nodes(node.body, "deferred")
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _import_nodes(node.body, "typing")
            yield from _import_nodes(node.orelse, kind)
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    stmts = [s for s in inner if isinstance(s, ast.stmt)]
                    for sub in inner:
                        if isinstance(sub, ast.ExceptHandler | ast.match_case):
                            stmts.extend(sub.body)
                    yield from _import_nodes(stmts, kind)


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module of the package that ``name`` is, or lies in (None: outside the package)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """Every import of the module ``name`` that points into the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []
    for node, kind in _import_nodes(tree.body, "top"):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                targets.append(submodule if submodule in known else origin)
        for target in targets:
            resolved = _resolve(target, known)
            if resolved is not None and resolved != name:
                found.append(Import(name, resolved, kind, node.lineno))
    return found


def all_imports(root: Path = PACKAGE) -> list[Import]:
    """The imports of every module under ``root`` that point into it."""
    known = modules(root)
    return [found for name, path in known.items() for found in imports(name, path, known)]


def circles(edges: list[Import], kinds: tuple[str, ...] = ("top", "deferred")) -> list[list[str]]:
    """The strongly connected groups of two or more modules, through imports of ``kinds``."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set())
        graph.setdefault(edge.target, set())
        if edge.kind in kinds:
            graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in sorted(graph[node]):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def _describe(group: list[str], edges: list[Import]) -> str:
    members = set(group)
    inside = sorted({f"{e.source}:{e.line} -> {e.target} ({e.kind})" for e in edges
                    if e.source in members and e.target in members})
    return "\n  ".join([" <-> ".join(group), *inside])


def shim_faults(name: str, path: Path) -> list[str]:
    """How the module ``name`` passes on names it does not own (empty: it does not)."""
    if path.name == "__init__.py":
        return []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    faults: list[str] = []
    imported: set[str] = set()
    defined: set[str] = set()
    exported: list[str] = []
    only_imports = True
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                local = alias.asname or alias.name.partition(".")[0]
                imported.add(local)
                if alias.asname is not None and alias.asname == alias.name:
                    faults.append(f"line {node.lineno}: re-exports {alias.name} (X as X)")
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            exported = [e.value for e in getattr(node.value, "elts", [])
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            continue
        only_imports = False
        for sub in ast.walk(node) if not isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) else [node]:
            if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(sub.name)
            elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                defined.add(sub.id)
    passed_on = sorted(n for n in exported if n in imported and n not in defined)
    if passed_on:
        faults.append(f"__all__ passes on imported names: {', '.join(passed_on)}")
    if only_imports and imported:
        faults.append("holds nothing but imports")
    return faults


# --- the checks


def test_no_import_circle_in_the_package() -> None:
    edges = all_imports()
    found = circles(edges)
    assert not found, "import circles:\n" + "\n".join(_describe(g, edges) for g in found)


def test_the_one_circle_a_typing_import_closes_is_the_state_and_its_steps() -> None:
    """The state calls the steps of :mod:`rules_ref.transitions`, which annotate the state.

    Any other circle, even one that only a ``TYPE_CHECKING`` import closes, is
    a module reaching back into one that uses it (as the tables the rules
    refuse once reached into the session).
    """
    assert circles(all_imports(), KINDS) == [["rules_ref.state", "rules_ref.transitions"]]


def test_no_module_of_the_package_is_a_re_export_shim() -> None:
    faults = {name: shim_faults(name, path) for name, path in modules().items()}
    shown = {name: found for name, found in faults.items() if found}
    assert not shown, "re-export shims:\n" + "\n".join(
        f"{name}: {'; '.join(found)}" for name, found in sorted(shown.items()))



#: The most lines a class of the package may have: a class does one job, and one job
#: fits in fewer (a longer class is several objects sharing attributes).
MAX_CLASS_LINES = 400
#: The most modules at the package's top level: the rule modules, the state and the
#: spec's readers; every outside concept lives in a package named for it.
MAX_TOP_MODULES = 24


def long_classes(root: Path = PACKAGE, limit: int = MAX_CLASS_LINES) -> list[str]:
    """Every class under ``root`` longer than ``limit`` lines, as ``module:Class (N lines)``."""
    found = []
    for name, path in modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    found.append(f"{name}:{node.name} ({lines} lines)")
    return sorted(found)


def _is_start_literal(node: ast.AST) -> bool:
    """A ``{"type": "start", ...}`` dict, or ``dict(type="start", ...)``."""
    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value == "type"
                   and isinstance(v, ast.Constant) and v.value == "start"
                   for k, v in zip(node.keys, node.values, strict=True))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return any(k.arg == "type" and isinstance(k.value, ast.Constant)
                   and k.value.value == "start" for k in node.keywords)
    return False


def start_builders(root: Path = PACKAGE) -> list[str]:
    """The modules under ``root`` that write a ``start`` message of the protocol."""
    return sorted(name for name, path in modules(root).items()
                  if any(_is_start_literal(n)
                         for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))))


def test_no_class_of_the_package_is_longer_than_the_limit() -> None:
    assert long_classes() == []


def test_the_top_level_holds_the_engine_and_few_modules() -> None:
    top = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


def test_one_module_writes_the_start_message_and_the_adapter_program_answers_it() -> None:
    """Every other module asks :mod:`rules_ref.protocol.start` for a start message."""
    assert start_builders() == ["rules_ref.protocol.start"]


def test_every_package_says_what_it_owns_and_lists_its_public_names() -> None:
    for init in sorted(PACKAGE.rglob("__init__.py")):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init} has no docstring"
        if init.parent == PACKAGE / "cli":
            continue  # the command line's face is its table of commands
        names = {t.id for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                 for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                 if isinstance(t, ast.Name)}
        assert "__all__" in names or "OWNERS" in names, f"{init} lists no public names"


def test_the_search_never_imports_its_reports() -> None:
    """Data flows one way: search, findings, result, reports, command line."""
    back = sorted(f"{e.source}:{e.line} -> {e.target}" for e in all_imports()
                  if e.source.startswith(("rules_ref.conform", "rules_ref.findings"))
                  and e.target.startswith("rules_ref.reports") and e.kind != "typing")
    assert back == []


# --- the checks check themselves, on a package written here


def _package(tmp: Path, files: dict[str, str]) -> Path:
    root = tmp / "pkg"
    for relative, text in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def test_the_three_kinds_of_import_are_told_apart(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": ("from typing import TYPE_CHECKING\nfrom . import b\n"
                 "if TYPE_CHECKING:\n    from .c import C\n"
                 "def f() -> None:\n    from .sub import d\n"),
        "b.py": "", "c.py": "C = 1\n",
        "sub/__init__.py": "from .d import x\n", "sub/d.py": "x = 1\n",
    })
    found = sorted((e.source, e.target, e.kind, e.line) for e in all_imports(root))
    assert found == [("pkg.a", "pkg.b", "top", 2), ("pkg.a", "pkg.c", "typing", 4),
                     ("pkg.a", "pkg.sub.d", "deferred", 6), ("pkg.sub", "pkg.sub.d", "top", 1)]


def test_a_circle_closed_by_a_deferred_import_is_found(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from .b import g\n",
        "b.py": "def g() -> None:\n    from . import a\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import g\n",
        "d.py": "from .c import x\n",
    })
    edges = all_imports(root)
    assert circles(edges) == [["pkg.a", "pkg.b"]]
    assert circles(edges, ("top",)) == []


def test_a_circle_closed_by_a_typing_import_is_not_one(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from .b import g\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n",
    })
    edges = all_imports(root)
    assert circles(edges) == []
    assert circles(edges, KINDS) == [["pkg.a", "pkg.b"]]


def test_a_face_and_its_own_module_make_a_circle(tmp_path: Path) -> None:
    """A package's ``__init__`` that imports a module which imports the package's face."""
    root = _package(tmp_path, {
        "__init__.py": "from .a import f\n",
        "a.py": "from . import helper\n",
        "b.py": "from . import f\n",
        "helper.py": "",
    })
    edges = all_imports(root)
    assert sorted((e.source, e.target) for e in edges) == [
        ("pkg", "pkg.a"), ("pkg.a", "pkg.helper"), ("pkg.b", "pkg")]
    assert circles(edges) == []
    root2 = _package(tmp_path / "two", {"__init__.py": "from .a import f\n",
                                        "a.py": "from . import f\n"})
    assert circles(all_imports(root2)) == [["pkg", "pkg.a"]]


def test_the_size_and_start_checks_find_what_they_look_for(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(5))
    root = _package(tmp_path, {
        "__init__.py": "",
        "big.py": f"class Big:\n{body}\n",
        "writes.py": "def f() -> dict[str, str]:\n    return {'type': 'start', 'x': 'y'}\n",
        "calls.py": "def g() -> object:\n    return dict(type='start')\n",
        "other.py": "def h() -> dict[str, str]:\n    return {'type': 'play'}\n",
    })
    assert long_classes(root, limit=5) == ["pkg.big:Big (6 lines)"]
    assert long_classes(root, limit=6) == []
    assert start_builders(root) == ["pkg.calls", "pkg.writes"]


def test_the_shim_check_names_each_way_of_passing_names_on(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "from .owner import f as f\n",
        "owner.py": "def f() -> None:\n    pass\n",
        "aliases.py": '"""Doc."""\nfrom .owner import f as f\n\ndef g() -> None:\n    pass\n',
        "listed.py": "from .owner import f\n__all__ = ['f', 'h']\ndef h() -> None:\n    pass\n",
        "bare.py": '"""Doc."""\nfrom .owner import f\n__all__ = ["f"]\n',
        "user.py": "from .owner import f\n\nVALUE = f()\n",
    })
    faults = {name: shim_faults(name, path) for name, path in modules(root).items()}
    assert faults == {
        "pkg": [],
        "pkg.aliases": ["line 2: re-exports f (X as X)"],
        "pkg.bare": ["__all__ passes on imported names: f", "holds nothing but imports"],
        "pkg.listed": ["__all__ passes on imported names: f"],
        "pkg.owner": [],
        "pkg.user": [],
    }
