"""What a conform run exercised: the conditions of each rule, and which a step went through.

* :mod:`.catalogue`: the conditions of every rule (:data:`CONDITIONS`), and the
  ones a run could reach given what it may draw (:func:`.catalogue.catalogue`);
* :mod:`.detect`: which conditions a start, a step or a rejected action went
  through, read from the game itself, and which rare paths of the rules
  (:data:`.detect.RARE_PATHS`, named conditions) a step went through;
* :mod:`.pairs`: the pairs a step met, a rare condition under one value of a
  switch that decides something there, which a run counts beside the
  conditions and the search aims at (:func:`.pairs.reachable_pairs`: those a run can reach).

The run's summary of them is :mod:`rules_ref.reports.exercised`.
"""

from __future__ import annotations

from .catalogue import CONDITIONS, Condition, Scope, summary
from .detect import rejected_conditions, rules_at_work, start_conditions, step_conditions
from .pairs import pair_conditions, reachable_pairs

__all__ = ["CONDITIONS", "Condition", "Scope", "pair_conditions", "reachable_pairs",
           "rejected_conditions", "rules_at_work", "start_conditions", "step_conditions",
           "summary"]
