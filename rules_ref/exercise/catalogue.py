"""The conditions of every rule a conform run can exercise, and a run's counts of them.

A *condition* is one clause of a rule's statement in ``spec/rules.toml``,
named in words once here (:data:`CONDITIONS`), for example
``FOLLOW.FIRST_TRICK: a seat holding only hearts and Q♠ discards one to
trick 1``, or one value of a switch the rule names (``VOID.LAST: under
last_trick_void = leader``). The conditions an action went through are read
from the reference's states and events (never
from how the game was drawn), in :mod:`~rules_ref.exercise.detect`.

:func:`catalogue` lists the conditions a run can reach: every condition
whose needs fit the player counts and switch values the adapter supports
(a condition of ``two-of-clubs`` only when the adapter plays it), and one
condition per declared value of every switch. :func:`summary` turns the
counts of a run into the JSON keys ``exercise`` and ``never_exercised``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..deal import MAX_PLAYERS, extras_count, hand_size
from ..registry import rule_ids, spec_toml
from ..ruleset import (
    FirstTrickPoints,
    HeartsBrokenBy,
    Moon,
    MoonPair,
    OpeningLead,
    PassForbidden,
    Ruleset,
    moot_switches,
)
from ..wording import switch_value


@dataclass(frozen=True)
class Scope:
    """What a run can draw: the player counts and, per switch, its values."""

    players: tuple[int, ...]
    values: Mapping[str, Sequence[Any]]

    def has(self, switch: str, *values: Any) -> bool:
        """True if the run draws at least one of ``values`` of ``switch``."""
        return any(v in values for v in self.values.get(switch, ()))

    def lacks(self, switch: str, *values: Any) -> bool:
        """True if the run draws a value of ``switch`` other than ``values``."""
        return any(v not in values for v in self.values.get(switch, ()))

    def extras(self, least: int = 1) -> bool:
        """True if some player count deals at least ``least`` extras."""
        return any(extras_count(n) >= least for n in self.players)


Needs = Callable[[Scope], bool]


def _always(scope: Scope) -> bool:
    return True


@dataclass(frozen=True)
class Condition:
    """One deciding condition of a rule, in words, and what a run needs to reach it."""

    rule: str
    words: str
    needs: Needs = _always

    @property
    def key(self) -> str:
        return f"{self.rule}: {self.words}"


def _key(rule: str, words: str) -> str:
    return f"{rule}: {words}"


_LOD = (OpeningLead.LEFT_OF_DEALER, OpeningLead.LEFT_OF_DEALER_NO_SCORING)
_TWO = OpeningLead.TWO_OF_CLUBS
#: The first_trick_points values that ban a heart or a Q♠ from trick 1.
_FORBIDDEN = (FirstTrickPoints.FORBIDDEN, FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING)
_NOT_NEEDED = HeartsBrokenBy.NOT_NEEDED


def _lod(s: Scope) -> bool:
    return s.has("opening_lead", *_LOD)


def _two(s: Scope) -> bool:
    return s.has("opening_lead", _TWO)


def _forbidden(s: Scope) -> bool:
    return s.has("first_trick_points", *_FORBIDDEN)


def _follows_kept(s: Scope) -> bool:
    """forbidden-even-following, with a trick 1 that may be led in spades or hearts: a lead
    from the dealer's left, or a 2♣ lead with both 2♣ among the extras."""
    return s.has("first_trick_points", FirstTrickPoints.FORBIDDEN_EVEN_FOLLOWING) and (
        _lod(s) or s.extras(2))


def _no_two_of_clubs(s: Scope) -> bool:
    return s.has("pass_forbidden", PassForbidden.TWO_OF_CLUBS)


def _needed(s: Scope) -> bool:
    return s.lacks("hearts_broken_by", _NOT_NEEDED)


def _choice(s: Scope) -> bool:
    return s.has("moon", Moon.CHOICE_26)


def _passes(s: Scope) -> bool:
    """Does some deal pass cards (a pass_cycle with a direction other than hold)?"""
    return any(str(d) != "hold" for cycle in s.values.get("pass_cycle", ()) for d in cycle)


# Words of the conditions, each used by the catalogue and by the detector.
HAND_TWICE = "a hand holds both copies of a card"
PLAY_TWICE = "a seat plays a card it holds twice"
RANK_OFF_SUIT = "a higher card of another suit than the led one does not win"
DEAL_ACCEPTED = "a deal that makes up the deck is accepted"
DEAL_REJECTED = "a deal whose cards are not the two packs is rejected"
NEXT_DEALER = "a later deal is dealt by the next seat to the left"
PASS_BOTH = "a pass holds both copies of a card"
PASS_POINTS = "a pass holds a heart or a Q♠"
PASS_SIZE = "a pass of too many or too few cards is rejected"
PASS_TWICE_NAMED = "a pass naming a card more often than the seat holds it is rejected"
PASS_NOT_HELD = "a pass of a card the seat does not hold is rejected"
PASS_FORBIDDEN_NAMED = "a pass holding a 2♣ is rejected under pass_forbidden = two-of-clubs"
EXCHANGED = "the passed cards change hands when the last seat passes"
PASS_AGAIN = "a second pass by a seat is rejected"
LEADER_LEFT = "the seat left of the dealer makes the opening lead"
LEADER_TWO = "the first seat holding a 2♣ makes the opening lead"
LEADER_NO_TWO = "no hand holds a 2♣: the seat left of the dealer leads"
OPEN_OTHER = "an opening leader holding other cards leads no heart and no Q♠"
OPEN_ONLY_POINTS = "an opening leader holding only hearts and Q♠ leads one of them"
OPEN_REJECTED = "a forbidden opening lead is rejected"
OPEN_TWO = "the opening leader leads a 2♣"
OPEN_TWO_CANCEL = "the other 2♣ played to trick 1 cancels the led one"
HEART_LED_BROKEN = "a heart is led once hearts are broken"
HEART_LED_FORCED = "a leader holding only hearts leads one while hearts are unbroken"
QUEEN_LED_FORCED = "a leader holding only hearts and Q♠ leads a Q♠ while hearts are unbroken"
HEART_LED_REJECTED = "a heart lead before hearts are broken is rejected"
HEART_LED_FREE = "a heart is led before hearts are broken where no breaking is needed"
BROKEN_HEART = "a heart breaks hearts"
BROKEN_QUEEN = "a Q♠ breaks hearts"
BROKEN_CANCELLED = "the card that broke hearts is cancelled in its trick"
NOT_BROKEN = "a heart or Q♠ played leaves hearts unbroken under the ruleset"
UNBROKEN_NEW_DEAL = "hearts are unbroken again at the start of a later deal"
FOLLOWS = "a seat follows the led suit"
DISCARDS = "a seat without the led suit plays another suit"
PLAYS_IDENTICAL = "a seat plays a card identical to one already in the trick"
REVOKE_REJECTED = "a card of another suit while holding the led suit is rejected"
FIRST_DISCARD_POINTS = "a heart or Q♠ is discarded to trick 1"
FIRST_DISCARD_OTHER = "a seat that cannot follow to trick 1 discards neither heart nor Q♠"
FIRST_ONLY_POINTS = "a seat holding only hearts and Q♠ discards one to trick 1"
FIRST_REJECTED = "a heart or Q♠ discarded to trick 1 is rejected"
FIRST_FOLLOW_KEPT = ("a seat following suit to trick 1 with a heart or Q♠ of the led suit and "
                     "another card of it plays the other card")
OUT_OF_TURN = "a play out of turn is rejected"
PLAYED_ALREADY = "a play by a seat that has already played to the trick is rejected"
#: An action of another phase's kind: (the action's kind, the phase) -> words.
WRONG_PHASE = {
    ("play", "passing"): "a play while passing is rejected",
    ("moon choice", "passing"): "a moon choice while passing is rejected",
    ("deal", "passing"): "a deal while passing is rejected",
    ("pass", "playing"): "a pass while playing is rejected",
    ("moon choice", "playing"): "a moon choice while playing is rejected",
    ("deal", "playing"): "a deal while playing is rejected",
    ("play", "moon-choice"): "a play while the shooter chooses is rejected",
    ("deal", "moon-choice"): "a deal while the shooter chooses is rejected",
    ("play", "dealing"): "a play between deals is rejected",
}
NO_SUCH_SEAT = "an action naming a seat that does not exist is rejected"
AFTER_END = "an action after the game has ended is rejected"
NOT_HELD = "a play of a card the seat does not hold is rejected"
LED_CANCELLED = "the led card is cancelled and another card of its suit wins"
CANCEL_WON = "two identical cards cancel in a trick that has a winner"
CANCEL_OFF_SUIT = "two identical cards of another suit than the led one cancel"
WINNER_HIGHEST = "the highest card of the led suit wins"
WINNER_LOWER = "a lower card wins because the higher ones cancel"
NEXT_LEADS = "the winner of a trick leads the next one"
VOID = "a trick whose led-suit cards all cancel is void"
VOID_OFF_SUIT = "a void trick holds an uncancelled card of another suit"
VOID_LEADS = "the leader of a void trick leads the next one"
VOID_FIRST_LEADS = "after a void trick 1 its leader leads trick 2"
COLLECT_ONE = "the next winner collects a void trick"
COLLECT_MANY = "the next winner collects two or more void tricks"
COLLECT_EXTRAS = "the next winner collects the extras from the pending pile"
VOID_LAST = "the last trick is void"
VOID_LAST_EXTRAS = "the last trick is void with the extras still pending"
EXTRAS_WON = "the winner of trick 1 takes the extras"
EXTRAS_PENDING = "a void trick 1 puts the extras in the pending pile"
NO_EXTRAS = "a deal with no extras: trick 1 has none to carry"
SCORED = "a deal is scored from the cards collected"
BOTH_QUEENS = "one seat collects both Q♠"
NO_MOON = "a deal is scored without a moon"
SHORT_52 = "cards went uncollected and the deal scores less than 52"
MOON = "a seat takes every heart and both Q♠"
PAIR_MOON = "two seats together take every heart and both Q♠"
MOON_ADD = "the shooter chooses add"
MOON_SUBTRACT = "the shooter chooses subtract"
MOON_OTHER_SEAT = "a moon choice by another seat than the shooter is rejected"
GOES_ON = "the game goes on after a deal that leaves every total below the target"
END_EXACT = "a total reaches the target exactly and the game ends"
END_PAST = "a total passes the target and the game ends"
WINS_ALONE = "one player has the lowest total and wins alone"
WINS_TIED = "several players share the lowest total and all win"
VIEW_PASSING = "a seat's view while passing"
VIEW_PLAYING = "a seat's view while playing"
VIEW_SCORED = "the view after a deal is scored, extras shown"

_R = Condition
#: Every condition of every rule, in the order of ``spec/rules.toml``; the per-count
#: conditions of PLAYERS.COUNT and DEAL.SIZE and the switch values are added by
#: :func:`catalogue`.
CONDITIONS: tuple[Condition, ...] = (
    _R("DECK.CARDS", HAND_TWICE), _R("DECK.CARDS", PLAY_TWICE),
    _R("DECK.RANKING", RANK_OFF_SUIT),
    _R("DEAL.SOURCE", DEAL_ACCEPTED), _R("DEAL.SOURCE", DEAL_REJECTED),
    _R("DEAL.DEALER", NEXT_DEALER),
    _R("PASS.CARDS", PASS_BOTH, _passes), _R("PASS.CARDS", PASS_POINTS, _passes),
    _R("PASS.CARDS", PASS_SIZE, _passes), _R("PASS.CARDS", PASS_TWICE_NAMED, _passes),
    _R("PASS.CARDS", PASS_NOT_HELD, _passes),
    _R("PASS.CARDS", PASS_FORBIDDEN_NAMED, lambda s: _passes(s) and _no_two_of_clubs(s)),
    _R("PASS.EXCHANGE", EXCHANGED, _passes), _R("PASS.EXCHANGE", PASS_AGAIN, _passes),
    _R("LEAD.OPENING_LEADER", LEADER_LEFT, _lod), _R("LEAD.OPENING_LEADER", LEADER_TWO, _two),
    _R("LEAD.OPENING_LEADER", LEADER_NO_TWO, lambda s: _two(s) and s.extras(2)),
    _R("LEAD.OPENING_CARD", OPEN_OTHER, _lod), _R("LEAD.OPENING_CARD", OPEN_ONLY_POINTS, _lod),
    _R("LEAD.OPENING_CARD", OPEN_REJECTED), _R("LEAD.OPENING_CARD", OPEN_TWO, _two),
    _R("LEAD.OPENING_CARD", OPEN_TWO_CANCEL, _two),
    _R("LEAD.HEARTS", HEART_LED_BROKEN), _R("LEAD.HEARTS", HEART_LED_FORCED, _needed),
    _R("LEAD.HEARTS", QUEEN_LED_FORCED, _needed), _R("LEAD.HEARTS", HEART_LED_REJECTED, _needed),
    _R("LEAD.HEARTS", HEART_LED_FREE, lambda s: s.has("hearts_broken_by", _NOT_NEEDED)),
    _R("HEARTS.BROKEN", BROKEN_HEART),
    _R("HEARTS.BROKEN", BROKEN_QUEEN, lambda s: s.lacks(
        "hearts_broken_by", HeartsBrokenBy.HEART, HeartsBrokenBy.HEART_DISCARD,
        HeartsBrokenBy.HEART_NOT_LED)),
    _R("HEARTS.BROKEN", BROKEN_CANCELLED),
    _R("HEARTS.BROKEN", NOT_BROKEN, lambda s: s.has(
        "hearts_broken_by", HeartsBrokenBy.HEART, HeartsBrokenBy.HEART_DISCARD)),
    _R("HEARTS.BROKEN", UNBROKEN_NEW_DEAL),
    _R("FOLLOW.SUIT", FOLLOWS), _R("FOLLOW.SUIT", DISCARDS), _R("FOLLOW.SUIT", PLAYS_IDENTICAL),
    _R("FOLLOW.SUIT", REVOKE_REJECTED),
    _R("FOLLOW.FIRST_TRICK", FIRST_DISCARD_POINTS,
       lambda s: s.lacks("first_trick_points", *_FORBIDDEN)),
    _R("FOLLOW.FIRST_TRICK", FIRST_DISCARD_OTHER, _forbidden),
    _R("FOLLOW.FIRST_TRICK", FIRST_ONLY_POINTS, _forbidden),
    _R("FOLLOW.FIRST_TRICK", FIRST_REJECTED, _forbidden),
    _R("FOLLOW.FIRST_TRICK", FIRST_FOLLOW_KEPT, _follows_kept),
    _R("TURN.ORDER", OUT_OF_TURN), _R("TURN.ORDER", PLAYED_ALREADY),
    *[_R("TURN.ORDER", words, {"moon-choice": _choice, "passing": _passes}.get(phase, _always))
      for (_, phase), words in WRONG_PHASE.items()],
    _R("TURN.ORDER", NO_SUCH_SEAT, lambda s: any(n < MAX_PLAYERS for n in s.players)),
    _R("TURN.ORDER", AFTER_END),
    _R("TURN.OWN_CARD", NOT_HELD),
    _R("TRICK.LED_SUIT", LED_CANCELLED),
    _R("TRICK.CANCEL", CANCEL_WON), _R("TRICK.CANCEL", CANCEL_OFF_SUIT),
    _R("TRICK.WINNER", WINNER_HIGHEST), _R("TRICK.WINNER", WINNER_LOWER),
    _R("TRICK.NEXT_LEADER", NEXT_LEADS),
    _R("VOID.TRICK", VOID), _R("VOID.TRICK", VOID_OFF_SUIT),
    _R("VOID.LEADER", VOID_LEADS), _R("VOID.LEADER", VOID_FIRST_LEADS),
    _R("VOID.COLLECT", COLLECT_ONE), _R("VOID.COLLECT", COLLECT_MANY),
    _R("VOID.COLLECT", COLLECT_EXTRAS, lambda s: s.extras()),
    _R("VOID.LAST", VOID_LAST), _R("VOID.LAST", VOID_LAST_EXTRAS, lambda s: s.extras()),
    _R("EXTRAS.FIRST_TRICK", EXTRAS_WON, lambda s: s.extras()),
    _R("EXTRAS.FIRST_TRICK", EXTRAS_PENDING, lambda s: s.extras()),
    _R("EXTRAS.FIRST_TRICK", NO_EXTRAS, lambda s: any(extras_count(n) == 0 for n in s.players)),
    _R("SCORE.CARD_POINTS", SCORED), _R("SCORE.CARD_POINTS", BOTH_QUEENS),
    _R("SCORE.DEAL", NO_MOON), _R("SCORE.DEAL", SHORT_52),
    _R("MOON.CONDITION", MOON),
    _R("MOON.CONDITION", PAIR_MOON, lambda s: s.has("moon_pair", MoonPair.OTHERS_26)),
    _R("MOON.CHOICE", MOON_ADD, _choice), _R("MOON.CHOICE", MOON_SUBTRACT, _choice),
    _R("MOON.CHOICE", MOON_OTHER_SEAT, _choice),
    _R("GAME.END", GOES_ON), _R("GAME.END", END_EXACT), _R("GAME.END", END_PAST),
    _R("GAME.WINNER", WINS_ALONE), _R("GAME.WINNER", WINS_TIED),
    _R("VIEW.SEAT", VIEW_PASSING, _passes), _R("VIEW.SEAT", VIEW_PLAYING),
    _R("VIEW.SEAT", VIEW_SCORED),
)


def count_condition(players: int) -> str:
    return _key("PLAYERS.COUNT", f"a game of {players} players")


def size_condition(players: int) -> str:
    return _key("DEAL.SIZE", f"{players} players: {hand_size(players)} cards each and "
                f"{extras_count(players)} extras")


def direction_condition(direction: object) -> str:
    return _key("PASS.DIRECTION", f"a deal whose direction is {direction}")


@cache
def switch_rules() -> dict[str, str]:
    """Each switch of ``spec/variants.toml`` and the first rule it names."""
    data = spec_toml("variants.toml")
    return {s["name"]: s["rules"][0] for s in data["switch"] if s.get("rules")}


@cache
def published_values(switch: str) -> list[Any]:
    """The values ``spec/variants.toml`` publishes for ``switch`` (its ``[[switch.value]]``)."""
    for s in spec_toml("variants.toml")["switch"]:
        if s["name"] == switch:
            return [getattr(Ruleset.from_dict({switch: v["value"]}, switch), switch)
                    for v in s.get("value", ())]
    return []


@cache
def value_condition(switch: str, value: Any) -> str:
    """The condition of one switch value: the switch's rule decided under that value.

    Kept once made: the tally of a search asks for the same few at many of a
    game's steps (a switch value is hashable, as the ruleset that holds it).
    """
    rule = switch_rules().get(switch, "GAME.END")
    return _key(rule, f"under {switch} = {switch_value(value)}")


def catalogue(scope: Scope) -> tuple[str, ...]:
    """Every condition a run of this scope can reach, as ``RULE.ID: words`` keys."""
    players = playable(scope)
    out = [count_condition(n) for n in players]
    out += [size_condition(n) for n in players]
    out += [c.key for c in CONDITIONS if c.needs(scope)]
    directions: dict[str, None] = {}
    for cycle in scope.values.get("pass_cycle", ()):
        for d in cycle:
            directions.setdefault(str(d))
    out += [direction_condition(d) for d in directions]
    moot = moot_switches(list(scope.values.get("pass_cycle", ())))
    for name, values in scope.values.items():
        if name not in moot:
            out += [value_condition(name, v) for v in values]
    return tuple(dict.fromkeys(out))


#: The conditions aimed at with deals a deal constraint excludes (``spec/deal.md``,
#: section 8), by the constraint's ID: a hand holding only hearts and Q♠ as dealt, both 2♣
#: among the extras. A pass may still bring one about; a run that met none says the
#: constraint left it untested.
CONSTRAINED = {
    "two-of-clubs-apart": (),
    "two-of-clubs-dealt": (_key("LEAD.OPENING_LEADER", LEADER_NO_TWO),),
    "no-hand-of-only-points": (_key("LEAD.OPENING_CARD", OPEN_ONLY_POINTS),
                               _key("FOLLOW.FIRST_TRICK", FIRST_ONLY_POINTS)),
}


def constrained(constraints: Sequence[str]) -> tuple[str, ...]:
    """The conditions whose deals the declared deal ``constraints`` exclude, in their order."""
    return tuple(dict.fromkeys(k for c in constraints for k in CONSTRAINED.get(c, ())))


def impossible(scope: Scope) -> tuple[str, ...]:
    """The conditions of the rules that the run's declared rules make impossible.

    The conditions :func:`catalogue` leaves out for ``scope`` (a 2♣ opening
    under rulesets that open left of the dealer, a pass where nobody passes):
    a report lists them apart from the conditions it could reach and did not.
    """
    refused = [n for n in scope.players if n not in playable(scope)]
    return (*(count_condition(n) for n in refused), *(size_condition(n) for n in refused),
            *(c.key for c in CONDITIONS if not c.needs(scope)))


def playable(scope: Scope) -> tuple[int, ...]:
    """The player counts of ``scope`` that some ruleset of it plays (``min_players``)."""
    least = min((int(m) for m in scope.values.get("min_players", ())), default=0)
    return tuple(n for n in scope.players if n >= least)


def ruleset_values(ruleset: Ruleset) -> dict[str, list[Any]]:
    """The scope values of a run with one fixed ruleset."""
    return {name: [getattr(ruleset, name)] for name in ruleset.to_dict()}


#: What joins a condition to a switch value in the key of a pair (:mod:`.pairs`).
PAIR_JOIN = ", under "


def is_pair(key: str) -> bool:
    """True if ``key`` is a pair's (:mod:`.pairs`: a condition met under a switch value)."""
    return PAIR_JOIN in key


def summary(counts: Counter[str], reachable: Sequence[str]
            ) -> tuple[dict[str, dict[str, int]], list[str]]:
    """The JSON keys ``exercise`` (per rule ID, per condition) and ``never_exercised``.

    ``never_exercised`` holds the conditions the run could reach and did not
    (and the rules with no condition it could reach); what the declared rules
    make impossible is :func:`impossible`'s, listed apart. The pairs the run
    met (:mod:`.pairs`) are the search's, not conditions: they are left out.
    """
    exercise: dict[str, dict[str, int]] = {rule: {} for rule in rule_ids()}
    for key in list(reachable) + [k for k in counts if k not in reachable
                                  and not is_pair(k)]:
        rule, words = key.split(": ", 1)
        exercise.setdefault(rule, {})[words] = counts.get(key, 0)
    never = [key for key in reachable if not counts.get(key)]
    never += [rule for rule, conds in exercise.items() if not conds]
    return exercise, never
