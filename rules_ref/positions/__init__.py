"""Positions (``spec/position.md``): a moment of a game, checked, in JSON and in text.

A :class:`Position` holds what the rules need to continue a game from a
moment within a deal, or between deals, and nothing else; the ruleset travels
beside it. The package, one module per concern:

* :mod:`.model`: the data of a position, and what the checks read off it;
* :mod:`.check`: whether the rules can reach it (``check_position``);
* :mod:`.rules`: what the ruleset decides about it (checks 12 to 17);
* :mod:`.text`: its one-line text form;
* :mod:`.convert`: its JSON form, and the way to and from a game state
  (:func:`position_of`, :func:`state_from_position`).

The state knows nothing of positions: this package reads states and builds them.
"""

from __future__ import annotations

from .check import check_position
from .convert import position_from_json, position_of, position_to_json, state_from_position
from .model import (
    MAX_POSITION_TEXT,
    POSITION_PHASES,
    Extras,
    ExtrasPlace,
    Position,
    pending_tricks,
    played_cards,
)
from .text import format_position, parse_position

__all__ = ["MAX_POSITION_TEXT", "POSITION_PHASES", "Extras", "ExtrasPlace", "Position",
           "check_position", "format_position", "parse_position", "pending_tricks",
           "played_cards", "position_from_json", "position_of", "position_to_json",
           "state_from_position"]
