"""``rules-ref conform --report FILE``: the report file, its examples drawn as ``rules-ref show``
draws a game.

The report is :mod:`rules_ref.reports.document`'s; the command line gives it
:func:`draw_example`, which draws a minimal example with :class:`.log.GameLog`
(the seat under each card, the cancelled pairs, the winner), and writes the file.
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction, RulesRefError
from ..positions.convert import position_of
from ..reports.document import render_report as render_document
from ..reports.result import ConformResult
from .log import GameLog
from .style import Style

#: The most lines of a drawn example; a longer game keeps its last lines.
MAX_DRAWN_LINES = 400


def draw_example(example: dict[str, Any]) -> list[str]:
    """The game of a minimal example as ``rules-ref show`` prints it, up to its failing action.

    The failing action is the last of ``actions``; if the reference rejects
    it, the last line says so and names the rule.
    """
    from ..jsonio.serialize import action_from_json
    from ..protocol.start import position_state, start_state
    from .position import describe_position

    start = example.get("start")
    if not isinstance(start, dict) or not start:
        return ["(no game: the difference came before a game started)"]
    log = GameLog(Style(symbols=True, colour=False))
    from_position = "position" in start
    try:
        state = (position_state if from_position else start_state)(start, "example.start")
    except RulesRefError as exc:
        return [f"(the example's start cannot be drawn: {exc})"]
    lines = log.header(state.players, state.ruleset, None)
    if from_position:  # drawn as `rules-ref position` draws one
        lines += ["", "The position the example starts from (spec/position.md):",
                  *describe_position(position_of(state), state.ruleset).splitlines()]
    else:
        lines += ["", f"Deal {state.deal_number} as the example starts it: dealer seat "
                  f"{state.dealer}, totals " + ", ".join(f"seat {i} {t}"
                                                         for i, t in enumerate(state.totals))]
        lines += [f"  seat {seat}: {log.style.cards(hand)}"
                  for seat, hand in enumerate(state.hands)]
        if state.extras:
            lines.append(f"  extras: {log.style.cards(state.extras)}")
    actions = example.get("actions") if isinstance(example.get("actions"), list) else []
    assert isinstance(actions, list)
    for i, raw in enumerate(actions):
        try:
            action = action_from_json(raw, f"example action {i + 1}")
        except RulesRefError as exc:
            lines.append(f"(action {i + 1} cannot be drawn: {exc})")
            break
        try:
            after, events = state.apply(action)
        except IllegalAction as exc:
            lines.append(f"  action {i + 1}, {action}: the reference rejects it: {exc}")
            break
        lines += log.step(state, action, after, events)
        state = after
    if len(lines) > MAX_DRAWN_LINES:
        cut = len(lines) - MAX_DRAWN_LINES
        lines = [f"({cut} earlier lines left out; rules-ref show REPLAY-FILE prints them all)",
                 *lines[cut:]]
    return lines


def render_report(result: ConformResult | dict[str, Any], path: str) -> str:
    """The report of ``result`` as the text of ``path`` (HTML for ``.html``, else Markdown),
    its examples drawn (:func:`draw_example`)."""
    return render_document(result, path, draw_example)


def write_report(path: str, result: ConformResult) -> None:
    """Write the report of ``result`` to ``path`` (atomically)."""
    from ..jsonio.files import write_text_atomic

    write_text_atomic(path, render_report(result, path))
