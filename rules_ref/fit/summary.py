"""What ``rules-ref fit`` found, as one JSON document (:func:`fit_document`), and the same
in words for a player (:func:`fit_lines`, built from the document alone).

The document's ``ruleset`` is the whole ruleset the implementation plays, a
``--ruleset`` file as it stands; ``switches`` the values it plays apart from
the ruleset it was told, each with the differences it explains;
``hello`` what its hello declares to be tested under it (a value beside which
``same_games`` names others that play the same games is the nearest preset's,
else the one ``spec/variants.toml`` lists first: :mod:`.equivalent`); ``unexplained``
the findings no value explains (their words as every report gives them);
``deal_constraints`` what the deal constraints the hello declares kept out of
the games of the ruleset found (the block of a ``conform`` result, in the
same words: :func:`~rules_ref.reports.exercised.constraint_words`).
"""

from __future__ import annotations

import shlex
import textwrap
from dataclasses import replace
from typing import Any

from ..findings.classes import finding_lines
from ..reports.exercised import constraint_words
from ..wording import counted, switch_value
from .equivalent import GAMES_PER_TRIAL_GAME
from .search import Fit

#: The exit statuses of ``rules-ref fit`` (spec/limits.md).
EXIT = {"explained": 0, "unexplained": 1, "usage": 2, "nothing": 4}


def _finding(finding: Any) -> dict[str, Any]:
    """A finding left unexplained, as the document holds it (no example: a ``conform`` run
    under the ruleset found gives one, shrunk, with its replay file)."""
    data = finding.to_json()
    return {"rule": data["rule"], "what": data["what"], "kind": data["kind"],
            "switch": data["switch"], "count": data["count"], "games": data["games"],
            "facets": [{k: f[k] for k in ("words", "switch", "count")}
                       for f in data["facets"]],
            "words": finding_lines(data)}


def fit_document(fit: Fit, seed: int, examples: int | None, trials: int,
                 command: list[str]) -> dict[str, Any]:
    """The result of a search as ``rules-ref fit --json`` prints it."""
    told, best = fit.told.to_dict(), fit.ruleset.to_dict()
    switches = {name: {"value": best[name], "told": told[name],
                       "explains": [d.key for d in fit.explained[name]],
                       "same_games": [replace(fit.ruleset, **{name: v}).to_dict()[name]
                                      for v in fit.same_games.get(name, [])]}
                for name in fit.explained}
    tested = any(t.actions for t in fit.trials)
    status = ("nothing" if not tested else "unexplained" if fit.unexplained else "explained")
    return {
        "ruleset": best,
        "switches": switches,
        "hello": {"switches": {name: [best[name]] for name in switches}},
        "unexplained": [_finding(f) for f in fit.unexplained],
        "deal_constraints": fit.best.deal_constraints or None,
        "told": fit.told.changed(),
        "verdict": status,
        "seed": seed, "examples": examples, "trials": len(fit.trials),
        "same_games_checked": GAMES_PER_TRIAL_GAME * (examples or 1),
        "trials_allowed": trials, "budget_spent": fit.exhausted,
        "tried": [{"ruleset": t.ruleset.changed(), "differences": len(t.differences),
                   "divergences": t.divergences, "games": t.games, "actions": t.actions}
                  for t in fit.trials],
        "adapter_command": command,
        "exit_status": EXIT[status],
        "cut_short": any(t.stopped == "time" for t in fit.trials),
    }


def fit_lines(doc: dict[str, Any]) -> list[str]:
    """The document in words, for the person who wrote the engine."""
    command = shlex.join(doc["adapter_command"])
    told = doc["told"]
    asked = ("the default rules" if not told else "the default rules except "
             + ", ".join(f"{k} = {switch_value(v)}" for k, v in told.items()))
    lines: list[str] = []
    if doc["verdict"] == "nothing":
        return [f"rules-ref fit: nothing was tested: no answer of the engine was compared "
                f"({doc['trials']} rulesets tried)"]
    if not doc["switches"]:
        lines.append(f"The engine plays {asked}" + (
            ": no other switch value explains a difference." if doc["unexplained"] else "."))
    else:
        lines.append(f"Told {asked}, the engine plays these values instead:")
        for name, found in doc["switches"].items():
            lines.append(f"  {name} = {switch_value(found['value'])} (told "
                         f"{switch_value(found['told'])})")
            lines += [f"    explains {key}" for key in found["explains"]]
            if found["same_games"]:
                lines.append("    plays the same games as " + " and ".join(
                    f"{name} = {switch_value(v)}" for v in found["same_games"])
                    + f" under the other values (no game of {doc['same_games_checked']} "
                    "told them apart): named the value of the nearest preset, else the "
                    "first spec/variants.toml lists")
    if doc["unexplained"]:
        lines.append("")
        lines.append(f"No switch value explains {counted(len(doc['unexplained']), 'finding')} "
                     "(a bug, or a value spec/variants.toml does not list):")
        for finding in doc["unexplained"]:
            lines += [f"  {line}" for line in finding["words"]]
    else:
        lines.append("Under these rules the engine and the reference agreed on every game "
                     "played.")
    if doc["switches"]:
        lines.append("")
        lines.append("Declare the values in the hello (supports.switches): "
                     + ", ".join(f'"{k}": {v}' for k, v in _json_values(doc).items()))
        lines.append("and play them: save the \"ruleset\" of rules-ref fit --json as FILE, then "
                     f"rules-ref conform --ruleset FILE -- {command}")
    lines.append("")
    constrained = constraint_words(doc["deal_constraints"])
    if constrained:
        lines += textwrap.wrap(constrained[0].upper() + constrained[1:], 100,
                               subsequent_indent="  ", break_on_hyphens=False)
    lines.append(f"Seed {doc['seed']}: {counted(doc['trials'], 'ruleset')} tried, "
                 f"{counted(doc['examples'] or 0, 'game')} each"
                 + (" (the budget of --trials ran out first: a larger one may explain more)"
                    if doc["budget_spent"] else "") + ".")
    if doc["cut_short"]:
        lines.append("The games of a ruleset were cut short by --max-seconds: the result "
                     "depends on this machine's speed.")
    return lines


def _json_values(doc: dict[str, Any]) -> dict[str, str]:
    import json

    return {k: json.dumps(v, ensure_ascii=False) for k, v in doc["hello"]["switches"].items()}
