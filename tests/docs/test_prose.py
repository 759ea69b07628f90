"""The hand-written sentences of the rule pages say what the engine does.

Each sentence below is quoted from its page (so rewording it without updating
its check fails here) and checked against the engine: worked deals are played
with the scenarios the pages draw, single tricks are resolved directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules_ref.cards import CARDS, Suit, parse_cards, penalty_points
from rules_ref.deal import check_player_count, extras_count, hand_size
from rules_ref.errors import SetupError
from rules_ref.tricks import resolve_trick

from . import ROOT, chdocs

scenarios = chdocs("scenarios")
DOCS = ROOT / "docs"


def _deal(name: str) -> Any:
    return scenarios.play(scenarios.SCENARIOS[name])


def two_void_tricks_in_a_row() -> None:
    story = _deal("two-void-tricks")
    five, six, seven = story.steps[4], story.steps[5], story.steps[6]
    assert (five.void, six.void, seven.void) == (True, True, False)
    assert five.leader == six.leader == seven.leader
    assert seven.collected == five.cards + six.cards


def void_last_trick_loses_16() -> None:
    story = _deal("void-last-trick")
    last = story.steps[-1]
    assert last.void is True
    assert (last.cards.count(parse_cards("QS")[0]),
            sum(1 for c in last.cards if c.suit is Suit.H)) == (1, 3)
    assert story.settled == ()
    assert penalty_points(story.uncollected) == 16
    assert sum(story.card_points) == 52 - 16


def trick_one_winner_takes_extras() -> None:
    story = _deal("two-void-tricks")
    first = story.steps[0]
    assert first.winner is not None
    assert (first.extras_taken, len(story.extras)) == (story.extras, 2)
    assert story.extras_to == first.winner


def worked_deals_scored() -> None:
    assert sum(_deal("two-void-tricks").card_points) == 52
    lost = _deal("void-last-trick")
    assert (sum(lost.card_points), penalty_points(lost.uncollected)) == (36, 16)


def odd_players_void() -> None:
    trick = resolve_trick(parse_cards("5D 5D JD JD 8D 8D 2C"), leader=0, players=7)
    uncancelled = [c for c in trick.cards if c not in trick.cancelled]
    assert (trick.led_suit, trick.void, [str(c) for c in uncancelled]) == (Suit.D, True, ["2C"])


def seed_example_six() -> None:
    trick = resolve_trick(parse_cards("10S 9H 9H 10S KS 3S"), leader=0, players=6)
    assert [str(c) for c in trick.cancelled] == ["9H", "10S"]
    assert (trick.winner, str(trick.winning_card)) == (4, "KS")


def cancelled_lead_jack_of_hearts() -> None:
    trick = resolve_trick(parse_cards("10S 4S 8S 10S JH 2S"), leader=0, players=6)
    assert (trick.led_suit, str(trick.winning_card)) == (Suit.S, "8S")


def seed_example_four_players() -> None:
    with pytest.raises(SetupError):
        check_player_count(4)
    trick = resolve_trick(parse_cards("10S 9H 9H 10S"), leader=0, players=4)
    assert (trick.void, sorted(map(str, trick.cancelled))) == (True, ["10S", "9H"])


def seed_example_two_more_players() -> None:
    with pytest.raises(SetupError):
        check_player_count(5)
    assert check_player_count(4 + 2) == 6


def void_first_trick_extras() -> None:
    story = _deal("void-first-trick")
    first, second = story.steps[0], story.steps[1]
    assert (story.scenario.players, len(story.extras)) == (7, 6)
    assert (first.void, second.void) == (True, False)
    assert second.collected == first.cards + story.extras
    assert (story.extras.count(parse_cards("QS")[0]),
            sum(1 for c in story.extras if c.suit is Suit.H)) == (1, 2)
    assert story.extras_to == second.winner


def moon_queens_cancel_in_trick_3() -> None:
    story = _deal("moon")
    third = story.steps[2]
    queen = parse_cards("QS")[0]
    assert (third.cards.count(queen), queen in third.cancelled, third.winner) == (2, True, 1)
    assert penalty_points(tuple(c for c in third.cards if c == queen)) == 26
    assert (story.moon_shooter, str(story.moon_choice)) == (1, "add")
    assert story.scores == (26, 0, 26, 26, 26, 26, 26, 26)


def six_to_eleven_two_packs() -> None:
    for n in range(6, 12):
        assert check_player_count(n) == n
    for n in (5, 12):
        with pytest.raises(SetupError):
            check_player_count(n)
    assert (len(CARDS), len(set(CARDS))) == (52, 52)
    assert sum(hand_size(n) * n + extras_count(n) for n in range(6, 12)) == 6 * 104
    assert resolve_trick(parse_cards("9H 9H 2H 3H 4H 5H"), 0, 6).cancelled == parse_cards("9H")


#: (page, sentence as written there, joined onto one line) -> its check
SENTENCES: dict[tuple[str, str], Callable[[], None]] = {
    ("index.rst", "Cancellation Hearts is Hearts for six to eleven players with two packs "
     "shuffled together, where two identical cards played to the same trick cancel each "
     "other."): six_to_eleven_two_packs,
    ("rules/void.rst", "Tricks 5 and 6 are void in a row; the same player leads again each "
     "time, and the winner of trick 7 collects both along with trick 7."):
        two_void_tricks_in_a_row,
    ("rules/void.rst", "The last trick is void: its cards, with a Q♠ and three hearts, go to "
     "nobody, and the deal scores 16 points fewer than 52."): void_last_trick_loses_16,
    ("rules/void.rst", "The seed article's own example has four players, fewer than the game "
     "allows; every card in it is paired, so nothing is left to win."): seed_example_four_players,
    ("rules/trick.rst", "The seed article's example (Al 10♠, Beth 9♥, Charlie 9♥, Dave 10♠) "
     "with the two more players the game needs."): seed_example_two_more_players,
    ("rules/extras.rst", "Seven players leave six extras. The first trick is void, so the "
     "extras join the pending pile with it, and the winner of trick 2 collects all of them: "
     "the first trick's cards, the extras with their Q♠ and two hearts, and trick 2."):
        void_first_trick_extras,
    ("rules/moon.rst", "Seat 1 takes both Q♠ in trick 3, where they cancel each other but keep "
     "their 26 points, then every heart. The shooter chooses to add 26 to everyone else."):
        moon_queens_cancel_in_trick_3,
    ("rules/void.rst", "With an odd number of players a trick can never be all pairs. Here the "
     "only card left uncancelled is a club, and diamonds were led."): odd_players_void,
    ("rules/extras.rst", "In the worked deal :example:`two-void-tricks`, trick 1 has a winner, "
     "who takes the two extras at once."): trick_one_winner_takes_extras,
    ("rules/scoring.rst", "The worked deals show whole deals scored: :example:`two-void-tricks` "
     "(all 52 points collected) and :example:`void-last-trick` (16 points lost with the void "
     "last trick)."): worked_deals_scored,
    ("rules/trick.rst", "Both pairs cancel, but an uncancelled spade is left."): seed_example_six,
    ("rules/trick.rst", "The J♥ is the highest card played, but it is not a spade."):
        cancelled_lead_jack_of_hearts,
}


def _one_line(page: str) -> str:
    return " ".join((DOCS / page).read_text(encoding="utf-8").split())


@pytest.mark.parametrize(("page", "sentence"), list(SENTENCES))
def test_the_sentence_is_on_its_page_and_the_engine_agrees(page: str, sentence: str) -> None:
    assert sentence in _one_line(page)
    SENTENCES[page, sentence]()
