"""May I play this card: in a position, what the seat to play may play, and why not the rest.

``rules-ref plays`` prints it and the site's legal-plays page draws it. The
cards allowed are the engine's (:meth:`rules_ref.state.GameState.legal_plays`);
for every other card of the hand, the rule that forbids it is the one the
engine names when that card is played (:class:`~rules_ref.errors.IllegalAction`),
with its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import Play
from ..cards import Card
from ..errors import IllegalAction, InputError, Violation
from ..positions.convert import state_from_position
from ..positions.model import Position
from ..ruleset import DEFAULT, Ruleset
from ..state import GameState
from ..state_parts import Phase
from .statement import Part, Statement, cards_parts


@dataclass(frozen=True, slots=True)
class PlaysAnswer:
    """The seat to play, its hand, the cards it may play and each other card's violation."""

    state: GameState
    seat: int
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    refused: tuple[tuple[Card, Violation], ...]
    statements: tuple[Statement, ...]

    def to_json(self) -> dict[str, Any]:
        s = self.state
        return {
            "players": s.players, "seat": self.seat, "trick_number": s.trick_number,
            "leader": s.leader, "trick": [str(c) for c in s.trick],
            "hearts_broken": s.hearts_broken, "hand": [str(c) for c in self.hand],
            "legal": [str(c) for c in self.legal],
            "refused": [{"card": str(c), "rule": v.rule_id, "message": v.message}
                        for c, v in self.refused],
            "statements": [st.to_json() for st in self.statements],
        }


def plays_answer(pos: Position, ruleset: Ruleset = DEFAULT) -> PlaysAnswer:
    """What the seat to play at ``pos`` may play under ``ruleset``, and what it may not.

    The position is checked against the ruleset first (``spec/position.md``);
    one outside the ``playing`` phase raises :class:`InputError` saying who acts
    instead.
    """
    state = state_from_position(pos, ruleset)
    if state.phase is not Phase.PLAYING:
        raise InputError(f"the position is in the {state.phase.value} phase, where no card is "
                         "played: a legal play needs a position of the playing phase")
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    legal = state.legal_plays()
    refused: list[tuple[Card, Violation]] = []
    for c in dict.fromkeys(hand):
        if c in legal:
            continue
        try:
            state.apply(Play(seat, c))
        except IllegalAction as exc:
            refused.append((c, exc.violations[0]))
        else:  # pragma: no cover - legal_plays and apply agree (tests/rules)
            raise AssertionError(f"{c} is playable but not among the legal plays")
    if state.trick:
        turn = (f"seat {seat} to play to trick {state.trick_number}, led by seat "
                f"{state.leader}: ",
                *cards_parts(state.trick))
    else:
        turn = (f"seat {seat} to lead trick {state.trick_number}; hearts "
                f"{'broken' if state.hearts_broken else 'not broken'}",)
    steps = state.play_rules(hand)
    # the rule that sets what may be played, and each later one that narrows it further
    deciding = [steps[0][0], *(rule for (rule, allowed), (_, before) in zip(steps[1:], steps,
                                                                            strict=False)
                               if allowed != before)]
    said = [Statement("Turn", turn, ("TURN.ORDER",)),
            Statement("Hand", cards_parts(hand)),
            Statement("May play", cards_parts(legal), tuple(deciding))]
    for c, v in refused:
        words: tuple[Part, ...] = ("May not play ", c, f": {v.message}")
        said.append(Statement("", words, (v.rule_id,)))
    return PlaysAnswer(state, seat, hand, legal, tuple(refused), tuple(said))
