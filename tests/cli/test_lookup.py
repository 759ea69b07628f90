"""Looking things up: ``rules --search``, typo hints, ``sources``, ``deal``, ``--version``."""

from __future__ import annotations

import json
import re
import tomllib
from importlib import metadata

import pytest

from rules_ref import __version__, registry
from rules_ref.deal import seeded_deal, shuffled_deck

from .helpers import ROOT, run


def listed(out: str) -> list[str]:
    return [line.split()[0] for line in out.splitlines() if line.startswith("  ")]


def term(name: str) -> registry.Term:
    return next(t for t in registry.glossary() if t.term == name)


@pytest.mark.rule("SCORE.CARD_POINTS", "LEAD.HEARTS")
@pytest.mark.parametrize("query", [["black", "maria"], ["Black Maria"], ["queen", "of", "spades"],
                                   ["QS"]])
def test_black_maria_finds_the_queen_of_spades_rules(query: list[str],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "--search", *query], capsys)
    assert (code, err) == (0, "")
    expected = list(term("Black Maria").rules)
    assert listed(out)[:len(expected)] == expected
    assert all("Q♠" in registry.rule(i).statement for i in expected)


@pytest.mark.rule("VOID.TRICK", "EXTRAS.FIRST_TRICK", "MOON.CONDITION")
@pytest.mark.parametrize(("query", "first"), [
    ("pending pile", "VOID.TRICK"), ("pending", "VOID.TRICK"), ("widow", "DEAL.SIZE"),
    ("kitty", "DEAL.SIZE"), ("shooting the moon", "MOON.CONDITION"),
    ("cancel", "TRICK.CANCEL"), ("follow suit", "FOLLOW.SUIT"),
])
def test_common_names_rank_their_rules_first(query: str, first: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--search", query], capsys)
    assert code == 0
    assert listed(out)[0] == first


def test_words_that_are_not_an_id_search(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "pending"], capsys)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "'pending' is not a rule ID; rules matching 'pending', " \
        "best first:"
    assert listed(out)[:4] == list(term("pending pile").rules)


def test_a_search_without_a_match_says_so_and_succeeds(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "--search", "xylophone"], capsys)
    assert (code, err) == (0, "")
    assert out == "no rule matches 'xylophone' (`rules-ref rules` lists them all)\n"
    code, out, _ = run(["rules", "--search", "xylophone", "--json"], capsys)
    assert (code, json.loads(out)["rules"]) == (0, [])


@pytest.mark.parametrize(("typed", "first"), [
    ("trick.cancl", "TRICK.CANCEL"), ("trick.winer", "TRICK.WINNER"),
    ("void.lst", "VOID.LAST"), ("moon.choise", "MOON.CHOICE"), ("lead.heart", "LEAD.HEARTS"),
])
def test_typo_hints_put_the_closest_rule_first(typed: str, first: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", typed], capsys)
    assert (code, out) == (2, "")
    hint = re.search(r"did you mean ([A-Z_.]+)[ ,?]", err)
    assert hint is not None and hint[1] == first, err


def test_the_glossary_points_at_rules_that_exist() -> None:
    ids = set(registry.rule_ids())
    for t in registry.glossary():
        assert t.rules and set(t.rules) <= ids, t.term
        assert t.note


def _cited_keys() -> tuple[set[str], set[str], set[str]]:
    """(sentence IDs, seed files, source keys) that spec/rules.toml and variants.toml cite."""
    spec = registry.spec_dir()
    with (spec / "variants.toml").open("rb") as fh:
        variants = tomllib.load(fh)
    sentences = {s.sentence for r in registry.load().rules for s in r.sources if s.sentence}
    files = {f for r in registry.load().rules for s in r.sources for f in s.seed.split()}
    sources = {s["key"] for sw in variants.get("switch", []) for v in sw.get("value", [])
               for s in v.get("sources", [])}
    sources |= {u["source"] for u in variants.get("unsupported", [])}
    return sentences, files, sources


def test_every_cited_key_is_explained() -> None:
    kinds = {k.key: k.kind for k in registry.source_keys()}
    sentences, files, sources = _cited_keys()
    assert sentences and files and sources
    assert {s: kinds.get(s) for s in sentences} == dict.fromkeys(sentences, "sentence")
    assert {f: kinds.get(f) for f in files} == dict.fromkeys(files, "seed file")
    assert {s: kinds.get(s) for s in sources} == dict.fromkeys(sources, "source")


def test_sources_explains_a_sentence_and_the_rules_citing_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["sources", "K10"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "K10: a sentence of the seed article, section Tricks:"
    citing = [r.id for r in registry.load().rules if any(s.sentence == "K10" for s in r.sources)]
    assert lines[-1] == f"Cited by: {', '.join(citing)}"
    code, out, _ = run(["sources", "wp-cur"], capsys)
    assert code == 0
    assert out.splitlines()[0] == 'WP-cur: Wikipedia, "Cancellation Hearts" (the current revision)'
    code, out, _ = run(["sources"], capsys)
    assert code == 0
    assert len(listed(out)) == len(registry.source_keys())


def test_an_unknown_source_key_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["sources", "K99"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("rules-ref sources: error: no source key 'K99' (`rules-ref sources` "
                          "lists them); did you mean ")
    assert len(err.splitlines()) == 1


@pytest.mark.rule("DEAL.SOURCE")
@pytest.mark.parametrize(("players", "seed", "number", "dealer"), [(7, 7, 1, None), (11, 0, 3, 5),
                                                                  (6, 2**64 - 1, 2, 1)])
def test_deal_prints_the_portable_deal(players: int, seed: int, number: int, dealer: int | None,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    args = ["deal", "--players", str(players), "--seed", str(seed), "--deal-number", str(number)]
    args += [] if dealer is None else ["--dealer", str(dealer)]
    code, out, err = run([*args, "--json"], capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    seat = (number - 1) % players if dealer is None else dealer
    deal = seeded_deal(seed, players, number, seat)
    assert data["dealer"] == seat
    assert data["hands"] == [[str(c) for c in h] for h in deal.hands]
    assert data["extras"] == [str(c) for c in deal.extras]
    assert data["deck"] == [str(c) for c in shuffled_deck(seed, number)]
    assert data["start_state"] == seed ^ ((number * 0xD1B54A32D192ED03) % 2**64)
    code, text, _ = run(args, capsys)
    assert code == 0
    assert f"  seat  0: {' '.join(data['hands'][0])}" in text.splitlines()


def test_deal_refuses_a_dealer_who_is_not_a_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["deal", "--players", "6", "--dealer", "6"], capsys)
    assert (code, out) == (2, "")
    assert err == "rules-ref deal: error: --dealer 6: the seats of 6 players are 0 to 5 " \
        "(DEAL.DEALER)\n"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0
    assert out == f"rules-ref {metadata.version('rules-ref')}\n"
    with (ROOT / "pyproject.toml").open("rb") as fh:
        assert tomllib.load(fh)["project"]["version"] == __version__


def test_rules_help_says_a_search_finding_nothing_exits_0(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--help"], capsys)
    assert code == 0
    assert "finding none is said in a line, with exit status 0" in " ".join(out.split())
