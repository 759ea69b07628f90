"""``rules-ref conform`` offers tables at the edge of what the rules allow, to be played.

Once a run, after the tables the rules refuse and before the games, the
runner sends the ``start``s of :mod:`rules_ref.conform.edge_tables`,
chosen from what ``hello`` declares. The reference plays them; an engine
whose boundary is off by one (:mod:`tests.fakes.edge_table_adapters`)
is caught before any game, under the rule of that boundary.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rules_ref.cards import TWO_OF_CLUBS
from rules_ref.cli import main
from rules_ref.conform.edge_tables import dealer_last_deal, edge_starts
from rules_ref.conform.refused_tables import refusal
from rules_ref.deal import hand_size
from rules_ref.protocol.start import start_state
from rules_ref.ruleset import MAX_PASS_COUNT, OpeningLead, PassForbidden, Ruleset

from ..fakes.edge_table_adapters import FAULTS, command
from .test_refused_tables import ANY, REFERENCE, RUN, _supports, conform

DEFAULT = Ruleset().to_dict()


def _changed(msg: dict[str, object]) -> dict[str, object]:
    """The switches of a start's ruleset that differ from the defaults."""
    ruleset = msg["ruleset"]
    assert isinstance(ruleset, dict)
    return {k: v for k, v in ruleset.items() if DEFAULT.get(k) != v}


def _holders(msg: dict[str, object]) -> list[int]:
    hands = msg["hands"]
    assert isinstance(hands, list)
    return [seat for seat, hand in enumerate(hands) for c in hand if c == "2C"]


@pytest.mark.rule("PASS.CARDS", "LEAD.OPENING_LEADER")
def test_an_engine_that_supports_every_switch_gets_four_edge_tables() -> None:
    starts = edge_starts(_supports(**ANY), seed=3)
    assert [(m["players"], _changed(m)) for m in starts] == [
        (9, {"pass_count": 9, "pass_forbidden": "two-of-clubs"}),
        (10, {"pass_count": 8, "pass_forbidden": "two-of-clubs"}),
        (11, {"pass_count": 7, "pass_forbidden": "two-of-clubs"}),
        (5, {"min_players": 5, "pass_cycle": ["hold"], "opening_lead": "two-of-clubs"})]
    leader = starts[-1]
    dealer = leader["dealer"]
    assert isinstance(dealer, int)
    assert _holders(leader) == sorted([dealer, (dealer - 1) % 5])
    assert edge_starts(_supports(**ANY), seed=3) == starts  # the same for the same seed


@pytest.mark.rule("PASS.CARDS", "LEAD.OPENING_LEADER")
def test_the_reference_plays_each_edge_table_and_refuses_one_step_past_it() -> None:
    refused = 0
    for msg in edge_starts(_supports(**ANY), seed=5):
        state = start_state(msg)
        rs = state.ruleset
        if rs.pass_forbidden is PassForbidden.TWO_OF_CLUBS:
            assert rs.pass_count == hand_size(state.players) - 2
            if rs.pass_count < MAX_PASS_COUNT:  # 9 at 9 players: no ruleset holds 10
                past = refusal(replace(rs, pass_count=rs.pass_count + 1), state.players)
                assert past is not None and past.rule_id == "PASS.CARDS"
                refused += 1
        else:
            assert rs.opening_lead is OpeningLead.TWO_OF_CLUBS
            assert TWO_OF_CLUBS in state.hands[state.dealer]
            assert state.to_act == state.leader == (state.dealer - 1) % state.players
    assert refused == 2


def test_only_what_the_engine_declares_is_offered() -> None:
    assert edge_starts(_supports()) == []  # every switch at its default
    narrow = edge_starts(_supports((6, 7, 8, 9, 10, 11), pass_forbidden=["none", "two-of-clubs"],
                                   pass_count=[3, 8]))
    assert [(m["players"], _changed(m)) for m in narrow] == [
        (10, {"pass_count": 8, "pass_forbidden": "two-of-clubs"})]
    # opening_lead declared but no pass_cycle whose first deal is held: no leader table
    assert edge_starts(_supports((8,), opening_lead=["two-of-clubs"])) == []
    held = edge_starts(_supports((8, 9), opening_lead=["two-of-clubs"],
                                 pass_cycle=[["left", "right"], ["hold", "left"]]))
    assert [(m["players"], _changed(m)) for m in held] == [
        (8, {"pass_cycle": ["hold", "left"], "opening_lead": "two-of-clubs"})]
    assert edge_starts(_supports(**ANY), players=[6, 7, 8]) == edge_starts(
        _supports((6, 7, 8), **ANY))


def test_the_dealer_last_deal_is_a_seeded_deal_with_the_two_2c_where_they_must_be() -> None:
    for players in range(5, 12):
        found = dealer_last_deal(players, 5, seed=1)
        assert found is not None
        dealer, deal = found
        counts = Counter(seat for seat, hand in enumerate(deal.hands) for c in hand
                         if c == TWO_OF_CLUBS)
        assert counts == Counter({dealer: 1, (dealer - 1) % players: 1})


def test_the_reference_adapter_plays_the_edge_tables(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    code, summary = conform(capsys, *RUN, "--out", str(tmp_path), "--", *REFERENCE)
    assert (code, summary["verdict"], summary["edge_tables_offered"]) == (0, "pass", 4)
    code, fixed = conform(capsys, *RUN, "--preset", "hubpages", "--", *REFERENCE)
    assert (code, fixed["edge_tables_offered"]) == (0, 0)  # one fixed ruleset: none offered


@pytest.mark.parametrize("name", list(FAULTS))
def test_an_engine_off_by_one_at_an_edge_is_caught_before_any_game(
        name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rule = FAULTS[name][1]
    code, summary = conform(capsys, *RUN, "--first", "--out", str(tmp_path), "--",
                            *command(name))
    assert (code, summary["verdict"], summary["games"]) == (1, "disagreement", 0)
    assert summary["edge_tables_offered"] == 4
    assert [(c["rule"], c["shrunk"]) for c in summary["classes"]] == [(rule, "start")]


def test_the_report_says_the_class_was_first_seen_before_the_games(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["conform", *RUN, "--first", "--out", str(tmp_path), "--",
                 *command("dealer-searched-first")])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "LEAD.OPENING_LEADER" in out
    assert "  --first: the search ended at the tables offered before the games, which showed " \
        "an unexpected divergence; the rest of its budget was not played\n" in out
    code = main(["conform", *RUN, "--out", str(tmp_path / "all"), "--",
                 *command("dealer-searched-first")])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "first at a table offered before the games after " in out
