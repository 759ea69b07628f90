"""Which switch values might explain a difference: the values ``rules-ref fit`` tries.

A difference of a conformance run (one facet of a finding: its rule, its
words, the switch the kit names as deciding the rule there) *points at* a
switch: the one it names, else every switch of its rule
(``spec/rules.toml``). Its *alternatives* are the values
``spec/variants.toml`` publishes for those switches, other than the value
the ruleset under test holds. :func:`alternatives` is the one place that
says which values are worth a run; everything else in :mod:`rules_ref.fit`
only counts and compares.

>>> from rules_ref.ruleset import DEFAULT
>>> [str(v) for _, v in alternatives(Difference("MOON.CHOICE", "scores a moon at once", "moon"),
...                              DEFAULT)]
['others-52', 'others-104']
>>> alternatives(Difference("GAME.WINNER", "names one winner", None), DEFAULT)
[]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesRefError
from ..findings.alternatives import switch_alternatives
from ..registry import rule as registry_rule
from ..ruleset import Ruleset


@dataclass(frozen=True)
class Difference:
    """One behaviour in which an implementation differs from the reference: a facet of a
    finding (its rule, its words, and the switch the kit names as deciding the rule there).

    Two differences are the same behaviour when their rule and words are: the switch named
    may change from one occurrence to the next (a pass that holds a 2♣ or not).
    """

    rule: str | None
    words: str
    switch: str | None = field(compare=False)

    @property
    def key(self) -> str:
        """The difference as a report names it: ``RULE: words``."""
        return f"{self.rule}: {self.words}" if self.rule else self.words


def switches_of(difference: Difference) -> tuple[str, ...]:
    """The switches ``difference`` points at: the one it names, else its rule's (none for a
    rule no switch changes, or an adapter fault)."""
    if difference.switch:
        return (difference.switch,)
    if difference.rule is None:
        return ()
    try:
        return registry_rule(difference.rule).switches
    except (KeyError, RulesRefError):
        return ()


def alternatives(difference: Difference, ruleset: Ruleset) -> list[tuple[str, Any]]:
    """The switch values to try for ``difference`` under ``ruleset``: the alternatives of the
    catalogue the findings are named by
    (:func:`~rules_ref.findings.alternatives.switch_alternatives`, every value
    ``spec/variants.toml`` publishes) for a switch it points at
    (:func:`switches_of`), in the file's order, except the one ``ruleset`` holds."""
    out = []
    for switch in switches_of(difference):
        here = getattr(ruleset, switch)
        out += [(switch, value) for value in published(switch) if value != here]
    return out


def published(switch: str) -> list[Any]:
    """The values ``spec/variants.toml`` publishes for ``switch``, as a ruleset holds them,
    in the file's order (a switch's values are listed from the plainest).

    >>> [str(v) for v in published("opening_lead")]
    ['left-of-dealer', 'left-of-dealer-no-scoring', 'two-of-clubs', 'two-of-clubs-dealt']
    """
    return [getattr(Ruleset.from_dict({switch: _json(alt.value)}, switch), switch)
            for alt in switch_alternatives() if alt.switch == switch]


def _json(value: Any) -> Any:
    """A catalogue's value in its JSON form (its steps, a tuple there, as a list)."""
    return list(value) if isinstance(value, tuple) else value
