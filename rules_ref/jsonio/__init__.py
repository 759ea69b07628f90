"""JSON in and out: the JSON forms of the engine's values, and every command's files.

* :mod:`~rules_ref.jsonio.serialize`: cards, rulesets, actions and states as plain JSON
  data and back, naming the JSON path of the first problem;
* :mod:`~rules_ref.jsonio.files`: input files read (size-limited, JSON only) and output
  files written atomically;
* :mod:`~rules_ref.jsonio.nesting`: how deep a JSON text nests, measured before it is
  parsed, so no input reaches the parser's recursion limit;
* :mod:`~rules_ref.jsonio.replay_file`: the replay files of ``rules-ref conform``, named
  once (their format, version and size).

The face lists the names of ``serialize`` and ``nesting``, which an adapter needs at
every start; ``files`` (which needs ``pathlib``) and ``replay_file`` are imported by
their own names, by the commands that read and write files. Standard library only.
"""

from .nesting import nests_deeper
from .serialize import (
    action_from_json,
    action_to_json,
    card_from_json,
    cards_from_json,
    cards_to_json,
    ruleset_from_json,
    state_from_json,
    state_to_json,
)

__all__ = ["action_from_json", "action_to_json", "card_from_json", "cards_from_json",
           "cards_to_json", "nests_deeper", "ruleset_from_json",
           "state_from_json", "state_to_json"]
