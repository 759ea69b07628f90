"""Every kind of illegal action conform offers: the reference rejects it, cites the rule of
spec/protocol.md, changes nothing, and an adapter that accepts one is caught.

The states are built to order (a deal being passed, a trick begun, a moon
choice pending, a deal scored, a game over); every kind that exists in a
state is made there and sent to the reference adapter in this process.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules_ref.actions import Action, DealCards, Pass, Play
from rules_ref.cards import TWO_OF_CLUBS, is_penalty
from rules_ref.cli import main
from rules_ref.conform import illegal_kinds as ik
from rules_ref.deal import MAX_PLAYERS, seeded_deal
from rules_ref.errors import IllegalAction, RulesRefError, Violation
from rules_ref.exercise.detect import rejected_conditions
from rules_ref.jsonio.serialize import action_to_json
from rules_ref.protocol.observation import observe
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.ruleset import FirstTrickPoints, PassDirection, PassForbidden, Ruleset
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from rules_ref.strategies.crafted import moon_deal, void_follower_deal

from ..fakes.illegal_kind_adapters import ACCEPTS, adapter
from .in_process import conform
from .test_conform import REFERENCE, UNHURRIED

#: The rule the reference cites for each kind (spec/protocol.md, the table of rejections).
CITED = {
    ik.CARD_NOT_HELD: "TURN.OWN_CARD", ik.OUT_OF_TURN: "TURN.ORDER",
    ik.PLAYED_ALREADY: "TURN.ORDER", ik.MOON_WHILE_PLAYING: "TURN.ORDER",
    ik.PASS_WHILE_PLAYING: "TURN.ORDER", ik.PASS_SIZE: "PASS.CARDS",
    ik.PASS_AGAIN: "PASS.EXCHANGE", ik.PASS_NOT_HELD: "PASS.CARDS",
    ik.PASS_OTHERS: "PASS.CARDS", ik.PASS_TWICE: "PASS.CARDS", ik.PASS_FORBIDDEN: "PASS.CARDS",
    ik.PLAY_WHILE_PASSING: "TURN.ORDER", ik.MOON_WHILE_PASSING: "TURN.ORDER",
    ik.MOON_OTHER_SEAT: "TURN.ORDER", ik.PLAY_WHILE_CHOOSING: "TURN.ORDER",
    ik.DEAL_MID_DEAL: "TURN.ORDER", ik.NO_SUCH_SEAT: "TURN.ORDER", ik.BAD_DEAL: "DECK.CARDS",
    ik.BAD_SIZES: "DEAL.SIZE",
    ik.PLAY_BETWEEN_DEALS: "TURN.ORDER", ik.AFTER_END: "TURN.ORDER",
}
#: A card the seat holds but may not play: the rule that forbids it there.
FORBIDDING = {"LEAD.OPENING_CARD", "LEAD.HEARTS", "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK"}


def _dealt(ruleset: Ruleset, players: int = 8, seed: int = 4) -> GameState:
    state = GameState.start(players, ruleset, 0, (0,) * players, 1)
    d = seeded_deal(seed, players, 1, 0)
    return state.apply(DealCards(d.hands, d.extras))[0]


def _play_out(state: GameState) -> GameState:
    while state.phase in (Phase.PASSING, Phase.PLAYING):
        state = state.apply(state.legal_actions()[0])[0]
    return state


def _moon_choice() -> GameState:
    rs = Ruleset(pass_cycle=(PassDirection.HOLD,))
    made = moon_deal(random.Random(0), 8, 0, 1, rs)
    assert made is not None
    deal, shooter, _ = made
    state = GameState.start(8, rs, 0, (0,) * 8, 1).apply(deal)[0]
    while state.phase is Phase.PLAYING:
        legal = state.legal_plays()
        state = state.apply(Play(state.to_act or 0, max(legal) if state.to_act == shooter
                                 else legal[0]))[0]
    assert state.phase is Phase.MOON_CHOICE
    return state


def _states() -> dict[str, GameState]:
    passing = _dealt(Ruleset())
    one_passed = passing.apply(passing.legal_actions()[0])[0]
    playing = passing
    while playing.phase is Phase.PASSING:
        playing = playing.apply(playing.legal_actions()[0])[0]
    begun = playing.apply(playing.legal_actions()[0])[0]
    rs = Ruleset(first_trick_points=FirstTrickPoints.FORBIDDEN, pass_cycle=(PassDirection.HOLD,))
    follower = void_follower_deal(random.Random(3), 8, 1)
    forbidden = GameState.start(8, rs, 0, (0,) * 8, 1).apply(follower)[0]
    forbidden = forbidden.apply(forbidden.legal_actions()[0])[0]
    no_two = _dealt(Ruleset(pass_forbidden=PassForbidden.TWO_OF_CLUBS))
    return {"passing": passing, "one seat passed": one_passed,
            "passing under pass_forbidden": no_two, "opening lead": playing,
            "trick begun": begun, "trick 1 under forbidden": forbidden,
            "moon choice": _moon_choice(), "between deals": _play_out(passing),
            "game over": _play_out(_dealt(Ruleset(target=1)))}


STATES = _states()
CASES = [(where, kind, v) for where, state in STATES.items()
         for kind in ik.kinds_for(state) for v in range(3)]


def _rejected(state: GameState, action: Action) -> tuple[Violation, ...]:
    """The reference's violations of an action it rejects (a bad deal is a setup error)."""
    with pytest.raises(RulesRefError) as caught:
        state.apply(action)
    error = caught.value
    if isinstance(error, IllegalAction):
        return error.violations
    return (Violation(str(getattr(error, "rule_id", "")), str(error)),)


@pytest.mark.rule("TURN.ORDER", "PASS.CARDS", "PASS.EXCHANGE", "DECK.CARDS", "DEAL.SIZE")
@pytest.mark.parametrize(("where", "kind", "v"), CASES)
def test_each_kind_is_rejected_with_its_rule_and_changes_nothing(where: str, kind: str,
                                                                 v: int) -> None:
    state = STATES[where]
    action = ik.make(state, kind, v)
    violations = _rejected(state, action)
    rule = violations[0].rule_id
    if kind == ik.FORBIDDEN_CARD:
        assert rule in FORBIDDING
    else:
        assert rule == CITED[kind]
    adapter = ReferenceAdapter()
    adapter.state = state
    answer = adapter.act({"type": "action", "action": action_to_json(action)})
    assert answer["type"] == "rejected"
    assert answer.get("rule") == rule
    assert getattr(action, "seat", 0) < MAX_PLAYERS  # every seat number fits the protocol
    assert adapter.state is state
    assert adapter.current({})["phase"] == observe(state)["phase"]
    assert rejected_conditions(state, action, violations) != []


def test_every_kind_exists_in_some_state() -> None:
    seen = {kind for where, kind, _ in CASES}
    assert sorted(seen) == sorted(ik.KINDS)
    assert ik.kinds_for(STATES["trick begun"]) == (
        ik.FORBIDDEN_CARD, ik.CARD_NOT_HELD, ik.OUT_OF_TURN, ik.PLAYED_ALREADY,
        ik.MOON_WHILE_PLAYING, ik.PASS_WHILE_PLAYING, ik.DEAL_MID_DEAL, ik.NO_SUCH_SEAT)
    assert ik.kinds_for(STATES["game over"]) == (ik.AFTER_END,)


@pytest.mark.rule("PASS.CARDS")
def test_a_double_pass_names_a_card_once_more_than_it_is_held() -> None:
    state = STATES["passing"]
    action = ik.make(state, ik.PASS_TWICE)
    assert isinstance(action, Pass)
    hand = state.hands[action.seat]
    assert len(action.cards) == state.ruleset.pass_count
    assert any(action.cards.count(c) == hand.count(c) + 1 for c in set(action.cards))
    assert all(c in hand for c in action.cards)
    assert rejected_conditions(state, action, _rejected(state, action)) == [
        "PASS.CARDS: a pass naming a card more often than the seat holds it is rejected"]


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_a_forbidden_discard_to_trick_1_is_offered_where_only_that_rule_forbids_it() -> None:
    state = STATES["trick 1 under forbidden"]
    seat = state.to_act
    assert seat is not None
    assert not any(c.suit == state.trick[0].suit for c in state.hands[seat])
    action = ik.make(state, ik.FORBIDDEN_CARD, 1)
    assert [v.rule_id for v in _rejected(state, action)] == ["FOLLOW.FIRST_TRICK"]


@pytest.mark.rule("TURN.ORDER", "MOON.CHOICE")
def test_moon_choice_kinds_name_the_shooter_or_another_seat() -> None:
    state = STATES["moon choice"]
    other = ik.make(state, ik.MOON_OTHER_SEAT)
    assert getattr(other, "seat", None) != state.to_act
    assert rejected_conditions(state, other, _rejected(state, other)) == [
        "MOON.CHOICE: a moon choice by another seat than the shooter is rejected"]
    play = ik.make(state, ik.PLAY_WHILE_CHOOSING)
    assert rejected_conditions(state, play, _rejected(state, play)) == [
        "TURN.ORDER: a play while the shooter chooses is rejected"]


def _conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["conform", "--json", *args])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


@pytest.mark.untraced
@pytest.mark.rule("TURN.ORDER", "PASS.CARDS")
def test_a_run_offers_every_kind(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary = _conform(capsys, "--examples", "100", "--seed", "5", *UNHURRIED, "--out",
                             str(tmp_path), "--", *REFERENCE)
    assert code == 0, summary.get("failure")
    offers = summary["offers"]
    assert sorted(offers) == sorted(ik.KINDS)
    assert [kind for kind, n in offers.items() if n == 0] == []
    assert sum(offers.values()) == summary["illegal_offered"]


@pytest.mark.untraced
@pytest.mark.rule("PASS.CARDS", "TURN.ORDER")
@pytest.mark.parametrize("name", sorted(ACCEPTS))
def test_an_adapter_accepting_an_illegal_kind_is_caught(name: str) -> None:
    # the run ends with the game of its first divergence, the one the checks below read
    code, summary = conform(lambda: adapter(name), examples=100, seed=11, shrink_seconds=0.25,
                            first=True)
    assert code == 1
    assert summary["rules"][0] == ACCEPTS[name]
    assert "accepted an illegal action" in summary["failure"]["summary"]


@pytest.mark.rule("PASS.CARDS")
def test_a_forbidden_pass_holds_a_two_of_clubs_of_the_first_seat_holding_one() -> None:
    state = STATES["passing under pass_forbidden"]
    action = ik.make(state, ik.PASS_FORBIDDEN)
    assert isinstance(action, Pass) and TWO_OF_CLUBS in action.cards
    assert action.seat == next(s for s in state.waiting_for if TWO_OF_CLUBS in state.hands[s])
    assert [v.rule_id for v in _rejected(state, action)] == ["PASS.CARDS"]
    # the same pass is legal where the ruleset allows passing a 2♣
    assert ik.PASS_FORBIDDEN not in ik.kinds_for(STATES["passing"])


@pytest.mark.rule("DECK.CARDS")
def test_a_bad_deal_may_hold_no_card_exactly_twice() -> None:
    state = STATES["between deals"]
    third = ik.make(state, ik.BAD_DEAL, 0)
    four = ik.make(state, ik.BAD_DEAL, 1)
    assert isinstance(third, DealCards) and isinstance(four, DealCards)
    counts = Counter(c for hand in (*four.hands, four.extras) for c in hand)
    assert sorted(set(counts.values())) == [4] and len(counts) == 26
    assert [len(h) for h in four.hands] == [len(h) for h in third.hands]
    assert [v.rule_id for v in _rejected(state, four)] == ["DECK.CARDS"]


@pytest.mark.rule("TURN.ORDER")
def test_a_play_while_passing_is_offered_as_the_opening_lead_every_other_time() -> None:
    # an engine that checks whose turn it is and not the phase accepts this one
    state = STATES["passing"]
    lead = ik.make(state, ik.PLAY_WHILE_PASSING, 1)
    leader = (state.dealer + 1) % state.players  # left-of-dealer, the default
    hand = state.hands[leader]
    assert isinstance(lead, Play) and lead.seat == leader
    assert lead.card in hand and not is_penalty(lead.card)  # a card it may open with
    assert rejected_conditions(state, lead, _rejected(state, lead)) == [
        "TURN.ORDER: a play while passing is rejected"]
    other = ik.make(state, ik.PLAY_WHILE_PASSING, 2)
    assert isinstance(other, Play) and other.seat == state.waiting_for[2 % len(
        state.waiting_for)]
