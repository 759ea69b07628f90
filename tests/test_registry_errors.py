"""A rule registry that cannot be read is named, file and rule, in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_ref.errors import InputError
from rules_ref.registry import read

GROUP = '[[group]]\nid = "deck"\ntitle = "The deck"\n'


def _rule(rule_id: str, group: str = "deck") -> str:
    return (f'[[rule]]\nid = "{rule_id}"\ngroup = "{group}"\ntitle = "t"\n'
            f'statement = "s"\n')


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return path


def test_a_registry_is_read(tmp_path: Path) -> None:
    registry = read(_file(tmp_path, GROUP + _rule("DECK.CARDS")))
    assert [g.id for g in registry.groups] == ["deck"]
    assert list(registry.by_id()) == ["DECK.CARDS"]
    assert registry.rules[0].status == "normative"


@pytest.mark.rule("DECK.CARDS")
def test_every_fault_of_the_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "none.toml"
    with pytest.raises(InputError, match=rf"^{missing}: no such file$"):
        read(missing)
    path = _file(tmp_path, "[[group]\n")
    with pytest.raises(InputError, match=rf"^{path}: not valid TOML: "):
        read(path)
    path = _file(tmp_path, GROUP + _rule("DECK.CARDS") + _rule("DECK.CARDS"))
    with pytest.raises(InputError, match=rf"^{path}: rule 'DECK.CARDS': the ID is used twice$"):
        read(path)
    path = _file(tmp_path, GROUP + _rule("DECK.CARDS", "scoring"))
    with pytest.raises(InputError,
                       match=rf"^{path}: rule 'DECK.CARDS': unknown group 'scoring'$"):
        read(path)
