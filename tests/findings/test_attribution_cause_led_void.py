"""A trick set aside once its led card is cancelled is the led suit's rule, on any trick.

The reverse of ``led-suit-first-live`` (a void trick won by another suit taken
as led, :mod:`tests.regressions.test_void_last_trick_won_under_another_led_suit`):
the engine ``led-cancelled-void`` (:mod:`tests.fakes.broken_adapters`)
reads a cancelled led card as leaving no suit led, so it sets the trick aside
where another card of the led suit wins it (``TRICK.LED_SUIT``). A trick in
the deal shows it in its ``last_trick``; the deal's last trick, whose cards are
forced, only in the deal's points, settled as a void last trick's. Both are one
difference, one class: not ``VOID.TRICK``'s "gives a void trick a winner", nor a
class of the pending pile's.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rules_ref.actions import Action
from rules_ref.cli import main
from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.failure import Failure
from rules_ref.findings.words import SET_ASIDE_UNDER_CANCELLED_LEAD, facet_of
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.players.game import game_steps
from rules_ref.positions.convert import position_of, position_to_json
from rules_ref.protocol.observation import observe
from rules_ref.scoring import card_points
from rules_ref.state import GameState

from ..fakes.broken_adapters import command

Step = tuple[GameState, Action, GameState]


@cache
def _last_trick() -> Step:
    """The last card of seed 1's first deal at 6 players: its led 2♥ cancelled, 8♥ wins."""
    before, action, after, _ = next(s for i, s in enumerate(game_steps(6, seed=1)) if i == 435)
    t = after.tricks[-1]
    assert [str(c) for c in t.cards] == ["2H", "6D", "6S", "2H", "4S", "8H"]
    assert (t.winner, str(t.winning_card), before.pending) == (2, "8H", ())
    return before, action, after


def _judged(step: Step, **actual: Any) -> tuple[list[str], list[str], str]:
    """The rules, deciding fields and facet words of the implementation's ``actual`` fields."""
    before, action, after = step
    expected = observe(after)
    rules, fields, _ = observation_rules(before, action, after, expected,
                                         {**expected, **actual})
    start = {"type": "start", "players": before.players, "ruleset": before.ruleset.to_dict(),
             "position": position_to_json(position_of(before))}
    failure = Failure("disagreement", rules, "", start, [action_to_json(action)],
                      action_to_json(action), {}, expected, {**expected, **actual}, fields)
    return rules, fields, facet_of(failure).words


@pytest.mark.rule("TRICK.LED_SUIT")
def test_the_last_trick_set_aside_in_the_points_is_the_led_suit() -> None:
    step = _last_trick()
    _, _, after = step
    points = observe(after)["points"]
    parcel = card_points(after.tricks[-1].cards, after.ruleset)
    assert parcel == 3
    # nobody takes the trick's 3 points (last_trick_void = nobody): seat 2 keeps what it had
    void = [p - (parcel if seat == 2 else 0) for seat, p in enumerate(points)]
    assert _judged(step, points=void) == (["TRICK.LED_SUIT", "VOID.TRICK"], ["points"],
                                          SET_ASIDE_UNDER_CANCELLED_LEAD)
    # the leader (seat 3) given them, or the seat of the cancelled 2♥ that followed (seat 0):
    # a void last trick's cards settled under another last_trick_void, the same reading
    for seat in (3, 0):
        given = [p + (parcel if s == seat else 0) for s, p in enumerate(void)]
        assert _judged(step, points=given)[:2] == (["TRICK.LED_SUIT", "VOID.TRICK"], ["points"])
    # the 4♠'s seat given them: a card of another suit won, no void reading (TRICK.WINNER)
    spade = [p + (parcel if s == 1 else 0) for s, p in enumerate(void)]
    assert _judged(step, points=spade) == (
        ["TRICK.WINNER"], ["points"], "gives a trick's points to a seat that did not win it")


@pytest.mark.rule("TRICK.LED_SUIT")
def test_a_trick_shown_void_once_its_led_card_is_cancelled_is_the_led_suit() -> None:
    before, action, after = _last_trick()
    t = after.tricks[-1]
    shown = {"number": len(after.tricks), "leader": t.leader,
             "cards": [str(c) for c in t.cards], "winner": None}
    rules, fields, words = _judged((before, action, after), last_trick=shown,
                                   phase="moon-choice", deal_scores=None)
    assert (rules, fields, words) == (["TRICK.LED_SUIT", "VOID.TRICK"], ["last_trick"],
                                      SET_ASIDE_UNDER_CANCELLED_LEAD)


@pytest.mark.untraced
@pytest.mark.rule("TRICK.LED_SUIT")
def test_the_engine_that_sets_such_tricks_aside_is_one_class(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["conform", "--json", "--examples", "40", "--seed", "1", "--max-seconds", "600",
                 "--timeout", "60", "--shrink-seconds", "5", "--out", str(tmp_path), "--",
                 *command("led-cancelled-void")])
    summary = json.loads(capsys.readouterr().out)
    assert (code, summary["verdict"]) == (1, "disagreement")
    (cls,) = summary["classes"]
    assert (cls["key"], cls["rule"], cls["switch"]) == (
        "TRICK.LED_SUIT: differs on the led suit", "TRICK.LED_SUIT", None)
    assert cls["words"] == ["TRICK.LED_SUIT: differs on the led suit",
                            f"  {SET_ASIDE_UNDER_CANCELLED_LEAD}",
                            "    the implementation lets nobody win a trick whose led card "
                            "is cancelled"]
    assert cls["count"] == summary["divergences"] > 1
