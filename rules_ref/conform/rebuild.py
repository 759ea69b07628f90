"""A failing game rebuilt under a plainer setting, for shrinking (:mod:`.shrink`).

The search meets a difference wherever its games happen to go: at any
player count, under a drawn ruleset, deep in a game. Editing that game
alone cannot always make it plainer: a switch set back to its default may
make its recorded actions illegal (a 4-card pass once ``pass_count`` is 3
again), and a position of the recorded game holds what its ruleset made of
it. Two ways out, both played against the adapter by the shrinking's checks:

* :func:`redrawn`: the recorded actions played again from a plainer start,
  each one the new game no longer allows drawn again as near to it as the
  rules allow (the same seat and cards, as many as the ruleset passes; the
  same card, else one that cancels, else the first legal one);
* :func:`play_rebuild`: one directed game (a :class:`Rebuild`), drawn as
  the search draws its games (:class:`.conversation.Conversation`) but at a
  fixed setting (the adapter's most common player count, a plainer ruleset,
  a first deal of zero totals dealt by seat 0, several deals), aimed at a
  condition of the difference's rule; it ends at the first divergence of
  the class looked for, which the shrinking then shrinks as it shrinks one
  the search met.

Neither changes the search: its games, counts and verdict are played and
counted before, on counters of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Any

from ..actions import Action, ChooseMoon, Pass, Play
from ..cards import Card
from ..deal import dealer_for_deal
from ..errors import RulesRefError, SetupError
from ..findings.failure import Failure, Stats
from ..jsonio.serialize import action_from_json, action_to_json
from ..passing import passable
from ..protocol.client import AdapterProcess
from ..protocol.start import dealt_start, requested_state
from ..ruleset import Ruleset
from ..state import GameState
from ..state_parts import Phase
from .aims import Aim, aim_for
from .choosers import RulesetDrawer
from .conversation import Conversation, position_record
from .resync import GameCut
from .session import Session

# --- the recorded actions, drawn again where the plainer game no longer allows them ----------


def redrawn(start: dict[str, Any], plainer: dict[str, Any], actions: list[dict[str, Any]]
            ) -> list[dict[str, Any]] | None:
    """``actions``, recorded from ``start``, as a game from ``plainer`` can play them.

    Each action is played on the recorded game and on the new one. A legal
    action the new game also allows is kept; one it no longer allows is drawn
    again as near to it as the rules allow (:func:`_nearest`), after the passes
    or the moon choice the new game asks for first. An illegal action (an
    offer of the search) is kept where the new game rejects it too, else left
    out. ``None``: ``plainer`` is no game of the rules. A table the rules
    refuse keeps its actions as they are (its start is what is judged).
    """
    try:
        old = requested_state(start)
        new = requested_state(plainer)
    except SetupError:
        return list(actions)
    except RulesRefError:
        return None
    out: list[dict[str, Any]] = []
    for action_json in actions:
        try:
            action = action_from_json(action_json)
        except RulesRefError:
            return None
        legal = _after(old, action)
        if legal is None:
            if _after(new, action) is None:
                out.append(action_json)
            continue
        old = legal
        for made in _made_for(new, action):
            after = _after(new, made)
            if after is None:  # pragma: no cover - _made_for draws legal actions only
                return None
            new = after
            out.append(action_json if made == action else action_to_json(made))
    return out


def _after(state: GameState, action: Action) -> GameState | None:
    """The state after ``action`` (None: the rules reject it there)."""
    try:
        return state.apply(action)[0]
    except RulesRefError:
        return None


def _made_for(state: GameState, action: Action) -> list[Action]:
    """The legal actions that stand for ``action`` in ``state``: itself if allowed, else the
    actions the phase asks for first and the nearest one of its kind (none: left out)."""
    made: list[Action] = []
    for _ in range(state.players + 1):  # the passes (or the moon choice) the new game asks for
        if _after(state, action) is not None:
            return [*made, action]
        if state.phase is Phase.PASSING and not isinstance(action, Pass):
            first = _nearest(state, Pass(state.waiting_for[0], ()))
        elif state.phase is Phase.MOON_CHOICE and not isinstance(action, ChooseMoon):
            first = state.legal_actions()[0]
        else:
            break
        if first is None:
            return made
        made.append(first)
        after = _after(state, first)
        if after is None:  # pragma: no cover - _nearest draws legal actions only
            return made
        state = after
    near = _nearest(state, action)
    return [*made, near] if near is not None else made


def _nearest(state: GameState, action: Action) -> Action | None:
    """The legal action of ``action``'s kind nearest to it in ``state`` (None: there is none).

    A pass: the same seat if it still passes, else the first waiting, with
    the cards it named that it may pass, then its other passable cards in its
    hand's order, as many as the ruleset passes. A play: by the seat to act,
    the same card if it may play it, else one identical to a card in the
    trick (it cancels), else its first legal card. A moon choice: the first
    option.
    """
    if isinstance(action, Pass) and state.phase is Phase.PASSING:
        seat = action.seat if action.seat in state.waiting_for else state.waiting_for[0]
        left = list(passable(state.hands[seat], state.ruleset))
        cards: list[Card] = []
        for card in [*action.cards, *left]:
            if card in left and len(cards) < state.ruleset.pass_count:
                left.remove(card)
                cards.append(card)
        chosen = Pass(seat, tuple(sorted(cards)))
        if not state.violations(chosen):
            return chosen
        passes = [a for a in state.legal_actions(seat) if isinstance(a, Pass)]
        return passes[0] if passes else None
    if isinstance(action, Play) and state.phase is Phase.PLAYING and state.to_act is not None:
        legal = state.legal_plays()
        if not legal:
            return None
        cancelling = [c for c in legal if c in state.trick]
        card = action.card if action.card in legal else (cancelling or legal)[0]
        return Play(state.to_act, card)
    if isinstance(action, ChooseMoon) and state.phase is Phase.MOON_CHOICE:
        options = state.legal_actions()
        return options[0] if options else None
    return None


# --- a directed game at a plainer setting ----------------------------------------------------


@dataclass(frozen=True)
class Rebuild:
    """One directed game that looks for the class ``key`` at a fixed, plainer setting.

    ``players`` seats under ``ruleset``, the first deal numbered
    ``deal_number`` at zero totals with seat 0 the first dealer, the
    decisions drawn from ``seed``, aimed at the catalogue condition ``focus``
    (``None``: none); ``illegal``: illegal actions are offered (the class is
    about one).
    """

    key: str
    players: int
    ruleset: Ruleset
    deal_number: int
    seed: int
    focus: str | None = None
    illegal: bool = False


@dataclass
class _Setting:
    """The search a rebuilt game stands in for (:class:`.conversation.GameSource`)."""

    player_choices: tuple[int, ...]
    fixed_ruleset: Ruleset | None
    rulesets: RulesetDrawer

    def tick(self, force: bool = False) -> None:
        """Nothing to report while shrinking."""


class _Found(Exception):
    """The divergence looked for: ends the rebuilt game at once."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.summary)
        self.failure = failure


def play_rebuild(proc: AdapterProcess, request: Rebuild, drawer: RulesetDrawer,
                 batch: int | None, keys_of: Callable[[Failure], Collection[str]]
                 ) -> Failure | None:
    """Play the directed game ``request`` against ``proc``; the first divergence of its class.

    The game plays on past the divergences of other classes as a search's
    does (:mod:`.resync`); ``keys_of`` gives the keys of the classes a divergence shows. ``None``:
    the class did not show. Adapter faults propagate.
    """
    n = request.players
    aim = aim_for(request.focus) if request.focus is not None else Aim()
    aim = replace(aim, deals=True, illegal=aim.illegal if request.illegal else None)

    def seen(failure: Failure) -> None:
        if request.key in keys_of(failure):
            raise _Found(failure)

    session = Session(proc, Stats(), check_every=1, position=position_record, batch=batch,
                      on_divergence=seen)
    game = Conversation(_Setting((n,), request.ruleset, drawer), request.seed,
                        session)
    game.aim = aim
    zero = GameState.start(n, request.ruleset, 0, (0,) * n, request.deal_number)
    game.plan = game.draw_deal(zero)
    game.offer_illegal = request.illegal
    start = dealt_start(request.ruleset, game.plan.deal.hands, game.plan.deal.extras,
                        deal_number=request.deal_number,
                        dealer=dealer_for_deal(0, request.deal_number, n))
    try:
        game.play_game(start)
        session.flush()
    except _Found as found:
        return found.failure
    except GameCut:
        return None
    finally:
        session.abandon()
    return None


def fits(ruleset: Ruleset, players: int) -> Ruleset | None:
    """``ruleset`` for a game of ``players`` (its ``min_players`` lowered to a smaller table
    the adapter plays, as the search does), or None: the rules set up no such game."""
    if players < ruleset.min_players:
        ruleset = replace(ruleset, min_players=players)
    try:
        GameState.start(players, ruleset, 0, (0,) * players, 1)
    except RulesRefError:
        return None
    return ruleset
