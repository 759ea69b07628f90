"""A game record drawn as the log: what the record says, and where the rules disagree.

``rules-ref show RECORD`` replays the record as ``rules-ref validate`` checks
it (:func:`rules_ref.records.validate.validate_record`, followed as an
:class:`~rules_ref.records.validate.Observer`) and prints the log of ``rules-ref
play`` with the record's own claims in it: the trick winners, the deal scores
and totals, and the game's winners as recorded. Each violation the check
finds is printed where it happens, ``! RULE: what the record says, and what
the rules give (at JSON PATH)``, with the words of ``validate``. An illegal
play is replayed as recorded and the game goes on; a deal that cannot be
replayed further (a card the seat does not hold) ends there, and the next
starts from the totals the record claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import events as ev
from ..actions import Action
from ..errors import InputError
from ..records.shape import check_shape
from ..records.validate import RecordViolation, validate_record
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from ..tricks import TrickOutcome, seat_at
from ..wording import counted
from .log import INDENT, GameLog, fitted
from .style import Style


class RecordLog(GameLog):
    """The log of one record; an :class:`~rules_ref.records.validate.Observer` of its check."""

    def __init__(self, style: Style, record: dict[str, Any]) -> None:
        super().__init__(style)
        self.record = record
        self.players: int = record["players"]
        self.found: list[RecordViolation] = []
        #: Violations of a card or a pass, printed once the trick or pass they are about is.
        self.held: list[RecordViolation] = []
        #: The game's end and the violations of its winners, printed last.
        self.ending: list[str] = []
        self.last: GameState | None = None

    # --- the record's claims -----------------------------------------------------------

    def deal_claims(self, deal_number: int) -> dict[str, Any]:
        index = deal_number - self.record["initial_deal"]
        deals = self.record["deals"]
        return deals[index] if 0 <= index < len(deals) else {}

    def seat_list(self, deal_number: int, key: str) -> list[int] | None:
        """A per-seat list the record claims for a deal, when it has one of the right length."""
        value = self.deal_claims(deal_number).get(key)
        return value if isinstance(value, list) and len(value) == self.players else None

    # --- the log, with the claims in it --------------------------------------------------

    def trick_result(self, t: TrickOutcome, number: int, before: GameState,
                     after: GameState) -> list[str]:
        tricks = self.deal_claims(after.deal_number).get("tricks", [])
        if number > len(tricks) or tricks[number - 1]["winner"] == t.winner:
            return super().trick_result(t, number, before, after)
        claimed = tricks[number - 1]["winner"]
        said = "the trick is void" if claimed is None else f"seat {claimed} wins the trick"
        return [f"{INDENT * 2}the record says: {said}"]

    def scores(self, deal_number: int, scores: Sequence[int],
               totals: Sequence[int]) -> list[str]:
        return super().scores(deal_number, self.seat_list(deal_number, "scores") or scores,
                              self.seat_list(deal_number, "totals") or totals)

    def game_over(self, totals: Sequence[int], winners: Sequence[int]) -> list[str]:
        last = self.record["deals"][-1] if self.record["deals"] else {}
        claimed = last.get("totals")
        if not isinstance(claimed, list) or len(claimed) != self.players:
            claimed = totals
        self.ending = super().game_over(claimed, self.record["winners"])
        return []

    # --- following the check -------------------------------------------------------------

    def step(self, before: GameState, action: Action, after: GameState,
             events: Sequence[ev.Event]) -> list[str]:
        lines = super().step(before, action, after, events)
        self.last = after
        self.say(lines)
        if lines:
            self.release()
        return lines

    def violation(self, found: RecordViolation) -> None:
        self.found.append(found)
        if found.card is not None or ".passes[" in found.path:
            self.held.append(found)  # said after the trick or the pass it is about
        elif found.path == "winners":
            self.ending.append(self.flag(found))
        else:
            self.release()
            self.say([self.flag(found)])

    def resumed(self, state: GameState) -> None:
        self.say(self.unfinished())
        self.release()
        number = state.deal_number
        self.say([f"{INDENT}deal {number} cannot be replayed past here; deal {number + 1} "
                  "starts from the totals the record claims"])
        self.last = state

    def unfinished(self) -> list[str]:
        """The cards of the trick the replay stopped in, if it stopped in one."""
        state = self.last
        if state is None or state.phase is not Phase.PLAYING or not state.trick:
            return []
        played = "  ".join(f"seat {seat_at(state.leader, i, state.players)}: "
                           f"{self.style.card(c)}" for i, c in enumerate(state.trick))
        return [f"{INDENT}Trick {state.trick_number}, as far as it was replayed: {played}"]

    def flag(self, found: RecordViolation) -> str:
        indent = INDENT * (2 if found.trick is not None else 1)
        return f"{indent}! {found.rule}: {found.message} (at {found.path})"

    def release(self) -> None:
        held, self.held = self.held, []
        self.say([self.flag(v) for v in held])

    def say(self, lines: Sequence[str]) -> None:
        for line in fitted(lines):
            print(line)


def show_record(record: dict[str, Any], where: str, style: Style) -> int:
    """Print a record as :class:`RecordLog` does: 0, or 1 when it breaks a rule.

    Raises :class:`~rules_ref.errors.InputError` naming the JSON path when the
    record does not have the shape of a record.
    """
    log = RecordLog(style, record)
    try:
        check_shape(record)
        ruleset = Ruleset.from_dict(record["ruleset"], "ruleset")
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    print(f"Game record {where}")
    log.say(log.header(record["players"], ruleset, record.get("seed")))
    validate_record(record, log)
    log.say(log.unfinished())
    log.release()
    log.say(log.ending)
    if log.last is not None and log.last.phase is not Phase.GAME_OVER and not log.ending:
        print(f"\nThe file ends here: deal {log.last.deal_number}, {log.last.phase} phase.")
    if log.found:
        log.say(["", f"The record breaks the rules in {counted(len(log.found), 'place')} (each "
                 "marked !; `rules-ref validate` lists them alone)."])
        return 1
    return 0
