"""JSON in and out: the JSON forms of the engine's values, and every command's files.

:mod:`.serialize` turns cards, rulesets, actions and states into plain JSON data and reads
them back, naming the JSON path of the first problem; :mod:`.files` reads input files
(size-limited, JSON only) and writes output files atomically; :mod:`.nesting` measures how
deep a JSON text nests before it is parsed, so no input reaches the parser's recursion
limit; :mod:`.replay_file` names the replay files of ``rules-ref conform`` (their format,
version and size). Standard library only.

The face lists the names of :mod:`.serialize` and :mod:`.nesting`, which an adapter
needs at every start; :mod:`.files` (which needs :mod:`pathlib`) is imported by the
commands that read and write files, by its own name, and so is :mod:`.replay_file`.
"""

from .nesting import nests_deeper
from .serialize import (
    action_from_json,
    action_to_json,
    card_from_json,
    cards_from_json,
    cards_to_json,
    ruleset_from_json,
    ruleset_to_json,
    state_from_json,
    state_to_json,
)

__all__ = ["action_from_json", "action_to_json", "card_from_json", "cards_from_json",
           "cards_to_json", "nests_deeper", "ruleset_from_json", "ruleset_to_json",
           "state_from_json", "state_to_json"]
