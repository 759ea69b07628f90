"""``make check``, the quick check the README offers a first change, runs what it says."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_opens_with_the_set_up_commands_then_says_what_make_check_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands, after = readme.split("```sh\n", 1)[1].split("```\n", 1)
    assert [line.split()[:2] for line in commands.splitlines()] == [["make", "play"],
                                                                     ["make", "test"]]
    first = " ".join(after.strip().split("\n\n")[0].split())
    assert first.startswith("`make test` takes about 14 minutes on a 2-core machine. For a "
                            "first change, `make check` is the quick check: ruff, `mypy "
                            "--strict` and the rule tables (`tests/rules`), with no docs build, "
                            "no browser,")


def test_make_check_runs_ruff_mypy_and_the_rule_tables_alone() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^check: .*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe is not None
    assert recipe.group(1).splitlines() == [
        "\t$(BIN)/ruff check rules_ref tests",
        "\t$(BIN)/mypy --strict rules_ref tests",
        "\t$(BIN)/pytest -q -n 0 -p no:cacheprovider tests/rules",
    ]
