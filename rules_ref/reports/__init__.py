"""The reports of a conform run: its text, its JSON summary, what it exercised.

* :mod:`.text`: a failure as lines of text, the divergence classes, the
  verdict and the JSON summary (:func:`summary_dict`);
* :mod:`.exercised`: the per-rule exercise summary, as JSON keys and lines.

The Markdown and HTML file of a run (``conform --report``) is drawn by the
command line (``rules_ref.cli.conform_document``), with its markup.
"""

from __future__ import annotations

from .exercised import exercise_keys, exercise_lines
from .text import format_classes, format_failure, json_line, rate, summary_dict, verdict_of

__all__ = ["exercise_keys", "exercise_lines", "format_classes", "format_failure", "json_line",
           "rate", "summary_dict", "verdict_of"]
