"""Every quick answer of ``docs/quick.rst`` says what the engine does, under the default rules.

The page is written for players, in sentences; each question has a check
here that asks the engine the cases its answer states and asserts the exact
verdicts. A question added to the page without a check, or a check whose
question is gone, fails :func:`test_every_quick_answer_has_a_check`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from rules_ref.cards import Card, Suit, parse_card, parse_cards
from rules_ref.deal import check_player_count, extras_count, hand_size
from rules_ref.errors import SetupError
from rules_ref.following import first_trick_plays, follows
from rules_ref.game_end import is_game_over, winners
from rules_ref.leading import breaks_hearts, may_lead, may_open_with, opening_leader
from rules_ref.passing import pass_direction, pass_target, pass_violations
from rules_ref.pending import after_trick, settle_pending
from rules_ref.ruleset import PassDirection, Ruleset
from rules_ref.scoring import card_points, moon_options, moon_scores, moon_shooter
from rules_ref.tricks import next_leader, resolve_trick

from . import ROOT

QUICK = ROOT / "docs" / "quick.rst"
RULES = Ruleset()
HEADING = re.compile(r"^(?P<title>[^\n]+)\n-{3,}\n", re.MULTILINE)


def questions() -> list[str]:
    return HEADING.findall(QUICK.read_text(encoding="utf-8"))


def c(text: str) -> Card:
    return parse_card(text)


def hand(text: str) -> tuple[Card, ...]:
    """A hand in the canonical order the engine keeps hands in."""
    return tuple(sorted(parse_cards(text)))


def strs(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


def how_many_can_play() -> None:
    assert [check_player_count(n) for n in range(6, 12)] == list(range(6, 12))
    for n in (5, 12):
        with pytest.raises(SetupError):
            check_player_count(n)


def answer(question: str) -> str:
    """The words of the quick answer to ``question``, on one line."""
    text = QUICK.read_text(encoding="utf-8")
    body = text.split(question + "\n", 1)[1].split(".. rst-class::", 1)[0]
    return " ".join(body.split()[1:])  # after the heading's underline


def how_many_cards() -> None:
    """The numbers the answer gives are the engine's, for every player count."""
    said = answer("How many cards does each player get?")
    stated = {int(n): (int(size), 0 if extras == "none" else int(extras))
              for n, size, extras in re.findall(r"(\d+) players(?: get)? (\d+)(?: cards each)?"
                                               r" and(?: leave)? (none|\d+)", said)}
    assert stated == {n: (hand_size(n), extras_count(n)) for n in range(5, 12)}
    assert stated[8] == (13, 0) and stated[6] == (17, 2)


def extras() -> None:
    won = resolve_trick(parse_cards("2C 9C 3C 4C 5C 6C"), leader=1, players=6)
    assert won.winner == 2
    assert after_trick((), won, parse_cards("AH QS")) == (parse_cards("2C 9C 3C 4C 5C 6C AH QS"),
                                                          ())
    void = resolve_trick(parse_cards("2C 2C 3C 3C 4H 4H"), leader=1, players=6)
    taken, pile = after_trick((), void, parse_cards("AH QS"))
    assert (taken, strs(pile)) == ((), "2C 2C 3C 3C 4H 4H AH QS")


def which_way_to_pass() -> None:
    assert [pass_direction(k, RULES) for k in (1, 2, 3, 4)] == [
        PassDirection.LEFT, PassDirection.RIGHT, PassDirection.LEFT, PassDirection.RIGHT]
    assert [pass_target(0, k, 8, RULES) for k in (1, 2)] == [1, 7]
    assert RULES.pass_count == 3


def pass_both_copies() -> None:
    held = parse_cards("QS QS 2H 2H 3C")
    assert pass_violations(parse_cards("QS QS 2H"), held, RULES) == ()
    assert pass_violations(parse_cards("2H 2H QS"), held, RULES) == ()


def who_leads_first() -> None:
    assert opening_leader(3, [parse_cards("2C")] * 8, RULES) == 4
    mixed = parse_cards("QS 2H 9C")
    assert [may_open_with(c(x), mixed, RULES) for x in ("QS", "2H", "9C")] == [False, False, True]
    only_points = parse_cards("QS 2H 7H")
    assert [may_open_with(c(x), only_points, RULES) for x in ("QS", "2H", "7H")] == [
        True, True, True]


def lead_the_queen() -> None:
    for held in (parse_cards("QS 2H 9C"), parse_cards("QS 2H"), parse_cards("QS")):
        assert may_lead(c("QS"), held, False, RULES) is True
        assert may_lead(c("QS"), held, True, RULES) is True
    assert may_open_with(c("QS"), parse_cards("QS 9C"), RULES) is False
    assert may_open_with(c("QS"), parse_cards("QS QS 5H"), RULES) is True


def lead_a_heart() -> None:
    assert may_open_with(c("2H"), parse_cards("2H 9C"), RULES) is False
    assert may_open_with(c("2H"), parse_cards("2H QS"), RULES) is True
    assert may_lead(c("2H"), parse_cards("2H 9C"), False, RULES) is False
    assert may_lead(c("2H"), parse_cards("2H QS"), False, RULES) is False
    assert may_lead(c("2H"), parse_cards("2H 7H"), False, RULES) is True
    assert may_lead(c("2H"), parse_cards("2H 9C"), True, RULES) is True


def cancelled_cards_break_hearts() -> None:
    trick = resolve_trick(parse_cards("5C QS QS 2H 2H 6C"), leader=0, players=6)
    assert trick.cancelled == (c("2H"), c("QS"))
    assert [breaks_hearts(x, Suit.C, RULES) for x in trick.cards] == [
        False, True, True, True, True, False]


def points_on_trick_one() -> None:
    held = hand("QS 2H 3D")
    allowed = follows(held, Suit.C)
    assert sorted(map(str, first_trick_plays(allowed, held, Suit.C, 1, RULES))) == [
        "2H", "3D", "QS"]


def which_cards_cancel() -> None:
    assert resolve_trick(parse_cards("9H 9S 9H 2H 3H 4H"), 0, 6).cancelled == (c("9H"),)
    assert resolve_trick(parse_cards("9H 9S 2H 3H 4H 5H"), 0, 6).cancelled == ()


def both_aces_cancel() -> None:
    trick = resolve_trick(parse_cards("5S AS KS AS 2S 9S"), leader=0, players=6)
    assert (trick.winner, trick.winning_card) == (2, c("KS"))


def cancelled_lead() -> None:
    trick = resolve_trick(parse_cards("7D 7D AS 2D 9C 3D"), leader=0, players=6)
    assert (trick.led_suit, trick.winner, trick.winning_card) == (Suit.D, 5, c("3D"))
    assert strs(follows(hand("AS 4D 9C"), trick.led_suit)) == "4D"


def every_led_card_cancels() -> None:
    trick = resolve_trick(parse_cards("5D 5D JD JD 8D 8D 2C"), leader=3, players=7)
    assert (trick.void, trick.winner) == (True, None)
    taken, pile = after_trick((), trick, ())
    assert (taken, strs(pile)) == ((), "5D 5D JD JD 8D 8D 2C")


def who_leads_after_a_void_trick() -> None:
    trick = resolve_trick(parse_cards("5D 5D JD JD 8D 8D 2C"), leader=3, players=7)
    assert next_leader(3, trick.winner) == 3


def who_gets_a_void_trick() -> None:
    first = resolve_trick(parse_cards("2C 2C 3C 3C 4H 4H"), 0, 6)
    second = resolve_trick(parse_cards("5D 5D 6D 6D QS QS"), 0, 6)
    third = resolve_trick(parse_cards("7S 8S 2S 3S 4S 5S"), 0, 6)
    _, pile = after_trick((), first, ())
    _, pile = after_trick(pile, second, ())
    taken, pile = after_trick(pile, third, ())
    assert (third.winner, len(taken), pile) == (1, 18, ())


def last_trick_cancels() -> None:
    last = resolve_trick(parse_cards("9H 9H 4H 4H QS QS"), 3, 6)
    pending = parse_cards("2H 2H") + last.cards
    assert settle_pending(pending, last, 6, RULES) == ((), pending)


def cancelled_cards_count() -> None:
    trick = resolve_trick(parse_cards("5H QS QS 5H 9H 2C"), 0, 6)
    assert trick.cancelled == (c("5H"), c("QS"))
    assert card_points(trick.cards, RULES) == 29


def shooting_the_moon() -> None:
    hearts = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    all_points = (*hearts, *hearts, c("QS"), c("QS"))
    assert moon_shooter([(), all_points, ()]) == 1
    assert moon_shooter([(), all_points[:-1], (c("QS"),)]) is None
    assert [str(x) for x in moon_options(RULES)] == ["subtract", "add"]
    subtract, add = moon_options(RULES)
    assert moon_scores(1, subtract, [(), all_points, ()], RULES) == (0, -26, 0)
    assert moon_scores(1, add, [(), all_points, ()], RULES) == (26, 0, 26)


def game_end() -> None:
    assert RULES.target == 150
    assert [is_game_over(t, RULES) for t in ([149, 20], [150, 20], [151, 160])] == [
        False, True, True]
    assert winners([40, 12, 151, 12]) == (1, 3)


CHECKS: dict[str, Callable[[], None]] = {
    "How many can play?": how_many_can_play,
    "How many cards does each player get?": how_many_cards,
    "What happens to the extra cards?": extras,
    "Which way do we pass, and how many cards?": which_way_to_pass,
    "Can I pass both copies of a card, or a queen of spades?": pass_both_copies,
    "Who leads first, and what may it be?": who_leads_first,
    "Can I lead the queen of spades?": lead_the_queen,
    "When may I lead a heart?": lead_a_heart,
    "Does a cancelled heart or queen of spades break hearts?": cancelled_cards_break_hearts,
    "May I throw points on the first trick?": points_on_trick_one,
    "Which cards cancel?": which_cards_cancel,
    "Who takes a trick when both aces cancel?": both_aces_cancel,
    "The led card was cancelled: what do we follow?": cancelled_lead,
    "What if every card of the led suit cancels?": every_led_card_cancels,
    "Who leads after a trick that nobody wins?": who_leads_after_a_void_trick,
    "Who gets the cards of a void trick?": who_gets_a_void_trick,
    "What if the last trick cancels?": last_trick_cancels,
    "Do cancelled cards still count?": cancelled_cards_count,
    "What is shooting the moon, and what does it score?": shooting_the_moon,
    "When does the game end, and who wins a tie?": game_end,
}


def test_every_quick_answer_has_a_check() -> None:
    assert questions() == list(CHECKS)


@pytest.mark.parametrize("question", list(CHECKS))
def test_the_quick_answer_agrees_with_the_engine(question: str) -> None:
    CHECKS[question]()
