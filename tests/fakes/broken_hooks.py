"""The hooks of a broken adapter: refusals, silent acceptances, rewritten observations.

:class:`Broken` is the reference adapter with :class:`Hooks`: an action the
engine refuses (citing a rule), an illegal one it takes without changing
anything, an action it changes before applying it, a step it takes by
itself, an observation it reports its own way. The bugs of
:mod:`tests.fakes.broken_adapters_more` are made of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules_ref.actions import Action
from rules_ref.errors import RulesRefError
from rules_ref.jsonio.serialize import action_from_json
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.state import GameState

#: A hook that refuses an action: the rule it cites, or None to let it through.
Refusal = Callable[[GameState, Action], str | None]
#: A hook that takes an illegal action as if it were legal, changing nothing.
Ignore = Callable[[GameState, Action], bool]
#: A hook that rewrites an observation of a state.
Rewrite = Callable[["Broken", GameState, dict[str, Any]], None]
#: A hook that changes the state after an action (a step the engine takes by itself).
Step = Callable[[GameState], GameState]
#: A hook that changes an action before the engine applies it.
Change = Callable[[GameState, Action], Action]


@dataclass
class Hooks:
    refuse: list[Refusal] = field(default_factory=list)
    ignore: list[Ignore] = field(default_factory=list)
    rewrite: list[Rewrite] = field(default_factory=list)
    step: list[Step] = field(default_factory=list)
    change: list[Change] = field(default_factory=list)

    def add(self, other: Hooks) -> None:
        for name in ("refuse", "ignore", "rewrite", "step", "change"):
            getattr(self, name).extend(getattr(other, name))


class Broken(ReferenceAdapter):
    """The reference adapter with :class:`Hooks`: refusals, silent acceptances, rewrites."""

    hooks = Hooks()

    def __init__(self) -> None:
        super().__init__()
        #: What this engine's totals differ by from the rules' (its own scoring).
        self.offset: list[int] | None = None

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.offset = None
        return super().start(msg)

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        state = self.state
        if state is None:
            return super().act(msg)
        try:
            action = action_from_json(msg.get("action"))
        except RulesRefError:
            return super().act(msg)
        for refuse in self.hooks.refuse:
            rule = refuse(state, action)
            if rule is not None:
                return {"type": "rejected", "rule": rule, "reason": "not allowed here"}
        if state.violations(action) and any(ok(state, action) for ok in self.hooks.ignore):
            return {"type": "observation", **self.observe(state)}
        for change in self.hooks.change:
            action = change(state, action)
        try:
            after, _ = state.apply(action)
        except RulesRefError:
            return super().act(msg)
        for step in self.hooks.step:
            after = step(after)
        self.state = after
        return {"type": "observation", **self.observe(after)}

    def observe(self, state: GameState) -> dict[str, Any]:
        obs = dict(super().observe(state))
        for rewrite in self.hooks.rewrite:
            rewrite(self, state, obs)
        if self.offset is not None:
            obs["totals"] = [t + o for t, o in zip(obs["totals"], self.offset, strict=True)]
        return obs
