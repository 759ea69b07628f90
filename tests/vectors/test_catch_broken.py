"""The vectors catch broken implementations, and name the rule each one breaks.

Each broken adapter is the reference adapter with one rule broken. For each,
``rules-ref vectors run`` must fail (exit status 1), and some failing vector
must cite the broken rule.

Two broken adapters live in this file (run it as a script: ``python
tests/vectors/test_catch_broken.py NAME``); the suite of
``tests/fakes/broken_adapters.py`` (``BROKEN``: name -> rule ID, run as
``python tests/fakes/broken_adapters.py NAME``) is used when it is there.

The kinds are replayed in passes, one kind each, those that catch most
engines first; a later pass runs only while no failure cites the broken rule.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BROKEN_SUITE = HERE.parent / "fakes" / "broken_adapters.py"
#: The kinds, one pass each, the ones that catch most of these engines first (trick half of
#: them, the illegal actions and legal plays most others); a pass runs only while no failure
#: cites the rule, and perft, by far the longest, comes last but one.
PASSES = ("trick", "illegal-action", "legal-plays", "scoring", "game-end", "moon", "passing",
          "transcript", "perft")
FAIL_LINE = re.compile(r"^FAIL (\S+) \[([A-Z0-9_., ]+)\]: ")


def _no_cancellation() -> None:
    """Identical cards never cancel (breaks TRICK.CANCEL): the engine's rule function replaced."""
    from rules_ref import tricks

    tricks.cancelled_cards = lambda cards: frozenset()


def ignoring(rule: str) -> type:
    """The reference adapter with every check of ``rule`` dropped (public engine API only).

    An action that breaks only ``rule`` is applied anyway, and the legal
    lists leave the rule out, as an implementation without it would.
    """
    from typing import Any

    from rules_ref.actions import Play
    from rules_ref.errors import RulesRefError
    from rules_ref.jsonio.serialize import action_from_json
    from rules_ref.protocol.reference_adapter import ReferenceAdapter
    from rules_ref.state import GameState
    from rules_ref.state_parts import Phase

    class IgnoresRule(ReferenceAdapter):
        def act(self, msg: dict[str, Any]) -> dict[str, Any]:
            state = self.state
            try:
                action = action_from_json(msg["action"])
            except RulesRefError:
                return super().act(msg)
            if state is None:
                return super().act(msg)
            found = state.violations(action)
            kept = [v for v in found if v.rule_id != rule]
            if not found or len(kept) == len(found):
                return super().act(msg)
            if kept:
                return {"type": "rejected", "rule": kept[0].rule_id, "reason": str(kept[0])}
            self.state, _ = state.apply_unchecked(action)
            return {"type": "observation", **self.observe(self.state)}

        def observe(self, state: GameState) -> dict[str, Any]:
            obs = super().observe(state)
            seat = state.to_act
            if state.phase is Phase.PLAYING and seat is not None:
                obs["legal"] = [str(c) for c in dict.fromkeys(state.hands[seat])
                                if not [v for v in state.violations(Play(seat, c))
                                        if v.rule_id != rule]]
            return obs

    return IgnoresRule


LOCAL: dict[str, tuple[str, Callable[[], object]]] = {
    "no-cancellation": ("TRICK.CANCEL", _no_cancellation),
    "no-follow-suit": ("FOLLOW.SUIT", lambda: ignoring("FOLLOW.SUIT")),
}


def serve(name: str) -> int:
    from rules_ref.protocol.reference_adapter import ReferenceAdapter

    made = LOCAL[name][1]()
    adapter = made() if isinstance(made, type) else ReferenceAdapter()
    return int(adapter.serve(sys.stdin, sys.stdout))


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1]))



from rules_ref.cli import main  # noqa: E402


def run_vectors(command: list[str], kinds: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["vectors", "run", "--quiet", "--kinds", kinds, "--", *command])
    assert code != 2, f"adapter fault or usage error:\n{out.getvalue()}{err.getvalue()}"
    return code, out.getvalue()


def cited(output: str) -> dict[str, list[str]]:
    """Failing case id -> the rules its line cites."""
    out = {}
    for line in output.splitlines():
        m = FAIL_LINE.match(line)
        if m:
            out[m.group(1)] = m.group(2).split(", ")
    return out


def assert_caught(command: list[str], rule: str) -> dict[str, list[str]]:
    code, output, failures = 0, "", {}
    for kinds in PASSES:
        status, text = run_vectors(command, kinds)
        code, output = max(code, status), output + text
        failures.update(cited(text))
        if any(rule in rules for rules in failures.values()):
            break
    assert code == 1, f"the vectors did not fail:\n{output}"
    assert failures, output
    assert any(rule in rules for rules in failures.values()), \
        f"no failing vector cites {rule}:\n{output}"
    return failures


@pytest.mark.untraced
@pytest.mark.rule("TRICK.CANCEL")
def test_vectors_catch_ignored_cancellation() -> None:
    failures = assert_caught([sys.executable, __file__, "no-cancellation"], "TRICK.CANCEL")
    assert failures["trick/three-pairs-p9"] == ["TRICK.CANCEL", "TRICK.LED_SUIT", "TRICK.WINNER"]
    assert failures["trick/void-all-paired-p10"] == ["EXTRAS.FIRST_TRICK", "TRICK.CANCEL",
                                                     "VOID.TRICK"]


def failed_in_process(adapter: type, kinds: tuple[str, ...]) -> dict[str, list[str]]:
    """Failing case id -> the rules it cites, of the cases of ``kinds`` replayed through
    ``adapter()`` in this process (an adapter that declares everything: none is skipped)."""
    from rules_ref import vectors
    from rules_ref.vectors.case_replay import FAIL, InProcess, run_case

    driver = InProcess(adapter=adapter())
    outcomes = [run_case(driver, case)
                for _, case in vectors.iter_cases(vectors.load_dir(vectors.latest_dir()), kinds)]
    return {o.case_id: o.rules for o in outcomes if o.status == FAIL}


@pytest.mark.untraced
@pytest.mark.rule("FOLLOW.SUIT")
def test_vectors_catch_ignored_follow_suit() -> None:
    adapter = ignoring("FOLLOW.SUIT")
    failures: dict[str, list[str]] = {}
    for kinds in PASSES:
        failures.update(failed_in_process(adapter, (kinds,)))
        if any("FOLLOW.SUIT" in rules for rules in failures.values()):
            break
    assert any("FOLLOW.SUIT" in rules for rules in failures.values()), failures
    # both kinds that test following suit say so: the illegal card is accepted, and the
    # legal list offers every card
    failures = failed_in_process(adapter, ("illegal-action", "legal-plays"))
    assert failures["illegal-action/follow-suit-p6"] == ["FOLLOW.SUIT"]
    assert failures["legal-plays/follow-suit-p6"] == ["FOLLOW.SUIT"]


def _broken_suite() -> dict[str, str]:
    if not BROKEN_SUITE.is_file():
        return {}
    spec = importlib.util.spec_from_file_location("broken_adapters_for_vectors", BROKEN_SUITE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    broken: dict[str, str] = module.BROKEN
    return broken


def _suite_params() -> list[object]:
    broken = _broken_suite()
    if not broken:
        return [pytest.param(None, None, marks=pytest.mark.skip(
            reason=f"{BROKEN_SUITE.relative_to(HERE.parent.parent)} is not there yet"))]
    return [pytest.param(name, rule, id=name) for name, rule in sorted(broken.items())]


@pytest.mark.untraced
@pytest.mark.parametrize(("name", "rule"), _suite_params())
def test_vectors_catch_each_broken_adapter(name: str, rule: str) -> None:
    assert_caught([sys.executable, str(BROKEN_SUITE), name], rule)
