"""The deal's last trick given to another seat is the rule of who wins it.

Once a deal is scored the reference shows no last trick, so a last trick the
implementation gives to another seat shows only in the points: the winner's
points less by the trick's cards, with the pending pile, and another seat's
more by them. Two runs of ``rules-ref conform`` named another rule for that,
each found in a game aimed otherwise than before, each its own class beside
the engine's real faults (one difference, two classes):

* the three-fault adapter (``tests/fakes/multi_fault_adapters.py
  pass-lead-suit``, seed 7) takes the first uncancelled card's suit as led
  once the led card is cancelled. The 7♣ led is cancelled by the other 7♣;
  the reference has the A♣ win the clubs still led, the engine takes diamonds
  as led, from the 6♦, and gives the trick to the 10♦. Under
  ``ten_of_diamonds_points = -10`` the trick is worth -8, so the seat that
  took it shows a loss and the winner a gain: the attribution looked for a
  seat that gained, found none, and named ``SCORE.CARD_POINTS``;
* an engine of three faults (``tests/fakes/broken_adapters_more.py
  end-pending-lost+ace-low+totals-rotated``, seed 10) ranks the ace below the
  2: the 6♠ led beats the A♠ and takes 8 points of hearts. At the deal's end
  the difference was first traced to the cards that carry it, the cancelled
  hearts, and named ``TRICK.CANCEL``.

Each game is the shrunk replay file the run wrote
(``data/last-trick-given-elsewhere-*.json``): the first the position before
the trick's last card, the second the deal from its start (its earlier tricks,
which the trace of the points reads). The trick given elsewhere is named by
its winner's rule (``TRICK.LED_SUIT``, ``DECK.RANKING``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_ref.findings.attribution import observation_rules
from rules_ref.findings.replay import read_replay
from rules_ref.protocol.start import requested_state
from rules_ref.scoring import card_points
from rules_ref.tricks import TrickOutcome

DATA = Path(__file__).with_name("data")


def _named(name: str) -> tuple[list[str], list[str], list[int], int, TrickOutcome]:
    """The rules named for the difference of ``name``'s game, the fields, the points the
    implementation's side has more than the reference's, the trick's points and the trick."""
    path = DATA / f"last-trick-given-elsewhere-{name}.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    start, actions = read_replay(doc, str(path))
    before = requested_state(start)
    for action in actions[:-1]:  # the game's actions, the illegal ones offered left out
        if not before.violations(action):
            before, _ = before.apply(action)
    assert len(before.trick) == before.players - 1
    after, _ = before.apply(actions[-1])
    assert after.phase.value == "dealing"  # the deal is scored: no last trick shown
    t = after.tricks[-1]
    expected, actual = doc["expected_answer"], {**doc["expected_answer"], **doc["actual"]}
    gained = [a - e for a, e in zip(actual["points"], expected["points"], strict=True)]
    rules, fields, _ = observation_rules(before, actions[-1], after, expected, actual)
    return rules, fields, gained, card_points(t.cards, after.ruleset), t


def _seat_of(t: TrickOutcome, card: str, players: int) -> int:
    return next((t.leader + i) % players for i, c in enumerate(t.cards) if str(c) == card)


@pytest.mark.rule("TRICK.LED_SUIT")
def test_a_trick_worth_less_than_nothing_taken_under_another_led_suit() -> None:
    rules, fields, gained, worth, t = _named("worth-less-than-nothing")
    n = len(gained)
    assert [str(c) for c in t.cancelled] == ["7C"] and str(t.winning_card) == "AC"
    assert worth == -8
    # the A♣'s seat kept 8 points the reference takes off it; the 10♦'s seat took them
    assert gained[_seat_of(t, "AC", n)] == 8 and gained[_seat_of(t, "10D", n)] == -8
    assert sum(1 for g in gained if g) == 2
    assert (rules, fields) == (["TRICK.LED_SUIT"], ["points"])


@pytest.mark.rule("DECK.RANKING")
def test_a_trick_taken_from_an_ace_ranked_low() -> None:
    rules, fields, gained, worth, t = _named("ace-ranked-low")
    n = len(gained)
    assert (str(t.cards[0]), str(t.winning_card), worth) == ("6S", "AS", 8)
    assert gained[_seat_of(t, "6S", n)] == 8 and gained[_seat_of(t, "AS", n)] == -8
    assert sum(1 for g in gained if g) == 2
    assert (rules, fields) == (["DECK.RANKING"], ["points"])
