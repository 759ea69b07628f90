"""Faults of an engine, each a small named thing with its ground truth, and their injection.

A :class:`Fault` is one way a wrong engine differs from the reference, and
carries the rule IDs it changes (:attr:`Fault.rules`): the rules a
conformance run must name to have found it. There are four kinds:

* ``operator``: a mutant of a rule module (:mod:`tools.mutation.operators`),
  one the single-mutant campaign saw conform catch; its rules are its
  function's (``@implements``, else its callers'). It is injected by writing
  the mutated module into a copy of the package the adapter imports.
* ``switch``: the engine declares only the default value of a switch and
  plays another published value of it (``spec/variants.toml``); its rules
  are the switch's. Injected by the adapter (:mod:`tools.mutation.fault_adapter`),
  which rewrites the ruleset of every ``start`` it is sent.
* ``card``: one card behaves differently: a pair of it does not cancel, it
  ranks above the ace or below the 2, it scores a point more or less, it
  does not break hearts.
* ``phase``: a phase skipped or refused, or a crash at a given moment: no
  passing, every pass refused, a moon scored without the shooter's choice, an
  internal error when both 2♣ (or one) lie among the extras, when a trick
  is void, when the last trick is void, when a moon is shot, when the two
  Q♠ cancel.

Card and phase faults are *patches*: a named function of the engine
(:data:`PATCHES`) is replaced, wherever the package binds it, by one that
calls it and changes its answer for one card or one moment.
:func:`injected` applies them and puts everything back on exit.

:func:`catalogue` lists every switch, card and phase fault (every published
switch value, every card), :func:`operator_faults` the operator faults, and
:func:`draw` draws ``k`` of them at once, seeded, from different rules.
"""

from __future__ import annotations

import random
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

KINDS = ("operator", "switch", "card", "phase")


@dataclass(frozen=True, slots=True)
class Fault:
    """One difference from the reference: its kind, a stable name, its rules and words.

    ``patch`` and ``card`` name a patch of :data:`PATCHES` and the card it
    concerns (card and phase faults); ``switch`` and ``value`` the switch
    played at another value (its JSON form); ``module`` and ``source`` the
    mutated module of an operator fault.
    """

    kind: str
    name: str
    rules: tuple[str, ...]
    what: str
    patch: str = ""
    card: str = ""
    switch: str = ""
    value: Any = None
    module: str = ""
    source: str = ""

    @property
    def family(self) -> str:
        """The fault without its card or value: ``card:no-cancel``, ``switch:moon``,
        ``operator:rules_ref/tricks.py``, ``phase:no-passing``."""
        if self.kind == "operator":
            return f"operator:{self.module}"
        if self.kind == "switch":
            return f"switch:{self.switch}"
        return f"{self.kind}:{self.patch}"

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Fault:
        return Fault(**{**data, "rules": tuple(data["rules"])})


# --- the patches: card and phase faults ---------------------------------------------------

#: A patch: given the fault's card (text, may be empty), the engine functions it replaces,
#: as ``(module, name) -> make`` where ``make(current)`` returns the replacement of the
#: function ``current`` (what the package binds under that name when the patch is applied).
Patch = Callable[[str], dict[tuple[str, str], Callable[[Any], Any]]]


class InjectedCrash(RuntimeError):
    """The internal error of a crash fault."""


def _card(text: str) -> Any:
    from rules_ref.cards import parse_card
    return parse_card(text)


def _no_cancel(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    c = _card(text)

    def make(current: Any) -> Any:
        def cancelled_cards(cards: Sequence[Any]) -> frozenset[Any]:
            return frozenset(current(cards) - {c})
        return cancelled_cards
    return {("rules_ref.tricks", "cancelled_cards"): make}


def _ranked(text: str, high: bool) -> dict[tuple[str, str], Callable[[Any], Any]]:
    c = _card(text)
    moved = 15 if high else 1

    def make(current: Any) -> Any:
        from rules_ref import tricks

        def winning_position(cards: Sequence[Any], cancelled: frozenset[Any] | None = None
                             ) -> int | None:
            suit = cards[0].suit
            gone = tricks.cancelled_cards(cards) if cancelled is None else cancelled
            best: int | None = None
            top = 0
            for i, x in enumerate(cards):
                rank = moved if x == c else x.rank
                if x.suit == suit and x not in gone and (best is None or rank > top):
                    best, top = i, rank
            return best
        return winning_position
    return {("rules_ref.tricks", "winning_position"): make}


def _points(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    from rules_ref.cards import is_penalty
    c = _card(text)
    delta = -1 if is_penalty(c) else 1

    def make(current: Any) -> Any:
        def card_points(cards: Sequence[Any], ruleset: Any) -> int:
            cards = tuple(cards)
            return int(current(cards, ruleset)) + delta * cards.count(c)
        return card_points
    return {("rules_ref.scoring", "card_points"): make}


def _no_break(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    c = _card(text)

    def make(current: Any) -> Any:
        def breaks_hearts(card: Any, led_suit: Any, ruleset: Any) -> bool:
            return False if card == c else bool(current(card, led_suit, ruleset))
        return breaks_hearts
    return {("rules_ref.leading", "breaks_hearts"): make}


def _no_passing(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    def make(current: Any) -> Any:
        def pass_offset(direction: Any, players: int) -> int | None:
            return None
        return pass_offset
    return {("rules_ref.passing", "pass_offset"): make}


def _pass_refused(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    def make(current: Any) -> Any:
        def may_pass(given: Any) -> bool:
            return False
        return may_pass
    return {("rules_ref.passing", "may_pass"): make}


def _no_moon_choice(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    from rules_ref.actions import MoonChoice

    def no_choice(current: Any) -> Any:
        def needs_moon_choice(shooter: int | None, ruleset: Any) -> bool:
            return False
        return needs_moon_choice

    def scored(current: Any) -> Any:
        from rules_ref import scoring

        def moon_scores(shooter: int, choice: Any, collected: Any, ruleset: Any) -> Any:
            if choice is None and scoring.moon_options(ruleset):
                choice = MoonChoice.ADD  # the engine scores the moon without asking
            return current(shooter, choice, collected, ruleset)
        return moon_scores
    return {("rules_ref.scoring", "needs_moon_choice"): no_choice,
            ("rules_ref.scoring", "moon_scores"): scored}


def _crash_extras(both: bool) -> Patch:
    def patch(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
        from rules_ref.cards import TWO_OF_CLUBS
        need = 2 if both else 1

        def make(current: Any) -> Any:
            def check_deal(hands: Any, extras: Any, players: int) -> Any:
                if list(extras).count(TWO_OF_CLUBS) >= need:
                    raise InjectedCrash("2C among the extras")
                return current(hands, extras, players)
            return check_deal
        return {("rules_ref.deal", "check_deal"): make}
    return patch


def _crash_void(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    def make(current: Any) -> Any:
        def resolve_trick(cards: Any, leader: int, players: int) -> Any:
            out = current(cards, leader, players)
            if out.winner is None:
                raise InjectedCrash("a void trick")
            return out
        return resolve_trick
    return {("rules_ref.tricks", "resolve_trick"): make}


def _crash_void_last(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    def make(current: Any) -> Any:
        def settle_pending(pending: Any, last: Any, players: int, ruleset: Any) -> Any:
            if last.winner is None:
                raise InjectedCrash("the last trick is void")
            return current(pending, last, players, ruleset)
        return settle_pending
    return {("rules_ref.pending", "settle_pending"): make}


def _crash_moon(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    def make(current: Any) -> Any:
        def moon_shooter(collected: Any) -> int | None:
            shooter: int | None = current(collected)
            if shooter is not None:
                raise InjectedCrash("a moon")
            return shooter
        return moon_shooter
    return {("rules_ref.scoring", "moon_shooter"): make}


def _crash_queens(text: str) -> dict[tuple[str, str], Callable[[Any], Any]]:
    from rules_ref.cards import QUEEN_OF_SPADES

    def make(current: Any) -> Any:
        def cancelled_cards(cards: Sequence[Any]) -> frozenset[Any]:
            gone: frozenset[Any] = current(cards)
            if QUEEN_OF_SPADES in gone:
                raise InjectedCrash("the two Q♠ cancel")
            return gone
        return cancelled_cards
    return {("rules_ref.tricks", "cancelled_cards"): make}


#: Every patch by name: what a card or phase fault changes, and where.
PATCHES: dict[str, Patch] = {
    "no-cancel": _no_cancel,
    "rank-high": lambda text: _ranked(text, True),
    "rank-low": lambda text: _ranked(text, False),
    "points": _points,
    "no-break": _no_break,
    "no-passing": _no_passing,
    "pass-refused": _pass_refused,
    "no-moon-choice": _no_moon_choice,
    "crash-both-2c-extras": _crash_extras(True),
    "crash-2c-extras": _crash_extras(False),
    "crash-void-trick": _crash_void,
    "crash-void-last": _crash_void_last,
    "crash-moon": _crash_moon,
    "crash-queens-cancel": _crash_queens,
}


def _bindings(target: object) -> list[tuple[object, str]]:
    """Every ``(module, name)`` of the package that binds ``target``."""
    found: list[tuple[object, str]] = []
    for mod_name, module in list(sys.modules.items()):
        if mod_name != "rules_ref" and not mod_name.startswith("rules_ref."):
            continue
        for attr, value in list(vars(module).items()):
            if value is target:
                found.append((module, attr))
    return found


@contextmanager
def injected(faults: Sequence[Fault]) -> Iterator[None]:
    """The card and phase faults of ``faults`` applied to the engine, in order; put back
    on exit. Each replaces its function wherever the package binds it (the modules that
    imported it by name too), so the engine calls the replacement everywhere."""
    import importlib
    undo: list[tuple[object, str, object]] = []
    try:
        for fault in faults:
            if not fault.patch:
                continue
            for (mod_name, attr), make in PATCHES[fault.patch](fault.card).items():
                current = getattr(importlib.import_module(mod_name), attr)
                new = make(current)
                for module, name in _bindings(current):
                    undo.append((module, name, current))
                    setattr(module, name, new)
        yield
    finally:
        for module, name, old in reversed(undo):
            setattr(module, name, old)


# --- the catalogue ------------------------------------------------------------------------

#: The card faults: patch, which cards it applies to, its rules, its words.
CARD_FAULTS: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("no-cancel", "every", ("TRICK.CANCEL",), "a pair of {card} does not cancel"),
    ("rank-high", "below-ace", ("DECK.RANKING", "TRICK.WINNER"), "{card} ranks above the ace"),
    ("rank-low", "above-two", ("DECK.RANKING", "TRICK.WINNER"), "{card} ranks below the 2"),
    ("points", "every", ("SCORE.CARD_POINTS",), "{card} scores one point wrong"),
    ("no-break", "penalty", ("HEARTS.BROKEN",), "{card} does not break hearts"),
)
#: The phase faults: patch, its rules, its words.
PHASE_FAULTS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("no-passing", ("PASS.DIRECTION", "PASS.EXCHANGE"), "no deal passes"),
    ("pass-refused", ("PASS.EXCHANGE", "PASS.CARDS"), "every pass is refused"),
    ("no-moon-choice", ("MOON.CHOICE",), "a moon is scored without the shooter's choice"),
    ("crash-both-2c-extras", ("EXTRAS.FIRST_TRICK",),
     "an internal error when both 2♣ lie among the extras"),
    ("crash-2c-extras", ("EXTRAS.FIRST_TRICK",),
     "an internal error when a 2♣ lies among the extras"),
    ("crash-void-trick", ("VOID.TRICK",), "an internal error when a trick is void"),
    ("crash-void-last", ("VOID.LAST",), "an internal error when the last trick is void"),
    ("crash-moon", ("MOON.CONDITION",), "an internal error when a player shoots the moon"),
    ("crash-queens-cancel", ("TRICK.CANCEL",), "an internal error when the two Q♠ cancel"),
)
#: Switch values that are a phase fault already (``pass_cycle = hold`` is no passing).
SWITCH_EXCLUDED = {("pass_cycle", ("hold",))}


def _cards(which: str) -> list[str]:
    from rules_ref.cards import CARDS, is_penalty
    keep: dict[str, Callable[[Any], bool]] = {
        "every": lambda c: True, "below-ace": lambda c: c.rank < 14,
        "above-two": lambda c: c.rank > 2, "penalty": is_penalty}
    return [str(c) for c in CARDS if keep[which](c)]


def switch_faults(variants: Path) -> list[Fault]:
    """A fault for every published value of every switch but its default."""
    data = tomllib.loads(variants.read_text(encoding="utf-8"))
    out = []
    for switch in data["switch"]:
        for entry in switch.get("value", []):
            value = entry["value"]
            frozen = tuple(value) if isinstance(value, list) else value
            if value == switch["default"] or (switch["name"], frozen) in SWITCH_EXCLUDED:
                continue
            shown = ",".join(value) if isinstance(value, list) else str(value)
            out.append(Fault("switch", f"switch:{switch['name']}={shown}",
                             tuple(switch["rules"]),
                             f"declares {switch['name']} = {switch['default']} but plays "
                             f"{shown}", switch=switch["name"], value=value))
    return out


def catalogue(root: Path) -> dict[str, list[Fault]]:
    """Every switch, card and phase fault, by kind (operator faults: :func:`operator_faults`)."""
    cards = [Fault("card", f"card:{patch}:{c}", rules, what.format(card=c), patch=patch, card=c)
             for patch, which, rules, what in CARD_FAULTS for c in _cards(which)]
    phases = [Fault("phase", f"phase:{patch}", rules, what, patch=patch)
              for patch, rules, what in PHASE_FAULTS]
    return {"switch": switch_faults(root / "spec" / "variants.toml"), "card": cards,
            "phase": phases}


def operator_faults(root: Path, kit_power_json: Path) -> list[Fault]:
    """The mutants the single-mutant campaign saw conform catch, whose function has rules,
    still as they are in the source (same key, same change)."""
    import json

    from .campaign import RULE_MODULES, collect
    from .kit_power import helper_rules
    if not kit_power_json.exists():
        return []
    doc = json.loads(kit_power_json.read_text(encoding="utf-8"))
    caught = {e["key"]: e for e in doc["mutants"]
              if e.get("class") == "caught" and e["conform"]["caught"]}
    rules = helper_rules(root)
    out = []
    for m in collect(root, RULE_MODULES):
        entry = caught.get(m.key)
        truth = rules.get(f"{m.module}:{m.unit}", ())
        if entry is None or entry["mutation"] != m.description or not truth:
            continue
        out.append(Fault("operator", f"operator:{m.key}", tuple(truth),
                         f"{m.unit}: {m.description}", module=m.module, source=m.source))
    return out


#: Phase faults no engine can show beside another, whose crash comes at each of their
#: moments: every void last trick is a void trick, every moon to choose is a moon.
MASKED = frozenset({frozenset({"crash-void-last", "crash-void-trick"}),
                    frozenset({"no-moon-choice", "crash-moon"})})


def compatible(fault: Fault, chosen: Sequence[Fault]) -> bool:
    """May ``fault`` join ``chosen``? Not if a rule of it is another's, nor if it mutates a
    module another operator fault mutates (each is the whole module's text), nor if one of
    the two crashes at each moment the other would show (:data:`MASKED`)."""
    for other in chosen:
        if set(fault.rules) & set(other.rules):
            return False
        if fault.module and fault.module == other.module:
            return False
        if frozenset({fault.patch, other.patch}) in MASKED:
            return False
    return True


def draw(population: Mapping[str, Sequence[Fault]], k: int, rng: random.Random,
         kinds: Sequence[str] = KINDS) -> list[Fault]:
    """``k`` faults with pairwise different rules: each a kind drawn at random among
    ``kinds`` (those with any fault), then a fault of that kind; raises ``ValueError`` when
    no such ``k`` exist within a bounded number of tries."""
    usable = [kind for kind in kinds if population.get(kind)]
    if not usable:
        raise ValueError("no faults to draw from")
    chosen: list[Fault] = []
    for _ in range(1000):
        if len(chosen) == k:
            return chosen
        kind = rng.choice(usable)
        fault = rng.choice(list(population[kind]))
        if compatible(fault, chosen):
            chosen.append(fault)
    raise ValueError(f"cannot draw {k} faults with different rules")
