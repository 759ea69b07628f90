"""The reports of a conform run: its result, and that result as text, JSON, Markdown and HTML.

A run (a search, a replay, or runs merged) produces one
:class:`~.result.ConformResult`; every report reads it. The data flow one way:
the search (:mod:`rules_ref.conform`) finds failures, the findings
(:mod:`rules_ref.findings`) classify them, the result holds them with the
run's figures, the reports render it, and the command line prints it.

* :mod:`.result`: the result, its JSON form (``--json``,
  ``spec/schemas/conform-result.schema.json``), its verdict
  (:func:`~.result.decide_verdict`) and exit status (:data:`~.result.EXIT`);
* :mod:`.merge`: the results of shards or runs merged into one (``--merge``);
* :mod:`.text`: the words of a failure, a finding and a verdict;
* :mod:`.run_text`: the text report of a run and of runs merged;
* :mod:`.exercised`: the per-rule exercise summary, as JSON keys and lines;
* :mod:`.document` and :mod:`.markup`: the Markdown or HTML file of a run
  (``--report``).
"""

from __future__ import annotations

from .document import render_report, report_blocks
from .exercised import exercise_keys, exercise_lines
from .merge import merge_results, merge_summaries, merged_exit, rules_version
from .result import EXIT, ConformResult, Grounds, decide_verdict, run_result
from .run_text import merge_lines, run_text
from .text import format_classes, format_failure, json_line, verdict_words

__all__ = ["EXIT", "ConformResult", "Grounds", "decide_verdict", "exercise_keys",
           "exercise_lines", "format_classes", "format_failure", "json_line", "merge_lines",
           "merge_results", "merge_summaries", "merged_exit", "render_report", "report_blocks",
           "rules_version", "run_result", "run_text", "verdict_words"]
