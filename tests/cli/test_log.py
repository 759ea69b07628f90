"""The game log of ``rules-ref play`` and ``rules-ref show``: what a card player reads."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules_ref.cards import parse_card
from rules_ref.cli.style import Style, can_encode
from rules_ref.wording import counted, direction_words

from .helpers import ROOT, program, run

DATA = Path(__file__).parent / "data"


@pytest.mark.rule("PASS.DIRECTION")
@pytest.mark.parametrize(("offset", "players", "said"), [
    (1, 8, "to the left"), (7, 8, "to the right"), (4, 8, "across"),
    (3, 7, "across (3 seats to the left)"), (2, 8, "2 seats to the left"),
    (6, 8, "2 seats to the right"), (10, 11, "to the right"), (None, 6, "nowhere"),
])
def test_pass_directions_are_said_as_players_say_them(offset: int | None, players: int,
                                                      said: str) -> None:
    assert direction_words(offset, players) == said


def test_plurals() -> None:
    assert [counted(1, "card"), counted(2, "card"), counted(0, "point")] == \
        ["1 card", "2 cards", "0 points"]


@pytest.mark.rule("PASS.DIRECTION")
def test_a_pass_to_the_right_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--preset", "hubpages", "--seed", "2"], capsys)
    assert (code, err) == (0, "")
    passes = [line for line in out.splitlines()
              if line.startswith("  seat ") and " passes " in line]
    assert passes, "hubpages passes every deal"
    assert all(" passes 3 cards to the right, to seat " in line for line in passes)
    assert "seat(s)" not in out


@pytest.mark.rule("TRICK.CANCEL", "TRICK.WINNER")
def test_a_trick_shows_the_seat_under_each_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play"], capsys)
    assert code == 0
    lines = out.splitlines()
    start = lines.index("  Trick 2: seat 3 leads ♠ (TRICK.LED_SUIT)")
    assert lines[start + 1:start + 5] == [
        "    seat:     3     4     5     6     7     0     1     2",
        "    card:    2♠   Q♠*    J♠    8♠ [10♠]  [9♠]  [9♠] [10♠]",
        "    cancelled: 9♠ pair, 10♠ pair (TRICK.CANCEL)",
        "    seat 4 wins with Q♠, the highest uncancelled ♠ (TRICK.WINNER): 13 points",
    ]


@pytest.mark.rule("SCORE.DEAL", "GAME.WINNER")
def test_scores_are_labelled_by_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--players", "6", "--seed", "3"], capsys)
    assert code == 0
    lines = out.splitlines()
    first = lines.index("  Deal 1 scores (SCORE.DEAL):")
    assert lines[first + 1] == "    seat:          0     1     2     3     4     5"
    assert lines[first + 2].startswith("    this deal: ")
    assert lines[first + 3].startswith("    total:     ")
    assert lines[-4:-2] == ["Game over (GAME.END), the final totals:",
                            "    seat:      0     1     2     3     4     5"]
    assert re.fullmatch(r"    total:( +-?\d+){6}", lines[-2])
    assert re.fullmatch(r"Winners?: seat \d+.* \(GAME\.WINNER\)", lines[-1])


@pytest.mark.parametrize("players", [6, 7, 8, 9, 10, 11])
def test_the_log_has_no_clumsy_words(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--players", str(players), "--seed", "5"], capsys)
    assert code == 0
    for clumsy in (r"\b1 cards", r"\b1 points", r"\b1 seats", r"\bat at\b", r"\(s\)"):
        assert not re.search(clumsy, out), clumsy


@pytest.mark.rule("VOID.TRICK", "VOID.LEADER")
def test_show_renders_a_replay_file_with_its_void_trick(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["show", str(DATA / "replay-void-trick.json")], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].endswith("replay-void-trick.json: disagreement (VOID.TRICK)")
    start = lines.index("  Trick 3: seat 5 leads ♥ (TRICK.LED_SUIT)")
    assert lines[start + 1:start + 8] == [  # in 80 columns
        "    seat:     5     0     1     2     3     4",
        "    card:  [A♥]  [K♥]  [K♥]  [A♥]  [Q♥]  [Q♥]",
        "    cancelled: Q♥ pair, K♥ pair, A♥ pair (TRICK.CANCEL)",
        "    no uncancelled ♥ is left, so nobody wins: the trick is set aside",
        "        (VOID.TRICK), 6 points",
        "    the pending pile now holds 6 cards, 6 points; seat 5 leads again",
        "        (VOID.LEADER)",
    ]
    assert lines[-1] == "The file ends here: deal 1, playing phase."


def _findings_after(statement: str) -> str:
    """The modules of :mod:`rules_ref.findings` a fresh interpreter holds after ``statement``."""
    code = (f"import sys; {statement}; "
            "print(sorted(m for m in sys.modules if m.startswith('rules_ref.findings')))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout


def test_show_knows_a_replay_file_without_importing_the_findings() -> None:
    # every start of the command line imports show's names; the findings load only to read
    # a replay file, whose format show and the runner take from one module
    assert _findings_after("import rules_ref.cli, rules_ref.cli.show") == "[]\n"
    assert "'rules_ref.findings.replay'" in _findings_after("import rules_ref.findings.replay")


def test_show_renders_a_record_as_play_prints_it(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    _, record, _ = run(["play", "--players", "9", "--seed", "4", "--json"], capsys)
    path = tmp_path / "game.json"
    path.write_text(record)
    _, played, _ = run(["play", "--players", "9", "--seed", "4"], capsys)
    code, shown, err = run(["show", str(path)], capsys)
    assert (code, err) == (0, "")
    assert shown.splitlines() == [f"Game record {path}", *played.splitlines()]


@pytest.mark.parametrize(("text", "problem"), [
    ('{"format": "something-else"}', "not a game record, a replay file or a position"),
    ("[1, 2]", "a position (it has no \"format\""),
    ("{", "not valid JSON"), ("7 2 1", "position text: expected"),
    ("", "the file is empty: expected a game record, a replay file or a position"),
    (" \n\n", "the file is empty"),
    ('{"format": "cancellation-hearts-conform-replay", "version": 7}', "replay version 7"),
    ('{"format": "cancellation-hearts-record", "players": 8}', "game.json"),
])
def test_show_refuses_a_bad_file_in_one_line(text: str, problem: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(text)
    code, out, err = run(["show", str(path)], capsys)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and problem in err and "Traceback" not in err


def test_cards_in_ascii_when_the_output_cannot_encode_the_symbols() -> None:
    done = program(["play", "--players", "7", "--seed", "2"],
                   env={"PYTHONIOENCODING": "cp1252"}, encoding="cp1252")
    assert (done.returncode, done.stderr) == (0, "")
    assert "♠" not in done.stdout and "\x1b" not in done.stdout
    assert re.search(r"^    card: .* (10|[2-9JQKA])[CDHS]\*", done.stdout, re.M)
    assert done.stdout.splitlines()[-1].startswith("Winner")


def test_every_command_survives_an_output_without_the_symbols() -> None:
    for args in (["rules", "LEAD.HEARTS"], ["trick", "QS", "QS", "KS"],
                 ["rules", "--search", "black", "maria"]):
        done = program(args, env={"PYTHONIOENCODING": "cp1252"}, encoding="cp1252")
        assert (done.returncode, done.stderr) == (0, ""), args
        assert "QS" in done.stdout or "KS" in done.stdout


def test_ascii_flag(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--ascii", "--players", "6"], capsys)
    assert code == 0
    assert not any(s in out for s in "♣♦♥♠")
    assert "[9C] a cancelled card" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colours_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    terminal = Style.for_stream(_Terminal())
    assert terminal.colour
    assert terminal.card(parse_card("QH")) == "\x1b[31mQ♥\x1b[0m"
    assert terminal.card(parse_card("QS")) == "Q♠"
    assert not Style.for_stream(io.StringIO()).colour
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Style.for_stream(_Terminal()).colour


def test_a_stream_that_lacks_the_symbols_gets_ascii() -> None:
    stream = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    assert not can_encode(stream)
    assert Style.for_stream(stream).card(parse_card("10H"), "winner") == "10H*"


@pytest.mark.parametrize(("name", "said", "source"), [
    ("toycrossing", "ruleset toycrossing, target 150",
     "The preset toycrossing reads ToyCrossing, Hearts Variations (Cancellation Hearts"),
    ("bicycle", "ruleset bicycle, target 150",
     "The preset bicycle reads Bicycle Cards, Cancellation Hearts; toycrossing has the"),
    ("hubpages", "ruleset hubpages, target 100",
     "The preset hubpages reads HubPages, How To Play Mini Cancellation Hearts."),
])
def test_the_header_names_the_preset_asked_for(name: str, said: str, source: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--preset", name], capsys)
    assert code == 0
    assert out.splitlines()[:2] == [f"Cancellation Hearts: 8 players, seed 1, {said}", source]


@pytest.mark.parametrize("form", ["json", "text"])
def test_show_prints_a_position_as_rules_ref_position_does(
        form: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, position, _ = run(["play", "--players", "7", "--seed", "5", "--at", "2.3", "--json"],
                            capsys)
    assert code == 0
    path = tmp_path / "position"
    path.write_text(position)
    if form == "text":
        _, text, _ = run(["position", str(path), "--text"], capsys)
        path.write_text(text)
    _, table, _ = run(["position", str(path)], capsys)
    code, out, err = run(["show", str(path)], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"Position {path} (spec/position.md)", *table.splitlines()]


@pytest.mark.parametrize(("args"), [
    ["--players", "11", "--preset", "hubpages", "--seed", "2"],
    ["--players", "6", "--preset", "crcowan"],
    ["--players", "10", "--preset", "bicycle", "--seed", "3"],
], ids=["hubpages-11", "crcowan-6", "bicycle-10"])
def test_every_line_of_the_log_fits_in_80_columns(args: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", *args], capsys)
    assert code == 0
    long = [line for line in out.splitlines() if len(line) > 80]
    assert long == []
    assert out.count("\n    ") > out.count("\n    seat:")  # some lines went on


def test_a_person_at_11_players_reads_lines_of_80_columns() -> None:
    done = program(["play", "--players", "11", "--seed", "5", "--seat", "4"],
                   stdin="hand\nscore\nhelp\n")
    assert done.returncode == 1
    assert [x for x in done.stdout.splitlines() if len(x) > 80] == []
    assert "\n    seat:      0     1     2     3     4     5     6     7     8     9    10\n" \
        in done.stdout  # the scores, by seat


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_a_preset_header_says_what_each_of_its_switches_means(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The meanings are those of spec/variants.toml, for each switch the preset sets."""
    import tomllib

    from rules_ref.cli.log import fit

    variants = tomllib.loads((ROOT / "spec" / "variants.toml").read_text(encoding="utf-8"))
    hub = next(p for p in variants["preset"] if p["name"] == "hubpages")
    code, out, _ = run(["play", "--preset", "hubpages"], capsys)
    assert code == 0
    expected = [f"The preset hubpages reads {hub['title']}.",
                "The ruleset differs from the default in (spec/variants.toml):"]
    for switch in variants["switch"]:
        if switch["name"] not in hub["values"]:
            continue
        value = hub["values"][switch["name"]]
        shown = ",".join(value) if isinstance(value, list) else str(value)
        meaning = next(" ".join(v["meaning"].split()) for v in switch["value"]
                       if v["value"] == value)
        expected += fit(f"  {switch['name']} = {shown}: {meaning}")
    lines = out.splitlines()
    assert lines[1:1 + len(expected)] == expected
    assert lines[1 + len(expected)].startswith("Seats 0 to 7; ")
    code, out, _ = run(["play"], capsys)
    assert out.splitlines()[1].startswith("Seats 0 to 7; ")  # the default changes nothing


@pytest.mark.rule("SCORE.CARD_POINTS")
def test_the_points_of_a_10d_say_what_it_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--preset", "hubpages", "--seed", "2", "--ascii"], capsys)
    assert code == 0
    said = "(each 10D counts -10: ten_of_diamonds_points = -10, SCORE.CARD_POINTS)"
    lines = out.splitlines()
    tricks = [i for i, x in enumerate(lines) if x.startswith("    card: ")]
    with_ten = [i for i in tricks if re.search(r"(^|[\s\[])10D\b", lines[i][10:])]
    assert with_ten and len(with_ten) < len(tricks)
    for i in tricks:
        result = next(j for j in range(i + 1, len(lines))
                      if " wins with " in lines[j] or "the trick is void" in lines[j])
        told = " ".join(x.strip() for x in lines[result:result + 3])
        assert (said in told) == (i in with_ten), lines[i:result + 2]
    code, out, _ = run(["play", "--seed", "2", "--ascii"], capsys)
    assert "ten_of_diamonds_points" not in out  # the default does not score the 10D


def test_a_custom_ruleset_is_listed_switch_by_switch(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rules.json"
    path.write_text('{"pass_count": 2, "moon_pair": "others-26"}', encoding="utf-8")
    code, out, _ = run(["play", "--ruleset", str(path), "--target", "40"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[:3] == ["Cancellation Hearts: 8 players, seed 1, ruleset custom, target 40",
                         "The ruleset differs from the default in (spec/variants.toml):",
                         "  pass_count = 2: Each player passes 2 cards."]
    assert lines[3].startswith("  moon_pair = others-26: ")
    assert any(x.startswith("  target = 40") for x in lines[3:8])
