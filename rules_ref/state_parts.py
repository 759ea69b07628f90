"""The parts a :class:`~rules_ref.state.GameState` is made of, by how often each changes.

Every action makes a new state, so what a state copies per action is the
engine's cost. The state keeps a few fields of its own, copied on every
action, and shares two parts by reference until they change:

* :class:`GamePart`: the game as a whole (ruleset, seats, totals, the scored
  deals); replaced when a deal is scored.
* :class:`DealPart`: the deal so far (deal number, dealer, the trick count and
  leader, the tricks, what each seat collected, the extras' fate); replaced
  when a trick ends, and at the start and end of a deal.

A card play therefore copies the state's own fields and nothing else; a
trick's end also makes one new :class:`DealPart`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, TypeVar

from .actions import Action, MoonChoice
from .cards import Card
from .ruleset import Ruleset
from .tricks import TrickOutcome


class Phase(StrEnum):
    DEALING = "dealing"
    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon-choice"
    GAME_OVER = "game-over"


#: The phase of card play, as a module's own name: read on nearly every step.
PLAYING = Phase.PLAYING
#: The phases of a deal in progress: the cards are in the seats' hands.
IN_DEAL = frozenset((Phase.PASSING, Phase.PLAYING, Phase.MOON_CHOICE))
#: The phases right after a deal is scored: the next deal waits to be dealt, or the game
#: is over.
SCORED = frozenset((Phase.DEALING, Phase.GAME_OVER))


@dataclass(frozen=True, slots=True)
class DealResult:
    """A scored deal: what each seat collected and scored, and what nobody took."""

    deal_number: int
    dealer: int
    extras: tuple[Card, ...]
    card_points: tuple[int, ...]
    moon_shooter: int | None
    moon_choice: MoonChoice | None
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    uncollected: tuple[Card, ...]
    #: The two seats of a moon shot together (``moon_pair``), in seat order; else ``None``.
    moon_pair: tuple[int, int] | None = None


#: The action log as a persistent linked list, newest first: appending an
#: action shares the whole past instead of copying it. A card play, most of
#: any log, is kept as ``(seat, card, earlier log)`` without its
#: :class:`~rules_ref.actions.Play` object (48 bytes less per play); any other
#: action as ``(action, earlier log)``. ``GameState.actions`` reads it back.
History = tuple[int, Card, "History | None"] | tuple[Action, "History | None"]


@dataclass(frozen=True, slots=True)
class GamePart:
    """What holds for the whole game, or changes only when a deal is scored."""

    ruleset: Ruleset
    players: int
    first_dealer: int
    totals: tuple[int, ...]
    initial_totals: tuple[int, ...]
    initial_deal: int
    deal_results: tuple[DealResult, ...] = ()
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DealPart:
    """The deal so far: changes when a trick ends, and when a deal starts or ends."""

    deal_number: int
    dealer: int
    trick_number: int = 0
    leader: int = 0
    hearts_broken: bool = False
    tricks: tuple[TrickOutcome, ...] = ()
    collected: tuple[tuple[Card, ...], ...] = ()
    pending_has_extras: bool = False
    #: The seat that took the extras this deal; ``None`` while they wait, and
    #: when they went uncollected or were split (``VOID.LAST``).
    extras_taken_by: int | None = None
    uncollected: tuple[Card, ...] = ()
    moon_shooter: int | None = None


T = TypeVar("T")


def copier(cls: type[T], skip: tuple[str, ...] = (),
           positional: tuple[str, ...] | None = None) -> Callable[..., T]:
    """The copy-with-changes function of the frozen, slotted dataclass ``cls``.

    ``copy(obj, name=value, ...)`` returns a new ``cls`` with those fields
    changed and the others shared with ``obj``; with ``positional``, the copy
    takes exactly those fields, in that order, without keywords (for the
    hottest copy). Fields named in ``skip`` (caches) are set to ``None``.

    The copy is filled in as a draft: an instance of a plain class with the
    same slots, so each field is one ordinary attribute assignment instead of
    the frozen dataclass's ``object.__setattr__`` per field in ``__init__``
    or :func:`dataclasses.replace`. Then its class becomes ``cls`` (the draft
    has its bases and slots, so the layouts are the same), before anyone can
    see it, so values stay immutable from outside.

    What it buys is measured by ``make bench ONLY=speed-layer``: the same
    8-player playouts with every copy made by :func:`dataclasses.replace`
    instead cost 1.4 to 1.7 times as much per card play (a state is copied on
    every action, so the copy is most of a card play's cost).
    """
    names = tuple(f.name for f in fields(cls) if f.name not in skip)  # type: ignore[arg-type]
    if positional is None:
        params = "*, " + ", ".join(f"{n}=_KEEP" for n in names)
        values = {n: f"old.{n} if {n} is _KEEP else {n}" for n in names}
    else:
        params = ", ".join(positional)
        values = {n: n if n in positional else f"old.{n}" for n in names}
    body = "".join(f"    new.{n} = {values[n]}\n" for n in names)
    body += "".join(f"    new.{n} = None\n" for n in skip)
    source = (f"def copy(old, {params}):\n    new = _new(_draft)\n{body}"
              "    new.__class__ = _cls\n    return new\n")
    # the same bases and slots: the same layout (a base such as PartReadings has no slots)
    slots = cls.__slots__  # type: ignore[attr-defined]
    draft = type(f"{cls.__name__}Draft", cls.__bases__, {"__slots__": slots})
    # __name__ makes the generated function belong to this module (for its repr and the docs)
    scope: dict[str, Any] = {"__name__": __name__, "_KEEP": object(), "_new": object.__new__,
                             "_cls": cls, "_draft": draft}
    exec(source, scope)
    made: Callable[..., T] = scope["copy"]
    return made


#: The field names of each part, to route a change by name to its part.
GAME_FIELDS = frozenset(f.name for f in fields(GamePart))
DEAL_FIELDS = frozenset(f.name for f in fields(DealPart))

copy_game: Callable[..., GamePart] = copier(GamePart)
copy_deal: Callable[..., DealPart] = copier(DealPart)

__all__ = [
    "DEAL_FIELDS",
    "GAME_FIELDS",
    "IN_DEAL",
    "PLAYING",
    "SCORED",
    "DealPart",
    "DealResult",
    "GamePart",
    "History",
    "Phase",
    "copier",
    "copy_deal",
    "copy_game",
]
