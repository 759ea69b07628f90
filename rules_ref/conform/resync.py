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
position at the next moment it may take (:func:`resumes_at`: the start of the
next phase or of the next trick, never the passing phase again after a pass),
a few times, until it agrees there. The run learns which kinds of moment
(:func:`moment_kind`) the implementation never takes (:class:`Moments`) and
stops offering them. Without positions, a divergence in the passing phase
after which the implementation's observation is the first trick about to be
led is followed there (:func:`follow_to_first_trick`: an engine that passes
otherwise, or not at all); after any other, the reference plays on alone and
the implementation is given the next deal as a ``start`` of that deal
(:func:`is_deal_start`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from ..cards import parse_card
from ..errors import RulesRefError
from ..leading import opening_leader
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
    one (:meth:`.session.Session.act`). ``refused``: the implementation's
    rules read that kind of moment otherwise (:class:`Moments` learns it);
    False when it answered with an ``error``, which the position's facts
    trigger (the deal's extras, say), not its kind.
    """

    def __init__(self, reason: str, refused: bool = True) -> None:
        super().__init__(reason)
        self.refused = refused


#: After this many legal actions rejected in a row (without positions), the game ends.
MAX_ROLLBACKS = 8
#: After a divergence, at most this many moments of a deal are offered as a position
#: (:class:`OutOfStep`); the next deal's are offered again.
MAX_OUT_OF_STEP = 6
#: The observation fields that may differ between deals for the reference to follow.
_SCORE_FIELDS = frozenset(("points", "deal_scores", "totals", "winners", "last_trick"))
#: A kind of moment refused this many times, and never taken, is not offered again in a run.
GIVE_UP_AFTER = 3


def moment_kind(state: GameState) -> str:
    """The kind of moment ``state`` is, as an implementation takes or refuses to start there.

    ``passing`` (a position while passing), ``trick`` (a trick about to be
    led), ``trick with a set-aside pile`` (the same while a pending pile
    waits, ``VOID.TRICK``), ``mid-trick`` (a trick in progress),
    ``moon-choice``, ``between deals``.
    """
    phase = state.phase
    if phase is Phase.PLAYING:
        if state.trick:
            return "mid-trick"
        return "trick with a set-aside pile" if state.pending else "trick"
    if phase is Phase.PASSING:
        return "passing"
    return "moon-choice" if phase is Phase.MOON_CHOICE else "between deals"


def resumes_at(before: GameState, after: GameState) -> bool:
    """True if ``after``, one action after ``before``, is a moment at which an implementation
    out of step is offered the game again: the start of a trick or of a phase.

    Not a state of the passing phase after a pass: an implementation that
    refused the passing phase once is next offered trick 1.
    """
    return not after.trick and (after.phase is Phase.PLAYING or after.phase is not before.phase)


class Moments:
    """The kinds of moment (:func:`moment_kind`) an implementation took a start from in a run,
    and how often it refused each: a kind refused :data:`GIVE_UP_AFTER` times and never
    taken is not offered again."""

    __slots__ = ("refused", "taken")

    def __init__(self) -> None:
        self.refused: Counter[str] = Counter()
        self.taken: set[str] = set()

    def offered(self, kind: str) -> bool:
        """True if a moment of ``kind`` is still offered."""
        return kind in self.taken or self.refused[kind] < GIVE_UP_AFTER

    def note(self, kind: str, took: bool, refused: bool = True) -> None:
        """The implementation took (``took``) or refused a start at a moment of ``kind``
        (not ``refused``: it answered with an error, which says nothing of the kind)."""
        if took:
            self.taken.add(kind)
        elif refused:
            self.refused[kind] += 1

    def any_offered(self) -> bool:
        """True while some kind of moment is still offered."""
        return any(self.offered(k) for k in KINDS)


#: Every kind of moment (:func:`moment_kind`).
KINDS = ("passing", "trick", "trick with a set-aside pile", "mid-trick", "moon-choice",
         "between deals")


def is_deal_start(state: GameState) -> bool:
    """True if ``state`` is a deal just dealt, nothing passed or played: a ``start`` of that
    deal (protocol version 1) sets it up."""
    if state.phase is Phase.PASSING:
        return all(p is None for p in state.passes)
    return (state.phase is Phase.PLAYING and state.trick_number == 1 and not state.trick
            and state.pass_offset is None and not any(state.collected))


def follow_to_first_trick(state: GameState, seen: dict[str, Any]) -> GameState | None:
    """The reference state that follows the implementation into the first trick, or None.

    ``state`` is the reference's, in the passing phase or at the first trick
    with no card played; ``seen`` the implementation's whole observation. When
    it shows the first trick about to be led, with nothing pending, no points
    and the same deal, dealer and totals, its hands (the cards as it passed
    them, or did not) are taken: the reference goes on from the first trick
    with those hands, led by the seat the rules give them, if its observation
    is then the implementation's.
    """
    if not (state.phase is Phase.PASSING or (
            state.phase is Phase.PLAYING and state.trick_number == 1 and not state.trick)):
        return None
    if (seen.get("phase") != "playing" or seen.get("trick_number") != 1 or seen.get("trick")
            or seen.get("pending") or seen.get("deal_number") != state.deal_number
            or seen.get("dealer") != state.dealer or seen.get("totals") != list(state.totals)):
        return None
    hands = seen.get("hands")
    if not isinstance(hands, list) or len(hands) != state.players:
        return None
    try:
        cards = tuple(tuple(sorted(parse_card(c) for c in hand)) for hand in hands)
        pos = replace(position_of(state), phase=Phase.PLAYING, hands=cards, passes=None,
                      trick_number=1, trick=(), pending=(), hearts_broken=False,
                      leader=opening_leader(state.dealer, cards, state.ruleset))
        followed = state_from_position(pos, state.ruleset)
    except (RulesRefError, TypeError, ValueError):
        return None
    return followed if observe(followed) == seen else None


def follow_between_deals(after: GameState, differing: dict[str, Any],
                         seen: dict[str, Any] | None = None) -> GameState | None:
    """The reference state that follows the implementation's scores after a deal, or None.

    ``after`` is the reference's state after the divergent action, ``differing``
    the implementation's values of the fields that differ, ``seen`` its whole
    observation. The reference can follow when both games are between deals
    and nothing but the scores differs, or when the reference waits for the
    shooter's moon choice while the implementation, between deals, has scored
    the same deal without one: the next deal then starts from the
    implementation's totals.
    """
    if after.phase is Phase.MOON_CHOICE:
        if (seen is None or seen.get("phase") != "dealing"
                or seen.get("deal_number") != after.deal_number
                or seen.get("dealer") != after.dealer):
            return None
        totals = seen.get("totals")
    elif after.phase is not Phase.DEALING or not set(differing) <= _SCORE_FIELDS:
        return None
    else:
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
    """True if the implementation can be started again from ``state``'s position (protocol
    version 2, ``position``)."""
    return proc.can("position") and state.phase is not Phase.GAME_OVER


def restart_from(proc: AdapterProcess, state: GameState
                 ) -> tuple[dict[str, Any], GameState, dict[str, Any]]:
    """Start the implementation again at ``state``'s position: the request, the new state and
    its observation, which the implementation answered.

    The new reference state is the one the position describes. If the
    implementation's answer to the start differs from the reference's
    observation (or is a rejection), it cannot be followed from there
    (:class:`OutOfStep`); nor when it answers with an ``error``, which comes
    from the position's facts, not from that kind of moment: the reference
    plays on alone and a later moment (the next deal's) is offered, as after
    a refusal, instead of the game ending there. Other adapter faults propagate.
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
        raise OutOfStep("the implementation answered the start from a position with an error",
                        refused=False)
    problems = observation_problems(answer)
    if problems:
        raise proc.fault("shape", "observation: " + "; ".join(problems))
    seen = observe(fresh)
    if answer != seen:
        raise OutOfStep("the implementation's game differs from the reference's right after "
                        "the start from a position")
    return msg, fresh, seen
