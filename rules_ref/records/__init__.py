"""Game records: a whole game as plain JSON data, its shape, and its check against the rules.

:mod:`.record` writes a record from a finished state and reads it back into actions;
:mod:`.shape` checks a record's form (``spec/schemas/record.schema.json``) before its rules;
:mod:`.validate` replays a record through the engine and reports every violation with its
rule (``rules-ref validate``). Standard library only.
"""

from .record import actions_to_json, deal_actions, record_actions, record_from_state
from .shape import check_shape
from .validate import Observer, RecordViolation, validate_record

__all__ = ["Observer", "RecordViolation", "actions_to_json", "check_shape", "deal_actions",
           "record_actions", "record_from_state", "validate_record"]
