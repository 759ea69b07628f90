"""``rules-ref conform --shard K/N`` and ``--merge``: a run spread over machines, put together.

The shards of one run against the reference adapter must play as many
games as the run and merge to a passing verdict; merging summaries adds
their counters and their divergence classes exactly (by key), keeps the
earliest first sighting and the smallest example, and gives the exit
status one run with the merged result would have. Mismatched, broken or
missing summaries are one error line and exit status 2.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_ref.cli import main
from rules_ref.conform.shard import MAX_SHARDS, Shard, parse_shard, shard_seed
from rules_ref.errors import InputError
from rules_ref.reports.merge import merge_summaries, merged_exit, rules_version

REFERENCE = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
#: A time budget and an answer timeout no machine comes near: the runs play all their games.
UNHURRIED = ["--max-seconds", "600", "--timeout", "60"]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["conform", *args])
    out, err = capsys.readouterr()
    return code, out, err


# --- shards ---------------------------------------------------------------------------------

def test_shards_split_the_games_and_cover_them_all() -> None:
    assert [Shard(k, 3).games(10) for k in (1, 2, 3)] == [4, 3, 3]
    assert [Shard(k, 4).games(100) for k in (1, 2, 3, 4)] == [25, 25, 25, 25]
    assert sum(Shard(k, 7).games(1000) for k in range(1, 8)) == 1000
    assert Shard(5, 5).games(3) == 1  # a shard always plays a game


def test_shard_seeds_are_fixed_distinct_and_the_whole_run_keeps_its_seed() -> None:
    assert shard_seed(42, 1, 1) == 42
    seeds = [shard_seed(42, k, 8) for k in range(1, 9)]
    assert len(set(seeds)) == 8
    assert seeds == [shard_seed(42, k, 8) for k in range(1, 9)]
    assert shard_seed(43, 1, 8) not in seeds
    assert all(0 <= s < 2**64 for s in seeds)


def test_parse_shard() -> None:
    assert parse_shard("2/4") == Shard(2, 4)
    assert str(parse_shard(" 1 / 1 ")) == "1/1"
    assert parse_shard(f"{MAX_SHARDS}/{MAX_SHARDS}") == Shard(MAX_SHARDS, MAX_SHARDS)
    for bad, words in (("0/3", "no shard 0 of 3"), ("4/3", "no shard 4 of 3"),
                       ("x", "expected K/N"), ("1/0", "from 1 to"), ("-1/3", "expected K/N"),
                       (f"1/{MAX_SHARDS + 1}", "from 1 to"), ("1/2/3", "expected K/N")):
        with pytest.raises(InputError, match=words):
            parse_shard(bad)


@pytest.mark.parametrize("bad", ["0/3", "4/3", "x", ""])
def test_a_bad_shard_is_one_error_line_exit_2(bad: str, capsys: pytest.CaptureFixture[str]
                                              ) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["conform", "--shard", bad, "--", *REFERENCE])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "--shard" in err and "Traceback" not in err


@pytest.mark.parametrize(("extra", "words"), [
    ([], "--shard 2/3 needs --seed, the same on every machine"),
    (["--seed", "1", "--replay", "r.json"], "--replay plays one game again"),
])
def test_a_shard_needs_a_seed_and_a_search(extra: list[str], words: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--shard", "2/3", *extra, "--", *REFERENCE)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_shards_of_a_run_merge_to_a_passing_verdict(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    files = []
    shard_games = []
    for k in (1, 2, 3):
        code, out, err = _run(capsys, "--json", "--shard", f"{k}/3", "--seed", "5",
                              "--examples", "7", *UNHURRIED, "--out", str(tmp_path / "out"),
                              "--", *REFERENCE)
        assert code == 0, err
        summary = json.loads(out)
        assert summary["shard"] == f"{k}/3"
        assert summary["seed"] == 5  # the run's seed; the shard's own is beside it
        assert summary["shard_seed"] == shard_seed(5, k, 3)
        assert summary["examples"] == [3, 2, 2][k - 1]
        assert summary["rules_version"] == rules_version()
        assert f"--seed 5 --shard {k}/3 --examples 7" in summary["rerun"]
        shard_games.append(summary["games"])
        path = tmp_path / f"shard-{k}.json"
        path.write_text(out)
        files.append(str(path))
    code, out, err = _run(capsys, "--json", "--merge", *files)
    assert code == 0, err
    merged = json.loads(out)
    assert merged["verdict"] == "pass"
    assert merged["games"] == sum(shard_games)
    assert merged["examples"] == 7
    assert merged["missing_shards"] == []
    assert [m["shard"] for m in merged["merged"]] == ["1/3", "2/3", "3/3"]
    # Text: the same verdict, and a missing shard is named.
    code, out, _ = _run(capsys, "--merge", *files[:2])
    assert code == 0
    assert "not merged: shard(s) 3/3" in out
    assert out.strip().splitlines()[-1] == "verdict: PASS"


def test_the_first_of_one_shard_is_the_whole_run(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    runs = []
    for extra in ([], ["--shard", "1/1"]):
        code, out, err = _run(capsys, "--json", *extra, "--seed", "9", "--examples", "3",
                              *UNHURRIED, "--out", str(tmp_path), "--", *REFERENCE)
        assert code == 0, err
        runs.append(json.loads(out))
    for key in ("games", "deals", "actions_compared", "illegal_offered"):
        assert runs[0][key] == runs[1][key], key


# --- merging summaries ----------------------------------------------------------------------

def _example(actions: int) -> dict[str, Any]:
    return {"kind": "disagreement", "rules": ["PASS.CARDS"], "summary": "x", "start": {},
            "actions": [{"type": "play", "seat": 0, "card": "2C"}] * actions, "failing": None,
            "position": {}, "expected": {}, "actual": {}}


def _class(key: str, count: int, games: int, game: int, seconds: float, actions: int,
           replay: str, expected: bool = False) -> dict[str, Any]:
    rule, what = key.split(": ", 1)
    return {"key": key, "rule": rule, "rules": [rule], "what": what, "kind": "disagreement",
            "switch": None, "expected": expected, "expectation": 0 if expected else None,
            "count": count, "games": games, "first_seen": {"game": game, "seconds": seconds},
            "example": _example(actions), "replay": replay, "expected_count": count * expected,
            "shrunk": f"shrunk to {actions} actions"}


PASS_2C = "PASS.CARDS: rejects a pass that contains 2♣"
MOON = "MOON.CONDITION: the moon is seen by the implementation only"
TIE = "GAME.WINNER: a tie has one winner"


def _summary(seed: int, shard: str | None, classes: list[dict[str, Any]],
             not_seen: list[dict[str, Any]], games: int = 10) -> dict[str, Any]:
    return {"verdict": "disagreement" if any(not c["expected"] for c in classes) else "pass",
            "adapter": "an engine", "seed": seed, "shard": shard, "games": games,
            "deals": games * 2, "actions_compared": games * 100, "illegal_offered": games * 3,
            "rule_citations_differing": 1, "adapter_restarts": 0, "seconds": 2.5,
            "examples": games, "jobs": 1, "players": [6, 8], "ruleset": "drawn",
            "rules_version": rules_version(), "rare_paths": {"void trick": 4, "void last trick": 0},
            "classes": classes, "expected_not_seen": not_seen,
            "exercise": {"TRICK.CANCEL": {"a pair cancels": 5, "no pair": 2}},
            "never_exercised": ["VOID.LAST", "MOON.CHOICE"], "offers": {"a pass of 2 cards": 3}}


def test_two_summaries_with_overlapping_classes_merge_to_exact_counts() -> None:
    never = {"rule": "LEAD.HEARTS"}
    seen_here = {"rule": "GAME.WINNER"}
    a = _summary(7, "1/2", [_class(PASS_2C, 3, 2, 4, 1.5, 5, "a/pass-cards-1.json"),
                            _class(MOON, 1, 1, 9, 2.0, 40, "a/moon-1.json")],
                 [never, seen_here], games=10)
    b = _summary(7, "2/2", [_class(PASS_2C, 2, 1, 1, 0.2, 3, "b/pass-cards-1.json"),
                            _class(TIE, 4, 4, 2, 0.5, 60, "b/tie-1.json", expected=True)],
                 [never], games=12)
    b["never_exercised"] = ["VOID.LAST"]
    merged = merge_summaries([("a.json", a), ("b.json", b)])
    assert merged["verdict"] == "disagreement" and merged_exit(merged) == 1
    assert (merged["games"], merged["deals"], merged["actions_compared"],
            merged["illegal_offered"], merged["rule_citations_differing"]) == (22, 44, 2200, 66, 2)
    assert merged["seconds"] == 5.0
    assert merged["seed"] == 7 and merged["missing_shards"] == []
    by_key = {c["key"]: c for c in merged["classes"]}
    assert set(by_key) == {PASS_2C, MOON, TIE}
    pass_2c = by_key[PASS_2C]
    assert (pass_2c["count"], pass_2c["games"]) == (5, 3)
    assert pass_2c["first_seen"] == {"game": 1, "seconds": 0.2}
    assert len(pass_2c["example"]["actions"]) == 3  # the smaller example, with its replay
    assert pass_2c["replay"] == "b/pass-cards-1.json"
    assert pass_2c["shrunk"] == "shrunk to 3 actions"
    assert pass_2c["expected_count"] == 0
    assert (by_key[MOON]["count"], by_key[MOON]["games"]) == (1, 1)
    assert (by_key[TIE]["count"], by_key[TIE]["expected"]) == (4, True)
    # Unexpected first, most frequent first; the lead class describes the run.
    assert [c["key"] for c in merged["classes"]] == [PASS_2C, MOON, TIE]
    assert merged["rules"] == ["PASS.CARDS"] and merged["replay"] == "b/pass-cards-1.json"
    assert merged["expected_not_seen"] == [never]  # b saw GAME.WINNER's
    assert merged["rare_paths"] == {"void trick": 8, "void last trick": 0}
    assert merged["exercise"] == {"TRICK.CANCEL": {"a pair cancels": 10, "no pair": 4}}
    assert merged["never_exercised"] == ["VOID.LAST"]
    assert merged["offers"] == {"a pass of 2 cards": 6}
    # The inputs are left as they were.
    assert a["classes"][0]["count"] == 3


def test_verdict_of_a_merge_is_that_of_one_run_with_its_result() -> None:
    expected_only = _summary(1, None, [_class(TIE, 2, 2, 1, 0.1, 4, "t.json", expected=True)],
                             [{"rule": "LEAD.HEARTS"}])
    merged = merge_summaries([("a", expected_only), ("b", copy.deepcopy(expected_only))])
    assert merged["verdict"] == "pass" and merged_exit(merged) == 0
    strict = merge_summaries([("a", expected_only)], strict=True)
    assert strict["verdict"] == "expected-not-seen" and merged_exit(strict) == 1
    nothing = _summary(1, None, [], [], games=0)
    nothing["actions_compared"] = 0
    assert merged_exit(merge_summaries([("a", nothing), ("b", nothing)])) == 4
    tested = _summary(2, None, [], [])
    assert merge_summaries([("a", nothing), ("b", tested)])["verdict"] == "pass"
    error_class = {**_class(TIE, 1, 1, 1, 0.1, 2, "e.json"), "kind": "error"}
    error_only = _summary(5, None, [error_class], [])
    assert merged_exit(merge_summaries([("a", tested), ("b", error_only)])) == 6
    both = _summary(6, None, [_class(PASS_2C, 1, 1, 1, 0.1, 2, "p.json")], [])
    assert merge_summaries([("a", both), ("b", error_only)])["verdict"] == "disagreement"
    fault = _summary(3, None, [], [])
    fault["verdict"], fault["fault"] = "fault", {"kind": "exit", "message": "it crashed"}
    assert merged_exit(merge_summaries([("a", tested), ("b", fault)])) == 2


def test_a_summary_without_classes_counts_its_failure_as_one_class() -> None:
    old = _summary(1, None, [], [])
    del old["classes"], old["expected_not_seen"]
    old["verdict"] = "disagreement"
    old["failure"] = {**_example(2), "summary": "rejects a legal pass"}
    old["replay"] = "r.json"
    merged = merge_summaries([("old", old), ("new", _summary(2, None, [], []))])
    assert [(c["key"], c["count"], c["replay"]) for c in merged["classes"]] == [
        ("PASS.CARDS: rejects a legal pass", 1, "r.json")]
    assert merged_exit(merged) == 1


def _write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_a_merged_failing_summary_exits_1(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    a = _write(tmp_path, "a.json", _summary(4, "1/2", [_class(PASS_2C, 3, 2, 4, 1.5, 5, "p")],
                                           []))
    b = _write(tmp_path, "b.json", _summary(4, "2/2", [], []))
    code, out, _ = _run(capsys, "--merge", a, b)
    assert code == 1
    assert f"{PASS_2C}: 3 times in 2 games; replay p" in out
    assert "unexpected difference: 1" in out
    assert out.strip().splitlines()[-1] == "verdict: DISAGREEMENT"
    code, out, _ = _run(capsys, "--json", "--merge", a, b)
    assert code == 1 and json.loads(out)["verdict"] == "disagreement"


@pytest.mark.parametrize("case", ["adapter", "ruleset", "players", "rules_version", "json",
                                  "missing", "shape", "twice", "command"])
def test_bad_merges_are_one_error_line_exit_2(case: str, capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    good = _summary(4, "1/2", [], [])
    other = _summary(4, "2/2", [], [])
    words = {"adapter": "different adapter", "ruleset": "different ruleset",
             "players": "different player counts", "rules_version": "different rules version",
             "json": "not valid JSON", "missing": "no such file", "shape": "not a conform summary",
             "twice": "would count twice", "command": "runs no adapter"}[case]
    extra: list[str] = []
    second: object = other
    if case in ("adapter", "ruleset", "players", "rules_version"):
        other[case] = {"adapter": "another engine", "ruleset": {"target": 100},
                       "players": [6], "rules_version": "0123456789ab"}[case]
    elif case == "json":
        second = '{"verdict": "pass", '
    elif case == "shape":
        second = {"games": 3}
    elif case == "twice":
        second = good
    elif case == "command":
        extra = ["--", *REFERENCE]
    files = [_write(tmp_path, "a.json", good)]
    files.append(str(tmp_path / "nowhere.json") if case == "missing"
                 else _write(tmp_path, "b.json", second))
    code, out, err = _run(capsys, "--merge", *files, *extra)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert words in err and "Traceback" not in err


def test_the_limits_document_states_the_shard_bound() -> None:
    from rules_ref.registry import spec_dir

    limits = (spec_dir() / "limits.md").read_text(encoding="utf-8")
    assert f"| `--shard K/N` | 1 ≤ K ≤ N ≤ {MAX_SHARDS} |" in limits
    assert "| `conform --merge` |" in limits
