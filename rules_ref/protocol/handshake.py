"""The handshake, checked: an adapter's ``hello`` answer and what it declares it supports.

:func:`check_hello` checks the answer (protocol name, a version the runner
offered, the fields of that version); :func:`parse_supports` reads the
player counts and switch values the adapter implements into a
:class:`Supports`, and :func:`parse_capabilities` the optional requests
it answers (``spec/protocol.md``). Pure checks, like :mod:`.messages`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..cards import Card
from ..deal import (
    DEAL_CONSTRAINTS,
    FEWEST_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Hands,
    deal_allowed,
)
from ..errors import RulesRefError
from ..ruleset import Ruleset
from ..wording import json_brief
from .messages import (
    CAPABILITIES,
    SWITCHES,
    AdapterFault,
    clipped,
    first_switches,
)
from .observation import PROTOCOL_NAME, PROTOCOL_VERSIONS

#: The fields of a ``hello`` answer, by protocol version.
_HELLO_FIELDS = {1: frozenset(("id", "type", "protocol", "version", "name", "supports")),
                 2: frozenset(("id", "type", "protocol", "version", "name", "supports",
                               "capabilities"))}


def check_hello(answer: dict[str, Any], offered: Sequence[int] = PROTOCOL_VERSIONS
                ) -> dict[str, Any]:
    """Check the ``hello`` answer's fields (``handshake`` faults); return it.

    ``version`` must be one of the versions ``offered``; a version-1 hello has
    exactly the fields of version 1 (no ``capabilities``).
    """
    if answer.get("type") != "hello":
        raise AdapterFault("handshake", f"the answer to hello is of type "
                           f"{json_brief(answer.get('type'))}, not hello")
    if answer.get("protocol") != PROTOCOL_NAME:
        raise AdapterFault("handshake", f"expected a hello of protocol {PROTOCOL_NAME!r}, got "
                           f"{json_brief(answer.get('protocol'))}")
    version = answer.get("version")
    if type(version) is not int or version not in offered:
        raise AdapterFault("handshake", f"adapter speaks protocol version "
                           f"{json_brief(version, 20)}, the runner "
                           f"{' or '.join(map(str, offered))}")
    unknown = sorted(str(k) for k in set(answer) - _HELLO_FIELDS[version])
    if unknown:
        note = " (capabilities need protocol version 2)" if unknown == ["capabilities"] else ""
        raise AdapterFault("handshake", f"unknown field(s) in hello: "
                           f"{clipped(', '.join(unknown))}{note}")
    if not isinstance(answer.get("name"), str):
        raise AdapterFault("handshake", "hello.name must be text (the implementation's name)")
    supports = answer.get("supports")
    if not isinstance(supports, dict) or not isinstance(supports.get("players"), list) \
            or not isinstance(supports.get("switches", {}), dict):
        raise AdapterFault("handshake", 'hello.supports must be {"players": [...], '
                           '"switches": {...}}')
    parse_capabilities(answer)
    return answer


def parse_capabilities(hello: dict[str, Any]) -> tuple[str, ...]:
    """The capabilities a ``hello`` declares, in the order of :data:`CAPABILITIES`."""
    return _names_of(hello.get("capabilities", []), CAPABILITIES, "hello.capabilities",
                     "capability")


def _names_of(declared: object, known: Collection[str], field: str, what: str,
              see: str = "") -> tuple[str, ...]:
    """``declared``, a list of distinct names of the closed list ``known``, in its order;
    anything else is a handshake fault naming ``field`` (a ``what`` it does not know, with
    ``see`` after the known ones)."""
    listed = ", ".join(known)
    if (type(declared) is not list or not all(type(c) is str for c in declared)
            or len(set(declared)) != len(declared)):
        raise AdapterFault("handshake", f"{field} must be a list of distinct names "
                           f"({listed}), got {json_brief(declared, 80)}")
    unknown = [c for c in declared if c not in known]
    if unknown:
        raise AdapterFault("handshake", f"{field}: unknown {what} {json_brief(unknown[0])}; "
                           f"known: {listed}{see}")
    return tuple(c for c in known if c in declared)


@dataclass(frozen=True)
class Supports:
    """An adapter's ``hello``: its name, player counts and switch values."""

    name: str
    players: tuple[int, ...]
    switches: dict[str, Any]
    #: The protocol version the adapter speaks.
    version: int = 1
    #: The optional capabilities it declared (version 2), in the order of :data:`CAPABILITIES`.
    capabilities: tuple[str, ...] = field(default=())
    #: The deals it never makes (IDs of :data:`rules_ref.deal.DEAL_CONSTRAINTS`), in that order.
    deal_constraints: tuple[str, ...] = field(default=())

    def deals(self, hands: Hands, extras: Sequence[Card]) -> bool:
        """May the adapter be sent this deal, under the constraints it declared?"""
        return deal_allowed(hands, extras, self.deal_constraints)

    def can(self, capability: str) -> bool:
        """True if the adapter declared ``capability`` in its hello."""
        return capability in self.capabilities

    def allows(self, ruleset: Ruleset) -> list[str]:
        """The switches of ``ruleset`` outside what the adapter supports.

        A switch the adapter leaves out is supported at its default value
        only; a listed switch at the listed values only.
        """
        return unsupported_switches(ruleset, self.switches)


def unsupported_switches(ruleset: Ruleset, switches: Mapping[str, Any]) -> list[str]:
    """The switches of ``ruleset`` outside ``switches`` (a ``hello.supports.switches``), as
    ``name=value``; empty when the ruleset is supported.

    The one definition of "supported": a switch declared ``"any"`` is
    supported at every value; a switch left out at its default value only;
    a listed switch at the listed values only (its default included only
    if listed).
    """
    default = Ruleset()
    out = []
    for f in fields(Ruleset):
        value = getattr(ruleset, f.name)
        declared = switches.get(f.name)
        if declared == "any":
            continue
        if declared is None:
            allowed = [getattr(default, f.name)]
        else:
            allowed = switch_values(f.name, declared)
        if value not in allowed:
            shown = ruleset.to_dict()[f.name]
            text = ",".join(shown) if isinstance(shown, list) else str(shown)
            out.append(f"{f.name}={text}")
    return out


def ruleset_for(ruleset: Mapping[str, Any], switches: Mapping[str, Any]) -> dict[str, Any]:
    """A ``start`` message's ruleset as sent to an adapter that declared ``switches``.

    It names every switch of the protocol's first version
    (:func:`.messages.first_switches`) and each later switch the adapter
    declared; a later switch it did not declare is left out when it is at its
    default (``spec/protocol.md``, ``start``), so an adapter written before
    that switch existed never meets it. A later switch at another value is
    kept: the runner sends no such game, and the adapter should refuse it.
    """
    first = first_switches()
    changed = Ruleset.changed_in(ruleset)
    return {name: value for name, value in ruleset.items()
            if name in first or name in switches or name in changed}


def switch_values(name: str, declared: list[Any]) -> list[Any]:
    """The values a ``supports.switches`` entry lists, as the ruleset holds them."""
    out = []
    for i, value in enumerate(declared):
        try:
            out.append(getattr(Ruleset.from_dict({name: value}, "-"), name))
        except RulesRefError as exc:
            reason = str(exc).split(": ", 1)[-1]
            raise RulesRefError(f"hello.supports.switches.{name}[{i}]: {reason}") from None
    return out


#: The fields of ``hello.supports``.
SUPPORTS_FIELDS = frozenset(("players", "switches", "deal_constraints"))

#: At most this many values may be listed for one switch in ``hello.supports``.
MAX_SWITCH_VALUES = 1000


def check_five_players(players: Sequence[int], switches: Mapping[str, Any]) -> None:
    """A ``hello`` that lists 5 players must declare ``min_players = 5`` (``PLAYERS.COUNT``).

    5 players are played only under that value, so the two declarations
    agree or the handshake is refused, with the way to make them agree.
    """
    if FEWEST_PLAYERS not in players:
        return
    declared = switches.get("min_players")
    if declared == "any" or (declared is not None
                             and FEWEST_PLAYERS in switch_values("min_players", declared)):
        return
    raise AdapterFault("handshake", five_players_words())


def five_players_words() -> str:
    """What a hello that lists 5 players without ``min_players = 5`` is told."""
    return (f"hello.supports.players lists {FEWEST_PLAYERS}, but {FEWEST_PLAYERS} players are "
            f"played only under min_players = {FEWEST_PLAYERS} (PLAYERS.COUNT): add "
            f'"min_players": [{FEWEST_PLAYERS}, {MIN_PLAYERS}] to hello.supports.switches, '
            f"or leave {FEWEST_PLAYERS} out of players")


def parse_supports(hello: dict[str, Any]) -> Supports:
    """Check ``hello.supports`` and return it; a bad declaration is a handshake fault."""
    supports = hello.get("supports")
    if not isinstance(supports, dict):
        raise AdapterFault("handshake", 'hello.supports must be {"players": [...], '
                           '"switches": {...}}')
    players = supports.get("players")
    if (not isinstance(players, list) or not players
            or not all(type(p) is int and FEWEST_PLAYERS <= p <= MAX_PLAYERS for p in players)):
        raise AdapterFault("handshake", f"hello.supports.players must be a non-empty list of "
                           f"player counts {FEWEST_PLAYERS}-{MAX_PLAYERS}, got "
                           f"{json_brief(players, 80)}")
    switches = supports.get("switches", {})
    if not isinstance(switches, dict):
        raise AdapterFault("handshake", "hello.supports.switches must be an object")
    unknown_keys = sorted(str(k) for k in set(supports) - SUPPORTS_FIELDS)
    if unknown_keys:
        raise AdapterFault("handshake", f"unknown field(s) in hello.supports: "
                           f"{clipped(', '.join(unknown_keys))}")
    checked: dict[str, Any] = {}
    for name, declared in switches.items():
        if name not in SWITCHES:
            raise AdapterFault("handshake", f"hello.supports.switches: unknown switch "
                               f"{json_brief(name)}; known: {', '.join(SWITCHES)}")
        if declared == "any":
            checked[name] = "any"
            continue
        if not isinstance(declared, list) or not declared or len(declared) > MAX_SWITCH_VALUES:
            raise AdapterFault("handshake", f"hello.supports.switches.{name}: expected \"any\" "
                               f"or a list of 1 to {MAX_SWITCH_VALUES} values, got "
                               f"{json_brief(declared, 60)}")
        try:
            switch_values(name, declared)
        except RulesRefError as exc:
            raise AdapterFault("handshake", str(exc)) from None
        checked[name] = list(declared)
    check_five_players(players, checked)
    name = str(hello.get("name", ""))
    if len(name) > 200:
        name = name[:200] + "…"
    version = hello.get("version", 1)
    return Supports(name, tuple(sorted(set(players))), checked,
                    version if type(version) is int else 1,
                    parse_capabilities(hello) if version == 2 else (),
                    parse_deal_constraints(supports.get("deal_constraints", [])))


def parse_deal_constraints(declared: object) -> tuple[str, ...]:
    """The deal constraints of ``hello.supports.deal_constraints``, in the order of
    :data:`rules_ref.deal.DEAL_CONSTRAINTS`; anything but a list of distinct known IDs is a
    handshake fault."""
    return _names_of(declared, DEAL_CONSTRAINTS, "hello.supports.deal_constraints",
                     "deal constraint", " (spec/deal.md, section 8)")
