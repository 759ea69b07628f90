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
from ..scoring import card_points, moon_options
from ..state import GameState
from ..state_parts import Phase
from ..transitions import close_deal, play_card
from ..tricks import TrickOutcome, cancelled_cards, led_suit, resolve_trick, seat_at
from ..wording import switch_value
from ..wording.slips import card_value_words, slip_words, value_words


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way to play rule ``rule`` otherwise, in words a player would say.

    A switch value (``switch`` and ``value``, its JSON form, a list as a tuple) or a slip
    (``slip``, its name); ``words`` say what the implementation does. A card scored at
    another value (slip ``card-value``) holds the value as ``value`` and the cards that
    may be it as ``cards``.
    """

    rule: str
    words: str
    switch: str | None = None
    value: Any = None
    slip: str | None = None
    cards: tuple[str, ...] = ()

    def same_cause(self, other: Alternative) -> bool:
        """Is ``other`` the same way to play the rule otherwise (the same value, the same
        slip; for a card's value, the same value of one of the same cards)?

        >>> a = Alternative("SCORE.CARD_POINTS", "", value=1, slip="card-value", cards=("4S",))
        >>> b = Alternative("SCORE.CARD_POINTS", "", value=1, slip="card-value",
        ...                 cards=("4S", "7S"))
        >>> a.same_cause(b), a.same_cause(Alternative("SCORE.CARD_POINTS", "", value=2,
        ...                                           slip="card-value", cards=("4S",)))
        (True, False)
        """
        same = (self.rule, self.switch, self.value, self.slip) == (
            other.rule, other.switch, other.value, other.slip)
        return same and (not self.cards or bool(set(self.cards) & set(other.cards)))


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


def _int_list(value: Any, n: int) -> list[int] | None:
    if isinstance(value, list) and len(value) == n and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    return None


def _slipped_values(worth: int) -> tuple[int, ...]:
    """The values a card worth ``worth`` is scored at by a slip: one point off, not
    counted at all, or counted with the wrong sign."""
    return (worth - 1, worth + 1, 0, -worth)


def _plainness(worth: int, value: int) -> int:
    """How plain a slip scoring a card worth ``worth`` at ``value`` is, plainest first: not
    counted at all, one point off, the sign turned."""
    return 0 if value == 0 else 2 if value == -worth else 1


def card_values(before: GameState | None, after: GameState, expected: Mapping[str, Any],
                actual: Mapping[str, Any]) -> Iterator[tuple[Alternative, dict[str, Any]]]:
    """A card scored at another value, with the observation it gives: the cards whose
    copies, all at one other value, make the implementation's points ``actual``.

    Read from the cards each seat has collected (``after``): a seat's points differ by
    the card's change times the copies of it the seat holds, every seat's. The points
    agreed before the action, so a card a seat had collected before it (``before``)
    would have shown there: only cards collected by this action are tried (any card
    at a start, ``before`` None), each at a value a slip gives it (one point off, not
    counted, the sign turned). Once the deal is scored without a moon, its scores
    and the totals move by the same amounts. Its rule is ``SCORE.CARD_POINTS``; its
    words name the card and the value the implementation gives it (the cards, when
    several give the answer at one value), the smallest change first, then the plainest
    (a card not counted before one a point off).
    """
    n = after.players
    exp = _int_list(expected.get("points"), n)
    act = _int_list(actual.get("points"), n)
    if exp is None or act is None or exp == act or len(after.collected) != n:
        return
    diff = [a - e for e, a in zip(exp, act, strict=True)]
    earlier = {c for got in before.collected for c in got} if before is not None else set()
    seen = observe(after)
    shown: dict[str, Any] = {**seen, "points": act}
    result = after.deal_results[-1] if after.deal_results else None
    if seen.get("deal_scores") is not None and result is not None and (
            result.moon_shooter is None and result.moon_pair is None):
        for name in ("deal_scores", "totals"):
            values = _int_list(seen.get(name), n)
            if values is not None:
                shown[name] = [v + d for v, d in zip(values, diff, strict=True)]
    found: dict[tuple[int, int], list[Card]] = {}
    for card in sorted({c for got in after.collected for c in got} - earlier):
        copies = [got.count(card) for got in after.collected]
        first = next(seat for seat, k in enumerate(copies) if k)
        change, rest = divmod(diff[first], copies[first])
        if rest or not change or any(d != change * k for d, k in zip(diff, copies, strict=True)):
            continue
        worth = card_points((card,), after.ruleset)
        if worth + change in _slipped_values(worth):
            found.setdefault((change, worth + change), []).append(card)
    for (_, value), cards in sorted(found.items(), key=lambda item: (
            abs(item[0][0]), _plainness(card_points(item[1][:1], after.ruleset), item[0][1]))):
        words = card_value_words(" or ".join(c.pretty for c in cards), value)
        yield (Alternative("SCORE.CARD_POINTS", words, value=value, slip="card-value",
                           cards=tuple(str(c) for c in cards)), shown)


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
    tried += list(card_values(before, after, expected, actual))
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


def explaining_verdict(before: GameState, action: Action, accepted: bool,
                       cited: object = None) -> list[Alternative]:
    """The switch values under which ``action`` is accepted (``accepted``) or rejected, as the
    implementation answered where the reference did the opposite.

    A rejection that cites a rule (``cited``, the rule ID the implementation gave) is
    reproduced only by a value under which the rules refuse the action citing that rule:
    a moon choice refused as out of turn is no moon scored without a choice.
    """
    out = []
    for alt in switch_alternatives():
        base = _with_value(before, alt)
        if base is None:
            continue
        try:
            base.apply(action)
        except RulesRefError as exc:
            rule = getattr(exc, "rule_id", None)
            if not accepted and (not isinstance(cited, str) or cited == rule):
                out.append(alt)
            continue
        except (AssertionError, ValueError, IndexError):
            continue  # a value that decides a deal from its start, met in its middle
        if accepted:
            out.append(alt)
    return out


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
        found = explaining_verdict(before, action, accepted=False, cited=actual.get("rule"))
    elif expected.get("type") == "rejected" and before is not None and action is not None:
        found = explaining_verdict(before, action, accepted=True)
    else:
        found = explaining(before, action, after, expected, actual)
    return [(a.switch, _json(a.value)) for a in found if a.switch is not None]


__all__ = ["Alternative", "card_values", "explaining", "explaining_values", "explaining_verdict",
           "refusing_values", "slips",
           "switch_alternatives", "switch_rules"]
