"""What an implementation may play in place of a rule: each rule's plausible alternatives.

An implementation that differs from the reference usually plays one rule
another way: it plays another value of a switch than the one it was sent
(``spec/variants.toml`` lists each switch, its values and the rules it
changes), or it makes a common slip (a pair that does not cancel, a trick
nobody wins kept by its leader, the extras lost, a moon scored without the
shooter's choice, …). An :class:`Alternative` is one of them, with the rule
it reads otherwise and its words. Applied to the reference at the moment of
a difference (the state before the action, the action), an alternative
*explains* the difference when it reproduces the implementation's answer:
the observation it gives is the implementation's, field by field, or it
rejects the action the implementation rejected (accepts the one it
accepted). The rule a finding names is the explaining alternative's
(:mod:`.attribution`, :func:`.words.facet_of`); a switch is named only
where one of its values explains the difference.

* :func:`switch_alternatives`: every listed value of every switch, as an alternative.
* :func:`explaining_values`: the ``(switch, value)`` pairs that explain a difference.
* :func:`explaining`: every alternative, values and slips, that explains it.

>>> [a.value for a in switch_alternatives() if a.switch == "moon"]
['choice-26', 'others-52', 'others-104']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..actions import Action, ChooseMoon, DealCards, Play
from ..cards import Card
from ..errors import RulesRefError
from ..leading import opening_leads
from ..protocol.observation import observe
from ..protocol.start import requested_state
from ..registry import spec_toml, switch_meanings
from ..ruleset import Ruleset
from ..scoring import moon_options
from ..state import GameState
from ..state_parts import Phase
from ..transitions import close_deal, play_card
from ..tricks import TrickOutcome, cancelled_cards, led_suit, resolve_trick, seat_at
from ..wording import switch_value
from ..wording.slips import slip_words, value_words


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way to play rule ``rule`` otherwise, in words a player would say.

    A switch value (``switch`` and ``value``, its JSON form, a list as a tuple) or a slip
    (``slip``, its name); ``words`` say what the implementation does.
    """

    rule: str
    words: str
    switch: str | None = None
    value: Any = None
    slip: str | None = None


# --- the switch values -----------------------------------------------------------------------


@cache
def switch_alternatives() -> tuple[Alternative, ...]:
    """Every listed value of every switch of ``spec/variants.toml``, as an alternative.

    Its rule is the first the switch changes; its words the value's meaning.
    A switch that decides only the player counts or the game's length
    (``min_players``, ``target``) is listed too: its values change what a table
    or a game's end is.
    """
    meanings = switch_meanings()
    out = []
    for s in spec_toml("variants.toml")["switch"]:
        for v in s.get("value", ()):
            value = tuple(v["value"]) if isinstance(v["value"], list) else v["value"]
            text = switch_value(value)
            meaning = meanings.get(s["name"], {}).get(text, "")
            words = value_words(s["name"], text, meaning)
            out.append(Alternative(s["rules"][0], words, s["name"], value))
    return tuple(out)


@cache
def _switch_rules() -> dict[str, tuple[str, ...]]:
    return {s["name"]: tuple(s["rules"]) for s in spec_toml("variants.toml")["switch"]}


def switch_rules(switch: str) -> tuple[str, ...]:
    """The rules switch ``switch`` changes (``spec/variants.toml``; () for no such switch).

    >>> switch_rules("last_trick_void")
    ('VOID.LAST', 'SCORE.CARD_POINTS')
    """
    return _switch_rules().get(switch, ())


def _json(value: Any) -> Any:
    """A switch value in its JSON form (a tuple of steps as a list)."""
    return list(value) if isinstance(value, tuple) else value


def _with_value(state: GameState, alt: Alternative) -> GameState | None:
    """``state`` under the ruleset with ``alt``'s value (None: the ruleset refuses it)."""
    current = state.ruleset.to_dict()
    if current.get(alt.switch or "") == _json(alt.value):
        return None  # the reference's own value
    try:
        ruleset = Ruleset.from_dict({**current, str(alt.switch): _json(alt.value)})
        return state._with(ruleset=ruleset)
    except RulesRefError:
        return None


# --- the slips -------------------------------------------------------------------------------


def _slip(rule: str, name: str) -> Alternative:
    return Alternative(rule, slip_words(name), slip=name)


def _outcome(cards: Sequence[Card], leader: int, players: int, gone: frozenset[Card],
             pos: int | None) -> TrickOutcome:
    if pos is None:
        return TrickOutcome(leader, tuple(cards), led_suit(cards), tuple(sorted(gone)), None,
                            None)
    return TrickOutcome(leader, tuple(cards), led_suit(cards), tuple(sorted(gone)),
                        seat_at(leader, pos, players), cards[pos])


def _best(cards: Sequence[Card], suit: object, gone: frozenset[Card],
          rank: Callable[[Card], int] = lambda c: c.rank) -> int | None:
    best: int | None = None
    for i, c in enumerate(cards):
        if c.suit == suit and c not in gone and (best is None or rank(c) > rank(cards[best])):
            best = i
    return best


def _trick_slips(before: GameState, trick: tuple[Card, ...]
                 ) -> Iterator[tuple[Alternative, TrickOutcome]]:
    """The slips of a trick's resolution, each with the outcome it gives the full ``trick``.

    The plainest first: a slip of what happens to a trick nobody wins, of the led
    suit, of the ranks, before a pair that does not cancel (a void trick kept by its
    leader is also the trick of a pair of its leader's card that does not cancel).
    """
    n, leader = before.players, before.leader
    gone = cancelled_cards(trick)
    suit = led_suit(trick)
    pos = _best(trick, suit, gone)
    if pos is None:
        yield (_slip("VOID.TRICK", "void-kept-by-leader"), _outcome(trick, leader, n, gone, 0))
        last = next((t.winner for t in reversed(before.tricks) if t.winner is not None), None)
        if last is not None and last != leader:
            yield (_slip("VOID.TRICK", "void-kept-by-last-winner"),
                   _outcome(trick, leader, n, gone, (last - leader) % n))
    if trick[0] in gone:
        live = [c for c in trick if c not in gone]
        if live and live[0].suit != suit:
            yield (_slip("TRICK.LED_SUIT", "led-suit-first-live"),
                   _outcome(trick, leader, n, gone, _best(trick, live[0].suit, gone)))
        if pos is not None:
            yield (_slip("TRICK.LED_SUIT", "led-card-cancelled-void"),
                   _outcome(trick, leader, n, gone, None))
    low = _best(trick, suit, gone, lambda c: 1 if c.rank == 14 else c.rank)
    if low != pos:
        yield (_slip("DECK.RANKING", "ace-low"),
               _outcome(trick, leader, n, gone, low))
    for card in sorted(gone):
        kept = gone - {card}
        yield (_slip("TRICK.CANCEL", "pair-not-cancelled"),
               _outcome(trick, leader, n, kept, _best(trick, suit, kept)))


def _without(cards: Sequence[Card], out: Sequence[Card]) -> tuple[Card, ...]:
    rest = list(cards)
    for c in out:
        if c in rest:
            rest.remove(c)
    return tuple(rest)


def _collect_slips(before: GameState, after: GameState
                   ) -> Iterator[tuple[Alternative, GameState]]:
    """The slips of what a trick's winner collects, on a trick that leaves the deal going."""
    if after.phase is not Phase.PLAYING or not after.tricks:
        return
    t = after.tricks[-1]
    w = t.winner
    extras = before.extras if before.trick_number == 1 else ()
    if w is None:
        if extras:
            yield (_slip("EXTRAS.FIRST_TRICK", "extras-lost"),
                   after._with(pending=_without(after.pending, extras)))
        return
    got = list(after.collected)

    def taking(out: Sequence[Card]) -> GameState:
        changed = list(got)
        changed[w] = _without(got[w], out)
        return after._with(collected=tuple(changed))

    cancelled = [c for c in t.cards if c in t.cancelled]
    if cancelled:
        yield (_slip("TRICK.CANCEL", "cancelled-points-lost"), taking(cancelled))
    if extras:
        yield (_slip("EXTRAS.FIRST_TRICK", "extras-lost"), taking(extras))
    if before.pending:
        yield (_slip("VOID.COLLECT", "pending-kept"),
               taking(before.pending)._with(pending=before.pending))


def _lead_slips(after: GameState) -> Iterator[tuple[Alternative, dict[str, Any]]]:
    """The lead after a trick 1 nobody won, restricted as an opening lead is."""
    if not (after.phase is Phase.PLAYING and not after.trick and after.trick_number == 2
            and after.tricks and after.tricks[0].winner is None and after.to_act is not None):
        return
    seen = observe(after)
    restricted = opening_leads(after.hands[after.to_act], after.ruleset)
    seen["legal"] = [str(c) for c in restricted]
    yield _slip("VOID.LEADER", "void-first-as-opening"), seen


def _moon_slips(after: GameState) -> Iterator[tuple[Alternative, GameState]]:
    """A moon scored at once, without waiting for the shooter's choice."""
    if after.phase is not Phase.MOON_CHOICE:
        return
    for choice in (None, *moon_options(after.ruleset)):
        try:
            state, _ = close_deal(after, choice, [])
        except RulesRefError:
            continue
        yield (_slip("MOON.CHOICE", "moon-without-choice"), state)


def slips(before: GameState, action: Action, after: GameState
          ) -> Iterator[tuple[Alternative, GameState | dict[str, Any]]]:
    """Each common slip that may apply to ``action`` in ``before``, with the state it gives
    (or, for a slip of what a seat may play next, the observation)."""
    if isinstance(action, Play) and before.phase is Phase.PLAYING and (
            len(before.trick) + 1 == before.players):
        trick = (*before.trick, action.card)
        reference = resolve_trick(trick, before.leader, before.players)
        for alt, outcome in _trick_slips(before, trick):
            if outcome == reference:
                continue
            try:
                state, _ = play_card(before, action.seat, action.card,
                                     (action.seat, action.card, before.history), outcome)
            except (RulesRefError, ValueError):
                continue
            yield alt, state
        yield from _collect_slips(before, after)
        yield from _lead_slips(after)
    if not isinstance(action, ChooseMoon):
        yield from _moon_slips(after)


# --- explaining a difference -----------------------------------------------------------------


def _reproduces(state: GameState | dict[str, Any], expected: Mapping[str, Any],
                actual: Mapping[str, Any]) -> bool:
    """Is ``state``'s observation (or ``state``, an observation) the implementation's, on
    every field the reference shows?"""
    seen = observe(state) if isinstance(state, GameState) else state
    return all(seen.get(k) == actual.get(k) for k in expected if k not in ("type", "id"))


def _dealt_again(state: GameState) -> GameState:
    """A game's start under ``state``'s ruleset: its deal dealt again when nothing of it has
    been played (the phase it opens in is the ruleset's: passing or not), else ``state``."""
    played = state.tricks or state.trick or any(p is not None for p in state.passes)
    if played or state.phase not in (Phase.PASSING, Phase.PLAYING):
        return state
    try:
        game = GameState.start(state.players, state.ruleset, state.game.first_dealer,
                               state.game.initial_totals, state.deal_number)
        dealt, _ = game.apply(DealCards(state.hands, state.extras))
    except RulesRefError:
        return state
    return dealt


def _valued(before: GameState | None, action: Action | None, after: GameState
            ) -> Iterator[tuple[Alternative, GameState | None]]:
    """Each switch value with the state it gives (None: it refuses the action)."""
    for alt in switch_alternatives():
        base = _with_value(before if before is not None else after, alt)
        if base is None:
            continue
        if before is None or action is None:
            yield alt, _dealt_again(base)
            continue
        try:
            state, _ = base.apply(action)
        except RulesRefError:
            yield alt, None
            continue
        except (AssertionError, ValueError, IndexError):
            # a value that decides a deal from its start (pass_cycle) met in its middle:
            # the deal is not one it could have made
            continue
        yield alt, state


def explaining(before: GameState | None, action: Action | None, after: GameState,
               expected: Mapping[str, Any], actual: Mapping[str, Any],
               deciding: Sequence[str] = ()) -> list[Alternative]:
    """The alternatives that reproduce the implementation's observation ``actual``.

    ``before`` and ``action``: the reference state before the action and the
    action (both None for the observation that answers a start); ``after`` the
    reference state ``expected`` observes. Switch values first, then slips. Where
    none reproduces every field, those that reproduce the ``deciding`` fields (the
    first that differ, in causal order) and every field the implementation agrees
    on: another fault may show in the other differing fields.
    """
    tried: list[tuple[Alternative, GameState | dict[str, Any]]] = [
        (alt, state) for alt, state in _valued(before, action, after) if state is not None]
    if before is not None and action is not None:
        tried += list(slips(before, action, after))
    out = [alt for alt, state in tried if _reproduces(state, expected, actual)]
    if not out and deciding:
        # the deciding fields as the implementation gave them, and every field on which it
        # agrees with the reference left as it is: a slip that would change those is not it
        shown = {f: expected[f] for f in deciding if f in expected}
        agreed = {k: v for k, v in expected.items()
                  if k not in ("type", "id") and actual.get(k) == v}
        out = [alt for alt, state in tried
               if shown and _reproduces(state, {**agreed, **shown}, actual)]
    return list(dict.fromkeys(out))


def explaining_verdict(before: GameState, action: Action, accepted: bool) -> list[Alternative]:
    """The switch values under which ``action`` is accepted (``accepted``) or rejected, as the
    implementation answered where the reference did the opposite."""
    return [alt for alt, state in _valued(before, action, before)
            if (state is not None) == accepted]


def refusing_values(start: object) -> list[Alternative]:
    """The switch values under which the rules refuse the ``start`` request ``start`` (its
    table, its deal), as an implementation that rejected it did."""
    if not isinstance(start, dict) or not isinstance(start.get("ruleset"), dict):
        return []
    out = []
    for alt in switch_alternatives():
        if start["ruleset"].get(alt.switch or "") == _json(alt.value):
            continue
        try:
            requested_state({**start, "ruleset": {**start["ruleset"],
                                                  str(alt.switch): _json(alt.value)}})
        except RulesRefError:
            out.append(alt)
        except (KeyError, TypeError, ValueError):
            continue
    return out


def explaining_values(before: GameState | None, action: Action | None, after: GameState,
                      expected: Mapping[str, Any], actual: Mapping[str, Any]
                      ) -> list[tuple[str, Any]]:
    """The ``(switch, value)`` pairs whose value, played at this moment in place of the
    reference's, gives the implementation's answer ``actual`` (arguments as
    :func:`explaining`; ``actual`` of type ``rejected`` for a rejected action)."""
    if actual.get("type") == "rejected" and before is not None and action is not None:
        found = explaining_verdict(before, action, accepted=False)
    elif expected.get("type") == "rejected" and before is not None and action is not None:
        found = explaining_verdict(before, action, accepted=True)
    else:
        found = explaining(before, action, after, expected, actual)
    return [(a.switch, _json(a.value)) for a in found if a.switch is not None]


__all__ = ["Alternative", "explaining", "explaining_values", "explaining_verdict",
           "refusing_values", "slips",
           "switch_alternatives", "switch_rules"]
