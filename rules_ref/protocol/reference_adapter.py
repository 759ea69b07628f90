"""The reference adapter: the reference engine behind ``spec/protocol.md``.

Run it as ``rules-ref adapter``, or as ``python -m rules_ref.protocol.reference_adapter``
without the command line's start-up. It answers every
request from the reference engine, so ``rules-ref conform`` and
``rules-ref vectors run`` against it must pass; broken variants of it (in
the tests) show that they fail when a rule is broken. It reads each
``start`` with :mod:`.start`.

It speaks protocol version 2 with every capability
(:data:`~rules_ref.protocol.messages.CAPABILITIES`) when the runner offers it.
``--protocol 1`` (or the environment variable ``RULES_REF_ADAPTER_PROTOCOL=1``)
makes it a version-1 adapter, exactly as version 1 describes one, so that the
tests can show that version-1 adapters still pass. ``--ruleset JSON`` makes it
a correct engine of that one ruleset (:func:`engine_supports`): what an
implementation of one set of rules would declare.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Callable
from typing import IO, Any

from ..actions import Action, Play
from ..cards import CARDS
from ..deal import FEWEST_PLAYERS, MAX_PLAYERS
from ..errors import IllegalAction, RulesRefError
from ..jsonio.nesting import nests_deeper
from ..jsonio.serialize import action_from_json
from ..passing import check_table
from ..ruleset import DEFAULT, Ruleset
from ..state import GameState
from .messages import CAPABILITIES, MAX_DEPTH, SWITCHES
from .observation import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    PROTOCOL_VERSIONS,
    changes_between,
    observe,
    observe_change,
)
from .start import position_state, start_state

Observer = Callable[[GameState], dict[str, Any]]

#: What :meth:`ReferenceAdapter.answer` raises for a line it cannot answer; the adapter
#: program says so on standard error and exits with status 2.
UNANSWERABLE = (ValueError, KeyError, TypeError, AttributeError, RulesRefError)
#: The environment variable that makes the reference adapter speak version 1 only.
PROTOCOL_ENV = "RULES_REF_ADAPTER_PROTOCOL"


_CARD_OF_TEXT = {str(c): c for c in CARDS}


def _action(data: object) -> Action:
    """An action from its JSON: a well-formed play at once, anything else checked in full."""
    if type(data) is dict and len(data) == 3 and data.get("type") == "play":
        seat, card = data.get("seat"), _CARD_OF_TEXT.get(data.get("card"))  # type: ignore[arg-type]
        if type(seat) is int and 0 <= seat <= 10 and card is not None:
            return Play(seat, card)
    return action_from_json(data, "action")


class ReferenceAdapter:
    """Answers protocol requests; subclasses in the tests break one rule each.

    ``protocol`` is the newest version it may speak (1 or 2); the version
    spoken is agreed in the ``hello``.
    """

    name = "rules-ref reference adapter"

    def __init__(self, protocol: int = PROTOCOL_VERSION,
                 ruleset: Ruleset | None = None) -> None:
        self.state: GameState | None = None
        self.protocol = protocol
        #: The one ruleset it declares, as a correct engine of that ruleset would; ``None``:
        #: every value of every switch.
        self.ruleset = ruleset
        self.version = 1
        #: The last observation sent (its fields): what a ``changes`` answer changes.
        self.sent: dict[str, Any] | None = None
        #: The last state observed and its observation (:meth:`observe_step`).
        self._observed: tuple[GameState, dict[str, Any]] | None = None

    def hello(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        offered = (request or {}).get("versions", list(PROTOCOL_VERSIONS))
        speak = [v for v in PROTOCOL_VERSIONS
                 if v <= self.protocol and isinstance(offered, list) and v in offered]
        self.version = max(speak, default=1)
        answer: dict[str, Any] = {
            "type": "hello", "protocol": PROTOCOL_NAME, "version": self.version,
            "name": self.name,
            "supports": {"players": list(range(FEWEST_PLAYERS, MAX_PLAYERS + 1)),
                         "switches": dict.fromkeys(SWITCHES, "any")}
            if self.ruleset is None else engine_supports(self.ruleset)}
        if self.version >= 2:
            answer["capabilities"] = list(CAPABILITIES)
        return answer

    def observe(self, state: GameState) -> dict[str, Any]:
        """The observation of ``state``, made whole."""
        obs = observe(state)
        self._observed = (state, obs)
        return obs

    def observe_step(self, before: GameState, after: GameState) -> dict[str, Any]:
        """The observation of ``after``, one step after ``before``: made from the last one
        made when that was ``before``'s (:func:`.observation.observe_change`), else whole."""
        last = self._observed
        if last is None or last[0] is not before:
            return self.observe(after)
        obs, _ = observe_change(last[1], before, after)
        self._observed = (after, obs)
        return obs

    def start(self, msg: dict[str, Any]) -> dict[str, Any]:
        from_position = self.version >= 2 and "position" in msg
        try:
            self.state = position_state(msg) if from_position else start_state(msg)
        except RulesRefError as exc:
            self.state = None
            what = "start from this position" if from_position else "start this game"
            rule = getattr(exc, "rule_id", None)
            return {"type": "rejected", **({"rule": rule} if rule else {}),
                    "reason": f"cannot {what}: {exc}"}
        return {"type": "observation", **self.observe(self.state)}

    def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        return self.apply(msg.get("action"))

    def apply(self, action_json: object) -> dict[str, Any]:
        """The answer to one action: an observation of the state after it, or a rejection."""
        if self.state is None:
            return {"type": "rejected", "reason": "no game started"}
        before = self.state
        try:
            action = _action(action_json)
            self.state, _ = before.apply(action)
        except IllegalAction as exc:
            return {"type": "rejected", "rule": exc.rule_id, "reason": str(exc)}
        except RulesRefError as exc:
            rule = getattr(exc, "rule_id", None)
            return {"type": "rejected", **({"rule": rule} if rule else {}), "reason": str(exc)}
        return {"type": "observation", **self.observe_step(before, self.state)}

    def batch(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Every action of a batch in order, each exactly as an ``action`` request would be."""
        actions = msg.get("actions")
        if not isinstance(actions, list):
            raise RulesRefError("batch.actions must be a list")
        answers = []
        for index, action in enumerate(actions):
            answer = self.guarded(self.act, {"type": "action", "action": action})
            if answer["type"] == "observation":
                answer = self.changes(answer)
            answers.append({"index": index, **answer})
            if answer["type"] == "error":
                break
        return {"type": "batch", "answers": answers}

    def changes(self, observation: dict[str, Any]) -> dict[str, Any]:
        """An observation as a ``changes`` answer: what differs from the last one sent
        (:func:`.observation.changes_between`)."""
        before, self.sent = self.sent, observation
        if before is None:
            return observation
        return {"type": "changes", **changes_between(before, observation)}

    def current(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``observe``: the observation of the game as it is."""
        if self.state is None:
            return {"type": "error", "message": "observe before any start: no game to observe"}
        return {"type": "observation", **self.observe(self.state)}

    def guarded(self, answer: Callable[[Any], dict[str, Any]], msg: Any) -> dict[str, Any]:
        """``answer(msg)``; in version 2 an internal failure becomes an ``error`` answer."""
        if self.version < 2:
            return answer(msg)
        try:
            return answer(msg)
        except Exception as exc:  # the engine failed: say so, do not die
            return {"type": "error", "message": f"{type(exc).__name__}: {exc}"[:500]}

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        answer = self._handle(msg)
        if answer["type"] == "observation":
            self.sent = answer
        elif answer["type"] == "error":
            self.sent = None
        return answer

    def _handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg.get("type")
        if kind == "action":
            return self.guarded(self.act, msg)
        if kind == "start":
            return self.guarded(self.start, msg)
        if kind == "hello":
            return self.hello(msg)
        if kind == "bye":
            return {"type": "bye"}
        if self.version >= 2 and kind == "batch":
            return self.batch(msg)
        if self.version >= 2 and kind == "observe":
            return self.guarded(self.current, msg)
        raise RulesRefError(f"unknown request type {kind!r}")

    def answer(self, line: str) -> dict[str, Any]:
        """The answer to one request line, with the request's ``id``; raises one of
        :data:`UNANSWERABLE` for a line that is no request it can answer."""
        if nests_deeper(line, MAX_DEPTH):
            raise ValueError(f"lists or objects nest more than {MAX_DEPTH} deep")
        msg = json.loads(line)
        return {"id": msg.get("id"), **self.handle(msg)}

    def serve(self, stdin: IO[str], stdout: IO[str]) -> int:
        gc.freeze()  # the modules loaded so far: never garbage
        gc.set_threshold(20_000, *gc.get_threshold()[1:])  # few cycles, many small objects
        dumps = json.JSONEncoder(separators=(",", ":")).encode
        for line in stdin:
            try:
                answer = self.answer(line)
            except UNANSWERABLE as exc:
                print(f"adapter: cannot answer {line[:200]!r}: {exc}", file=sys.stderr)
                return 2
            stdout.write(dumps(answer) + "\n")
            stdout.flush()
            if answer["type"] == "bye":
                return 0
        return 0


def engine_supports(ruleset: Ruleset) -> dict[str, Any]:
    """What a correct engine of ``ruleset`` alone declares: the player counts the ruleset plays
    (from ``min_players`` to 11, each one its pass cycle allows) and each switch it sets to
    a value other than the default, at that value (the others at their defaults).

    >>> engine_supports(Ruleset.from_dict({"pass_cycle": ["hold"]}))
    {'players': [6, 7, 8, 9, 10, 11], 'switches': {'pass_cycle': [['hold']]}}
    """
    default = DEFAULT.to_dict()
    players = []
    for n in range(ruleset.min_players, MAX_PLAYERS + 1):
        try:
            check_table(ruleset, n)
        except RulesRefError:
            continue
        players.append(n)
    return {"players": players,
            "switches": {k: [v] for k, v in ruleset.to_dict().items() if v != default[k]}}


def _options(argv: list[str]) -> dict[str, str]:
    """``--protocol N`` and ``--ruleset JSON``, each at most once, from ``argv``."""
    usage = (f"usage: rules-ref adapter [--protocol {'|'.join(map(str, PROTOCOL_VERSIONS))}] "
             "[--ruleset JSON]")
    if len(argv) % 2 or any(a not in ("--protocol", "--ruleset") for a in argv[::2]) \
            or len(set(argv[::2])) != len(argv[::2]):
        raise SystemExit(usage)
    return dict(zip(argv[::2], argv[1::2], strict=True))


def ruleset_from(argv: list[str]) -> Ruleset | None:
    """The one ruleset to declare (``--ruleset JSON``), or ``None`` for every value."""
    text = _options(argv).get("--ruleset")
    if text is None:
        return None
    try:
        return Ruleset.from_dict(json.loads(text), "--ruleset")
    except (ValueError, RulesRefError) as exc:
        raise SystemExit(f"adapter: {exc}") from None


def protocol_from(argv: list[str], environ: dict[str, str] | os._Environ[str]) -> int:
    """The newest protocol version to speak: ``--protocol N`` or ``RULES_REF_ADAPTER_PROTOCOL``."""
    value = _options(argv).get("--protocol", environ.get(PROTOCOL_ENV, str(PROTOCOL_VERSION)))
    if value not in tuple(map(str, PROTOCOL_VERSIONS)):
        raise SystemExit(f"adapter: protocol version {value!r} is not one of "
                         f"{', '.join(map(str, PROTOCOL_VERSIONS))}")
    return int(value)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    protocol = protocol_from(args, os.environ)
    return ReferenceAdapter(protocol, ruleset_from(args)).serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
