"""The implementations page draws the hand a bug's example turns on (chdocs.implementations)."""

from __future__ import annotations

from typing import Any

from . import chdocs

page = chdocs("implementations")
HANDS = [["2C", "5C"], ["QS", "3H", "4D"], ["7S", "QS"]]


def _drawn(pos: dict[str, Any], action: dict[str, Any], fields: list[str]) -> list[str]:
    """The text of each paragraph drawn, its cards as rank and suit symbol."""
    return [node.astext() for node in page._hands(pos, action, fields)]


def _pos(phase: str, trick: list[str], to_act: int | None = None) -> dict[str, Any]:
    return {"players": 3, "phase": phase, "hands": HANDS, "trick": trick, "to_act": to_act}


def test_a_pass_shows_the_seats_hand_and_the_cards_it_passes() -> None:
    drawn = _drawn(_pos("passing", []), {"type": "pass", "seat": 1, "cards": ["QS"]}, [])
    assert drawn == ["Seat 1 holds: Q♠3♥4♦", "It passes: Q♠"]


def test_a_play_while_passing_shows_the_seats_hand_and_its_card() -> None:
    drawn = _drawn(_pos("passing", []), {"type": "play", "seat": 0, "card": "5C"}, [])
    assert drawn == ["Seat 0 holds: 2♣5♣", "It plays: 5♣"]


def test_legal_cards_that_differ_show_the_hand_of_the_seat_they_are_of() -> None:
    # at the start: the seat to act; after a play into a trick: the seat to play next
    assert _drawn(_pos("playing", [], to_act=1), {}, ["legal"]) == [
        "Seat 1, to play, holds: Q♠3♥4♦"
    ]
    follow = _drawn(_pos("playing", []), {"type": "play", "seat": 1, "card": "4D"}, ["legal"])
    assert follow == ["Seat 2, to play, holds: 7♠Q♠"]
    # the play that completes the trick: nobody plays after it in that trick
    assert _drawn(_pos("playing", ["2C", "5C"]), {"type": "play", "seat": 2, "card": "7S"},
                  ["legal"]) == []


def test_a_difference_in_another_field_draws_no_hand() -> None:
    assert _drawn(_pos("playing", []), {"type": "play", "seat": 1, "card": "4D"}, ["pending"]) == []
