"""``rules-ref conform`` offers the tables the rules refuse, and judges the answers.

Once a run, before the games, the runner sends a few ``start``s of tables at
the edge of what the rules refuse (:mod:`rules_ref.conform.refused_tables`),
chosen from what ``hello`` declares; each must be rejected. The reference
adapter rejects them; an adapter that sets up every table
(:mod:`tests.fakes.table_accepting_adapter`) is caught, under the rule
the reference cites. The rules named when an implementation rejects a start
the reference plays are checked here too.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules_ref.actions import DealCards
from rules_ref.cli import main
from rules_ref.conform.jobs import merge_jobs
from rules_ref.conform.outcome import Config
from rules_ref.conform.refused_tables import (
    ACCEPTS_REFUSED,
    SETUP_RULES,
    RefusedTable,
    refused_start,
    refused_starts,
    refused_tables,
    rejected_start_rules,
)
from rules_ref.conform.runner import Runner
from rules_ref.conform.session import Session
from rules_ref.conform.shard import Shard, shard_config
from rules_ref.errors import SetupError
from rules_ref.findings.classes import class_of
from rules_ref.findings.failure import COUNTS, Failure, FoundFailure, Stats
from rules_ref.jsonio.serialize import cards_from_json
from rules_ref.protocol.client import AdapterProcess
from rules_ref.protocol.handshake import Supports
from rules_ref.protocol.messages import SWITCHES
from rules_ref.protocol.start import start_state
from rules_ref.registry import rule_ids
from rules_ref.reports.merge import merge_summaries
from rules_ref.ruleset import PassForbidden, Ruleset
from rules_ref.state import GameState

from ..fakes.table_accepting_adapter import NAME, command

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
#: Three games; shrinking within the default budget (half of --max-seconds), which its checks
#: never reach, so that the examples asserted are the same on every machine.
RUN = ["--examples", "3", "--seed", "3", "--max-seconds", "600", "--timeout", "60"]
EVERY_COUNT = tuple(range(5, 12))
ANY = dict.fromkeys(SWITCHES, "any")


def _supports(players: tuple[int, ...] = EVERY_COUNT, /, **switches: Any) -> Supports:
    return Supports("an engine", players, switches)


def _shown(tables: list[RefusedTable]) -> list[tuple[int, str, int, str, list[str], int]]:
    return [(t.players, t.rule, t.ruleset.pass_count, str(t.ruleset.pass_forbidden),
             [str(s) for s in t.ruleset.pass_cycle], t.ruleset.min_players) for t in tables]


def conform(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    """``rules-ref conform --json ARGS`` in this process: (exit status, summary)."""
    code = main(["conform", "--json", *args])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


# --- which tables ---------------------------------------------------------------------------


@pytest.mark.rule("PASS.CARDS", "PASS.DIRECTION")
def test_every_switch_any_offers_the_two_boundaries_of_each_check() -> None:
    # seed 3 draws "left" for the smallest count of the cycles, seed 0 "right"
    assert _shown(refused_tables(_supports(**ANY), seed=3)) == [
        (10, "PASS.CARDS", 9, "two-of-clubs", ["left", "right"], 6),
        (11, "PASS.CARDS", 8, "two-of-clubs", ["left", "right"], 6),
        (5, "PASS.DIRECTION", 3, "none", ["left", "left-5"], 5),
        (10, "PASS.DIRECTION", 3, "none", ["left", "right-10"], 6)]
    assert _shown(refused_tables(_supports(**ANY), seed=0))[2:] == [
        (5, "PASS.DIRECTION", 3, "none", ["left", "right-5"], 5),
        (10, "PASS.DIRECTION", 3, "none", ["left", "left-10"], 6)]


def test_supports_that_allow_no_refused_table_give_none() -> None:
    assert refused_tables(_supports()) == []  # only the defaults
    # hands too big for PASS.CARDS: the cycles alone (seed 0 draws "right" first)
    assert refused_tables(_supports((6, 7, 8, 9), **ANY)) == [
        RefusedTable(6, Ruleset(pass_cycle=Ruleset.from_dict(
            {"pass_cycle": ["left", "right-6"]}).pass_cycle), "PASS.DIRECTION"),
        RefusedTable(9, Ruleset(pass_cycle=Ruleset.from_dict(
            {"pass_cycle": ["left", "left-9"]}).pass_cycle), "PASS.DIRECTION")]
    # two-of-clubs, but no pass_count the hand cannot pass; a cycle whose steps fit
    assert refused_tables(_supports(pass_forbidden=["two-of-clubs"], pass_count=[3, 7],
                                    pass_cycle=[["left", "left-3"]])) == []
    assert refused_tables(_supports(pass_count="any")) == []  # no pass_forbidden
    # 11 players: no step of k = 11 exists (k is at most 10)
    assert refused_tables(_supports((11,), pass_cycle="any")) == []
    # 5 players are played only under min_players = 5: not declared, not offered
    assert _shown(refused_tables(_supports((5, 6), pass_cycle="any"), seed=3)) == [
        (6, "PASS.DIRECTION", 3, "none", ["left", "left-6"], 6)]


def test_the_smallest_refused_pass_count_that_is_declared() -> None:
    listed = _supports((6, 7, 8, 9, 10, 11), pass_forbidden=["none", "two-of-clubs"],
                       pass_count=[3, 9])
    assert _shown(refused_tables(listed)) == [  # 9 at 11 players: above the boundary, 8
        (10, "PASS.CARDS", 9, "two-of-clubs", ["left", "right"], 6),
        (11, "PASS.CARDS", 9, "two-of-clubs", ["left", "right"], 6)]
    # the default pass_count 3 is not declared: the other switches keep declared values
    only = _supports((11,), pass_forbidden=["two-of-clubs"], pass_count=[8, 2],
                     target=[100])
    (table,) = refused_tables(only)
    assert (table.players, table.rule, table.ruleset.pass_count, table.ruleset.target) == (
        11, "PASS.CARDS", 8, 100)
    assert table.ruleset.pass_forbidden is PassForbidden.TWO_OF_CLUBS


def test_listed_cycles_at_their_boundary_and_a_cycle_refused_first() -> None:
    cycles = [["left", "right-7"], ["left-8"], ["left-6", "right"]]
    assert _shown(refused_tables(_supports((6, 7, 8), pass_cycle=cycles))) == [
        (6, "PASS.DIRECTION", 3, "none", ["left-6", "right"], 6),
        (8, "PASS.DIRECTION", 3, "none", ["left-8"], 6)]
    # the only cycle is refused at 10 players: PASS.CARDS is offered at 11 alone
    tables = refused_tables(_supports((10, 11), pass_cycle=[["left-10"]],
                                      pass_forbidden="any", pass_count="any"))
    assert _shown(tables) == [(11, "PASS.CARDS", 8, "two-of-clubs", ["left-10"], 6),
                              (10, "PASS.DIRECTION", 3, "none", ["left-10"], 6)]


def test_players_narrow_the_tables() -> None:
    assert _shown(refused_tables(_supports(**ANY), players=(7,), seed=3)) == [
        (7, "PASS.DIRECTION", 3, "none", ["left", "left-7"], 6)]
    assert refused_tables(_supports((6, 7), **ANY), players=(11,)) == []


def test_each_start_is_inside_the_supports_with_valid_cards_and_refused() -> None:
    supports = _supports(**ANY)
    starts = refused_starts(supports, seed=5)
    assert starts == refused_starts(supports, seed=5)  # the same for the same seed
    assert [m["hands"] for m in starts] != [m["hands"] for m in refused_starts(supports, seed=6)]
    for msg, table in zip(starts, refused_tables(supports, seed=5), strict=True):
        assert msg == refused_start(table, 5)
        ruleset = Ruleset.from_dict(msg["ruleset"])
        assert ruleset == table.ruleset and supports.allows(ruleset) == []
        assert (msg["deal_number"], msg["totals"]) == (1, [0] * table.players)
        with pytest.raises(SetupError) as refused:
            start_state(msg)
        assert refused.value.rule_id == table.rule
        # the same cards make up a deal of the default rules at that count
        game = GameState.start(table.players, Ruleset(min_players=min(6, table.players)))
        hands = tuple(cards_from_json(h, "hand") for h in msg["hands"])
        game.apply(DealCards(hands, cards_from_json(msg["extras"], "extras")))


# --- the rules of a rejected start ----------------------------------------------------------


@pytest.mark.rule("PLAYERS.COUNT", "DEAL.SOURCE")
def test_a_rejected_start_is_blamed_on_the_setup_rules_in_order() -> None:
    default = Ruleset()
    no_2c = Ruleset(pass_forbidden=PassForbidden.TWO_OF_CLUBS)
    seats = Ruleset.from_dict({"pass_cycle": ["left", "right-3"]})
    both = Ruleset.from_dict({"pass_cycle": ["left-2"], "pass_forbidden": "two-of-clubs"})
    across = Ruleset.from_dict({"pass_cycle": ["left", "across", "hold"]})
    assert rejected_start_rules(default, None) == ["PLAYERS.COUNT", "DEAL.SOURCE"]
    assert rejected_start_rules(no_2c, None) == ["PASS.CARDS", "PLAYERS.COUNT", "DEAL.SOURCE"]
    assert rejected_start_rules(seats, None) == ["PASS.DIRECTION", "PLAYERS.COUNT",
                                                 "DEAL.SOURCE"]
    assert rejected_start_rules(both, "FOLLOW.SUIT") == [
        "PASS.CARDS", "PASS.DIRECTION", "PLAYERS.COUNT", "DEAL.SOURCE"]
    assert rejected_start_rules(across, "NOT.A.RULE") == ["PLAYERS.COUNT", "DEAL.SOURCE"]
    assert rejected_start_rules(default, 7) == ["PLAYERS.COUNT", "DEAL.SOURCE"]
    for rule in SETUP_RULES:  # a set-up rule the implementation cites is the one named
        assert rejected_start_rules(both, rule) == [rule]
    assert set(SETUP_RULES) <= set(rule_ids())


_REJECTING = textwrap.dedent("""
    import sys
    from rules_ref.protocol.reference_adapter import ReferenceAdapter

    class Rejecting(ReferenceAdapter):
        def start(self, msg):
            cited = {"rule": sys.argv[1]} if sys.argv[1:] else {}
            return {"type": "rejected", **cited, "reason": "no such game here"}

    sys.exit(Rejecting().serve(sys.stdin, sys.stdout))
""")


def _game_start(ruleset: Ruleset, players: int = 8) -> dict[str, Any]:
    msg = refused_start(RefusedTable(players, ruleset, "-"), 1)
    assert start_state(msg).players == players
    return msg


@pytest.mark.parametrize(("cited", "ruleset", "rules"), [
    ("DEAL.SIZE", Ruleset(), ["DEAL.SIZE"]),
    (None, Ruleset(pass_forbidden=PassForbidden.TWO_OF_CLUBS),
     ["PASS.CARDS", "PLAYERS.COUNT", "DEAL.SOURCE"]),
    ("TRICK.CANCEL", Ruleset(), ["PLAYERS.COUNT", "DEAL.SOURCE"]),
])
def test_a_session_names_those_rules(cited: str | None, ruleset: Ruleset,
                                     rules: list[str]) -> None:
    proc = AdapterProcess([sys.executable, "-c", _REJECTING, *([cited] if cited else [])], 30)
    try:
        proc.hello()
        session = Session(proc, Stats())
        with pytest.raises(FoundFailure) as found:
            session.start(_game_start(ruleset))
            session.flush()  # with pipeline, a start is judged in its turn
    finally:
        proc.close()
    assert found.value.failure.rules == rules
    assert class_of(found.value.failure) == (rules[0],
                                             "rejects the start of a game the rules allow")


# --- judging the answer to a refused table --------------------------------------------------


def _offer(command_: list[str], msg: dict[str, Any],
           recorded: list[Failure] | None = None) -> Session:
    proc = AdapterProcess(command_, 30)
    try:
        proc.hello()
        session = Session(proc, Stats(),
                          on_divergence=None if recorded is None else recorded.append)
        session.start(msg)
        return session
    finally:
        proc.close()


@pytest.mark.rule("PASS.CARDS", "PASS.DIRECTION")
def test_the_reference_rejects_each_citing_the_rule_and_an_acceptance_is_a_divergence(
) -> None:
    starts = refused_starts(_supports(**ANY), seed=3)
    session = _offer(REFERENCE, starts[0])
    assert (session.stats.actions, session.stats.citations, session.state) == (1, 0, None)
    with pytest.raises(FoundFailure) as found:
        _offer(command(), starts[0])
    failure = found.value.failure
    assert (failure.kind, failure.rules, failure.failing, failure.actions) == (
        "disagreement", ["PASS.CARDS"], None, [])
    assert failure.summary == (
        "the implementation accepted a table the rules refuse: pass_count 9 at 10 players "
        "under pass_forbidden = two-of-clubs leaves a hand of 10 with both 2C only 8 cards it "
        "may pass (rule PASS.CARDS)")
    assert failure.expected["type"] == "rejected" and failure.actual["type"] == "observation"
    assert class_of(failure) == ("PASS.CARDS", ACCEPTS_REFUSED)
    recorded: list[Failure] = []
    session = _offer(command(), starts[3], recorded)
    assert [f.rules for f in recorded] == [["PASS.DIRECTION"]]
    assert recorded[0].summary == (
        "the implementation accepted a table the rules refuse: pass_cycle left, right-10 at 10 "
        "players has the step right-10, which passes 10 seats away where a table of 10 has "
        "only 9 other seats (rule PASS.DIRECTION)")
    assert (session.stats.divergences, session.state) == (1, None)


def test_a_rejection_citing_another_rule_is_a_citation_not_a_failure() -> None:
    msg = refused_starts(_supports(**ANY), seed=3)[0]
    session = _offer([sys.executable, "-c", _REJECTING, "DEAL.SIZE"], msg)
    assert session.stats.citations == 1
    assert session.notes == ["start of a table the rules refuse (10 players): rejected "
                             "citing DEAL.SIZE, the reference cites PASS.CARDS"]
    # the rule is optional: a rejection citing none is no citation that differs
    session = _offer([sys.executable, "-c", _REJECTING], msg)
    assert (session.stats.citations, session.notes) == (0, [])


_CRASHING = textwrap.dedent("""
    import sys
    from rules_ref.protocol.reference_adapter import ReferenceAdapter

    class Crashing(ReferenceAdapter):
        def start(self, msg):
            raise ZeroDivisionError("no table today")

    sys.exit(Crashing().serve(sys.stdin, sys.stdout))
""")


def test_an_error_answer_is_the_implementations_internal_error() -> None:
    msg = refused_starts(_supports(**ANY), seed=3)[2]
    with pytest.raises(FoundFailure) as found:
        _offer([sys.executable, "-c", _CRASHING], msg)
    failure = found.value.failure
    assert (failure.kind, failure.rules, failure.actual["type"]) == (
        "error", ["PASS.DIRECTION"], "error")
    assert failure.summary == ("the implementation reported an internal error on start of the "
                               "game (a table the rules refuse): ZeroDivisionError: no table "
                               "today")
    assert class_of(failure) == ("PASS.DIRECTION", "reports an internal error on the start of "
                                                   "a game")


# --- once a run -----------------------------------------------------------------------------


def test_once_a_run_only_shard_1_and_job_0_offer_them() -> None:
    config = Config(command=REFERENCE, seed=9)
    assert shard_config(config, Shard(1, 3)).refused_tables is True
    assert shard_config(config, Shard(2, 3)).refused_tables is False
    assert shard_config(config, None) is config and config.refused_tables is True
    runner = Runner(config, job=1)
    runner.supports = _supports(**ANY)
    runner.offer_refused_tables()  # job 1 sends nothing: it has no adapter to send to
    assert runner.stats.refused == 0 and runner.proc is None

    def result(refused: int) -> dict[str, Any]:
        stats = dict.fromkeys(COUNTS, 1) | {"refused": refused}
        return {"stats": stats, "rare": {}, "exercise": {}, "offers": {}, "failure": None,
                "notes": [], "stopped": "", "examples_run": 1, "divergences": None,
                "supports": None}

    merged = merge_jobs({0: result(4), 1: result(0)}, 2, 1.0)
    assert (merged.stats.refused, merged.stats.games) == (4, 2)
    base = {"verdict": "pass", "games": 1, "deals": 1, "actions_compared": 5,
            "illegal_offered": 0, "rule_citations_differing": 0, "adapter_restarts": 0}
    summary = merge_summaries([("a", {**base, "seed": 1, "shard": "1/2",
                                      "refused_tables_offered": 4}),
                               ("b", {**base, "seed": 1, "shard": "2/2",
                                      "refused_tables_offered": 0})])
    assert summary["refused_tables_offered"] == 4


# --- whole runs -----------------------------------------------------------------------------


def test_the_reference_adapter_passes_with_the_refused_tables_offered(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary = conform(capsys, *RUN, "--out", str(tmp_path), "--", *REFERENCE)
    assert code == 0, summary
    assert summary["verdict"] == "pass"
    assert summary["refused_tables_offered"] == 4
    assert summary["rule_citations_differing"] == 0
    assert summary["classes"] == [] and list(tmp_path.iterdir()) == []


@pytest.mark.rule("PASS.CARDS", "PASS.DIRECTION")
def test_an_adapter_that_sets_up_every_table_is_caught(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, summary = conform(capsys, *RUN, "--out", str(tmp_path), "--", *command())
    assert code == 1, summary
    assert summary["verdict"] == "disagreement" and summary["adapter"] == NAME
    assert summary["refused_tables_offered"] == 4
    classes = {c["key"]: c for c in summary["classes"]}
    assert set(classes) == {f"PASS.CARDS: {ACCEPTS_REFUSED}",
                            f"PASS.DIRECTION: {ACCEPTS_REFUSED}"}
    assert Counter((c["rule"], c["count"]) for c in classes.values()) == Counter(
        [("PASS.CARDS", 2), ("PASS.DIRECTION", 2)])
    for cls in classes.values():
        assert (cls["what"], cls["kind"], cls["shrunk"]) == (
            ACCEPTS_REFUSED, "disagreement", "start")
        assert [f["words"] for f in cls["facets"]] == [ACCEPTS_REFUSED]
        assert cls["example"]["rules"] == [cls["rule"]] and cls["example"]["actions"] == []
    assert summary["rules"] == ["PASS.CARDS"]
    # its replay file sends the start again: the broken adapter accepts it, the reference not
    replay = Path(summary["replay"])
    assert replay.parent == tmp_path and json.loads(replay.read_text())["actions"] == []
    code, again = conform(capsys, "--replay", str(replay), "--", *command())
    assert (code, again["rules"]) == (1, ["PASS.CARDS"])
    code, reference = conform(capsys, "--replay", str(replay), "--", *REFERENCE)
    assert (code, reference["verdict"]) == (0, "pass")


def test_jobs_and_shards_offer_them_once_a_run(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    code, summary = conform(capsys, *RUN, "--jobs", "2", "--out", str(tmp_path / "jobs"), "--",
                            *command())
    assert (code, summary["refused_tables_offered"]) == (1, 4)
    assert sorted((c["rule"], c["count"], c["games"]) for c in summary["classes"]) == [
        ("PASS.CARDS", 2, 1), ("PASS.DIRECTION", 2, 1)]
    code, second = conform(capsys, *RUN, "--shard", "2/2", "--out", str(tmp_path / "shard"),
                           "--", *command())
    assert (code, second["refused_tables_offered"], second["classes"]) == (0, 0, [])
