"""Diagrams drawn at build time as inline SVG: the table, the flow of a deal, the protocol.

Every picture is computed from the project's own sources, never drawn by
hand: the seats, dealer and pass arrows from the engine
(:func:`rules_ref.passing.pass_offset`) for each ``pass_cycle`` value of
``spec/variants.toml``; the phases of a deal from :class:`rules_ref.state_parts.Phase`;
the runner-adapter conversation from the message names of ``spec/protocol.md``;
the hand sizes from :func:`rules_ref.deal.hand_size` and
:func:`~rules_ref.deal.extras_count`.
The SVG is written as text (no new dependency, nothing fetched) and drawn
with ``currentColor`` and the theme's CSS variables, so it follows the page
into dark mode. The ``svg_*`` functions need no Sphinx; the directives at the
end put their output on a page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from docutils import nodes  # type: ignore[import-untyped]
from docutils.parsers.rst import directives  # type: ignore[import-untyped]
from sphinx.util.docutils import SphinxDirective

from rules_ref.deal import extras_count, hand_size
from rules_ref.errors import InputError
from rules_ref.passing import pass_offset, seat_distance
from rules_ref.ruleset import PassDirection, PassStep, Ruleset, SeatDistance
from rules_ref.state_parts import Phase

from . import context
from .render import para
from .spec import Spec, format_value

INK = "currentColor"
#: the theme's colours, with plain fallbacks when the variables are missing
PAPER = "var(--color-background-secondary, transparent)"
ACCENT = "var(--color-brand-primary, currentColor)"
MUTED = "var(--color-foreground-muted, currentColor)"
FONT = "font-family: var(--font-stack, sans-serif)"


def _svg(width: int, height: int, body: Sequence[str], label: str, key: str,
         scale: float = 1.0, top: int = 0) -> str:
    """An SVG element with an arrowhead marker of its own (ids must be unique on a page).

    ``top`` px are added above y = 0 (drawn at negative y), so a band can hold a title
    without moving the drawing below it.
    """
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="ch-diagram" role="img" '
            f'viewBox="0 {-top} {width} {height + top}" width="{width * scale:.0f}" '
            f'height="{(height + top) * scale:.0f}" '
            f'style="max-width:100%;height:auto;color:inherit;{FONT}">'
            f"<title>{escape(label)}</title>"
            f'<defs><marker id="arrow-{key}" viewBox="0 0 10 10" refX="9" refY="5" '
            'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{INK}"/></marker></defs>'
            + "".join(body) + "</svg>")


def _text(x: float, y: float, words: str, size: int = 12, anchor: str = "middle",
          weight: str = "normal", colour: str = INK) -> str:
    """Text at (x, y); each ``\n`` starts a new line below."""
    lines = "".join(f'<tspan x="{x:.1f}" dy="{0 if i == 0 else size + 2}">{escape(line)}</tspan>'
                    for i, line in enumerate(words.split("\n")))
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" style="fill:{colour}">{lines}</text>')


def _arrow(x1: float, y1: float, x2: float, y2: float, key: str, bend: float = 0.0,
           colour: str = INK, dashed: bool = False) -> str:
    """A curved arrow; ``bend`` pushes its middle to the right of its direction, in px."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    cx, cy = mx - (y2 - y1) / length * bend, my + (x2 - x1) / length * bend
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (f'<path d="M{x1:.1f},{y1:.1f} Q{cx:.1f},{cy:.1f} {x2:.1f},{y2:.1f}" fill="none" '
            f'style="stroke:{colour}" stroke-width="1.4"{dash} '
            f'marker-end="url(#arrow-{key})"/>')


# --- the table seen from above --------------------------------------------------------------


#: the height of the band above a table that names its pass direction
TITLE_BAND = 24


def seat_positions(players: int, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Seat 0 at the bottom; seat + 1 (the player's left) next, clockwise seen from above."""
    out = []
    for seat in range(players):
        angle = math.pi / 2 + 2 * math.pi * seat / players
        out.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return out


def svg_table(players: int, dealer: int, direction: PassStep | None, key: str) -> str:
    """The table of ``players`` seats from above, the dealer marked, and one pass step's arrows.

    ``direction`` ``None`` draws no arrows (the seats and the dealer only). The direction's
    name is written above the table, where no arrow goes (an arrow across the table passes
    through its middle); a hold deal, which has no arrow, says so in the middle.
    """
    size, seat_r = 200, 13
    cx = cy = size / 2
    spots = seat_positions(players, cx, cy, 72)
    body = [f'<circle cx="{cx}" cy="{cy}" r="48" style="fill:{PAPER};stroke:{MUTED}" '
            'stroke-width="1"/>']
    offset = None if direction is None else pass_offset(direction, players)
    if direction is not None:
        body.append(_text(cx, -TITLE_BAND / 2 + 5, str(direction), size=14, weight="bold"))
        if offset is None:
            body.append(_text(cx, cy + 4, "nobody passes", size=12, colour=MUTED))
    else:
        body.append(_text(cx, cy - 4, f"{players} players", size=12, weight="bold"))
        body.append(_text(cx, cy + 12, f"{hand_size(players)} each, {extras_count(players)} "
                          "extras", size=10, colour=MUTED))
    if offset is not None:
        for seat, (x1, y1) in enumerate(spots):
            x2, y2 = spots[(seat + offset) % players]
            d = math.hypot(x2 - x1, y2 - y1)
            ux, uy = (x2 - x1) / d, (y2 - y1) / d
            body.append(_arrow(x1 + ux * seat_r, y1 + uy * seat_r, x2 - ux * (seat_r + 2),
                               y2 - uy * (seat_r + 2), key, bend=10))
    for seat, (x, y) in enumerate(spots):
        is_dealer = seat == dealer
        body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{seat_r}" '
                    f'style="fill:{PAPER};stroke:{ACCENT if is_dealer else INK}" '
                    f'stroke-width="{2.5 if is_dealer else 1.2}"/>')
        body.append(_text(x, y + 4, str(seat), size=11, weight="bold"))
        if is_dealer:
            ox, oy = (x - cx) / 72 * 22, (y - cy) / 72 * 22
            body.append(_text(x + ox, y + oy + 4, "D", size=11, weight="bold", colour=ACCENT))
    label = (f"{players} players seen from above, seat 0 at the bottom, dealer seat {dealer}"
             + ("" if direction is None else f"; passing {direction}"))
    return _svg(size, size, body, label, key, scale=0.8,
                top=0 if direction is None else TITLE_BAND)


def cycle_values(spec: Spec) -> list[tuple[str, tuple[PassStep, ...], bool]]:
    """Each ``pass_cycle`` value of the spec: its text, its steps (via the engine), default?"""
    switch = spec.switch("pass_cycle")
    out: list[tuple[str, tuple[PassStep, ...], bool]] = []
    for value in [switch.default, *(v.value for v in switch.values)]:
        try:
            steps = Ruleset.from_dict({"pass_cycle": value}).pass_cycle
        except InputError:
            continue  # a value the engine cannot play is listed on the variants page
        text = format_value(value)
        if all(t != text for t, _, _ in out):
            out.append((text, steps, value == switch.default))
    return out


# --- the flow of a deal -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Box:
    name: str
    x: float
    y: float
    phase: bool  # False: a step the engine takes by itself, not a phase that waits


@dataclass(frozen=True, slots=True)
class Edge:
    start: str
    end: str
    label: str
    lx: float
    ly: float
    bend: float = 0.0
    anchor: str = "middle"


FLOW_BOXES = (
    Box(Phase.DEALING.value, 90, 150, True), Box(Phase.PASSING.value, 270, 50, True),
    Box(Phase.PLAYING.value, 450, 150, True), Box(Phase.MOON_CHOICE.value, 700, 50, True),
    Box("scoring", 700, 250, False), Box(Phase.GAME_OVER.value, 870, 150, True))
FLOW_EDGES = (
    Edge("dealing", "passing", "dealt; this deal\npasses (PASS.DIRECTION)", 130, 78, -10),
    Edge("dealing", "playing", "dealt; direction hold", 270, 170),
    Edge("passing", "playing", "every seat has passed\n(PASS.EXCHANGE)", 345, 112, 10,
         anchor="end"),
    Edge("playing", "moon-choice",
         "a moon (MOON.CONDITION) when the\nshooter chooses: moon = choice-26", 640, 34, 15,
         anchor="end"),
    Edge("playing", "scoring", "last trick played,\nno moon (SCORE.DEAL)", 575, 222, 10,
         anchor="end"),
    Edge("moon-choice", "scoring", "the shooter\nchooses\n(MOON.CHOICE)", 712, 140,
         anchor="start"),
    Edge("scoring", "game-over", "a total ≥ the target\n(GAME.END)", 850, 232, -10),
    Edge("scoring", "dealing", "no total at the target: the next deal,\nthe next dealer "
         "(DEAL.DEALER)", 330, 284, -70),
)


def svg_deal_flow(key: str = "flow") -> str:
    """The phases of a deal (:class:`~rules_ref.state_parts.Phase`) and what moves a game on."""
    missing = {p.value for p in Phase} - {b.name for b in FLOW_BOXES}
    if missing:
        raise ValueError(f"the deal flow does not draw the phase(s) {sorted(missing)}")
    width, height = 960, 330
    where = {b.name: b for b in FLOW_BOXES}
    body: list[str] = []
    w, h = 104, 34
    for e in FLOW_EDGES:
        a, b = where[e.start], where[e.end]
        d = math.hypot(b.x - a.x, b.y - a.y)
        ux, uy = (b.x - a.x) / d, (b.y - a.y) / d
        pad = 56 if abs(ux) > 0.8 else 30
        body.append(_arrow(a.x + ux * pad, a.y + uy * pad * 0.7, b.x - ux * pad,
                           b.y - uy * pad * 0.7, key, bend=e.bend))
        body.append(_text(e.lx, e.ly, e.label, size=10, anchor=e.anchor, colour=MUTED))
    loop = where["playing"]
    body.append(f'<path d="M{loop.x - 20},{loop.y - h / 2} C{loop.x - 30},{loop.y - 75} '
                f'{loop.x + 30},{loop.y - 75} {loop.x + 20},{loop.y - h / 2}" fill="none" '
                f'style="stroke:{INK}" stroke-width="1.4" marker-end="url(#arrow-{key})"/>')
    body.append(_text(loop.x - 10, loop.y - 84, "each card in turn (TURN.ORDER)", size=10,
                      colour=MUTED))
    for box in FLOW_BOXES:
        dash = "" if box.phase else ' stroke-dasharray="4 3"'
        body.append(f'<rect x="{box.x - w / 2}" y="{box.y - h / 2}" width="{w}" height="{h}" '
                    f'rx="8" style="fill:{PAPER};stroke:{ACCENT if box.phase else INK}" '
                    f'stroke-width="1.6"{dash}/>')
        body.append(_text(box.x, box.y + 4, box.name, size=13, weight="bold"))
    return _svg(width, height, body, "The phases of a deal and what moves a game between them",
                key)


# --- the protocol ----------------------------------------------------------------------------


def protocol_messages(text: str) -> tuple[list[str], list[str], list[str]]:
    """The requests (``### `name``` under ``## Messages``), response types and action types.

    Response types are the other message ``"type"`` values of the whole file.
    """
    section = text.split("## Messages", 1)[-1].split("\n## ", 1)[0]
    requests = re.findall(r"^### `([a-z-]+)`", section, flags=re.MULTILINE)
    types = re.findall(r'"type": "([a-z-]+)"', text)
    actions = re.findall(r'"type": "action", "action": \{"type": "([a-z-]+)"', section)
    responses = [t for t in dict.fromkeys(types) if t not in requests and t not in actions]
    return requests, responses, list(dict.fromkeys(actions))


#: what the adapter answers to each request; checked against spec/protocol.md's names
ANSWERS = {"hello": ("hello",), "start": ("observation", "rejected"),
           "action": ("observation", "rejected"), "bye": ("bye",)}


def svg_protocol(text: str, key: str = "protocol") -> str:
    """The conversation between the runner and an adapter, from ``spec/protocol.md``'s names."""
    requests, responses, actions = protocol_messages(text)
    named = set(requests) | set(responses)
    unknown = sorted({m for r in requests for m in (r, *ANSWERS.get(r, ("?",)))} - named)
    if unknown or set(requests) != set(ANSWERS):
        raise ValueError(f"spec/protocol.md and the protocol diagram disagree: requests "
                         f"{requests}, responses {responses}")
    left, right, top, step = 120, 520, 50, 62
    height = top + step * len(requests) + 40
    body = [_text(left, 24, "runner (rules-ref conform)", size=13, weight="bold"),
            _text(right, 24, "adapter (your engine)", size=13, weight="bold")]
    for x in (left, right):
        body.append(f'<line x1="{x}" y1="32" x2="{x}" y2="{height - 10}" '
                    f'style="stroke:{MUTED}" stroke-width="1" stroke-dasharray="3 3"/>')
    for i, request in enumerate(requests):
        y = top + i * step
        label = request + (f" ({' / '.join(actions)}), once per action" if request == "action"
                           else "")
        body.append(_arrow(left, y, right, y, key))
        body.append(_text((left + right) / 2, y - 6, label, size=12))
        body.append(_arrow(right, y + 26, left, y + 26, key, dashed=True))
        body.append(_text((left + right) / 2, y + 20, " or ".join(ANSWERS[request]), size=12,
                          colour=MUTED))
    return _svg(640, height, body, "The messages between the runner and an adapter", key)


# --- the directives --------------------------------------------------------------------------


def _raw(svg: str, caption: str, caption_first: bool = False) -> nodes.container:
    box = nodes.container(classes=["ch-figure"])
    if caption_first:
        box += para(nodes.strong(caption, caption), classes=["ch-figure-caption"])
    box += nodes.raw("", svg, format="html")
    if not caption_first:
        box += para(caption, classes=["ch-figure-caption"])
    return box


class TableDiagramDirective(SphinxDirective):
    """``.. table-diagram::``: the table from above for each player count.

    With ``:passing:``, one table per pass direction, with its arrows.
    """

    option_spec = {  # noqa: RUF012 (docutils reads this class attribute)
        "players": directives.unchanged_required,
        "passing": directives.flag,
        "dealer": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        low, _, high = self.options.get("players", "6-11").partition("-")
        counts = range(int(low), int(high or low) + 1)
        dealer = self.options.get("dealer", 0)
        out: list[nodes.Node] = []
        spec = context.spec(self.env)
        self.env.note_reread()
        if "passing" not in self.options:
            row = "".join(svg_table(n, dealer % n, None, f"seats-{n}") for n in counts)
            out.append(_raw(f'<div class="ch-diagram-row">{row}</div>',
                            f"The table seen from above, seat 0 at the bottom and play going "
                            f"to the left (clockwise), dealer seat {dealer} marked D; in the "
                            "middle, the cards each seat is dealt and the extras (DEAL.SIZE)."))
            return out
        values = cycle_values(spec)
        used = {s for _, cycle, _ in values for s in cycle}
        steps = [s for s in (*PassDirection, *SeatDistance) if s in used]
        for n in counts:
            row = "".join(svg_table(n, dealer % n, s, f"pass-{n}-{s}") for s in steps
                          if not isinstance(s, SeatDistance) or abs(seat_distance(s)) < n)
            out.append(_raw(f'<div class="ch-diagram-row">{row}</div>',
                            f"{n} players", caption_first=True))
        items = nodes.bullet_list(classes=["ch-compact"])
        for text, cycle, is_default in values:
            li = nodes.list_item()
            deals = ", ".join(f"deal {k + 1} {s}" for k, s in enumerate(cycle))
            li += para(nodes.literal(text, text), f"{' (default)' if is_default else ''}: "
                       f"{deals}, then the cycle repeats.")
            items += li
        out.insert(0, para("The values of the switch ", nodes.literal("pass_cycle",
                                                                      "pass_cycle"),
                           " in spec/variants.toml, deal by deal:"))
        out.insert(1, items)
        return out


class DealFlowDirective(SphinxDirective):
    """``.. deal-flow::``: the phases of a deal and the conditions that move between them."""

    def run(self) -> list[nodes.Node]:
        return [_raw(svg_deal_flow(), "How a deal flows: the phases of the game state "
                     "(solid) and the scoring the engine does by itself (dashed).")]


class ProtocolDiagramDirective(SphinxDirective):
    """``.. protocol-diagram::``: the runner and adapter conversation of ``spec/protocol.md``."""

    def run(self) -> list[nodes.Node]:
        path = Path(context.spec_dir(self.env)) / "protocol.md"
        self.env.note_dependency(str(path))
        try:
            svg = svg_protocol(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise self.error(str(exc)) from None
        return [_raw(svg, "One conversation: requests from the runner (solid), answers from "
                     "the adapter (dashed).")]
