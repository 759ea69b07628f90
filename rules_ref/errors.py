"""Typed errors.

Every illegal action raises :class:`IllegalAction`, which names the rule it
breaks (a rule ID of ``spec/rules.toml``) and lists every violation found.
Bad input that is not a game action (a malformed card, a wrong player count,
an unreadable record) raises :class:`InputError` or one of its subclasses.
Both derive from :class:`RulesRefError`, so a caller can catch the project's
own errors in one place.
"""

from __future__ import annotations

from dataclasses import dataclass


class RulesRefError(Exception):
    """Base class of every error this package raises on purpose."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: its ID and a sentence saying what was wrong."""

    rule_id: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule_id}: {self.message}"


class IllegalAction(RulesRefError):
    """An action that the rules forbid in the current state.

    ``rule_id`` is the first (most fundamental) rule broken; ``violations``
    lists every rule the action breaks, in the order the rules are checked.
    The state the action was applied to is unchanged (states are immutable).
    """

    def __init__(self, violations: tuple[Violation, ...]) -> None:
        if not violations:
            raise ValueError("IllegalAction needs at least one violation")
        self.violations = violations
        super().__init__("; ".join(str(v) for v in violations))

    @property
    def rule_id(self) -> str:
        return self.violations[0].rule_id

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(v.rule_id for v in self.violations)


class InputError(RulesRefError, ValueError):
    """Input that cannot be read: the message names the problem and where it is."""


class CardNotationError(InputError):
    """Text that is not a card in the notation of ``spec/notation.md``."""


class PositionError(InputError):
    """A position the rules do not reach: the message names the field and the reason.

    ``rule_id`` is the rule the reason names first (its closing parenthesis
    of rule IDs, ``... (VOID.TRICK)``), ``None`` when it names none.
    """

    def __init__(self, message: str, rule_id: str | None = None) -> None:
        self.rule_id = rule_id
        super().__init__(message)


class SetupError(InputError):
    """A game that cannot be set up: player count, deal, seed or ruleset.

    ``rule_id`` names the rule the setup breaks, when one does.
    """

    def __init__(self, message: str, rule_id: str | None = None) -> None:
        self.rule_id = rule_id
        super().__init__(f"{rule_id}: {message}" if rule_id else message)
