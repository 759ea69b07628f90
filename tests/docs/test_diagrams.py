"""The SVG diagrams of the rules site: drawn from the engine and the spec, readable in any theme."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from rules_ref import passing
from rules_ref.ruleset import PassDirection, SeatDistance
from rules_ref.state_parts import Phase

from . import ROOT, chdocs

diagrams = chdocs("diagrams")
spec_module = chdocs("spec")
SVG = "{http://www.w3.org/2000/svg}"
PROTOCOL = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _arrows(svg: str) -> list[tuple[float, float, float, float]]:
    """Start and end of every arrow path (``M x,y Q cx,cy x2,y2``)."""
    found = []
    for path in _parse(svg).iter(f"{SVG}path"):
        m = re.fullmatch(r"M([\d.]+),([\d.]+) Q[\d.-]+,[\d.-]+ ([\d.]+),([\d.]+)",
                         path.get("d", ""))
        if m and path.get("marker-end"):
            x1, y1, x2, y2 = (float(v) for v in m.groups())
            found.append((x1, y1, x2, y2))
    return found


def _nearest(point: tuple[float, float], spots: list[tuple[float, float]]) -> int:
    return min(range(len(spots)), key=lambda i: (spots[i][0] - point[0]) ** 2
               + (spots[i][1] - point[1]) ** 2)


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize("players", range(6, 12))
@pytest.mark.parametrize(("direction", "offset"), [
    (PassDirection.LEFT, 1), (PassDirection.RIGHT, -1), (PassDirection.ACROSS, None)])
def test_every_seat_has_one_arrow_to_the_seat_its_cards_go_to(
        players: int, direction: PassDirection, offset: int | None) -> None:
    svg = diagrams.svg_table(players, 0, direction, "k")
    spots = diagrams.seat_positions(players, 100, 100, 72)
    pairs = sorted((_nearest((a, b), spots), _nearest((c, d), spots))
                   for a, b, c, d in _arrows(svg))
    step = players // 2 if offset is None else offset
    assert pairs == [(s, (s + step) % players) for s in range(players)]


@pytest.mark.rule("PASS.DIRECTION")
def test_a_hold_deal_draws_no_arrow_and_marks_the_dealer() -> None:
    svg = diagrams.svg_table(9, 4, PassDirection.HOLD, "h")
    assert _arrows(svg) == []
    texts = ["".join(t.itertext()) for t in _parse(svg).iter(f"{SVG}text")]
    assert texts.count("D") == 1 and "hold" in texts and "nobody passes" in texts
    assert sorted(t for t in texts if t.isdigit()) == sorted(str(s) for s in range(9))


def _curves(svg: str) -> list[list[tuple[float, float]]]:
    """The start, control and end points of every arrow (the curve stays inside them)."""
    found = []
    for path in _parse(svg).iter(f"{SVG}path"):
        numbers = [float(v) for v in re.findall(r"-?[\d.]+", path.get("d", ""))]
        if path.get("marker-end"):
            found.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return found


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize("players", range(6, 12))
def test_the_direction_is_named_where_no_arrow_passes(players: int) -> None:
    """Every direction's name, "across" and "left-3" included, lies above every arrow.

    Its text box (baseline y, down to 4 px below it for the descenders, up to the font
    size above) ends above the highest point any arrow's curve can reach, and inside the
    drawing (the viewBox starts above it).
    """
    for step in (*PassDirection, *SeatDistance):
        if isinstance(step, SeatDistance) and abs(passing.seat_distance(step)) >= players:
            continue
        svg = diagrams.svg_table(players, 0, step, "k")
        root = _parse(svg)
        named = [t for t in root.iter(f"{SVG}text") if "".join(t.itertext()) == str(step)]
        assert len(named) == 1, (players, step)
        baseline, size = float(named[0].get("y", "")), float(named[0].get("font-size", ""))
        highest = min((y for curve in _curves(svg) for _, y in curve), default=math.inf)
        assert baseline + 4 < highest, (players, step)
        top = float(root.get("viewBox", "").split()[1])
        assert top <= baseline - size, (players, step)


def test_seat_one_is_on_the_left_of_seat_zero_seen_from_above() -> None:
    spots = diagrams.seat_positions(8, 100, 100, 72)
    assert spots[0][1] > 100 and abs(spots[0][0] - 100) < 1e-9  # seat 0 at the bottom
    assert spots[1][0] < spots[0][0] and spots[2][0] < 100  # then round to the left


def test_the_pass_cycle_values_come_from_variants_toml() -> None:
    spec = spec_module.load_spec(ROOT / "spec")
    values = diagrams.cycle_values(spec)
    assert values[0] == ("left, right", (PassDirection.LEFT, PassDirection.RIGHT), True)
    assert ("left, right, across, hold", tuple(PassDirection), False) in values
    assert len(values) == len({v[0] for v in values})


def test_the_deal_flow_draws_every_phase_of_the_game_state() -> None:
    svg = diagrams.svg_deal_flow("f")
    texts = {"".join(t.itertext()) for t in _parse(svg).iter(f"{SVG}text")}
    assert {p.value for p in Phase} <= texts
    assert "scoring" in texts
    assert len(_arrows(svg)) == len(diagrams.FLOW_EDGES)


def test_the_protocol_diagram_names_the_messages_of_protocol_md() -> None:
    requests, responses, actions = diagrams.protocol_messages(PROTOCOL)
    assert requests == ["hello", "start", "action", "bye"]
    assert set(responses) >= {"observation", "rejected"}
    assert actions == ["pass", "play", "moon", "deal"]
    texts = ["".join(t.itertext()) for t in _parse(diagrams.svg_protocol(PROTOCOL))
             .iter(f"{SVG}text")]
    assert "action (pass / play / moon / deal), once per action" in texts
    assert texts.count("observation or rejected") == 2


def test_a_protocol_without_a_message_the_diagram_draws_is_an_error() -> None:
    renamed = PROTOCOL.replace("### `bye`", "### `goodbye`")
    with pytest.raises(ValueError, match="disagree"):
        diagrams.svg_protocol(renamed)


@pytest.mark.parametrize("svg", [
    diagrams.svg_table(7, 0, PassDirection.LEFT, "a"), diagrams.svg_deal_flow("b"),
    diagrams.svg_protocol(PROTOCOL, "c")])
def test_no_fixed_colour_so_the_diagrams_follow_dark_mode(svg: str) -> None:
    assert re.findall(r"#[0-9a-fA-F]{3,6}\b|\b(?:black|white)\b|rgb\(", svg) == []
    assert "currentColor" in svg
    ET.fromstring(svg)  # well-formed XML


def test_marker_ids_are_unique_per_diagram() -> None:
    a = diagrams.svg_table(6, 0, PassDirection.LEFT, "pass-6-left")
    b = diagrams.svg_table(6, 0, PassDirection.RIGHT, "pass-6-right")
    assert re.findall(r'<marker id="([^"]+)"', a + b) == ["arrow-pass-6-left",
                                                          "arrow-pass-6-right"]



@pytest.mark.rule("DEAL.SIZE")
def test_the_seats_only_table_names_the_hand_size_and_the_extras() -> None:
    texts = ["".join(t.itertext()) for t in _parse(diagrams.svg_table(7, 0, None, "s"))
             .iter(f"{SVG}text")]
    assert "7 players" in texts and "14 each, 6 extras" in texts
