"""The mutation tool (``tools/mutation``): its operators, and killed/survived on a tiny project.

No campaign runs here: the operators are checked on one-function sources, and
the runner on a throw-away project of one small module and two tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.mutation.operators import mutants

ROOT = Path(__file__).resolve().parents[2]


def sources(src: str, op: str) -> list[str]:
    return [m.source for m in mutants(src, "m.py") if m.op == op]


@pytest.mark.parametrize(("op", "src", "expected"), [
    ("compare", "def f(a, b):\n    return a < b\n", ["def f(a, b):\n    return a <= b\n"]),
    ("compare", "def f(a, b):\n    return a is not b\n", ["def f(a, b):\n    return a is b\n"]),
    ("compare", "def f(a, b, c):\n    return a == b in c\n",
     ["def f(a, b, c):\n    return a != b in c\n",
      "def f(a, b, c):\n    return a == b not in c\n"]),
    ("boolean", "def f(a, b):\n    return a and b\n", ["def f(a, b):\n    return a or b\n"]),
    ("arith", "def f(a, b, c):\n    return (a + b) * c\n",
     ["def f(a, b, c):\n    return (a + b) // c\n", "def f(a, b, c):\n    return (a - b) * c\n"]),
    ("arith", "def f(a):\n    a += 2\n    return a\n", ["def f(a):\n    a -= 2\n    return a\n"]),
    ("constant", "def f(a):\n    return a + 1\n",
     ["def f(a):\n    return a + 2\n", "def f(a):\n    return a + 0\n"]),
    ("constant", "def f():\n    return True\n", ["def f():\n    return False\n"]),
    ("constant", "def f(a):\n    return a[0]\n", ["def f(a):\n    return a[1]\n"]),
    ("zero", "def f(a):\n    return a[0]\n", ["def f(a):\n    return a[-1]\n"]),
    ("return-not", "def f(a) -> bool:\n    return a\n", ["def f(a) -> bool:\n    return not a\n"]),
    ("return-not", "def f(a) -> int:\n    return a\n", []),
    ("remove-not", "def f(a):\n    return not a\n", ["def f(a):\n    return a\n"]),
    ("delete", "def f(a):\n    if a:\n        a = 2\n    return a\n",
     ["def f(a):\n    if a:\n        pass\n    return a\n"]),
    ("min-max", "def f(a, b):\n    return min(a, b)\n", ["def f(a, b):\n    return max(a, b)\n"]),
    ("slice", "def f(s, i):\n    return s[:i]\n", ["def f(s, i):\n    return s[:i + 1]\n"]),
    ("slice", "def f(s):\n    return s[1:]\n", []),  # a constant bound is the constant's
])
def test_each_operator_makes_exactly_this_source(op: str, src: str, expected: list[str]) -> None:
    assert sources(src, op) == expected


def test_only_function_bodies_are_mutated() -> None:
    src = ('X = 1 + 2\n\n@deco(3)\ndef f(a: int = 4) -> int:\n    """Doc 5."""\n'
           '    return a + 6\n\nclass C:\n    Y = 7\n\n    def g(self):\n        return f"{8}"\n')
    found = [(m.unit, m.op, m.replacement) for m in mutants(src, "m.py")]
    assert found == [("f", "arith", "a - 6"), ("f", "constant", "7"), ("f", "constant", "5")]


def test_a_mutant_records_its_place_and_rules() -> None:
    src = ('from r import implements\n\n@implements("GAME.END")\n'
           "def over(t, n) -> bool:\n    return max(t) >= n\n")
    found = mutants(src, "rules_ref/game_end.py")
    assert [(m.key, m.line, m.description, m.rules) for m in found] == [
        ("rules_ref/game_end.py:over:return-not:0", 5,
         "return max(t) >= n -> return not max(t) >= n", ("GAME.END",)),
        ("rules_ref/game_end.py:over:compare:0", 5, "max(t) >= n -> max(t) > n", ("GAME.END",)),
        ("rules_ref/game_end.py:over:min-max:0", 5, "max(t) -> min(t)", ("GAME.END",)),
    ]


TINY_MODULE = '''"""A tiny stand-in for a rule module."""


def is_over(totals, target):
    return max(totals) >= target


def double(x):
    return x + x


def _table():
    return (0, 1)


TABLE = _table()  # run at import, outside every test: every test needs it
'''

TINY_TESTS = '''from rules_ref.game_end import TABLE, double, is_over


def test_the_end_is_at_the_target():
    assert is_over([150, 20], 150) is True
    assert is_over([149, 20], 150) is False


def test_double_of_zero():
    assert double(0) == 0


def test_the_table():
    assert TABLE == (0, 1)
'''


def test_a_tiny_campaign_tells_killed_from_survived(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "rules_ref").mkdir(parents=True)
    (project / "rules_ref" / "__init__.py").write_text("")
    (project / "rules_ref" / "game_end.py").write_text(TINY_MODULE)
    (project / "tests" / "rules").mkdir(parents=True)
    (project / "tests" / "rules" / "test_tiny.py").write_text(TINY_TESTS)
    (project / "spec").mkdir()
    (project / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    out = tmp_path / "report" / "mutation"
    proc = subprocess.run([sys.executable, "-m", "tools.mutation", "mutate", "--modules",
                           "game_end", "--jobs", "1", "--out", str(out)], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(out.with_suffix(".json").read_text())
    status = {m["key"].split(":", 1)[1]: (m["status"], m["mutation"]) for m in report["mutants"]}
    assert status == {
        "is_over:compare:0": ("killed", "max(totals) >= target -> max(totals) > target"),
        "is_over:min-max:0": ("killed", "max(totals) -> min(totals)"),
        "double:arith:0": ("survived", "x + x -> x - x"),
        "_table:constant:0": ("killed", "0 -> 1"),
        "_table:zero:0": ("killed", "0 -> -1"),
        "_table:constant:1": ("killed", "1 -> 2"),
        "_table:constant:2": ("killed", "1 -> 0"),
    }
    assert report["counts"] == {"killed": 6, "timeout": 0, "survived": 1, "error": 0}
    assert (project / "rules_ref" / "game_end.py").read_text() == TINY_MODULE  # never touched
