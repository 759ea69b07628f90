"""Resynchronisation: bringing the implementation back in step after a divergence.

After a divergence the two games may differ. When the adapter declared the
``position`` capability (protocol version 2), :func:`restart_from` starts
the implementation again from the reference's position at that moment and
returns the reference state that continues from it (a state rebuilt from
its own position, so that both sides know nothing of the tricks before it,
``spec/protocol.md``). Without positions the reference follows the
implementation where its observation carries enough: between two deals,
where only the scores differ, :func:`follow_between_deals` takes the
implementation's totals and play goes on with the next deal; after a legal
action the implementation rejected, its game did not move, so the reference
steps back and play goes on with another action (:mod:`.session` does
that). When the implementation differs from the reference right after a
start from the position, or rejects it (:class:`OutOfStep`: its own rules
read that moment otherwise), the reference plays on alone and the implementation is offered the
position at the start of each later trick, a few times, until it agrees
there. Otherwise the game is ended early (:class:`GameCut`).
"""

from __future__ import annotations

from typing import Any

from ..errors import RulesRefError
from ..positions.convert import position_of, state_from_position
from ..protocol.client import AdapterProcess
from ..protocol.messages import AdapterFault
from ..protocol.observation import observation_problems, observe
from ..protocol.start import position_start
from ..state import GameState
from ..state_parts import Phase


class GameCut(Exception):
    """The game ends here: the implementation cannot be brought back in step.

    ``short`` is False when nothing was left to play (the game was over).
    """

    def __init__(self, reason: str, short: bool = True) -> None:
        super().__init__(reason)
        self.reason = reason
        self.short = short


class OutOfStep(GameCut):
    """Started again from the reference's position, the implementation rejects it or differs.

    Its game cannot be followed from that moment; the session may try a later
    one (:meth:`.session.Session.act`).
    """


#: After this many legal actions rejected in a row (without positions), the game ends.
MAX_ROLLBACKS = 8
#: After a divergence, at most this many later moments are offered as a position before the
#: game ends (:class:`OutOfStep`).
MAX_OUT_OF_STEP = 6
#: The observation fields that may differ between deals for the reference to follow.
_SCORE_FIELDS = frozenset(("points", "deal_scores", "totals", "winners", "last_trick"))


def follow_between_deals(after: GameState, differing: dict[str, Any]) -> GameState | None:
    """The reference state that follows the implementation's scores after a deal, or None.

    ``after`` is the reference's state after the divergent action, ``differing``
    the implementation's values of the fields that differ. The reference can
    follow only when both games are between deals and nothing but the scores
    differs: the next deal then starts from the implementation's totals.
    """
    if after.phase is not Phase.DEALING or not set(differing) <= _SCORE_FIELDS:
        return None
    totals = differing.get("totals", list(after.totals))
    if (not isinstance(totals, list) or len(totals) != after.players
            or not all(type(t) is int for t in totals)):
        return None
    number = after.deal_number
    first_dealer = (after.dealer_of_next_deal - number) % after.players
    try:
        followed = GameState.start(after.players, after.ruleset, first_dealer, tuple(totals),
                                   number + 1)
    except RulesRefError:
        return None
    if (followed.phase is not Phase.DEALING
            or followed.dealer_of_next_deal != after.dealer_of_next_deal):
        return None
    return followed


def can_restart(proc: AdapterProcess, state: GameState) -> bool:
    """True if the implementation can be started again from ``state``'s position."""
    return proc.can("position") and state.phase is not Phase.GAME_OVER


def restart_from(proc: AdapterProcess, state: GameState
                 ) -> tuple[dict[str, Any], GameState, dict[str, Any]]:
    """Start the implementation again at ``state``'s position: the request, the new state and
    its observation, which the implementation answered.

    The new reference state is the one the position describes. If the
    implementation's answer to the start differs from the reference's
    observation (or is an ``error``, or a rejection), it cannot be followed
    from there: the game ends (:class:`GameCut`). Other adapter faults propagate.
    """
    if not can_restart(proc, state):
        raise GameCut("the game is over" if state.phase is Phase.GAME_OVER
                      else "the adapter cannot start from a position",
                      short=state.phase is not Phase.GAME_OVER)
    msg = position_start(state)
    try:
        fresh = state_from_position(position_of(state), state.ruleset)
    except RulesRefError as exc:  # pragma: no cover - every reached state has a position
        raise GameCut(f"no position to start from: {exc}") from None
    try:
        answer = proc.start_position(msg["players"], msg["ruleset"], msg["position"])
    except AdapterFault as fault:
        if fault.kind != "capability" or not proc.alive():
            raise
        # it rejected the position: an engine whose own rules differ may judge a position
        # the rules reach unreachable; it cannot be followed from there
        raise OutOfStep("the implementation rejected the start from the reference's "
                        "position") from None
    kind = answer.pop("type", None)
    answer.pop("id", None)
    if kind != "observation":
        raise GameCut("the implementation answered the start from a position with an error")
    problems = observation_problems(answer)
    if problems:
        raise proc.fault("shape", "observation: " + "; ".join(problems))
    seen = observe(fresh)
    if answer != seen:
        raise OutOfStep("the implementation's game differs from the reference's right after "
                        "the start from a position")
    return msg, fresh, seen
