"""The conformance vectors of ``spec/vectors/v1`` and ``v2``: frozen, self-consistent, replayable.

* Regenerating them from the reference changes no byte.
* ``rules-ref vectors check`` passes: schema, unique ids, every rule and
  switch value covered, every preset with a transcript, the reference agrees.
* ``rules-ref vectors run`` passes them all through the reference adapter,
  and reports failures, skips and faults as the runner contract
  (``spec/vectors/README.md``) says (more in ``test_vectors_run.py``; how
  fast the replay is, ``benchmarks/run.py`` measures).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules_ref import vectors
from rules_ref.cli import main
from rules_ref.protocol.messages import first_switches
from rules_ref.ruleset import MoonPair, Ruleset
from rules_ref.ruleset import presets as ruleset_presets
from rules_ref.vectors import served, shares
from rules_ref.vectors.case_replay import (
    FAIL,
    PASS,
    SKIP,
    InProcess,
    run_all,
    run_case,
    skip_reason,
    totals_line,
    unsupported,
)
from rules_ref.vectors.versions import ADDED_AFTER_V1, V1_PRESETS, for_version

V1 = vectors.default_dir()
V2 = vectors.version_dir(2)
ADAPTER = [sys.executable, "-m", "rules_ref.protocol.reference_adapter"]
EVERYTHING = {"players": list(range(6, 12)),
              "switches": dict.fromkeys(Ruleset().to_dict(), "any")}


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def files() -> list[vectors.VectorFile]:
    return vectors.load_dir(V1)


def cases_of(files: list[vectors.VectorFile], kind: str) -> list[dict[str, Any]]:
    return [c for _, c in vectors.iter_cases(files, [kind])]


def _same_files(frozen_dir: Path, fresh_dir: Path) -> None:
    frozen = {p.name: p.read_bytes() for p in frozen_dir.glob("*.json")}
    fresh = {p.name: p.read_bytes() for p in fresh_dir.glob("*.json")}
    assert sorted(fresh) == sorted(frozen)
    changed = [name for name in frozen if fresh[name] != frozen[name]]
    assert not changed, f"regenerate with `rules-ref vectors generate`: {changed} differ"


def test_regenerating_version_1_changes_nothing(tmp_path: Path) -> None:
    code, out, _ = cli("vectors", "generate", "--out", str(tmp_path), "--version", "1")
    assert (code, out) == (0, f"wrote {len(list(V1.glob('*.json')))} vector files to "
                              f"{tmp_path}\n")
    _same_files(V1, tmp_path)


#: What version 2's generation prints after its files: the distinguishing matrix, without a
#: gap, the single-card faults, the proofs and the public engines' shares.
PRINTED_HEAD = ("distinguishing matrix: for each switch, how many vectors tell each pair of "
                "its values apart\n")
PRINTED_TAIL = ("\n0 gaps\nsingle-card faults: for each fault of one card, how "
                "many trick vectors fail\n"
                "  cancel: 52 of 52 cards caught, the least by 2 vectors\n"
                "  rank: 52 of 52 cards caught, the least by 2 vectors\n"
                "  points: 52 of 52 cards caught, the least by 24 vectors\n"
                "  breaks: 13 of 13 cards caught, the least by 4 vectors\n"
                "0 card gaps\n"
                "proofs: for each kind, the cases a fault of a rule they cite "
                "fails\n"
                "  passing: 35 of 35 proven\n"
                "  legal-plays: 92 of 92 proven\n"
                "  trick: 627 of 627 proven\n"
                "  scoring: 62 of 62 proven\n"
                "  moon: 28 of 28 proven\n"
                "  game-end: 27 of 27 proven\n"
                "  illegal-action: 74 of 74 proven\n"
                "  perft: 14 of 14 proven\n"
                "  transcript: 11 of 11 proven\n"
                "0 unproven\n"
                "1 position-start form left out, no fault failing them: "
                "trick/allanh-p8-s38-trick13.position\n"
                "share of the suite that applies to the public engines "
                "(their preset, their player counts, the capability position):\n"
                "  allanh (8 players): 337 of 519 cases (64.9%)\n"
                "  crcowan (5 to 11 players): 446 of 519 cases (85.9%)\n")


def test_regenerating_version_2_changes_nothing(tmp_path: Path) -> None:
    code, out, _ = cli("vectors", "generate", "--out", str(tmp_path), "--version", "2")
    assert code == 0
    wrote = f"wrote {len(list(V2.glob('*.json')))} vector files to {tmp_path}\n"
    assert out.startswith(wrote + PRINTED_HEAD)
    assert out.endswith(PRINTED_TAIL)
    _same_files(V2, tmp_path)


@pytest.mark.rule("PLAYERS.COUNT", "DECK.CARDS", "DECK.RANKING", "DEAL.SIZE", "DEAL.SOURCE",
                  "DEAL.DEALER", "PASS.CARDS", "PASS.DIRECTION", "PASS.EXCHANGE",
                  "LEAD.OPENING_LEADER", "LEAD.OPENING_CARD", "LEAD.HEARTS", "HEARTS.BROKEN",
                  "FOLLOW.SUIT", "FOLLOW.FIRST_TRICK", "TURN.ORDER", "TRICK.LED_SUIT",
                  "TRICK.CANCEL", "TRICK.WINNER", "TRICK.NEXT_LEADER", "VOID.TRICK",
                  "VOID.LEADER", "VOID.COLLECT", "VOID.LAST", "EXTRAS.FIRST_TRICK",
                  "SCORE.CARD_POINTS", "SCORE.DEAL", "MOON.CONDITION", "MOON.CHOICE",
                  "GAME.END", "GAME.WINNER", "VIEW.SEAT")
@pytest.mark.untraced  # coverage stopped: see [tool.coverage.run] in pyproject.toml
def test_check_passes(files: list[vectors.VectorFile],
                      monkeypatch: pytest.MonkeyPatch) -> None:
    # Every check but the replay through the reference, which the files pass elsewhere: they
    # are what the reference generates (test_regenerating_version_2_changes_nothing), their protocol
    # cases pass through the reference adapter (test_reference_adapter_passes_every_vector*)
    # and the version 1 unit kinds agree with it (test_unit_kinds_agree_with_the_reference);
    # a disagreement found by the replay is test_check_reports_tampering's.
    report = vectors.check_dir(V1, replay=False)
    assert (report.problems, report.notes) == ([], [])
    assert (report.files, report.cases) == (len(files), sum(len(f.cases) for f in files))
    monkeypatch.setattr(vectors.checking, "replay_reference", lambda found: [])
    v2 = vectors.load_dir(V2)
    code, out, err = cli("vectors", "check")  # the newest directory by default
    assert (code, err) == (0, "")
    assert out == f"ok: {len(v2)} files, {sum(len(f.cases) for f in v2)} vectors\n"


def test_files_carry_the_versions(files: list[vectors.VectorFile]) -> None:
    assert {(f.data["format"], f.data["contract_version"], f.data["vectors_version"])
            for f in files} == {(vectors.FORMAT, 1, 1)}
    assert {(f.data["format"], f.data["contract_version"], f.data["vectors_version"])
            for f in vectors.load_dir(V2)} == {(vectors.FORMAT, 2, 7)}
    assert (vectors.LATEST, vectors.CONTRACT_VERSION, vectors.VECTORS_VERSION) == (2, 2, 7)
    assert vectors.latest_dir() == V2
    readme = (V1.parent / "README.md").read_text(encoding="utf-8")
    assert "**Contract versions 1 and 2.**" in readme


def test_readme_counts_match_the_files(files: list[vectors.VectorFile]) -> None:
    readme = (V1.parent / "README.md").read_text(encoding="utf-8")
    table = {k: (int(n1), int(n2), forms) for k, n1, n2, forms in re.findall(
        r"^\| `([a-z-]+)` \| (\d+)[^|]* \| (\d+)[^|]* \| (\d+|—) \|", readme, re.MULTILINE)}
    counts = {k: len(cases_of(files, k)) for k in vectors.KINDS}
    v2 = vectors.load_dir(V2)
    forms = {k: sum(1 for c in cases_of(v2, k) if "position" in c.get("start", {}))
             for k in vectors.KINDS}
    counts2 = {k: len(cases_of(v2, k)) - forms[k] for k in vectors.KINDS}
    assert table == {k: (counts[k], counts2[k], str(forms[k]) if forms[k] else "—")
                     for k in vectors.KINDS}
    v1_ids = {c["id"] for _, c in vectors.iter_cases(files)}
    assert v1_ids <= {c["id"] for _, c in vectors.iter_cases(v2)}  # v2 keeps every v1 case
    protocol = sum(counts[k] for k in vectors.PROTOCOL_KINDS)
    protocol2 = sum(counts2[k] for k in vectors.PROTOCOL_KINDS)
    n_forms = sum(forms.values())
    assert f"`spec/vectors/v1` holds {sum(counts.values())} cases, {protocol} of them " \
           f"protocol cases;\n`spec/vectors/v2` holds {sum(counts2.values())} cases, " \
           f"{protocol2} of them protocol cases, and\n{n_forms} position-start forms: " \
           f"{sum(counts2.values()) + n_forms} cases, {protocol2 + n_forms} of them protocol " \
           "cases." in readme
    assert f"before the deal) have no position-start form: {n_forms} forms in all." in readme


def test_every_preset_has_a_transcript_and_files_stay_moderate(
        files: list[vectors.VectorFile]) -> None:
    presets = sorted(c["preset"] for c in cases_of(files, "transcript"))
    assert presets == sorted(V1_PRESETS)  # the presets of version 1
    latest = sorted(c["preset"] for c in cases_of(vectors.load_dir(V2), "transcript"))
    assert latest == sorted(ruleset_presets())
    assert max(f.path.stat().st_size for f in files) < 400_000


def test_check_reports_tampering(tmp_path: Path) -> None:
    data = json.loads((V1 / "trick.json").read_text(encoding="utf-8"))
    case = data["cases"][0]
    obs = case["steps"][-1]["expect"]["observation"]
    obs["last_trick"]["winner"] = (obs["last_trick"]["winner"] + 1) % case["players"]
    data["cases"][1]["id"] = case["id"]
    data["cases"][2]["rules"] = ["NOPE.NO_SUCH_RULE"]
    (tmp_path / "trick.json").write_text(vectors.dumps(data), encoding="utf-8")
    report = vectors.check_dir(tmp_path)
    text = "\n".join(report.problems)
    assert f"duplicate id {case['id']}" in text
    assert "cites unknown rule NOPE.NO_SUCH_RULE" in text
    assert "rule VIEW.SEAT is covered by no vector" in text
    assert "switch moon = 'others-104' is covered by no targeted vector" in text
    assert "preset spruce has no transcript" in text
    assert f"the reference disagrees: FAIL {case['id']} [DECK.RANKING, TRICK.WINNER]: step 1 " \
           f"(seat 0 plays 4C): last_trick.winner: expected " in text


def test_check_without_jsonschema_says_so(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(V1 / "card-notation.json", tmp_path)
    monkeypatch.setattr(vectors.checking, "schema_validator", lambda: None)
    report = vectors.check_dir(tmp_path)
    assert report.notes == [vectors.SCHEMA_NEEDS_DEV]


@pytest.mark.rule("DEAL.SOURCE", "DEAL.SIZE")
def test_seeded_deal_vectors_hold_the_worked_values_of_deal_md(
        files: list[vectors.VectorFile]) -> None:
    deal_md = (V1.parent.parent / "deal.md").read_text(encoding="utf-8")
    by_id = {c["id"]: c for c in cases_of(files, "seeded-deal")}
    first = by_id["seeded-deal/s0-p6-d1-dealer0"]["expected"]
    assert f"| 0 | `{' '.join(first['hands'][0])}` |" in deal_md
    assert f"| extras | `{' '.join(first['extras'])}` |" in deal_md
    last = by_id["seeded-deal/s18446744073709551615-p11-d3-dealer5"]["expected"]
    assert f"the extras are `{' '.join(last['extras'])}`" in deal_md


@pytest.mark.rule("DECK.CARDS", "DEAL.SOURCE", "VIEW.SEAT")
def test_unit_kinds_agree_with_the_reference(files: list[vectors.VectorFile]) -> None:
    for kind in vectors.UNIT_KINDS:
        cases = cases_of(files, kind)
        assert cases
        for case in cases:
            assert vectors.unit_expected(kind, case) == case["expected"], case["id"]


@pytest.mark.untraced
def test_reference_adapter_passes_every_vector(files: list[vectors.VectorFile]) -> None:
    n = sum(len(f.cases) for f in files if f.kind in vectors.PROTOCOL_KINDS)
    code, out, err = cli("vectors", "run", "--quiet", "--dir", str(V1), "--", *ADAPTER)
    assert (code, out, err) == (0, f"{n} passed, 0 failed, 0 skipped; tested {n} of {n} cases "
                                   "(100%)\n", "")


@pytest.mark.untraced
def test_reference_adapter_passes_every_vector_of_v2() -> None:
    cases = [c for _, c in vectors.iter_cases(vectors.load_dir(V2), vectors.PROTOCOL_KINDS)]
    forms = sum(1 for c in cases if "position" in c["start"])
    n = len(cases)
    code, out, err = cli("vectors", "run", "--quiet", "--", *ADAPTER, "--protocol", "2")
    assert (forms, n) == (451, 970)
    assert (code, out, err) == (0, f"{n} passed, 0 failed, 0 skipped; tested {n - forms} of "
                                   f"{n - forms} cases (100%); a case and its position-start "
                                   "form count once\n", "")


@pytest.mark.untraced
def test_a_version_1_adapter_skips_only_the_position_forms() -> None:
    """Two kinds of v2 through the reference speaking version 1 (a whole run of v2 by a
    version-1 adapter is ``test_v1_era_adapter.py``'s)."""
    cases = [c for _, c in vectors.iter_cases(vectors.load_dir(V2), ["trick", "moon"])]
    forms = sum(1 for c in cases if "position" in c["start"])
    n = len(cases)
    code, out, err = cli("vectors", "run", "--quiet", "--kinds", "trick,moon", "--", *ADAPTER,
                         "--protocol", "1")
    assert forms > 0
    # a version-1 adapter runs every full-replay case; the position forms are skipped
    assert (code, out, err) == (0, f"{n - forms} passed, 0 failed, {forms} skipped; tested "
                                   f"{n - forms} of {n - forms} cases (100%); a case and its "
                                   "position-start form count once\n", "")


def test_run_prints_a_line_per_vector_then_the_rules_and_totals(
        files: list[vectors.VectorFile]) -> None:
    code, out, _ = cli("vectors", "run", "--verbose", "--dir", str(V1), "--kinds", "passing,trick",
                       "--", *ADAPTER)
    passing, trick = cases_of(files, "passing"), cases_of(files, "trick")
    ids = [c["id"] for c in passing + trick]
    lines = out.splitlines()
    assert code == 0
    assert lines[:len(ids)] == [f"PASS {i}" for i in ids]
    cited = Counter(r for c in passing + trick for r in c["rules"])
    assert (cited["PASS.CARDS"], cited["TRICK.CANCEL"]) == (11, 8)
    assert lines[len(ids):] == [
        "rule                passed  failed  skipped",
        *(f"{rule:<18}  {cited[rule]:>6}       0        0" for rule in sorted(cited)),
        f"{len(ids)} passed, 0 failed, 0 skipped; tested {len(ids)} of {len(ids)} cases (100%)"]


def test_skips_follow_the_handshake_and_name_every_missing_value(
        files: list[vectors.VectorFile]) -> None:
    only8 = {"players": [8], "switches": {"target": "any", "pass_cycle": [["left", "right"]]}}
    cases = cases_of(files, "moon")
    outcomes = run_all(InProcess(), cases, only8)
    got = {o.case_id: (o.status, o.message) for o in outcomes}
    assert got["moon/through-extras-p9"] == (SKIP, "not declared by the adapter: 9 players")
    assert got["moon/others-104-p8"] == (SKIP, "not declared by the adapter: moon others-104")
    assert got["moon/others-52-boardgamegeek-p8"] == (
        SKIP, "not declared by the adapter: pass_count 2, pass_cycle left, moon others-52")
    assert got["moon/choice-add-p8"] == (PASS, "")
    assert skip_reason(cases[0], EVERYTHING) is None
    hold9 = {**cases[0], "players": 9, "ruleset": {**cases[0]["ruleset"], "pass_cycle": ["hold"],
                                                   "moon": "others-52"}}
    assert unsupported(hold9, only8) == ["9 players", "pass_cycle hold", "moon others-52"]
    assert skip_reason(hold9, only8) == "not declared by the adapter: 9 players, " \
        "pass_cycle hold, moon others-52"
    assert totals_line(outcomes) == "3 passed, 0 failed, 6 skipped"


class _AcceptsEverything(InProcess):
    """An adapter that never rejects: it answers an illegal action with the old observation."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[str, Any] = {}

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = super().request(message)
        if answer["type"] == "rejected":
            return self.last
        self.last = answer
        return answer


class _HidesACard(InProcess):
    """An adapter whose legal lists leave out their last card when there are several."""

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        answer = super().request(message)
        legal = answer.get("legal")
        if answer["type"] == "observation" and answer["phase"] == "playing" and legal \
                and len(legal) > 1:
            answer = {**answer, "legal": legal[:-1]}
        return answer


@pytest.mark.rule("FOLLOW.SUIT", "PASS.EXCHANGE")
def test_accepting_illegal_actions_fails_with_the_broken_rule(
        files: list[vectors.VectorFile]) -> None:
    by_id = {c["id"]: c for c in cases_of(files, "illegal-action")}
    outcome = run_case(_AcceptsEverything(), by_id["illegal-action/follow-suit-p6"])
    assert (outcome.status, outcome.rules) == (FAIL, ["FOLLOW.SUIT"])
    assert outcome.message == "step 1 (seat 2 plays AS) was accepted, but it breaks FOLLOW.SUIT"
    outcome = run_case(_AcceptsEverything(), by_id["illegal-action/pass-twice-p6"])
    assert (outcome.status, outcome.rules) == (FAIL, ["PASS.EXCHANGE"])


@pytest.mark.rule("LEAD.OPENING_CARD", "FOLLOW.SUIT")
def test_perft_counts_through_the_legal_lists(files: list[vectors.VectorFile]) -> None:
    case = next(c for c in cases_of(files, "perft") if c["id"] == "perft/opening-lead-p6")
    assert run_case(InProcess(), case).status == PASS
    outcome = run_case(_HidesACard(), case)
    assert outcome.status == FAIL
    # the legal list of the opening lead already differs at the end of the prefix
    assert outcome.rules == ["LEAD.OPENING_CARD"]
    assert outcome.message.startswith(f"depth 3: 93 sequences, expected "
                                      f"{case['expected']['nodes']}; divide differs at ")
    assert outcome.message.endswith(
        '; the game already differed from the reference after prefix action 6 (seat 0 passes '
        '10H 10H JH): legal: expected ["2C","3C","9C","10C","QC","AC","6D","9D","3S","5S","8S",'
        '"9S"], got ["2C","3C","9C","10C","QC","AC","6D","9D","3S","5S","8S"]')


def test_generate_usage_errors_exit_2(tmp_path: Path) -> None:
    assert cli("vectors", "generate", "--version", "2") == (
        2, "", "rules-ref vectors: error: --version goes with --out (without it every frozen "
               "directory is written)\n")
    assert cli("vectors", "generate", "--out", str(tmp_path), "--version", "3") == (
        2, "", "rules-ref vectors: error: --version 3: the versions are 1, 2\n")
    assert list(tmp_path.iterdir()) == []


def test_run_usage_errors_exit_2() -> None:
    assert cli("vectors", "run")[0] == 2
    code, _, err = cli("vectors", "run", "--kinds", "seeded-deal", "--", *ADAPTER)
    assert code == 2
    assert "seeded-deal: not a protocol kind" in err
    code, _, err = cli("vectors", "run", "--kinds", "nonsense", "--", *ADAPTER)
    assert (code, "unknown kind(s) nonsense" in err) == (2, True)


@pytest.mark.untraced
def test_adapter_faults_exit_2(tmp_path: Path) -> None:
    code, out, err = cli("vectors", "run", "--", str(tmp_path / "no-such-adapter"))
    assert code == 2
    assert "adapter start: command not found" in err
    # the adapter reads the hello before it answers, so the answer (not an early exit
    # or a line printed before the hello was sent) is what the runner judges
    code, out, err = cli("vectors", "run", "--timeout", "60", "--", sys.executable, "-c",
                         "import sys; sys.stdin.readline(); print('hello there', flush=True)")
    assert code == 2
    assert "adapter not-json" in err
    assert out == ""  # no totals before an error that stopped the run


def test_version_1_names_only_its_switches_and_leaves_later_cases_to_v2(
        files: list[vectors.VectorFile]) -> None:
    assert {tuple(sorted(c["ruleset"])) for _, c in vectors.iter_cases(files)} == {
        tuple(sorted(first_switches()))}
    v1_ids = {c["id"] for _, c in vectors.iter_cases(files)}
    later = [c for _, c in vectors.iter_cases(vectors.load_dir(V2))
             if c["id"] not in v1_ids and "position" not in c.get("start", {})]
    assert later
    # the cases built for a value (vectors.served) are built for version 2 on only
    tags = [served.slug(changes) for changes in shares.single_values()]
    for case in later:  # each needs a value version 1 lacks, or was added after it
        assert case["id"] in ADDED_AFTER_V1 or for_version(1, case) is None or any(
            f"-for-{tag}-p" in case["id"] for tag in tags), case["id"]
    assert {c["id"] for c in later} >= ADDED_AFTER_V1
    assert for_version(1, {"id": "x/y", "ruleset": Ruleset(moon_pair=MoonPair.OTHERS_26)
                           .to_dict()}) is None
