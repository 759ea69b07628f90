"""A rejected start is named for what decides it, read from every start the run offered.

One start the implementation rejects says nothing about why; the run's
starts do (:mod:`rules_ref.findings.start_tally`, :mod:`rules_ref.findings.start_causes`).
An engine that rejects every start played no game: its run tested nothing,
and says so. One that rejects a player count, a switch's value or a kind of
deal is one finding of that count, switch or deal rule, whatever the table
each rejection came at (:mod:`tests.fakes.start_rejecting_adapters`).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.findings.start_causes import EVERY_START, StartCause, start_cause
from rules_ref.findings.start_tally import StartTally, start_features
from rules_ref.ruleset import Ruleset

from ..conform.in_process import answering_in_process
from ..fakes.start_rejecting_adapters import adapter, command

#: A run bounded by games; at this seed each adapter's cause is offered and played otherwise.
RUN = ["--examples", "60", "--seed", "1", "--max-seconds", "600", "--timeout", "60",
       "--shrink-seconds", "5"]


def _run(capsys: pytest.CaptureFixture[str], out: Path, name: str, *args: str
         ) -> tuple[int, dict[str, Any], str]:
    """``rules-ref conform`` against adapter ``name``: (exit status, JSON summary, text)."""
    with answering_in_process(lambda: adapter(name)):
        code = main(["conform", "--json", *RUN, "--out", str(out), *args, "--",
                     *command(name)])
        summary = json.loads(capsys.readouterr().out)
        again = main(["conform", *RUN, "--out", str(out), *args, "--", *command(name)])
    assert again == code
    return code, summary, capsys.readouterr().out


@pytest.mark.rule("PLAYERS.COUNT", "MOON.CHOICE", "DEAL.SOURCE")
@pytest.mark.parametrize(("name", "rule", "switch", "words"), [
    ("no-eleven", "PLAYERS.COUNT", None, [
        "PLAYERS.COUNT: rejects every game of 11 players",
        "  plays the other counts offered (5 to 10)",
        "    the implementation cites PLAYERS.COUNT; it says: 11 players are not supported"]),
    ("no-others-52", "MOON.CHOICE", "moon", [
        "MOON.CHOICE: rejects every game under moon = others-52",
        "  plays the other values of moon offered (choice-26 and others-104)",
        "    the implementation says: unknown moon scoring",
        "  decided by the switch moon (here others-52): rules-ref rules MOON.CHOICE"]),
    ("no-clubs-aside", "DEAL.SOURCE", None, [
        "DEAL.SOURCE: rejects every deal in which both 2♣ lie among the extras",
        "  plays the other deals",
        "    the implementation says: no seat holds the 2C"]),
])
def test_a_rejected_start_is_one_finding_of_what_decides_it(
        name: str, rule: str, switch: str | None, words: list[str],
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary, text = _run(capsys, tmp_path, name)
    assert (code, summary["verdict"]) == (1, "disagreement")
    assert 0 < summary["starts_played"] < summary["starts_offered"]
    (cls,) = summary["classes"]  # every rejection, whatever its table, in one finding
    assert (cls["key"], cls["rule"], cls["switch"], cls["words"]) == (words[0], rule, switch,
                                                                     words)
    assert cls["count"] == summary["starts_offered"] - summary["starts_played"]
    # the example is a start that holds the cause, named for it in its replay file
    assert cls["example"]["rules"] == [rule] and cls["example"]["actions"] == []
    assert rule.lower().replace(".", "-") in cls["replay"]
    assert "\n".join(f"  {line}" if i else f" 1. [UNEXPECTED] {line}"
                     for i, line in enumerate(words)) in text


@pytest.mark.rule("PLAYERS.COUNT")
def test_an_engine_that_rejects_every_start_tested_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary, text = _run(capsys, tmp_path, "every-start")
    assert (code, summary["verdict"], summary["deals"], summary["starts_played"]) == (
        4, "nothing-tested", 0, 0)
    n = summary["starts_offered"]
    (cls,) = summary["classes"]
    assert (cls["key"], cls["rule"], cls["switch"], cls["count"]) == (EVERY_START, None, None, n)
    assert cls["words"] == [
        "rejects every start: no game was played",
        "  rejected at 5 to 11 players and under every ruleset drawn",
        "    the implementation says: this engine plays no game yet"]
    assert cls["example"]["rules"] == []  # no rule decides it
    # a start the implementation rejected put it through no condition, the start's own included
    assert {rule: sum(c.values()) for rule, c in summary["exercise"].items() if any(
        c.values())} == {}
    assert "  rules exercised: 0 of 33 in full; conditions exercised: 0 of " in text
    verdict = (f"nothing was tested: the implementation rejected every start it was offered "
               f"({n} of {n} starts), so no game was played")
    assert text.endswith(f"{verdict}\nverdict: NOTHING-TESTED\n")
    with answering_in_process(lambda: adapter("every-start")):
        # the Markdown and HTML reports carry the same words
        for name in ("report.md", "report.html"):
            report = tmp_path / name
            main(["conform", *RUN, "--out", str(tmp_path), "--report", str(report), "--",
                  *command("every-start")])
            capsys.readouterr()
            written = report.read_text(encoding="utf-8")
            assert all(line.strip() in written for line in cls["words"]), name
            assert verdict in written, name
        # merged runs say it as one run does
        summaries = []
        for seed in ("1", "2"):
            path = tmp_path / f"run-{seed}.json"
            main(["conform", "--json", *RUN[:2], "--seed", seed, *RUN[4:], "--out", str(tmp_path),
                  "--", *command("every-start")])
            path.write_text(capsys.readouterr().out)
            summaries.append(str(path))
        code = main(["conform", "--merge", *summaries])
        merged = capsys.readouterr().out
        assert code == 4 and merged.endswith("so no game was played\nverdict: NOTHING-TESTED\n")
        assert "    rejects every start: no game was played: " in merged


def test_an_expected_rejection_of_every_start_is_still_nothing_tested(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"version": 1, "expected": [{"rule": "PLAYERS.COUNT"}]}))
    code, summary, _ = _run(capsys, tmp_path, "every-start", "--expect", str(expect))
    assert (code, summary["verdict"]) == (4, "nothing-tested")


# --- the cause, read from the tally ---------------------------------------------------------


def _start(players: int = 8, deal_number: int = 1, dealer: int = 0, total: int = 0,
           **switches: Any) -> dict[str, Any]:
    ruleset = Ruleset(**switches).to_dict()
    return {"type": "start", "players": players, "ruleset": ruleset,
            "deal_number": deal_number, "dealer": dealer,
            "totals": [total] + [0] * (players - 1)}


def _tally(*starts: tuple[dict[str, Any], str]) -> StartTally:
    tally = StartTally()
    for msg, answer in starts:
        tally.note(msg, answer)
    return tally


def _what(cause: StartCause | None) -> tuple[str | None, str | None, str] | None:
    return None if cause is None else (cause.rule, cause.switch, cause.what)


def test_the_start_of_a_later_deal_or_with_totals_is_its_own_cause() -> None:
    later = _tally((_start(), "observation"), (_start(deal_number=3), "rejected"),
                   (_start(7, deal_number=2), "rejected"), (_start(7), "observation"))
    assert _what(start_cause(later)) == (
        "DEAL.DEALER", None, "rejects every game that starts after the first deal")
    totals = _tally((_start(), "observation"), (_start(total=40), "rejected"),
                    (_start(9, total=12), "rejected"), (_start(9, dealer=2), "observation"))
    assert _what(start_cause(totals)) == (
        "GAME.END", None, "rejects every game that starts with totals above zero")


def test_the_largest_pass_count_under_pass_forbidden_is_a_cause_of_its_own() -> None:
    from rules_ref.ruleset import PassForbidden

    two = PassForbidden.TWO_OF_CLUBS
    edge = _tally((_start(9, pass_forbidden=two, pass_count=9), "rejected"),
                  (_start(10, pass_forbidden=two, pass_count=8), "rejected"),
                  (_start(9, pass_forbidden=two, pass_count=3), "observation"),
                  (_start(10, pass_count=8), "observation"),
                  (_start(9, pass_count=9), "observation"))
    # pass_count 9 and 8 were played without pass_forbidden: the edge decides, not them
    assert _what(start_cause(edge)) == (
        "PASS.CARDS", "pass_count", "rejects every game with the largest pass_count the rules "
        "allow under pass_forbidden = two-of-clubs")


def test_no_cause_when_nothing_the_starts_hold_explains_every_rejection() -> None:
    # 8 players rejected once and played once: neither the count nor a switch decides
    mixed = _tally((_start(), "rejected"), (_start(), "observation"), (_start(9), "observation"))
    assert start_cause(mixed) is None
    assert start_cause(_tally((_start(), "observation"))) is None
    assert start_cause(StartTally()) is None


def test_of_two_explanations_the_one_of_fewer_values_then_the_count_first() -> None:
    # 10 and 11 players rejected, each under target 50 only: one value beats two
    fewer = _tally((_start(10, target=50), "rejected"), (_start(11, target=50), "rejected"),
                   (_start(8), "observation"), (_start(9), "observation"))
    assert _what(start_cause(fewer)) == ("GAME.END", "target",
                                         "rejects every game under target = 50")
    tie = _tally((_start(10, target=50), "rejected"), (_start(8), "observation"))
    assert _what(start_cause(tie)) == ("PLAYERS.COUNT", None,
                                       "rejects every game of 10 players")
    five = _tally((_start(5, min_players=5), "rejected"), (_start(8, min_players=5),
                                                           "observation"))
    assert _what(start_cause(five)) == ("PLAYERS.COUNT", "min_players",
                                        "rejects every game of 5 players")


def test_a_start_is_tallied_by_what_it_holds() -> None:
    msg = {**_start(6), "hands": [["2C", "2C"], ["3C"]], "extras": ["4C"]}
    features = start_features(msg)
    assert features[:2] == ("players=6", "min_players=6")
    assert features[-8:] == ("deal_number=first", "dealer=seat-0", "totals=zero",
                             "deal:twin-hands=no", "deal:both-2c-aside=no",
                             "deal:points-only=no", "deal:one-suit=yes", "deal:pair-held=yes")
    tally = _tally((msg, "rejected"), (msg, "observation"), (msg, "error"))
    assert (tally.starts, tally.played, tally.rejections, tally.all_rejected) == (3, 1, 1, False)
    again = StartTally.from_json(json.loads(json.dumps(tally.to_json())))
    again.add(tally)
    assert (again.starts, again.offered["players=6"], again.rejected) == (
        6, 6, Counter({f: 2 for f in features}))
