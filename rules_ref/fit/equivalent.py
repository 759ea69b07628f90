"""Switch values no game tells apart: which of them ``rules-ref fit`` names.

Under some values of the other switches, two values of a switch play the
same games: with ``pass_forbidden = two-of-clubs`` nobody passes a 2♣, so
the first seat that holds one after the exchange (``opening_lead =
two-of-clubs``) is the first that was dealt one (``two-of-clubs-dealt``).
The games of an implementation cannot say which of the two it plays, and
``fit`` does not pick one silently: it names both.

Two rulesets *play the same games* (:func:`same_games`) when the reference
playing the one agrees, on every answer of a ``conform`` search, with the
reference told the other: the search's games (ten times ``--examples`` of
them, from ``--seed``) are aimed at every condition the rules name, at the
implementation's player counts, on the deals it makes. That is a property
of the rules alone, checked without the implementation, and as far as those
games go: a difference on a path they never meet stays unseen.

:func:`settle` goes through the switches set to another value than the one
told, in the order of ``spec/variants.toml``; for each, the values it
publishes (other than the one told) that play the same games as the value
found, under the values settled so far, are its *equivalents*. Of a value
and its equivalents, ``fit`` names the one the *nearest preset* plays (the
preset of ``spec/variants.toml`` that agrees with the ruleset found on the
most switches, the first listed of those equally near), so that a ruleset
the games cannot tell from a preset is named as the preset; else the one
``spec/variants.toml`` lists first (a switch's values are listed from the
plainest). The others are named beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from ..conform.outcome import Config
from ..conform.runner import Runner
from ..protocol.handshake import Supports
from ..protocol.in_process import in_process
from ..protocol.reference_adapter import UNANSWERABLE, ReferenceAdapter
from ..ruleset import Ruleset, presets
from .candidates import published


class _Reference(ReferenceAdapter):
    """The reference, at the implementation's player counts and deals (its hello's), every
    value of every switch declared."""

    def __init__(self, supports: Supports) -> None:
        super().__init__()
        self.players = list(supports.players)
        self.deal_constraints = list(supports.deal_constraints)

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = super().hello(request)
        answer["supports"]["players"] = self.players
        if self.deal_constraints:
            answer["supports"]["deal_constraints"] = self.deal_constraints
        return answer


#: The games of a check, for each game a trial plays: a difference of a rare path (a moon)
#: needs many more games than one the search meets at once, and the reference plays fast.
GAMES_PER_TRIAL_GAME = 10


def check_games(config: Config) -> int:
    """The games :func:`same_games` plays: :data:`GAMES_PER_TRIAL_GAME` for each game of a
    trial (``--examples``)."""
    return GAMES_PER_TRIAL_GAME * (config.examples or 1)


def same_games(one: Ruleset, other: Ruleset, config: Config, supports: Supports) -> bool:
    """Do ``one`` and ``other`` play the same games: does the reference under ``one`` agree
    with the reference told ``other`` on every answer of a search (:func:`check_games` games
    from ``config``'s seed, at the player counts and deals of ``supports``)?"""
    if one == other:
        return True
    check = replace(config, command=["rules-ref reference adapter"], ruleset=one, told=other,
                    examples=check_games(config),
                    refused_tables=False, jobs=1, first=True,
                    connect=in_process(lambda: _Reference(supports), UNANSWERABLE))
    runner = Runner(check)
    try:
        runner.connect()
        outcome = runner.search()
    finally:
        runner.close()
    found = outcome.findings
    starts = outcome.starts
    return (outcome.stats.actions > 0 and found is not None and not found.classes
            and (starts is None or not starts.classes) and outcome.fault is None)


def nearest_preset(found: Ruleset) -> Ruleset:
    """The preset of ``spec/variants.toml`` that agrees with ``found`` on the most switches
    (the first listed of those equally near).

    >>> from rules_ref.ruleset import presets
    >>> nearest_preset(Ruleset.from_dict({"pass_cycle": ["hold"], "target": 100})) == (
    ...     presets()["bicycle"])
    True
    """
    def agreeing(preset: Ruleset) -> int:
        return sum(getattr(preset, f.name) == getattr(found, f.name) for f in fields(Ruleset))

    return max(presets().values(), key=agreeing)


def settle(found: Ruleset, told: Ruleset,
           same: Callable[[Ruleset, Ruleset], bool]) -> tuple[Ruleset, dict[str, list[Any]]]:
    """The ruleset to name for ``found`` (each switch it sets apart from ``told`` at the
    value the nearest preset plays, else the first ``spec/variants.toml`` lists, of those
    that play the same games, ``same``), and for each such switch the other values that
    play the same games as the one named.

    >>> from rules_ref.ruleset import PassDirection
    >>> found = Ruleset.from_dict({"opening_lead": "two-of-clubs-dealt",
    ...                            "pass_forbidden": "two-of-clubs"})
    >>> def same(a, b):  # nobody passes a 2♣: the two leads are one
    ...     return {a.opening_lead.value, b.opening_lead.value} <= {
    ...         "two-of-clubs", "two-of-clubs-dealt"} and a.pass_forbidden == b.pass_forbidden
    >>> named, others = settle(found, Ruleset(), same)
    >>> str(named.opening_lead), {k: [str(v) for v in vs] for k, vs in others.items()}
    ('two-of-clubs', {'opening_lead': ['two-of-clubs-dealt']})
    """
    current = found
    near = nearest_preset(found)
    equivalents: dict[str, list[Any]] = {}
    for f in fields(Ruleset):
        switch = f.name
        value, asked = getattr(found, switch), getattr(told, switch)
        if value == asked:
            continue
        values = published(switch)
        alike = [v for v in values if v not in (value, asked)
                 and same(replace(current, **{switch: v}), current)]
        group = [value, *alike]
        preset = getattr(near, switch)
        kept = preset if preset in group else min(
            group, key=lambda v: values.index(v) if v in values else len(values))
        if kept != value:
            current = replace(current, **{switch: kept})
        others = [v for v in group if v != kept]
        if others:
            equivalents[switch] = others
    return current, equivalents
