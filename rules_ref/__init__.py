"""The reference rules of Cancellation Hearts.

The rule text lives in ``spec/rules.toml``; every public rule function here
names its rule ID. Start with :class:`GameState`:

>>> from rules_ref import GameState, DealCards, Play, seeded_deal
>>> state = GameState.start(players=6)
>>> deal = seeded_deal(seed=42, players=6, deal_number=1, dealer=0)
>>> state, events = state.apply(DealCards(deal.hands, deal.extras))
>>> state.phase.value, len(state.extras)
('passing', 2)
"""

from .actions import Action, ChooseMoon, DealCards, MoonChoice, Pass, Play
from .cards import Card, Suit, format_cards, parse_card, parse_cards
from .deal import Deal, seeded_deal
from .errors import (
    CardNotationError,
    IllegalAction,
    InputError,
    RulesRefError,
    SetupError,
    Violation,
)
from .positions.model import Position as Position
from .ruleset import Ruleset, preset, presets
from .state import GameState
from .state_parts import DealResult, Phase
from .view import SeatView, seat_view

__all__ = [
    "Action",
    "Card",
    "CardNotationError",
    "ChooseMoon",
    "Deal",
    "DealCards",
    "DealResult",
    "GameState",
    "IllegalAction",
    "InputError",
    "MoonChoice",
    "Pass",
    "Phase",
    "Play",
    "RulesRefError",
    "Ruleset",
    "SeatView",
    "SetupError",
    "Suit",
    "Violation",
    "format_cards",
    "parse_card",
    "parse_cards",
    "preset",
    "presets",
    "seat_view",
    "seeded_deal",
]
__version__ = "0.1.0"
