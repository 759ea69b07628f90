"""Rare combinations aimed at: the pairs of the tally, and the bugs only a pair shows.

A pair (rules_ref/exercise/pairs.py) is a rare condition met under one
value of a switch; the tally counts them beside the conditions, and the
search aims its games at those it has not met (rules_ref/conform/aims.py).
Each broken adapter of :mod:`tests.fakes.rare_pair_adapters` differs
from the reference only where two rare things meet, and must be found, with
the rulesets drawn by ``conform`` itself, on each of five seeds within the
games the default budget plays (:data:`DEFAULT_BUDGET_GAMES`): the runs are
bounded by a number of games, never by seconds, and what they find is
asserted, never how long it took.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cards import CARDS, is_penalty
from rules_ref.cli import main
from rules_ref.conform.aims import aim_for, focus_keys, focus_weights
from rules_ref.conform.choosers import RulesetDrawer
from rules_ref.exercise import catalogue as ex
from rules_ref.exercise import pairs as ep
from rules_ref.ruleset import LastTrickVoid, MoonPair, OpeningLead, PassDirection, Ruleset
from rules_ref.state import GameState
from rules_ref.strategies.crafted import mirror_deal

from ..fakes.rare_pair_adapters import BROKEN, command
from .test_exercise import EVERY, play_twins

#: The games the default budget (DEFAULT_MAX_SECONDS = 8 s) plays against the reference
#: adapter: `rules-ref conform --json --seed 1 -- python -m rules_ref.protocol.reference_adapter`
#: at default settings played 318 games in 8.0 s before the pairs were aimed at (load average
#: 3.2 on 2 cores, 2026-12-03). The aimed search costs no more per game: the kit and the
#: adapter together took 8.0 to 8.1 s of CPU (user + sys) for the 300 games of each of seeds
#: 1 to 3, against 8.7 to 9.2 s then; so at least 318 games, rounded down.
DEFAULT_BUDGET_GAMES = 300
#: Five seeds: each must find every rare-pair bug within the default budget.
SEEDS = (1, 2, 3, 4, 5)
#: Every run: a game budget, a time budget no machine reaches.
SEARCH = ["--examples", str(DEFAULT_BUDGET_GAMES), "--max-seconds", "600", "--timeout", "60",
          "--shrink-seconds", "0.25", "--first"]

_VOID_LAST = f"VOID.LAST: {ex.VOID_LAST}"
_EXTRAS_LAST = f"VOID.LAST: {ex.VOID_LAST_EXTRAS}"


def test_a_pair_is_its_condition_under_the_value_of_the_step() -> None:
    ruleset = Ruleset(moon_pair=MoonPair.OTHERS_26, pass_cycle=(PassDirection.HOLD,))
    state = GameState.start(6, ruleset, 0, (0,) * 6, 1)
    state, _ = state.apply(mirror_deal(_Seeded(), 6))
    seen = play_twins(state)
    assert seen[_VOID_LAST] == 1
    assert seen[f"{_VOID_LAST}, under moon_pair = others-26"] == 1
    assert seen[f"{_VOID_LAST}, under ten_of_diamonds_points = 0"] == 1
    assert not any(ep.parts(k) for k in seen if k.startswith("FOLLOW."))
    # the pairs are the search's, not conditions: the summary leaves them out
    table, never = ex.summary(seen, (_VOID_LAST,))
    assert table["VOID.LAST"] == {ex.VOID_LAST: 1, ex.VOID_LAST_EXTRAS: 1,
                                  "under last_trick_void = nobody": 1}
    assert seen[f"{_EXTRAS_LAST}, under last_trick_void = nobody"] == 1
    assert never == [r for r in table if not table[r]]


class _Seeded:
    """The choices of a mirror deal in which partners hold the same cards, in deck order."""

    def randrange(self, stop: int, /) -> int:
        return 0

    def shuffle(self, x: list[Any], /) -> None:
        return None


def test_the_pairs_of_a_run_are_the_values_it_draws_that_fit() -> None:
    drawer = RulesetDrawer(EVERY)
    reach = ep.reachable_pairs(drawer.scope(EVERY.players, None))
    last = [k for k in reach if k.startswith(_EXTRAS_LAST)]
    assert last == [ep.pair_key(_EXTRAS_LAST, "last_trick_void", v) for v in LastTrickVoid]
    assert ep.parts(last[1]) == (_EXTRAS_LAST, "last_trick_void", "leader")
    assert ep.parts(_EXTRAS_LAST) is None
    assert all(ex.is_pair(k) for k in reach) and not any(
        ex.is_pair(k) for k in drawer.catalogue(EVERY.players, None))
    # a forced heart lead needs hearts that must be broken: no pair under not-needed
    forced = f"LEAD.HEARTS: {ex.HEART_LED_FORCED}"
    assert [ep.parts(k)[2] for k in reach if k.startswith(forced)] == [  # type: ignore[index]
        "heart-or-queen", "heart", "heart-discard", "heart-not-led"]
    # one value drawn: no pair (the condition alone is the pair)
    fixed = drawer.scope(EVERY.players, Ruleset())
    assert ep.reachable_pairs(fixed) == ()
    keys = focus_keys(drawer.catalogue(EVERY.players, None), drawer.scope(EVERY.players, None))
    assert keys == drawer.catalogue(EVERY.players, None) + reach


def test_the_scheduler_aims_at_the_pairs_not_met() -> None:
    keys = ("A.B: one", "A.B: two", f"{_VOID_LAST}, under moon_pair = none",
            f"{_VOID_LAST}, under moon_pair = others-26")
    both = focus_weights(keys, Counter({"A.B: one": 1, keys[2]: 2}))
    assert both == {1: pytest.approx(0.45), 3: pytest.approx(0.45)}
    # a pair met once is still aimed at
    pairs_only = focus_weights(keys, Counter({"A.B: one": 1, "A.B: two": 2, keys[2]: 1}))
    assert pairs_only == {2: pytest.approx(0.45), 3: pytest.approx(0.45)}
    met = focus_weights(keys, Counter({"A.B: one": 1, "A.B: two": 1, keys[2]: 2, keys[3]: 2}))
    assert met == dict.fromkeys(range(4), pytest.approx(0.15))
    assert focus_weights((), Counter()) == {}
    aim = aim_for(f"{_EXTRAS_LAST}, under last_trick_void = split-highest-pair")
    assert aim.deal == "mirror" and aim.copy
    held = aim.switches["last_trick_void"]
    assert [v for v in LastTrickVoid if held(v)] == [LastTrickVoid.SPLIT_HIGHEST_PAIR]
    moon = aim_for(f"MOON.CONDITION: {ex.MOON}, under opening_lead = two-of-clubs")
    assert moon.deal == "moon" and moon.players is not None
    assert [n for n in range(5, 12) if moon.players(n)] == [5, 6, 7, 9, 10, 11]
    assert [v for v in OpeningLead if moon.switches["opening_lead"](v)] == [
        OpeningLead.TWO_OF_CLUBS]


@pytest.mark.parametrize("players", [6, 8, 10, 11])
def test_a_mirror_deal_can_leave_points_among_the_extras(players: int) -> None:
    for seed in range(20):
        plain = mirror_deal(random.Random(seed), players)
        deal = mirror_deal(random.Random(seed), players, points_aside=True)
        assert sorted([*(c for h in deal.hands for c in h), *deal.extras]) == sorted(CARDS * 2)
        pairs = players // 2
        assert all(deal.hands[s] == deal.hands[s + pairs] for s in range(pairs))
        if not deal.extras:  # 8 players: nothing left over, the deal as it was
            assert deal == plain
            continue
        # what is left over after the pairs' hands: the extras, and the odd seat's hand
        odd = deal.hands[-1] if players % 2 else ()
        assert any(is_penalty(c) for c in (*deal.extras, *odd))
        if any(is_penalty(c) for c in (*plain.extras, *(plain.hands[-1] if players % 2
                                                         else ()))):
            assert deal == plain  # only a deal whose leftover held no points is changed


def _conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--json", *args])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


#: Runs whose one cause the kit splits in two classes today: the points of a void last
#: trick given whole to an earlier seat of its highest pair are, at a later deal, also what a
#: pair that does not cancel gives, so that divergence is named TRICK.CANCEL beside VOID.LAST.
SPLIT_IN_TWO = {("split-points-to-earlier", 2)}


@pytest.mark.rule("VOID.LAST", "MOON.CONDITION", "MOON.CHOICE", "HEARTS.BROKEN")
@pytest.mark.untraced
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(BROKEN))
def test_a_bug_of_two_rare_things_is_found_within_the_default_budget(
        name: str, seed: int, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    if (name, seed) in SPLIT_IN_TWO:
        pytest.xfail("one cause named as two classes (SPLIT_IN_TWO)")
    rule, switch = BROKEN[name]
    code, summary = _conform(capsys, *SEARCH, "--seed", str(seed), "--out", str(tmp_path),
                             "--", *command(name))
    assert code == 1, (name, seed, summary.get("stopped"), summary.get("games"))
    assert summary["verdict"] == "disagreement"
    assert summary["stopped"] == "first"
    # one class, of the bug's rule; a switch is named only where one of its values gives the
    # implementation's answer (a bug met under the switch's value names none, unless a value
    # happens to play as the bug does there)
    found = [(c["rule"], c["switch"]) for c in summary["classes"]]
    assert found in ([(rule, switch)], [(rule, None)]), \
        (name, seed, [c["key"] for c in summary["classes"]])
