"""Broken implementations that accept one kind of illegal action the runner offers.

Each is the reference adapter with one check missing, as engines have been
seen to miss them: a pass naming a card twice that the seat holds once is
taken (and a 105th card appears), a play is taken while the seats are still
passing. Their legal lists are right, so only the illegal actions that
``rules-ref conform`` offers show the bug.

Run one as an adapter::

    python tests/fakes/illegal_kind_adapters.py double-pass-accepted
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    _tests = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    sys.path.insert(0, os.path.dirname(_tests))

from rules_ref.actions import Action, Pass, Play
from rules_ref.errors import RulesRefError
from rules_ref.jsonio.serialize import action_from_json
from rules_ref.protocol.reference_adapter import ReferenceAdapter
from rules_ref.state import GameState
from rules_ref.state_parts import Phase
from tests.fakes.adapter_script import script_command, serve_chosen

#: Every adapter of this module: name -> the rule the runner must name.
ACCEPTS: dict[str, str] = {
    "double-pass-accepted": "PASS.CARDS",
    "play-while-passing-accepted": "TURN.ORDER",
}


class Accepting(ReferenceAdapter):
    """An engine that answers an action it ``accepts`` wrongly as if it had been played
    (its observation unchanged); every other action as the reference does."""

    def accepts(self, state: GameState, action: Action) -> bool:
        raise NotImplementedError

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        state = self.state
        try:
            action = action_from_json(msg.get("action"))
        except RulesRefError:
            return super().act(msg)
        if state is not None and self.accepts(state, action):
            return {"type": "observation", **self.observe(state)}
        return super().act(msg)


class DoublePassAccepted(Accepting):
    """A pass naming a card more often than the seat holds it is taken as if it were legal."""

    def accepts(self, state: GameState, action: Action) -> bool:
        if not (isinstance(action, Pass) and state.phase is Phase.PASSING
                and 0 <= action.seat < state.players):
            return False
        held = Counter(state.hands[action.seat])
        named = Counter(action.cards)
        return all(c in held for c in named) and any(k > held[c] for c, k in named.items())


class PlayWhilePassingAccepted(Accepting):
    """A play during the passing phase is answered as if it had been played."""

    def accepts(self, state: GameState, action: Action) -> bool:
        return isinstance(action, Play) and state.phase is Phase.PASSING


ADAPTERS: dict[str, type[ReferenceAdapter]] = {
    "double-pass-accepted": DoublePassAccepted,
    "play-while-passing-accepted": PlayWhilePassingAccepted,
}


def command(name: str) -> list[str]:
    """The command that runs adapter ``name``."""
    return script_command(__file__, name)


def _title(name: str) -> str:
    return f"broken adapter {name} ({ACCEPTS[name]})"


def adapter(name: str) -> ReferenceAdapter:
    """Adapter ``name`` itself, named as its command names it."""
    built = ADAPTERS[name]()
    built.name = _title(name)
    return built


if __name__ == "__main__":
    sys.exit(serve_chosen(sys.argv[1:], ADAPTERS, __file__, adapter, _title))
