"""Finding one's way: a bare ``rules-ref``, every ``--help``'s examples, and did-you-mean."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules_ref import registry
from rules_ref.cli import COMMANDS, build_parser
from rules_ref.wording.suggest import closest

from .helpers import run


def parsers(parser: argparse.ArgumentParser,
            prog: str = "rules-ref") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``rules-ref`` and every command and action below it, each with its parser."""
    yield prog, parser
    for action in parser._actions:  # argparse offers no public way to list subparsers
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, f"{prog} {name}")


def examples(parser: argparse.ArgumentParser) -> list[str]:
    """The command lines under ``examples:`` in a parser's help."""
    text = parser.format_help()
    assert "\nexamples:\n" in text, text
    block = text.split("\nexamples:\n", 1)[1]
    return [line.strip() for line in block.splitlines() if line.startswith("  rules-ref ")]


def test_a_bare_rules_ref_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([], capsys)
    assert (code, err) == (2, "")
    assert out.startswith("usage: rules-ref ")
    listed = [line.split()[0] for line in out.split("COMMAND\n", 1)[1].splitlines()
              if line.startswith("    ") and line[4] != " "]
    assert listed == list(COMMANDS)
    assert "  rules-ref COMMAND --help\n" in out


ALL = list(parsers(build_parser()))


def test_the_helps_are_of_every_command_and_action() -> None:
    expected = ["rules-ref", *(f"rules-ref {c}" for c in COMMANDS),
                *(f"rules-ref vectors {a}" for a in ("generate", "check", "run"))]
    assert sorted(p for p, _ in ALL) == sorted(expected)


@pytest.mark.parametrize(("prog", "parser"), ALL, ids=[p for p, _ in ALL])
def test_every_help_ends_with_examples_of_its_own_command(
        prog: str, parser: argparse.ArgumentParser) -> None:
    """Each example is of the command whose help shows it, and parses as written."""
    shown = examples(parser)
    assert len(shown) >= (1 if prog.count(" ") == 2 else 2), shown
    top = build_parser()
    for line in shown:
        assert line.startswith(prog + " ") or line == prog or prog == "rules-ref", line
        if "COMMAND" in line:
            continue  # rules-ref COMMAND --help: a pattern, not a command
        args = shlex.split(line)[1:]
        parsed, extras = top.parse_known_args(args)
        assert extras == [], line
        assert parsed.command == args[0]


def test_the_examples_name_real_files_and_values() -> None:
    """A directory, a preset or a kind an example names exists."""
    root = Path(__file__).resolve().parents[2]
    for _, parser in ALL:
        for line in examples(parser):
            for word in shlex.split(line):
                if word.startswith("spec/"):
                    assert (root / word).exists(), line


def test_the_rule_list_starts_with_its_first_group(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules"], capsys)
    first = registry.load().groups[0]
    assert (code, out.splitlines()[0]) == (0, first.title)
    assert "\n\n\n" not in out and not out.endswith("\n\n")


@pytest.mark.parametrize(("args", "hint"), [
    (["play", "--preset", "Wikipedia"], "did you mean wikipedia?"),
    (["play", "--preset", "hubpage"], "did you mean hubpages?"),
    (["paly"], "did you mean play or plays?"),
    (["play", "--sed", "3"], "did you mean --seed?"),
    (["play", "--jsn"], "did you mean --json?"),
    (["vectors", "rn"], "did you mean run?"),
    (["vectors", "run", "--kinds", "trik", "--", "x"], "did you mean trick?"),
    (["rules", "trick.cancl"], "did you mean TRICK.CANCEL"),
    (["sources", "WPcur"], "did you mean WP-cur?"),
    (["position", "8 2 1 playng x"], "did you mean playing?"),
])
def test_a_mistyped_name_gets_the_closest_names(args: list[str], hint: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and hint in err, err


@pytest.mark.parametrize(("ruleset", "hint"), [
    ('{"mooon": "choice-26"}', "; did you mean moon?"),
    ('{"moon": "choise-26"}', "; did you mean choice-26?"),
    ('{"pass_cycle": ["lft", "right"]}', "; did you mean left?"),
    ('{"opening_lead": "two-of-club"}', "; did you mean two-of-clubs?"),
])
def test_a_mistyped_switch_or_value_gets_the_closest(ruleset: str, hint: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rules.json"
    path.write_text(ruleset, encoding="utf-8")
    code, out, err = run(["play", "--ruleset", str(path)], capsys)
    assert (code, out) == (2, "")
    assert err.endswith(hint + "\n"), err


def test_nothing_is_offered_for_a_name_like_none() -> None:
    assert closest("xylophone", ["spruce", "wikipedia"]) == []
    assert closest("", ["spruce"]) == []
    assert closest("SPRUCE", ["spruce", "spruces"]) == ["spruce"]


def test_an_adapter_whose_python_lacks_the_package_is_told_which_python_has_it() -> None:
    """The reference adapter run by a Python without rules_ref (as a bare ``python`` is when
    the environment is not active): the fault names the cause and a command that works."""
    import shlex
    import sys

    from .helpers import program

    lacking = [sys.executable, "-I", "-S", "-m", "rules_ref.conformance.adapter"]
    done = program(["vectors", "run", "--kinds", "trick", "--", *lacking])
    assert done.returncode == 2
    said = done.stderr.splitlines()[1]
    prefix = ("  the adapter's Python cannot import rules_ref (it is not the Python rules-ref "
              "is installed in): run the reference adapter as ")
    assert said.startswith(prefix), done.stderr
    suggested = shlex.split(said[len(prefix):])
    assert suggested[-1] == "adapter"
    works = program(["vectors", "run", "--kinds", "trick", "--", *suggested])
    assert works.returncode == 0, works.stderr


def test_rules_ref_off_the_path_is_told_where_it_is() -> None:
    """``rules-ref conform -- rules-ref adapter`` with the environment not active."""
    import os

    from rules_ref.cli.common import reference_adapter

    from .helpers import program

    done = program(["vectors", "run", "--kinds", "trick", "--", "rules-ref", "adapter"],
                   env={"PATH": os.defpath})
    assert done.returncode == 2
    assert done.stderr.splitlines()[:2] == [
        "rules-ref vectors: adapter start: command not found: rules-ref",
        "  rules-ref is not on the path (its environment is not active): run the reference "
        f"adapter as {reference_adapter()}"]


@pytest.mark.parametrize("command", [["conform"], ["vectors", "run"]])
def test_no_adapter_command_suggests_one_that_runs_with_this_python(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from rules_ref.cli.common import reference_adapter

    code, out, err = run(command, capsys)
    assert (code, out) == (2, "")
    assert err.rstrip("\n").endswith(f" -- {reference_adapter()}")
    assert reference_adapter().split()[0] != "python"
