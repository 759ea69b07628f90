"""The worked deals of the rules site really show what their pages say.

Each scenario is played through the engine (``chdocs.scenarios.play``); the
assertions here restate the page's claims with exact values, independently of
the ``Claims`` the build checks.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rules_ref import MoonChoice, parse_cards
from rules_ref.cards import penalty_points
from rules_ref.positions.convert import state_from_position

from . import chdocs

scenarios = chdocs("scenarios")


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_every_scenario_is_a_legal_deal_that_matches_its_claims(name: str) -> None:
    story = scenarios.play(scenarios.SCENARIOS[name])
    assert scenarios.check(story) == []
    assert len(story.steps) == len(scenarios.SCENARIOS[name].tricks)


@pytest.mark.rule("VOID.TRICK", "VOID.LEADER", "VOID.COLLECT")
def test_two_void_tricks_wait_for_the_next_winner() -> None:
    story = scenarios.play(scenarios.SCENARIOS["two-void-tricks"])
    five, six, seven = story.steps[4:7]
    assert (five.void, six.void, seven.void) == (True, True, False)
    assert (five.leader, six.leader, seven.leader) == (0, 0, 0)
    assert len(six.pending_after) == 12 and penalty_points(six.pending_after) == 32
    assert seven.winner == 2 and seven.collected == five.cards + six.cards
    assert seven.pending_after == ()
    assert sum(story.card_points) == 52


@pytest.mark.rule("EXTRAS.FIRST_TRICK", "VOID.COLLECT")
def test_a_void_first_trick_puts_the_extras_in_the_pending_pile() -> None:
    story = scenarios.play(scenarios.SCENARIOS["void-first-trick"])
    first, second = story.steps[:2]
    extras = parse_cards("QS 10H 4H KD 3D 6C")
    assert first.void and first.extras_pending == extras and first.extras_in_pile
    assert first.pending_after == first.cards + extras
    assert second.leader == first.leader == 1
    assert second.winner == 4 and second.collected == first.cards + extras
    assert second.collected_extras and story.extras_to == 4
    assert story.card_points[4] == 15


@pytest.mark.rule("VOID.LAST", "SCORE.DEAL", "MOON.CONDITION")
def test_a_void_last_trick_ends_the_deal_with_uncollected_cards() -> None:
    story = scenarios.play(scenarios.SCENARIOS["void-last-trick"])
    last = story.steps[-1]
    assert last.void and last.number == 9
    assert story.uncollected == last.cards
    assert len(story.uncollected) == 11 and penalty_points(story.uncollected) == 16
    assert sum(story.card_points) == 52 - 16
    assert story.moon_shooter is None


@pytest.mark.rule("MOON.CONDITION", "MOON.CHOICE", "TRICK.CANCEL")
def test_the_moon_deal_is_a_moon_with_the_choice_made() -> None:
    story = scenarios.play(scenarios.SCENARIOS["moon"])
    queens = story.steps[2]
    assert queens.cancelled == parse_cards("QS") and queens.winner == 1
    assert story.card_points == (0, 52, 0, 0, 0, 0, 0, 0)
    assert story.moon_shooter == 1 and story.moon_choice is MoonChoice.ADD
    assert story.scores == (26, 0, 26, 26, 26, 26, 26, 26)


def test_a_claim_the_engine_does_not_bear_out_is_reported() -> None:
    scenario = scenarios.SCENARIOS["void-last-trick"]
    wrong = dataclasses.replace(scenario, claims=dataclasses.replace(
        scenario.claims, void_tricks=(8, 9), uncollected=0))
    assert scenarios.check(scenarios.play(wrong)) == [
        "void tricks are (9,), the page says (8, 9)",
        "11 cards are left uncollected, the page says 0",
    ]


def test_an_illegal_scenario_is_an_error_naming_the_trick_and_the_rule() -> None:
    scenario = scenarios.SCENARIOS["two-void-tricks"]
    tricks = list(scenario.tricks)
    tricks[0] = "QS 8C QC 5C 10C 6C"  # an opening lead of a queen of spades
    tricks[4] = "3C QS 9S 9S 4S 4S"
    bad = dataclasses.replace(scenario, tricks=tuple(tricks))
    with pytest.raises(scenarios.ScenarioError,
                       match=r"trick 1, card 1 \(seat 1 plays QS\): LEAD.OPENING_CARD"):
        scenarios.play(bad)


@pytest.mark.rule("MOON.CHOICE", "SCORE.DEAL")
def test_subtracting_the_moon_can_make_a_total_negative() -> None:
    story = scenarios.play(scenarios.SCENARIOS["moon-subtract"])
    assert story.moon_choice is MoonChoice.SUBTRACT
    assert story.scores == (0, -26, 0, 0, 0, 0, 0, 0)
    assert story.totals == (30, -16, 25, 40, 12, 33, 20, 18)


@pytest.mark.rule("GAME.END", "GAME.WINNER")
def test_the_game_ends_at_a_total_equal_to_the_target_and_the_tie_shares_the_win() -> None:
    story = scenarios.play(scenarios.SCENARIOS["game-end"])
    assert story.totals == (95, 126, 150, 95, 106, 131)
    assert story.state.winners == (0, 3)


# --- the small cases (chdocs.cases) ---------------------------------------------------------

cases = chdocs("cases")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_every_case_is_borne_out_by_the_engine(name: str) -> None:
    case = cases.CASES[name]()
    assert case.problems == ()
    assert case.name == name and case.rules and case.parts


def _rows(name: str) -> dict[str, tuple[str, str]]:
    return {p.label: (" ".join(str(c) for c in p.cards), p.text)
            for p in cases.CASES[name]().parts if isinstance(p, cases.Row)}


@pytest.mark.rule("LEAD.OPENING_CARD", "LEAD.HEARTS")
def test_hearts_and_queens_may_open_only_when_nothing_else_is_held() -> None:
    assert _rows("opening-only-hearts-and-queens")["may lead"][0] == (
        "2H 5H 7H 9H JH KH AH QS")
    rows = [p for p in cases.CASES["leads-hearts-and-queens"]().parts
            if isinstance(p, cases.Row) and p.label == "may lead"]
    assert [" ".join(str(c) for c in r.cards) for r in rows] == [
        "3C KC 6D 9D QD 2S 4S 8S 10S", "QS"]
    assert _rows("lead-only-hearts")["may lead"][0] == "2H 4H 6H 8H 10H QH KH AH"


@pytest.mark.rule("FOLLOW.FIRST_TRICK")
def test_first_trick_points_forbidden_unless_nothing_else() -> None:
    rows = [p for p in cases.CASES["first-trick"]().parts
            if isinstance(p, cases.Row) and p.label in ("may play", "may not")]
    assert [(r.label, " ".join(str(c) for c in r.cards)) for r in rows] == [
        ("may play", "4D 8D JD 2H 9H 5S 6S 7S QS"),
        ("may play", "4D 8D JD 5S 6S 7S"),
        ("may not", "2H 9H QS"),
        ("may play", "3H 5H 6H 7H 8H 10H JH KH QS"),
    ]
    texts = [p for p in cases.CASES["first-trick"]().parts if isinstance(p, str)]
    assert ("Asked to play the 2♥, the engine refuses: FOLLOW.FIRST_TRICK: 2H is a point card "
            "and may not be discarded on the first trick while the hand holds another card."
            ) in texts


@pytest.mark.rule("PASS.EXCHANGE", "PASS.CARDS")
def test_the_passing_round_moves_every_pass_one_seat_left() -> None:
    table = next(p for p in cases.CASES["passing-round"]().parts if isinstance(p, cases.Table))
    assert table.rows[1] == ("1", "9♠ 6♠ 5♠", "2", "Q♠ Q♠ K♠", "0")
    assert [r[2] for r in table.rows] == ["1", "2", "3", "4", "5", "0"]
    texts = [p for p in cases.CASES["passing-round"]().parts if isinstance(p, str)]
    assert any("PASS.EXCHANGE: seat 0 has already passed" in t for t in texts)
    assert any("PASS.CARDS: a pass is 3 cards, not 2" in t for t in texts)


@pytest.mark.rule("VIEW.SEAT")
def test_the_seat_view_keeps_the_extras_face_down_until_scoring() -> None:
    rows = [p for p in cases.CASES["seat-view"]().parts if isinstance(p, cases.Row)]
    pile = next(r for r in rows if r.label == "pending pile")
    assert (len(pile.cards), pile.hidden) == (7, 6)
    assert " ".join(str(c) for c in rows[-1].cards) == "QS 10H 4H KD 3D 6C"


def test_a_case_whose_claim_the_engine_does_not_bear_out_is_reported() -> None:
    b = cases._Builder()
    b.expect("the legal leads", ("QS",), ("QS", "2H"))
    assert b.problems == ["the legal leads: the engine says ('QS',), the page says ('QS', '2H')"]


# --- the example gate (chdocs.trace.example_problems) -----------------------------------------

trace = chdocs("trace")


def test_a_rule_without_an_example_and_an_unknown_rule_are_reported() -> None:
    problems = trace.example_problems(
        ["TRICK.CANCEL", "TURN.ORDER", "OLD.RULE"], ["OLD.RULE"],
        {"legend": ["TRICK.CANCEL"], "typo": ["NOPE.NOPE"]})
    assert problems == ["TURN.ORDER has no worked example on the site",
                        "worked example 'typo' names unknown rule ID 'NOPE.NOPE'"]


def test_no_problem_when_every_rule_in_force_is_shown() -> None:
    assert trace.example_problems(["TRICK.CANCEL"], [], {"legend": ["TRICK.CANCEL"]}) == []


@pytest.mark.untraced
def test_a_site_with_an_example_index_warns_for_every_rule_without_an_example(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from . import test_build

    rules = test_build._rules()
    monkeypatch.setattr(test_build.trace, "implementations",
                        lambda package="rules_ref": {r: ["rules_ref.tricks"] for r in rules})
    root = test_build._project(tmp_path, rules, "winner KS seat 4")
    index = root / "docs" / "index.rst"
    index.write_text(index.read_text(encoding="utf-8") + "\n.. example-index::\n",
                     encoding="utf-8")
    warnings = [line.split("WARNING: ", 1)[1] for line in test_build._build(root).splitlines()]
    shown = {"TRICK.CANCEL", "TRICK.WINNER", "TRICK.LED_SUIT"}  # its one trick shows these
    assert warnings == [f"examples: {r} has no worked example on the site [chdocs.example]"
                        for r in rules if r not in shown]


@pytest.mark.rule("VOID.LAST")
def test_under_last_trick_void_leader_the_leader_takes_what_is_pending() -> None:
    story = scenarios.play(scenarios.SCENARIOS["void-last-trick-to-leader"])
    assert story.steps[-1].leader == 10 and story.uncollected == ()
    assert [(seat, len(cards)) for seat, cards in story.settled] == [(10, 11)]
    assert story.card_points[10] == 16 and sum(story.card_points) == 52


@pytest.mark.rule("MOON.CHOICE")
def test_under_moon_others_52_the_moon_needs_no_choice() -> None:
    story = scenarios.play(scenarios.SCENARIOS["moon-others-52"])
    assert story.moon_shooter == 1 and story.moon_choice is None
    assert story.scores == (52, 0, 52, 52, 52, 52, 52, 52)


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
@pytest.mark.rule("VOID.COLLECT")
def test_each_drawn_trick_starts_from_the_position_the_page_prints(name: str) -> None:
    """A game started from a trick's printed position plays that trick as the page draws it."""
    from rules_ref import Play
    from rules_ref.positions.text import parse_position

    scenario = scenarios.SCENARIOS[name]
    story = scenarios.play(scenario)
    for step in story.steps:
        state = state_from_position(parse_position(step.position), scenario.ruleset)
        assert (state.trick_number, state.leader, state.pending) == (
            step.number, step.leader, step.pending_before)
        for seat, card in zip(step.seats, step.cards, strict=True):
            state, _ = state.apply(Play(seat, card))
        assert state.pending == step.pending_after, (name, step.number)


@pytest.mark.parametrize("name", ["two-void-tricks", "void-first-trick", "void-last-trick",
                                  "void-last-trick-to-leader"])
@pytest.mark.rule("VOID.LEADER", "VOID.LAST")
def test_a_drawn_void_trick_says_what_follows_in_the_terminals_words(name: str) -> None:
    """The leader of a void trick leads again, except after the last: the deal is over.

    The words are the terminal log's (:func:`rules_ref.wording.tricks.after_void_trick`), each
    void trick drawn in full says them, and no void last trick says that its leader leads
    again.
    """
    from rules_ref.wording.tricks import after_void_trick, trick_set_aside

    examples = chdocs("examples")
    story = scenarios.play(scenarios.SCENARIOS[name])
    steps = [n for n in examples.story_nodes(story) if "ch-step" in n.get("classes", [])]
    assert len(steps) == len(story.steps) + 1  # every trick, then the end of the deal
    drawn = [(step, box.astext()) for step, box in zip(story.steps, steps, strict=False)
             if step.void and step.number in story.scenario.focus]
    assert drawn, name
    for step, shown in drawn:
        aside = trick_set_aside(step.led_suit.symbol)
        said = after_void_trick(f"seat {step.leader}", last=step is story.steps[-1])
        assert f"Void: {aside.words} ({aside.rule}), and {said.words} ({said.rule})." in shown, (
            name, step.number)
        if step is story.steps[-1]:
            assert "leads again" not in shown and said.words == "the deal is over"


@pytest.mark.rule("TRICK.WINNER")
def test_a_drawn_won_trick_names_its_winner_in_the_terminals_words() -> None:
    from rules_ref.wording.tricks import trick_won

    examples = chdocs("examples")
    story = scenarios.play(scenarios.SCENARIOS["two-void-tricks"])
    steps = [n for n in examples.story_nodes(story) if "ch-step" in n.get("classes", [])]
    seven, box = story.steps[6], steps[6]
    assert seven.number in story.scenario.focus and seven.winning_card is not None
    won = trick_won(f"seat {seven.winner}", seven.winning_card.pretty, seven.led_suit.symbol)
    assert f"Who takes it: {won.words} ({won.rule})." in box.astext()
