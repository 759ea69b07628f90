"""A case's expected figures under another ruleset: the same game, scored by other rules.

A switch such as ``ten_of_diamonds_points`` or ``target`` often changes only
the figures a case expects, not its game: every action the case sends is
accepted (or rejected, citing the same rules) alike, and its observations
differ only in the points, scores, totals and winners they show. Under such a
switch value the case still tests its moment, with other figures.
:func:`rescored` builds that case: it replays the case's actions through the
reference under the ruleset given and takes the reference's figures as the
expected ones (``spec/vectors/README.md``, "Re-scoring"). A case whose game
differs in anything else (an action accepted or rejected otherwise, another
phase, another seat to act, another legal list, a perft count) is not
re-scored: ``None``.

A re-scored case tests the switch value it was re-scored under, since by
construction the reference's figures differ under the case's own value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RulesRefError
from ..jsonio.serialize import action_from_json
from ..protocol.observation import observe
from ..protocol.start import requested_state
from .files import Case
from .requirements import rejected_rules

Json = Any

#: The observation fields a switch may change while the game stays the same.
FIGURES = ("points", "deal_scores", "totals", "winners", "hearts_broken")


def rescored(case: Case, ruleset: Mapping[str, Json]) -> Case | None:
    """``case`` under ``ruleset`` (its JSON form), with the reference's figures expected.

    ``None`` when the game differs under ``ruleset`` in more than its
    figures (see the module), or when no figure differs (the case holds as it
    is: nothing to re-score). The ``facts`` of a re-scored case are left out:
    they are the figures of the case's own ruleset, and no runner compares them.
    """
    if case.get("depth") is not None or "steps" not in case:
        return None
    rs = dict(ruleset)
    start = {**case["start"], "ruleset": rs}
    steps: list[Json] = []
    changed = False
    try:
        state = requested_state(start)
        for action in case["prefix"]:
            state, _ = state.apply(action_from_json(action))
        for step in case["steps"]:
            action, expect = step["action"], step.get("expect")
            if expect is not None and "rejected" in expect:
                if rejected_rules(state, action) != expect["rejected"]["rules"]:
                    return None
                steps.append(step)
                continue
            if action is not None:
                state, _ = state.apply(action_from_json(action))
            if expect is None:
                steps.append(step)
                continue
            seen = observe(state)
            wanted = dict(expect["observation"])
            for name, value in expect["observation"].items():
                if seen.get(name) == value:
                    continue
                if name not in FIGURES:
                    return None
                wanted[name] = seen.get(name)
                changed = True
            steps.append({**step, "expect": {"observation": wanted}})
    except RulesRefError:
        return None
    if not changed:
        return None
    out = {k: v for k, v in case.items() if k != "facts"}
    return {**out, "ruleset": rs, "start": start, "steps": steps}
