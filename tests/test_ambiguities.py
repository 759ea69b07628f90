"""The catalogue spec/ambiguities.toml agrees with the rules of spec/rules.toml.

Every A-xx a rule settles and every D-xx a rule carries has exactly one
entry; every entry names only rules that exist, and at least every rule
that cites it; A-01 … A-45 and D-01 … D-21 are all there, in order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_ref import ambiguities, registry
from rules_ref.errors import InputError

AMBIGUITY_IDS = [f"A-{n:02d}" for n in range(1, 46)]
DECISION_IDS = [f"D-{n:02d}" for n in range(1, 22)]


def _citing() -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
    """A-xx -> rules settling it; D-xx -> rules carrying it; D-xx -> A-xx those rules settle."""
    by_ambiguity: dict[str, set[str]] = {}
    by_decision: dict[str, set[str]] = {}
    settled_by_decision: dict[str, set[str]] = {}
    for r in registry.load().rules:
        for a in r.settles:
            by_ambiguity.setdefault(a, set()).add(r.id)
        by_decision.setdefault(r.decision, set()).add(r.id)
        settled_by_decision.setdefault(r.decision, set()).update(r.settles)
    return by_ambiguity, by_decision, settled_by_decision


def test_every_ambiguity_and_decision_has_exactly_one_entry_in_order() -> None:
    catalogue = ambiguities.load_ambiguities()
    assert [a.id for a in catalogue.ambiguities] == AMBIGUITY_IDS
    assert [d.id for d in catalogue.decisions] == DECISION_IDS


def test_every_id_cited_by_a_rule_has_an_entry() -> None:
    catalogue = ambiguities.load_ambiguities()
    by_ambiguity, by_decision, _ = _citing()
    assert sorted(set(by_ambiguity) - {a.id for a in catalogue.ambiguities}) == []
    assert sorted(set(by_decision) - {d.id for d in catalogue.decisions}) == []


def test_entries_name_only_existing_rules_and_every_rule_that_cites_them() -> None:
    catalogue = ambiguities.load_ambiguities()
    known = set(registry.rule_ids())
    by_ambiguity, by_decision, _ = _citing()
    cited = [(a.id, a.rules) for a in catalogue.ambiguities]
    cited += [(d.id, d.rules) for d in catalogue.decisions]
    unknown = [f"{key}: {r}" for key, rules in cited for r in rules if r not in known]
    assert unknown == []
    missing = [f"{a.id} lacks {r}" for a in catalogue.ambiguities
               for r in sorted(by_ambiguity.get(a.id, set()) - set(a.rules))]
    missing += [f"{d.id} lacks {r}" for d in catalogue.decisions
                for r in sorted(by_decision.get(d.id, set()) - set(d.rules))]
    assert missing == []


def test_a_decision_settles_exactly_what_its_rules_settle() -> None:
    _, _, settled = _citing()
    wrong = {d.id: (sorted(d.settles), sorted(settled.get(d.id, set())))
             for d in ambiguities.load_ambiguities().decisions
             if set(d.settles) != settled.get(d.id, set())}
    assert wrong == {}


def test_every_entry_is_filled_in() -> None:
    catalogue = ambiguities.load_ambiguities()
    empty = [f"{a.id}.{name}" for a in catalogue.ambiguities
             for name in ("title", "question", "translations", "others", "resolution")
             if not getattr(a, name)]
    empty += [f"{d.id}.{name}" for d in catalogue.decisions
              for name in ("title", "summary", "why") if not getattr(d, name)]
    empty += [f"{a.id}.rules" for a in catalogue.ambiguities if not a.rules]
    empty += [f"{d.id}.rules" for d in catalogue.decisions if not d.rules]
    assert empty == []
    # a quoted seed sentence always says which sentence it is
    assert [a.id for a in catalogue.ambiguities if a.quote and not a.seed] == []


def test_the_text_reads_as_one_line_per_field() -> None:
    entry = ambiguities.load_ambiguities().ambiguity("A-04")
    assert entry.seed == ("K10",)
    assert entry.rules == ("TRICK.CANCEL",)
    assert "\n" not in entry.question and entry.question.startswith("Two players playing")


def test_an_id_used_twice_is_refused_naming_it(tmp_path: Path) -> None:
    entry = ('[[decision]]\nid = "D-01"\ntitle = "t"\nsummary = "s"\nwhy = "w"\n'
             'settles = []\nrules = []\n')
    path = tmp_path / "ambiguities.toml"
    path.write_text('format = "cancellation-hearts-ambiguities"\nversion = 1\n'
                    + entry + entry, encoding="utf-8")
    with pytest.raises(InputError, match=r"decision 'D-01': the ID is used twice"):
        ambiguities.read_ambiguities(path)


def test_a_missing_field_is_refused_naming_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "ambiguities.toml"
    path.write_text('format = "cancellation-hearts-ambiguities"\n[[ambiguity]]\nid = "A-01"\n',
                    encoding="utf-8")
    with pytest.raises(InputError, match=r"ambiguity 'A-01': `title` must be a string"):
        ambiguities.read_ambiguities(path)
