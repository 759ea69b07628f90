"""Game records: a whole game as plain JSON data, its shape, and its check against the rules.

* :mod:`~rules_ref.records.record`: a record written from a finished state, and read
  back into actions;
* :mod:`~rules_ref.records.shape`: a record's form
  (``spec/schemas/record.schema.json``), checked before its rules;
* :mod:`~rules_ref.records.validate`: a record replayed through the engine, every
  violation reported with its rule (``rules-ref validate``).

Standard library only.
"""

from .record import actions_to_json, deal_actions, record_actions, record_from_state
from .shape import check_shape
from .validate import Observer, RecordViolation, validate_record

__all__ = ["Observer", "RecordViolation", "actions_to_json", "check_shape", "deal_actions",
           "record_actions", "record_from_state", "validate_record"]
